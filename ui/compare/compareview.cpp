// SPDX-License-Identifier: MIT
#include "ui/compare/compareview.h"

#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/compare/comparechart.h"
#include "core/compare/comparetext.h"
#include "core/plan/expertparallel.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/tensorparallel.h"
#include "core/precision/quantizationlabel.h"
#include "ui/charts/comparebarschart.h"
#include "ui/charts/comparememorychart.h"
#include "ui/compare/comparecolumns.h"
#include "ui/compare/comparisonrunner.h"
#include "ui/state/chartsource.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/userlibrary.h"
#include "ui/style/theme.h"
#include "ui/widgets/elidingcombobox.h"
#include "ui/widgets/legendstrip.h"
#include "ui/widgets/scrollingpane.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// A combo's item holding `data`, added (as its own text) when the list lacks it.
void selectValue(QComboBox *combo, const QString &data)
{
    const QSignalBlocker blocker(combo);
    int index = combo->findData(data);
    if (index < 0) {
        combo->addItem(data, data);
        index = combo->count() - 1;
    }
    combo->setCurrentIndex(index);
}

/// Replaces a combo's choices by `sizes` when they differ (a rebuild would flicker on every plan).
void showSizes(QComboBox *combo, const QList<int> &sizes)
{
    QStringList choices;
    for (const int size : sizes)
        choices << QString::number(size);
    QStringList shown;
    for (int i = 0; i < combo->count(); ++i)
        shown << combo->itemData(i).toString();
    if (shown == choices)
        return;
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (const QString &choice : choices)
        combo->addItem(choice, choice);
}

/// The choices of a knob whose list does not depend on the column (the layout's are set per column
/// in showKnobs(), the drafters' in showDrafterChoices()).
QStringList fixedKnobChoices(ScenarioField knob)
{
    switch (knob) {
    case ScenarioField::Dtype:
        return weightDtypeChoices();
    case ScenarioField::Quantization:
        return quantMethodChoices();
    case ScenarioField::GroupSize:
        return {QStringLiteral("32"), QStringLiteral("64"), QStringLiteral("128"), QStringLiteral("256"),
                QStringLiteral("-1")};
    case ScenarioField::KvCacheDtype:
        return kvCacheDtypeChoices();
    case ScenarioField::EnableExpertParallel:
    case ScenarioField::EnableEplb:
    case ScenarioField::EnableDpAttention:
    case ScenarioField::EnableDpLmHead:
        return {QStringLiteral("false"), QStringLiteral("true")};
    case ScenarioField::MoeDenseTpSize:
        // SGLang's default (the dense MLPs split over every GPU of --tp-size) or 1, the one value it takes
        return {QStringLiteral("auto"), QStringLiteral("1")};
    case ScenarioField::MaxLoras:
        // vLLM's --max-loras ("auto": LoRA off) and the ranks it takes (LoRAConfig, vllm/config/lora.py)
        return {QStringLiteral("auto"), QStringLiteral("1"), QStringLiteral("2"),
                QStringLiteral("4"),    QStringLiteral("8"), QStringLiteral("16")};
    case ScenarioField::MaxLoraRank:
        return {QStringLiteral("8"),   QStringLiteral("16"),  QStringLiteral("32"), QStringLiteral("64"),
                QStringLiteral("128"), QStringLiteral("256"), QStringLiteral("512")};
    case ScenarioField::SharedPrefixLen:
        // a shared system prompt ("auto": none)
        return {QStringLiteral("auto"), QStringLiteral("512"),  QStringLiteral("1024"),
                QStringLiteral("2048"), QStringLiteral("4096"), QStringLiteral("8192"),
                QStringLiteral("16384")};
    default:
        return {};
    }
}

/// What a layout knob the scenario's values leave out stands for: its engine's default ("1", off),
/// empty where the option is not the engine's (vLLM's experts under SGLang, SGLang's attention
/// groups under vLLM).
QString layoutDefault(ScenarioField knob, Engine engine)
{
    if (knob == ScenarioField::PipelineParallelSize || knob == ScenarioField::DataParallelSize)
        return QStringLiteral("1");
    if ((knob == ScenarioField::EnableExpertParallel || knob == ScenarioField::EnableEplb) &&
        engine == Engine::Vllm)
        return QStringLiteral("false");
    if ((knob == ScenarioField::EnableDpAttention || knob == ScenarioField::EnableDpLmHead) &&
        engine == Engine::Sglang)
        return QStringLiteral("false");
    if (knob == ScenarioField::MoeDenseTpSize && engine == Engine::Sglang)
        return QStringLiteral("auto");
    if (knob == ScenarioField::ExpertParallelSize && engine == Engine::Sglang)
        return QStringLiteral("1");
    return {};
}

