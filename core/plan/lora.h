// SPDX-License-Identifier: MIT
// vLLM's LoRA slots: the A and B buffers it allocates at load for every wrapped linear layer,
// --max-loras adapters of --max-lora-rank each, before anything else takes the budget.
#pragma once

#include "core/model/inventory.h"
#include "core/plan/weights.h"

#include <cstdint>

#include <QList>
#include <QStringList>

namespace kvscope {

struct Scenario;

/// The names --lora-target-modules can give on the scenario's model: the last part of each wrapped module's
/// runtime name and of the checkpoint modules packed in it (vLLM: "qkv_proj" and "q_proj", a MoE's router
/// "gate" or "router" and its routed experts "experts", Mamba-2's "in_proj", Granite's "input_linear"...;
/// SGLang, dense models: q/k/v/o, gate/up/down and the packed qkv_proj and gate_up_proj).
QStringList loraTargetModuleNames(const Scenario &scenario);

/// The ranks vLLM's LoRAConfig accepts for --max-lora-rank (possible_max_ranks, vllm/config/lora.py).
const QList<std::int64_t> &loraRanks();

/// Refuses LoRA kvscope does not size: a rank vLLM refuses, a MoE under SGLang (its expert buffers),
/// latent attention under SGLang, DeepSeek's models before vLLM 0.10.2 (no LoRA support), recurrent
/// layers under SGLang or before the vLLM release whose wrappers kvscope sizes (Qwen3-Next's Gated DeltaNet
/// from 0.15.0, Mamba-2 from 0.16.0), a MoE's experts under
/// expert parallelism and gpt-oss before vLLM 0.12.0 (its experts' wrapper before FusedMoE3DWithLoRA). Throws
/// kvscope::Error naming --max-loras (or the option in the way) and the value. Nothing when LoRA is off.
void validateLora(const Scenario &scenario);

/// Whether vLLM wraps a MoE's routed experts for LoRA: FusedMoEWithLoRA (vllm/lora/layers/fused_moe.py,
/// vllm-project/vllm#21229, in vLLM's API reference from v0.11.2). Before it only the attention,
/// the router and dense MLPs were wrapped, and an adapter with expert weights was refused.
bool loraWrapsExperts(const Scenario &scenario);

/// Whether vLLM (the scenario's engine) wraps the model's experts as FusedMoE3DWithLoRA, whose gate
/// and up projections share one A (vllm/lora/layers/fused_moe.py): models whose checkpoints store
/// experts as 3D tensors with gate and up fused (is_3d_moe_weight: gpt-oss, Qwen3-VL-MoE, Qwen3.5-MoE,
/// Intern-S1-Pro), from v0.12.0 (vllm-project/vllm#29222 and #29322).
bool loraFusesExpertGateUp(const Scenario &scenario);

/// What vLLM or SGLang wraps and how: the router, a MoE's routed experts (FusedMoEWithLoRA or
/// FusedMoE3DWithLoRA).
struct LoraWrapping
{
    bool wrapped = false;     ///< the experts carry LoRA buffers at all (loraWrapsExperts)
    bool fusedGateUp = false; ///< gate and up share one A (loraFusesExpertGateUp)
    int tensorParallel = 0;   ///< GPUs each expert is split over; 0: the tensor-parallel size
    /// vLLM wraps a MoE's router whole (ReplicatedLinearWithLoRA); SGLang's pool has no buffer for it.
    bool routerWrapped = true;
    /// vLLM's --fully-sharded-loras (BaseLinearLayerWithLoRA.create_lora_weights, FusedMoEWithLoRA): a
    /// column-parallel layer's A takes rank / TP rows, a row-parallel layer's B output / TP.
    bool fullySharded = false;
    /// --lora-target-modules: the projections that get slots; empty = all (loraTargetModuleNames(scenario)).
    QStringList targetModules;
    /// Mamba-2's mamba_n_groups (0: no Mamba-2 mixer): where they divide over the GPUs in_proj and conv1d are
    /// MergedColumnParallelLinear layers of five and three outputs, which vLLM wraps a slice each (one A per
    /// output; none fully sharded), elsewhere ColumnParallelLinear layers of one slice (mambaLoraSlices).
    int mamba2Groups = 0;
    /// The MLP's gate and up are one packed module of one slice (Granite's input_linear): one A for both.
    bool gateUpOneSlice = false;
    /// The runtime name of a MoE's router: "gate", or "router" (gpt-oss, Llama 4).
    QString routerModule = QStringLiteral("gate");
    ExpertPadding padding; ///< the sizes the experts are allocated with (MXFP4 under Marlin)
};

/// Whether vLLM runs the model's MLP gate and up projections as one packed module of one LoRA slice:
/// Granite's GraniteMoeSharedMLP input_linear (packed_modules_mapping "input_linear": ["input_linear"]).
bool loraPacksMlpInput(const Scenario &scenario);

/// The runtime name of the model's MoE router in vLLM: "router" for gpt-oss (gpt_oss.py MLPBlock) and
/// Llama 4 (llama4.py Llama4MoE), "gate" for the others.
QString loraRouterModule(const ModelArch &model);

/// The LoRA wrapping of the scenario's model as its engine does it (loraBufferBytes' `wrapping`) at
/// expert tensor parallelism `expertTensorParallel` (0: the tensor-parallel size).
LoraWrapping loraWrapping(const Scenario &scenario, int expertTensorParallel, const ExpertPadding &padding);

/// Bytes per GPU of the LoRA slots. vLLM's BaseLinearLayerWithLoRA.create_lora_weights
/// (vllm/lora/layers/base_linear.py) allocates, for each slice of each wrapped layer,
/// lora_a [max_loras, 1, rank, input] and lora_b [max_loras, 1, output, rank], input and output
/// as the layer holds them on one GPU (a column-parallel layer's output split, a row-parallel
/// one's input), in --dtype (lora_dtype auto). The wrapped layers are the decoder's attention
/// and MLP projections and a MoE's router (ReplicatedLinearWithLoRA, whole on every GPU), so a slot
/// holds rank x (rows + columns) of each, per GPU. With `wrapping.wrapped`, each routed expert's gate,
/// up and down projections too, as FusedMoEWithLoRA holds them (w13 A and B per slice, w2 A and B: rank
/// x 3 x (hidden + intermediate / TP) an expert at the sizes the experts are allocated with), or
/// FusedMoE3DWithLoRA (one w13 A: rank x (2 hidden + 3 intermediate / TP)). A Mamba-2 mixer's in_proj and
/// conv1d hold one A per packed output where `wrapping.mamba2Groups` divide over the GPUs.
/// Llama-3.1-8B in 16 bits: 81,920 x rank elements a layer, 5 MiB per unit of rank per slot.
std::int64_t loraBufferBytes(const QList<TensorGroup> &inventory, std::int64_t maxLoras, std::int64_t rank,
                             int dtypeBytes, int tensorParallelSize, const LoraWrapping &wrapping = {});

} // namespace kvscope
