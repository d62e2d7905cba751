// SPDX-License-Identifier: MIT
#include "ui/widgets/textfitcolumns.h"

#include <algorithm>

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

namespace kvscope {

namespace {

/// Sizes the columns once the events that change them are handled (one pass for a burst of them).
class ColumnFitter : public QObject
{
public:
    explicit ColumnFitter(QTableView *table) : QObject(table), m_table(table)
    {
        m_pending.setSingleShot(true);
        m_pending.setInterval(0);
        connect(&m_pending, &QTimer::timeout, this, &ColumnFitter::fit);
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
        table->horizontalHeader()->setStretchLastSection(false);
        table->installEventFilter(this);
        watchModel();
        fit();
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_table && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange))
            m_pending.start();
        return false;
    }

private:
    void watchModel()
    {
        QAbstractItemModel *model = m_table->model();
        if (!model)
            return;
        const auto later = [this] { m_pending.start(); };
        connect(model, &QAbstractItemModel::modelReset, this, later);
        connect(model, &QAbstractItemModel::layoutChanged, this, later);
        connect(model, &QAbstractItemModel::rowsInserted, this, later);
        connect(model, &QAbstractItemModel::dataChanged, this, later);
        connect(model, &QAbstractItemModel::headerDataChanged, this, later);
    }

    void fit()
    {
        const QAbstractItemModel *model = m_table->model();
        QHeaderView *header = m_table->horizontalHeader();
        if (!model || model->columnCount() == 0)
            return;
        QList<int> widths;
        int total = 0;
        for (int c = 0; c < model->columnCount(); ++c) {
            // QAbstractItemView's is public; the table's override measures the visible rows' cells.
            const int cells = static_cast<const QAbstractItemView *>(m_table)->sizeHintForColumn(c);
            const int width = std::max(cells, header->sectionSizeHint(c));
            widths << width;
            total += width;
        }
        const int available = m_table->viewport()->width();
        const bool scrolls = total > available;
        if (!scrolls && total > 0) {
            // The spare room in proportion; the last column takes what rounding leaves.
            const int spare = available - total;
            int given = 0;
            for (int c = 0; c < widths.size() - 1; ++c) {
                const int share = int(qint64(spare) * widths.at(c) / total);
                widths[c] += share;
                given += share;
            }
            widths.last() += spare - given;
        }
        for (int c = 0; c < widths.size(); ++c)
            header->resizeSection(c, widths.at(c));
        // On only when needed, so the view's height counts the bar and no row hides behind it.
        m_table->setHorizontalScrollBarPolicy(scrolls ? Qt::ScrollBarAlwaysOn : Qt::ScrollBarAlwaysOff);
    }

    QTableView *m_table;
    QTimer m_pending;
};

} // namespace

void fitColumnsToTexts(QTableView *table)
{
    new ColumnFitter(table);
}

} // namespace kvscope
