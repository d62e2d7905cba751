// SPDX-License-Identifier: MIT
#pragma once

#include "core/output/breakdown.h"
#include "ui/charts/chartview.h"

class QBarCategoryAxis;
class QBarSet;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QHorizontalStackedBarSeries;
class QLineSeries;
class QValueAxis;

namespace kvscope {

/// Chart 1: one GPU's memory as a stacked bar — weights, activations, runtime
/// overhead, KV cache, and headroom — against the budget line and the
/// physical memory. Every part is drawn true to scale: what does not fit runs
/// past the budget line, hatched in the warning colour, and the axis extends to
/// show it. One chart, updated in place (bar values replaced).
class BreakdownChartView : public ChartView
{
    Q_OBJECT

public:
    explicit BreakdownChartView(QWidget *parent = nullptr);

    void showBreakdown(const MemoryBreakdown &breakdown, int tensorParallelSize);

    /// The bar set drawing a part (tests read values from it).
    QBarSet *barSet(MemoryPart part) const { return m_sets[int(part)]; }
    QLineSeries *budgetLine() const { return m_budget; }
    /// The hatched region past the budget line (hidden when everything fits).
    QGraphicsRectItem *overflowRegion() const { return m_overflow; }
    /// Legend entries as lines of text, for the clipboard.
    QString summaryText() const;
    /// Legend entries with GiB and percentages of the budget.
    QList<LegendStrip::Entry> legendEntries() const override;

protected:
    void changeEvent(QEvent *event) override;
    void applyPalette() override;
    void retranslate() override;

private:
    void placeLabels();

    QHorizontalStackedBarSeries *m_bars;
    QBarSet *m_sets[MemoryPartCount] = {};
    QGraphicsSimpleTextItem *m_labels[MemoryPartCount] = {};
    QLineSeries *m_budget;
    QLineSeries *m_physical;
    QGraphicsRectItem *m_overflow;
    QValueAxis *m_valueAxis;
    QBarCategoryAxis *m_categoryAxis;
    QValueAxis *m_lineAxis;
    MemoryBreakdown m_breakdown;
    int m_tensorParallelSize = 1;
};

/// Translated name of a memory part ("KV cache").
QString memoryPartName(MemoryPart part);

} // namespace kvscope
