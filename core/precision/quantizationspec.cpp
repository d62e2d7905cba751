// SPDX-License-Identifier: MIT
#include "core/precision/quantizationspec.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"
#include "core/common/error.h"

#include <QCoreApplication>

namespace kvscope {

namespace {

/// The --quantization choice that is no method: the checkpoint's own.
const QString AutoChoice = QStringLiteral("auto");

constexpr EnumSpelling<QuantMethod> quantMethodSpellings[] = {
    {QuantMethod::None, "none"},
    {QuantMethod::Fp8, "fp8"},
    {QuantMethod::Int8, "int8", {"w8a8"}},
    {QuantMethod::Awq, "awq", {"awq_marlin"}},
    {QuantMethod::Gptq, "gptq", {"gptq_marlin"}},
    {QuantMethod::BitsAndBytesNf4, "bitsandbytes-nf4", {"bitsandbytes", "nf4"}},
    {QuantMethod::Mxfp4, "mxfp4"},
    {QuantMethod::CompressedTensors, "compressed-tensors", {"compressed_tensors"}},
};

} // namespace

QString quantMethodName(QuantMethod method)
{
    return enumName(quantMethodSpellings, method);
}

QStringList quantMethodChoices()
{
    return QStringList{AutoChoice} + enumChoices(quantMethodSpellings);
}

QuantMethod parseQuantMethod(const QString &text, const QString &option)
{
    if (const auto method = enumValue(quantMethodSpellings, text.trimmed().toLower()))
        return *method;
    throw Error(QStringLiteral("%1: unknown quantization method '%2' (choose one of: %3)")
                    .arg(option, text, quantMethodChoices().join(QStringLiteral(", "))));
}

QuantizationSpec defaultSpecFor(QuantMethod method)
{
    QuantizationSpec spec;
    spec.method = method;
    spec.bits = method == QuantMethod::Int8 || method == QuantMethod::Fp8 ? 8 : 4;
    if (method == QuantMethod::CompressedTensors)
        spec.scheme = QStringLiteral("W4A16"); // llm-compressor's most common scheme: int4, g128, symmetric
    return spec;
}

QString quantizationChoiceName(const std::optional<QuantizationSpec> &choice)
{
    return choice ? quantMethodName(choice->method) : AutoChoice;
}

std::optional<QuantizationSpec> parseQuantizationChoice(const QString &text, const QString &option)
{
    if (text.trimmed().toLower() == AutoChoice)
        return std::nullopt;
    return defaultSpecFor(parseQuantMethod(text, option));
}

std::optional<QuantizationSpec>
parseQuantizationChoice(const QString &text, const QuantizationSpec &checkpoint, const QString &option)
{
    std::optional<QuantizationSpec> choice = parseQuantizationChoice(text, option);
    if (choice && choice->method == checkpoint.method)
        return checkpoint;
    return choice;
}

bool quantizesWhileLoading(QuantMethod method)
{
    return method == QuantMethod::None || method == QuantMethod::Fp8 ||
           method == QuantMethod::BitsAndBytesNf4;
}

QString shortName(const QuantizationSpec &spec)
{
    switch (spec.method) {
    case QuantMethod::Awq:
        return QStringLiteral("AWQ INT%1").arg(spec.bits);
    case QuantMethod::Gptq:
        return QStringLiteral("GPTQ INT%1").arg(spec.bits);
    case QuantMethod::BitsAndBytesNf4:
        return QStringLiteral("NF4");
    case QuantMethod::CompressedTensors:
        if (!spec.scheme.isEmpty())
            return spec.scheme;
        break;
    case QuantMethod::None:
    case QuantMethod::Fp8:
    case QuantMethod::Int8:
    case QuantMethod::Mxfp4:
        break;
    }
    return quantMethodName(spec.method).toUpper();
}

/// The translation context of the formats' descriptions (lupdate reads QuantizationFormat::tr): the window
/// shows them in its language, on the weights card and in the Compare view.
class QuantizationFormat
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::QuantizationFormat)
};

QString describe(const QuantizationSpec &spec)
{
    switch (spec.method) {
    case QuantMethod::None:
        return QuantizationFormat::tr("unquantized");
    case QuantMethod::Fp8:
        if (spec.perChannelScales)
            return QuantizationFormat::tr("FP8 E4M3, fp32 scale per output channel");
        return spec.blockRows > 0 ? QuantizationFormat::tr("FP8 E4M3, fp32 scale per %1x%2 block")
                                        .arg(spec.blockRows)
                                        .arg(spec.blockCols)
                                  : QuantizationFormat::tr("FP8 E4M3, fp32 scale per tensor");
    case QuantMethod::Int8:
        return QuantizationFormat::tr("INT8, fp32 scale per output channel");
    case QuantMethod::Awq:
        return QuantizationFormat::tr("AWQ int%1, group %2, fp16 scales + int%1 zero points")
            .arg(spec.bits)
            .arg(spec.groupSize);
    case QuantMethod::Gptq:
        return QuantizationFormat::tr("GPTQ int%1, group %2, fp16 scales + int%1 zeros + int32 g_idx")
            .arg(spec.bits)
            .arg(spec.groupSize);
    case QuantMethod::BitsAndBytesNf4:
        return spec.doubleQuant ? QuantizationFormat::tr("NF4, blocks of 64, double-quantized absmax")
                                : QuantizationFormat::tr("NF4, blocks of 64, fp32 absmax");
    case QuantMethod::Mxfp4:
        return QuantizationFormat::tr("MXFP4 (E2M1), E8M0 scale per 32 values");
    case QuantMethod::CompressedTensors: {
        const QString granularity = spec.groupSize > 0
                                        ? QuantizationFormat::tr("group %1").arg(spec.groupSize)
                                    : spec.groupSize == 0 ? QuantizationFormat::tr("per tensor")
                                                          : QuantizationFormat::tr("per channel");
        return QuantizationFormat::tr("compressed-tensors %1: %2%3, %4, %5")
            .arg(spec.scheme.isEmpty() ? QuantizationFormat::tr("scheme") : spec.scheme,
                 spec.floatWeights ? QStringLiteral("fp") : QStringLiteral("int"))
            .arg(spec.bits)
            .arg(granularity, spec.symmetric ? QuantizationFormat::tr("symmetric")
                                             : QuantizationFormat::tr("with zero points"));
    }
    }
    return {};
}

