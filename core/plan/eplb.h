// SPDX-License-Identifier: MIT
// vLLM's expert-parallel load balancer (--enable-eplb, --eplb-config): redundant copies of routed
// experts spread over the EP GPUs, and the state the balancer keeps on every GPU. EplbState.add_model
// (vllm/distributed/eplb/eplb_state.py) runs inside GPUModelRunner.load_model's DeviceMemoryProfiler,
// so vLLM's "Model loading took" counts it with the weights, before the KV cache is sized.
#pragma once

#include "core/scenario/scenario.h"

#include <cstdint>

#include <QList>

namespace kvscope {

/// The routed experts a MoE layer has on all GPUs together: num_experts + num_redundant_experts under
/// vLLM's EPLB (FusedMoE.global_num_experts, vllm/model_executor/layers/fused_moe/layer.py), else
/// num_experts.
int physicalExpertCount(const Scenario &s);

/// What vLLM accepts of --enable-eplb and --eplb-config, as vLLM checks it: EPLB only with
/// --enable-expert-parallel over more than one GPU, on CUDA or ROCm GPUs (ParallelConfig's
/// validation, vllm/config/parallel.py), for model classes that implement MixtureOfExperts and
/// expert kernels that support it (quant_method.supports_eplb), with the physical experts dividing
/// evenly over the EP GPUs (FusedMoE); redundant experts only with EPLB. kvscope also plans it
/// without pipeline stages.
/// Throws kvscope::Error naming the option and the value.
void validateEplb(const Scenario &s);

/// Whether vLLM takes --enable-eplb beside s's other choices (validateEplb with it on and no
/// redundant experts): when an EPLB switch is offered.
bool eplbAccepted(const Scenario &s);

/// The num_redundant_experts vLLM takes beside s's other choices, from 0 up: those that keep the
/// physical experts dividing over the EP GPUs, at most `count` of them (a redundant-experts box's
/// choices); {0} where EPLB is not taken.
QList<int> validRedundantExpertCounts(const Scenario &s, int count = 8);

/// vLLM's EPLB as s's other choices still take it: off where a new model, GPU or layout does not
/// (eplbAccepted), and the redundant experts back to the fewest that divide where the GPUs changed
/// under them. What the window and fit do to a scenario whose layout they change.
void keepEplbWhereTaken(Scenario &s);

/// EPLB's state on one GPU, by what holds it.
struct EplbStateMemory
{
    /// One MoE layer's local experts, the buffer experts are moved through (expert_buffer, held from
    /// vLLM 0.12 on: vllm-project/vllm#22179; before, it was allocated at each rearrangement).
    std::int64_t expertBufferBytes = 0;
    /// expert_load_window (window_size x MoE layers x physical experts) and expert_load_pass (MoE
    /// layers x physical experts), int32 counters.
    std::int64_t loadCounterBytes = 0;
    /// physical_to_logical_map (MoE layers x physical experts), logical_to_physical_map (MoE layers x
    /// experts x (MAX_EXPERT_REDUNDANCY + 1) = 1,024 slots, vllm-project/vllm#20775) and
    /// logical_replica_count (MoE layers x experts), int64.
    std::int64_t mapBytes = 0;
    /// vLLM's KV budget counts it (from 0.12: built inside the "Model loading took" measurement);
    /// before, it sits beside the budget, in the (1 - utilization) share of the GPU.
    bool inBudget = false;

    std::int64_t total() const;
    /// Another model's state on the same GPU (the MTP drafter's, which vLLM balances too).
    EplbStateMemory &operator+=(const EplbStateMemory &other);
};

/// EPLB's state on one GPU for a model of `moeLayers` MoE layers whose routed experts take
/// `localExpertBytes` over all of them (the target's, or its MTP drafter's); nothing when EPLB is off.
/// `inBudget`: the release counts it and holds the one-layer buffer (VllmProfile::eplbStateInBudget).
EplbStateMemory eplbStateMemory(const Scenario &s, int moeLayers, std::int64_t localExpertBytes,
                                bool inBudget);

} // namespace kvscope
