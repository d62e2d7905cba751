// SPDX-License-Identifier: MIT
#include "ui/quantization/quantizationview.h"

#include "core/common/error.h"
#include "core/common/units.h"
#include "core/compare/accuracy.h"
#include "core/plan/memoryplan.h"
#include "core/quantization/grid.h"
#include "core/scenario/scenario.h"
#include "ui/quantization/attentionpanel.h"
#include "ui/quantization/errorhistogramchart.h"
#include "ui/quantization/figuresmodel.h"
#include "ui/quantization/groupinspector.h"
#include "ui/quantization/schemepicker.h"
#include "ui/quantization/sourcepicker.h"
#include "ui/quantization/sqnrchart.h"
#include "ui/quantization/valueschart.h"
#include "ui/state/quantsettings.h"
#include "ui/state/setting.h"
#include "ui/style/theme.h"
#include "ui/widgets/scrollingpane.h"
#include "ui/widgets/textfitcolumns.h"

#include <algorithm>
#include <climits>

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// Below this width the panels stack in one column.
constexpr int WideLayoutWidth = 1100;
/// The settings column never takes more than this.
constexpr int ControlsWidth = 280;

} // namespace

QuantizationView::QuantizationView(QWidget *parent)
    : QWidget(parent),
      m_job(this, [this](JobOutcome<quant::QuantOutcome> outcome) { finishRun(std::move(outcome)); })
{
    setObjectName(QStringLiteral("quantizationView"));
    m_fromScenario = new QPushButton(this);
    m_fromScenario->setObjectName(QStringLiteral("fromScenarioButton"));
    m_scenarioNote = new QLabel(this);
    m_scenarioNote->setObjectName(QStringLiteral("scenarioNote"));
    m_scenarioNote->setWordWrap(true);
    m_scenarioNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scenarioNote->hide();
    m_source = new SourcePicker(this);
    m_schemes = new SchemePicker(this);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progress"));
    m_progress->setRange(0, 100);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(8);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *controls = new QWidget;
    auto *controlsLayout = new QVBoxLayout(controls);
    controlsLayout->setContentsMargins(0, 0, 4, 0);
    controlsLayout->addWidget(m_fromScenario);
    controlsLayout->addWidget(m_scenarioNote);
    controlsLayout->addWidget(m_source);
    controlsLayout->addWidget(m_schemes);
    controlsLayout->addWidget(m_progress);
    controlsLayout->addWidget(m_status);
    controlsLayout->addStretch();
    m_controlsArea = scrollingPane(controls, this, Qt::ScrollBarAsNeeded);
    fitControlsWidth();

    m_errorKind = new QComboBox(this);
    m_errorKind->setObjectName(QStringLiteral("errorKind"));
    m_errorKind->addItem(QString()); // w - w'; texts set in retranslate()
    m_errorKind->addItem(QString()); // (w - w') / |w|
    m_logY = new QCheckBox(this);
    m_logY->setObjectName(QStringLiteral("logY"));
    m_logY->setChecked(true);
    m_histogramTitle = new QLabel(this);
    auto *display = new QHBoxLayout;
    display->addWidget(m_histogramTitle);
    display->addWidget(m_errorKind);
    display->addWidget(m_logY);
    display->addStretch();

    m_errorChart = new ErrorHistogramChart(this);
    m_valuesChart = new ValuesChart(this);
    m_sqnrChart = new SqnrChart(this);
    m_inspector = new GroupInspector(this);
    m_inspector->setObjectName(QStringLiteral("inspector"));
    for (QWidget *w : std::initializer_list<QWidget *>{m_errorChart, m_valuesChart, m_sqnrChart, m_inspector})
        w->setMinimumSize(320, 300);
    m_figures = new FiguresModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("figuresTable"));
    m_table->setModel(m_figures);
    m_table->verticalHeader()->hide();
    fitColumnsToTexts(m_table);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setAlternatingRowColors(true);

    auto *results = new QWidget;
    auto *resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(4, 0, 0, 0);
    resultsLayout->addLayout(display);
    m_panels = new QGridLayout;
    resultsLayout->addLayout(m_panels, 1);
    arrangePanels(true);

    auto *tensorPage = new QWidget;
    auto *tensorLayout = new QHBoxLayout(tensorPage);
    tensorLayout->addWidget(m_controlsArea);
    tensorLayout->addWidget(scrollingPane(results, this, Qt::ScrollBarAsNeeded), 1);
    m_attention = new AttentionPanel;
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("quantizationPages"));
    m_pages->setDocumentMode(true);
    m_pages->addTab(tensorPage, QString());
    m_pages->addTab(m_attention, QString());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);
    retranslate();
    restoreSettings(); // before the connections: restoring is no change to save

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(150);
    connect(&m_debounce, &QTimer::timeout, this, &QuantizationView::simulate);
    connect(&m_debounce, &QTimer::timeout, this, &QuantizationView::saveSettings);
    connect(&m_debounce, &QTimer::timeout, this, &QuantizationView::settingsChanged);
    connect(m_source, &SourcePicker::changed, &m_debounce, qOverload<>(&QTimer::start));
    connect(m_schemes, &SchemePicker::changed, &m_debounce, qOverload<>(&QTimer::start));
    // An edit of its own makes the note on what the scenario chose stale.
    const auto edited = [this] {
        if (!m_takingScenario)
            m_scenarioNote->hide();
    };
    connect(m_source, &SourcePicker::changed, this, edited);
    connect(m_schemes, &SchemePicker::changed, this, edited);
    connect(m_fromScenario, &QPushButton::clicked, this, &QuantizationView::scenarioRequested);
    m_job.setProgress([this](int percent) { m_progress->setValue(percent); });
    connect(m_errorKind, &QComboBox::currentIndexChanged, this, [this] {
        redrawHistograms();
        saveSettings();
        Q_EMIT settingsChanged();
    });
    connect(m_logY, &QCheckBox::toggled, this, [this] {
        redrawHistograms();
        redrawValues();
        saveSettings();
        Q_EMIT settingsChanged();
    });
    m_errorChart->setCatalogueName(QStringLiteral("error-histogram"));
    m_valuesChart->setCatalogueName(QStringLiteral("values"));
    m_sqnrChart->setCatalogueName(QStringLiteral("sqnr"));
    connect(m_inspector, &GroupInspector::selectionChanged, this, &QuantizationView::redrawValues);

    m_progress->hide();
    m_debounce.start();
}

