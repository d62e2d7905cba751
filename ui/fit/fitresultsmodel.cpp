// SPDX-License-Identifier: MIT
#include "ui/fit/fitresultsmodel.h"

#include "core/common/units.h"
#include "core/plan/speed.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationlabel.h"
#include "core/precision/quantizationspec.h"

namespace kvscope {

FitResultsModel::FitResultsModel(QObject *parent) : QAbstractTableModel(parent) {}

void FitResultsModel::setRows(const QList<FitRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int FitResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FitResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : Columns;
}

QString FitResultsModel::text(const FitRow &row, int column) const
{
    const MemoryPlan &p = row.plan;
    const QLocale locale;
    switch (column) {
    case Gpus:
        if (p.pipelineParallelSize > 1)
            return tr("%1 × %2 (%3 stages of %4)")
                .arg(p.gpuCount())
                .arg(p.gpuName)
                .arg(p.pipelineParallelSize)
                .arg(p.tensorParallelSize);
        if (p.attentionDataParallel)
            return tr("%1 × %2 (%3 attention groups of %4)")
                .arg(p.gpuCount())
                .arg(p.gpuName)
                .arg(p.dataParallelSize)
                .arg(p.tensorParallelSize);
        if (p.dataParallelSize > 1)
            return tr("%1 × %2 (%3 ranks of %4, experts divided)")
                .arg(p.gpuCount())
                .arg(p.gpuName)
                .arg(p.dataParallelSize)
                .arg(p.tensorParallelSize);
        return tr("%1 × %2").arg(p.tensorParallelSize).arg(p.gpuName);
    case Weights:
        return quantMethodLabel(p.quantization.method);
    case KvCache:
        return dtypeName(p.kvCacheDtype);
    case MaxModelLen:
        return formatCount(p.maxModelLen, locale);
    case Requests:
        return formatCount(row.maxConcurrency, locale);
    case KvTokens:
        return formatCount(p.deploymentCapacityTokens, locale);
    case Headroom:
        return formatMemory(p.headroomBytes, locale);
    case Decode:
        return p.speed.available ? formatDecimal(emittedTokensPerSecond(p.speed), 0, locale)
                                 : QStringLiteral("—");
    case Command:
        return row.command;
    default:
        return {};
    }
}

QVariant FitResultsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const FitRow &row = m_rows.at(index.row());
    if (role == Qt::DisplayRole)
        return text(row, index.column());
    if (role == Qt::ToolTipRole)
        return row.command;
    if (role == Qt::TextAlignmentRole && index.column() >= MaxModelLen && index.column() <= Decode)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant FitResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Requests:
            return tr("Whole requests of the maximum length the KV cache holds at once");
        case KvTokens:
            return tr("The engine's KV cache capacity in tokens (vLLM's “GPU KV cache size”, SGLang's "
                      "max_total_num_tokens)");
        case Headroom:
            return tr(
                "Memory per GPU left in the budget once the weights, activations and the KV cache of these "
                "requests are in");
        case Decode:
            return tr("Decode throughput of the whole batch, from the roofline estimate");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Gpus:
        return tr("GPUs");
    case Weights:
        return tr("Weights");
    case KvCache:
        return tr("KV cache");
    case MaxModelLen:
        return tr("Max length");
    case Requests:
        return tr("Requests");
    case KvTokens:
        return tr("KV tokens");
    case Headroom:
        return tr("Headroom");
    case Decode:
        return tr("Decode tok/s");
    case Command:
        return tr("Launch line");
    default:
        return {};
    }
}

} // namespace kvscope