QIcon swatch(const QColor &color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(color);
    return QIcon(pixmap);
}

} // namespace

CompareView::CompareView(ScenarioController *controller, UserLibrary *library, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_library(library), m_runner(new ComparisonRunner(this)),
      m_addColumn(new QPushButton(this)), m_seed(new QPushButton(this)), m_servingSeed(new QPushButton(this)),
      m_progress(new QProgressBar(this)), m_status(new QLabel(this)), m_hint(new QLabel(this)),
      m_table(new QTableWidget(this)), m_notes(new QLabel(this)), m_caveats(new QLabel(this)),
      m_memoryChart(new CompareMemoryChartView(this)),
      m_speedChart(new CompareBarsChartView(CompareBars::CapacityAndSpeed, this)),
      m_accuracyChart(new CompareBarsChartView(CompareBars::Accuracy, this)),
      m_knobsButton(new QToolButton(this)), m_pageTabs(new QTabBar(this)), m_pages(new QStackedWidget(this))
{
    setObjectName(QStringLiteral("compareView"));
    m_addColumn->setObjectName(QStringLiteral("addColumnButton"));
    m_seed->setObjectName(QStringLiteral("seedPresetButton"));
    m_servingSeed->setObjectName(QStringLiteral("servingFeaturesButton"));
    m_progress->setObjectName(QStringLiteral("compareProgress"));
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_hint->setObjectName(QStringLiteral("compareHint"));
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_notes->setObjectName(QStringLiteral("compareNotes"));
    m_caveats->setObjectName(QStringLiteral("compareAccuracyCaveats"));

    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hint->setWordWrap(true);
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::RichText);
    m_notes->setOpenExternalLinks(true);
    m_notes->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_notes->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_caveats->setWordWrap(true);
    m_caveats->setTextFormat(Qt::RichText);
    m_caveats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caveats->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    m_table->setRowCount(FirstFigureRow);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // A column named by the options it differs in wraps rather than losing its end.
    m_table->horizontalHeader()->setDefaultAlignment(
        Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter | Qt::Alignment(Qt::TextWordWrap)));
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
    m_table->installEventFilter(this);

    m_knobsButton->setObjectName(QStringLiteral("compareKnobsButton"));
    m_knobsButton->setCheckable(true);
    m_knobsButton->setChecked(true);
    m_knobsButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(m_knobsButton, &QToolButton::toggled, this, &CompareView::setKnobsShown);

    // The page tabs and the buttons in one row, a row of height given to the figures.
    m_pageTabs->setObjectName(QStringLiteral("comparePageTabs"));
    m_pageTabs->setDocumentMode(true);
    m_pageTabs->setDrawBase(false);
    m_pageTabs->setExpanding(false);
    auto *toolbar = new QHBoxLayout;
    toolbar->addWidget(m_pageTabs);
    toolbar->addStretch(1);
    toolbar->addWidget(m_progress);
    toolbar->addWidget(m_addColumn);
    toolbar->addWidget(m_seed);
    toolbar->addWidget(m_servingSeed);
    toolbar->addWidget(m_knobsButton);

    // Three pages, each whole on a 1280 x 800 projector: the table as tall as its rows
    // (scrolled only when the window is smaller), memory beside capacity and speed, and
    // accuracy beside its notes.
    auto *figures = new QWidget(this);
    figures->setObjectName(QStringLiteral("compareFigures"));
    auto *figuresLayout = new QVBoxLayout(figures);
    figuresLayout->setContentsMargins(0, 0, 0, 0);
    figuresLayout->addWidget(m_hint);
    figuresLayout->addWidget(m_table);
    figuresLayout->addStretch(1);
    m_figuresScroll = scrollingPane(figures, this);
    m_figuresScroll->setObjectName(QStringLiteral("compareFiguresPage"));

    const auto chartWithLegend = [](QWidget *page, ChartView *chart, const char *legendName) {
        auto *column = new QVBoxLayout;
        column->addWidget(chart, 1);
        column->addWidget(chart->makeLegend(page, QLatin1String(legendName)));
        return column;
    };
    auto *memoryAndSpeed = new QWidget(this);
    memoryAndSpeed->setObjectName(QStringLiteral("compareChartsPage"));
    auto *memoryAndSpeedLayout = new QHBoxLayout(memoryAndSpeed);
    memoryAndSpeedLayout->setContentsMargins(0, 0, 0, 0);
    memoryAndSpeedLayout->addLayout(chartWithLegend(memoryAndSpeed, m_memoryChart, "compareMemoryLegend"), 1);
    memoryAndSpeedLayout->addLayout(chartWithLegend(memoryAndSpeed, m_speedChart, "compareSpeedLegend"), 1);

    // Accuracy's bars beside the notes on what they were simulated on (scrolled when long).
    auto *accuracy = new QWidget(this);
    accuracy->setObjectName(QStringLiteral("compareAccuracyPage"));
    auto *accuracyLayout = new QHBoxLayout(accuracy);
    accuracyLayout->setContentsMargins(0, 0, 0, 0);
    accuracyLayout->addLayout(chartWithLegend(accuracy, m_accuracyChart, "compareAccuracyLegend"), 1);
    // What the accuracy figures assume first, then what they were simulated on: without the
    // caveats "17.14 dB" cannot be read. Beside the chart, so the chart keeps its height.
    auto *notesColumn = new QWidget(accuracy);
    auto *notesLayout = new QVBoxLayout(notesColumn);
    notesLayout->setContentsMargins(0, 0, 0, 0);
    notesLayout->addWidget(m_caveats);
    notesLayout->addWidget(m_notes, 1);
    QScrollArea *notesScroll = scrollingPane(notesColumn, accuracy);
    notesScroll->setObjectName(QStringLiteral("compareNotesScroll"));
    accuracyLayout->addWidget(notesScroll, 1);

    m_pages->setObjectName(QStringLiteral("comparePages"));
    for (QWidget *page : {static_cast<QWidget *>(m_figuresScroll), memoryAndSpeed, accuracy}) {
        m_pages->addWidget(page);
        m_pageTabs->addTab(QString());
    }
    connect(m_pageTabs, &QTabBar::currentChanged, m_pages, &QStackedWidget::setCurrentIndex);
    connect(m_pages, &QStackedWidget::currentChanged, m_pageTabs, &QTabBar::setCurrentIndex);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 0); // the figures get every row of height a projector has
    layout->setSpacing(2);
    layout->addLayout(toolbar);
    layout->addWidget(m_status); // hidden while it has nothing to say
    layout->addWidget(m_pages, 1);

    connect(m_addColumn, &QPushButton::clicked, this, &CompareView::addColumn);
    connect(m_seed, &QPushButton::clicked, this, &CompareView::seedQuestion);
    connect(m_servingSeed, &QPushButton::clicked, this, &CompareView::seedServingFeatures);
    connect(m_controller, &ScenarioController::scenarioChanged, this, [this] {
        if (m_seeded)
            seedColumns(); // the seed question of the scenario as it is now
        // A hidden tab's knobs wait for it to be shown: the explorer's slider steps
        // would otherwise rebuild them on every step (a tenth of a step's time).
        if (isVisible())
            showKnobs();
        else
            m_knobsDue = true;
        recompute();
    });
    connect(m_runner, &ComparisonRunner::progressChanged, m_progress, &QProgressBar::setValue);
    connect(m_runner, &ComparisonRunner::runningChanged, m_progress, &QWidget::setVisible);
    connect(m_runner, &ComparisonRunner::finished, this, [this](const Comparison &comparison) {
        m_comparison = comparison;
        m_current = true;
        showStatus(QString());
        // An exception out of a slot ends the program: a figure the table or a
        // chart cannot show is said as a failed comparison is.
        try {
            showComparison();
        } catch (const Error &error) {
            m_comparison.reset();
            m_current = false;
            clearFigures();
            showStatus(error.message(), true);
            return;
        }
        Q_EMIT comparisonShown();
    });
    connect(m_runner, &ComparisonRunner::failed, this,
            [this](const QString &message) { showStatus(message, true); });
    m_memoryChart->setCatalogueName(QStringLiteral("compare-memory"));
    m_speedChart->setCatalogueName(QStringLiteral("compare-speed"));
    m_accuracyChart->setCatalogueName(QStringLiteral("compare-accuracy"));

    retranslate();
    seedColumns();
    rebuildKnobs();
    clearFigures();
}

