// SPDX-License-Identifier: MIT
#include "ui/explainlog/explainlogdialog.h"

#include "core/analysis/startuplog.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/engine/engine.h"
#include "core/library/library.h"
#include "core/output/logexplanationtext.h"
#include "core/scenario/scenariovalues.h"

#include <QComboBox>
#include <QDate>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// Plans what was read. The built-in resolvers, not the window's library: they
/// run on a worker thread (a log names its model by repository id or path).
LogExplanation explain(const StartupLog &log, const LogOverrides &overrides)
{
    return explainStartupLog(log, overrides, builtinResolvers());
}

/// An editable box of preset ids (shown with their names), empty by default: the log decides.
template <class Entry> QComboBox *presetBox(const QList<Entry> &presets, QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->setEditable(true);
    box->setInsertPolicy(QComboBox::NoInsert);
    box->addItem(QString());
    for (const Entry &entry : presets)
        box->addItem(entry.id, entry.id);
    for (int i = 1; i < box->count(); ++i)
        box->setItemData(i, presets.at(i - 1).name, Qt::ToolTipRole);
    box->setCurrentIndex(0);
    box->setMinimumContentsLength(18);
    return box;
}

/// The vLLM releases kvscope models, newest first, after an empty "from the log".
QComboBox *versionBox(QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->setEditable(true);
    box->setInsertPolicy(QComboBox::NoInsert);
    box->addItem(QString());
    QStringList newestFirst;
    for (const VllmProfile &profile : vllmProfiles())
        newestFirst.prepend(profile.since.text());
    box->addItems(newestFirst);
    box->setCurrentIndex(0);
    box->setMinimumContentsLength(12); // "from the log" whole
    return box;
}

} // namespace

