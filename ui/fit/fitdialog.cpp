// SPDX-License-Identifier: MIT
#include "ui/fit/fitdialog.h"

#include "core/common/units.h"
#include "ui/fit/fitresultsmodel.h"

#include <limits>

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// How long the inputs rest before a search starts (typing 4, 0, 9, 6 searches once).
constexpr int DebounceMs = 150;

QSpinBox *spinBox(const char *name, int minimum, int maximum)
{
    auto *box = new QSpinBox;
    box->setObjectName(QLatin1String(name));
    box->setRange(minimum, maximum);
    box->setGroupSeparatorShown(true);
    return box;
}

} // namespace

FitDialog::FitDialog(const QList<GpuSpec> &gpus, QWidget *parent)
    : QDialog(parent), m_gpus(gpus), m_model(new QLabel),
      m_concurrency(spinBox("fitConcurrency", 1, 1'000'000)),
      m_maxModelLen(spinBox("fitMaxModelLen", 0, std::numeric_limits<int>::max())), m_gpu(new QComboBox),
      m_maxGpus(spinBox("fitMaxGpus", 1, MaxFitGpus)), m_engine(new QComboBox), m_rankBy(new QComboBox),
      m_status(new QLabel), m_table(new QTableView), m_results(new FitResultsModel(this)),
      m_command(new QLineEdit), m_copy(new QPushButton), m_use(new QPushButton), m_close(new QPushButton),
      m_job(this, [this](const JobOutcome<FitResult> &outcome) { showOutcome(outcome); })
{
    setObjectName(QStringLiteral("fitDialog"));
    m_model->setObjectName(QStringLiteral("fitModel"));
    m_model->setWordWrap(true);
    m_gpu->setObjectName(QStringLiteral("fitGpu"));
    m_engine->setObjectName(QStringLiteral("fitEngine"));
    m_rankBy->setObjectName(QStringLiteral("fitRankBy"));
    m_status->setObjectName(QStringLiteral("fitStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setObjectName(QStringLiteral("fitResults"));
    m_command->setObjectName(QStringLiteral("fitCommand"));
    m_command->setReadOnly(true);
    m_copy->setObjectName(QStringLiteral("fitCopyCommand"));
    m_use->setObjectName(QStringLiteral("fitUse"));
    m_close->setObjectName(QStringLiteral("fitClose"));

    m_maxGpus->setValue(8);
    m_gpu->addItem(QString()); // "Any GPU", worded in retranslate()
    for (const GpuSpec &gpu : m_gpus)
        m_gpu->addItem(gpu.name, gpu.id);
    for (const Engine engine : {Engine::Vllm, Engine::Sglang})
        m_engine->addItem(engineDisplayName(engine), int(engine));
    for (const FitRanking ranking : {FitRanking::Memory, FitRanking::Speed})
        m_rankBy->addItem(QString(), int(ranking)); // worded in retranslate()

    m_table->setModel(m_results);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *form = new QFormLayout;
    const auto row = [&](QWidget *field) {
        auto *label = new QLabel;
        label->setBuddy(field);
        m_labels << label;
        form->addRow(label, field);
    };
    row(m_concurrency);
    row(m_maxModelLen);
    row(m_gpu);
    row(m_maxGpus);
    row(m_engine);
    row(m_rankBy);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_command, 1);
    buttons->addWidget(m_copy);
    buttons->addSpacing(24);
    buttons->addWidget(m_use);
    buttons->addWidget(m_close);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_model);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(DebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &FitDialog::startSearch);
    for (QSpinBox *box : {m_concurrency, m_maxModelLen, m_maxGpus})
        connect(box, &QSpinBox::valueChanged, this, &FitDialog::scheduleSearch);
    for (QComboBox *box : {m_gpu, m_engine, m_rankBy})
        connect(box, &QComboBox::currentIndexChanged, this, &FitDialog::scheduleSearch);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &FitDialog::updateButtons);
    connect(m_table, &QAbstractItemView::doubleClicked, this, &FitDialog::useSelected);
    connect(m_use, &QPushButton::clicked, this, &FitDialog::useSelected);
    connect(m_copy, &QPushButton::clicked, this, &FitDialog::copySelected);
    connect(m_close, &QPushButton::clicked, this, &QDialog::reject);

    resize(1120, 560);
    retranslate();
    updateButtons();
}

void FitDialog::askFor(const Scenario &scenario)
{
    m_base = scenario;
    const QSignalBlocker blockers[] = {QSignalBlocker(m_concurrency), QSignalBlocker(m_maxModelLen),
                                       QSignalBlocker(m_engine)};
    m_concurrency->setValue(int(std::min<std::int64_t>(scenario.batchSize, m_concurrency->maximum())));
    m_maxModelLen->setMaximum(
        int(std::min<std::int64_t>(scenario.model.maxPositionEmbeddings, std::numeric_limits<int>::max())));
    // The explorer's --max-model-len, or (when it is the model's) the length it explores.
    m_maxModelLen->setValue(int(std::min<std::int64_t>(
        scenario.maxModelLen > 0 ? scenario.maxModelLen : scenario.seqLen, m_maxModelLen->maximum())));
    m_engine->setCurrentIndex(m_engine->findData(int(scenario.engine)));
    retranslate();
    scheduleSearch();
}

