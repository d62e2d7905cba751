// SPDX-License-Identifier: MIT
#include "ui/explorer/explorerview.h"

#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/output/breakdown.h"
#include "core/output/calcjson.h"
#include "core/output/planjson.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/comparememorychart.h"
#include "ui/charts/growthchart.h"
#include "ui/charts/speedchart.h"
#include "ui/charts/stepbreakdownchart.h"
#include "ui/explorer/accuracyrunner.h"
#include "ui/explorer/figurespanel.h"
#include "ui/explorer/fitbanner.h"
#include "ui/explorer/fixproposer.h"
#include "ui/explorer/formulapanel.h"
#include "ui/explorer/parameterpanel.h"
#include "ui/explorer/scenariostrip.h"
#include "ui/explorer/speedpanel.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/userlibrary.h"
#include "ui/widgets/legendstrip.h"
#include "ui/widgets/scrollingpane.h"

#include <algorithm>

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace kvscope {

ExplorerView::ExplorerView(ScenarioController *controller, UserLibrary *library, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_panel(new ParameterPanel(controller, library, this)),
      m_banner(new FitBanner(this)), m_figures(new FiguresPanel(this)), m_accuracy(new AccuracyRunner(this)),
      m_proposer(new FixProposer(this)), m_breakdown(new BreakdownChartView(this)),
      m_stageBreakdown(new CompareMemoryChartView(this)), m_growth(new GrowthChartView(this)),
      m_growthAxis(new QComboBox(this)), m_growthScale(new QComboBox(this)),
      m_counterfactuals(new QCheckBox(this)), m_formula(new FormulaPanel(this)),
      m_formulaToggle(new QPushButton(this)), m_strip(new ScenarioStrip(this)), m_library(library),
      m_copyFigures(new QPushButton(this)), m_copyJson(new QPushButton(this)),
      m_splitter(new QSplitter(Qt::Horizontal, this)), m_speed(new SpeedPanel(this)),
      m_speedChart(new SpeedChartView(this))
{
    setObjectName(QStringLiteral("explorerView"));
    m_growthAxis->setObjectName(QStringLiteral("growthAxisCombo"));
    m_copyFigures->setObjectName(QStringLiteral("copyFiguresButton"));
    m_copyJson->setObjectName(QStringLiteral("copyJsonButton"));
    m_splitter->setObjectName(QStringLiteral("explorerSplitter"));
    m_growthAxis->addItem(QString(), int(GrowthAxis::SequenceLength));
    m_growthAxis->addItem(QString(), int(GrowthAxis::BatchSize));
    m_growthScale->setObjectName(QStringLiteral("growthScaleCombo"));
    m_growthScale->addItem(QString(), int(AxisScale::Linear));
    m_growthScale->addItem(QString(), int(AxisScale::Logarithmic));
    m_counterfactuals->setObjectName(QStringLiteral("counterfactualCheck"));
    m_formulaToggle->setObjectName(QStringLiteral("formulaToggle"));
    m_formulaToggle->setCheckable(true);
    m_formula->hide();

    m_panelScroll = scrollingPane(m_panel, this);
    fitPanelWidth();
    // A scenario can widen the panel's controls after it is laid out (a longer model or GPU name,
    // rows a MoE or LoRA shows): the column follows their width.
    m_panel->installEventFilter(this);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 0, 0, 0);
    // The buttons one above the other beside the banner: a row of three would demand its
    // width of the pane and cut it on a 1280 x 800 projector.
    auto *toolbar = new QHBoxLayout;
    toolbar->addWidget(m_banner, 1);
    auto *buttons = new QVBoxLayout;
    for (QPushButton *button : {m_copyFigures, m_copyJson, m_formulaToggle})
        buttons->addWidget(button);
    buttons->addStretch(1);
    toolbar->addLayout(buttons);
    rightLayout->addLayout(toolbar);
    rightLayout->addWidget(m_figures);
    rightLayout->addWidget(m_speed);
    LegendStrip *breakdownLegend = m_breakdown->makeLegend(this, QStringLiteral("breakdownLegend"));
    LegendStrip *growthLegend = m_growth->makeLegend(this, QStringLiteral("growthLegend"));
    // Under pipeline parallelism a bar per stage takes the one bar's place.
    m_stageLegend = m_stageBreakdown->makeLegend(this, QStringLiteral("stageBreakdownLegend"));
    m_breakdownLegend = breakdownLegend;
    rightLayout->addWidget(m_breakdown, 2);
    rightLayout->addWidget(breakdownLegend);
    rightLayout->addWidget(m_stageBreakdown, 3);
    rightLayout->addWidget(m_stageLegend);
    m_stageBreakdown->hide();
    m_stageLegend->hide();
    rightLayout->addWidget(m_growth, 5);
    // The legend above the chart's choices: in one row they demanded more width than a
    // 1280 x 800 projector leaves the pane, and cut everything above them too.
    rightLayout->addWidget(growthLegend);
    // The what-if box under the two choices: the three in one row set the column's minimum, and
    // with the formulas open on a 1280 x 800 projector that minimum cut the column.
    auto *growthChoices = new QHBoxLayout;
    growthChoices->addWidget(m_growthAxis);
    growthChoices->addWidget(m_growthScale);
    growthChoices->addStretch(1);
    rightLayout->addLayout(growthChoices);
    rightLayout->addWidget(m_counterfactuals);
    LegendStrip *speedLegend = m_speedChart->makeLegend(this, QStringLiteral("speedLegend"));
    rightLayout->addWidget(m_speedChart, 5);
    rightLayout->addWidget(speedLegend);
    // Below the layout's minimum height the charts scroll instead of overlapping.
    m_figuresScroll = scrollingPane(right, this);
    m_figuresScroll->setObjectName(QStringLiteral("explorerFiguresScroll"));

    m_splitter->addWidget(m_panelScroll);
    m_splitter->addWidget(m_figuresScroll);
    m_splitter->addWidget(m_formula);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 0);
    m_splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_strip);
    layout->addWidget(m_splitter, 1);

    connect(m_controller, &ScenarioController::planChanged, this, &ExplorerView::refresh);
    connect(m_controller, &ScenarioController::growthAxisChanged, this, &ExplorerView::refresh);
    connect(m_growthAxis, &QComboBox::activated, this, [this](int index) {
        m_controller->setGrowthAxis(GrowthAxis(m_growthAxis->itemData(index).toInt()));
    });
    connect(m_controller, &ScenarioController::growthScaleChanged, this, &ExplorerView::refresh);
    connect(m_growthScale, &QComboBox::activated, this, [this](int index) {
        m_controller->setGrowthScale(AxisScale(m_growthScale->itemData(index).toInt()));
    });
    connect(m_banner, &FitBanner::fixChosen, m_controller, &ScenarioController::setScenario);
    connect(m_controller, &ScenarioController::counterfactualsChanged, this, &ExplorerView::refresh);
    connect(m_counterfactuals, &QCheckBox::toggled, m_controller, &ScenarioController::setCounterfactuals);
    connect(m_formulaToggle, &QPushButton::toggled, this, &ExplorerView::setFormulaPanelShown);
    // A value of a formula lights up the control it comes from; a click goes to it.
    connect(m_formula, &FormulaPanel::termHovered, m_panel, &ParameterPanel::highlightOption);
    connect(m_formula, &FormulaPanel::termActivated, this, [this](ScenarioField option) {
        if (QWidget *control = m_panel->controlFor(option))
            control->setFocus(Qt::OtherFocusReason);
    });
    connect(m_strip, &ScenarioStrip::scenarioChosen, m_controller, &ScenarioController::setScenario);
    connect(m_strip, &ScenarioStrip::addRequested, this,
            [this] { m_strip->addScenario(m_controller->scenario()); });
    connect(m_controller, &ScenarioController::scenarioChanged, m_strip, &ScenarioStrip::showCurrent);
    connect(library, &UserLibrary::gpusChanged, this, &ExplorerView::refresh);
    connect(m_copyFigures, &QPushButton::clicked, this, &ExplorerView::copyFigures);
    m_breakdown->setCatalogueName(QStringLiteral("memory"));
    m_stageBreakdown->setObjectName(QStringLiteral("stageBreakdownChart"));
    m_stageBreakdown->setCatalogueName(QStringLiteral("memory"));
    m_growth->setCatalogueName(QStringLiteral("growth"));
    m_speedChart->setCatalogueName(QStringLiteral("speed"));
    m_speed->breakdownChart()->setCatalogueName(QStringLiteral("speed-breakdown"));
    connect(m_copyJson, &QPushButton::clicked, this, &ExplorerView::copyJson);
    connect(m_proposer, &FixProposer::proposed, m_banner, &FitBanner::showFixes);
    connect(m_proposer, &FixProposer::failed, this,
            [this](const QString &message) { Q_EMIT errorOccurred(tr("Proposals: %1").arg(message)); });
    connect(m_accuracy, &AccuracyRunner::started, m_figures, &FiguresPanel::showAccuracyPending);
    connect(m_accuracy, &AccuracyRunner::finished, m_figures, &FiguresPanel::showAccuracy);
    connect(m_accuracy, &AccuracyRunner::failed, m_figures, &FiguresPanel::showAccuracyFailure);

    retranslate();
    refresh();
}

