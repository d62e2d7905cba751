// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"

#include <cstdint>
#include <optional>

#include <QString>
#include <QStringList>

namespace kvscope {

/// vLLM's --quantization methods that kvscope sizes.
enum class QuantMethod
{
    None,
    Fp8,
    Int8,
    Awq,
    Gptq,
    BitsAndBytesNf4,
    Mxfp4,
    CompressedTensors
};

/// One weight-quantization scheme as a checkpoint stores it. Filled from
/// --quantization/--group-size or from config.json's quantization_config.
struct QuantizationSpec
{
    QuantMethod method = QuantMethod::None;
    int bits = 4;        ///< awq/gptq weight bits
    int groupSize = 128; ///< awq/gptq group along the input dimension; -1 = one group per row
    int blockRows = 0;   ///< fp8 block-wise scales (DeepSeek-V3: 128 x 128); 0 = per-tensor scale
    int blockCols = 0;
    bool doubleQuant = true;         ///< bitsandbytes nf4 with quantized absmax (QLoRA)
    bool perChannelScales = false;   ///< fp8 with one fp32 scale per output row (fbgemm_fp8)
    QStringList modulesNotConverted; ///< checkpoint's ignore list (HF module names, "re:" regexes)

    // compressed-tensors (llm-compressor) weight scheme. groupSize > 0: groups
    // along the input; -1: one scale per output row ("channel"); 0: one per tensor.
    bool floatWeights = false; ///< "type": "float" (fp8, fp4) instead of "int"
    bool symmetric = true;     ///< no zero points stored
    /// AWQ/GPTQ as loaded, not as stored: each zero point unpacked and pre-scaled in the activation
    /// dtype, as vLLM's Machete kernel keeps them (VllmRules::loadedQuantization).
    bool unpackedZeroPoints = false;
    int scaleBytes = 0;       ///< bytes per scale; 0 = the --dtype element (llm-compressor's default)
    int globalScaleBytes = 0; ///< one extra per-tensor scale (NVFP4: fp32)
    QString scheme;           ///< preset name for display ("W4A16", "FP8_DYNAMIC", "W8A8", "NVFP4")

    /// AWQ or GPTQ: int weights in groups of groupSize along the input (-1:
    /// one per row, never 0) with fp16 scales, which vLLM's kernels run in float16.
    bool isAwqOrGptq() const { return method == QuantMethod::Awq || method == QuantMethod::Gptq; }
    /// --group-size applies: AWQ, GPTQ and compressed-tensors.
    bool takesGroupSize() const { return isAwqOrGptq() || method == QuantMethod::CompressedTensors; }

    friend bool operator==(const QuantizationSpec &, const QuantizationSpec &) = default;
};

QString quantMethodName(QuantMethod method);
QStringList quantMethodChoices();
/// vLLM's spellings plus "bitsandbytes-nf4"; throws kvscope::Error on anything else.
QuantMethod parseQuantMethod(const QString &text,
                             const QString &option = optionFlag(ScenarioField::Quantization));

/// A spec with the method's usual defaults (awq/gptq 4-bit g128, fp8 per tensor...).
QuantizationSpec defaultSpecFor(QuantMethod method);

/// The text of a --quantization choice: "auto" (std::nullopt: whatever the
/// checkpoint stores) or the method's name.
QString quantizationChoiceName(const std::optional<QuantizationSpec> &choice);
/// Reads a --quantization choice: "auto" (any case, blanks ignored) gives
/// std::nullopt, a method its defaultSpecFor(); throws as parseQuantMethod.
std::optional<QuantizationSpec>
parseQuantizationChoice(const QString &text, const QString &option = optionFlag(ScenarioField::Quantization));
/// The same for a model whose checkpoint is quantized as `checkpoint`: when
/// it names the chosen method, the checkpoint's own spec (bits, groups, scales) is kept.
std::optional<QuantizationSpec>
parseQuantizationChoice(const QString &text, const QuantizationSpec &checkpoint,
                        const QString &option = optionFlag(ScenarioField::Quantization));

/// vLLM quantizes a 16-bit checkpoint to fp8 or bitsandbytes while loading it;
/// the other methods load weights calibrated and stored that way.
bool quantizesWhileLoading(QuantMethod method);

/// A weight format in a few letters, for labels: "AWQ INT4", "GPTQ INT4", "NF4",
/// a compressed-tensors checkpoint's scheme ("W8A8"), else the method upper-cased ("FP8").
QString shortName(const QuantizationSpec &spec);

/// Human description used in tables: "AWQ int4, group 128, fp16 scales + int4 zeros".
QString describe(const QuantizationSpec &spec);

/// Where the stored bytes of one weight matrix go: the weights themselves, their
/// scales, their zero points, and the rest a format stores beside them.
struct MatrixStorage
{
    std::int64_t values = 0; ///< the weights: packed codes, or the --dtype elements when unquantized
    std::int64_t scales = 0; ///< scales, block absmax (double-quantized included), global scales
    std::int64_t zeros = 0;  ///< zero points of asymmetric integer formats
    std::int64_t other = 0;  ///< GPTQ's g_idx, compressed-tensors' weight_shape
    std::int64_t total() const;
};

/// Exact stored bytes of one [rows = out_features, cols = in_features] weight
/// matrix under `spec`, split by what they hold; `dtypeBytes` is the size of
/// the --dtype element (unquantized weights and awq/gptq scales).
MatrixStorage quantizedMatrixStorage(const QuantizationSpec &spec, std::int64_t rows, std::int64_t cols,
                                     int dtypeBytes);

/// quantizedMatrixStorage(...).total(): scales and zero points included.
std::int64_t quantizedMatrixBytes(const QuantizationSpec &spec, std::int64_t rows, std::int64_t cols,
                                  int dtypeBytes);

} // namespace kvscope
