// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelarch.h"

#include <cstdint>

#include <QList>
#include <QString>

namespace kvscope {

/// Where a tensor belongs in the parameter breakdown.
enum class Component
{
    Embedding,
    Attention,
    Mlp,
    Experts,
    Router,
    Norms,
    LmHead,
    Vision
};
inline constexpr int ComponentCount = 8;
QString componentName(Component component);

enum class TensorRole
{
    LinearWeight,
    Bias,
    Norm,
    Embedding,
    Other
};

/// How vLLM's tensor parallelism lays a tensor over the GPUs.
enum class Sharding
{
    Replicated, ///< whole tensor on every GPU (norms, row-parallel biases, MLA down-projections, routers)
    SplitRows,  ///< column-parallel: output features split (q, gate/up, expert gate/up)
    SplitCols,  ///< row-parallel: input features split (o, down)
    KvHeadRows, ///< k/v projections: max(1, kv_heads / TP) heads per GPU, replicated past kv_heads
    VocabRows,  ///< embeddings and lm_head: vocabulary padded to a multiple of 64, then split
};

/// A set of identical tensors (e.g. q_proj of every layer, or the gate_up of
/// every routed expert). rows = output features, cols = input features;
/// 1-D tensors have cols = 1.
struct TensorGroup
{
    QString name; ///< HF-style module path inside a layer ("self_attn.q_proj.weight")
    Component component = Component::Attention;
    TensorRole role = TensorRole::LinearWeight;
    std::int64_t rows = 0;
    std::int64_t cols = 1;
    std::int64_t copies = 0;       ///< how many such tensors the model holds
    std::int64_t activeCopies = 0; ///< how many a token touches (routed experts: layers x top-k)
    Sharding sharding = Sharding::Replicated;
    int kvHeads = 0; ///< for KvHeadRows: heads that rows are made of
    /// SplitRows tensors whose rows hold Mamba-2's B and C (groupRows rows in rowGroups groups): vLLM's
    /// MambaMixer2 gives every GPU a whole group when the groups do not divide over the GPUs.
    int rowGroups = 0;
    std::int64_t groupRows = 0;

    std::int64_t elements() const;       ///< rows x cols x copies
    std::int64_t activeElements() const; ///< rows x cols x activeCopies
};

/// One group; activeCopies < 0 means every copy is active.
TensorGroup tensorGroup(QString name, Component component, TensorRole role, std::int64_t rows,
                        std::int64_t cols, std::int64_t copies, Sharding sharding,
                        std::int64_t activeCopies = -1, int kvHeads = 0);

/// Every parameter tensor of the model, grouped. The single source for
/// parameter counts, weight memory and tensor-parallel sharding.
QList<TensorGroup> tensorInventory(const ModelArch &model);

/// The projection a group's tensors belong to: "q_proj" for "self_attn.q_proj.weight" (its name less
/// the ".weight" or ".bias" it ends in, up to the last dot).
QString projectionName(const TensorGroup &group);

/// The packed projection a module runs in (vLLM's packed_modules_mapping, SGLang's normalized target
/// modules): q, k and v in qkv_proj, gate and up in gate_up_proj; others themselves.
QString packedProjectionName(const QString &projection);
/// The checkpoint modules a packed projection holds ("qkv_proj": q_proj, k_proj, v_proj); empty for others.
QStringList packedProjectionParts(const QString &packed);

/// Shape of one tensor of `group` on one GPU under tensor parallelism `tp`.
struct LocalShape
{
    std::int64_t rows = 0;
    std::int64_t cols = 0;
};
LocalShape localShape(const TensorGroup &group, int tp);

/// Parameter totals by component (exact integers).
struct ParameterCounts
{
    std::int64_t total = 0;
    std::int64_t active = 0;    ///< per token: all but the routed experts not chosen
    std::int64_t embedding = 0; ///< input embedding (excluded by OpenAI's "active" figure)
    std::int64_t byComponent[ComponentCount] = {};

    std::int64_t of(Component c) const { return byComponent[int(c)]; }
};
ParameterCounts countParameters(const QList<TensorGroup> &inventory);
ParameterCounts countParameters(const ModelArch &model);

/// vLLM pads vocabularies to a multiple of 64 before splitting them.
std::int64_t paddedVocab(std::int64_t vocab);

} // namespace kvscope
