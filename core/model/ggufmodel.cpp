// SPDX-License-Identifier: MIT
#include "core/model/ggufmodel.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/model/configreader.h"
#include "core/model/hfconfig.h"
#include "core/model/inventory.h"

#include <algorithm>

#include <QJsonArray>

namespace kvscope {

namespace {

struct ArchName
{
    const char *gguf;
    const char *hf;
};

// llama.cpp's LLM_ARCH names (src/llama-arch.cpp) -> HF model_type. Mistral
// and Mixtral GGUFs use "llama"; unknown names go through as they are and
// are read with the generic decoder fields (estimated).
constexpr ArchName archNames[] = {
    {"llama", "llama"},        {"qwen2", "qwen2"},   {"qwen2moe", "qwen2_moe"},    {"qwen3", "qwen3"},
    {"qwen3moe", "qwen3_moe"}, {"gemma", "gemma"},   {"gemma2", "gemma2"},         {"gemma3", "gemma3_text"},
    {"phi3", "phi3"},          {"falcon", "falcon"}, {"deepseek2", "deepseek_v2"}, {"gpt-oss", "gpt_oss"},
    {"granite", "granite"},    {"olmo2", "olmo2"},   {"internlm2", "internlm2"},   {"exaone", "exaone"},
    {"minicpm", "minicpm"},    {"phi2", "phi"},
};

QString hfModelType(const QString &arch)
{
    for (const ArchName &a : archNames)
        if (arch == QLatin1String(a.gguf))
            return QLatin1String(a.hf);
    return arch;
}

/// Reads `<arch>.<suffix>`: an integer, or for per-layer arrays the largest
/// value (with a note, since kvscope sizes one value for every layer).
class MetadataReader
{
public:
    MetadataReader(const GgufFile &file, QString arch, QString origin, QStringList &notes)
        : m_file(file), m_arch(std::move(arch)), m_origin(std::move(origin)), m_notes(notes)
    {}

    QString key(const char *suffix) const { return m_arch + QLatin1Char('.') + QLatin1String(suffix); }

    std::optional<std::int64_t> integer(const char *suffix) const
    {
        const QString k = key(suffix);
        const GgufValue *v = m_file.value(k);
        if (!v)
            return std::nullopt;
        if (v->isInteger())
            return checkedRange(k, v->scalar.toLongLong());
        if (v->isArray() && !v->items.isEmpty() && v->elementType != GgufValueType::Float32 &&
            v->elementType != GgufValueType::Float64 && v->elementType != GgufValueType::String) {
            std::int64_t low = v->items.first().toLongLong(), high = low;
            for (const QVariant &item : v->items) {
                low = std::min<std::int64_t>(low, item.toLongLong());
                high = std::max<std::int64_t>(high, item.toLongLong());
            }
            if (low != high)
                m_notes << QStringLiteral(
                               "%1 varies per layer (%2 to %3): sized with %3 for every layer (estimated)")
                               .arg(k)
                               .arg(low)
                               .arg(high);
            return checkedRange(k, high);
        }
        throw Error(
            QStringLiteral("%1: metadata '%2' must be an integer or an array of integers").arg(m_origin, k));
    }

    /// A key the model cannot be sized without; zero is as wrong as absent.
    std::int64_t require(const char *suffix) const
    {
        const auto v = integer(suffix);
        if (!v)
            throw Error(QStringLiteral("%1: missing metadata '%2'").arg(m_origin, key(suffix)));
        if (*v < 1)
            throw Error(QStringLiteral("%1: metadata '%2' is %3; expected at least 1")
                            .arg(m_origin, key(suffix))
                            .arg(*v));
        return *v;
    }

private:
    std::int64_t checkedRange(const QString &k, std::int64_t v) const
    {
        if (v < 0)
            throw Error(QStringLiteral("%1: metadata '%2' is %3; expected a non-negative integer")
                            .arg(m_origin, k)
                            .arg(v));
        return v;
    }

