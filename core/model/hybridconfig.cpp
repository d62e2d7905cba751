// SPDX-License-Identifier: MIT
#include "core/model/hybridconfig.h"

#include "core/common/checked.h"
#include "core/common/error.h"

#include <initializer_list>
#include <utility>

#include <QJsonArray>

namespace kvscope {

namespace {

/// Per-layer flags from a list of layer kinds (layer_types, layers_block_type):
/// true where the entry is `marked`, false where it is `other`; anything else fails.
QList<bool> layerFlags(const ConfigReader &r, const char *key, int layers, const QString &marked,
                       const QString &other)
{
    const QJsonArray array = r.value({key}).toArray();
    if (array.size() != layers)
        r.fail(QLatin1String(key),
               QStringLiteral("has %1 entries but num_hidden_layers is %2").arg(array.size()).arg(layers));
    QList<bool> flags(layers, false);
    for (int i = 0; i < layers; ++i) {
        const QString kind = array.at(i).toString();
        if (kind == marked)
            flags[i] = true;
        else if (kind != other)
            r.fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i),
                   QStringLiteral("is %1; expected %2 or %3")
                       .arg(ConfigReader::render(array.at(i)), marked, other));
    }
    return flags;
}

void readGatedDeltaNet(const ConfigReader &r, ModelArch &m)
{
    RecurrentSpec &s = m.recurrent;
    s.kind = RecurrentKind::GatedDeltaNet;
    s.numKeyHeads = int(r.requireInteger({"linear_num_key_heads"}));
    s.numValueHeads = int(r.requireInteger({"linear_num_value_heads"}));
    s.keyHeadDim = int(r.requireInteger({"linear_key_head_dim"}));
    s.valueHeadDim = int(r.requireInteger({"linear_value_head_dim"}));
    s.convKernel = int(r.requireInteger({"linear_conv_kernel_dim"}));
    if (r.value({"layer_types"}).isArray()) {
        s.layers = layerFlags(r, "layer_types", m.numLayers, QStringLiteral("linear_attention"),
                              QStringLiteral("full_attention"));
        return;
    }
    // Qwen3NextConfig: every full_attention_interval-th layer is full attention (default 4).
    const std::int64_t interval = r.integer({"full_attention_interval"}, 1).value_or(4);
    s.layers = QList<bool>(m.numLayers, false);
    for (int i = 0; i < m.numLayers; ++i)
        s.layers[i] = (i + 1) % interval != 0;
}

void readMamba2(const ConfigReader &r, ModelArch &m)
{
    RecurrentSpec &s = m.recurrent;
    s.kind = RecurrentKind::Mamba2;
    s.headDim = int(r.requireInteger({"mamba_d_head"}));
    s.stateSize = int(r.requireInteger({"mamba_d_state"}));
    s.numGroups = int(r.integer({"mamba_n_groups"}, 1).value_or(1));
    s.convKernel = int(r.integer({"mamba_d_conv"}, 1).value_or(4));
    s.intermediateSize = (Checked(r.integer({"mamba_expand"}, 1).value_or(2)) * m.hiddenSize).value();
    s.numHeads = int(r.integer({"mamba_n_heads"}, 1).value_or(s.intermediateSize / s.headDim));
    if (std::int64_t(s.numHeads) * s.headDim != s.intermediateSize)
        r.fail(QStringLiteral("mamba_n_heads"),
               QStringLiteral("is %1: %1 heads x mamba_d_head %2 != mamba_expand x hidden_size %3")
                   .arg(s.numHeads)
                   .arg(s.headDim)
                   .arg(s.intermediateSize));
    s.convBias = r.boolean({"mamba_conv_bias"}).value_or(true);
    s.projBias = r.boolean({"mamba_proj_bias"}).value_or(false);
    const char *key = r.value({"layer_types"}).isArray() ? "layer_types" : "layers_block_type";
    if (!r.value({key}).isArray())
        r.fail(QStringLiteral("layer_types"),
               QStringLiteral("is missing: a hybrid Mamba model lists its layers"));
    s.layers = layerFlags(r, key, m.numLayers, QStringLiteral("mamba"), QStringLiteral("attention"));
}

} // namespace

