// SPDX-License-Identifier: MIT
#pragma once

#include "export/chartsource.h"
#include "plan/fixes.h"

#include <QWidget>

class QComboBox;
class QPushButton;
class QSplitter;

namespace kvscope {

class BreakdownChartView;
class FiguresPanel;
class FitBanner;
class GrowthChartView;
class ParameterPanel;
class ScenarioController;
class SpeedChartView;
class SpeedPanel;
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
    GrowthChartView *growthChart() const { return m_growth; }
    FiguresPanel *figuresPanel() const { return m_figures; }
    FitBanner *fitBanner() const { return m_banner; }
    SpeedPanel *speedPanel() const { return m_speed; }
    SpeedChartView *speedChart() const { return m_speedChart; }
    QSplitter *splitter() const { return m_splitter; }

    /// What the explorer's charts draw now (their export, the report).
    ChartSource chartSource() const;

    /// Everything the page shows as plain text (verdict, proposals, notes, figures,
    /// memory bar, growth) and the plan as JSON, for the clipboard.
    QString figuresText() const;
    QString planJson() const;

public Q_SLOTS:
    void copyFigures();
    void copyJson();

Q_SIGNALS:
    /// Something the view asked of the core failed; the message says what.
    void errorOccurred(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void retranslate();
    /// The GPUs a proposal may name: the presets and the user's own.
    QList<GpuSpec> libraryGpus() const;

    ScenarioController *m_controller;
    ParameterPanel *m_panel;
    FitBanner *m_banner;
    FiguresPanel *m_figures;
    BreakdownChartView *m_breakdown;
    GrowthChartView *m_growth;
    QComboBox *m_growthAxis;
    QComboBox *m_growthScale;
    UserLibrary *m_library;
    QList<Fix> m_fixes;
    QPushButton *m_copyFigures;
    QPushButton *m_copyJson;
    QSplitter *m_splitter;
    SpeedPanel *m_speed;
    SpeedChartView *m_speedChart;
};

} // namespace kvscope
