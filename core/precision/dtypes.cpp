// SPDX-License-Identifier: MIT
#include "core/precision/dtypes.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"

namespace kvscope {

namespace {

constexpr EnumSpelling<WeightDtype> weightDtypeSpellings[] = {
    {WeightDtype::Auto, "auto"},
    {WeightDtype::Float32, "float32", {"float", "fp32"}},
    {WeightDtype::Float16, "float16", {"half", "fp16"}},
    {WeightDtype::BFloat16, "bfloat16", {"bf16"}},
};

constexpr EnumSpelling<KvCacheDtype> kvCacheDtypeSpellings[] = {
    {KvCacheDtype::Auto, "auto"},
    {KvCacheDtype::Float32, "float32", {"fp32"}},
    {KvCacheDtype::Float16, "float16", {"half", "fp16"}},
    {KvCacheDtype::BFloat16, "bfloat16", {"bf16"}},
    {KvCacheDtype::Fp8, "fp8"},
    {KvCacheDtype::Fp8E4M3, "fp8_e4m3"},
    {KvCacheDtype::Fp8E5M2, "fp8_e5m2"},
    {KvCacheDtype::Nvfp4, "nvfp4"},
    {KvCacheDtype::Fp4MxBlock16, "fp4_mx_block16"},
    {KvCacheDtype::Q8_0, "q8_0"},
    {KvCacheDtype::Q4_0, "q4_0"},
};

} // namespace

QString dtypeName(WeightDtype dtype)
{
    return enumName(weightDtypeSpellings, dtype);
}

QString dtypeName(KvCacheDtype dtype)
{
    return enumName(kvCacheDtypeSpellings, dtype);
}

QStringList weightDtypeChoices()
{
    return enumChoices(weightDtypeSpellings);
}

QStringList kvCacheDtypeChoices()
{
    return enumChoices(kvCacheDtypeSpellings, [](KvCacheDtype d) { return !isLlamaCppKvType(d); });
}

QStringList llamaCppKvCacheDtypeChoices()
{
    return enumChoices(kvCacheDtypeSpellings, isLlamaCppKvType);
}

WeightDtype parseWeightDtype(const QString &text, const QString &option)
{
    if (const auto dtype = enumValue(weightDtypeSpellings, text.trimmed().toLower()))
        return *dtype;
    throw Error(QStringLiteral("%1: unknown dtype '%2' (choose one of: %3)")
                    .arg(option, text, weightDtypeChoices().join(QStringLiteral(", "))));
}

KvCacheDtype parseKvCacheDtype(const QString &text, const QString &option)
{
    if (const auto dtype = enumValue(kvCacheDtypeSpellings, text.trimmed().toLower()))
        return *dtype;
    throw Error(QStringLiteral("%1: unknown KV cache dtype '%2' (choose one of: %3; for GGUF models also %4)")
                    .arg(option, text, kvCacheDtypeChoices().join(QStringLiteral(", ")),
                         llamaCppKvCacheDtypeChoices().join(QStringLiteral(", "))));
}

int bytesPerElement(WeightDtype dtype)
{
    switch (dtype) {
    case WeightDtype::Float32:
        return 4;
    case WeightDtype::Float16:
    case WeightDtype::BFloat16:
        return 2;
    case WeightDtype::Auto:
        break;
    }
    throw Error(QStringLiteral("internal: dtype 'auto' must be resolved before sizing"));
}

int bytesPerElement(KvCacheDtype dtype)
{
    switch (dtype) {
    case KvCacheDtype::Float32:
        return 4;
    case KvCacheDtype::Float16:
    case KvCacheDtype::BFloat16:
        return 2;
    case KvCacheDtype::Fp8:
    case KvCacheDtype::Fp8E4M3:
    case KvCacheDtype::Fp8E5M2:
        return 1;
    case KvCacheDtype::Nvfp4:
    case KvCacheDtype::Fp4MxBlock16:
    case KvCacheDtype::Q8_0:
    case KvCacheDtype::Q4_0:
        throw Error(QStringLiteral("internal: KV cache dtype '%1' is a block type; size it with kvRowBytes")
                        .arg(dtypeName(dtype)));
    case KvCacheDtype::Auto:
        break;
    }
    throw Error(QStringLiteral("internal: KV cache dtype 'auto' must be resolved before sizing"));
}

namespace {

/// ggml block of a llama.cpp KV type: values per block and bytes per block.
struct KvBlock
{
    int values;
    int bytes;
};

KvBlock kvBlock(KvCacheDtype dtype)
{
    switch (dtype) {
    case KvCacheDtype::Q8_0:
        return {32, 34}; // fp16 d + int8 qs[32]
    case KvCacheDtype::Q4_0:
        return {32, 18}; // fp16 d + 16 bytes of nibbles
    case KvCacheDtype::Nvfp4:
    case KvCacheDtype::Fp4MxBlock16:
        return {16, 9}; // 8 bytes of E2M1 pairs + one scale byte (FP8 E4M3, or E8M0)
    default:
        return {1, bytesPerElement(dtype)};
    }
}

} // namespace

bool isBlockKvType(KvCacheDtype dtype)
{
    return isFp4(dtype) || isLlamaCppKvType(dtype);
}

bool isLlamaCppKvType(KvCacheDtype dtype)
{
    return dtype == KvCacheDtype::Q8_0 || dtype == KvCacheDtype::Q4_0;
}

bool isFp8(KvCacheDtype dtype)
{
    return dtype == KvCacheDtype::Fp8 || dtype == KvCacheDtype::Fp8E4M3 || dtype == KvCacheDtype::Fp8E5M2;
}

bool isFp4(KvCacheDtype dtype)
{
    return dtype == KvCacheDtype::Nvfp4 || dtype == KvCacheDtype::Fp4MxBlock16;
}

std::int64_t kvRowBytes(KvCacheDtype dtype, std::int64_t elements)
{
    const KvBlock block = kvBlock(dtype);
    if (elements % block.values != 0)
        throw Error(QStringLiteral("%1: %2 stores blocks of %3 values, but a KV row holds %4 "
                                   "(%5 refuses this cache type for the model)")
                        .arg(optionFlag(ScenarioField::KvCacheDtype), dtypeName(dtype),
                             QString::number(block.values), QString::number(elements),
                             isLlamaCppKvType(dtype)               ? QStringLiteral("llama.cpp")
                             : dtype == KvCacheDtype::Fp4MxBlock16 ? QStringLiteral("SGLang")
                                                                   : QStringLiteral("vLLM")));
    return (Checked(elements / block.values) * block.bytes).value();
}

double kvBitsPerElement(KvCacheDtype dtype)
{
    const KvBlock block = kvBlock(dtype);
    return 8.0 * block.bytes / block.values;
}

namespace {

/// Short precision names for labels ("auto" is the 16-bit default: BF16).
const EnumSpelling<KvCacheDtype> kvPrecisionNames[] = {
    {KvCacheDtype::Auto, "BF16"},
    {KvCacheDtype::Float32, "FP32"},
    {KvCacheDtype::Float16, "FP16"},
    {KvCacheDtype::BFloat16, "BF16"},
    {KvCacheDtype::Fp8, "FP8"},
    {KvCacheDtype::Fp8E4M3, "FP8"},
    {KvCacheDtype::Fp8E5M2, "FP8 E5M2"},
    {KvCacheDtype::Nvfp4, "NVFP4"},
    {KvCacheDtype::Fp4MxBlock16, "MXFP4-16"},
    {KvCacheDtype::Q8_0, "Q8_0"},
    {KvCacheDtype::Q4_0, "Q4_0"},
};

} // namespace

QString kvPrecisionName(KvCacheDtype dtype)
{
    return enumName(kvPrecisionNames, dtype);
}

WeightDtype resolveAutoDtype(WeightDtype requested, WeightDtype checkpointDtype)
{
    if (requested != WeightDtype::Auto)
        return requested;
    switch (checkpointDtype) {
    case WeightDtype::Float32:
    case WeightDtype::Float16:
        return WeightDtype::Float16;
    case WeightDtype::BFloat16:
    case WeightDtype::Auto:
        return WeightDtype::BFloat16;
    }
    return WeightDtype::BFloat16;
}

KvCacheDtype resolveKvCacheDtype(KvCacheDtype requested, WeightDtype resolvedDtype)
{
    switch (requested) {
    case KvCacheDtype::Auto:
        switch (resolvedDtype) {
        case WeightDtype::Float32:
            return KvCacheDtype::Float32;
        case WeightDtype::Float16:
            return KvCacheDtype::Float16;
        case WeightDtype::BFloat16:
        case WeightDtype::Auto:
            return KvCacheDtype::BFloat16;
        }
        break;
    case KvCacheDtype::Fp8:
        return KvCacheDtype::Fp8E4M3;
    default:
        return requested;
    }
    return requested;
}

} // namespace kvscope