ExplainLogDialog::ExplainLogDialog(QWidget *parent)
    : QDialog(parent), m_intro(new QLabel(this)), m_log(new QPlainTextEdit(this)),
      m_modelLabel(new QLabel(this)), m_model(presetBox(ModelLibrary::builtin().presets(), this)),
      m_gpuLabel(new QLabel(this)), m_gpu(presetBox(GpuLibrary::builtin().presets(), this)),
      m_versionLabel(new QLabel(this)), m_version(versionBox(this)), m_open(new QPushButton(this)),
      m_explain(new QPushButton(this)), m_calibrate(new QPushButton(this)), m_status(new QLabel(this)),
      m_explanation(new QTextBrowser(this)),
      // A path the user named can hang (a dead mount): runs go to the pool nothing waits for.
      m_job(this, pathPool(), [this](JobOutcome<LogExplanation> outcome) { showOutcome(std::move(outcome)); })
{
    setObjectName(QStringLiteral("explainLogDialog"));
    m_log->setObjectName(QStringLiteral("startupLogText"));
    m_open->setObjectName(QStringLiteral("openStartupLogButton"));
    m_explain->setObjectName(QStringLiteral("explainStartupLogButton"));
    m_calibrate->setObjectName(QStringLiteral("calibrateFromLogButton"));
    m_calibrate->setEnabled(false);
    m_status->setObjectName(QStringLiteral("startupLogStatus"));
    m_explanation->setObjectName(QStringLiteral("startupLogExplanation"));
    m_model->setObjectName(QStringLiteral("startupLogModel"));
    m_gpu->setObjectName(QStringLiteral("startupLogGpu"));
    m_modelLabel->setBuddy(m_model);
    m_gpuLabel->setBuddy(m_gpu);
    m_version->setObjectName(QStringLiteral("startupLogVersion"));
    m_versionLabel->setBuddy(m_version);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_intro->setWordWrap(true);
    m_log->setFont(mono);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_explanation->setOpenLinks(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explain->setDefault(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addSpacing(12);
    buttons->addWidget(m_modelLabel);
    buttons->addWidget(m_model, 1);
    buttons->addWidget(m_gpuLabel);
    buttons->addWidget(m_gpu, 1);
    buttons->addWidget(m_versionLabel);
    buttons->addWidget(m_version);
    buttons->addWidget(m_explain);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    close->addButton(m_calibrate, QDialogButtonBox::ActionRole);
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
    connect(m_calibrate, &QPushButton::clicked, this, [this] {
        if (!m_measured)
            return;
        Q_EMIT calibrationChosen(*m_measured);
        m_status->setText(tr("Kept: plans of this deployment use the parts %1 measured (%2).")
                              .arg(m_measured->source, calcArguments(m_measured->deployment).join(u' ')));
    });
    retranslate();
    resize(960, 720);
}

LogOverrides ExplainLogDialog::overrides() const
{
    return {m_model->currentText().trimmed(), m_gpu->currentText().trimmed(),
            m_version->currentText().trimmed()};
}

void ExplainLogDialog::explainFile(const QString &path)
{
    m_lastFile = path;
    explainFileWith(path, overrides());
}

void ExplainLogDialog::explainFileWith(const QString &path, const LogOverrides &overrides)
{
    m_status->setText(tr("Reading %1…").arg(path));
    m_job.start([path, overrides](const quant::RunControl &) {
        return explain(readStartupLogFile(path), overrides);
    });
}

void ExplainLogDialog::explainPastedText()
{
    const QString text = m_log->toPlainText();
    if (text.trimmed().isEmpty() && !m_lastFile.isEmpty()) {
        explainFileWith(m_lastFile, overrides()); // again, with the model or GPU just chosen
        return;
    }
    m_status->setText(tr("Reading the pasted log…"));
    m_job.start([text, origin = tr("the pasted log"), overrides = overrides()](const quant::RunControl &) {
        return explain(readStartupLog(text, origin), overrides);
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
    // What the log measured, kept only on request (a log of a pipeline or of SGLang cannot say).
    m_measured.reset();
    try {
        m_measured = measuredMemory(*outcome.result, QDate::currentDate());
        m_calibrate->setToolTip(tr("Plan this deployment (%1) with the parts the log measured, in place of "
                                   "kvscope's estimates, from now on")
                                    .arg(calcArguments(m_measured->deployment).join(u' ')));
    } catch (const Error &error) {
        m_calibrate->setToolTip(error.message());
    }
    m_calibrate->setEnabled(m_measured.has_value());
    m_status->setText(tr("Explained %1: each part of the memory per GPU as the log gives it and as kvscope "
                         "plans it.")
                          .arg(outcome.result->log.origin));
    m_explanation->setHtml(logExplanationHtml(*outcome.result));
    Q_EMIT finished(true);
}

void ExplainLogDialog::retranslate()
{
    setWindowTitle(tr("Explain a start-up log"));
    m_intro->setText(
        tr("Paste a vLLM start-up log (the V1 engine, 0.10 on) or an SGLang one, open a log file or drop "
           "one on the window: kvscope reads the scenario it describes, plans it and says where each GiB "
           "went, why the KV cache has its size and what would hold more."));
    m_log->setPlaceholderText(tr("Paste the log here: from the line with the engine's arguments to \"Maximum "
                                 "concurrency\" (vLLM) or \"max_total_num_tokens\" (SGLang)."));
    m_modelLabel->setText(tr("&Model:"));
    m_gpuLabel->setText(tr("&GPU:"));
    m_model->lineEdit()->setPlaceholderText(tr("from the log"));
    m_gpu->lineEdit()->setPlaceholderText(tr("from the log"));
    m_versionLabel->setText(tr("v&LLM:"));
    m_version->lineEdit()->setPlaceholderText(tr("from the log"));
    m_version->setToolTip(tr("The vLLM release, when the log does not print its version (an excerpt); "
                             "without it the newest modelled release is assumed (explain-log's %1)")
                              .arg(optionFlag(ScenarioField::VllmVersion)));
    m_model->setToolTip(
        tr("The model, when the log names none kvscope knows: a preset, a HuggingFace repository "
           "id, or a config.json or model folder (explain-log's %1)")
            .arg(optionFlag(ScenarioField::Model)));
    m_gpu->setToolTip(tr("The GPU, when the log's memory does not say which: a preset, a preset with the "
                         "log's memory (l40s:44.42) or custom:<GiB> (explain-log's %1)")
                          .arg(optionFlag(ScenarioField::Gpu)));
    m_open->setText(tr("&Open log…"));
    m_explain->setText(tr("&Explain"));
    m_calibrate->setText(tr("&Calibrate from this log"));
}

void ExplainLogDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace kvscope