void CompareView::setColumns(const QList<ScenarioValues> &columns)
{
    m_columns = columns.mid(0, MaxComparisonColumns);
    if (m_columns.isEmpty())
        seedColumns();
    else
        m_seeded = false;
    m_current = false;
    rebuildKnobs();
    recompute();
}

void CompareView::seedColumns()
{
    try {
        m_columns = seedColumnValues(m_controller->scenario());
        m_seeded = true;
    } catch (const Error &error) {
        m_columns.clear();
        m_seeded = false;
        showStatus(error.message(), true);
    }
}

std::optional<Comparison> CompareView::currentComparison() const
{
    return m_current ? m_comparison : std::nullopt;
}

bool CompareView::isBusy() const
{
    return m_runner->isRunning() || m_due;
}

ChartSource CompareView::chartSource() const
{
    ChartSource source;
    source.scenario = m_controller->scenario();
    source.plan = m_controller->plan();
    source.comparison = m_comparison;
    return source;
}

void CompareView::addColumn()
{
    if (m_columns.size() >= MaxComparisonColumns)
        return;
    const Scenario &base = m_controller->scenario();
    m_columns << columnValues(base, base);
    columnsEdited();
}

void CompareView::seedQuestion()
{
    seedWith(seedColumnValues);
}

void CompareView::seedServingFeatures()
{
    seedWith(servingFeatureColumnValues);
}