void normalizeGemma3nText(QJsonObject &text, const QString &origin, const QString &prefix)
{
    const QJsonValue widths = text.value(QLatin1String("intermediate_size"));
    if (!widths.isArray())
        return;
    const QJsonArray array = widths.toArray();
    if (array.isEmpty() || !array.at(0).isDouble())
        throw Error(QStringLiteral("%1: field '%2intermediate_size' must be a width or a list of widths")
                        .arg(origin, prefix));
    for (const QJsonValue v : array)
        if (v != array.at(0))
            throw Error(QStringLiteral("%1: field '%2intermediate_size' lists different widths per layer "
                                       "(%3 and %4); kvscope models one width")
                            .arg(origin, prefix, ConfigReader::render(array.at(0)), ConfigReader::render(v)));
    text.insert(QLatin1String("intermediate_size"), array.at(0));
}

bool listsLayerKind(const ConfigReader &r, const QString &kind)
{
    for (const char *key : {"layer_types", "layers_block_type"})
        if (const auto kinds = r.array({key}); kinds && kinds->contains(kind))
            return true;
    return false;
}

namespace {

/// True when the config holds any of `keys`, even as null or a wrong type: the
/// architecture they describe is then meant, and its fields are required.
bool mentionsAny(const ConfigReader &r, std::initializer_list<const char *> keys)
{
    for (const char *key : keys)
        if (r.object().contains(QLatin1String(key)))
            return true;
    return false;
}

bool isGatedDeltaNet(const ConfigReader &r, const QString &modelType)
{
    return modelType == QLatin1String("qwen3_next") ||
           listsLayerKind(r, QStringLiteral("linear_attention")) ||
           mentionsAny(r, {"linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                           "linear_value_head_dim"});
}

/// Granite 4.0-H lists mamba layers; Granite 4.0 Micro has mamba_* fields and attention layers only.
bool isMamba2(const ConfigReader &r, const QString &modelType)
{
    return modelType == QLatin1String("granitemoehybrid") &&
           (listsLayerKind(r, QStringLiteral("mamba")) || mentionsAny(r, {"mamba_d_head"}));
}

} // namespace

void readRecurrentLayers(const ConfigReader &r, const QString &modelType, ModelArch &m)
{
    if (isGatedDeltaNet(r, modelType))
        readGatedDeltaNet(r, m);
    else if (isMamba2(r, modelType))
        readMamba2(r, m);
    if (m.recurrent.enabled() && m.recurrent.layerCount() == 0)
        m.recurrent = RecurrentSpec{}; // Granite 4.0 Micro: mamba_* fields, attention layers only
    if (m.recurrent.layerCount() == m.numLayers)
        r.fail(QStringLiteral("layer_types"),
               QStringLiteral("has no attention layer; pure state-space models "
                              "are not modelled"));
}

void readLlama4Layout(const ConfigReader &r, const QString &modelType, ModelArch &m)
{
    if (!modelType.startsWith(QLatin1String("llama4")))
        return;
    // Llama4TextConfig: dense layers use intermediate_size_mlp; routed and shared
    // experts use intermediate_size; MoE every interleave_moe_layer_step-th layer.
    const std::int64_t expertWidth = m.intermediateSize;
    m.intermediateSize = r.integer({"intermediate_size_mlp"}, 1, MaxConfigWidth).value_or(m.intermediateSize);
    if (m.moe.enabled()) {
        m.moe.expertIntermediateSize = expertWidth;
        m.moe.numSharedExperts = 1;
        m.moe.sharedIntermediateSize = expertWidth;
    }
    m.attentionChunkSize = int(r.integer({"attention_chunk_size"}).value_or(0));
    if (m.attentionChunkSize == 0)
        return;
    // no_rope_layers[i] == 0 marks a NoPE layer: global attention. The others are
    // chunked (vLLM Llama4Attention: use_chunked_local_attn = not nope and chunk size).
    const QJsonArray noRope = r.value({"no_rope_layers"}).toArray();
    m.chunkedLayers = QList<bool>(m.numLayers, false);
    if (!noRope.isEmpty()) {
        if (noRope.size() != m.numLayers)
            r.fail(QStringLiteral("no_rope_layers"),
                   QStringLiteral("has %1 entries but num_hidden_layers is %2")
                       .arg(noRope.size())
                       .arg(m.numLayers));
        for (int i = 0; i < m.numLayers; ++i) {
            const QJsonValue entry = noRope.at(i);
            if (entry != QJsonValue(0) && entry != QJsonValue(1))
                r.fail(QStringLiteral("no_rope_layers[%1]").arg(i),
                       QStringLiteral("is %1; expected 0 or 1 (0: a NoPE layer)")
                           .arg(ConfigReader::render(entry)));
            m.chunkedLayers[i] = entry == QJsonValue(1);
        }
        return;
    }
    // Llama4TextConfig default: a NoPE layer every no_rope_layer_interval-th layer (4).
    const std::int64_t interval = r.integer({"no_rope_layer_interval"}, 1).value_or(4);
    for (int i = 0; i < m.numLayers; ++i)
        m.chunkedLayers[i] = (i + 1) % interval != 0;
}

void readGemma3nLayout(const ConfigReader &r, const QString &modelType, ModelArch &m)
{
    if (!modelType.startsWith(QLatin1String("gemma3n")))
        return;
    // Gemma3nTextConfig defaults for the fields a config may leave out.
    Gemma3nSpec &g = m.gemma3n;
    g.altupInputs = int(r.integer({"altup_num_inputs"}, 1).value_or(4));
    g.laurelRank = int(r.integer({"laurel_rank"}, 1).value_or(64));
    g.perLayerInputSize = int(r.integer({"hidden_size_per_layer_input"}, 1).value_or(256));
    g.perLayerVocabSize = r.integer({"vocab_size_per_layer_input"}, 1, MaxConfigWidth).value_or(262144);
    m.kvSharedLayers = int(r.integer({"num_kv_shared_layers"}).value_or(15));
    if (m.kvSharedLayers >= m.numLayers)
        r.fail(QStringLiteral("num_kv_shared_layers"),
               QStringLiteral("is %1, not fewer than num_hidden_layers %2")
                   .arg(m.kvSharedLayers)
                   .arg(m.numLayers));
}

void checkKvSharing(const ConfigReader &r, const ModelArch &m)
{
    // Gemma3nTextAttention: a shared layer reuses the cache of the last earlier,
    // unshared layer of its own kind (sliding or full); without one it has none.
    const int firstShared = m.numLayers - m.kvSharedLayers;
    for (int i = firstShared; i < m.numLayers; ++i) {
        bool earlier = false;
        for (int j = 0; j < firstShared && !earlier; ++j)
            earlier = m.isSlidingLayer(j) == m.isSlidingLayer(i);
        if (!earlier)
            r.fail(QStringLiteral("layer_types[%1]").arg(i),
                   QStringLiteral("is %1 and among the last %2 layers (num_kv_shared_layers), but no earlier "
                                  "layer is: it has no cache to share")
                       .arg(m.isSlidingLayer(i) ? QStringLiteral("sliding_attention")
                                                : QStringLiteral("full_attention"))
                       .arg(m.kvSharedLayers));
    }
}

void readSparseIndexer(const ConfigReader &r, ModelArch &m)
{
    const auto headDim = r.integer({"index_head_dim"});
    if (!headDim || *headDim == 0 || !m.usesMla())
        return;
    m.indexer.headDim = int(*headDim);
    m.indexer.numHeads = int(r.requireInteger({"index_n_heads"}));
    m.indexer.topK = int(r.integer({"index_topk"}).value_or(0));
}

QString recurrentStateFields(const RecurrentSpec &s)
{
    const auto fields = [](std::initializer_list<std::pair<const char *, std::int64_t>> list) {
        QStringList parts;
        for (const auto &[name, value] : list)
            parts << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(value);
        return parts.join(QStringLiteral(", "));
    };
    switch (s.kind) {
    case RecurrentKind::GatedDeltaNet:
        return fields({{"linear_num_key_heads", s.numKeyHeads},
                       {"linear_num_value_heads", s.numValueHeads},
                       {"linear_key_head_dim", s.keyHeadDim},
                       {"linear_value_head_dim", s.valueHeadDim},
                       {"linear_conv_kernel_dim", s.convKernel}});
    case RecurrentKind::Mamba2:
        return fields({{"mamba_n_heads", s.numHeads},
                       {"mamba_d_head", s.headDim},
                       {"mamba_d_state", s.stateSize},
                       {"mamba_n_groups", s.numGroups},
                       {"mamba_d_conv", s.convKernel}});
    case RecurrentKind::None:
        break;
    }
    return {};
}

} // namespace kvscope
