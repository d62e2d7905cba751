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
    /// SGLang's data-parallel attention: GPUs the dense MLPs, shared experts and LM head are split
    /// over (all --tp-size of them, where attention is split over tp / dp); 0 = as the other layers
    int denseTensorParallel = 0;
    /// SGLang's --moe-dense-tp-size 1: GPUs a dense layer's MLP (not the shared experts) is split
    /// over, 1; 0 = as denseTensorParallel
    int denseLayerMlpTensorParallel = 0;
    /// SGLang's --enable-dp-lm-head: GPUs the LM head is split over, one attention group's; 0 = as
    /// denseTensorParallel
    int lmHeadTensorParallel = 0;
    bool wholeEmbedding = false; ///< the input embedding whole on every GPU (SGLang's DP attention)

    friend bool operator==(const ExpertPlacement &, const ExpertPlacement &) = default;
};

/// The routed experts of EP rank `rank` out of `expertParallel`: vLLM's determine_expert_map
/// (vllm/model_executor/layers/fused_moe/layer.py) gives each num_experts // ep_size and the
/// remainder one more each to the first ranks.
int localExpertCount(int numExperts, int expertParallel, int rank);

/// The placement on EP rank `rank` (the GPUs of data-parallel rank d are EP ranks d x TP to
/// d x TP + TP - 1) of `physicalExperts` routed experts a layer (0: the model's num_experts; more
/// with EPLB's redundant ones, physicalExpertCount). Sizes as validated by validateDataParallel.
ExpertPlacement expertPlacement(const ModelArch &model, int tensorParallel, int dataParallel,
                                bool expertParallelEnabled, int rank = 0, int physicalExperts = 0);

/// The data-parallel ranks whose GPUs hold one routed expert more than the others' (the first
/// ranks', when the `physicalExperts` (0: num_experts) do not divide evenly over the EP ranks); 0
/// when they divide.
int heavierDataParallelRanks(const ModelArch &model, int tensorParallel, int dataParallel,
                             bool expertParallelEnabled, int physicalExperts = 0);

/// The sequences the busiest of `dataParallel` ranks holds when `sequences` are split among them
/// evenly: ceil(sequences / ranks), a rank count below 1 taken as 1.
std::int64_t dataParallelShare(std::int64_t sequences, std::int64_t dataParallel);

/// What kvscope plans: --data-parallel-size a positive integer without pipeline stages; under vLLM
/// --enable-expert-parallel for a MoE model with at least one routed expert per GPU, without it
/// the experts' widths divide by TP x DP; under SGLang data-parallel ranks only as
/// --enable-dp-attention's groups, which divide --tp-size. Throws kvscope::Error naming the option
/// and the value.
void validateDataParallel(const ModelArch &model, std::int64_t tensorParallel, std::int64_t pipelineParallel,
                          std::int64_t dataParallel, bool expertParallelEnabled, Engine engine,
                          bool dpAttention = false);

/// What kvscope plans of SGLang's --ep-size: a positive integer; above 1 only under SGLang, for a MoE
/// model without pipeline stages, dividing the --tp-size GPUs, the routed experts and (over the GPUs
/// each expert is split over) moe_intermediate_size. Throws kvscope::Error naming --ep-size and the value.
void validateSglangExpertParallel(const Scenario &s);

/// SGLang's --ep-size values from 1 to its --tp-size GPUs that validateSglangExpertParallel accepts
/// beside s's other choices (1 alone for a dense model or another engine): an EP box's choices.
QList<int> validExpertParallelSizes(const Scenario &s);

/// SGLang's --ep-size back to 1 where s's model, GPUs or attention groups no longer take it
/// (validExpertParallelSizes): what the window and fit do to a scenario whose layout they change.
void keepExpertParallelSizeWhereTaken(Scenario &s);

/// SGLang's expert placement under --ep-size E over its T --tp-size GPUs (FusedMoE,
/// python/sglang/srt/layers/moe/fused_moe_triton/layer.py): each GPU num_experts / E routed experts,
/// each split over T / E GPUs. The default placement (split over TP) without --ep-size.
ExpertPlacement sglangExpertPlacement(const Scenario &s);

/// SGLang's --moe-dense-tp-size and --enable-dp-lm-head (SGLang's flags only: refused under vLLM; the dense
/// size takes only 1, "moe_dense_tp_size only support 1 and None currently"; the LM head by group needs
/// --enable-dp-attention when --dp-size passes 1, as ServerArgs asserts). Throws kvscope::Error naming the
/// option.
void validateSglangDenseSplits(const Scenario &scenario);

/// Whether SGLang's model of `model` runs its dense layers' MLPs whole under --moe-dense-tp-size 1
/// (enable_moe_dense_fully_dp: deepseek_v2.py, glm4_moe.py, bailing_moe.py, ernie4.py), and whether
/// it splits its LM head by attention group under --enable-dp-lm-head (ParallelLMHead
/// use_attn_tp_group), read in sgl-project/sglang v0.5.6.
bool sglangReplicatesDenseMlps(const ModelArch &model);
bool sglangSplitsLmHeadByGroup(const ModelArch &model);

/// SGLang's data-parallel attention as the scenario asks for it: --enable-dp-attention with a
/// --dp-size above 1 (SGLang turns it off at 1, ServerArgs._handle_data_parallelism).
bool sglangDpAttention(const Scenario &s);

/// One attention group's scenario under SGLang's data-parallel attention (the GPUs its attention
/// is split over, --tp-size / --dp-size, as its tensor-parallel size): what the planner plans, the
/// MLPs and experts placed over all --tp-size GPUs (ExpertPlacement). Any other scenario as it is.
Scenario attentionGroupScenario(const Scenario &s);

/// The GPUs SGLang's --tp-size names for the scenario the planner plans (attentionGroupScenario's:
/// its attention group's TP x --dp-size under data-parallel attention, else its TP).
int sglangTotalGpus(const Scenario &s);

/// The data-parallel sizes from 1 to `max` that validateDataParallel accepts.
QList<int> validDataParallelSizes(const ModelArch &model, int tensorParallel, bool expertParallelEnabled,
                                  Engine engine, int max = 8, bool dpAttention = false);

/// The data-parallel sizes from 1 to `max` that validateDataParallel accepts beside s's other layout
/// choices (its TP, pipeline stages, expert switch and engine): the choices a layout box offers.
QList<int> validDataParallelSizes(const Scenario &s, int max = 8);

} // namespace kvscope