void CompareView::seedWith(QList<ScenarioValues> (*preset)(const Scenario &))
{
    try {
        m_columns = preset(m_controller->scenario());
    } catch (const Error &error) {
        showStatus(error.message(), true);
        return;
    }
    columnsEdited();
}

void CompareView::removeColumn(int column)
{
    if (column < 0 || column >= m_columns.size())
        return;
    m_columns.removeAt(column);
    columnsEdited();
}

bool CompareView::setColumnValue(int column, ScenarioField option, const QString &value)
{
    if (column < 0 || column >= m_columns.size())
        return false;
    const Scenario &base = m_controller->scenario();
    const ScenarioResolvers resolvers = m_library->resolvers();
    try {
        const Scenario scenario = applyValues(base, m_columns.at(column), resolvers);
        const Scenario changed = applyValues(scenario, ScenarioValues{{fileKey(option), value}}, resolvers);
        planMemory(changed); // what the planner refuses (a prefix as long as the sequence) is refused here
        m_columns[column] = columnValues(base, changed);
    } catch (const Error &error) {
        showStatus(tr("Column %1: %2").arg(column + 1).arg(error.message()), true);
        showKnobs();
        return false;
    }
    columnsEdited();
    return true;
}

void CompareView::columnsEdited()
{
    m_seeded = false;
    rebuildKnobs();
    Q_EMIT columnsChanged(m_columns);
    recompute();
}

void CompareView::recompute()
{
    m_current = false;
    m_due = false;
    m_addColumn->setEnabled(m_columns.size() < MaxComparisonColumns);
    m_hint->setVisible(m_columns.size() < 2);
    if (m_columns.size() < 2) {
        m_runner->cancel();
        m_comparison.reset();
        clearFigures();
        showStatus(QString());
        return;
    }
    if (!isVisible()) {
        m_due = true;
        return;
    }
    QList<Scenario> scenarios;
    try {
        scenarios = columnScenarios(m_controller->scenario(), m_columns, m_library->resolvers());
    } catch (const Error &error) {
        m_runner->cancel();
        showStatus(error.message(), true);
        return;
    }
    // A table of another column count cannot stand for the new one.
    if (m_comparison && m_comparison->columns.size() != scenarios.size()) {
        m_comparison.reset();
        clearFigures();
    }
    showStatus(tr("Comparing…"));
    m_runner->start(labelledColumns(scenarios));
}

void CompareView::rebuildKnobs()
{
    const int columns = int(m_columns.size());
    if (m_table->columnCount() != columns || m_knobs.size() != qsizetype(columns) * KnobRows) {
        m_knobs.clear();
        m_table->setColumnCount(columns);
        for (int c = 0; c < columns; ++c) {
            for (int k = 0; k < KnobRows; ++k) {
                auto *combo =
                    new ElidingComboBox(m_table); // a drafter's repository id is longer than a column
                const ScenarioField knob = columnKnobs().at(k);
                combo->setObjectName(QStringLiteral("%1Combo%2").arg(fileKey(knob)).arg(c));
                for (const QString &choice : fixedKnobChoices(knob))
                    combo->addItem(choice, choice);
                connect(combo, &QComboBox::activated, this,
                        [this, c, knob, combo] { setColumnValue(c, knob, combo->currentData().toString()); });
                m_table->setCellWidget(k, c, combo);
                m_knobs << combo;
            }
            auto *remove = new QPushButton(tr("Remove"), m_table);
            remove->setObjectName(QStringLiteral("removeColumnButton%1").arg(c));
            connect(remove, &QPushButton::clicked, this, [this, c] { removeColumn(c); });
            m_table->setCellWidget(RemoveRow, c, remove);
        }
        retranslate();
    }
    showKnobs();
    fitTableHeight();
}