void ExplorerView::refresh()
{
    const MemoryPlan &plan = m_controller->plan();
    m_banner->showPlan(plan);
    m_proposer->propose(m_controller->scenario(), plan, libraryGpus());
    m_figures->showPlan(plan);
    m_accuracy->update(m_controller->scenario(), plan);
    m_speed->showSpeed(plan.speed);
    try {
        m_speedChart->showSpeed(speedChartData(m_controller->scenario(), plan));
    } catch (const Error &error) {
        m_speedChart->showSpeed(SpeedChartData{});
        Q_EMIT errorOccurred(tr("Speed chart: %1").arg(error.message()));
    }
    m_breakdown->showBreakdown(memoryBreakdown(plan), plan.gpuCount());
    const bool stages = !plan.pipelineStages.isEmpty();
    if (stages)
        m_stageBreakdown->showComparison(stageMemoryChartData(plan));
    m_breakdown->setVisible(!stages);
    m_breakdownLegend->setVisible(!stages);
    m_stageBreakdown->setVisible(stages);
    m_stageLegend->setVisible(stages);
    // The chart and its axis choice are set together, from the controller (also the restored one).
    m_growthAxis->setCurrentIndex(m_growthAxis->findData(int(m_controller->growthAxis())));
    m_growthScale->setCurrentIndex(m_growthScale->findData(int(m_controller->growthScale())));
    {
        const QSignalBlocker blocker(m_counterfactuals);
        m_counterfactuals->setChecked(m_controller->counterfactuals());
    }
    if (formulaPanelShown())
        m_formula->showPlan(m_controller->scenario(), plan);
    try {
        m_growth->showGrowth(growthChartData(m_controller->scenario(), plan, m_controller->growthAxis(), 96,
                                             m_controller->growthScale(), m_controller->counterfactuals()));
    } catch (const Error &error) {
        // The plan stands; only a curve of another KV precision could not be planned.
        m_growth->showGrowth(GrowthChartData{});
        Q_EMIT errorOccurred(tr("Growth chart: %1").arg(error.message()));
    }
    // The plan's texts (a longer legend entry, a card's value) can widen the page.
    keepFiguresWhole();
}

