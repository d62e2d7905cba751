// SPDX-License-Identifier: MIT
// One KV head as kvscope's accuracy figures simulate it (docs/methodology.md,
// "Accuracy"): synthetic keys with four outlier channels and plain values over
// a prompt, the decode queries that attend to them and the softmax scale.
// Compare's figures and the Quantization view's attention tab draw the same
// tensors from here, so the two agree.
#pragma once

#include "core/model/modelarch.h"
#include "core/precision/dtypes.h"
#include "core/quantization/attentionerror.h"
#include "core/quantization/parallel.h"
#include "core/quantization/scheme.h"
#include "core/quantization/synthetic.h"

#include <cstdint>
#include <optional>
#include <vector>

#include <QString>

namespace kvscope {

/// Rows (tokens) of a simulated key or value tensor.
inline constexpr std::int64_t KvTokens = 4096;
/// The keys' outlier channels: four of them, 2.5x, 5x, 7.5x and 10x the rest.
inline constexpr double KeyChannelScale = 10.0;
inline constexpr std::uint64_t KeySeed = 2;
inline constexpr std::uint64_t ValueSeed = 3;
inline constexpr std::uint64_t QuerySeed = 4;

struct KvHead
{
    /// The keys, or MLA's latent (c_KV and the RoPE key, as absorbed MLA attends to it).
    quant::SyntheticSpec keys;
    /// The values; nullopt for MLA, whose latent is keys and values at once.
    std::optional<quant::SyntheticSpec> values;
    bool latent = false;
    /// The softmax scale 1/sqrt(q·k width); MLA's is that of its query-key head
    /// (nope + rope), not of the latent.
    double logitScale = 1.0;
};

/// The KV head of `model` over KvTokens tokens, stored as `activations`.
KvHead kvHead(const ModelArch &model, WeightDtype activations);

/// The simulator's scheme for a quantized KV cache dtype (fp8 and fp8_e4m3: E4M3;
/// fp8_e5m2: E5M2; nvfp4: NVFP4 blocks): one per-tensor scale, the engine's 1.0
/// or a calibrated amax / max.
quant::Scheme kvCacheScheme(KvCacheDtype dtype, bool calibratedScale);

/// The cache of one head extended to the longest attention context
/// (attentionContexts().last() tokens), exact and through `scheme`: its first
/// KvTokens rows are the tensor the element error was simulated on (the
/// generator seeds every row by itself); a calibrated scale is the whole
/// extended tensor's amax / max.
struct ExtendedCache
{
    quant::TensorData exact;
    std::vector<float> quantized;
    float amax = 0; ///< of the exact tensor
};
ExtendedCache extendedCache(quant::SyntheticSpec spec, const quant::Scheme &scheme,
                            const quant::RunControl &control = {});
/// Keys and values (for MLA, the latent twice) as the attention error reads them.
quant::AttentionCache attentionCache(const ExtendedCache &keys, const ExtendedCache &values);

/// "engine" (the engine's per-tensor 1.0) or "calibrated" (amax / max), as kvscope's JSON spells them.
QString kvScaleName(bool calibratedScale);

/// The simulator's element type for a 16- or 32-bit dtype (bfloat16 for auto).
quant::ElementType elementType(WeightDtype dtype);

} // namespace kvscope
