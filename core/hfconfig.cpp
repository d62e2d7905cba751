// SPDX-License-Identifier: MIT
#include "hfconfig.h"

#include "error.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>
#include <initializer_list>
#include <optional>

namespace kvscope {

namespace {

/// Reads fields that model families spell differently, with messages that
/// name the file, the field (as spelled in the file) and the value.
class ConfigReader
{
public:
    ConfigReader(QJsonObject object, QString origin, QString prefix = {})
        : m_object(std::move(object)), m_origin(std::move(origin)), m_prefix(std::move(prefix))
    {
    }

    const QJsonObject &object() const { return m_object; }
    const QString &origin() const { return m_origin; }

    /// The first key present with a non-null value, or an empty string.
    QString present(std::initializer_list<const char *> keys) const
    {
        for (const char *key : keys) {
            const QJsonValue v = m_object.value(QLatin1String(key));
            if (!v.isUndefined() && !v.isNull())
                return QLatin1String(key);
        }
        return {};
    }

    QJsonValue value(std::initializer_list<const char *> keys) const
    {
        const QString key = present(keys);
        return key.isEmpty() ? QJsonValue() : m_object.value(key);
    }

    std::optional<std::int64_t> integer(std::initializer_list<const char *> keys, std::int64_t minimum = 0) const
    {
        const QString key = present(keys);
        if (key.isEmpty())
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d) || d < double(minimum) || d > 9.0e15)
            throw Error(QStringLiteral("%1: field '%2' must be an integer >= %3, got %4")
                            .arg(m_origin, m_prefix + key)
                            .arg(minimum)
                            .arg(render(v)));
        return std::int64_t(d);
    }

    std::int64_t requireInteger(std::initializer_list<const char *> keys, std::int64_t minimum = 1) const
    {
        if (const auto v = integer(keys, minimum))
            return *v;
        throw Error(QStringLiteral("%1: missing field '%2'").arg(m_origin, m_prefix + spellings(keys)));
    }

    std::optional<double> number(std::initializer_list<const char *> keys) const
    {
        const QString key = present(keys);
        if (key.isEmpty())
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble()))
            throw Error(QStringLiteral("%1: field '%2' must be a number, got %3")
                            .arg(m_origin, m_prefix + key, render(v)));
        return v.toDouble();
    }

    std::optional<bool> boolean(std::initializer_list<const char *> keys) const
    {
        const QString key = present(keys);
        if (key.isEmpty())
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isBool())
            throw Error(QStringLiteral("%1: field '%2' must be true or false, got %3")
                            .arg(m_origin, m_prefix + key, render(v)));
        return v.toBool();
    }

    QString string(std::initializer_list<const char *> keys) const
    {
        const QJsonValue v = value(keys);
        return v.isString() ? v.toString() : QString();
    }

    [[noreturn]] void fail(const QString &field, const QString &problem) const
    {
        throw Error(QStringLiteral("%1: field '%2' %3").arg(m_origin, m_prefix + field, problem));
    }

    static QString render(const QJsonValue &v)
    {
        switch (v.type()) {
        case QJsonValue::String: return QLatin1Char('"') + v.toString() + QLatin1Char('"');
        case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 17);
        case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Array: return QStringLiteral("an array");
        case QJsonValue::Object: return QStringLiteral("an object");
        default: return QStringLiteral("null");
        }
    }

private:
    static QString spellings(std::initializer_list<const char *> keys)
    {
        QStringList names;
        for (const char *key : keys)
            names << QLatin1String(key);
        QString first = names.takeFirst();
        return names.isEmpty() ? first : first + QStringLiteral("' (or ") + names.join(QStringLiteral(", ")) + QLatin1Char(')') + QLatin1Char('\'');
    }

    QJsonObject m_object;
    QString m_origin;
    QString m_prefix;
};

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
            "deepseek_v3", "gpt_oss", "minicpm", "exaone", "mistral3"})) {
        t.known = true;
    } else if (is({"qwen2", "qwen2_moe"})) {
        t.known = true;
        t.qkvBiasAlways = true;
    } else if (is({"qwen3", "qwen3_moe"})) {
        t.known = true;
        t.qkNorm = true;
    } else if (is({"gemma"})) {
        t.known = true;
        t.tiedByDefault = true;
    } else if (is({"gemma2"})) {
        t.known = true;
        t.tiedByDefault = true;
        t.normsPerLayer = 4;
    } else if (is({"gemma3", "gemma3_text"})) {
        t.known = true;
        t.tiedByDefault = true;
        t.normsPerLayer = 4;
        t.qkNorm = true;
        t.ropeCaches = 2; // local (10k) and global (1M) rotary bases
    } else if (is({"falcon", "RefinedWeb", "RefinedWebModel"})) {
        t.known = true;
        t.tiedByDefault = true;
        t.normKind = NormKind::LayerNorm;
        t.mlpKind = MlpKind::Plain;
    }
    return t;
}

