// SPDX-License-Identifier: MIT
#include "model/inventory.h"

#include "common/checked.h"

#include <algorithm>

namespace kvscope {

QString componentName(Component component)
{
    switch (component) {
    case Component::Embedding:
        return QStringLiteral("embeddings");
    case Component::Attention:
        return QStringLiteral("attention");
    case Component::Mlp:
        return QStringLiteral("mlp");
    case Component::Experts:
        return QStringLiteral("experts");
    case Component::Router:
        return QStringLiteral("router");
    case Component::Norms:
        return QStringLiteral("norms");
    case Component::LmHead:
        return QStringLiteral("lm_head");
    case Component::Vision:
        return QStringLiteral("vision");
    }
    return {};
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

/// Small builder so each family's layout reads as a list of tensors.
class InventoryBuilder
{
public:
    void add(QString name, Component component, TensorRole role, std::int64_t rows, std::int64_t cols,
             std::int64_t copies, Sharding sharding, std::int64_t activeCopies = -1, int kvHeads = 0)
    {
        if (copies <= 0 || rows <= 0 || cols <= 0)
            return;
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
        m_groups.append(group);
    }

    void norm(QString name, Component component, std::int64_t width, std::int64_t copies, NormKind kind)
    {
        add(name + QStringLiteral(".weight"), component, TensorRole::Norm, width, 1, copies,
            Sharding::Replicated);
        if (kind == NormKind::LayerNorm)
            add(name + QStringLiteral(".bias"), component, TensorRole::Norm, width, 1, copies,
                Sharding::Replicated);
    }

    /// A linear layer with an optional bias. Row-parallel biases stay whole on every GPU.
    void linear(const QString &name, Component component, std::int64_t out, std::int64_t in,
                std::int64_t copies, Sharding sharding, bool bias, std::int64_t activeCopies = -1,
                int kvHeads = 0)
    {
        add(name + QStringLiteral(".weight"), component, TensorRole::LinearWeight, out, in, copies, sharding,
            activeCopies, kvHeads);
        if (bias) {
            const Sharding biasSharding = sharding == Sharding::SplitCols ? Sharding::Replicated : sharding;
            add(name + QStringLiteral(".bias"), component, TensorRole::Bias, out, 1, copies, biasSharding,
                activeCopies, kvHeads);
        }
    }

    QList<TensorGroup> take() { return std::move(m_groups); }

private:
    QList<TensorGroup> m_groups;
};

void addStandardAttention(InventoryBuilder &b, const ModelArch &m, std::int64_t layers)
{
    const std::int64_t h = m.hiddenSize;
    const std::int64_t qWidth = std::int64_t(m.numHeads) * m.headDim;
    const std::int64_t vWidth = std::int64_t(m.numHeads) * m.vHeadDim;
    b.linear(QStringLiteral("self_attn.q_proj"), Component::Attention, qWidth, h, layers, Sharding::SplitRows,
             m.qkvBias);
    b.linear(QStringLiteral("self_attn.k_proj"), Component::Attention, std::int64_t(m.numKvHeads) * m.headDim,
             h, layers, Sharding::KvHeadRows, m.qkvBias, -1, m.numKvHeads);
    b.linear(QStringLiteral("self_attn.v_proj"), Component::Attention,
             std::int64_t(m.numKvHeads) * m.vHeadDim, h, layers, Sharding::KvHeadRows, m.qkvBias, -1,
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
    const std::int64_t qHeadWidth = a.qkNopeHeadDim + a.qkRopeHeadDim;
    if (a.qLoraRank > 0) {
        b.linear(QStringLiteral("self_attn.q_a_proj"), Component::Attention, a.qLoraRank, h, layers,
                 Sharding::Replicated, false);
        b.norm(QStringLiteral("self_attn.q_a_layernorm"), Component::Norms, a.qLoraRank, layers,
               NormKind::RmsNorm);
        b.linear(QStringLiteral("self_attn.q_b_proj"), Component::Attention, heads * qHeadWidth, a.qLoraRank,
                 layers, Sharding::SplitRows, false);
    } else {
        b.linear(QStringLiteral("self_attn.q_proj"), Component::Attention, heads * qHeadWidth, h, layers,
                 Sharding::SplitRows, false);
    }
    b.linear(QStringLiteral("self_attn.kv_a_proj_with_mqa"), Component::Attention,
             std::int64_t(a.kvLoraRank) + a.qkRopeHeadDim, h, layers, Sharding::Replicated, false);
    b.norm(QStringLiteral("self_attn.kv_a_layernorm"), Component::Norms, a.kvLoraRank, layers,
           NormKind::RmsNorm);
    b.linear(QStringLiteral("self_attn.kv_b_proj"), Component::Attention,
             heads * (std::int64_t(a.qkNopeHeadDim) + a.vHeadDim), a.kvLoraRank, layers, Sharding::SplitRows,
             false);
    b.linear(QStringLiteral("self_attn.o_proj"), Component::Attention, h, heads * a.vHeadDim, layers,
             Sharding::SplitCols, m.oBias);
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

/// SigLIP-style encoder plus a linear projector (Gemma 3). Other towers are
/// read with the same generic ViT fields and marked estimated by the parser.
void addVisionTower(InventoryBuilder &b, const VisionSpec &v)
{
    const std::int64_t h = v.hiddenSize;
    const std::int64_t layers = v.numLayers;
    const Component c = Component::Vision;
    for (const char *name : {"q_proj", "k_proj", "v_proj"})
        b.linear(QStringLiteral("vision.self_attn.") + QLatin1String(name), c, h, h, layers,
                 Sharding::SplitRows, true);
    b.linear(QStringLiteral("vision.self_attn.out_proj"), c, h, h, layers, Sharding::SplitCols, true);
    b.linear(QStringLiteral("vision.mlp.fc1"), c, v.intermediateSize, h, layers, Sharding::SplitRows, true);
    b.linear(QStringLiteral("vision.mlp.fc2"), c, h, v.intermediateSize, layers, Sharding::SplitCols, true);
    b.norm(QStringLiteral("vision.layer_norm"), c, h, 2 * layers, NormKind::LayerNorm);
    if (v.patchSize > 0) {
        b.linear(QStringLiteral("vision.patch_embedding"), c, h,
                 (Checked(v.numChannels) * v.patchSize * v.patchSize).value(), 1, Sharding::Replicated, true);
        const std::int64_t patchesPerSide = v.imageSize / v.patchSize;
        b.add(QStringLiteral("vision.position_embedding.weight"), c, TensorRole::Embedding,
              patchesPerSide * patchesPerSide, h, 1, Sharding::Replicated);
    }
    b.norm(QStringLiteral("vision.post_layernorm"), c, h, 1, NormKind::LayerNorm);
    if (v.projectorOutput > 0) {
        b.add(QStringLiteral("multi_modal_projector.mm_input_projection_weight"), c, TensorRole::LinearWeight,
              v.projectorOutput, h, 1, Sharding::Replicated);
        b.norm(QStringLiteral("multi_modal_projector.mm_soft_emb_norm"), c, h, 1, NormKind::RmsNorm);
    }
}

} // namespace

QList<TensorGroup> tensorInventory(const ModelArch &m)
{
    InventoryBuilder b;
    const std::int64_t layers = m.numLayers;
    const std::int64_t h = m.hiddenSize;

    b.add(QStringLiteral("embed_tokens.weight"), Component::Embedding, TensorRole::Embedding, m.vocabSize, h,
          1, Sharding::VocabRows);

    if (m.usesMla())
        addLatentAttention(b, m, layers);
    else
        addStandardAttention(b, m, layers);

    std::int64_t moeLayers = 0;
    for (int i = 0; i < m.numLayers; ++i)
        moeLayers += m.isMoeLayer(i) ? 1 : 0;
    const std::int64_t denseLayers = layers - moeLayers;

    addFeedForward(b, QStringLiteral("mlp"), Component::Mlp, m, m.intermediateSize, denseLayers, denseLayers,
                   m.mlpBias);

    if (moeLayers > 0) {
        const MoeSpec &e = m.moe;
        b.linear(QStringLiteral("mlp.gate"), Component::Router, e.numExperts, h, moeLayers,
                 Sharding::Replicated, e.routerBias);
        addFeedForward(b, QStringLiteral("mlp.experts"), Component::Experts, m, e.expertIntermediateSize,
                       moeLayers * e.numExperts, moeLayers * e.expertsPerToken, e.expertBias);
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

    b.norm(QStringLiteral("layernorms"), Component::Norms, h, layers * m.normsPerLayer, m.normKind);
    b.norm(QStringLiteral("norm"), Component::Norms, h, 1, m.normKind);

    if (!m.tiedEmbeddings)
        b.add(QStringLiteral("lm_head.weight"), Component::LmHead, TensorRole::LinearWeight, m.vocabSize, h,
              1, Sharding::VocabRows);

    if (m.vision.enabled())
        addVisionTower(b, m.vision);

    return b.take();
}

LocalShape localShape(const TensorGroup &group, int tp)
{
    const int t = std::max(1, tp);
    switch (group.sharding) {
    case Sharding::Replicated:
        return {group.rows, group.cols};
    case Sharding::SplitRows:
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
