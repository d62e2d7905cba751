// SPDX-License-Identifier: MIT
// What differs between the serving engines in a memory plan, one step at a
// time. planMemory() calls the steps in order and holds no engine branch of
// its own; each engine's rules live in one place (vllmrules.cpp,
// sglangrules.cpp), each step citing the engine's source. A new engine, a new
// release's accounting or a new parallelism plugs in here.
#pragma once

#include "core/engine/gpusupport.h"
#include "core/gpu/gpuspec.h"
#include "core/plan/eplb.h"
#include "core/plan/kvcache.h"
#include "core/plan/memoryplan.h"
#include "core/plan/weights.h"

#include <cstdint>
#include <functional>
#include <memory>

#include <QString>

namespace kvscope {

struct Scenario;

/// vLLM's logged "GPU KV cache size" before vllm-project/vllm#41069: blocks per group x the block size.
std::int64_t blocksPerGroupTokens(const KvCacheMemory &kv, int blockSize);

/// vLLM's logged "GPU KV cache size" since vllm-project/vllm#41069: int(max concurrency x
/// max_model_len), max concurrency = num_blocks / blocks per request, in doubles as Python computes it.
std::int64_t concurrencyTimesLengthTokens(const KvCacheMemory &kv, std::int64_t maxModelLen);

class EngineRules
{
public:
    virtual ~EngineRules() = default;

    /// Refuses what this engine cannot plan, beyond the checks every engine
    /// shares (validateScenario); throws kvscope::Error naming the option.
    virtual void validate(const Scenario &scenario) const = 0;
    /// The release whose accounting the plan follows ("0.19"); empty where the
    /// engine's releases are not modelled apart.
    virtual QString versionText() const = 0;
    /// --dtype as the engine resolves it for this checkpoint on this GPU (auto:
    /// the checkpoint's; vLLM falls back to float16 where the GPU has no bfloat16).
    virtual WeightDtype resolveDtype(const Scenario &scenario, WeightDtype checkpointDtype) const;
    /// Why the engine refuses this GPU with the plan's resolved precisions before it
    /// sizes anything (a weight format below its minimum compute capability, …);
    /// empty when it does not.
    virtual QString gpuRefusal(const Scenario &scenario, const MemoryPlan &plan) const = 0;
    /// The model's layers as the engine lays them out.
    virtual ModelArch layOut(const ModelArch &model) const = 0;
    /// --max-num-seqs and --max-num-batched-tokens (or the engine's names for
    /// them) as given, or the engine's defaults.
    virtual void applyLimits(const Scenario &scenario, MemoryPlan &plan) const = 0;
    /// The start-up profiling run's activation peak taken from the budget (0
    /// where the engine keeps activations outside it); `plan` holds the
    /// resolved dtype, tensor-parallel size, --max-num-seqs and
    /// --max-num-batched-tokens.
    virtual std::int64_t activationBytes(const ModelArch &model, const MemoryPlan &plan) const = 0;
    /// What the profiling run encodes for a multimodal model, whose outputs activationBytes() holds
    /// (none by default: an engine whose profiling runs no encoder); `plan` as for activationBytes().
    virtual EncoderProfile encoderProfile(const ModelArch &model, const MemoryPlan &plan) const;
    /// How the engine pads expert weights for the scenario (its GPU picks the kernel).
    virtual ExpertPadding expertPadding(const Scenario &scenario) const = 0;
    /// The checkpoint's quantization as the engine's kernels hold it once loaded (the checkpoint's
    /// by default).
    virtual QuantizationSpec loadedQuantization(const Scenario &scenario,
                                                const QuantizationSpec &checkpoint) const;
    /// Tokens per block of the KV pool.
    virtual int kvBlockSize(const Scenario &scenario) const = 0;
    /// Bytes the pool adds per token beyond its layers' pages (SGLang's FP4 dequantization
    /// workspace); 0 by default.
    virtual std::int64_t kvWorkspaceBytesPerToken(const Scenario &scenario, KvCacheDtype dtype) const;
    /// The share of a full-attention pool's tokens that a separate sliding-window pool holds, in
    /// millionths (SGLang's hybrid SWA pool); 0 by default: one pool.
    virtual int swaPoolRatioPpm(const Scenario &scenario) const;
    /// How the engine keeps recurrent states: their dtypes and whether they have a pool of their own
    /// (SGLang); vLLM's blocks by default, as kvCacheOptions() sets them.
    virtual void shapeStatePool(const Scenario &scenario, KvCacheOptions &options) const;
    /// The expert load balancer's state on one GPU for a model of `moeLayers` MoE layers whose routed
    /// experts take `localExpertBytes` (core/plan/eplb.h); nothing by default.
    virtual EplbStateMemory eplbStateMemory(const Scenario &scenario, int moeLayers,
                                            std::int64_t localExpertBytes) const;
    /// The memory that weights, activations and the KV pool share, and what the
    /// engine takes from it first: the budget, runtime overhead, CUDA graphs,
    /// the memory in use before the weights, and the defaults that go with them.
    /// `rankModel` is the model one GPU runs (its pipeline stage's layers).
    virtual void applyBudget(const Scenario &scenario, const ModelArch &rankModel,
                             MemoryPlan &plan) const = 0;
    /// Whether the engine logs its pool's size in tokens as the maximum concurrency x --max-model-len
    /// (concurrencyTimesLengthTokens) rather than the blocks per group x the block size.
    virtual bool logsCapacityAsConcurrency() const;
    /// Whether the engine starts with the pool `kv` describes.
    virtual bool starts(const KvCacheMemory &kv) const = 0;
    /// Why the engine refuses to start with the plan's pool, in the engine's
    /// terms (for a plan whose engine does not start).
    virtual QString refusal(const MemoryPlan &plan) const = 0;
    /// The KV cache's bytes where the scenario fixes them (vLLM's --kv-cache-memory-bytes) in
    /// place of the profiled budget in `plan`; nothing by default.
    virtual void fixKvBudget(const Scenario &scenario, MemoryPlan &plan) const;
    /// What the engine derives from the pool once it is sized (SGLang's
    /// default --max-running-requests); nothing by default.
    virtual void settlePool(const Scenario &scenario, MemoryPlan &plan) const;
    /// What loading the weights takes beyond their parameters and buffers, as the engine measures a load,
    /// from the parameter tensors the GPU allocates (`tensors`, in order; core/plan/loadreplay.h); nothing by
    /// default.
    virtual void sizeLoad(const ModelArch &model, const std::function<QList<std::int64_t>()> &tensors,
                          MemoryPlan &plan) const;
    /// What the plan says about the engine's own rules: the release, a refusal
    /// to start, a cap on requests.
    virtual void addNotes(const Scenario &scenario, MemoryPlan &plan) const = 0;

protected:
    /// The GPU check's settings from the scenario and the plan's resolved precisions.
    static GpuCheck gpuCheck(const Scenario &scenario, const MemoryPlan &plan);
};

/// The rules of the scenario's engine (and, for vLLM, of its --vllm-version);
/// throws kvscope::Error naming --vllm-version for a release kvscope cannot plan.
std::unique_ptr<EngineRules> engineRules(const Scenario &scenario);

} // namespace kvscope
