// SPDX-License-Identifier: MIT
// "What do I need?": the inverse question of the explorer, as `kvscope fit`
// answers it. The model comes from the explorer's scenario; the search
// (core/plan/fit.h) runs off the GUI thread and a newer question cancels
// the running one. "Use this" hands a configuration back to the explorer.
//
//   inputs --(debounce)--> BackgroundJob(findFits) --> table, or the reason for none
#pragma once

#include "core/analysis/fit.h"
#include "ui/state/backgroundjob.h"

#include <atomic>
#include <functional>

#include <QDialog>
#include <QTimer>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace kvscope {

class FitResultsModel;

class FitDialog : public QDialog
{
    Q_OBJECT

public:
    /// `gpus`: the GPUs "Any GPU" searches (the serving presets and the custom ones).
    explicit FitDialog(const QList<GpuSpec> &gpus, QWidget *parent = nullptr);

    /// Takes the model and options from `scenario` (the explorer's) and searches.
    void askFor(const Scenario &scenario);
    /// The query the inputs describe now.
    FitQuery query() const;
    FitResultsModel *results() const { return m_results; }
    /// From a change of the inputs until its rows (or reason) are on screen.
    bool isSearching() const { return m_searching; }

    using Search = std::function<FitResult(const FitQuery &query, const std::atomic<bool> *cancel)>;
    /// Puts `search` in findFits()'s place (tests: one that throws).
    void setSearch(Search search) { m_search = std::move(search); }

Q_SIGNALS:
    /// The user chose a configuration ("Use this" or a double click).
    void configurationChosen(const kvscope::Scenario &scenario);
    /// A search's rows (or its reason) are on screen.
    void searchFinished();

protected:
    void changeEvent(QEvent *event) override;

private:
    void scheduleSearch();
    void startSearch();
    void showOutcome(const JobOutcome<FitResult> &outcome);
    void useSelected();
    void copySelected();
    const FitRow *selectedRow() const;
    void updateButtons();
    void retranslate();

    Scenario m_base;
    QList<GpuSpec> m_gpus;
    QLabel *m_model;
    QSpinBox *m_concurrency;
    QSpinBox *m_maxModelLen;
    QComboBox *m_gpu;
    QSpinBox *m_maxGpus;
    QComboBox *m_engine;
    QComboBox *m_rankBy;
    QLabel *m_status;
    QTableView *m_table;
    FitResultsModel *m_results;
    QLineEdit *m_command; ///< the selected row's launch line, whole and selectable
    QPushButton *m_copy;
    QPushButton *m_use;
    QPushButton *m_close;
    QList<QLabel *> m_labels;
    Search m_search = [](const FitQuery &query, const std::atomic<bool> *cancel) {
        return findFits(query, cancel);
    };
    QTimer m_debounce;
    BackgroundJob<FitResult> m_job;
    QString m_lastStatus;
    bool m_searching = false;
};

} // namespace kvscope
