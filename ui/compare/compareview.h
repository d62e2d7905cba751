// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/comparison.h"
#include "core/scenario/scenariovalues.h"

#include <optional>

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QStackedWidget;
class QTabBar;
class QTableWidget;
class QToolButton;

namespace kvscope {

class CompareMemoryChartView;
class CompareBarsChartView;
class ComparisonRunner;
class ScenarioController;
class UserLibrary;
struct ChartSource;

/// The Compare tab: 2 to 4 columns, each the explorer's scenario with its own
/// precision, layout and serving knobs (--dtype, --quantization, --group-size, --kv-cache-dtype,
/// --tensor-parallel-size, --pipeline-parallel-size, --data-parallel-size, --enable-expert-parallel,
/// the drafter, --max-loras, --max-lora-rank, --shared-prefix-len),
/// side by side on memory, capacity, speed and accuracy: the core's twelve
/// rows with each figure's difference to the first column, the best of a row
/// emphasised, and under it two charts (memory bars on one budget line;
/// capacity and speed as grouped bars), the accuracy chart beside what it was simulated on, and under it
/// what the accuracy figures assume (CompareText::accuracyCaveats); the page scrolls. The comparison runs off
/// the UI thread (ComparisonRunner): a change cancels the run in progress, the old table stays until the new
/// one arrives, and the progress shows meanwhile. It runs while the tab is shown; a change made elsewhere
/// runs when it is shown again.
class CompareView : public QWidget
{
    Q_OBJECT

public:
    /// Rows of the table above the figures: the knobs (columnKnobs()), then each column's Remove button.
    static constexpr int KnobRows = 17;
    static constexpr int RemoveRow = KnobRows;
    static constexpr int FirstFigureRow = KnobRows + 1;
    /// Item data role holding a figure cell's value (a double; invalid where the core has none).
    static constexpr int ValueRole = Qt::UserRole + 1;

    CompareView(ScenarioController *controller, UserLibrary *library, QWidget *parent = nullptr);

    /// The columns as kept: each column's values on top of the explorer's scenario.
    const QList<ScenarioValues> &columns() const { return m_columns; }
    /// Replaces the columns (a scenario file, restored settings) and compares them again;
    /// none gives the seed question's, as `kvscope compare` without --variant.
    void setColumns(const QList<ScenarioValues> &columns);
    /// Shows or folds the rows of knobs above the figures, and the detail rows among them
    /// (folded while presenting: the figures and the charts then fit a 1280 x 800 projector).
    void setKnobsShown(bool shown);
    /// The rows that fold with the knobs (the layer and attention outputs' SQNR): presented,
    /// the table then fits a 1280 x 800 projector and the accuracy chart shows them.
    static bool isDetailRow(CompareRowId id);
    /// True while the columns are the seed question's that no one chose: they follow the
    /// explorer's scenario and are not saved.
    bool hasDefaultColumns() const { return m_seeded; }

    /// The comparison on screen, if it is the current columns' (not one a change has outdated).
    std::optional<Comparison> currentComparison() const;
    /// The comparison on screen, current or not (the table keeps it until the next one arrives).
    const std::optional<Comparison> &shownComparison() const { return m_comparison; }
    /// True while a comparison runs, or one is due.
    bool isBusy() const;

    ComparisonRunner *runner() const { return m_runner; }
    QTableWidget *table() const { return m_table; }
    CompareMemoryChartView *memoryChart() const { return m_memoryChart; }
    CompareBarsChartView *speedChart() const { return m_speedChart; }
    CompareBarsChartView *accuracyChart() const { return m_accuracyChart; }

    /// What the view's charts draw (their export).
    ChartSource chartSource() const;

public Q_SLOTS:
    /// Adds a column with the explorer's scenario as it is (at most four).
    void addColumn();
    /// Replaces the columns with the seed question's: BF16 / AWQ INT4 weights × 16-bit / FP8 KV.
    void seedQuestion();
    /// Replaces the columns with the serving features': the bare deployment, then its drafter,
    /// 4 LoRA slots of rank 64 and a shared system prompt, each alone (servingFeatureColumns()).
    void seedServingFeatures();
    void removeColumn(int column);
    /// Sets one knob (KvCacheDtype) of one column to a value as kvscope calc spells it ("fp8").
    /// Refused (false, with the core's message shown) when the core rejects it.
    bool setColumnValue(int column, kvscope::ScenarioField option, const QString &value);

Q_SIGNALS:
    /// The user changed the columns (added, removed, edited, the preset).
    void columnsChanged(const QList<kvscope::ScenarioValues> &columns);
    /// A comparison arrived on screen.
    void comparisonShown();

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void columnsEdited();
    /// Replaces the columns with a preset's (an error leaves them as they were, said in the status).
    void seedWith(QList<ScenarioValues> (*preset)(const Scenario &));
    /// The seed question's columns on the explorer's scenario, as the view opens.
    void seedColumns();
    /// Compares the columns on the explorer's scenario, now if the tab is shown, else when it is.
    void recompute();
    void rebuildKnobs();
    void showDrafterChoices(QComboBox *combo, const Scenario &base);
    /// The knob rows' names in the explorer's engine's flags; again only when the engine changed (a slider
    /// step must not relay the table's header out) or `always` (a new language).
    void labelKnobRows(bool always = false);
    /// Shows the knob rows of the explorer's engine (none while the knobs are folded).
    void showEngineKnobRows();
    void showKnobs();
    void showComparison();
    void showStatus(const QString &text, bool error = false);
    void clearFigures();
    void retranslate();
    QString notesText() const;
    QString caveatsText() const;
    /// The table as tall as its rows (the page scrolls, not the table).
    void fitTableHeight();

    ScenarioController *m_controller;
    UserLibrary *m_library;
    ComparisonRunner *m_runner;
    QList<ScenarioValues> m_columns;
    std::optional<Comparison> m_comparison;
    bool m_current = false;  ///< m_comparison is the current columns' on the current scenario
    bool m_due = false;      ///< a comparison is due when the tab is shown
    bool m_knobsDue = false; ///< the knobs follow the explorer's scenario when the tab is shown
    bool m_seeded = false;   ///< the columns are the seed question's by default, not the user's

    QPushButton *m_addColumn;
    QPushButton *m_seed;
    QPushButton *m_servingSeed;
    QProgressBar *m_progress;
    QLabel *m_status;
    QLabel *m_hint;
    QTableWidget *m_table;
    QLabel *m_notes;
    QLabel *m_caveats;
    CompareMemoryChartView *m_memoryChart;
    CompareBarsChartView *m_speedChart;
    CompareBarsChartView *m_accuracyChart;
    QToolButton *m_knobsButton;             ///< shows or folds the knob rows
    QTabBar *m_pageTabs;                    ///< Table, Memory and speed, Accuracy
    QStackedWidget *m_pages;                ///< the pages the tabs name
    QScrollArea *m_figuresScroll = nullptr; ///< the table page, made with its content
    std::optional<Engine> m_knobRowsEngine; ///< the engine whose flags the knob rows name
    QList<QComboBox *> m_knobs;             ///< column-major: column c, knob k at c * KnobRows + k
};

} // namespace kvscope
