// SPDX-License-Identifier: MIT
#pragma once

#include "core/precision/quantizationspec.h"

#include <QJsonObject>
#include <QString>

namespace kvscope {

/// Reads a config.json quantization_config (or compression_config) into a
/// QuantizationSpec: fp8 (block or per tensor), fbgemm_fp8 (per channel),
/// awq, gptq, bitsandbytes (nf4 / int8), mxfp4 and compressed-tensors
/// (llm-compressor's W4A16 / W8A8 / FP8 / NVFP4 schemes). Method None when
/// empty; kvscope::Error naming the field for anything it cannot size.
QuantizationSpec parseQuantizationConfig(const QJsonObject &quantizationConfig, const QString &origin);

} // namespace kvscope
