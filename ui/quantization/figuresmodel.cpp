// SPDX-License-Identifier: MIT
#include "ui/quantization/figuresmodel.h"

#include <cmath>
#include <limits>

#include <QLocale>

namespace kvscope {

namespace {

QString number(double value, char format, int precision)
{
    if (std::isnan(value))
        return QStringLiteral("—");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    return QLocale().toString(value, format, precision);
}

} // namespace

FiguresModel::FiguresModel(QObject *parent) : QAbstractTableModel(parent) {}

void FiguresModel::setResults(const QList<quant::SchemeResult> &results)
{
    beginResetModel();
    m_results = results;
    endResetModel();
}

void FiguresModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_results.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_results.size()) - 1, ColumnCount - 1));
}

int FiguresModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_results.size());
}

int FiguresModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FiguresModel::value(const quant::SchemeResult &result, int column) const
{
    const quant::ErrorMetrics &m = result.metrics;
    switch (column) {
    case Scheme:
        return result.scheme.id();
    case BitsPerWeight:
        return result.bitsPerWeight;
    case Mse:
        return m.mse;
    case SqnrDb:
        return m.sqnrDb;
    case OutputSqnrDb:
        return result.outputSqnrDb.value_or(std::numeric_limits<double>::quiet_NaN());
    case MaxAbsError:
        return m.maxAbsError;
    case MeanAbsError:
        return m.meanAbsError;
    case Cosine:
        return m.cosineSimilarity;
    case Clipped:
        return m.clippedShare();
    case Flushed:
        return m.flushedShare();
    default:
        return {};
    }
}

QVariant FiguresModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_results.size())
        return {};
    const quant::SchemeResult &r = m_results[index.row()];
    const int column = index.column();
    if (role == Qt::UserRole)
        return value(r, column);
    if (role == Qt::ToolTipRole)
        return r.scheme.description();
    if (role == Qt::TextAlignmentRole)
        return column == Scheme ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    const double v = value(r, column).toDouble();
    switch (column) {
    case Scheme:
        return r.scheme.id();
    case BitsPerWeight:
        return number(v, 'f', 3);
    case SqnrDb:
    case OutputSqnrDb:
        return sqnrText(v);
    case Cosine:
        return number(v, 'f', 6);
    case Clipped:
    case Flushed:
        return number(100.0 * v, 'f', 2) + QStringLiteral(" %");
    default:
        return number(v, 'e', 3);
    }
}

QString FiguresModel::sqnrText(double db)
{
    return number(db, 'f', 2);
}

QVariant FiguresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Scheme:
        return tr("Scheme");
    case BitsPerWeight:
        return tr("Bits/weight");
    case Mse:
        return tr("MSE");
    case SqnrDb:
        return tr("SQNR (dB)");
    case OutputSqnrDb:
        return tr("Output SQNR (dB)");
    case MaxAbsError:
        return tr("Max |e|");
    case MeanAbsError:
        return tr("Mean |e|");
    case Cosine:
        return tr("Cosine");
    case Clipped:
        return tr("Clipped");
    case Flushed:
        return tr("Flushed to 0");
    default:
        return {};
    }
}

} // namespace kvscope