void CompareView::showKnobs()
{
    // Seeded again for another model, the columns can be fewer or more (an MXFP4
    // checkpoint's seed question has two): the table's knob columns follow them.
    if (m_table->columnCount() != m_columns.size()) {
        rebuildKnobs(); // which shows them
        return;
    }
    m_knobsDue = false;
    labelKnobRows();
    const Scenario &base = m_controller->scenario();
    const ScenarioResolvers resolvers = m_library->resolvers();
    for (int c = 0; c < m_columns.size(); ++c) {
        ScenarioValues values;
        std::optional<MemoryPlan> plan; // what "auto" resolves to
        Scenario column = base;         // the layout's choices are the column's model's and engine's
        try {
            column = applyValues(base, m_columns.at(c), resolvers);
            values = scenarioToValues(column);
            // As kept: with "none" where the column has no drafter (columnValues()).
            values.insert(columnValues(base, column));
            plan = planMemory(column);
        } catch (const Error &) {
            if (values.isEmpty())
                values = m_columns.at(c); // shown as kept; recompute() says what is wrong
        }
        for (int k = 0; k < KnobRows; ++k) {
            QComboBox *combo = m_knobs.value(c * KnobRows + k);
            if (!combo)
                continue;
            const ScenarioField knob = columnKnobs().at(k);
            const QString key = fileKey(knob);
            if (isLayoutKnob(knob) && !values.contains(key) && !layoutDefault(knob, column.engine).isEmpty())
                values.insert(key, layoutDefault(knob, column.engine));
            combo->setEnabled(values.contains(key));
            if (knob == ScenarioField::TensorParallelSize)
                showSizes(combo, validTensorParallelSizes(column.model));
            else if (knob == ScenarioField::PipelineParallelSize)
                showSizes(combo, validPipelineParallelSizes(column.model, column.engine));
            else if (knob == ScenarioField::DataParallelSize)
                showSizes(combo, validDataParallelSizes(column));
            else if (knob == ScenarioField::ExpertParallelSize)
                showSizes(combo, validExpertParallelSizes(column));
            // Expert parallelism needs routed experts; the data-parallel box needs a choice.
            if ((knob == ScenarioField::EnableExpertParallel || knob == ScenarioField::EnableEplb) &&
                !column.model.moe.enabled() && values.value(key) == QLatin1String("false"))
                combo->setEnabled(false);
            if ((knob == ScenarioField::DataParallelSize || knob == ScenarioField::ExpertParallelSize) &&
                combo->count() < 2 && values.value(key) == QLatin1String("1"))
                combo->setEnabled(false);
            // SGLang's LM-head and dense-MLP splits act on attention groups only.
            if ((knob == ScenarioField::EnableDpLmHead || knob == ScenarioField::MoeDenseTpSize) &&
                !sglangDpAttention(column) && values.value(key) == layoutDefault(knob, column.engine))
                combo->setEnabled(false);
            const int automatic = combo->findData(QStringLiteral("auto"));
            if (knob == ScenarioField::Quantization) {
                for (int i = 0; i < combo->count(); ++i)
                    combo->setItemText(i, quantizationChoiceLabel(combo->itemData(i).toString(),
                                                                  base.model.checkpointQuantization.method));
            } else if (knob == ScenarioField::SpeculativeConfig) {
                showDrafterChoices(combo, base);
            } else if (automatic >= 0 && plan &&
                       (knob == ScenarioField::Dtype || knob == ScenarioField::KvCacheDtype)) {
                combo->setItemText(automatic,
                                   tr("auto (%1)")
                                       .arg(knob == ScenarioField::Dtype ? dtypeName(plan->dtype)
                                                                         : dtypeName(plan->kvCacheDtype)));
            }
            if (values.contains(key)) {
                selectValue(combo, values.value(key));
            } else {
                const QSignalBlocker blocker(combo);
                combo->setCurrentIndex(-1); // blank: the knob does not apply
            }
        }
    }
}

/// The drafters a column can take on the explorer's model (off, its EAGLE drafts, MTP, n-gram), each
/// as its option value; with as many drafts a step as the explorer's drafter, else 3.
void CompareView::showDrafterChoices(QComboBox *combo, const Scenario &base)
{
    const QSignalBlocker blocker(combo);
    const std::int64_t drafts = base.speculative.enabled() ? base.speculative.numSpeculativeTokens : 3;
    combo->clear();
    combo->addItem(speculativeChoiceLabel({}), QStringLiteral("none"));
    for (const SpeculativeConfig &choice : speculativeChoices(base, drafts))
        combo->addItem(speculativeChoiceLabel(choice), speculativeConfigText(choice));
}

