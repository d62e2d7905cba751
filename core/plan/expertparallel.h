// SPDX-License-Identifier: MIT
// vLLM's data and expert parallelism: --data-parallel-size copies of the deployment, each an
// engine of its own with its own requests and KV cache, and a MoE's routed experts laid over every
// GPU of all of them (FusedMoEParallelConfig.make, vllm/model_executor/layers/fused_moe/config.py:
// "There are actually dp_size_ * tp_size_ devices. Update tp_size and tp_rank so we shard across
// all devices"). Without --enable-expert-parallel each expert's matrices are split over those
// TP x DP GPUs; with it the experts are divided whole among them (EP = TP x DP, expert TP 1).
// Attention, dense MLPs, shared experts, embeddings and the head stay split over each rank's own
// --tensor-parallel-size GPUs.
#pragma once

#include "core/engine/engine.h"
#include "core/model/modelarch.h"
#include "core/scenario/scenario.h"

#include <cstdint>

#include <QList>

namespace kvscope {

/// Where one GPU's routed experts come from.
struct ExpertPlacement
{
    /// GPUs each routed expert's matrices are split over (TP x DP without EP, else 1); 0 = as the
    /// other layers (--tensor-parallel-size), the placement without data or expert parallelism
    int tensorParallel = 0;
    int expertParallel = 1; ///< GPUs the routed experts are divided among (TP x DP with EP, else 1)
    int localExperts = 0;   ///< routed experts per MoE layer on this GPU; 0 = every expert (no EP)

    friend bool operator==(const ExpertPlacement &, const ExpertPlacement &) = default;
};

/// The routed experts of EP rank `rank` out of `expertParallel`: vLLM's determine_expert_map
/// (vllm/model_executor/layers/fused_moe/layer.py) gives each num_experts // ep_size and the
/// remainder one more each to the first ranks.
int localExpertCount(int numExperts, int expertParallel, int rank);

/// The placement on EP rank `rank` (the GPUs of data-parallel rank d are EP ranks d x TP to
/// d x TP + TP - 1). Sizes as validated by validateDataParallel.
ExpertPlacement expertPlacement(const ModelArch &model, int tensorParallel, int dataParallel,
                                bool expertParallelEnabled, int rank = 0);

/// The data-parallel ranks whose GPUs hold one routed expert more than the others' (the first
/// ranks', when the experts do not divide evenly over the EP ranks); 0 when they divide.
int heavierDataParallelRanks(const ModelArch &model, int tensorParallel, int dataParallel,
                             bool expertParallelEnabled);

/// The sequences the busiest of `dataParallel` ranks holds when `sequences` are split among them
/// evenly: ceil(sequences / ranks), a rank count below 1 taken as 1.
std::int64_t dataParallelShare(std::int64_t sequences, std::int64_t dataParallel);

/// What kvscope plans: --data-parallel-size a positive integer, vLLM's, without pipeline stages;
/// --enable-expert-parallel for a MoE model with at least one routed expert per GPU; without it
/// the experts' widths divide by TP x DP. Throws kvscope::Error naming the option and the value.
void validateDataParallel(const ModelArch &model, std::int64_t tensorParallel, std::int64_t pipelineParallel,
                          std::int64_t dataParallel, bool expertParallelEnabled, Engine engine);

/// The data-parallel sizes from 1 to `max` that validateDataParallel accepts.
QList<int> validDataParallelSizes(const ModelArch &model, int tensorParallel, bool expertParallelEnabled,
                                  Engine engine, int max = 8);

/// The data-parallel sizes from 1 to `max` that validateDataParallel accepts beside s's other layout
/// choices (its TP, pipeline stages, expert switch and engine): the choices a layout box offers.
QList<int> validDataParallelSizes(const Scenario &s, int max = 8);

} // namespace kvscope