namespace {

/// compressed-tensors storage (compressed_tensors/compressors): pack-quantized
/// ints live in int32 words along the input, 4-bit floats two per byte, 8-bit
/// types one per byte; a scale per group/row/tensor; zero points packed like
/// the weights along the output when asymmetric; 16 B weight_shape when packed.
MatrixStorage compressedTensorsStorage(const QuantizationSpec &spec, std::int64_t rows, std::int64_t cols,
                                       int dtypeBytes)
{
    MatrixStorage storage;
    const bool packedInts = !spec.floatWeights && spec.bits < 8;
    storage.values = (packedInts ? Checked(rows) * ceilDiv((Checked(cols) * spec.bits).value(), 32) * 4
                                 : Checked(ceilDiv((Checked(rows) * cols * spec.bits).value(), 8)))
                         .value();
    const std::int64_t groups = spec.groupSize > 0 ? ceilDiv(cols, spec.groupSize) : 1;
    const Checked scales = spec.groupSize == 0 ? Checked(1) : Checked(rows) * groups;
    storage.scales =
        (scales * (spec.scaleBytes > 0 ? spec.scaleBytes : dtypeBytes) + spec.globalScaleBytes).value();
    if (!spec.symmetric && !spec.floatWeights) {
        const std::int64_t zeroRows = spec.groupSize == 0 ? 1 : rows;
        storage.zeros =
            (packedInts ? Checked(ceilDiv((Checked(zeroRows) * spec.bits).value(), 32)) * 4 * groups
                        : Checked(zeroRows) * groups)
                .value();
    }
    if (packedInts || (spec.floatWeights && spec.bits < 8))
        storage.other = 16; // weight_shape: int64 [rows, cols]
    return storage;
}

} // namespace

std::int64_t MatrixStorage::total() const
{
    return (Checked(values) + scales + zeros + other).value();
}

MatrixStorage quantizedMatrixStorage(const QuantizationSpec &spec, std::int64_t rows, std::int64_t cols,
                                     int dtypeBytes)
{
    const Checked elements = Checked(rows) * cols;
    MatrixStorage storage;
    switch (spec.method) {
    case QuantMethod::None:
        break;
    case QuantMethod::Fp8:
        // One byte per weight; fp32 scales per tensor, per row or per block (DeepSeek-V3 128x128).
        storage.values = elements.value();
        if (spec.perChannelScales)
            storage.scales = (Checked(rows) * 4).value();
        else if (spec.blockRows > 0 && spec.blockCols > 0)
            storage.scales =
                (Checked(ceilDiv(rows, spec.blockRows)) * ceilDiv(cols, spec.blockCols) * 4).value();
        else
            storage.scales = 4;
        return storage;
    case QuantMethod::Int8:
        storage.values = elements.value();
        storage.scales = (Checked(rows) * 4).value();
        return storage;
    case QuantMethod::Awq:
    case QuantMethod::Gptq: {
        // qweight packs `bits` per weight; per group along the input: a scale in
        // the activation dtype and a packed zero point of `bits` (AutoAWQ/AutoGPTQ layout).
        const std::int64_t groups = spec.groupSize > 0 ? ceilDiv(cols, spec.groupSize) : 1;
        storage.values = ceilDiv((elements * spec.bits).value(), 8);
        storage.scales = (Checked(groups) * rows * dtypeBytes).value();
        storage.zeros = spec.unpackedZeroPoints ? (Checked(groups) * rows * dtypeBytes).value()
                                                : ceilDiv((Checked(groups) * rows * spec.bits).value(), 8);
        if (spec.method == QuantMethod::Gptq)
            storage.other = (Checked(cols) * 4).value(); // g_idx: int32 per input channel
        return storage;
    }
    case QuantMethod::BitsAndBytesNf4: {
        // Two codes per byte, absmax per 64 values; with double quantization the
        // absmax is int8 with an fp32 absmax per 256 blocks and one fp32 offset.
        const std::int64_t blocks = ceilDiv(elements.value(), 64);
        storage.values = ceilDiv(elements.value(), 2);
        storage.scales = spec.doubleQuant ? (Checked(blocks) + Checked(ceilDiv(blocks, 256)) * 4 + 4).value()
                                          : (Checked(blocks) * 4).value();
        return storage;
    }
    case QuantMethod::Mxfp4:
        // E2M1 nibbles, one E8M0 byte per 32 values along the input dimension.
        storage.values = ceilDiv(elements.value(), 2);
        storage.scales = (Checked(rows) * ceilDiv(cols, 32)).value();
        return storage;
    case QuantMethod::CompressedTensors:
        return compressedTensorsStorage(spec, rows, cols, dtypeBytes);
    }
    storage.values = (elements * dtypeBytes).value();
    return storage;
}

std::int64_t quantizedMatrixBytes(const QuantizationSpec &spec, std::int64_t rows, std::int64_t cols,
                                  int dtypeBytes)
{
    return quantizedMatrixStorage(spec, rows, cols, dtypeBytes).total();
}

} // namespace kvscope