FitQuery FitDialog::query() const
{
    FitQuery q;
    q.base = m_base;
    q.base.engine = Engine(m_engine->currentData().toInt());
    q.concurrency = m_concurrency->value();
    q.maxModelLen = m_maxModelLen->value();
    q.maxGpus = m_maxGpus->value();
    q.ranking = FitRanking(m_rankBy->currentData().toInt());
    // The explorer's own precisions join fit's default candidates rather than being dropped.
    if (m_base.quantization) {
        q.quantizations = {std::nullopt, defaultSpecFor(QuantMethod::Fp8)};
        if (!q.quantizations.contains(m_base.quantization))
            q.quantizations << m_base.quantization;
    }
    if (m_base.kvCacheDtype != KvCacheDtype::Auto && m_base.kvCacheDtype != KvCacheDtype::Fp8)
        q.kvCacheDtypes = {KvCacheDtype::Auto, KvCacheDtype::Fp8, m_base.kvCacheDtype};
    const QString gpu = m_gpu->currentData().toString();
    for (const GpuSpec &spec : m_gpus)
        if (gpu.isEmpty() || spec.id == gpu)
            q.gpus << spec;
    return q;
}

void FitDialog::scheduleSearch()
{
    // A newer question supersedes the running search at once; the new one waits for the inputs to rest.
    m_job.cancel();
    m_debounce.start();
    m_searching = true;
    m_status->setText(tr("Searching…"));
}

void FitDialog::startSearch()
{
    // The search gets its own copy of the query: it may outlive the dialog until it sees its cancel flag.
    m_job.start([q = query(), search = m_search](const quant::RunControl &control) {
        return search(q, control.cancel);
    });
}

void FitDialog::showOutcome(const JobOutcome<FitResult> &outcome)
{
    m_searching = m_debounce.isActive(); // the inputs changed while this one ran
    const QList<FitRow> fits = outcome.result ? outcome.result->fits : QList<FitRow>();
    m_results->setRows(fits);
    m_table->resizeColumnsToContents();
    if (!outcome.result)
        m_lastStatus = outcome.failure.message; // the core's refusal of the query, or what went wrong
    else if (fits.isEmpty())
        m_lastStatus = outcome.result->reason;
    else
        m_lastStatus.clear();
    retranslate();
    if (!fits.isEmpty())
        m_table->selectRow(0);
    updateButtons();
    Q_EMIT searchFinished();
}

const FitRow *FitDialog::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? nullptr : &m_results->rows().at(rows.first().row());
}

void FitDialog::useSelected()
{
    if (const FitRow *row = selectedRow()) {
        Q_EMIT configurationChosen(row->scenario);
        accept();
    }
}

void FitDialog::copySelected()
{
    if (const FitRow *row = selectedRow())
        QApplication::clipboard()->setText(row->command);
}

void FitDialog::updateButtons()
{
    const FitRow *row = selectedRow();
    const bool selected = row != nullptr;
    m_command->setText(selected ? row->command : QString());
    m_command->setCursorPosition(0);
    m_use->setEnabled(selected);
    m_copy->setEnabled(selected);
}

void FitDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

void FitDialog::retranslate()
{
    setWindowTitle(tr("What do I need?"));
    m_model->setText(m_base.model.name.isEmpty()
                         ? QString()
                         : tr("The GPUs, tensor-parallel sizes and precisions that serve these requests of "
                              "<b>%1</b>, best first in the order chosen below.")
                               .arg(m_base.model.name.toHtmlEscaped()));
    const QStringList labels = {tr("Concurrent requests:"),
                                tr("Tokens per request (max model length):"),
                                tr("GPU:"),
                                tr("At most GPUs:"),
                                tr("Engine:"),
                                tr("Best first:")};
    for (qsizetype i = 0; i < m_labels.size(); ++i)
        m_labels.at(i)->setText(labels.at(i));
    m_maxModelLen->setSpecialValueText(tr("The longest each configuration allows"));
    m_gpu->setItemText(0, tr("Any GPU"));
    m_rankBy->setItemText(0,
                          tr("Fewest GPUs, then (at the longest length) the longest context, the least GPU "
                             "memory, the fastest decode"));
    m_rankBy->setItemText(1, tr("The fastest decode at these requests (the step model)"));
    if (isSearching())
        m_status->setText(tr("Searching…"));
    else if (!m_lastStatus.isEmpty())
        m_status->setText(m_lastStatus);
    else
        m_status->setText(tr("%n configuration(s) serve the requests. Pick one to copy its launch line or "
                             "open it in the explorer.",
                             nullptr, m_results->rowCount()));
    m_copy->setText(tr("&Copy launch line"));
    m_use->setText(tr("&Use this"));
    m_close->setText(tr("Close"));
}

} // namespace kvscope
