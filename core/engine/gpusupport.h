// SPDX-License-Identifier: MIT
// What an engine refuses to run on a GPU before it sizes anything: a weight
// format below its loader's minimum compute capability, bfloat16 where the GPU
// has none, an FP8 KV cache no attention backend takes there. Each rule is the
// engine's own start-up check, cited where it is written (gpusupport.cpp).
#pragma once

#include "core/engine/engine.h"
#include "core/gpu/gpuspec.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"

#include <optional>

#include <QString>

namespace kvscope {

/// A compute capability as the engines compare it: "8.6" -> 86. nullopt for a GPU
/// that has none (AMD, Apple, a custom GPU without one) or an unreadable one.
std::optional<int> capabilityNumber(const QString &computeCapability);

/// The least compute capability `engine`'s loader accepts for weights stored as
/// `method` (its quantization config's get_min_capability); 0 where kvscope
/// knows of no such check.
int minimumCapability(Engine engine, QuantMethod method);

/// Whether the GPU computes in bfloat16 (compute capability 8.0 or later); true
/// when its capability is unknown.
bool hasBfloat16(const GpuSpec &gpu);

/// The settings a GPU check looks at, resolved as the plan resolves them.
struct GpuCheck
{
    Engine engine = Engine::Vllm;
    std::optional<EngineVersion> vllmVersion; ///< the release asked for; nullopt: the newest modelled
    QuantMethod method = QuantMethod::None;
    WeightDtype requestedDtype = WeightDtype::Auto; ///< --dtype as given
    WeightDtype dtype = WeightDtype::BFloat16;      ///< resolved
    KvCacheDtype kvCacheDtype = KvCacheDtype::Auto; ///< resolved
    bool mla = false;                               ///< the model caches an MLA latent
    std::int64_t headDim = 0;                       ///< values per cached key head
    std::int64_t vHeadDim = 0;                      ///< values per cached value head
};

/// Why the engine refuses to start on `gpu` with these settings, in the words of
/// its own check with kvscope's values ("--quantization awq needs compute
/// capability 7.5 or later (…); the V100 has 7.0"); empty when it does not.
QString gpuRefusal(const GpuSpec &gpu, const GpuCheck &check);

} // namespace kvscope