QuantizationView::~QuantizationView()
{
    saveSettings(); // the running job, if any, is cancelled with m_job and not waited for
}

void QuantizationView::takeScenario(const Scenario &scenario, const MemoryPlan &plan)
{
    ScenarioTensorChoice choice;
    QuantSettings chosen;
    try {
        choice = scenarioTensorChoice(scenario, plan, quantsettings::toChoices(settings()));
        chosen = quantsettings::fromChoices(choice.choices, tr("the scenario"));
    } catch (const Error &error) {
        m_scenarioNote->setText(tr("From the scenario: %1").arg(error.message()));
        m_scenarioNote->show();
        return;
    }
    m_takingScenario = true;
    applySettings(chosen);
    m_takingScenario = false;
    const AccuracyTensor &t = choice.tensor;
    QString note = tr("From the scenario: %1 on a [%2, %3] tensor like %4 — %5.")
                       .arg(choice.format, QString::number(t.rows), QString::number(t.cols), t.stands,
                            t.fromCheckpoint ? tr("the checkpoint's own") : tr("synthetic"));
    if (choice.lossless)
        note += QLatin1Char(' ') + tr("The weights keep their own dtype: no error.");
    if (!t.clipping.isEmpty())
        note += QLatin1Char(' ') + t.clipping + QLatin1Char('.');
    for (const QString &n : choice.notes)
        note += QLatin1Char(' ') + n + QLatin1Char('.');
    m_scenarioNote->setText(note);
    m_scenarioNote->show();
    m_debounce.start();
}

void QuantizationView::retranslate()
{
    m_pages->setTabText(0, tr("Tensor"));
    m_pages->setTabText(1, tr("Attention"));
    m_pages->setTabToolTip(1, tr("One decode query's attention through a 16-bit and an FP8 KV cache, token "
                                 "by token"));
    m_fromScenario->setText(tr("From the scenario"));
    m_fromScenario->setToolTip(
        tr("The explorer's weight format (scheme and group size) on a tensor shaped like "
           "one of the model's own linear layers."));
    m_errorKind->setItemText(0, tr("Error w − w′"));
    m_errorKind->setItemText(1, tr("Relative error (w − w′) / |w|"));
    m_logY->setText(tr("Log counts"));
    m_histogramTitle->setText(tr("Histogram:"));
    showStatus();
}

