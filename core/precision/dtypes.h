// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"

#include <cstdint>

#include <QString>
#include <QStringList>

namespace kvscope {

/// vLLM's --dtype: the floating-point type of unquantized weights and activations.
enum class WeightDtype
{
    Auto,
    Float32,
    Float16,
    BFloat16
};

/// vLLM's --kv-cache-dtype. Float32 is not a vLLM choice; it is what "auto"
/// gives under --dtype float32, kept so the precision walk can start there.
/// Q8_0 and Q4_0 are llama.cpp's block-quantized cache types (--cache-type-k/v),
/// for GGUF models: 32 values in 34 and 18 bytes (ggml-common.h block_q8_0/q4_0).
/// Nvfp4 is vLLM's NVFP4 cache: E2M1 values with one FP8 E4M3 scale per 16, a
/// head of D values in D/2 + D/16 bytes (vllm/utils/torch_utils.py
/// nvfp4_kv_cache_full_dim), on Blackwell GPUs only; SGLang's "nvfp4" stores the same.
/// Fp4MxBlock16 is SGLang's other FP4 cache (--kv-cache-dtype fp4_mx_block16): E2M1
/// values with one power-of-two (E8M0) scale per 16, stored as NVFP4 is
/// (python/sglang/srt/layers/quantization/kvfp4_tensor.py, FP4MXBlock16KVQuantizeUtil).
enum class KvCacheDtype
{
    Auto,
    Float32,
    Float16,
    BFloat16,
    Fp8,
    Fp8E4M3,
    Fp8E5M2,
    Nvfp4,
    Fp4MxBlock16,
    Q8_0,
    Q4_0
};

QString dtypeName(WeightDtype dtype);
QString dtypeName(KvCacheDtype dtype);

/// Parses vLLM's spellings (also "half", "float", "bf16", "fp16"); throws
/// kvscope::Error naming `option` and the value when it is not one of them.
WeightDtype parseWeightDtype(const QString &text, const QString &option = optionFlag(ScenarioField::Dtype));
KvCacheDtype parseKvCacheDtype(const QString &text,
                               const QString &option = optionFlag(ScenarioField::KvCacheDtype));

QStringList weightDtypeChoices();
/// vLLM's --kv-cache-dtype values (what a picker offers for any model).
QStringList kvCacheDtypeChoices();
/// llama.cpp's cache types, offered for GGUF models only.
QStringList llamaCppKvCacheDtypeChoices();

/// Bytes per element; Auto must be resolved first. The llama.cpp block
/// types have no whole byte count per element: size them with kvRowBytes().
int bytesPerElement(WeightDtype dtype);
int bytesPerElement(KvCacheDtype dtype);

/// True for the KV types stored in blocks of values with a shared scale and no
/// whole byte count per element (nvfp4, fp4_mx_block16, q8_0, q4_0): size them with kvRowBytes().
bool isBlockKvType(KvCacheDtype dtype);
/// True for llama.cpp's block-quantized KV types (q8_0, q4_0), for GGUF models only.
bool isLlamaCppKvType(KvCacheDtype dtype);
/// True for the 8-bit float KV types (fp8, fp8_e4m3, fp8_e5m2).
bool isFp8(KvCacheDtype dtype);
/// True for the 4-bit float KV types (nvfp4, fp4_mx_block16): E2M1 values in blocks of 16.
bool isFp4(KvCacheDtype dtype);

/// Exact bytes of `elements` cached values in one row (one token, one layer,
/// K or V): elements x bytes, or whole 32-value blocks for q8_0 / q4_0 (as
/// ggml_row_size); throws when a block type's row is not a multiple of 32.
std::int64_t kvRowBytes(KvCacheDtype dtype, std::int64_t elements);

/// Storage bits per cached value, for display (q8_0: 8.5, q4_0 and nvfp4: 4.5).
double kvBitsPerElement(KvCacheDtype dtype);

/// A resolved KV dtype as a chart or label names it: "BF16", "FP16", "FP32", "FP8",
/// "FP8 E5M2", "NVFP4", "MXFP4-16" (SGLang's fp4_mx_block16), "Q8_0", "Q4_0".
QString kvPrecisionName(KvCacheDtype dtype);

/// vLLM's "auto": float16 for float32/float16 checkpoints, bfloat16 for
/// bfloat16 checkpoints and for configs that name no dtype.
WeightDtype resolveAutoDtype(WeightDtype requested, WeightDtype checkpointDtype);

/// --kv-cache-dtype auto follows the resolved --dtype; fp8 means fp8_e4m3.
KvCacheDtype resolveKvCacheDtype(KvCacheDtype requested, WeightDtype resolvedDtype);

} // namespace kvscope
