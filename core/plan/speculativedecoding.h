// SPDX-License-Identifier: MIT
// vLLM's speculative decoding as the memory plan and the speed model see it:
// the draft's weights, its attention layers in the same KV pool, the slots a
// running request reserves ahead, and the tokens a step yields.
#pragma once

#include "core/model/inventory.h"
#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"

#include <cstdint>
#include <optional>

namespace kvscope {

/// Throws kvscope::Error naming --speculative-config for what kvscope (or vLLM) does not run:
/// another engine than vLLM, pipeline stages, MTP on a model without MTP layers, an EAGLE draft
/// whose KV page differs from the target's.
void validateSpeculative(const Scenario &s);

/// Attention layers the drafter adds to the KV pool: the EAGLE draft's layers, or the MTP layers;
/// n-gram none. vLLM gives them the target's KV spec and the same pool (EagleProposer.load_model and
/// validate_same_kv_cache_group, vllm/v1/spec_decode/eagle.py).
int draftCacheLayers(const Scenario &s);

/// The target with the draft's layers appended as full-attention layers: the model whose layers
/// share the KV pool.
ModelArch withDraftLayers(const ModelArch &target, int draftLayers);

/// Token slots a running request holds beyond its own tokens: the k drafts being verified, and
/// for a drafter on the GPU k more it writes ahead (num_lookahead_tokens, vllm/v1/core/sched/scheduler.py).
std::int64_t speculativeSlots(const Scenario &s);

/// Tokens a running request of `tokens` holds slots for: `slots` more, but never past
/// --max-model-len (KVCacheManager.allocate_slots, vllm/v1/core/kv_cache_manager.py:
/// min(computed + new + lookahead, max_model_len)).
std::int64_t heldTokens(std::int64_t tokens, std::int64_t slots, std::int64_t maxModelLen);

/// The drafter's own tensors, without what it shares with the target (the embedding; the
/// lm_head where vLLM shares it). Empty for n-gram.
QList<TensorGroup> draftInventory(const Scenario &s);

/// The drafter's weights as vLLM allocates them: EAGLE drafts unquantized in --dtype, MTP layers in
/// the checkpoint's quantization. bytesPerGpu adds the EAGLE-3 vocabulary map (draft_id_to_target_id,
/// int64) and a rotary table where the draft's differs from the target's; byComponent has the tensors.
/// MTP layers' routed experts are placed as the target's `experts` are (their FusedMoE takes the
/// target's parallel config: divided among the TP x DP GPUs under EP, with EPLB's redundant ones).
WeightMemory draftWeights(const Scenario &s, const QuantizationSpec &targetQuantization, WeightDtype dtype,
                          int tensorParallelSize, const ExpertPlacement &experts = {});

/// What a drafter adds to SGLang's default reserve (ServerArgs._handle_gpu_memory_settings,
/// python/sglang/srt/server_args.py): 6,144 MiB for a standalone draft model, 2,048 for EAGLE and MTP
/// drafts ("draft models and cuda graphs"), none for n-gram or without one.
std::int64_t sglangDrafterReserveMib(SpeculativeMethod method);

/// SGLang: the copies of the target's embedding (and head) the drafter holds while its pool is
/// allocated, before EAGLEWorker replaces them with the target's (python/sglang/srt/speculative/
/// eagle_worker.py: set_embed for EAGLE-3, set_embed_and_head for EAGLE and NEXTN). A standalone
/// draft model keeps its own and holds no copy.
std::int64_t sglangDraftLoadCopyBytes(const Scenario &s, WeightDtype dtype, int tensorParallelSize);

/// The drafters kvscope plans for the scenario's model, each with `draftTokens` drafts a step: the
/// EAGLE draft presets made for it, its own MTP layers, and n-gram; what validateSpeculative() refuses
/// is left out.
QList<SpeculativeConfig> speculativeChoices(const Scenario &s, std::int64_t draftTokens);

/// A drafter as the window lists it: "EAGLE-3: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "MTP: the
/// checkpoint's own layers", "n-gram: drafts from the prompt", "off" (translated: kvscope::Speculative).
QString speculativeChoiceLabel(const SpeculativeConfig &config);

/// The chance the target accepts each drafted token, and where the figure comes from.
struct DraftAcceptance
{
    double rate = 0;
    QString source; ///< "--draft-acceptance-rate", or the publication the default is fitted to
};
/// --draft-acceptance-rate, or the method's published figure; nullopt where none is published (a draft
/// model, whose acceptance depends on the pair; n-gram,
/// whose acceptance is the share of the output that repeats the prompt).
std::optional<DraftAcceptance> draftAcceptance(const Scenario &s);

/// Tokens a verification step yields on average: 1 + rate + ... + rate^k, the accepted drafts and the
/// target's own token (Leviathan et al., 2023, "Fast Inference from Transformers via Speculative
/// Decoding", eq. 1, with independent acceptance at each position).
double tokensPerStep(double rate, std::int64_t draftTokens);

} // namespace kvscope
