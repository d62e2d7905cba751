// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/logexplanation.h"
#include "ui/state/backgroundjob.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace kvscope {

/// "Explain a start-up log": a vLLM start-up log pasted in, opened or dropped on
/// the window is read, planned and explained by the core (explainStartupLog(),
/// the text of `kvscope explain-log`), off the UI thread. A log kvscope cannot
/// read or plan leaves one message naming the log and the value; the last
/// explanation stays until a new one replaces it.
class ExplainLogDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ExplainLogDialog(QWidget *parent = nullptr);

    /// Reads and explains the log file at `path` (at most MaxStartupLogBytes).
    void explainFile(const QString &path);
    /// Explains the log text in the paste area.
    void explainPastedText();

    QPlainTextEdit *logText() const { return m_log; }
    QPlainTextEdit *explanation() const { return m_explanation; }
    QLabel *status() const { return m_status; }
    /// Whether a log is being read or planned.
    bool isBusy() const { return m_job.isRunning(); }

Q_SIGNALS:
    /// A run ended: with an explanation shown, or with its failure in status().
    void finished(bool explained);

protected:
    void changeEvent(QEvent *event) override;

private:
    void openFile();
    void showOutcome(JobOutcome<LogExplanation> outcome);
    void retranslate();

    QLabel *m_intro;
    QPlainTextEdit *m_log;
    QPushButton *m_open;
    QPushButton *m_explain;
    QLabel *m_status;
    QPlainTextEdit *m_explanation;
    BackgroundJob<LogExplanation> m_job;
};

} // namespace kvscope