void QuantizationView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        m_figures->retranslate();
        redrawValues(); // the grid's legend entry names its row and group
    }
    // The presentation zoom and another language widen the controls: once they are laid out again.
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, &QuantizationView::fitControlsWidth);
    QWidget::changeEvent(event);
}

void QuantizationView::fitControlsWidth()
{
    // As wide as the controls ask, up to a cap that grows with the zoom; never narrower than they need.
    const QWidget *controls = m_controlsArea->widget();
    const int cap = int(ControlsWidth * theme::zoom());
    m_controlsArea->setFixedWidth(
        paneWidthFor(m_controlsArea, std::max(controls->minimumSizeHint().width(),
                                              std::min(controls->sizeHint().width(), cap))));
}

void QuantizationView::restoreSettings()
{
    settings::SettingsReader saved;
    const QuantSettings s = quantsettings::load(saved);
    m_restoreProblems = saved.problems();
    applySettings(s);
}

void QuantizationView::applySettings(const QuantSettings &s)
{
    m_source->setSource(s.source);
    m_schemes->setChoice(s.schemes);
    m_errorKind->setCurrentIndex(s.relativeError ? 1 : 0);
    m_logY->setChecked(s.logY);
}

QuantSettings QuantizationView::settings() const
{
    QuantSettings s;
    s.source = m_source->source();
    s.schemes = m_schemes->choice();
    s.relativeError = m_errorKind->currentIndex() == 1;
    s.logY = m_logY->isChecked();
    return s;
}

void QuantizationView::saveSettings() const
{
    quantsettings::save(settings());
}

void QuantizationView::showAttention()
{
    m_pages->setCurrentWidget(m_attention);
}

void QuantizationView::followScenario(const Scenario &scenario, const MemoryPlan &plan)
{
    m_attention->setModel(scenario.model, plan.dtype, plan.kvCacheDtype);
}

ChartSource QuantizationView::chartSource() const
{
    ChartSource source;
    source.attention = m_attention->picture();
    source.quantChoices = quantsettings::toChoices(settings());
    source.quant = m_outcome;
    source.gridScheme = m_inspector->scheme();
    source.gridRow = m_inspector->row();
    source.gridColumn = m_inspector->column();
    source.gridName = gridName(source.gridScheme, m_inspector->row(), m_inspector->group());
    return source;
}

QString QuantizationView::gridName(const quant::Scheme &scheme, std::int64_t row, std::int64_t group)
{
    const QString unit = scheme.kind == quant::SchemeKind::Int8 ? tr("row %1").arg(row)
                                                                : tr("row %1, group %2").arg(row).arg(group);
    return QStringLiteral("%1, %2").arg(scheme.id(), unit);
}

void QuantizationView::setStatus(Status status)
{
    m_state = status;
    showStatus();
}

QString QuantizationView::failureText() const
{
    return m_failure.isEmpty() ? tr("not enough memory for this tensor") : m_failure;
}

void QuantizationView::showStatus()
{
    switch (m_state) {
    case Status::Idle:
        m_status->clear();
        break;
    case Status::NoSchemes:
        m_status->setText(tr("Pick at least one scheme."));
        break;
    case Status::NoTensor:
        m_status->setText(tr("Pick a file and one of its tensors."));
        break;
    case Status::Running:
        m_status->setText(tr("Simulating %1…").arg(m_runningSchemes.join(QStringLiteral(", "))));
        break;
    case Status::Failed:
        m_status->setText(
            QStringLiteral("<span style='color:#b00020'>%1</span>").arg(failureText().toHtmlEscaped()));
        break;
    case Status::Shown: {
        const quant::TensorData &t = m_outcome->tensor.data;
        // The count picks the plural form; the text shows it with separators.
        const int plural = int(std::min<std::int64_t>(t.elements(), INT_MAX));
        m_status->setText(tr("%1 · %2 × %3 %4 · %5 elements", nullptr, plural)
                              .arg(t.origin(), QString::number(t.rows()), QString::number(t.cols()),
                                   quant::elementTypeName(t.type()), formatCount(t.elements())));
        break;
    }
    }
}

bool QuantizationView::isBusy() const
{
    return m_debounce.isActive() || m_job.isRunning() || m_attention->isBusy();
}

