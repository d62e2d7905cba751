// SPDX-License-Identifier: MIT
#pragma once

#include "core/output/stepbreakdown.h"
#include "ui/charts/chartview.h"

#include <bitset>

class QBarCategoryAxis;
class QBarSet;
class QGraphicsSimpleTextItem;
class QHorizontalStackedBarSeries;
class QLineSeries;
class QValueAxis;

namespace kvscope {

class ChartCallout;

/// Where the time of a pass goes: a stacked bar for one decode step (top, read
/// on the top axis) and one for the time to first token (bottom, on the bottom
/// axis), each on its own millisecond scale. A segment per term that takes
/// time, in the term's colour (theme::stepTermColor), as long as its seconds;
/// its time inside it where it fits (else in its tooltip only), the pass's
/// total after the bar. Only formats the core's StepBreakdownChartData.
///
/// Qt Charts lays bar series side by side, so both bars are one series: a set
/// per term holds the prefill's and the decode step's length as a share of
/// their own axis (a hidden 0 to 1 scale); the visible axes carry the milliseconds.
class StepBreakdownChartView : public ChartView
{
    Q_OBJECT

public:
    explicit StepBreakdownChartView(QWidget *parent = nullptr);

    void showBreakdown(const StepBreakdownChartData &data);
    const StepBreakdownChartData &data() const { return m_data; }

    /// Both bars: one set per term that takes time in either pass, in term order, labelled
    /// with the term's key; category 0 is the prefill, 1 the decode step.
    QHorizontalStackedBarSeries *series() const { return m_bars; }
    /// The set drawing a term, or null when the term takes no time in that pass.
    QBarSet *barSet(StepPass pass, StepTerm term) const;
    /// The value a set draws for a pass, in milliseconds (its share of the axis times the axis).
    double drawnMilliseconds(StepPass pass, StepTerm term) const;
    /// The time written inside a segment; hidden where the segment is too short for it.
    QGraphicsSimpleTextItem *segmentLabel(StepPass pass, StepTerm term) const;
    /// The pass's total after its bar.
    QGraphicsSimpleTextItem *totalLabel(StepPass pass) const { return m_totals[int(pass)]; }
    /// Why no bar is drawn (the GPU lacks a figure, the engine does not start); hidden otherwise.
    ChartCallout *reasonLabel() const { return m_reason; }
    QValueAxis *valueAxis(StepPass pass) const { return m_axes[int(pass)]; }
    /// A segment as drawn, in the chart's coordinates; empty when the term takes no time.
    QRectF segmentRect(StepPass pass, StepTerm term) const;
    /// "Weights read: 5.59 ms (62 %)".
    QString segmentToolTip(StepPass pass, StepTerm term) const;
    /// Each pass and its terms with their times and shares, for the clipboard.
    QString summaryText() const;
    /// The terms either bar shows, by name.
    QList<LegendStrip::Entry> legendEntries() const override;

    /// The chart's title: "Where the time goes, per GPU".
    static QString title();
    /// "Decode step, 16 sequences", "First token, a 8,192-token prompt".
    static QString passName(const StepBreakdownChartData &data, StepPass pass);

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    void restack();
    void placeLabels();
    /// The axis at a round length, long enough for the bar and its total beside it.
    void fitAxis(StepPass pass);
    void placeTotal(StepPass pass);
    void placeSegmentLabel(StepPass pass, StepTerm term);
    QString totalText(StepPass pass) const;

    QHorizontalStackedBarSeries *m_bars;
    QBarSet *m_sets[StepTermCount] = {};
    std::bitset<StepTermCount> m_stacked; ///< the terms m_bars holds now
    QGraphicsSimpleTextItem *m_labels[StepPassCount][StepTermCount] = {};
    QGraphicsSimpleTextItem *m_totals[StepPassCount] = {};
    QValueAxis *m_axes[StepPassCount] = {};
    QLineSeries *m_axisCarriers[StepPassCount] = {}; ///< empty: they show the millisecond axes
    QValueAxis *m_share;                             ///< hidden, 0 to 1: the bars' own scale
    QBarCategoryAxis *m_categories;
    ChartCallout *m_reason;
    StepBreakdownChartData m_data;
    bool m_placing = false;
    bool m_placeAgain = false;
};

/// The translated name of a step term ("Weights read").
QString stepTermName(StepTerm term);
/// A segment's time and share of its pass: "5.59 ms (62 %)", "40.0 µs (0.4 %)".
QString stepSegmentText(const StepSegment &segment);

} // namespace kvscope