bool ExplorerView::isBusy() const
{
    return m_proposer->isRunning() || m_accuracy->isRunning();
}

bool ExplorerView::formulaPanelShown() const
{
    return !m_formula->isHidden();
}

void ExplorerView::setFormulaPanelShown(bool shown)
{
    if (shown == formulaPanelShown())
        return;
    if (shown)
        m_formula->showPlan(m_controller->scenario(), m_controller->plan());
    m_formula->setVisible(shown);
    // Once laid out: a panel restored at start-up is shown before the window has its size.
    if (shown)
        QTimer::singleShot(0, this, &ExplorerView::fitFormulaWidth);
    {
        const QSignalBlocker blocker(m_formulaToggle);
        m_formulaToggle->setChecked(shown);
    }
    Q_EMIT formulaPanelToggled(shown);
}

QList<GpuSpec> ExplorerView::libraryGpus() const
{
    return GpuLibrary::builtin().presets() + m_library->customGpus();
}

ChartSource ExplorerView::chartSource() const
{
    ChartSource source;
    source.scenario = m_controller->scenario();
    source.plan = m_controller->plan();
    source.fixes = m_proposer->settle();
    source.growthAxis = m_controller->growthAxis();
    source.growthScale = m_controller->growthScale();
    source.counterfactuals = m_controller->counterfactuals();
    return source;
}