void CompareView::clearFigures()
{
    m_table->setRowCount(FirstFigureRow);
    for (int c = 0; c < m_table->columnCount(); ++c)
        m_table->setHorizontalHeaderItem(c, new QTableWidgetItem(tr("Column %1").arg(c + 1)));
    m_memoryChart->showComparison({});
    m_speedChart->showComparison({});
    m_accuracyChart->showComparison({});
    m_notes->clear();
    m_caveats->clear();
    fitTableHeight();
}

void CompareView::showEngineKnobRows()
{
    const Engine engine = m_controller->scenario().engine;
    for (int k = 0; k < KnobRows; ++k)
        m_table->setRowHidden(k, !m_knobsButton->isChecked() || !knobAppliesTo(columnKnobs().at(k), engine));
}

void CompareView::setKnobsShown(bool shown)
{
    m_knobsButton->setChecked(shown); // the button and the rows say the same
    showEngineKnobRows();
    m_table->setRowHidden(RemoveRow, !shown);
    // The output rows fold with the knobs: presented, the accuracy page's chart shows them.
    if (m_comparison)
        for (int r = 0; r < m_comparison->rows.size() && FirstFigureRow + r < m_table->rowCount(); ++r)
            if (isDetailRow(m_comparison->rows.at(r).id))
                m_table->setRowHidden(FirstFigureRow + r, !shown);
    fitTableHeight();
}

bool CompareView::isDetailRow(CompareRowId id)
{
    return id == CompareRowId::LayerOutputSqnrDb || id == CompareRowId::AttentionOutputSqnrDb;
}

void CompareView::fitTableHeight()
{
    // The column headers as tall as their wrapped labels (QHeaderView sizes them for one line).
    QHeaderView *header = m_table->horizontalHeader();
    const QFontMetrics metrics(header->font());
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int icon = header->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, header) + margin;
    int labelHeight = metrics.height();
    for (int c = 0; c < m_table->columnCount(); ++c)
        if (const QTableWidgetItem *item = m_table->horizontalHeaderItem(c)) {
            const int width = header->sectionSize(c) - 2 * margin - (item->icon().isNull() ? 0 : icon);
            labelHeight = std::max(
                labelHeight,
                metrics.boundingRect(QRect(0, 0, std::max(width, 1), 1 << 16), Qt::TextWordWrap, item->text())
                    .height());
        }
    header->setFixedHeight(labelHeight + 2 * margin);
    m_table->resizeRowsToContents();
    int height = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (!m_table->isRowHidden(r))
            height += m_table->rowHeight(r);
    m_table->setFixedHeight(height);
}

bool CompareView::eventFilter(QObject *watched, QEvent *event)
{
    // A new width wraps the cells anew.
    if (watched == m_table && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, &CompareView::fitTableHeight);
    return QWidget::eventFilter(watched, event);
}

void CompareView::showComparison()
{
    if (!m_comparison)
        return;
    const Comparison &comparison = *m_comparison;
    const QLocale locale;
    for (int c = 0; c < comparison.columns.size() && c < m_table->columnCount(); ++c) {
        // A wrapped label breaks between options, not inside "--max-lora-rank": its hyphens are
        // non-breaking on screen (the tooltip keeps the label as it is typed).
        const QString &label = comparison.columns.at(c).label;
        auto *header = new QTableWidgetItem(swatch(theme::columnColor(c, palette())),
                                            QString(label).replace(u'-', QChar(0x2011)));
        header->setToolTip(label);
        m_table->setHorizontalHeaderItem(c, header);
    }
    m_table->setRowCount(FirstFigureRow + int(comparison.rows.size()));
    for (int r = 0; r < comparison.rows.size(); ++r) {
        const CompareRow &row = comparison.rows.at(r);
        auto *label = new QTableWidgetItem(CompareText::rowLabel(row.id));
        label->setToolTip(CompareText::rowToolTip(row.id));
        m_table->setVerticalHeaderItem(FirstFigureRow + r, label);
        for (int c = 0; c < row.cells.size() && c < m_table->columnCount(); ++c) {
            const CompareCell &cell = row.cells.at(c);
            QString text = CompareText::cell(row, cell, locale);
            const QString delta = c > 0 ? CompareText::delta(row, cell, locale) : QString();
            if (!delta.isEmpty())
                text += QLatin1Char('\n') + delta;
            // The verdict says why (and a figure what qualifies it); the figures it blanks say it on hover.
            if (const QString under = CompareText::note(row, cell); !under.isEmpty())
                text += QLatin1Char('\n') + under;
            auto *item = new QTableWidgetItem(text);
            item->setData(ValueRole, cell.value ? QVariant(*cell.value) : QVariant());
            item->setToolTip(cell.reason.isEmpty() ? CompareText::rowToolTip(row.id) : cell.reason);
            if (row.id == CompareRowId::Runs && cell.text != QLatin1String("fits"))
                item->setForeground(theme::warningColor(palette()));
            if (row.best.contains(c)) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
                item->setBackground(theme::bestTint(palette()));
            }
            m_table->setItem(FirstFigureRow + r, c, item);
        }
        m_table->setRowHidden(FirstFigureRow + r, isDetailRow(row.id) && !m_knobsButton->isChecked());
    }
    fitTableHeight();
    m_memoryChart->showComparison(compareMemoryChartData(comparison));
    m_speedChart->showComparison(compareSpeedChartData(comparison));
    m_accuracyChart->showComparison(compareAccuracyChartData(comparison));
    m_notes->setText(notesText());
    m_caveats->setText(caveatsText());
}

