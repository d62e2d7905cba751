// SPDX-License-Identifier: MIT
// The rows of a fit search (core/plan/fit.h) as a table: one configuration
// per row, best first, each figure as the core computed it.
#pragma once

#include "core/analysis/fit.h"

#include <QAbstractTableModel>
#include <QList>

namespace kvscope {

class FitResultsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Gpus,
        Weights,
        KvCache,
        MaxModelLen,
        Requests,
        KvTokens,
        Headroom,
        Decode,
        Command,
        Columns
    };

    explicit FitResultsModel(QObject *parent = nullptr);

    void setRows(const QList<FitRow> &rows);
    const QList<FitRow> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const FitRow &row, int column) const;

    QList<FitRow> m_rows;
};

} // namespace kvscope
