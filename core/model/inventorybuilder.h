// SPDX-License-Identifier: MIT
// The builder a layout's tensors are listed with (the text model's in
// inventory.cpp, a vision tower's in visiontower.cpp): one call per tensor
// kind, so each family's layout reads as a list of tensors.
#pragma once

#include "core/model/inventory.h"

#include <utility>

namespace kvscope {

/// Collects TensorGroups; a tensor of no rows, columns or copies is left out.
class InventoryBuilder
{
public:
    void add(QString name, Component component, TensorRole role, std::int64_t rows, std::int64_t cols,
             std::int64_t copies, Sharding sharding, std::int64_t activeCopies = -1, int kvHeads = 0)
    {
        if (copies <= 0 || rows <= 0 || cols <= 0)
            return;
        m_groups.append(tensorGroup(std::move(name), component, role, rows, cols, copies, sharding,
                                    activeCopies, kvHeads));
    }

    void norm(const QString &name, Component component, std::int64_t width, std::int64_t copies,
              NormKind kind)
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

    /// Marks the split rows of the tensors named `prefix`... as holding `groupRows` rows of `groups`
    /// state groups (TensorGroup::rowGroups).
    void splitByGroups(const QString &prefix, int groups, std::int64_t groupRows)
    {
        for (TensorGroup &group : m_groups)
            if (group.name.startsWith(prefix) && group.sharding == Sharding::SplitRows) {
                group.rowGroups = groups;
                group.groupRows = groupRows;
            }
    }

    /// Tensors listed so far; with replicateFrom(), marks where a part of the model begins.
    qsizetype size() const { return m_groups.size(); }

    /// Every tensor listed from the `first`-th on stays whole on every GPU.
    void replicateFrom(qsizetype first)
    {
        for (qsizetype k = first; k < m_groups.size(); ++k)
            m_groups[k].sharding = Sharding::Replicated;
    }

    QList<TensorGroup> take() { return std::move(m_groups); }

private:
    QList<TensorGroup> m_groups;
};

} // namespace kvscope
