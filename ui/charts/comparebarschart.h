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

/// What a CompareBarsChartView draws.
enum class CompareBars
{
    CapacityAndSpeed, ///< compareSpeedChartData(): each bar a share of its group's largest
    Accuracy          ///< compareAccuracyChartData(): each bar its SQNR in dB
};

/// The Compare view's grouped bars: a group per figure (KV capacity, largest batch that fits
/// and decode tokens/s; or weight and KV SQNR) and a bar per column in the column's colour,
/// as long as the data says on one axis. Its label gives the figure itself, in bold for the
/// best of the group.
class CompareBarsChartView : public ChartView
{
    Q_OBJECT

public:
    explicit CompareBarsChartView(CompareBars kind, QWidget *parent = nullptr);

    void showComparison(const CompareBarsChartData &data);

    const CompareBarsChartData &data() const { return m_data; }
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

    CompareBars m_kind;
    QHorizontalBarSeries *m_bars;
    QList<QBarSet *> m_sets; ///< drawn bottom to top within a group: the last column first
    QValueAxis *m_valueAxis;
    QBarCategoryAxis *m_categoryAxis;
    QList<QGraphicsSimpleTextItem *> m_labels;
    CompareBarsChartData m_data;
};

} // namespace kvscope