QString ExplorerView::figuresText() const
{
    m_proposer->settle(); // the banner's proposals are the scenario's before they are copied
    const MemoryPlan &plan = m_controller->plan();
    const QString title = plan.gpuCount() > 1
                              ? tr("%1 on %2 × %3").arg(plan.modelName, plan.gpuName).arg(plan.gpuCount())
                              : tr("%1 on %2").arg(plan.modelName, plan.gpuName);
    const QString blank = QStringLiteral("\n\n");
    return title + blank + m_banner->plainText() + blank + m_figures->figuresText() + QLatin1Char('\n') +
           m_speed->figuresText() + blank + m_breakdown->chart()->title() + QLatin1Char('\n') +
           m_breakdown->summaryText() + blank + m_growth->chart()->title() + QLatin1Char('\n') +
           m_growth->crossingText() + blank + unitsConvention() + QLatin1Char('\n');
}

QString ExplorerView::planJson() const
{
    const QJsonObject json = calcJson(m_controller->scenario(), m_controller->plan(), m_proposer->settle());
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
}

void ExplorerView::copyFigures() const
{
    QGuiApplication::clipboard()->setText(figuresText());
}

void ExplorerView::copyJson() const
{
    QGuiApplication::clipboard()->setText(planJson());
}

void ExplorerView::retranslate()
{
    m_growthAxis->setItemText(0, tr("vs sequence length"));
    m_growthAxis->setItemText(1, tr("vs batch size"));
    m_growthAxis->setToolTip(tr("What the growth chart's horizontal axis shows. Shortcut: Ctrl+T."));
    m_growthScale->setItemText(0, tr("linear axis"));
    m_growthScale->setItemText(1, tr("log axis"));
    m_growthScale->setToolTip(
        tr("A linear axis shows KV memory growing in a straight line; a logarithmic one "
           "shows the whole range at once."));
    m_copyFigures->setText(tr("Copy figures"));
    m_copyFigures->setToolTip(tr("Copy the figures as text (Ctrl+Shift+C)."));
    m_counterfactuals->setText(tr("as if MHA / no window"));
    m_counterfactuals->setToolTip(
        tr("Adds dashed KV lines for the same model as if every query head kept its own K and V "
           "(no GQA, no MLA latent) and as if every layer kept every token (no sliding window, chunk "
           "or recurrent state): what those designs save."));
    m_formulaToggle->setText(tr("Formulas"));
    m_formulaToggle->setToolTip(
        tr("Show the formulas behind the figures, with this scenario's numbers, and the engine's launch "
           "line (Ctrl+Shift+F)."));
    m_copyJson->setText(tr("Copy JSON"));
    m_copyJson->setToolTip(tr("Copy the whole plan as JSON, the same object as kvscope calc %1.")
                               .arg(commandFlag(CommandOption::Json)));
}

void ExplorerView::fitPanelWidth()
{
    keepPanelControlsWhole();
    // Wide enough for the controls' texts too (a combo narrower than its text cuts it).
    growColumn(0, paneWidthFor(m_panelScroll, m_panel->sizeHint().width()));
}

void ExplorerView::keepPanelControlsWhole()
{
    keepPageWhole(m_panelScroll, 320);
}

void ExplorerView::keepFiguresWhole()
{
    // The formula column, whose text wraps, gives way to the figures' page (with the formulas open
    // on a 1280 x 800 projector it cut the page's buttons and cards).
    keepPageWhole(m_figuresScroll);
}

void ExplorerView::fitFormulaWidth()
{
    // At most a third of the page: the charts stay the widest column.
    growColumn(2, std::min(m_formula->preferredWidth(), m_splitter->width() / 3));
}

void ExplorerView::growColumn(int column, int wanted)
{
    QList<int> sizes = m_splitter->sizes();
    if (sizes.size() != 3 || sizes.at(column) >= wanted)
        return;
    // The room comes from the charts, which keep their page's minimum.
    keepFiguresWhole();
    const int room = sizes.at(1) - m_figuresScroll->minimumWidth();
    const int added = std::clamp(wanted - sizes.at(column), 0, std::max(0, room));
    sizes[1] -= added;
    sizes[column] += added;
    m_splitter->setSizes(sizes);
}

bool ExplorerView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_panel && event->type() == QEvent::LayoutRequest)
        keepPanelControlsWhole();
    return QWidget::eventFilter(watched, event);
}

void ExplorerView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::FontChange) {
        // The presentation zoom: the columns grow with their text.
        fitPanelWidth();
        if (formulaPanelShown())
            fitFormulaWidth();
    }
    QWidget::changeEvent(event);
}

} // namespace kvscope
