// SPDX-License-Identifier: MIT
#include "core/model/hfconfig.h"

#include "core/common/error.h"
#include "core/common/regularfile.h"
#include "core/common/units.h"
#include "core/model/configreader.h"
#include "core/model/hybridconfig.h"
#include "core/model/quantizationconfig.h"
#include "core/model/visionconfig.h"

#include <cmath>
#include <initializer_list>
#include <optional>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace kvscope {

namespace {

/// Per-family facts that configs leave implicit (HF modelling code hard-codes them).
struct FamilyTraits
{
    bool known = false;
    bool tiedByDefault = false;
    bool qkvBiasAlways = false;
    bool qkNorm = false;
    int normsPerLayer = 2;
    NormKind normKind = NormKind::RmsNorm;
    MlpKind mlpKind = MlpKind::Gated;
    int ropeCaches = 1;
};

FamilyTraits traitsFor(const QString &modelType)
{
    FamilyTraits t;
    const auto is = [&](std::initializer_list<const char *> names) {
        for (const char *n : names)
            if (modelType == QLatin1String(n))
                return true;
        return false;
    };
    if (is({"llama", "mistral", "mixtral", "phi3", "granite", "olmo2", "internlm2", "yi", "deepseek_v2",
            "deepseek_v3", "deepseek_v32", "gpt_oss", "minicpm", "exaone", "mistral3", "granitemoehybrid",
            "llama4", "llama4_text"})) {
        t.known = true; // Llama 4's qk norm is a weightless L2 norm
    } else if (is({"qwen2", "qwen2_moe", "qwen2_5_vl", "qwen2_5_vl_text"})) {
        t.known = true;
        t.qkvBiasAlways = true;
    } else if (is({"qwen3", "qwen3_moe", "qwen3_next", "qwen3_vl_text", "qwen3_vl_moe_text"})) {
        t.known = true;
        t.qkNorm = true;
    } else if (is({"gemma"})) {
        t.known = true;
        t.tiedByDefault = true;
    } else if (is({"gemma2"})) {
        t.known = true;
        t.tiedByDefault = true;
        t.normsPerLayer = 4;
    } else if (is({"gemma3", "gemma3_text", "gemma3n", "gemma3n_text"})) {
        t.known = true;
        t.tiedByDefault = true;
        t.normsPerLayer = 4;
        t.qkNorm = true;
        t.ropeCaches = 2; // local (10k) and global (1M) rotary bases
    } else if (is({"phi"})) {
        // Phi-1/1.5/2 (transformers models/phi/modeling_phi.py): one LayerNorm before parallel
        // attention and MLP, fc1/fc2 without a gate.
        t.known = true;
        t.normKind = NormKind::LayerNorm;
        t.normsPerLayer = 1;
        t.mlpKind = MlpKind::Plain;
    } else if (is({"falcon", "RefinedWeb", "RefinedWebModel"})) {
        t.known = true;
        t.tiedByDefault = true;
        t.normKind = NormKind::LayerNorm;
        t.mlpKind = MlpKind::Plain;
    }
    return t;
}

/// Rows of the rotary table vLLM's get_rope builds (vllm/model_executor/layers/rotary_embedding/):
/// LinearScalingRotaryEmbedding and DynamicNTKScalingRotaryEmbedding max_position x factor,
/// YaRNScalingRotaryEmbedding and DeepseekScalingRotaryEmbedding original_max_position_embeddings x
/// factor (torch.arange of that many positions: a fraction rounds up), the others max_position.
/// Multimodal rope (an mrope_section) keeps max_position; vLLM enlarges its table (multimodalRope).
/// The config's rope scaling: rope_scaling, or transformers' newer rope_parameters, and which key held it.
struct RopeScaling
{
    QJsonObject scaling;
    QString key;

