// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/comparechart.h"
#include "ui/charts/chartview.h"

class QBarCategoryAxis;
class QBarSet;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QHorizontalStackedBarSeries;
class QLineSeries;
class QValueAxis;

namespace kvscope {

/// The Compare view's memory chart: each column's memory per GPU as a stacked
/// bar (weights, activations, overhead, KV cache, recurrent state, headroom;
/// the first column on top), all against one budget line. Parts run past the
/// line where a column does not fit, hatched there in the warning colour as the
/// explorer's bar is; a part's size is written in it where it has room.
class CompareMemoryChartView : public ChartView
{
    Q_OBJECT

public:
    explicit CompareMemoryChartView(QWidget *parent = nullptr);

    void showComparison(const CompareMemoryChartData &data);

    const CompareMemoryChartData &data() const { return m_data; }
    /// The bar set drawing a part; value i is the column drawn at category i (the last column first).
    QBarSet *barSet(MemoryPart part) const { return m_sets[int(part)]; }
    QLineSeries *budgetLine() const { return m_budget; }
    /// The in-bar size labels, shown or not.
    QList<QGraphicsSimpleTextItem *> sizeLabels() const { return m_labels; }
    /// Each column's hatched region past its budget line (hidden where the column fits).
    QList<QGraphicsRectItem *> overflowRegions() const { return m_overflow; }
    QList<LegendStrip::Entry> legendEntries() const override;

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    void placeLabels();
    void placeOverflow();

    QHorizontalStackedBarSeries *m_bars;
    QBarSet *m_sets[MemoryPartCount] = {};
    QLineSeries *m_budget;
    QValueAxis *m_valueAxis;
    QBarCategoryAxis *m_categoryAxis;
    QValueAxis *m_lineAxis;
    QList<QGraphicsSimpleTextItem *> m_labels; ///< column-major: column c, part p at c * MemoryPartCount + p
    QList<QGraphicsRectItem *> m_overflow;     ///< one per column
    CompareMemoryChartData m_data;
};

} // namespace kvscope
