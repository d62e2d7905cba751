// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/plan/kvcache.h"
#include "core/plan/memoryplan.h"

#include <optional>

namespace kvscope {

struct Scenario;

/// The calculation core: every figure kvscope shows comes from here.
/// Pure and fast (no I/O); throws kvscope::Error naming the option and value
/// for invalid input, and for results that would overflow 64-bit bytes.
MemoryPlan planMemory(const Scenario &scenario);

/// planMemory(), or nullopt where the core refuses the scenario (a precision or
/// tensor-parallel size the engine rejects): for searches, where such a
/// combination is no candidate.
std::optional<MemoryPlan> tryPlanMemory(const Scenario &scenario);

/// The quantization a scenario resolves to: --quantization if given (with its
/// group size), else the checkpoint's quantization_config, else none.
QuantizationSpec effectiveQuantization(const Scenario &scenario);

/// The cache layout options a scenario resolves to under `dtype` (the resolved
/// --dtype) and `kvCacheDtype` (resolved): TP, --block-size, state dtypes.
KvCacheOptions kvCacheOptions(const Scenario &scenario, WeightDtype dtype, KvCacheDtype kvCacheDtype);

/// The model as the engine lays out its KV pool (EngineRules::layOut: SGLang's one pool keeps every
/// window token) with the drafter's `draftLayers` that join it: what the pool's figures count.
ModelArch poolModel(const Scenario &scenario, int draftLayers);

/// Throws kvscope::Error naming `field`'s option unless 0 < ppm <= 10^6 (a share
/// in (0, 1] held in millionths).
void requireShare(std::int64_t ppm, ScenarioField field);

/// Checks a scenario without planning; throws the same errors planMemory would.
void validateScenario(const Scenario &scenario);

} // namespace kvscope