    bool multimodal() const { return scaling.contains(QLatin1String("mrope_section")); }
};

RopeScaling ropeScaling(const ConfigReader &r)
{
    for (const char *key : {"rope_scaling", "rope_parameters"})
        if (const QJsonValue v = r.object().value(QLatin1String(key)); v.isObject())
            return {v.toObject(), QLatin1String(key)};
    return {};
}

std::int64_t rotaryTableRows(const ConfigReader &r, std::int64_t maxPosition)
{
    const RopeScaling given = ropeScaling(r);
    if (given.scaling.isEmpty() || given.multimodal())
        return maxPosition;
    const QJsonObject &scaling = given.scaling;
    const QString &scalingKey = given.key;
    const QString type =
        scaling.value(QLatin1String("rope_type")).toString(scaling.value(QLatin1String("type")).toString());
    const bool linear = type == QLatin1String("linear") || type == QLatin1String("dynamic");
    const bool yarn = type == QLatin1String("yarn") || type == QLatin1String("deepseek_yarn");
    if (!linear && !yarn)
        return maxPosition;
    const ConfigReader rope(scaling, r.origin(), r.prefix() + scalingKey + QLatin1Char('.'));
    const std::optional<double> factor = rope.number({"factor"});
    if (!factor)
        return maxPosition; // dynamic NTK by alpha, or a factor-less entry: the plain table
    std::int64_t base = maxPosition;
    if (yarn)
        base = rope.integer({"original_max_position_embeddings"}, 1, MaxConfigWidth).value_or(maxPosition);
    const double rows = std::ceil(double(base) * *factor);
    if (!(*factor > 0) || !(rows <= double(MaxConfigWidth)))
        rope.fail(QStringLiteral("factor"),
                  QStringLiteral("is %1; the rotary table of %2 x %1 positions is not one kvscope plans "
                                 "(expected a positive factor up to %3 positions)")
                      .arg(*factor)
                      .arg(base)
                      .arg(MaxConfigWidth));
    return std::int64_t(rows);
}

/// Gemma3TextConfig defaults (transformers configuration_gemma3.py) for the
/// fields that the published config.json leaves out.
void applyGemma3TextDefaults(QJsonObject &text)
{
    const auto fill = [&](const char *key, const QJsonValue &value) {
        if (!text.contains(QLatin1String(key)) || text.value(QLatin1String(key)).isNull())
            text.insert(QLatin1String(key), value);
    };
    fill("vocab_size", 262208);
    fill("max_position_embeddings", 131072);
    fill("sliding_window", 4096);
    fill("sliding_window_pattern", 6);
    fill("head_dim", 256);
    fill("num_attention_heads", 8);
    fill("num_key_value_heads", 4);
    fill("tie_word_embeddings", true);
}

/// layer_types lists sliding layers but no window is given: a window of 0 is refused,
/// a missing one noted (the layers are then planned as full attention).
void noteWindowlessSlidingLayers(const ConfigReader &r, QStringList &notes)
{
    const QString key = r.present({"sliding_window", "sliding_window_size"});
    if (!key.isEmpty())
        r.fail(key, QStringLiteral("is 0 but layer_types lists sliding_attention layers; expected their "
                                   "window in tokens"));
    notes << QStringLiteral("layer_types lists sliding_attention layers but no sliding_window is given: "
                            "assumed full attention for them");
}

QList<bool> slidingLayersFrom(const ConfigReader &r, const QString &modelType, int layers, int window,
                              QStringList &notes)
{
    QList<bool> sliding(layers, false);
    if (window <= 0)
        return sliding;

    const QJsonValue types = r.value({"layer_types"});
    if (types.isArray()) {
        const QJsonArray array = types.toArray();
        if (array.size() != layers)
            r.fail(
                QStringLiteral("layer_types"),
                QStringLiteral("has %1 entries but num_hidden_layers is %2").arg(array.size()).arg(layers));
        for (int i = 0; i < layers; ++i) {
            const QJsonValue entry = array.at(i);
            const QString kind = entry.toString();
            if (kind == QLatin1String("sliding_attention"))
                sliding[i] = true;
            else if (kind != QLatin1String("full_attention"))
                r.fail(QStringLiteral("layer_types[%1]").arg(i),
                       QStringLiteral("is %1; expected sliding_attention or full_attention")
                           .arg(entry.isString() ? QLatin1Char('\'') + kind + QLatin1Char('\'')
                                                 : ConfigReader::render(entry)));
        }
        return sliding;
    }

    const std::optional<std::int64_t> pattern = r.integer({"sliding_window_pattern"}, 1);
    if (pattern || modelType.startsWith(QLatin1String("gemma3"))) {
        // Gemma 3: every pattern-th layer is global, the others slide.
        const std::int64_t p = pattern.value_or(6);
        for (int i = 0; i < layers; ++i)
            sliding[i] = (i + 1) % p != 0;
        return sliding;
    }
    if (modelType == QLatin1String("gemma2")) {
        // Gemma 2 alternates local and global layers, local first (HF: not layer_idx % 2).
        for (int i = 0; i < layers; ++i)
            sliding[i] = i % 2 == 0;
        return sliding;
    }
    if (modelType.startsWith(QLatin1String("qwen2")) || modelType.startsWith(QLatin1String("qwen3"))) {
        // Qwen: sliding only when use_sliding_window, from max_window_layers on.
        if (!r.boolean({"use_sliding_window"}).value_or(false))
            return QList<bool>(layers, false);
        const std::int64_t from = r.integer({"max_window_layers"}).value_or(layers);
        for (int i = 0; i < layers; ++i)
            sliding[i] = i >= from;
        return sliding;
    }
    // Mistral 7B v0.1 style: one window for every layer.
    notes << QStringLiteral("sliding_window %1 applies to every layer").arg(window);
    return QList<bool>(layers, true);
}

void readMoe(const ConfigReader &r, const QString &modelType, ModelArch &m)
{
    const std::initializer_list<const char *> expertKeys = {"n_routed_experts", "num_local_experts",
                                                            "num_experts", "moe_num_experts"};
    const auto experts = r.integer(expertKeys);
    if (!experts)
        return;
    if (*experts == 0) {
        // ibm-granite/granite-4.0-h-micro: the dense member of a MoE family says 0 experts.
        m.notes
            << QStringLiteral("%1 0: read as a dense model (no routed experts)").arg(r.present(expertKeys));
        return;
    }
    MoeSpec &e = m.moe;
    e.numExperts = int(*experts);
    e.expertsPerToken = int(r.requireInteger({"num_experts_per_tok", "experts_per_token", "moe_top_k"}));
    if (e.expertsPerToken > e.numExperts)
        r.fail(QStringLiteral("num_experts_per_tok"),
               QStringLiteral("is %1, more than the %2 experts").arg(e.expertsPerToken).arg(e.numExperts));
    e.numSharedExperts = int(r.integer({"n_shared_experts", "num_shared_experts"}).value_or(0));
    e.expertIntermediateSize =
        r.integer({"moe_intermediate_size", "expert_intermediate_size"}, 1, MaxConfigWidth)
            .value_or(m.intermediateSize);
    if (e.expertIntermediateSize == 0) // no intermediate_size to fall back on either
        e.expertIntermediateSize =
            r.requireInteger({"moe_intermediate_size", "expert_intermediate_size"}, 1, MaxConfigWidth);
    e.sharedIntermediateSize =
        r.integer({"shared_expert_intermediate_size", "shared_intermediate_size"}, 0, MaxConfigWidth)
            .value_or(0);
    e.sharedExpertGate = e.sharedIntermediateSize > 0 && (modelType == QLatin1String("qwen2_moe") ||
                                                          modelType == QLatin1String("qwen3_next"));
    e.firstDenseLayers = int(r.integer({"first_k_dense_replace"}, 0, m.numLayers).value_or(0));

    // Sparse-step conventions: Qwen and Llama 4 put experts where (i + 1) % step == 0,
    // DeepSeek where i % freq == 0 (after the first dense layers).
    const auto markDense = [&](int layer) {
        if (e.denseLayers.isEmpty())
            e.denseLayers.resize(m.numLayers, false);
        e.denseLayers[layer] = true;
    };
    if (const auto step = r.integer({"decoder_sparse_step", "interleave_moe_layer_step"}, 1)) {
        for (int i = 0; i < m.numLayers; ++i)
            if ((i + 1) % *step != 0)
                markDense(i);
    }
    if (const auto freq = r.integer({"moe_layer_freq"}, 1)) {
        for (int i = 0; i < m.numLayers; ++i)
            if (i % *freq != 0)
                markDense(i);
    }
    const QJsonValue mlpOnly = r.value({"mlp_only_layers"});
    if (mlpOnly.isArray()) {
        for (const QJsonValue v : mlpOnly.toArray()) {
            if (!v.isDouble() || v.toInt(-1) < 0 || v.toInt() >= m.numLayers)
                r.fail(QStringLiteral("mlp_only_layers"),
                       QStringLiteral("holds %1, not a layer index").arg(ConfigReader::render(v)));
            markDense(v.toInt());
        }
    }
    e.routerBias =
        modelType == QLatin1String("gpt_oss") || r.string({"topk_method"}) == QLatin1String("noaux_tc");
    e.expertBias = modelType == QLatin1String("gpt_oss");
}

/// The model types vLLM runs with multi-head latent attention when kv_lora_rank
/// is not null (vLLM ModelConfig.is_deepseek_mla).
bool latentAttentionFamily(const QString &modelType)
{
    for (const char *name : {"deepseek_v2", "deepseek_v3", "deepseek_v32", "deepseek_mtp", "kimi_k2"})
        if (modelType == QLatin1String(name))
            return true;
    return false;
}

void readMla(const ConfigReader &r, const QString &modelType, ModelArch &m)
{
    const bool family = latentAttentionFamily(modelType);
    if (family) {
        const QJsonValue rank = r.object().value(QLatin1String("kv_lora_rank"));
        if (rank.isNull()) {
            m.notes << QStringLiteral("kv_lora_rank is null: vLLM runs %1 with multi-head attention, no "
                                      "latent cache")
                           .arg(modelType);
            return;
        }
        if (rank.isUndefined())
            throw Error(
                QStringLiteral("%1: missing field '%2kv_lora_rank'; %3 uses multi-head latent attention")
                    .arg(r.origin(), r.prefix(), modelType));
    }
    // A rank of 0 is no latent cache at all: only a family that has none may say so.
    const auto kvLora = r.integer({"kv_lora_rank"}, family ? 1 : 0);
    if (!kvLora || *kvLora == 0)
        return;
    MlaSpec &a = m.mla;
    a.kvLoraRank = int(*kvLora);
    a.qLoraRank = int(r.integer({"q_lora_rank"}).value_or(0));
    a.qkRopeHeadDim = int(r.requireInteger({"qk_rope_head_dim"}));
    a.qkNopeHeadDim = int(r.requireInteger({"qk_nope_head_dim"}));
    a.vHeadDim = int(r.requireInteger({"v_head_dim"}));
    m.headDim = a.qkNopeHeadDim + a.qkRopeHeadDim;
    m.vHeadDim = a.vHeadDim;
    m.rotaryDim = a.qkRopeHeadDim;
}

WeightDtype readDtype(const ConfigReader &r)
{
    const QJsonValue given = r.value({"torch_dtype", "dtype"});
    if (given.isUndefined() || given.isNull())
        return WeightDtype::Auto;
    if (!given.isString())
        r.fail(r.present({"torch_dtype", "dtype"}),
               QStringLiteral("must be a dtype name, got %1").arg(ConfigReader::render(given)));
    const QString text = given.toString();
    if (text.isEmpty())
        return WeightDtype::Auto;
    try {
        return parseWeightDtype(text, r.origin() + QStringLiteral(": torch_dtype"));
    } catch (const Error &) {
        r.fail(QStringLiteral("torch_dtype"),
               QStringLiteral("is '%1', not a floating-point dtype").arg(text));
    }
}

} // namespace

