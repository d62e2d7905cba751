// SPDX-License-Identifier: MIT
#include "core/model/inventory.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"
#include "core/model/inventorybuilder.h"
#include "core/model/visiontower.h"

#include <algorithm>
#include <utility>

namespace kvscope {

namespace {

const EnumSpelling<Component> componentNames[] = {
    {Component::Embedding, "embeddings"}, {Component::Attention, "attention"}, {Component::Mlp, "mlp"},
    {Component::Experts, "experts"},      {Component::Router, "router"},       {Component::Norms, "norms"},
    {Component::LmHead, "lm_head"},       {Component::Vision, "vision"},
};

} // namespace

QString componentName(Component component)
{
    return enumName(componentNames, component);
}

std::int64_t TensorGroup::elements() const
{
    return (Checked(rows) * cols * copies).value();
}

std::int64_t TensorGroup::activeElements() const
{
    return (Checked(rows) * cols * activeCopies).value();
}

std::int64_t paddedVocab(std::int64_t vocab)
{
    return ceilDiv(vocab, 64) * 64;
}

namespace {

void addStandardAttention(InventoryBuilder &b, const ModelArch &m, std::int64_t layers)
{
    const std::int64_t h = m.hiddenSize;
    // Qwen3-Next's gated attention: q_proj yields the queries and a gate of the same width.
    const std::int64_t qWidth = (Checked(m.numHeads) * m.headDim * (m.attentionOutputGate ? 2 : 1)).value();
    const std::int64_t vWidth = (Checked(m.numHeads) * m.vHeadDim).value();
    b.linear(QStringLiteral("self_attn.q_proj"), Component::Attention, qWidth, h, layers, Sharding::SplitRows,
             m.qkvBias);
    b.linear(QStringLiteral("self_attn.k_proj"), Component::Attention,
             (Checked(m.numKvHeads) * m.headDim).value(), h, layers, Sharding::KvHeadRows, m.qkvBias, -1,
             m.numKvHeads);
    b.linear(QStringLiteral("self_attn.v_proj"), Component::Attention,
             (Checked(m.numKvHeads) * m.vHeadDim).value(), h, layers, Sharding::KvHeadRows, m.qkvBias, -1,
             m.numKvHeads);
    b.linear(QStringLiteral("self_attn.o_proj"), Component::Attention, h, vWidth, layers, Sharding::SplitCols,
             m.oBias);
    if (m.qkNorm) {
        b.norm(QStringLiteral("self_attn.q_norm"), Component::Norms, m.headDim, layers, NormKind::RmsNorm);
        b.norm(QStringLiteral("self_attn.k_norm"), Component::Norms, m.headDim, layers, NormKind::RmsNorm);
    }
    if (m.attentionSinks)
        b.add(QStringLiteral("self_attn.sinks"), Component::Attention, TensorRole::Other, m.numHeads, 1,
              layers, Sharding::SplitRows);
}

void addLatentAttention(InventoryBuilder &b, const ModelArch &m, std::int64_t layers)
{
    const MlaSpec &a = m.mla;
    const std::int64_t h = m.hiddenSize;
    const std::int64_t heads = m.numHeads;
    const std::int64_t qWidth = (Checked(heads) * (Checked(a.qkNopeHeadDim) + a.qkRopeHeadDim)).value();
    if (a.qLoraRank > 0) {
        b.linear(QStringLiteral("self_attn.q_a_proj"), Component::Attention, a.qLoraRank, h, layers,
                 Sharding::Replicated, false);
        b.norm(QStringLiteral("self_attn.q_a_layernorm"), Component::Norms, a.qLoraRank, layers,
               NormKind::RmsNorm);
        b.linear(QStringLiteral("self_attn.q_b_proj"), Component::Attention, qWidth, a.qLoraRank, layers,
                 Sharding::SplitRows, false);
    } else {
        b.linear(QStringLiteral("self_attn.q_proj"), Component::Attention, qWidth, h, layers,
                 Sharding::SplitRows, false);
    }
    b.linear(QStringLiteral("self_attn.kv_a_proj_with_mqa"), Component::Attention,
             (Checked(a.kvLoraRank) + a.qkRopeHeadDim).value(), h, layers, Sharding::Replicated, false);
    b.norm(QStringLiteral("self_attn.kv_a_layernorm"), Component::Norms, a.kvLoraRank, layers,
           NormKind::RmsNorm);
    b.linear(QStringLiteral("self_attn.kv_b_proj"), Component::Attention,
             (Checked(heads) * (Checked(a.qkNopeHeadDim) + a.vHeadDim)).value(), a.kvLoraRank, layers,
             Sharding::SplitRows, false);
    b.linear(QStringLiteral("self_attn.o_proj"), Component::Attention, h,
             (Checked(heads) * a.vHeadDim).value(), layers, Sharding::SplitCols, m.oBias);
}

/// DeepSeek-V3.2's lightning indexer: vLLM keeps its projections replicated
/// (deepseek_v2.py Indexer: wq_b, wk, weights_proj; k_norm is a LayerNorm).
void addSparseIndexer(InventoryBuilder &b, const ModelArch &m, std::int64_t layers)
{
    const IndexerSpec &x = m.indexer;
    const std::int64_t h = m.hiddenSize;
    b.linear(QStringLiteral("self_attn.indexer.wq_b"), Component::Attention,
             (Checked(x.numHeads) * x.headDim).value(), m.mla.qLoraRank > 0 ? m.mla.qLoraRank : h, layers,
             Sharding::Replicated, false);
    b.linear(QStringLiteral("self_attn.indexer.wk"), Component::Attention, x.headDim, h, layers,
             Sharding::Replicated, false);
    b.norm(QStringLiteral("self_attn.indexer.k_norm"), Component::Norms, x.headDim, layers,
           NormKind::LayerNorm);
    b.linear(QStringLiteral("self_attn.indexer.weights_proj"), Component::Attention, x.numHeads, h, layers,
             Sharding::Replicated, false);
}

/// Qwen3-Next's Gated DeltaNet (transformers Qwen3NextGatedDeltaNet): fused
/// q/k/v/z and b/a projections, a depthwise causal conv over q, k and v, per-head
/// decay (A_log, dt_bias), a gated RMSNorm over one value head, and out_proj.
void addGatedDeltaNet(InventoryBuilder &b, const ModelArch &m, std::int64_t layers)
{
    const RecurrentSpec &r = m.recurrent;
    const std::int64_t h = m.hiddenSize;
    const Checked keyWidth = Checked(r.numKeyHeads) * r.keyHeadDim;
    const Checked valueWidth = Checked(r.numValueHeads) * r.valueHeadDim;
    const Component c = Component::Attention;
    b.linear(QStringLiteral("linear_attn.in_proj_qkvz"), c, (keyWidth * 2 + valueWidth * 2).value(), h,
             layers, Sharding::SplitRows, false);
    b.linear(QStringLiteral("linear_attn.in_proj_ba"), c, 2 * std::int64_t(r.numValueHeads), h, layers,
             Sharding::SplitRows, false);
    b.add(QStringLiteral("linear_attn.conv1d.weight"), c, TensorRole::LinearWeight,
          (keyWidth * 2 + valueWidth).value(), r.convKernel, layers, Sharding::SplitRows);
    b.add(QStringLiteral("linear_attn.dt_bias"), c, TensorRole::Other, r.numValueHeads, 1, layers,
          Sharding::SplitRows);
    b.add(QStringLiteral("linear_attn.A_log"), c, TensorRole::Other, r.numValueHeads, 1, layers,
          Sharding::SplitRows);
    b.norm(QStringLiteral("linear_attn.norm"), Component::Norms, r.valueHeadDim, layers, NormKind::RmsNorm);
    b.linear(QStringLiteral("linear_attn.out_proj"), c, h, valueWidth.value(), layers, Sharding::SplitCols,
             false);
}

/// Granite 4.0-H's Mamba-2 mixer (vLLM MambaMixer2): in_proj to z, x, B, C and
/// dt; a depthwise conv over x, B and C; A, D, dt_bias per head; a gated
/// RMSNorm over the inner width; out_proj. vLLM copies B and C to every GPU when
/// n_groups does not divide by TP (TensorGroup::rowGroups).
void addMamba2(InventoryBuilder &b, const ModelArch &m, std::int64_t layers)
{
    const RecurrentSpec &r = m.recurrent;
    const std::int64_t h = m.hiddenSize;
    const std::int64_t inner = r.intermediateSize;
    const Checked groupWidth = Checked(2) * r.numGroups * r.stateSize;
    const Component c = Component::Attention;
    b.linear(QStringLiteral("mamba.in_proj"), c, (Checked(inner) * 2 + groupWidth + r.numHeads).value(), h,
             layers, Sharding::SplitRows, r.projBias);
    b.add(QStringLiteral("mamba.conv1d.weight"), c, TensorRole::LinearWeight, (groupWidth + inner).value(),
          r.convKernel, layers, Sharding::SplitRows);
    if (r.convBias)
        b.add(QStringLiteral("mamba.conv1d.bias"), c, TensorRole::Bias, (groupWidth + inner).value(), 1,
              layers, Sharding::SplitRows);
    for (const char *name : {"mamba.A", "mamba.D", "mamba.dt_bias"})
        b.add(QLatin1String(name), c, TensorRole::Other, r.numHeads, 1, layers, Sharding::SplitRows);
    b.add(QStringLiteral("mamba.norm.weight"), Component::Norms, TensorRole::Norm, inner, 1, layers,
          Sharding::SplitRows);
    b.linear(QStringLiteral("mamba.out_proj"), c, h, inner, layers, Sharding::SplitCols, r.projBias);
    for (const char *prefix : {"mamba.in_proj.", "mamba.conv1d."})
        b.splitByGroups(QLatin1String(prefix), r.numGroups, groupWidth.value());
}

/// Gemma 3n's weights beyond a Gemma 3 decoder (transformers Gemma3nTextModel /
/// Gemma3nTextDecoderLayer): per-layer embeddings and their projections, AltUp
/// (predict/correct coefficients, router, up/down projections) and LAuReL
/// (a rank-r residual). Kept whole on every GPU except the per-layer embedding table.
void addGemma3nExtras(InventoryBuilder &b, const ModelArch &m, std::int64_t layers)
{
    const Gemma3nSpec &g = m.gemma3n;
    const std::int64_t h = m.hiddenSize;
    const std::int64_t n = g.altupInputs;
    const std::int64_t perLayer = g.perLayerInputSize;
    const std::int64_t allLayers = (Checked(layers) * perLayer).value();
    b.add(QStringLiteral("embed_tokens_per_layer.weight"), Component::Embedding, TensorRole::Embedding,
          g.perLayerVocabSize, allLayers, 1, Sharding::VocabRows);
    b.linear(QStringLiteral("per_layer_model_projection"), Component::Mlp, allLayers, h, 1,
             Sharding::Replicated, false);
    b.norm(QStringLiteral("per_layer_projection_norm"), Component::Norms, perLayer, 1, NormKind::RmsNorm);
    b.linear(QStringLiteral("altup_projections"), Component::Mlp, h, h, n - 1, Sharding::Replicated, false);
    b.linear(QStringLiteral("altup_unembed_projections"), Component::Mlp, h, h, n - 1, Sharding::Replicated,
             false);
    // Per layer.
    b.linear(QStringLiteral("altup.correction_coefs"), Component::Mlp, n, n, layers, Sharding::Replicated,
             false);
    b.linear(QStringLiteral("altup.prediction_coefs"), Component::Mlp, (Checked(n) * n).value(), n, layers,
             Sharding::Replicated, false);
    b.linear(QStringLiteral("altup.modality_router"), Component::Mlp, n, h, layers, Sharding::Replicated,
             false);
    b.norm(QStringLiteral("altup.router_norm"), Component::Norms, h, layers, NormKind::RmsNorm);
    b.add(QStringLiteral("altup.correct_output_scale"), Component::Mlp, TensorRole::Other, h, 1, layers,
          Sharding::Replicated);
    b.linear(QStringLiteral("laurel.linear_left"), Component::Mlp, g.laurelRank, h, layers,
             Sharding::Replicated, false);
    b.linear(QStringLiteral("laurel.linear_right"), Component::Mlp, h, g.laurelRank, layers,
             Sharding::Replicated, false);
    b.norm(QStringLiteral("laurel.post_laurel_norm"), Component::Norms, h, layers, NormKind::RmsNorm);
    b.linear(QStringLiteral("per_layer_input_gate"), Component::Mlp, perLayer, h, layers,
             Sharding::Replicated, false);
    b.linear(QStringLiteral("per_layer_projection"), Component::Mlp, h, perLayer, layers,
             Sharding::Replicated, false);
    b.norm(QStringLiteral("post_per_layer_input_norm"), Component::Norms, h, layers, NormKind::RmsNorm);
}

/// gate/up/down (or up/down) of width `width`, `copies` times, `active` of them per token.
void addFeedForward(InventoryBuilder &b, const QString &prefix, Component component, const ModelArch &m,
                    std::int64_t width, std::int64_t copies, std::int64_t active, bool bias)
{
    const std::int64_t h = m.hiddenSize;
    if (m.mlpKind == MlpKind::Gated)
        b.linear(prefix + QStringLiteral(".gate_proj"), component, width, h, copies, Sharding::SplitRows,
                 bias, active);
    b.linear(prefix + QStringLiteral(".up_proj"), component, width, h, copies, Sharding::SplitRows, bias,
             active);
    b.linear(prefix + QStringLiteral(".down_proj"), component, h, width, copies, Sharding::SplitCols, bias,
             active);
}

} // namespace

TensorGroup tensorGroup(QString name, Component component, TensorRole role, std::int64_t rows,
                        std::int64_t cols, std::int64_t copies, Sharding sharding, std::int64_t activeCopies,
                        int kvHeads)
{
    TensorGroup group;
    group.name = std::move(name);
    group.component = component;
    group.role = role;
    group.rows = rows;
    group.cols = cols;
    group.copies = copies;
    group.activeCopies = activeCopies < 0 ? copies : activeCopies;
    group.sharding = sharding;
    group.kvHeads = kvHeads;
    return group;
}

QList<TensorGroup> tensorInventory(const ModelArch &m)
{
    InventoryBuilder b;
    const std::int64_t layers = m.numLayers;
    const std::int64_t h = m.hiddenSize;

    b.add(QStringLiteral("embed_tokens.weight"), Component::Embedding, TensorRole::Embedding, m.vocabSize, h,
          1, Sharding::VocabRows);

    // Recurrent layers replace attention with their own mixer.
    const std::int64_t recurrentLayers = m.recurrent.layerCount();
    const std::int64_t attentionLayers = layers - recurrentLayers;
    if (m.usesMla())
        addLatentAttention(b, m, attentionLayers);
    else
        addStandardAttention(b, m, attentionLayers);
    if (m.indexer.enabled())
        addSparseIndexer(b, m, attentionLayers);
    if (m.recurrent.kind == RecurrentKind::GatedDeltaNet)
        addGatedDeltaNet(b, m, recurrentLayers);
    else if (m.recurrent.kind == RecurrentKind::Mamba2)
        addMamba2(b, m, recurrentLayers);
    if (m.gemma3n.enabled())
        addGemma3nExtras(b, m, layers);

    const std::int64_t moeLayers = m.moeLayerCount();
    const std::int64_t denseLayers = layers - moeLayers;

    addFeedForward(b, QStringLiteral("mlp"), Component::Mlp, m, m.intermediateSize, denseLayers, denseLayers,
                   m.mlpBias);

    if (moeLayers > 0) {
        const MoeSpec &e = m.moe;
        b.linear(QStringLiteral("mlp.gate"), Component::Router, e.numExperts, h, moeLayers,
                 Sharding::Replicated, e.routerBias);
        addFeedForward(b, QStringLiteral("mlp.experts"), Component::Experts, m, e.expertIntermediateSize,
                       (Checked(moeLayers) * e.numExperts).value(),
                       (Checked(moeLayers) * e.expertsPerToken).value(), e.expertBias);
        const std::int64_t sharedWidth =
            e.sharedIntermediateSize > 0 ? e.sharedIntermediateSize
                                         : (Checked(e.numSharedExperts) * e.expertIntermediateSize).value();
        if (sharedWidth > 0)
            addFeedForward(b, QStringLiteral("mlp.shared_experts"), Component::Mlp, m, sharedWidth, moeLayers,
                           moeLayers, false);
        if (e.sharedExpertGate)
            b.linear(QStringLiteral("mlp.shared_expert_gate"), Component::Router, 1, h, moeLayers,
                     Sharding::Replicated, false);
    }

    b.norm(QStringLiteral("layernorms"), Component::Norms, h, (Checked(layers) * m.normsPerLayer).value(),
           m.normKind);
    b.norm(QStringLiteral("norm"), Component::Norms, h, 1, m.normKind);

    if (!m.tiedEmbeddings)
        b.add(QStringLiteral("lm_head.weight"), Component::LmHead, TensorRole::LinearWeight, m.vocabSize, h,
              1, Sharding::VocabRows);
    if (m.lmHeadBias)
        b.add(QStringLiteral("lm_head.bias"), Component::LmHead, TensorRole::Bias, m.vocabSize, 1, 1,
              Sharding::VocabRows);

    if (m.vision.enabled())
        addVisionTower(b, m.vision);

    return b.take();
}

QString projectionName(const TensorGroup &group)
{
    QStringView name = group.name;
    for (const QLatin1String suffix : {QLatin1String(".weight"), QLatin1String(".bias")})
        if (name.endsWith(suffix))
            name.chop(suffix.size());
    return name.mid(name.lastIndexOf(QLatin1Char('.')) + 1).toString();
}

namespace {

/// The packed projections and the checkpoint modules each holds, in order.
const QList<std::pair<QString, QStringList>> &packedProjections()
{
    static const QList<std::pair<QString, QStringList>> packed = {
        {QStringLiteral("qkv_proj"),
         {QStringLiteral("q_proj"), QStringLiteral("k_proj"), QStringLiteral("v_proj")}},
        {QStringLiteral("gate_up_proj"), {QStringLiteral("gate_proj"), QStringLiteral("up_proj")}},
    };
    return packed;
}

} // namespace

QString packedProjectionName(const QString &projection)
{
    for (const auto &[packed, parts] : packedProjections())
        if (parts.contains(projection))
            return packed;
    return projection;
}

QStringList packedProjectionParts(const QString &packed)
{
    for (const auto &[name, parts] : packedProjections())
        if (name == packed)
            return parts;
    return {};
}

LocalShape localShape(const TensorGroup &group, int tp)
{
    const int t = std::max(1, tp);
    switch (group.sharding) {
    case Sharding::Replicated:
        return {group.rows, group.cols};
    case Sharding::SplitRows:
        // MambaMixer2.__init__ (vllm/model_executor/layers/mamba/mamba_mixer2.py): groups that do not divide
        // over the GPUs are raised to TP (extra_groups_for_head_shards), one whole group a GPU.
        if (group.rowGroups > 0 && group.rowGroups % t != 0)
            return {ceilDiv(group.rows - group.groupRows, t) + group.groupRows / group.rowGroups, group.cols};
        return {ceilDiv(group.rows, t), group.cols};
    case Sharding::SplitCols:
        return {group.rows, ceilDiv(group.cols, t)};
    case Sharding::KvHeadRows: {
        const std::int64_t heads = std::max(1, group.kvHeads);
        const std::int64_t perHead = group.rows / heads;
        return {std::max<std::int64_t>(1, heads / t) * perHead, group.cols};
    }
    case Sharding::VocabRows:
        return {ceilDiv(paddedVocab(group.rows), t), group.cols};
    }
    return {group.rows, group.cols};
}

ParameterCounts countParameters(const QList<TensorGroup> &inventory)
{
    ParameterCounts counts;
    Checked total, active;
    for (const TensorGroup &g : inventory) {
        total += g.elements();
        active += g.activeElements();
        counts.byComponent[int(g.component)] =
            (Checked(counts.byComponent[int(g.component)]) + g.elements()).value();
        if (g.component == Component::Embedding)
            counts.embedding = (Checked(counts.embedding) + g.elements()).value();
    }
    counts.total = total.value();
    counts.active = active.value();
    return counts;
}

ParameterCounts countParameters(const ModelArch &model)
{
    return countParameters(tensorInventory(model));
}

} // namespace kvscope