void QuantizationView::simulate()
{
    m_debounce.stop();
    const QuantSource source = m_source->source();
    quant::QuantRequest request;
    request.source = source.selected();
    request.schemes = m_schemes->schemes();
    request.options.bins = m_schemes->bins();
    // Settings that ask for nothing stop the run of the settings before: its
    // figures would replace the status that says what is missing.
    if (request.schemes.isEmpty()) {
        stopRun();
        setStatus(Status::NoSchemes);
        return;
    }
    if (!source.synthetic && source.tensor.isEmpty()) {
        stopRun();
        setStatus(Status::NoTensor);
        return;
    }
    std::optional<quant::LoadedTensor> cached;
    if (m_outcome)
        cached = m_outcome->tensor;
    m_progress->setValue(0);
    m_progress->show();
    m_runningSchemes.clear();
    for (const quant::Scheme &scheme : request.schemes)
        m_runningSchemes << scheme.id();
    setStatus(Status::Running);
    // Supersedes the running job: it sees its flag at its next chunk and stops.
    m_job.start([request, cached](const quant::RunControl &control) {
        return quant::runQuantization(request, cached, control);
    });
}

void QuantizationView::stopRun()
{
    m_job.cancel();
    m_progress->hide();
}

void QuantizationView::finishRun(JobOutcome<quant::QuantOutcome> outcome)
{
    m_progress->hide();
    if (!outcome.result) {
        m_failure = outcome.failure.outOfMemory ? QString() : outcome.failure.message;
        setStatus(Status::Failed);
        Q_EMIT failed(failureText());
        return;
    }
    m_outcome = std::move(outcome.result);
    showOutcome();
}

void QuantizationView::showOutcome()
{
    const quant::QuantOutcome &o = *m_outcome;
    const quant::TensorData &t = o.tensor.data;
    setStatus(Status::Shown);
    m_figures->setResults(o.results);
    m_sqnrChart->setResults(o.results);
    QList<quant::Scheme> schemes;
    for (const quant::SchemeResult &r : o.results)
        schemes << r.scheme;
    quant::SchemeDefaults defaults;
    defaults.groupSize = m_schemes->groupSize();
    m_inspector->setSchemes(schemes, quant::parseScheme(QStringLiteral("int4"), defaults));
    m_inspector->setTensor(t);
    redrawHistograms();
    redrawValues();
    Q_EMIT resultsShown();
}

void QuantizationView::redrawHistograms()
{
    if (!m_outcome)
        return;
    const auto kind = m_errorKind->currentIndex() == 1 ? ErrorHistogramChart::Kind::Relative
                                                       : ErrorHistogramChart::Kind::Absolute;
    m_errorChart->setResults(m_outcome->results, kind, m_logY->isChecked());
}

void QuantizationView::redrawValues()
{
    if (!m_outcome)
        return;
    const quant::QuantOutcome &o = *m_outcome;
    const quant::Scheme scheme = m_inspector->scheme();
    const quant::QuantizationGrid grid =
        quant::quantizationGrid(o.tensor.data, o.tensor.stats, scheme, m_inspector->row(),
                                m_inspector->column(), o.values->lo, o.values->hi);
    m_valuesChart->setValues(*o.values, grid, gridName(scheme, m_inspector->row(), m_inspector->group()),
                             m_logY->isChecked());
}

void QuantizationView::arrangePanels(bool wide)
{
    m_wide = wide;
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_errorChart, m_valuesChart, m_sqnrChart, m_inspector, m_table})
        m_panels->removeWidget(w);
    for (int row = 0; row < m_panels->rowCount(); ++row)
        m_panels->setRowStretch(row, 0);
    // The figures first: at 1280 x 720 two rows of charts fill the screen, and the
    // table under them was below the fold.
    if (wide) {
        m_panels->addWidget(m_table, 0, 0, 1, 2);
        m_panels->addWidget(m_errorChart, 1, 0);
        m_panels->addWidget(m_valuesChart, 1, 1);
        m_panels->addWidget(m_sqnrChart, 2, 0);
        m_panels->addWidget(m_inspector, 2, 1);
        m_panels->setRowStretch(1, 1);
        m_panels->setRowStretch(2, 1);
    } else {
        int row = 0;
        for (QWidget *w :
             std::initializer_list<QWidget *>{m_table, m_errorChart, m_valuesChart, m_sqnrChart, m_inspector})
            m_panels->addWidget(w, row++, 0);
    }
}

void QuantizationView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const bool wide = event->size().width() >= WideLayoutWidth;
    if (wide != m_wide)
        arrangePanels(wide);
}

} // namespace kvscope
