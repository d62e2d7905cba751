// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/simulator.h"

#include <QAbstractTableModel>

namespace kvscope {

/// The figures of each scheme, one row per scheme. Display text is rounded
/// for reading; Qt::UserRole gives the exact double for copying and tests.
class FiguresModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Scheme,
        BitsPerWeight,
        Mse,
        SqnrDb,
        /// Of the layer output X·Wᵀ on held-out activation rows; "—" for a run without activations.
        OutputSqnrDb,
        MaxAbsError,
        MeanAbsError,
        Cosine,
        Clipped,
        Flushed,
        ColumnCount
    };

    explicit FiguresModel(QObject *parent = nullptr);

    void setResults(const QList<quant::SchemeResult> &results);
    /// Tells the views that headers and texts changed with the language.
    void retranslate();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// An SQNR as the table writes it ("20.00"; "∞" for an exact result), for the chart's labels too.
    static QString sqnrText(double db);

private:
    QVariant value(const quant::SchemeResult &result, int column) const;

    QList<quant::SchemeResult> m_results;
};

} // namespace kvscope
