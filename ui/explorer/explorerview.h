// SPDX-License-Identifier: MIT
#pragma once

#include "ui/state/chartsource.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QPushButton;
class QScrollArea;
class QSplitter;

namespace kvscope {

class BreakdownChartView;
class CompareMemoryChartView;
class LegendStrip;
class AccuracyRunner;
class FiguresPanel;
class FitBanner;
class FixProposer;
class FormulaPanel;
class GrowthChartView;
class ParameterPanel;
class ScenarioController;
class SpeedChartView;
class SpeedPanel;
class ScenarioStrip;
class UserLibrary;

/// The explorer page: the parameter panel on the left; on the right the fit
/// banner, the figure cards, the memory bar and the growth chart, all bound
/// to the controller. Charts are created once and updated in place.
class ExplorerView : public QWidget
{
    Q_OBJECT

public:
    ExplorerView(ScenarioController *controller, UserLibrary *library, QWidget *parent = nullptr);

    ParameterPanel *parameterPanel() const { return m_panel; }
    BreakdownChartView *breakdownChart() const { return m_breakdown; }
    CompareMemoryChartView *stageBreakdownChart() const { return m_stageBreakdown; }
    GrowthChartView *growthChart() const { return m_growth; }
    FiguresPanel *figuresPanel() const { return m_figures; }
    AccuracyRunner *accuracyRunner() const { return m_accuracy; }
    FitBanner *fitBanner() const { return m_banner; }
    FixProposer *fixProposer() const { return m_proposer; }
    /// Whether work for the page is still due off the UI thread (proposals, accuracy).
    bool isBusy() const;
    SpeedPanel *speedPanel() const { return m_speed; }
    SpeedChartView *speedChart() const { return m_speedChart; }
    FormulaPanel *formulaPanel() const { return m_formula; }
    ScenarioStrip *scenarioStrip() const { return m_strip; }
    QCheckBox *counterfactualCheck() const { return m_counterfactuals; }
    QSplitter *splitter() const { return m_splitter; }

    /// The formula panel beside the charts (its button and the View menu toggle it).
    bool formulaPanelShown() const;
    void setFormulaPanelShown(bool shown);
    /// What the explorer's charts draw now (their export, the report).
    ChartSource chartSource() const;

    /// Everything the page shows as plain text (verdict, proposals, notes, figures,
    /// memory bar, growth) and the plan as JSON, for the clipboard.
    QString figuresText() const;
    QString planJson() const;

public Q_SLOTS:
    void copyFigures() const;
    void copyJson() const;

Q_SIGNALS:
    /// Something the view asked of the core failed; the message says what.
    void errorOccurred(const QString &message);
    void formulaPanelToggled(bool shown);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();
    void retranslate();
    /// The parameter column as wide as its controls (they grow with the presentation zoom).
    void fitPanelWidth();
    /// The parameter column's minimum: its controls' (kept as the scenario widens them).
    void keepPanelControlsWhole();
    /// The figures' column's minimum: its page's, which the plan's texts and the zoom set.
    void keepFiguresWhole();
    /// The formula column at its preferred width, taken from the charts' spare room.
    void fitFormulaWidth();
    /// Widens splitter column `column` (0 parameters, 2 formulas) to `wanted` pixels,
    /// as far as the charts can give.
    void growColumn(int column, int wanted);
    /// The GPUs a proposal may name: the presets and the user's own.
    QList<GpuSpec> libraryGpus() const;

    ScenarioController *m_controller;
    ParameterPanel *m_panel;
    FitBanner *m_banner;
    FiguresPanel *m_figures;
    AccuracyRunner *m_accuracy;
    FixProposer *m_proposer;
    BreakdownChartView *m_breakdown;
    LegendStrip *m_breakdownLegend = nullptr;
    CompareMemoryChartView *m_stageBreakdown; ///< a bar per pipeline stage, in the one bar's place
    LegendStrip *m_stageLegend = nullptr;
    GrowthChartView *m_growth;
    QComboBox *m_growthAxis;
    QComboBox *m_growthScale;
    QScrollArea *m_panelScroll = nullptr;
    QScrollArea *m_figuresScroll = nullptr;
    QCheckBox *m_counterfactuals;
    FormulaPanel *m_formula;
    QPushButton *m_formulaToggle;
    ScenarioStrip *m_strip;
    UserLibrary *m_library;
    QPushButton *m_copyFigures;
    QPushButton *m_copyJson;
    QSplitter *m_splitter;
    SpeedPanel *m_speed;
    SpeedChartView *m_speedChart;
};

} // namespace kvscope