QString CompareView::caveatsText() const
{
    if (!m_comparison)
        return {};
    QStringList lines{tr("<b>Accuracy</b>: %1.").arg(CompareText::accuracyCaveat().toHtmlEscaped())};
    for (const AccuracyCaveat &caveat : CompareText::accuracyCaveats(*m_comparison))
        lines << (caveat.columns.isEmpty()
                      ? caveat.text.toHtmlEscaped()
                      : tr("<b>%1</b>: %2")
                            .arg(caveat.columns.join(QStringLiteral(" · ")).toHtmlEscaped(),
                                 caveat.text.toHtmlEscaped()));
    return lines.join(QStringLiteral("<br>"));
}

QString CompareView::notesText() const
{
    if (!m_comparison)
        return {};
    // What the accuracy rows were simulated on, each once, and the published results for the formats.
    QStringList simulated;
    QStringList sameFamily, published, unpublished;
    for (const ComparedColumn &c : m_comparison->columns) {
        CompareText::addSimulatedOn(simulated, c.accuracy);
        for (const QString &format : c.unpublishedFormats)
            if (!unpublished.contains(format))
                unpublished << format;
        for (const PublishedResult &r : c.published) {
            const QString line =
                (r.sameFamily ? tr("<i>same family</i> ") : QString()) +
                tr("%1 — %2, %3: %4 %5 → %6 %7 (%8; <a href=\"%9\">source</a>)")
                    .arg(r.format.toHtmlEscaped(), r.model.toHtmlEscaped(), r.benchmark.toHtmlEscaped(),
                         r.baselineLabel.toHtmlEscaped(), publishedValueText(r.baseline),
                         r.quantizedLabel.toHtmlEscaped(), publishedValueText(r.quantized),
                         publishedChangeText(r).toHtmlEscaped(), r.source.toHtmlEscaped());
            QStringList &list = r.sameFamily ? sameFamily : published;
            if (!list.contains(line))
                list << line;
        }
    }
    published = sameFamily + published;
    QString text = tr("<b>Accuracy</b> simulated on:") + QStringLiteral("<br>") +
                   simulated.join(QStringLiteral("\n"))
                       .toHtmlEscaped()
                       .replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (!published.isEmpty())
        text += QStringLiteral("<br><b>") +
                tr("Published results for these formats (the model's family first)") +
                QStringLiteral("</b><br>") + published.join(QStringLiteral("<br>"));
    if (!unpublished.isEmpty())
        text += QStringLiteral("<br>") + tr("No published result measures: %1")
                                             .arg(unpublished.join(QStringLiteral(", ")).toHtmlEscaped());
    return text;
}

void CompareView::showStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
    QPalette pal = palette();
    pal.setColor(QPalette::WindowText,
                 error ? theme::warningColor(palette()) : theme::mutedTextColor(palette()));
    m_status->setPalette(pal);
}

void CompareView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_knobsDue)
        showKnobs();
    if (m_due)
        recompute();
}

