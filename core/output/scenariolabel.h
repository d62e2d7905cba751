// SPDX-License-Identifier: MIT
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/plan/memoryplan.h"

#include <QString>

namespace kvscope {

struct Scenario;

/// A scenario in a few words, for a chip or a tab: the model, the GPUs, the weight
/// format when quantized, the KV precision, batch × sequence length:
/// "Llama-3.1-70B · 4×H100 SXM 80GB · FP8 KV · 64 × 32K". `plan` is planMemory(scenario)
/// (the precisions "auto" resolves to).
QString scenarioLabel(const Scenario &scenario, const MemoryPlan &plan);

/// What "auto" resolved to in a plan, as the options spell their values: --dtype ("bfloat16"),
/// --quantization ("awq", "none") and --kv-cache-dtype ("fp8_e4m3"). kvscope calc --json's
/// "dtype", "quantization" and "kv_cache_dtype", and the figures' captions.
struct ResolvedPrecisions
{
    QString dtype;
    QString quantization;
    QString kvCacheDtype;
};

ResolvedPrecisions resolvedPrecisions(const MemoryPlan &plan);

/// A GPU's name without its vendor: "H100 SXM 80GB".
QString shortGpuName(const GpuSpec &gpu);

} // namespace kvscope
