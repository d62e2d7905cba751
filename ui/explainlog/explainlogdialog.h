// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/logexplanation.h"
#include "ui/state/backgroundjob.h"

#include <optional>

#include <QDialog>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;

namespace kvscope {

/// "Explain a start-up log": a vLLM or SGLang start-up log pasted in, opened or
/// dropped on the window is read, planned and explained by the core
/// (explainStartupLog(), the text of `kvscope explain-log`), off the UI thread.
/// The model and GPU boxes are explain-log's --model and --gpu: empty, the log
/// decides. A log kvscope cannot read or plan leaves one message naming the log
/// and the value; the last explanation stays until a new one replaces it.
class ExplainLogDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ExplainLogDialog(QWidget *parent = nullptr);

    /// Reads and explains the log file at `path` (at most MaxStartupLogBytes).
    void explainFile(const QString &path);
    /// Explains the log text in the paste area; with none, the file opened last.
    void explainPastedText();

    QPlainTextEdit *logText() const { return m_log; }
    /// The explanation: a document whose parts are a table (logExplanationHtml()).
    QTextBrowser *explanation() const { return m_explanation; }
    QLabel *status() const { return m_status; }
    /// explain-log's --model and --gpu: editable, empty when the log decides.
    QComboBox *modelOverride() const { return m_model; }
    QComboBox *gpuOverride() const { return m_gpu; }
    /// explain-log's --vllm-version: editable, empty when the log decides (or the newest release is assumed).
    QComboBox *versionOverride() const { return m_version; }
    /// "Calibrate from this log": on while the explanation shown measured its deployment's memory.
    QPushButton *calibrateButton() const { return m_calibrate; }
    /// Whether a log is being read or planned.
    bool isBusy() const { return m_job.isRunning(); }

Q_SIGNALS:
    /// A run ended: with an explanation shown, or with its failure in status().
    void finished(bool explained);
    /// The user keeps the shown log's measured memory for later plans of its deployment.
    void calibrationChosen(const kvscope::MeasuredMemory &measured);

protected:
    void changeEvent(QEvent *event) override;

private:
    void openFile();
    void showOutcome(JobOutcome<LogExplanation> outcome);
    void retranslate();
    LogOverrides overrides() const;
    void explainFileWith(const QString &path, const LogOverrides &overrides);

    QLabel *m_intro;
    QPlainTextEdit *m_log;
    QLabel *m_modelLabel;
    QComboBox *m_model;
    QLabel *m_gpuLabel;
    QComboBox *m_gpu;
    QLabel *m_versionLabel;
    QComboBox *m_version;
    QString m_lastFile;
    QPushButton *m_open;
    QPushButton *m_explain;
    QPushButton *m_calibrate;
    std::optional<MeasuredMemory> m_measured; ///< what the shown explanation measured
    QLabel *m_status;
    QTextBrowser *m_explanation;
    BackgroundJob<LogExplanation> m_job;
};

} // namespace kvscope