/// Gemma3TextConfig defaults (transformers configuration_gemma3.py) for the
/// fields that the published config.json leaves out.
void applyGemma3TextDefaults(QJsonObject &text)
{
    const auto fill = [&](const char *key, QJsonValue value) {
        if (!text.contains(QLatin1String(key)) || text.value(QLatin1String(key)).isNull())
            text.insert(QLatin1String(key), value);
    };
    fill("vocab_size", 262208);
    fill("max_position_embeddings", 131072);
    fill("sliding_window", 4096);
    fill("sliding_window_pattern", 6);
    fill("head_dim", 256);
    fill("tie_word_embeddings", true);
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
            r.fail(QStringLiteral("layer_types"),
                   QStringLiteral("has %1 entries but num_hidden_layers is %2").arg(array.size()).arg(layers));
        for (int i = 0; i < layers; ++i) {
            const QString kind = array.at(i).toString();
            if (kind == QLatin1String("sliding_attention"))
                sliding[i] = true;
            else if (kind != QLatin1String("full_attention"))
                r.fail(QStringLiteral("layer_types[%1]").arg(i),
                       QStringLiteral("is '%1'; expected sliding_attention or full_attention").arg(kind));
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
    const auto experts = r.integer({"n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts"});
    if (!experts || *experts == 0)
        return;
    MoeSpec &e = m.moe;
    e.numExperts = int(*experts);
    e.expertsPerToken = int(r.requireInteger({"num_experts_per_tok", "experts_per_token", "moe_top_k"}));
    if (e.expertsPerToken > e.numExperts)
        r.fail(QStringLiteral("num_experts_per_tok"),
               QStringLiteral("is %1, more than the %2 experts").arg(e.expertsPerToken).arg(e.numExperts));
    e.numSharedExperts = int(r.integer({"n_shared_experts", "num_shared_experts"}).value_or(0));
    e.expertIntermediateSize = r.integer({"moe_intermediate_size", "expert_intermediate_size"})
                                   .value_or(m.intermediateSize);
    e.sharedIntermediateSize = r.integer({"shared_expert_intermediate_size"}).value_or(0);
    e.sharedExpertGate = e.sharedIntermediateSize > 0 && modelType == QLatin1String("qwen2_moe");
    e.firstDenseLayers = int(r.integer({"first_k_dense_replace"}).value_or(0));

    // Sparse-step conventions: Qwen puts experts where (i + 1) % step == 0,
    // DeepSeek where i % freq == 0 (after the first dense layers).
    if (const auto step = r.integer({"decoder_sparse_step"}, 1)) {
        for (int i = 0; i < m.numLayers; ++i)
            if ((i + 1) % *step != 0)
                e.denseLayers << i;
    }
    if (const auto freq = r.integer({"moe_layer_freq"}, 1)) {
        for (int i = 0; i < m.numLayers; ++i)
            if (i % *freq != 0)
                e.denseLayers << i;
    }
    const QJsonValue mlpOnly = r.value({"mlp_only_layers"});
    if (mlpOnly.isArray()) {
        for (const QJsonValue v : mlpOnly.toArray()) {
            if (!v.isDouble() || v.toInt(-1) < 0 || v.toInt() >= m.numLayers)
                r.fail(QStringLiteral("mlp_only_layers"),
                       QStringLiteral("holds %1, not a layer index").arg(ConfigReader::render(v)));
            e.denseLayers << v.toInt();
        }
    }
    e.routerBias = modelType == QLatin1String("gpt_oss")
                   || r.string({"topk_method"}) == QLatin1String("noaux_tc");
    e.expertBias = modelType == QLatin1String("gpt_oss");
}

void readMla(const ConfigReader &r, ModelArch &m)
{
    const auto kvLora = r.integer({"kv_lora_rank"});
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

void readVision(const QJsonObject &top, const QString &origin, ModelArch &m)
{
    const QJsonValue vision = top.value(QLatin1String("vision_config"));
    if (!vision.isObject())
        return;
    const ConfigReader r(vision.toObject(), origin, QStringLiteral("vision_config."));
    VisionSpec &v = m.vision;
    v.numLayers = int(r.integer({"num_hidden_layers", "depth"}).value_or(0));
    v.hiddenSize = r.integer({"hidden_size", "embed_dim"}).value_or(0);
    v.intermediateSize = r.integer({"intermediate_size"}).value_or(4 * v.hiddenSize);
    v.patchSize = int(r.integer({"patch_size"}).value_or(0));
    v.imageSize = int(r.integer({"image_size"}).value_or(0));
    v.numChannels = int(r.integer({"num_channels"}).value_or(3));
    v.projectorOutput = m.hiddenSize;
    if (v.numLayers == 0 || v.hiddenSize == 0)
        v = VisionSpec{};
    const QString type = r.string({"model_type"});
    if (v.enabled() && type != QLatin1String("siglip_vision_model"))
        m.notes << QStringLiteral("vision tower '%1' counted with the generic ViT layout (estimated)").arg(type);
}

WeightDtype readDtype(const ConfigReader &r)
{
    const QString text = r.string({"torch_dtype", "dtype"});
    if (text.isEmpty())
        return WeightDtype::Auto;
    try {
        return parseWeightDtype(text, r.origin() + QStringLiteral(": torch_dtype"));
    } catch (const Error &) {
        r.fail(QStringLiteral("torch_dtype"), QStringLiteral("is '%1', not a floating-point dtype").arg(text));
    }
}

} // namespace

QuantizationSpec parseQuantizationConfig(const QJsonObject &q, const QString &origin)
{
    QuantizationSpec spec;
    if (q.isEmpty())
        return spec;
    const ConfigReader r(q, origin, QStringLiteral("quantization_config."));
    const QString method = r.string({"quant_method"}).toLower();
    const auto stringList = [&](const char *key) {
        QStringList list;
        for (const QJsonValue v : q.value(QLatin1String(key)).toArray())
            list << v.toString();
        return list;
    };
    if (method == QLatin1String("fp8")) {
        spec = defaultSpecFor(QuantMethod::Fp8);
        const QJsonArray block = q.value(QLatin1String("weight_block_size")).toArray();
        if (block.size() == 2) {
            spec.blockRows = block.at(0).toInt();
            spec.blockCols = block.at(1).toInt();
            if (spec.blockRows <= 0 || spec.blockCols <= 0)
                r.fail(QStringLiteral("weight_block_size"), QStringLiteral("must hold two positive integers"));
        }
        spec.modulesNotConverted = stringList("modules_to_not_convert") + stringList("ignored_layers");
    } else if (method == QLatin1String("awq") || method == QLatin1String("gptq")) {
        spec = defaultSpecFor(method == QLatin1String("awq") ? QuantMethod::Awq : QuantMethod::Gptq);
        spec.bits = int(r.integer({"bits", "w_bit"}, 2).value_or(4));
        spec.groupSize = int(r.integer({"group_size", "q_group_size"}, -1).value_or(128));
        spec.modulesNotConverted = stringList("modules_to_not_convert");
    } else if (method == QLatin1String("bitsandbytes")) {
        if (!r.boolean({"load_in_4bit"}).value_or(false))
            r.fail(QStringLiteral("load_in_4bit"), QStringLiteral("is not true; only 4-bit bitsandbytes is sized"));
        spec = defaultSpecFor(QuantMethod::BitsAndBytesNf4);
        spec.doubleQuant = r.boolean({"bnb_4bit_use_double_quant"}).value_or(false);
        spec.modulesNotConverted = stringList("llm_int8_skip_modules");
    } else if (method == QLatin1String("mxfp4")) {
        spec = defaultSpecFor(QuantMethod::Mxfp4);
        spec.modulesNotConverted = stringList("modules_to_not_convert");
    } else if (!method.isEmpty()) {
        r.fail(QStringLiteral("quant_method"), QStringLiteral("is '%1', which kvscope does not size").arg(method));
    }
    return spec;
}

QJsonObject parseJsonObject(const QByteArray &text, const QString &origin)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(QStringLiteral("%1: malformed JSON at offset %2: %3")
                        .arg(origin)
                        .arg(error.offset)
                        .arg(error.errorString()));
    if (!doc.isObject())
        throw Error(QStringLiteral("%1: expected a JSON object at the top level").arg(origin));
    return doc.object();
}

