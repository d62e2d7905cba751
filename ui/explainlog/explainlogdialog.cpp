// SPDX-License-Identifier: MIT
#include "ui/explainlog/explainlogdialog.h"

#include "core/analysis/startuplog.h"
#include "core/output/logexplanationtext.h"
#include "core/scenario/scenariovalues.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// Plans what was read. The built-in resolvers, not the window's library: they
/// run on a worker thread (a log names its model by repository id or path).
LogExplanation explain(const StartupLog &log)
{
    return explainStartupLog(log, LogOverrides{}, builtinResolvers());
}

} // namespace

ExplainLogDialog::ExplainLogDialog(QWidget *parent)
    : QDialog(parent), m_intro(new QLabel(this)), m_log(new QPlainTextEdit(this)),
      m_open(new QPushButton(this)), m_explain(new QPushButton(this)), m_status(new QLabel(this)),
      m_explanation(new QPlainTextEdit(this)),
      // A path the user named can hang (a dead mount): runs go to the pool nothing waits for.
      m_job(this, pathPool(), [this](JobOutcome<LogExplanation> outcome) { showOutcome(std::move(outcome)); })
{
    setObjectName(QStringLiteral("explainLogDialog"));
    m_log->setObjectName(QStringLiteral("startupLogText"));
    m_open->setObjectName(QStringLiteral("openStartupLogButton"));
    m_explain->setObjectName(QStringLiteral("explainStartupLogButton"));
    m_status->setObjectName(QStringLiteral("startupLogStatus"));
    m_explanation->setObjectName(QStringLiteral("startupLogExplanation"));

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_intro->setWordWrap(true);
    m_log->setFont(mono);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_explanation->setFont(mono);
    m_explanation->setReadOnly(true);
    m_explanation->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explain->setDefault(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addStretch(1);
    buttons->addWidget(m_explain);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(m_log, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_explanation, 3);
    layout->addWidget(close);

    connect(m_open, &QPushButton::clicked, this, &ExplainLogDialog::openFile);
    connect(m_explain, &QPushButton::clicked, this, &ExplainLogDialog::explainPastedText);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslate();
    resize(960, 720);
}

void ExplainLogDialog::explainFile(const QString &path)
{
    m_status->setText(tr("Reading %1…").arg(path));
    m_job.start([path](const quant::RunControl &) { return explain(readStartupLogFile(path)); });
}

void ExplainLogDialog::explainPastedText()
{
    const QString text = m_log->toPlainText();
    m_status->setText(tr("Reading the pasted log…"));
    m_job.start([text, origin = tr("the pasted log")](const quant::RunControl &) {
        return explain(readStartupLog(text, origin));
    });
}

void ExplainLogDialog::openFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a start-up log"), QString(),
                                                      tr("Logs (*.log *.txt);;All files (*)"));
    if (!path.isEmpty())
        explainFile(path);
}

void ExplainLogDialog::showOutcome(JobOutcome<LogExplanation> outcome)
{
    if (!outcome.result) {
        m_status->setText(outcome.failure.message);
        Q_EMIT finished(false);
        return;
    }
    m_status->setText(tr("Explained %1: each part of the memory per GPU as the log gives it and as kvscope "
                         "plans it.")
                          .arg(outcome.result->log.origin));
    m_explanation->setPlainText(logExplanationText(*outcome.result));
    Q_EMIT finished(true);
}

void ExplainLogDialog::retranslate()
{
    setWindowTitle(tr("Explain a start-up log"));
    m_intro->setText(
        tr("Paste a vLLM start-up log (the V1 engine, 0.10 on), open a log file or drop one on the "
           "window: kvscope reads the scenario it describes, plans it and says where each GiB "
           "went, why the KV cache has its size and what would hold more."));
    m_log->setPlaceholderText(tr("Paste the log here: from the line with the engine's arguments to \"Maximum "
                                 "concurrency\"."));
    m_open->setText(tr("&Open log…"));
    m_explain->setText(tr("&Explain"));
}

void ExplainLogDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace kvscope