    const GgufFile &m_file;
    QString m_arch;
    QString m_origin;
    QStringList &m_notes;
};

void insertIfPresent(QJsonObject &config, const char *field, const std::optional<std::int64_t> &value)
{
    if (value)
        config.insert(QLatin1String(field), double(*value));
}

bool hasTensor(const GgufFile &file, const char *name)
{
    return file.tensor(QLatin1String(name)) != nullptr;
}

/// llama.cpp's rule (llama_hparams::set_swa_pattern): layer il slides when
/// il % n < n - 1, i.e. every n-th layer is full.
QJsonArray layerTypesFromPattern(std::int64_t layers, std::int64_t pattern)
{
    QJsonArray types;
    for (std::int64_t i = 0; i < layers; ++i)
        types << (i % pattern < pattern - 1 ? QStringLiteral("sliding_attention")
                                            : QStringLiteral("full_attention"));
    return types;
}

} // namespace

QJsonObject hfConfigFromGguf(const GgufFile &file, const QString &origin)
{
    const QString arch = file.string(QStringLiteral("general.architecture"));
    if (arch.isEmpty())
        throw Error(QStringLiteral("%1: missing metadata 'general.architecture'").arg(origin));
    QStringList notes;
    const MetadataReader m(file, arch, origin, notes);
    QJsonObject c;
    c.insert(QStringLiteral("model_type"), hfModelType(arch));

    // Bounded before any per-layer list is built from it (config.json's limit).
    const std::int64_t layers = m.require("block_count");
    if (layers > MaxConfigLayers)
        throw Error(QStringLiteral("%1: metadata '%2' is %3; kvscope reads at most %4 layers")
                        .arg(origin, m.key("block_count"))
                        .arg(layers)
                        .arg(MaxConfigLayers));
    c.insert(QStringLiteral("num_hidden_layers"), double(layers));
    c.insert(QStringLiteral("hidden_size"), double(m.require("embedding_length")));
    c.insert(QStringLiteral("num_attention_heads"), double(m.require("attention.head_count")));
    insertIfPresent(c, "num_key_value_heads", m.integer("attention.head_count_kv"));
    insertIfPresent(c, "intermediate_size", m.integer("feed_forward_length"));
    insertIfPresent(c, "max_position_embeddings", m.integer("context_length"));
    insertIfPresent(c, "sliding_window", m.integer("attention.sliding_window"));

    // Vocabulary: the token list, else <arch>.vocab_size, else the embedding rows.
    std::optional<std::int64_t> vocab;
    if (const GgufValue *tokens = file.value(QStringLiteral("tokenizer.ggml.tokens"));
        tokens && tokens->isArray())
        vocab = tokens->count;
    if (!vocab)
        vocab = m.integer("vocab_size");
    if (const GgufTensor *embed = file.tensor(QStringLiteral("token_embd.weight"));
        embed && embed->shape.size() >= 2) {
        if (vocab && *vocab != embed->shape.at(1))
            notes << QStringLiteral(
                         "tokenizer holds %1 tokens, token_embd.weight %2 rows: sized with the rows")
                         .arg(*vocab)
                         .arg(embed->shape.at(1));
        vocab = embed->shape.at(1);
    }
    if (!vocab)
        throw Error(QStringLiteral("%1: no vocabulary size (tokenizer.ggml.tokens, %2 or token_embd.weight)")
                        .arg(origin, m.key("vocab_size")));
    c.insert(QStringLiteral("vocab_size"), double(*vocab));

    // Head sizes: explicit key/value lengths, else hidden / heads.
    const std::optional<std::int64_t> keyLength = m.integer("attention.key_length");
    const std::optional<std::int64_t> valueLength = m.integer("attention.value_length");
    const std::optional<std::int64_t> ropeDims = m.integer("rope.dimension_count");
    if (const auto kvLora = m.integer("attention.kv_lora_rank"); kvLora && *kvLora > 0) {
        // DeepSeek MLA: key_length = nope + rope, value_length = v_head_dim.
        const std::int64_t rope = ropeDims.value_or(64);
        c.insert(QStringLiteral("kv_lora_rank"), double(*kvLora));
        insertIfPresent(c, "q_lora_rank", m.integer("attention.q_lora_rank"));
        c.insert(QStringLiteral("qk_rope_head_dim"), double(rope));
        c.insert(QStringLiteral("qk_nope_head_dim"),
                 double(std::max<std::int64_t>(0, keyLength.value_or(192) - rope)));
        c.insert(QStringLiteral("v_head_dim"), double(valueLength.value_or(128)));
    } else {
        insertIfPresent(c, "head_dim", keyLength);
        const std::int64_t headDim =
            keyLength.value_or(c.value(QLatin1String("hidden_size")).toDouble() /
                               c.value(QLatin1String("num_attention_heads")).toDouble());
        if (ropeDims && headDim > 0 && *ropeDims > 0 && *ropeDims < headDim)
            c.insert(QStringLiteral("partial_rotary_factor"), double(*ropeDims) / double(headDim));
    }

    // Mixture of experts.
    if (const auto experts = m.integer("expert_count"); experts && *experts > 0) {
        c.insert(QStringLiteral("num_local_experts"), double(*experts));
        insertIfPresent(c, "num_experts_per_tok", m.integer("expert_used_count"));
        insertIfPresent(c, "n_shared_experts", m.integer("expert_shared_count"));
        insertIfPresent(c, "moe_intermediate_size", m.integer("expert_feed_forward_length"));
        insertIfPresent(c, "shared_expert_intermediate_size", m.integer("expert_shared_feed_forward_length"));
        insertIfPresent(c, "first_k_dense_replace", m.integer("leading_dense_block_count"));
        if (hasTensor(file, "blk.0.exp_probs_b.bias") || hasTensor(file, "blk.3.exp_probs_b.bias"))
            c.insert(QStringLiteral("topk_method"), QStringLiteral("noaux_tc")); // router bias (DeepSeek-V3)
    }

    // Sliding-window layout: an explicit per-layer list or period, else the family's rule.
    if (const GgufValue *pattern = file.value(m.key("attention.sliding_window_pattern"))) {
        if (pattern->isArray() && pattern->elementType == GgufValueType::Bool && pattern->count == layers) {
            QJsonArray types;
            for (const QVariant &sliding : pattern->items)
                types << (sliding.toBool() ? QStringLiteral("sliding_attention")
                                           : QStringLiteral("full_attention"));
            c.insert(QStringLiteral("layer_types"), types);
        } else if (pattern->isInteger() && pattern->scalar.toLongLong() > 0) {
            c.insert(QStringLiteral("layer_types"),
                     layerTypesFromPattern(layers, pattern->scalar.toLongLong()));
        } else {
            throw Error(QStringLiteral("%1: metadata '%2' must be a period or one bool per layer")
                            .arg(origin, m.key("attention.sliding_window_pattern")));
        }
    } else if (arch == QLatin1String("gpt-oss") && c.contains(QLatin1String("sliding_window"))) {
        c.insert(QStringLiteral("layer_types"),
                 layerTypesFromPattern(layers, 2)); // llama.cpp: set_swa_pattern(2)
    }

    // What the tensors show: tied output, biases, Falcon's layout.
    c.insert(QStringLiteral("tie_word_embeddings"), !hasTensor(file, "output.weight"));
    if (hasTensor(file, "blk.0.attn_output.bias") || hasTensor(file, "blk.0.attn_qkv.bias"))
        c.insert(QStringLiteral("attention_bias"), true);
    if (hasTensor(file, "blk.0.ffn_down.bias"))
        c.insert(QStringLiteral("mlp_bias"), true);
    if (arch == QLatin1String("falcon"))
        c.insert(QStringLiteral("new_decoder_architecture"), hasTensor(file, "blk.0.attn_norm_2.weight"));
    if (!notes.isEmpty())
        c.insert(QStringLiteral("kvscope_notes"), QJsonArray::fromStringList(notes));
    return c;
}

MeasuredCheckpoint measureGguf(const GgufFile &file)
{
    MeasuredCheckpoint measured;
    measured.format = QStringLiteral("gguf");
    measured.files = 1;
    Checked bytes, elements;
    for (const GgufTensor &t : file.tensors) {
        const QString type = QLatin1String(t.type.name);
        bytes += t.bytes;
        elements += t.elements;
        measured.bytesByType[type] = (Checked(measured.bytesByType.value(type)) + t.bytes).value();
        measured.elementsByType[type] = (Checked(measured.elementsByType.value(type)) + t.elements).value();
    }
    measured.tensors = file.tensors.size();
    measured.bytes = bytes.value();
    measured.elements = elements.value();
    return measured;
}

ModelArch modelFromGguf(const GgufFile &file, const QString &origin)
{
    const QJsonObject config = hfConfigFromGguf(file, origin);
    ModelArch model = parseHfConfig(config, origin + QStringLiteral(" (GGUF metadata)"));
    for (const QJsonValue note : config.value(QLatin1String("kvscope_notes")).toArray())
        model.notes << note.toString();
    model.format = ModelFormat::Gguf;
    model.measured = measureGguf(file);
    model.name = file.string(QStringLiteral("general.name"));
    model.architecture = file.string(QStringLiteral("general.architecture"));
    if (const auto fileType = file.integer(QStringLiteral("general.file_type"))) {
        model.fileType = llamaFileTypeName(*fileType);
        if (model.fileType.isEmpty())
            model.fileType = QStringLiteral("file type %1").arg(*fileType);
    }
    // A layout check: the tensors kvscope expects against those the file holds.
    const std::int64_t expected = countParameters(model).total;
    if (expected != model.measured.elements)
        model.notes << QStringLiteral("the file holds %1 weights; kvscope's layout for '%2' counts %3")
                           .arg(formatCount(model.measured.elements), model.architecture,
                                formatCount(expected));
    return model;
}

} // namespace kvscope
