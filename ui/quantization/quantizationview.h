// SPDX-License-Identifier: MIT
// The Quantization view: pick a tensor (synthetic or from a checkpoint) and
// schemes; the simulator runs off the GUI thread (BackgroundJob), a newer
// request or settings that ask for nothing cancel the running one, and the
// charts, figures table and group inspector show the outcome.
//
//   SourcePicker, SchemePicker --changed--> debounce --> quant::runQuantization (BackgroundJob)
//        --> ErrorHistogramChart, ValuesChart, SqnrChart, FiguresModel, GroupInspector
#pragma once

#include "core/quantization/quantrun.h"
#include "ui/state/backgroundjob.h"
#include "ui/state/chartsource.h"
#include "ui/state/quantsettings.h"

#include <optional>

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTableView;
class QTabWidget;

namespace kvscope {

struct MemoryPlan;
struct Scenario;
class AttentionPanel;
class ErrorHistogramChart;
class FiguresModel;
class GroupInspector;
class SchemePicker;
class SourcePicker;
class SqnrChart;
class ValuesChart;

class QuantizationView : public QWidget
{
    Q_OBJECT

public:
    explicit QuantizationView(QWidget *parent = nullptr);
    ~QuantizationView() override;

    /// True while a simulation runs or waits for the debounce timer.
    bool isBusy() const;
    /// The outcome on screen, if any.
    const std::optional<quant::QuantOutcome> &outcome() const { return m_outcome; }
    /// Saved settings that could not be restored (the defaults took their place).
    QStringList restoreProblems() const { return m_restoreProblems; }

    /// The controls' settings (source, schemes, histogram kind, count axis), and setting them all.
    QuantSettings settings() const;
    void applySettings(const QuantSettings &settings);
    /// The attention tab, and bringing it to the front.
    AttentionPanel *attention() const { return m_attention; }
    void showAttention();
    /// The explorer's scenario changed: the attention tab draws its model's KV head.
    void followScenario(const kvscope::Scenario &scenario, const kvscope::MemoryPlan &plan);
    /// What the charts draw now, for their export (charts/ export/chartcatalogue.h).
    ChartSource chartSource() const;
    /// The grid's legend name: "int4-g128, row 3, group 2" ("int8, row 3" for per-row schemes).
    static QString gridName(const quant::Scheme &scheme, std::int64_t row, std::int64_t group);

public Q_SLOTS:
    /// Starts a simulation for the current settings now (the controls call
    /// it after a short pause).
    void simulate();
    /// "From the scenario": the scenario's weight format (scheme and group size)
    /// on a tensor shaped like the model's own (core: scenarioTensorChoice()), and
    /// a note saying what was chosen. Refused with the core's message when the
    /// format has no scheme here; the settings then stay.
    void takeScenario(const kvscope::Scenario &scenario, const kvscope::MemoryPlan &plan);

Q_SIGNALS:
    /// New results are on screen.
    void resultsShown();
    /// A run failed; the previous results stay on screen.
    void failed(const QString &message);
    /// A control changed the settings (a scenario file holds them).
    void settingsChanged();
    /// The user pressed "From the scenario": the window answers with takeScenario().
    void scenarioRequested();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    /// What the status line says; its text is made from this in the current language.
    enum class Status
    {
        Idle,
        NoSchemes,
        NoTensor,
        Running,
        Failed,
        Shown
    };

    void retranslate();
    void setStatus(Status status);
    void showStatus();
    QString failureText() const;
    void restoreSettings();
    void saveSettings() const;
    /// Cancels the run in progress, if any, and hides its progress.
    void stopRun();
    void finishRun(JobOutcome<quant::QuantOutcome> outcome);
    void showOutcome();
    void redrawHistograms();
    void redrawValues();
    void arrangePanels(bool wide);
    /// The controls' column as wide as they ask (up to a cap that follows the zoom), never narrower
    /// than they need.
    void fitControlsWidth();

    QPushButton *m_fromScenario = nullptr;
    QLabel *m_scenarioNote = nullptr; ///< what "From the scenario" chose; cleared by the next edit
    bool m_takingScenario = false;    ///< the pickers' change signals come from takeScenario()
    SourcePicker *m_source = nullptr;
    SchemePicker *m_schemes = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_histogramTitle = nullptr;
    QComboBox *m_errorKind = nullptr;
    QCheckBox *m_logY = nullptr;
    ErrorHistogramChart *m_errorChart = nullptr;
    ValuesChart *m_valuesChart = nullptr;
    SqnrChart *m_sqnrChart = nullptr;
    GroupInspector *m_inspector = nullptr;
    FiguresModel *m_figures = nullptr;
    QTableView *m_table = nullptr;
    QScrollArea *m_controlsArea = nullptr;
    QGridLayout *m_panels = nullptr;
    QTabWidget *m_pages = nullptr; ///< "Tensor" (the simulator) and "Attention"
    AttentionPanel *m_attention = nullptr;
    bool m_wide = true;
    Status m_state = Status::Idle;
    QStringList m_runningSchemes; ///< scheme ids of the run in progress, for the status line
    QString m_failure; ///< the last run's error; empty when it ran out of memory (worded when shown)
    QStringList m_restoreProblems;

    QTimer m_debounce;
    BackgroundJob<quant::QuantOutcome> m_job;
    std::optional<quant::QuantOutcome> m_outcome;
};

} // namespace kvscope
