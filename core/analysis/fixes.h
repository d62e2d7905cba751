// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/gpu/gpuspec.h"
#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"

#include <cstdint>

#include <QJsonValue>
#include <QList>
#include <QString>

namespace kvscope {

/// What a proposal mainly changes.
enum class FixKind
{
    BatchSize,      ///< a smaller batch at the same length (when it fits: the largest one)
    SeqLen,         ///< a shorter sequence at the same batch (when it fits: the longest one)
    MaxModelLen,    ///< a --max-model-len the cache can hold, so that vLLM starts
    KvCacheDtype,   ///< a narrower KV cache precision
    Quantization,   ///< quantized weights
    TensorParallel, ///< more GPUs
    DataParallel,   ///< a MoE's data-parallel ranks, the experts divided among their GPUs
    Gpu,            ///< a GPU with more memory
    KvCacheMemory   ///< the --kv-cache-memory-bytes pool the batch needs (or the most the GPU holds)
};

/// One option a proposal sets (ScenarioField::BatchSize -> 12).
struct OptionChange
{
    ScenarioField option;
    QJsonValue value; ///< a number for counts, a string for names, as on the command line
};

/// A change to a scenario and what planning it gives.
struct Fix
{
    FixKind kind = FixKind::BatchSize;
    /// The scenario already fits: this is how far it could go (the largest batch, the
    /// longest sequence), not a repair.
    bool limit = false;
    /// The proposal's own option first; then the ones that settle it (a batch or
    /// --max-model-len that fits the new room).
    QList<OptionChange> changes;
    Scenario scenario; ///< the scenario with the changes applied
    MemoryPlan plan;   ///< planMemory(scenario): fits and vLLM starts
    /// vLLM loads this quantization only from a checkpoint stored that way (AWQ, GPTQ);
    /// fp8 and bitsandbytes quantize a 16-bit checkpoint while loading it.
    bool needsQuantizedCheckpoint = false;
};

/// When `plan` (of `scenario`) does not fit or vLLM would not start: the changes that
/// make it work, each planned — a smaller batch or sequence, a --max-model-len, a
/// narrower KV cache, quantized weights, more GPUs (valid tensor-parallel sizes
/// only), a GPU of `gpus` with more memory; a change that frees memory comes with
/// the batch that then fits if the current one still does not. When it works: how
/// far it could go (the largest batch, the longest sequence up to --max-model-len).
/// Every proposal's plan fits and starts.
QList<Fix> proposeFixes(const Scenario &scenario, const MemoryPlan &plan, const QList<GpuSpec> &gpus);

} // namespace kvscope