void CompareView::labelKnobRows(bool always)
{
    // In the explorer's engine's own spelling (SGLang's --max-loras-per-batch).
    const Engine engine = m_controller->scenario().engine;
    if (!always && m_knobRowsEngine == engine)
        return;
    m_knobRowsEngine = engine;
    const auto knobLabel = [engine](ScenarioField knob) {
        switch (knob) {
        case ScenarioField::Dtype:
            return tr("Weights (%1)").arg(optionFlag(knob, engine));
        case ScenarioField::Quantization:
            return tr("Quantization");
        case ScenarioField::GroupSize:
            return tr("Group size");
        case ScenarioField::KvCacheDtype:
            return tr("KV cache (%1)").arg(optionFlag(knob, engine));
        case ScenarioField::MaxLoras:
            return tr("LoRA slots (%1)").arg(optionFlag(knob, engine));
        case ScenarioField::MaxLoraRank:
            return tr("LoRA rank (%1)").arg(optionFlag(knob, engine));
        case ScenarioField::SharedPrefixLen:
            return tr("Shared prefix (%1)").arg(optionFlag(knob, engine));
        default:
            return fieldLabel(knob); // the layout's and the drafter's, as the explorer words them
        }
    };
    for (int k = 0; k < KnobRows; ++k) {
        const ScenarioField knob = columnKnobs().at(k);
        auto *header = new QTableWidgetItem(knobLabel(knob));
        header->setToolTip(optionFlag(knob, engine));
        m_table->setVerticalHeaderItem(k, header);
    }
    showEngineKnobRows();
}

void CompareView::retranslate()
{
    m_addColumn->setText(tr("Add column"));
    m_addColumn->setToolTip(tr("Add a column with the explorer's scenario as it is; then change its knobs."));
    m_seed->setText(tr("Seed question: BF16 / AWQ INT4 × BF16 / FP8 KV"));
    m_seed->setToolTip(tr("Four columns on the explorer's model, GPU and workload: BF16 weights + BF16 KV · "
                          "BF16 + FP8 KV · AWQ INT4 + 16-bit KV · AWQ INT4 + FP8 KV."));
    m_servingSeed->setText(tr("Serving features"));
    m_servingSeed->setToolTip(tr("Columns on the explorer's model, GPU, precisions and workload: the bare "
                                 "deployment, then each feature alone: its speculative drafter (%1 drafts a "
                                 "step) · %2 LoRA slots of rank %3 · a system prompt of half the sequence "
                                 "shared by every request.")
                                  .arg(ServingFeatureDrafts)
                                  .arg(ServingFeatureLoraSlots)
                                  .arg(ServingFeatureLoraRank));
    m_knobsButton->setText(tr("Edit columns"));
    m_knobsButton->setToolTip(tr("Show or fold the rows that set each column's weights, quantization, KV "
                                 "cache, GPUs and ranks, drafter, LoRA slots and shared prefix."));
    m_pageTabs->setTabText(0, tr("Table"));
    m_pageTabs->setTabText(1, tr("Memory and speed"));
    m_pageTabs->setTabText(2, tr("Accuracy"));
    m_hint->setText(tr("Compare 2 to 4 precisions of the explorer's scenario side by side: add columns and "
                       "change their knobs, or start from the seed question."));
    labelKnobRows(true);
    m_table->setVerticalHeaderItem(RemoveRow, new QTableWidgetItem(QString()));
    for (int c = 0; c < m_columns.size(); ++c) {
        // The knobs' words for their special values.
        const auto name = [&](ScenarioField knob, const char *value, const QString &text) {
            if (QComboBox *combo = m_knobs.value(qsizetype(c) * KnobRows + columnKnobs().indexOf(knob)))
                combo->setItemText(combo->findData(QLatin1String(value)), text);
        };
        name(ScenarioField::GroupSize, "-1", tr("per row"));
        name(ScenarioField::MaxLoras, "auto", tr("off"));
        name(ScenarioField::SharedPrefixLen, "auto", tr("none"));
        name(ScenarioField::EnableExpertParallel, "false", tr("off"));
        name(ScenarioField::EnableExpertParallel, "true", tr("on"));
        name(ScenarioField::EnableEplb, "false", tr("off"));
        name(ScenarioField::EnableEplb, "true", tr("on"));
        name(ScenarioField::EnableDpAttention, "false", tr("off"));
        name(ScenarioField::EnableDpAttention, "true", tr("on"));
        name(ScenarioField::EnableDpLmHead, "false", tr("off"));
        name(ScenarioField::EnableDpLmHead, "true", tr("on"));
        name(ScenarioField::MoeDenseTpSize, "auto", tr("over all GPUs"));
        if (auto *remove = qobject_cast<QPushButton *>(m_table->cellWidget(RemoveRow, c)))
            remove->setText(tr("Remove"));
    }
    if (m_comparison)
        showComparison();
    else
        clearFigures();
}

void CompareView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange && m_comparison)
        showComparison();
    QWidget::changeEvent(event);
}

} // namespace kvscope
