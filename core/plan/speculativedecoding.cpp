// SPDX-License-Identifier: MIT
#include "core/plan/speculativedecoding.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/engine/engine.h"
#include "core/library/library.h"
#include "core/plan/kvcache.h"
#include "core/plan/weights.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QCoreApplication>

namespace kvscope {

namespace {

QString refusal(const QString &why)
{
    return QStringLiteral("%1: %2").arg(optionFlag(ScenarioField::SpeculativeConfig), why);
}

bool isEagle(SpeculativeMethod method)
{
    return method == SpeculativeMethod::Eagle || method == SpeculativeMethod::Eagle3;
}

/// The MTP layers vLLM loads as DeepSeek's DeepSeekMTP (vllm/model_executor/models/deepseek_mtp.py):
/// each an eh_proj, two norms, a decoder layer of the target's kind and a head (shared_head).
bool deepSeekStyleMtp(const ModelArch &m)
{
    for (const char *type : {"deepseek_v3", "deepseek_v32"})
        if (m.modelType == QLatin1String(type))
            return true;
    return false;
}

/// Qwen3-Next's MTP module (vllm/model_executor/models/qwen3_next_mtp.py, Qwen3NextMTP): one fc over
/// the embedding and the hidden state, two norms before it, full-attention decoder layers and a
/// final norm; its embed_tokens and lm_head are the target's.
bool qwenNextMtp(const ModelArch &m)
{
    return m.modelType == QLatin1String("qwen3_next");
}

/// Whether vLLM keeps the MTP layers' own head: DeepSeek-style shared_head.head, until the release
/// that replaces it with the target's lm_head (VllmProfile::mtpSharesTargetHead). SGLang's NEXTN
/// drafter takes the target's head (set_embed_and_head, python/sglang/srt/speculative/eagle_worker.py).
bool mtpKeepsOwnHead(const Scenario &s)
{
    return s.engine == Engine::Vllm && deepSeekStyleMtp(s.model) &&
           !resolveVllmVersion(s.vllmVersion).profile->mtpSharesTargetHead;
}

/// The published acceptance a method's default is fitted to: a mean acceptance length (tokens a
/// step yields) measured at `draftTokens` drafts; for the target's `modelType` only where one is
/// named (its own MTP layers, measured on it), else for any target.
struct PublishedAcceptance
{
    SpeculativeMethod method;
    double meanAcceptanceLength;
    std::int64_t draftTokens;
    const char *source;
    const char *modelType = nullptr;
};

const PublishedAcceptance published[] = {
    {SpeculativeMethod::Eagle3, 3.53, 7,
     "vLLM issue 26191: Llama-3.1-8B-Instruct with yuhuili/EAGLE3-LLaMA3.1-Instruct-8B, 7 drafts, MT-Bench, "
     "temperature 0: mean acceptance length 3.53"},
    {SpeculativeMethod::Eagle, 1.89, 2,
     "vLLM pull request 16035: Llama-3-8B-Instruct with lmsys/sglang-EAGLE-LLaMA3-Instruct-8B, 2 drafts, "
     "MT-Bench: acceptance length 1.89"},
    {SpeculativeMethod::Mtp, 2.25, 2,
     "vLLM issue 25368: Qwen3-Next-80B-A3B with qwen3_next_mtp, 2 drafts, 128 running requests on four "
     "A800s (vLLM 0.10.2): 'Mean acceptance length: 2.25' (per position 0.756, 0.498)",
     "qwen3_next"},
    {SpeculativeMethod::Mtp, 1.85, 1,
     "DeepSeek-V3 Technical Report, section 5.4.3: the second token is accepted 85 to 90 % of the time "
     "(the lower end)"},
};

/// The per-token rate whose tokensPerStep(rate, k) is `length`: bisection (increasing in the rate).
double rateForLength(double length, std::int64_t k)
{
    double low = 0, high = 1;
    for (int i = 0; i < 60; ++i) {
        const double middle = (low + high) / 2;
        (tokensPerStep(middle, k) < length ? low : high) = middle;
    }
    return (low + high) / 2;
}

void removeGroup(QList<TensorGroup> &inventory, const QString &name)
{
    inventory.removeIf([&](const TensorGroup &g) { return g.name == name; });
}

/// The MTP layers as a model of their own: full attention (Qwen3-Next's layer_type="full_attention"),
/// the MoE block of the target's last layer.
ModelArch mtpModel(const ModelArch &m)
{
    ModelArch mtp = m;
    mtp.numLayers = m.mtpLayers;
    mtp.moe.firstDenseLayers = 0;
    mtp.moe.denseLayers.clear();
    mtp.slidingLayers.clear();
    mtp.chunkedLayers.clear();
    mtp.recurrent = {};
    mtp.tiedEmbeddings = false;
    return mtp;
}

/// Refuses a draft whose vocabulary is not the target's; `consequence` says what follows.
void requireSameVocabulary(const ModelArch &m, const ModelArch &d, const QString &consequence)
{
    if (d.vocabSize != m.vocabSize)
        throw Error(refusal(
            QCoreApplication::translate("kvscope::Planner", "%1's vocabulary (%2) is not %3's (%4): %5")
                .arg(d.name)
                .arg(d.vocabSize)
                .arg(m.name)
                .arg(m.vocabSize)
                .arg(consequence)));
}

/// Refuses a draft whose KV page (heads and head sizes) is not the target's; `consequence` says what follows.
void requireSamePage(const ModelArch &m, const ModelArch &d, const QString &consequence)
{
    if (d.numKvHeads != m.numKvHeads || d.headDim != m.headDim || d.vHeadDim != m.vHeadDim)
        throw Error(refusal(QCoreApplication::translate(
                                "kvscope::Planner", "%1's attention (%2 KV heads of %3) differs from %4's "
                                                    "(%5 of %6): %7")
                                .arg(d.name)
                                .arg(d.numKvHeads)
                                .arg(d.headDim)
                                .arg(m.name)
                                .arg(m.numKvHeads)
                                .arg(m.headDim)
                                .arg(consequence)));
}

/// vLLM's draft_model drafter (DraftModelProposer, vllm/v1/spec_decode/draft_model.py) and what kvscope
/// sizes of it: the draft's layers are placed in the target's KV pool as pages of the target's shape.
void validateDraftModel(const ModelArch &m, const ModelArch &d)
{
    if (m.vision.enabled())
        throw Error(refusal(QCoreApplication::translate(
                                "kvscope::Planner", "vLLM's draft models do not draft for multimodal models "
                                                    "(%1 has a vision tower; DraftModelProposer refuses it)")
                                .arg(m.name)));
    requireSameVocabulary(m, d,
                          QCoreApplication::translate("kvscope::Planner",
                                                      "vLLM needs equal vocabularies "
                                                      "(verify_equal_vocab_size_if_draft_model)"));
    if (m.usesMla() || m.recurrent.enabled() || d.usesMla() || d.recurrent.enabled() || d.moe.enabled() ||
        d.slidingLayerCount() > 0 || d.attentionChunkSize > 0 || d.kvSharedLayers > 0)
        throw Error(refusal(QCoreApplication::translate(
                                "kvscope::Planner", "kvscope plans dense draft models with full attention "
                                                    "beside targets with per-head KV caches; %1 with %2 is "
                                                    "not sized yet")
                                .arg(m.name, d.name)));
    // Pages of another size would make vLLM group the layers per layer (UniformTypeKVCacheSpecs,
    // vllm/v1/kv_cache_interface.py), which kvscope's pool layout does not model yet.
    requireSamePage(m, d,
                    QCoreApplication::translate(
                        "kvscope::Planner", "kvscope plans draft models whose KV pages match the target's "
                                            "(Qwen3-0.6B for Qwen3-32B, Llama-3.2-3B for Llama-3.3-70B)"));
}

/// Whether vLLM builds the draft its own rotary table: get_rope (vllm/model_executor/layers/rotary_embedding)
/// caches one table per head size, rotary size, positions and rope parameters.
bool sharesRotaryTable(const ModelArch &target, const ModelArch &draft)
{
    return draft.headDim == target.headDim && draft.rotaryDim == target.rotaryDim &&
           draft.maxPositionEmbeddings == target.maxPositionEmbeddings &&
           draft.ropeCaches == target.ropeCaches && draft.ropeSignature == target.ropeSignature;
}

/// The model presets small enough to draft for `target` (at most an eighth of its parameters), the
/// smallest first; validateSpeculative() then keeps those vLLM and kvscope can pair with it.
QList<SpeculativeConfig> draftModelCandidates(const ModelArch &target)
{
    const std::int64_t targetParameters = countParameters(target).total;
    QList<std::pair<std::int64_t, SpeculativeConfig>> sized;
    for (const ModelArch &model : ModelLibrary::builtin().presets()) {
        if (model.vocabSize != target.vocabSize)
            continue; // the cheap test first: another family
        const std::int64_t parameters = countParameters(model).total;
        if ((Checked(parameters) * 8).value() > targetParameters)
            continue;
        SpeculativeConfig draft;
        draft.method = SpeculativeMethod::DraftModel;
        draft.model = model.hfRepoIds.value(0, model.id);
        draft.draft = model;
        sized.append({parameters, draft});
    }
    std::stable_sort(sized.begin(), sized.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<SpeculativeConfig> candidates;
    for (const auto &entry : sized)
        candidates << entry.second;
    return candidates;
}

} // namespace

void validateSpeculative(const Scenario &s)
{
    const SpeculativeConfig &spec = s.speculative;
    if (!spec.enabled())
        return;
    const ModelArch &m = s.model;
    // _handle_ngram (python/sglang/srt/arg_groups/speculative_hook.py).
    if (s.engine == Engine::Sglang && spec.method == SpeculativeMethod::Ngram && s.enableDpAttention)
        throw Error(
            refusal(QCoreApplication::translate(
                        "kvscope::Planner",
                        "SGLang's n-gram drafting (%1 NGRAM) refuses %2: \"Currently ngram speculative "
                        "decoding does not support dp attention.\"")
                        .arg(serverFlag(ServerOption::SglangSpeculativeAlgorithm),
                             optionFlag(ScenarioField::EnableDpAttention, Engine::Sglang))));
    if (s.pipelineParallelSize > 1)
        throw Error(refusal(QCoreApplication::translate(
            "kvscope::Planner",
            "kvscope plans speculative decoding without pipeline stages (the drafter "
            "shares the target's embedding only on one stage, EagleProposer.load_model)")));
    if (m.kvSharedLayers > 0)
        throw Error(refusal(QCoreApplication::translate(
                                "kvscope::Planner", "%1 shares KV caches between layers; kvscope does not "
                                                    "place draft layers among them")
                                .arg(m.name)));
    if (spec.method == SpeculativeMethod::Mtp) {
        if (m.mtpLayers <= 0)
            throw Error(refusal(QCoreApplication::translate(
                                    "kvscope::Planner", "%1's config declares no multi-token-prediction "
                                                        "layers (num_nextn_predict_layers), which mtp needs")
                                    .arg(m.name)));
        if (!deepSeekStyleMtp(m) && !qwenNextMtp(m))
            throw Error(refusal(QCoreApplication::translate(
                                    "kvscope::Planner", "kvscope sizes DeepSeek-V3's and Qwen3-Next's "
                                                        "MTP layers (deepseek_mtp.py, qwen3_next_mtp.py); "
                                                        "%1's (%2) are not sized yet")
                                    .arg(m.name, m.modelType)));
        if (s.engine == Engine::Sglang && m.recurrent.enabled())
            throw Error(refusal(QCoreApplication::translate("kvscope::Planner",
                                                            "SGLang keeps each request's recurrent state "
                                                            "for every draft token in buffers kvscope does "
                                                            "not size yet; kvscope plans %1's MTP under vLLM")
                                    .arg(m.name)));
    }
    if (spec.method == SpeculativeMethod::DraftModel) {
        validateDraftModel(m, spec.draft);
        return;
    }
    if (!isEagle(spec.method))
        return;
    const ModelArch &d = spec.draft;
    if (m.usesMla() || m.recurrent.enabled())
        throw Error(refusal(QCoreApplication::translate("kvscope::Planner",
                                                        "an EAGLE draft's attention page differs from %1's "
                                                        "(latent or recurrent layers); kvscope plans EAGLE "
                                                        "drafts on models with per-head KV caches")
                                .arg(m.name)));
    if (d.numLayers != 1 || d.usesMla() || d.moe.enabled())
        throw Error(refusal(QCoreApplication::translate("kvscope::Planner",
                                                        "%1 is not a one-layer dense EAGLE draft (it has %2 "
                                                        "layers)")
                                .arg(d.name)
                                .arg(d.numLayers)));
    requireSameVocabulary(m, d,
                          QCoreApplication::translate("kvscope::Planner", "it drafts for another model"));
    if (d.hiddenSize != m.hiddenSize)
        throw Error(
            refusal(QCoreApplication::translate("kvscope::Planner",
                                                "%1 reads hidden states of width %2, %3's are %4: it drafts "
                                                "for another model")
                        .arg(d.name)
                        .arg(d.hiddenSize)
                        .arg(m.name)
                        .arg(m.hiddenSize)));
    requireSamePage(
        m, d, QCoreApplication::translate("kvscope::Planner", "its cache pages would not match the pool's"));
}

int draftCacheLayers(const Scenario &s)
{
    switch (s.speculative.method) {
    case SpeculativeMethod::Eagle:
    case SpeculativeMethod::Eagle3:
    case SpeculativeMethod::DraftModel:
        return s.speculative.draft.numLayers;
    case SpeculativeMethod::Mtp:
        return s.model.mtpLayers;
    case SpeculativeMethod::None:
    case SpeculativeMethod::Ngram:
        break;
    }
    return 0;
}

ModelArch withDraftLayers(const ModelArch &target, int draftLayers)
{
    // Past the per-layer lists every layer is full attention (ModelArch::isSlidingLayer and the rest).
    ModelArch joined = target;
    joined.numLayers = target.numLayers + draftLayers;
    return joined;
}

std::int64_t speculativeSlots(const Scenario &s)
{
    const SpeculativeConfig &spec = s.speculative;
    if (!spec.enabled())
        return 0;
    // SGLang allocates max(steps x topk, draft tokens) a decode (EagleDraftInput.ALLOC_LEN_PER_DECODE,
    // python/sglang/srt/speculative/eagle_worker.py): k + 1 for kvscope's chain of k drafts.
    if (s.engine == Engine::Sglang)
        return spec.numSpeculativeTokens + 1;
    return spec.runsDraftOnGpu() ? 2 * spec.numSpeculativeTokens : spec.numSpeculativeTokens;
}

std::int64_t sglangDrafterReserveMib(SpeculativeMethod method)
{
    switch (method) {
    case SpeculativeMethod::DraftModel:
        return std::int64_t(6) * 1024;
    case SpeculativeMethod::Eagle:
    case SpeculativeMethod::Eagle3:
    case SpeculativeMethod::Mtp:
        return std::int64_t(2) * 1024;
    case SpeculativeMethod::Ngram:
    case SpeculativeMethod::None:
        break;
    }
    return 0;
}

std::int64_t sglangDraftLoadCopyBytes(const Scenario &s, WeightDtype dtype, int tensorParallelSize)
{
    const SpeculativeMethod method = s.speculative.method;
    if (s.engine != Engine::Sglang || !s.speculative.runsDraftOnGpu() ||
        method == SpeculativeMethod::DraftModel)
        return 0;
    // The drafter builds a vocabulary-parallel embedding of the target's vocabulary (and, but for an
    // EAGLE-3 draft with its own head, a head of the same shape), each GPU its share of the rows.
    const ModelArch &m = s.model;
    const std::int64_t table = (Checked(ceilDiv(paddedVocab(m.vocabSize), tensorParallelSize)) *
                                m.hiddenSize * bytesPerElement(dtype))
                                   .value();
    return method == SpeculativeMethod::Eagle3 ? table : (Checked(table) * 2).value();
}

std::int64_t heldTokens(std::int64_t tokens, std::int64_t slots, std::int64_t maxModelLen)
{
    if (slots <= 0 || tokens >= maxModelLen)
        return tokens;
    return std::min(maxModelLen, (Checked(tokens) + slots).value());
}

QList<TensorGroup> draftInventory(const Scenario &s)
{
    const SpeculativeConfig &spec = s.speculative;
    QList<TensorGroup> inventory;
    if (isEagle(spec.method)) {
        // vllm/model_executor/models/llama_eagle3.py (and llama_eagle.py): a Llama decoder layer, a
        // fc over the target's hidden states, the draft's own lm_head (EAGLE-3) and no embedding
        // of its own (the published drafts carry none: vLLM shares the target's).
        const ModelArch &d = spec.draft;
        const std::int64_t h = d.hiddenSize;
        inventory = tensorInventory(d);
        removeGroup(inventory, QStringLiteral("embed_tokens.weight"));
        if (spec.method == SpeculativeMethod::Eagle3) {
            // The layer's q, k and v read the embedding and the hidden state side by side.
            for (TensorGroup &g : inventory)
                if (g.component == Component::Attention && g.role == TensorRole::LinearWeight &&
                    !g.name.contains(QLatin1String("o_proj")))
                    g.cols = 2 * h;
            for (TensorGroup &g : inventory)
                if (g.component == Component::LmHead && d.draftVocabSize > 0)
                    g.rows = d.draftVocabSize;
            inventory << tensorGroup(QStringLiteral("fc.weight"), Component::Mlp, TensorRole::LinearWeight, h,
                                     3 * h, 1, Sharding::Replicated)
                      << tensorGroup(QStringLiteral("hidden_norm.weight"), Component::Norms, TensorRole::Norm,
                                     h, 1, 1, Sharding::Replicated);
        } else {
            // EAGLE-1 checkpoints carry no lm_head: vLLM shares the target's.
            removeGroup(inventory, QStringLiteral("lm_head.weight"));
            inventory << tensorGroup(QStringLiteral("fc.weight"), Component::Mlp, TensorRole::LinearWeight, h,
                                     2 * h, 1, Sharding::Replicated);
        }
        return inventory;
    }
    if (spec.method == SpeculativeMethod::DraftModel)
        return tensorInventory(spec.draft); // whole: DraftModelProposer.load_model shares nothing
    if (spec.method == SpeculativeMethod::Mtp) {
        const ModelArch mtp = mtpModel(s.model);
        const std::int64_t h = mtp.hiddenSize;
        inventory = tensorInventory(mtp);
        removeGroup(inventory, QStringLiteral("embed_tokens.weight")); // the target's
        if (!mtpKeepsOwnHead(s))
            removeGroup(inventory, QStringLiteral("lm_head.weight"));
        if (qwenNextMtp(s.model)) {
            // Qwen3NextMultiTokenPredictor: fc, a ColumnParallelLinear in the checkpoint's
            // quantization (its output split over TP, then gathered), and pre_fc_norm_hidden and
            // pre_fc_norm_embedding; the decoder layers' final norm is the inventory's.
            inventory << tensorGroup(QStringLiteral("fc.weight"), Component::Mlp, TensorRole::LinearWeight, h,
                                     2 * h, 1, Sharding::SplitRows)
                      << tensorGroup(QStringLiteral("pre_fc_norms.weight"), Component::Norms,
                                     TensorRole::Norm, h, 1, 2, Sharding::Replicated);
            return inventory;
        }
        // DeepSeekMultiTokenPredictorLayer: enorm, hnorm, eh_proj (an nn.Linear: unquantized and
        // whole on every GPU), the decoder layer (mtp_block) and shared_head (a norm and its head).
        inventory << tensorGroup(QStringLiteral("eh_proj.weight"), Component::Mlp, TensorRole::Other, h,
                                 2 * h, mtp.numLayers, Sharding::Replicated)
                  << tensorGroup(QStringLiteral("enorm_hnorm.weight"), Component::Norms, TensorRole::Norm, h,
                                 1, 2 * std::int64_t(mtp.numLayers), Sharding::Replicated);
    }
    return inventory;
}

WeightMemory draftWeights(const Scenario &s, const QuantizationSpec &targetQuantization, WeightDtype dtype,
                          int tensorParallelSize, const ExpertPlacement &experts)
{
    const SpeculativeConfig &spec = s.speculative;
    const QList<TensorGroup> inventory = draftInventory(s);
    if (inventory.isEmpty())
        return {};
    if (spec.method == SpeculativeMethod::Mtp) {
        // The MTP layers' rotary table is the target's (vLLM's get_rope caches one per shape).
        WeightMemory w = weightMemory(mtpModel(s.model), inventory, targetQuantization, dtype,
                                      tensorParallelSize, {}, experts);
        w.bytesPerGpu -= w.buffersBytes;
        w.buffersBytes = 0;
        return w;
    }
    if (spec.method == SpeculativeMethod::DraftModel) {
        // create_vllm_config_for_draft_model: the draft's own quantization (its checkpoint's), the
        // target's dtype and tensor-parallel size.
        const ModelArch &d = spec.draft;
        WeightMemory w = weightMemory(d, inventory, d.checkpointQuantization, dtype, tensorParallelSize);
        if (sharesRotaryTable(s.model, d)) {
            w.bytesPerGpu -= w.buffersBytes;
            w.buffersBytes = 0;
        }
        return w;
    }
    // An EAGLE draft loads without the target's quantization (get_draft_quant_config: the draft's
    // own, none for these checkpoints) and builds its rotary table for its own max_position_embeddings.
    const ModelArch &d = spec.draft;
    WeightMemory w = weightMemory(d, inventory, QuantizationSpec{}, dtype, tensorParallelSize);
    if (spec.method == SpeculativeMethod::Eagle3)
        w.bytesPerGpu =
            (Checked(w.bytesPerGpu) + Checked(d.draftVocabSize) * 8).value(); // int64 a draft token
    return w;
}

QList<SpeculativeConfig> speculativeChoices(const Scenario &s, std::int64_t draftTokens)
{
    QList<SpeculativeConfig> candidates;
    for (const ModelArch &draft : draftLibrary().presets()) {
        SpeculativeConfig eagle;
        eagle.method = draft.draftVocabSize > 0 ? SpeculativeMethod::Eagle3 : SpeculativeMethod::Eagle;
        eagle.model = draft.hfRepoIds.value(0, draft.id);
        eagle.draft = draft;
        candidates << eagle;
    }
    candidates << draftModelCandidates(s.model);
    SpeculativeConfig mtp;
    mtp.method = SpeculativeMethod::Mtp;
    SpeculativeConfig ngram;
    ngram.method = SpeculativeMethod::Ngram;
    candidates << mtp << ngram;

    QList<SpeculativeConfig> choices;
    for (SpeculativeConfig &candidate : candidates) {
        candidate.numSpeculativeTokens = draftTokens;
        Scenario trial = s;
        trial.speculative = candidate;
        try {
            validateSpeculative(trial);
            choices << candidate;
        } catch (const Error &) {
        }
    }
    return choices;
}

QString speculativeChoiceLabel(const SpeculativeConfig &config)
{
    switch (config.method) {
    case SpeculativeMethod::Eagle:
        return QStringLiteral("EAGLE: %1").arg(config.model);
    case SpeculativeMethod::Eagle3:
        return QStringLiteral("EAGLE-3: %1").arg(config.model);
    case SpeculativeMethod::DraftModel:
        return QCoreApplication::translate("kvscope::Speculative", "draft model: %1").arg(config.model);
    case SpeculativeMethod::Mtp:
        return QCoreApplication::translate("kvscope::Speculative", "MTP: the checkpoint's own layers");
    case SpeculativeMethod::Ngram:
        return QCoreApplication::translate("kvscope::Speculative", "n-gram: drafts from the prompt");
    case SpeculativeMethod::None:
        break;
    }
    return QCoreApplication::translate("kvscope::Speculative", "off");
}

std::optional<DraftAcceptance> draftAcceptance(const Scenario &s)
{
    if (s.draftAcceptancePpm > 0)
        return DraftAcceptance{double(s.draftAcceptancePpm) / 1e6,
                               optionFlag(ScenarioField::DraftAcceptanceRate)};
    // The measurement on this model's own drafter first, then the method's.
    for (const PublishedAcceptance &p : published)
        if (p.method == s.speculative.method &&
            (!p.modelType || s.model.modelType == QLatin1String(p.modelType)))
            return DraftAcceptance{rateForLength(p.meanAcceptanceLength, p.draftTokens),
                                   QLatin1String(p.source)};
    return std::nullopt;
}

double tokensPerStep(double rate, std::int64_t draftTokens)
{
    if (rate >= 1)
        return double(draftTokens + 1);
    return (1 - std::pow(rate, double(draftTokens + 1))) / (1 - rate);
}

} // namespace kvscope
