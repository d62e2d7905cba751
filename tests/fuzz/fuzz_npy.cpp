// SPDX-License-Identifier: MIT
// A whole .npy file -> the header reader and the data checks (NpyFile::open,
// through the tensor list) -> the tensor, when usable, quantized with every
// scheme kind, so odd floats (NaN, ±inf, subnormals) reach each quantizer.
#include "core/common/error.h"
#include "core/quantization/quantrun.h"
#include "core/quantization/tensorsource.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"

#include <cstddef>
#include <cstdint>

namespace kvscope::fuzz {

namespace {

QList<quant::Scheme> everySchemeKind()
{
    // Both FP8 overflow policies and both FP8 scales; int groups shorter than,
    // equal to and longer than the fuzzer's rows.
    QList<quant::Scheme> schemes = quant::parseSchemeList(
        {QStringLiteral("fp16,bf16,fp8-e4m3,fp8-e5m2,int8,int4-g8,int3-sym-row,int2-g64,nf4,mxfp4")});
    schemes += quant::parseSchemeList({QStringLiteral("fp8-e4m3,fp8-e5m2")}, {128, false, true});
    return schemes;
}

} // namespace

void npy(const std::uint8_t *data, std::size_t size)
{
    static const QList<quant::Scheme> schemes = everySchemeKind();
    const QString path = scratchFile(QStringLiteral("fuzz.npy"), data, size);
    try {
        const QList<quant::TensorInfo> tensors = quant::listTensors(path);
        if (tensors.size() != 1)
            violated("a .npy file lists one tensor", QString::number(tensors.size()));
        if (!tensors.first().unusableReason.isEmpty())
            return;
        quant::QuantRequest request;
        request.source = quant::TensorFile{path, {}};
        request.schemes = schemes;
        request.options.bins = 16;
        quant::runQuantization(request);
    } catch (const Error &) {
    }
}

} // namespace kvscope::fuzz
