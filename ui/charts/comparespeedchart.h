// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/comparechart.h"
#include "ui/charts/chartview.h"

class QBarCategoryAxis;
class QBarSet;
class QGraphicsSimpleTextItem;
class QHorizontalBarSeries;
class QValueAxis;

namespace kvscope {

/// The Compare view's capacity and speed chart: grouped bars, a group per
/// figure (KV capacity, largest batch that fits, decode tokens/s) and a bar
/// per column in the column's colour. A bar's length is its share of the
/// group's largest (so figures of different units share one axis); its label
/// gives the figure itself, in bold for the best of the group.
class CompareSpeedChartView : public ChartView
{
    Q_OBJECT

public:
    explicit CompareSpeedChartView(QWidget *parent = nullptr);

    void showComparison(const CompareSpeedChartData &data);

    const CompareSpeedChartData &data() const { return m_data; }
    /// The bar set of a column (0 = the first); value i is the group drawn at category i (the last group
    /// first).
    QBarSet *barSet(int column) const;
    /// The figure labels, group-major: group g, column c at g * columns + c.
    QList<QGraphicsSimpleTextItem *> valueLabels() const { return m_labels; }
    QList<LegendStrip::Entry> legendEntries() const override;

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    void placeLabels();

    QHorizontalBarSeries *m_bars;
    QList<QBarSet *> m_sets; ///< drawn bottom to top within a group: the last column first
    QValueAxis *m_valueAxis;
    QBarCategoryAxis *m_categoryAxis;
    QList<QGraphicsSimpleTextItem *> m_labels;
    CompareSpeedChartData m_data;
};

} // namespace kvscope
