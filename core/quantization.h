// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>

namespace kvscope {

/// vLLM's --quantization methods that kvscope sizes.
enum class QuantMethod { None, Fp8, Int8, Awq, Gptq, BitsAndBytesNf4, Mxfp4 };

/// One weight-quantization scheme as a checkpoint stores it. Filled from
/// --quantization/--group-size or from config.json's quantization_config.
struct QuantizationSpec
{
    QuantMethod method = QuantMethod::None;
    int bits = 4;                 ///< awq/gptq weight bits
    int groupSize = 128;          ///< awq/gptq group along the input dimension; -1 = one group per row
    int blockRows = 0;            ///< fp8 block-wise scales (DeepSeek-V3: 128 x 128); 0 = per-tensor scale
    int blockCols = 0;
    bool doubleQuant = true;      ///< bitsandbytes nf4 with quantized absmax (QLoRA)
    QStringList modulesNotConverted; ///< checkpoint's ignore list (HF module name patterns)

    friend bool operator==(const QuantizationSpec &, const QuantizationSpec &) = default;
};

QString quantMethodName(QuantMethod method);
QStringList quantMethodChoices();
/// vLLM's spellings plus "bitsandbytes-nf4"; throws kvscope::Error on anything else.
QuantMethod parseQuantMethod(const QString &text, const QString &option = QStringLiteral("--quantization"));

/// A spec with the method's usual defaults (awq/gptq 4-bit g128, fp8 per tensor...).
QuantizationSpec defaultSpecFor(QuantMethod method);

/// Human description used in tables: "AWQ int4, group 128, fp16 scales + int4 zeros".
QString describe(const QuantizationSpec &spec);

/// Exact stored bytes of one [rows = out_features, cols = in_features] weight
/// matrix under `spec`, scales and zero points included; `dtypeBytes` is the size of
/// the --dtype element (unquantized weights and awq/gptq scales).
std::int64_t quantizedMatrixBytes(const QuantizationSpec &spec, std::int64_t rows, std::int64_t cols,
                                  int dtypeBytes);

} // namespace kvscope