ModelArch loadHfConfigFile(const QString &path)
{
    constexpr qint64 maxConfigBytes = 16 * MiB;
    const QByteArray text = readRegularFile(path, maxConfigBytes, QStringLiteral("a config.json"));
    ModelArch model = parseHfConfig(parseJsonObject(text, path), path);
    model.source = QFileInfo(path).absoluteFilePath();
    return model;
}

ModelArch parseHfConfig(const QJsonObject &top, const QString &origin)
{
    ModelArch m;
    const ConfigReader outer(top, origin);
    // at(0) of an empty array is Undefined; first() would assert.
    m.architecture = outer.value({"architectures"}).toArray().at(0).toString();

    // Multimodal checkpoints keep the language model in a nested config
    // (LLaVA/Gemma 3/Mistral 3: text_config, InternVL: llm_config,
    // DeepSeek-VL2: language_config); storage keys stay at the top level.
    QJsonObject textObject = top;
    QString prefix;
    for (const char *nested : {"text_config", "llm_config", "language_config"}) {
        if (!top.value(QLatin1String(nested)).isObject())
            continue;
        textObject = top.value(QLatin1String(nested)).toObject();
        prefix = QLatin1String(nested) + QLatin1Char('.');
        for (const char *inherited : {"torch_dtype", "dtype", "quantization_config", "compression_config"}) {
            const QLatin1String key(inherited);
            if (!textObject.contains(key) && top.contains(key))
                textObject.insert(key, top.value(key));
        }
        break;
    }
    QString modelType = textObject.value(QLatin1String("model_type")).toString();
    // Kimi-VL's text_config is a DeepseekV3Config (configuration_kimi_vl.py; vLLM runs it as
    // DeepseekV2ForCausalLM, multi-head latent attention); copies of it may omit its model_type.
    if (modelType.isEmpty() && outer.string({"model_type"}) == QLatin1String("kimi_vl") && !prefix.isEmpty())
        modelType = QStringLiteral("deepseek_v3");
    if (modelType.isEmpty())
        modelType = outer.string({"model_type"});
    if (modelType == QLatin1String("gemma3_text") || modelType == QLatin1String("gemma3"))
        applyGemma3TextDefaults(textObject);
    if (modelType.startsWith(QLatin1String("gemma3n")))
        normalizeGemma3nText(textObject, origin, prefix);
    const ConfigReader r(textObject, origin, prefix);
    m.modelType = modelType;
    // vllm/transformers_utils/model_arch_config_convertor.py, ModelArchConfigConvertorBase.is_mm_prefix_lm.
    m.multimodalPrefixLm =
        top.contains(QLatin1String("is_mm_prefix_lm"))
            ? outer.boolean({"is_mm_prefix_lm"}).value_or(false)
            : QStringList{QStringLiteral("bagel"),      QStringLiteral("gemma3"),    QStringLiteral("molmo2"),
                          QStringLiteral("moondream3"), QStringLiteral("paligemma"), QStringLiteral("umm")}
                  .contains(outer.string({"model_type"}));
    // Per-layer lists given as anything else would otherwise read as absent.
    for (const char *key : {"layer_types", "layers_block_type", "no_rope_layers", "mlp_only_layers"})
        r.array({key});

    const FamilyTraits traits = traitsFor(modelType);
    if (!traits.known) {
        m.estimated = true;
        m.notes << QStringLiteral(
                       "model_type '%1' is not a known family: read with the generic decoder fields "
                       "(estimated)")
                       .arg(modelType.isEmpty() ? QStringLiteral("(none)") : modelType);
    }

    m.numLayers =
        int(r.requireInteger({"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, 1, MaxConfigLayers));
    m.hiddenSize = r.requireInteger({"hidden_size", "n_embd", "d_model", "dim"}, 1, MaxConfigWidth);
    m.numHeads = int(r.requireInteger({"num_attention_heads", "n_head", "num_heads", "n_heads"}));

    // KV heads: explicit count, Falcon's multi_query flag, or MHA.
    if (const auto kv = r.integer(
            {"num_key_value_heads", "n_head_kv", "num_kv_heads", "n_kv_heads", "multi_query_group_num"}, 1))
        m.numKvHeads = int(*kv);
    else if (r.boolean({"multi_query"}).value_or(false))
        m.numKvHeads = 1;
    else
        m.numKvHeads = m.numHeads;
    if (m.numKvHeads > m.numHeads || m.numHeads % m.numKvHeads != 0)
        r.fail(QStringLiteral("num_key_value_heads"),
               QStringLiteral("is %1, which does not divide num_attention_heads %2")
                   .arg(m.numKvHeads)
                   .arg(m.numHeads));

    if (const auto hd = r.integer({"head_dim", "kv_channels"}, 1)) {
        m.headDim = int(*hd);
    } else {
        if (m.hiddenSize % m.numHeads != 0)
            r.fail(QStringLiteral("hidden_size"),
                   QStringLiteral("is %1, not divisible by num_attention_heads %2 "
                                  "and no head_dim is given")
                       .arg(m.hiddenSize)
                       .arg(m.numHeads));
        if (m.hiddenSize / m.numHeads > MaxConfigInt)
            r.fail(QStringLiteral("hidden_size"),
                   QStringLiteral("is %1: heads of %2 values over num_attention_heads %3 are more than %4")
                       .arg(m.hiddenSize)
                       .arg(m.hiddenSize / m.numHeads)
                       .arg(m.numHeads)
                       .arg(MaxConfigInt));
        m.headDim = int(m.hiddenSize / m.numHeads);
    }
    m.vHeadDim = m.headDim;

    const FamilyTraits &t = traits;
    const std::initializer_list<const char *> intermediateKeys = {"intermediate_size", "ffn_hidden_size",
                                                                  "n_inner", "ffn_dim", "hidden_dim"};
    // 0 is allowed here: a model whose every layer is MoE needs no dense width (checked below).
    m.intermediateSize = r.integer(intermediateKeys, 0, MaxConfigWidth)
                             .value_or(t.mlpKind == MlpKind::Plain ? 4 * m.hiddenSize : 0);
    m.vocabSize = r.requireInteger({"vocab_size", "padded_vocab_size", "n_vocab"}, 1, MaxConfigWidth);
    // An EAGLE-3 draft's own output vocabulary (its lm_head), mapped onto the target's by d2t.
    m.draftVocabSize = r.integer({"draft_vocab_size"}, 1, MaxConfigWidth).value_or(0);
    // Multi-token-prediction layers the checkpoint carries beyond num_hidden_layers, which vLLM
    // loads only as a speculative draft (DeepSeek-V3's num_nextn_predict_layers, Qwen3.5's
    // mtp_num_hidden_layers). Qwen3-Next's configs name none; its checkpoints carry one (mtp.layers.0),
    // which vLLM's Qwen3NextMultiTokenPredictor assumes (getattr(config, "num_nextn_predict_layers", 1)).
    const int defaultMtpLayers = modelType == QLatin1String("qwen3_next") ? 1 : 0;
    m.mtpLayers = int(r.integer({"num_nextn_predict_layers", "mtp_num_hidden_layers"}, 0, MaxConfigLayers)
                          .value_or(defaultMtpLayers));
    m.maxPositionEmbeddings = r.integer({"max_position_embeddings", "n_positions", "max_seq_len",
                                         "seq_length", "max_sequence_length"},
                                        1, MaxConfigWidth)
                                  .value_or(0);
    if (m.maxPositionEmbeddings == 0) {
        m.maxPositionEmbeddings = 2048;
        m.notes << QStringLiteral("no max_position_embeddings: assumed 2048");
    }
    m.rotaryTableRows = rotaryTableRows(r, m.maxPositionEmbeddings);

    m.normKind = t.normKind;
    m.normsPerLayer = t.normsPerLayer;
    m.mlpKind = t.mlpKind;
    m.qkNorm = t.qkNorm;
    m.ropeCaches = t.ropeCaches;
    QJsonObject rope;
    for (const char *key : {"rope_theta", "rope_scaling", "rope_parameters"})
        if (const QJsonValue v = r.object().value(QLatin1String(key)); !v.isUndefined() && !v.isNull())
            rope.insert(QLatin1String(key), v);
    m.ropeSignature = QString::fromUtf8(QJsonDocument(rope).toJson(QJsonDocument::Compact));
    m.multimodalRope = ropeScaling(r).multimodal();

    const std::optional<bool> attentionBias = r.boolean({"attention_bias", "bias", "use_bias"});
    m.qkvBias = t.qkvBiasAlways || attentionBias.value_or(false);
    m.oBias = attentionBias.value_or(false);
    m.mlpBias = r.boolean({"mlp_bias"}).value_or(false);

    if (const auto tied = r.boolean({"tie_word_embeddings"}))
        m.tiedEmbeddings = *tied;
    else if (top.value(QLatin1String("tie_word_embeddings")).isBool())
        m.tiedEmbeddings = top.value(QLatin1String("tie_word_embeddings")).toBool();
    else
        m.tiedEmbeddings = t.tiedByDefault;

    // Falcon-7B: parallel attention and MLP share one LayerNorm.
    if (modelType == QLatin1String("falcon") || modelType.startsWith(QLatin1String("RefinedWeb"))) {
        const bool newArch = r.boolean({"new_decoder_architecture"}).value_or(false);
        const bool parallel = r.boolean({"parallel_attn"}).value_or(true);
        m.normsPerLayer = newArch ? 2 : (parallel ? 1 : 2);
        m.mlpBias = m.qkvBias = m.oBias = attentionBias.value_or(false);
    }
    // Phi: every linear layer has a bias, lm_head too (PhiAttention, PhiMLP, PhiForCausalLM).
    if (modelType == QLatin1String("phi")) {
        m.qkvBias = m.oBias = m.mlpBias = m.lmHeadBias = true;
        if (r.boolean({"qk_layernorm"}).value_or(false))
            m.notes << QStringLiteral(
                "qk_layernorm: the query and key LayerNorms are counted as weights only "
                "(their 2 x head_dim biases a layer are left out)");
        m.qkNorm = r.boolean({"qk_layernorm"}).value_or(false);
    }
    m.attentionSinks = modelType == QLatin1String("gpt_oss");

    const double partialRotary = r.number({"partial_rotary_factor"}).value_or(1.0);
    if (partialRotary <= 0 || partialRotary > 1)
        r.fail(QStringLiteral("partial_rotary_factor"),
               QStringLiteral("is %1; expected a share in (0, 1]").arg(partialRotary));
    m.rotaryDim = int(std::lround(m.headDim * partialRotary));
    // Granite 4.0-H attention has no positional encoding, so vLLM builds no rotary table.
    if (r.string({"position_embedding_type"}) == QLatin1String("nope"))
        m.rotaryDim = 0;
    // Qwen3-Next gated attention: q_proj also yields a sigmoid gate per head.
    m.attentionOutputGate =
        modelType == QLatin1String("qwen3_next") && r.boolean({"attn_output_gate"}).value_or(true);

    readMla(r, modelType, m);
    readMoe(r, modelType, m);
    readLlama4Layout(r, modelType, m);
    readGemma3nLayout(r, modelType, m);
    readRecurrentLayers(r, modelType, m);
    readSparseIndexer(r, m);
    bool denseMlp = !m.moe.enabled();
    for (int i = 0; i < m.numLayers && !denseMlp; ++i)
        denseMlp = !m.isMoeLayer(i);
    if (m.intermediateSize == 0 && denseMlp) // then 0 or no width at all is an error
        m.intermediateSize = r.requireInteger(intermediateKeys, 1, MaxConfigWidth);

    const std::int64_t window = r.integer({"sliding_window", "sliding_window_size"}).value_or(0);
    const bool slidingDisabled = r.boolean({"use_sliding_window"}).has_value() &&
                                 !r.boolean({"use_sliding_window"}).value() &&
                                 !r.value({"layer_types"}).isArray();
    if (window == 0 && listsLayerKind(r, QStringLiteral("sliding_attention")))
        noteWindowlessSlidingLayers(r, m.notes);
    if (window > 0 && !slidingDisabled && window < m.maxPositionEmbeddings) {
        m.slidingWindow = int(window);
        m.slidingLayers = slidingLayersFrom(r, modelType, m.numLayers, m.slidingWindow, m.notes);
        if (m.slidingLayerCount() == 0)
            m.slidingWindow = 0;
    }
    if (m.slidingWindow == 0)
        m.slidingLayers.clear();
    if (m.kvSharedLayers > 0)
        checkKvSharing(r, m);

    m.checkpointDtype = readDtype(r);
    const QJsonValue quant = r.value({"quantization_config", "compression_config"});
    if (quant.isObject())
        m.checkpointQuantization = parseQuantizationConfig(quant.toObject(), origin);
    else if (!quant.isUndefined() && !quant.isNull())
        r.fail(r.present({"quantization_config", "compression_config"}),
               QStringLiteral("must be an object, got %1").arg(ConfigReader::render(quant)));

    readVisionConfig(top, origin, m);
    return m;
}

} // namespace kvscope