ModelArch loadHfConfigFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(QStringLiteral("%1: cannot open: %2").arg(path, file.errorString()));
    constexpr qint64 maxConfigBytes = 16 * 1024 * 1024;
    if (file.size() > maxConfigBytes)
        throw Error(QStringLiteral("%1: %2 bytes is too large for a config.json").arg(path).arg(file.size()));
    ModelArch model = parseHfConfig(parseJsonObject(file.readAll(), path), path);
    model.source = QFileInfo(path).absoluteFilePath();
    return model;
}

ModelArch parseHfConfig(const QJsonObject &top, const QString &origin)
{
    ModelArch m;
    const ConfigReader outer(top, origin);
    m.architecture = outer.value({"architectures"}).toArray().first().toString();

    // Multimodal checkpoints keep the language model in text_config.
    QJsonObject textObject = top;
    QString prefix;
    if (top.value(QLatin1String("text_config")).isObject()) {
        textObject = top.value(QLatin1String("text_config")).toObject();
        prefix = QStringLiteral("text_config.");
        if (!textObject.contains(QLatin1String("torch_dtype")) && top.contains(QLatin1String("torch_dtype")))
            textObject.insert(QStringLiteral("torch_dtype"), top.value(QLatin1String("torch_dtype")));
        if (!textObject.contains(QLatin1String("quantization_config"))
            && top.contains(QLatin1String("quantization_config")))
            textObject.insert(QStringLiteral("quantization_config"), top.value(QLatin1String("quantization_config")));
    }
    QString modelType = textObject.value(QLatin1String("model_type")).toString();
    if (modelType.isEmpty())
        modelType = outer.string({"model_type"});
    if (modelType == QLatin1String("gemma3_text") || modelType == QLatin1String("gemma3"))
        applyGemma3TextDefaults(textObject);
    const ConfigReader r(textObject, origin, prefix);
    m.modelType = modelType;

    const FamilyTraits traits = traitsFor(modelType);
    if (!traits.known) {
        m.estimated = true;
        m.notes << QStringLiteral("model_type '%1' is not a known family: read with the generic decoder fields "
                                  "(estimated)")
                       .arg(modelType.isEmpty() ? QStringLiteral("(none)") : modelType);
    }

    m.numLayers = int(r.requireInteger({"num_hidden_layers", "n_layer", "num_layers", "n_layers"}));
    m.hiddenSize = r.requireInteger({"hidden_size", "n_embd", "d_model", "dim"});
    m.numHeads = int(r.requireInteger({"num_attention_heads", "n_head", "num_heads", "n_heads"}));

    // KV heads: explicit count, Falcon's multi_query flag, or MHA.
    if (const auto kv = r.integer({"num_key_value_heads", "n_head_kv", "num_kv_heads", "multi_query_group_num"}, 1))
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

    if (const auto hd = r.integer({"head_dim"}, 1)) {
        m.headDim = int(*hd);
    } else {
        if (m.hiddenSize % m.numHeads != 0)
            r.fail(QStringLiteral("hidden_size"), QStringLiteral("is %1, not divisible by num_attention_heads %2 "
                                                                 "and no head_dim is given")
                                                      .arg(m.hiddenSize)
                                                      .arg(m.numHeads));
        m.headDim = int(m.hiddenSize / m.numHeads);
    }
    m.vHeadDim = m.headDim;

    const FamilyTraits &t = traits;
    m.intermediateSize = r.integer({"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim"})
                             .value_or(t.mlpKind == MlpKind::Plain ? 4 * m.hiddenSize : 0);
    m.vocabSize = r.requireInteger({"vocab_size", "padded_vocab_size", "n_vocab"});
    m.maxPositionEmbeddings = r.integer({"max_position_embeddings", "n_positions", "max_seq_len",
                                         "seq_length", "max_sequence_length"}, 1)
                                  .value_or(0);
    if (m.maxPositionEmbeddings == 0) {
        m.maxPositionEmbeddings = 2048;
        m.notes << QStringLiteral("no max_position_embeddings: assumed 2048");
    }

    m.normKind = t.normKind;
    m.normsPerLayer = t.normsPerLayer;
    m.mlpKind = t.mlpKind;
    m.qkNorm = t.qkNorm;
    m.ropeCaches = t.ropeCaches;

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
    m.attentionSinks = modelType == QLatin1String("gpt_oss");

    const double partialRotary = r.number({"partial_rotary_factor"}).value_or(1.0);
    m.rotaryDim = int(std::lround(m.headDim * partialRotary));

    readMla(r, m);
    readMoe(r, modelType, m);
    if (m.intermediateSize == 0 && !m.moe.enabled())
        throw Error(QStringLiteral("%1: missing field '%2intermediate_size'").arg(origin, prefix));

    const std::int64_t window = r.integer({"sliding_window", "sliding_window_size"}).value_or(0);
    const bool slidingDisabled = r.boolean({"use_sliding_window"}).has_value()
                                 && !r.boolean({"use_sliding_window"}).value()
                                 && !r.value({"layer_types"}).isArray();
    if (window > 0 && !slidingDisabled && window < m.maxPositionEmbeddings) {
        m.slidingWindow = int(window);
        m.slidingLayers = slidingLayersFrom(r, modelType, m.numLayers, m.slidingWindow, m.notes);
        if (m.slidingLayerCount() == 0)
            m.slidingWindow = 0;
    }
    if (m.slidingWindow == 0)
        m.slidingLayers.clear();

    m.checkpointDtype = readDtype(r);
    const QJsonValue quant = r.value({"quantization_config"});
    if (quant.isObject())
        m.checkpointQuantization = parseQuantizationConfig(quant.toObject(), origin);

    readVision(top, origin, m);
    return m;
}

} // namespace kvscope
