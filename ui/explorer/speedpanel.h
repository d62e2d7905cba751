// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/speedplan.h"

#include <QWidget>

class QGridLayout;
class QLabel;

namespace kvscope {

class FigureCard;
class LegendStrip;
class StepBreakdownChartView;

/// The plan's speed (planSpeed(), a roofline per GPU) as four cards: decode
/// tokens/s of all sequences and per sequence, time to first token, and
/// whether decode is memory- or compute-bound; each beside its ideal figure
/// (both efficiencies 1). Under them, where the time of a decode step and of
/// the first token goes (StepBreakdownChartView) with its legend. Without a
/// GPU figure the roofline needs, the cards say so. Only formats the core's figures.
class SpeedPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SpeedPanel(QWidget *parent = nullptr);

    void showSpeed(const SpeedPlan &speed);

    /// The value label of a card by its key: "decodeTokensPerSecond",
    /// "decodePerSequence", "timeToFirstToken", "decodeBound".
    QLabel *valueLabel(const QString &key) const;
    QLabel *detailLabel(const QString &key) const;
    StepBreakdownChartView *breakdownChart() const { return m_breakdown; }
    /// Shows or hides the breakdown chart and its legend (the report gives a table instead).
    void setBreakdownChartVisible(bool visible);
    /// The cards as "caption: value (detail)" lines, then the breakdown, for the clipboard.
    QString figuresText() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    FigureCard *card(const QString &key) const;
    void showBreakdown(); ///< the chart where a figure is, and wanted
    void showServing(const SpeedPlan &speed);
    void showServingAtRate(const ServingCost &serving);
    void showSpeculative(const SpeedPlan &speed);
    /// Four cards a row, or two, or one: as many as fit at their own minimum
    /// width (their fonts grow with the presentation zoom).
    void reflow();

    QGridLayout *m_grid;
    int m_columns = 0;
    QList<FigureCard *> m_cards;
    FigureCard *m_serving;     ///< steady-state serving: a row of its own, shown when the plan has a workload
    FigureCard *m_speculative; ///< decoding with the drafter: a row of its own under --speculative-config
    QLabel *m_notes;           ///< the speed plan's notes, under the cards
    StepBreakdownChartView *m_breakdown;
    LegendStrip *m_breakdownLegend;
    bool m_breakdownWanted = true; ///< setBreakdownChartVisible: the report shows a table instead
    SpeedPlan m_speed;
};

} // namespace kvscope
