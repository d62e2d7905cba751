// SPDX-License-Identifier: MIT
#include "precision/dtypes.h"

#include "common/checked.h"
#include "common/error.h"

namespace kvscope {

QString dtypeName(WeightDtype dtype)
{
    switch (dtype) {
    case WeightDtype::Auto:
        return QStringLiteral("auto");
    case WeightDtype::Float32:
        return QStringLiteral("float32");
    case WeightDtype::Float16:
        return QStringLiteral("float16");
    case WeightDtype::BFloat16:
        return QStringLiteral("bfloat16");
    }
    return {};
}

QString dtypeName(KvCacheDtype dtype)
{
    switch (dtype) {
    case KvCacheDtype::Auto:
        return QStringLiteral("auto");
    case KvCacheDtype::Float32:
        return QStringLiteral("float32");
    case KvCacheDtype::Float16:
        return QStringLiteral("float16");
    case KvCacheDtype::BFloat16:
        return QStringLiteral("bfloat16");
    case KvCacheDtype::Fp8:
        return QStringLiteral("fp8");
    case KvCacheDtype::Fp8E4M3:
        return QStringLiteral("fp8_e4m3");
    case KvCacheDtype::Fp8E5M2:
        return QStringLiteral("fp8_e5m2");
    case KvCacheDtype::Q8_0:
        return QStringLiteral("q8_0");
    case KvCacheDtype::Q4_0:
        return QStringLiteral("q4_0");
    }
    return {};
}

QStringList weightDtypeChoices()
{
    return {QStringLiteral("auto"), QStringLiteral("float32"), QStringLiteral("float16"),
            QStringLiteral("bfloat16")};
}

QStringList kvCacheDtypeChoices()
{
    return {QStringLiteral("auto"),     QStringLiteral("float32"), QStringLiteral("float16"),
            QStringLiteral("bfloat16"), QStringLiteral("fp8"),     QStringLiteral("fp8_e4m3"),
            QStringLiteral("fp8_e5m2")};
}

QStringList llamaCppKvCacheDtypeChoices()
{
    return {QStringLiteral("q8_0"), QStringLiteral("q4_0")};
}

WeightDtype parseWeightDtype(const QString &text, const QString &option)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("auto"))
        return WeightDtype::Auto;
    if (t == QLatin1String("float32") || t == QLatin1String("float") || t == QLatin1String("fp32"))
        return WeightDtype::Float32;
    if (t == QLatin1String("float16") || t == QLatin1String("half") || t == QLatin1String("fp16"))
        return WeightDtype::Float16;
    if (t == QLatin1String("bfloat16") || t == QLatin1String("bf16"))
        return WeightDtype::BFloat16;
    throw Error(QStringLiteral("%1: unknown dtype '%2' (choose one of: %3)")
                    .arg(option, text, weightDtypeChoices().join(QStringLiteral(", "))));
}

KvCacheDtype parseKvCacheDtype(const QString &text, const QString &option)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("auto"))
        return KvCacheDtype::Auto;
    if (t == QLatin1String("float32") || t == QLatin1String("fp32"))
        return KvCacheDtype::Float32;
    if (t == QLatin1String("float16") || t == QLatin1String("half") || t == QLatin1String("fp16"))
        return KvCacheDtype::Float16;
    if (t == QLatin1String("bfloat16") || t == QLatin1String("bf16"))
        return KvCacheDtype::BFloat16;
    if (t == QLatin1String("fp8"))
        return KvCacheDtype::Fp8;
    if (t == QLatin1String("fp8_e4m3"))
        return KvCacheDtype::Fp8E4M3;
    if (t == QLatin1String("fp8_e5m2"))
        return KvCacheDtype::Fp8E5M2;
    if (t == QLatin1String("q8_0"))
        return KvCacheDtype::Q8_0;
    if (t == QLatin1String("q4_0"))
        return KvCacheDtype::Q4_0;
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
    default:
        return {1, bytesPerElement(dtype)};
    }
}

} // namespace

bool isBlockKvType(KvCacheDtype dtype)
{
    return dtype == KvCacheDtype::Q8_0 || dtype == KvCacheDtype::Q4_0;
}

std::int64_t kvRowBytes(KvCacheDtype dtype, std::int64_t elements)
{
    const KvBlock block = kvBlock(dtype);
    if (elements % block.values != 0)
        throw Error(QStringLiteral("--kv-cache-dtype: %1 stores blocks of %2 values, but a KV row holds %3 "
                                   "(llama.cpp refuses this cache type for the model)")
                        .arg(dtypeName(dtype))
                        .arg(block.values)
                        .arg(elements));
    return (Checked(elements / block.values) * block.bytes).value();
}

double kvBitsPerElement(KvCacheDtype dtype)
{
    const KvBlock block = kvBlock(dtype);
    return 8.0 * block.bytes / block.values;
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
