// SPDX-License-Identifier: MIT
#include "ui/window/mainwindow.h"

#include "core/analysis/fit.h"
#include "core/analysis/growth.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/model/modelimport.h"
#include "core/plan/planner.h"
#include "core/scenario/scenariovalues.h"
#include "ui/compare/compareview.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/parameterpanel.h"
#include "ui/explorer/scenariostrip.h"
#include "ui/export/chartactions.h"
#include "ui/export/chartcatalogue.h"
#include "ui/export/exportdialog.h"
#include "ui/fit/fitdialog.h"
#include "ui/library/customgpudialog.h"
#include "ui/library/pasteconfigdialog.h"
#include "ui/quantization/quantizationview.h"
#include "ui/state/appsettings.h"
#include "ui/state/modelimporter.h"
#include "ui/state/quantsettings.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/scenariosession.h"
#include "ui/state/settingkeys.h"
#include "ui/state/translations.h"
#include "ui/state/userlibrary.h"
#include "ui/style/theme.h"
#include "ui/widgets/logsliderbox.h"
#include "ui/widgets/wrappedtooltips.h"

#include <algorithm>
#include <utility>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QShortcut>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

namespace kvscope {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_library(new UserLibrary(this)), m_importer(new ModelImporter(this)),
      m_controller(new ScenarioController(this)), m_tabs(new QTabWidget(this)),
      m_quantizationTab(new QWidget(this)), m_units(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/kvscope.svg")));
    QCoreApplication::instance()->installEventFilter(new WrappedToolTips(this));
    settings::SettingsReader saved;
    translations::apply(appsettings::language(saved)); // before any widget sets its texts
    m_library->load(saved);
    restoreScenario(saved); // before the views exist, so they start from the restored scenario
    m_explorer = new ExplorerView(m_controller, m_library, this);
    setAcceptDrops(true);
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_explorer, QString());
    // The simulator starts working when it is created: not until its tab is first shown.
    m_quantizationTab->setObjectName(QStringLiteral("quantizationTab"));
    new QVBoxLayout(m_quantizationTab);
    m_quantizationTab->layout()->setContentsMargins(0, 0, 0, 0);
    m_tabs->addTab(m_quantizationTab, QString());
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (m_tabs->widget(index) == m_quantizationTab)
            quantization();
    });
    m_compare = new CompareView(m_controller, m_library, this);
    m_tabs->addTab(m_compare, QString());
    makeChartsExportable(m_explorer, [this] { return m_explorer->chartSource(); });
    makeChartsExportable(m_compare, [this] { return m_compare->chartSource(); });
    setCentralWidget(m_tabs);
    statusBar()->addPermanentWidget(m_units);

    connect(m_controller, &ScenarioController::errorOccurred, this, &MainWindow::showError);
    connect(m_explorer, &ExplorerView::errorOccurred, this, &MainWindow::showError);
    connect(m_explorer->parameterPanel(), &ParameterPanel::customGpuRequested, this,
            &MainWindow::addCustomGpu);
    connect(m_importer, &ModelImporter::started, this,
            [this](const QString &path) { statusBar()->showMessage(tr("Importing %1…").arg(path)); });
    connect(m_importer, &ModelImporter::imported, this, [this](const ImportedModel &imported) {
        if (addImported(imported))
            statusBar()->showMessage(
                tr("Imported %1 (%2)").arg(imported.model.name, importKindName(imported.kind)), 8'000);
    });
    connect(m_importer, &ModelImporter::failed, this, &MainWindow::refuseImport);
    connect(m_library, &UserLibrary::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    connect(m_library, &UserLibrary::storedModelImported, this, &MainWindow::storedModelImported);
    connect(m_library, &UserLibrary::storedModelDropped, this, &MainWindow::storedModelDropped);
    // Slow is not broken: the saved scenario waits for the model (storedModelImported()).
    connect(m_library, &UserLibrary::storedModelSlow, this,
            [this](const QString &, const QString &problem) { reportRestoreProblems({problem}); });
    connect(m_controller, &ScenarioController::scenarioChanged, this, &MainWindow::updateTitle);
    // A scenario from the command line is the user's to keep only once they change it.
    connect(m_controller, &ScenarioController::scenarioChanged, this, [this](const Scenario &scenario) {
        if (m_keepSavedScenario && !(scenario == m_openedScenario))
            m_keepSavedScenario = false;
    });
    connect(m_explorer->scenarioStrip(), &ScenarioStrip::scenariosChanged, this,
            [this] { appsettings::saveScenarioStrip(m_explorer->scenarioStrip()->scenarios()); });

    // The scenario file: the Quantization view's settings go through the view
    // once it exists, through QSettings before.
    ScenarioSession::QuantizationAccess quantization{[this]() -> QuantSettings {
                                                         if (m_quantization)
                                                             return m_quantization->settings();
                                                         settings::SettingsReader saved;
                                                         return quantsettings::load(saved);
                                                     },
                                                     [this](const QuantSettings &s) {
                                                         if (m_quantization)
                                                             m_quantization->applySettings(s);
                                                         else
                                                             quantsettings::save(s);
                                                     }};
    m_session = new ScenarioSession(m_controller, m_library, quantization, this);
    connect(m_controller, &ScenarioController::scenarioChanged, m_session, &ScenarioSession::refresh);
    connect(m_controller, &ScenarioController::growthAxisChanged, m_session, &ScenarioSession::refresh);
    connect(m_controller, &ScenarioController::growthScaleChanged, m_session, &ScenarioSession::refresh);
    connect(m_controller, &ScenarioController::counterfactualsChanged, m_session, &ScenarioSession::refresh);
    connect(m_session, &ScenarioSession::stateChanged, this, &MainWindow::updateTitle);
    // The comparison's columns are the session's (saved with the file) and the view's.
    connect(m_compare, &CompareView::columnsChanged, m_session, &ScenarioSession::setComparison);
    connect(m_session, &ScenarioSession::comparisonOpened, m_compare, &CompareView::setColumns);
    m_prompt = [](QWidget *parent, const QString &file) {
        return QMessageBox::question(
            parent, tr("Unsaved changes"), tr("The scenario differs from %1. Save the changes?").arg(file),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };

    createMenus();
    createShortcuts();
    retranslate();
    updateTitle();

    restoreComparison(saved);
    restoreWindowState(saved);
    reportRestoreProblems(saved.problems());
}

MainWindow::~MainWindow() = default;

bool MainWindow::showView(const QString &name)
{
    if (name == QLatin1String("explorer"))
        m_tabs->setCurrentWidget(m_explorer);
    else if (name == QLatin1String("quantization"))
        m_tabs->setCurrentWidget(m_quantizationTab);
    else if (name == QLatin1String("fit"))
        showFitDialog();
    else if (name == QLatin1String("compare"))
        m_tabs->setCurrentWidget(m_compare);
    else
        return false;
    return true;
}

QuantizationView *MainWindow::quantization()
{
    if (!m_quantization) {
        m_quantization = new QuantizationView(m_quantizationTab);
        m_quantizationTab->layout()->addWidget(m_quantization);
        makeChartsExportable(m_quantization, [this] { return m_quantization->chartSource(); });
        connect(m_quantization, &QuantizationView::settingsChanged, m_session, &ScenarioSession::refresh);
        connect(m_quantization, &QuantizationView::scenarioRequested, this,
                [this] { m_quantization->takeScenario(m_controller->scenario(), m_controller->plan()); });
        reportRestoreProblems(m_quantization->restoreProblems());
    }
    return m_quantization;
}

void MainWindow::restoreScenario(settings::SettingsReader &saved)
{
    RestoredState state = appsettings::loadScenario(saved, *m_library);
    if (!state.pendingModel.isEmpty()) {
        // Until the saved model arrives: the saved values with the default
        // model if they fit it, else the default scenario (said once it arrives).
        const RestoredState saved = state;
        appsettings::checkWhole(state);
        m_pendingRestore = PendingRestore{saved, state.scenario};
    }
    m_controller->setScenario(state.scenario);
    m_controller->setGrowthAxis(state.growthAxis);
    m_controller->setGrowthScale(state.growthScale);
    m_controller->setCounterfactuals(state.counterfactuals);
}

void MainWindow::storedModelImported(const QString &key)
{
    if (!m_pendingRestore || m_pendingRestore->saved.pendingModel != key)
        return;
    const PendingRestore pending = *std::exchange(m_pendingRestore, std::nullopt);
    RestoredState restored = pending.saved;
    const ModelArch *model = m_library->findModel(key);
    // What the user (or a scenario file) changed meanwhile stays.
    if (!model || !differingValues(pending.shown, m_controller->scenario()).isEmpty())
        return;
    restored.scenario.model = *model;
    restored.pendingModel.clear();
    if (const std::optional<QString> problem = appsettings::checkWhole(restored))
        reportRestoreProblems({*problem});
    m_controller->setScenario(restored.scenario);
}

void MainWindow::storedModelDropped(const QString &key, const QString &problem)
{
    if (m_pendingRestore && m_pendingRestore->saved.pendingModel == key)
        m_pendingRestore.reset(); // the default model stays
    reportRestoreProblems({problem});
}

void MainWindow::restoreComparison(settings::SettingsReader &saved)
{
    const QList<ScenarioValues> columns =
        appsettings::loadComparison(saved, m_controller->scenario(), *m_library);
    m_session->setComparison(columns);
    m_compare->setColumns(columns);
}

void MainWindow::restoreWindowState(settings::SettingsReader &saved)
{
    const settings::WindowKeys &k = settings::windowKeys();
    saved.read(k.geometry, [this](const QByteArray &geometry) {
        if (geometry.isEmpty())
            resize(1280, 720);
        else if (!restoreGeometry(geometry))
            throw Error(QStringLiteral("not a window geometry"));
    });
    saved.read(k.explorerSplitter, [this](const QByteArray &state) {
        if (!state.isEmpty() && !m_explorer->splitter()->restoreState(state))
            throw Error(QStringLiteral("not a splitter state"));
    });
    m_tabs->setCurrentIndex(saved.read(k.tab, [this](int tab) {
        if (tab >= m_tabs->count())
            throw Error(QStringLiteral("there are %1 tabs").arg(m_tabs->count()));
        return tab;
    }));
    m_explorer->setFormulaPanelShown(saved.read(k.formulaPanel));
    m_zoom = saved.read(k.presentationZoom);
    ScenarioStrip *strip = m_explorer->scenarioStrip();
    strip->setScenarios(appsettings::loadScenarioStrip(saved, *m_library));
    strip->showCurrent(m_controller->scenario());
}

void MainWindow::reportRestoreProblems(const QStringList &problems)
{
    if (problems.isEmpty())
        return;
    m_restoreProblems << problems;
    for (const QString &problem : problems)
        qWarning("kvscope: settings: %s", qPrintable(problem));
    statusBar()->showMessage(
        tr("Some settings were not restored: %1").arg(m_restoreProblems.join(QStringLiteral("; "))), 15'000);
}

void MainWindow::showCommandLineScenario(const Scenario &scenario)
{
    Scenario s = scenario;
    planMemory(s); // refused here, before the window shows anything of it
    if (!m_library->findModel(s.model.id)) {
        // A model file joins the library, as File → Open does, so the picker shows it.
        const QString key = m_library->addImported(importModel(s.model.source));
        s.model = *m_library->findModel(key);
    }
    m_controller->setScenario(s);
    m_openedScenario = m_controller->scenario();
    m_keepSavedScenario = true;
    m_explorer->scenarioStrip()->showCurrent(m_openedScenario);
}

void MainWindow::saveSettings()
{
    if (!m_keepSavedScenario) {
        Scenario scenario = m_controller->scenario();
        // Closed before the saved model came back: it stays the saved one.
        if (m_pendingRestore && scenario.model.id == m_pendingRestore->shown.model.id)
            scenario.model.id = m_pendingRestore->saved.pendingModel;
        appsettings::saveScenario(scenario);
    }
    appsettings::saveChartChoices(m_controller->growthAxis(), m_controller->growthScale(),
                                  m_controller->counterfactuals());
    appsettings::saveComparison(m_compare->columns());
    const settings::WindowKeys &k = settings::windowKeys();
    settings::SettingsWriter writer;
    writer.write(k.geometry, saveGeometry());
    writer.write(k.explorerSplitter, m_explorer->splitter()->saveState());
    writer.write(k.tab, m_tabs->currentIndex());
    writer.write(k.formulaPanel, m_explorer->formulaPanelShown());
    writer.write(k.presentationZoom, m_zoom);
    writer.sync();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSaveChanges()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    QAction *openScenario = m_fileMenu->addAction(QString(), this, &MainWindow::openScenario);
    openScenario->setObjectName(QStringLiteral("actionOpenScenario"));
    QAction *saveScenario = m_fileMenu->addAction(QString(), this, &MainWindow::saveScenario);
    saveScenario->setObjectName(QStringLiteral("actionSaveScenario"));
    saveScenario->setShortcut(QKeySequence::Save);
    QAction *saveScenarioAs = m_fileMenu->addAction(QString(), this, &MainWindow::saveScenarioAs);
    saveScenarioAs->setObjectName(QStringLiteral("actionSaveScenarioAs"));
    saveScenarioAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_fileMenu->addSeparator();
    QAction *open = m_fileMenu->addAction(QString(), this, &MainWindow::openModelFile);
    open->setObjectName(QStringLiteral("actionOpenModel"));
    open->setShortcut(QKeySequence::Open);
    QAction *openFolder = m_fileMenu->addAction(QString(), this, &MainWindow::openModelFolder);
    openFolder->setObjectName(QStringLiteral("actionOpenModelFolder"));
    openFolder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction *paste = m_fileMenu->addAction(QString(), this, &MainWindow::pasteConfig);
    paste->setObjectName(QStringLiteral("actionPasteConfig"));
    m_recentMenu = m_fileMenu->addMenu(QString());
    m_recentMenu->setObjectName(QStringLiteral("menuRecentFiles"));
    rebuildRecentMenu();
    QAction *customGpu = m_fileMenu->addAction(QString(), this, &MainWindow::addCustomGpu);
    customGpu->setObjectName(QStringLiteral("actionAddCustomGpu"));
    m_fileMenu->addSeparator();
    QAction *exportReport = m_fileMenu->addAction(QString(), this, &MainWindow::exportReport);
    exportReport->setObjectName(QStringLiteral("actionExportReport"));
    exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction *exportFigures = m_fileMenu->addAction(QString(), this, &MainWindow::exportFigures);
    exportFigures->setObjectName(QStringLiteral("actionExportFigures"));
    QAction *copyFigures = m_fileMenu->addAction(QString(), m_explorer, &ExplorerView::copyFigures);
    copyFigures->setObjectName(QStringLiteral("actionCopyFigures"));
    copyFigures->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QAction *copyJson = m_fileMenu->addAction(QString(), m_explorer, &ExplorerView::copyJson);
    copyJson->setObjectName(QStringLiteral("actionCopyJson"));
    m_fileMenu->addSeparator();
    QAction *quit = m_fileMenu->addAction(QString(), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(QString());
    QAction *showExplorer =
        m_viewMenu->addAction(QString(), this, [this] { m_tabs->setCurrentWidget(m_explorer); });
    showExplorer->setObjectName(QStringLiteral("actionShowExplorer"));
    showExplorer->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QAction *showQuantization =
        m_viewMenu->addAction(QString(), this, [this] { m_tabs->setCurrentWidget(m_quantizationTab); });
    showQuantization->setObjectName(QStringLiteral("actionShowQuantization"));
    showQuantization->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    QAction *showCompare =
        m_viewMenu->addAction(QString(), this, [this] { m_tabs->setCurrentWidget(m_compare); });
    showCompare->setObjectName(QStringLiteral("actionShowCompare"));
    showCompare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));
    m_viewMenu->addSeparator();
    QAction *axis = m_viewMenu->addAction(QString(), this, [this] {
        m_controller->setGrowthAxis(m_controller->growthAxis() == GrowthAxis::SequenceLength
                                        ? GrowthAxis::BatchSize
                                        : GrowthAxis::SequenceLength);
    });
    axis->setObjectName(QStringLiteral("actionToggleGrowthAxis"));
    axis->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    QAction *precision = m_viewMenu->addAction(QString(), this, &MainWindow::cycleKvPrecision);
    precision->setObjectName(QStringLiteral("actionCycleKvPrecision"));
    precision->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    QAction *fullScreen =
        m_viewMenu->addAction(QString(), this, [this] { isFullScreen() ? showNormal() : showFullScreen(); });
    fullScreen->setObjectName(QStringLiteral("actionFullScreen"));
    fullScreen->setShortcut(QKeySequence::FullScreen);
    m_viewMenu->addSeparator();
    createPresentationActions();
    m_viewMenu->addSeparator();
    m_languageMenu = m_viewMenu->addMenu(QString());
    m_languages = new QActionGroup(this);
    const QString current = translations::current();
    for (const QString &code : translations::available()) {
        QAction *action = m_languageMenu->addAction(translations::displayName(code));
        action->setObjectName(QStringLiteral("actionLanguage_") + code);
        action->setCheckable(true);
        action->setChecked(code == current);
        action->setData(code);
        m_languages->addAction(action);
        connect(action, &QAction::triggered, this, [code] {
            appsettings::setLanguage(code);
            translations::apply(code);
        });
    }

    m_toolsMenu = menuBar()->addMenu(QString());
    QAction *whatDoINeed = m_toolsMenu->addAction(QString(), this, &MainWindow::showFitDialog);
    whatDoINeed->setObjectName(QStringLiteral("actionWhatDoINeed"));

    m_helpMenu = menuBar()->addMenu(QString());
    QAction *about = m_helpMenu->addAction(QString(), this, [this] {
        QMessageBox::about(
            this, tr("About kvscope"),
            tr("<h3>kvscope %1</h3><p>Will this model fit on this GPU at this precision? How many "
               "tokens and concurrent requests does the KV cache hold?</p><p>Figures follow vLLM's "
               "own memory accounting.</p><p>%2</p><p>Released under the MIT licence.</p>")
                .arg(QCoreApplication::applicationVersion(), unitsConvention()));
    });
    about->setObjectName(QStringLiteral("actionAbout"));
}

void MainWindow::createPresentationActions()
{
    QAction *formulas = m_viewMenu->addAction(QString());
    formulas->setObjectName(QStringLiteral("actionFormulaPanel"));
    formulas->setCheckable(true);
    formulas->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    connect(formulas, &QAction::toggled, m_explorer, &ExplorerView::setFormulaPanelShown);
    connect(m_explorer, &ExplorerView::formulaPanelToggled, formulas, &QAction::setChecked);
    QAction *keep = m_viewMenu->addAction(
        QString(), this, [this] { m_explorer->scenarioStrip()->addScenario(m_controller->scenario()); });
    keep->setObjectName(QStringLiteral("actionAddToStrip"));
    keep->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));

    QAction *present = m_viewMenu->addAction(QString());
    present->setObjectName(QStringLiteral("actionPresentation"));
    present->setCheckable(true);
    present->setShortcut(QKeySequence(Qt::Key_F5));
    connect(present, &QAction::toggled, this, &MainWindow::setPresentationMode);
    const auto presenting = [this](const char *name, const QList<QKeySequence> &keys, auto slot) {
        QAction *action = m_viewMenu->addAction(QString(), this, slot);
        action->setObjectName(QLatin1String(name));
        action->setShortcuts(keys);
        action->setEnabled(false);
        m_presentationActions << action;
    };
    presenting("actionZoomIn", {QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)},
               [this] { setPresentationZoom(m_zoom + settings::PresentationZoomStep); });
    presenting("actionZoomOut", {QKeySequence::ZoomOut},
               [this] { setPresentationZoom(m_zoom - settings::PresentationZoomStep); });
    presenting("actionZoomReset", {QKeySequence(Qt::CTRL | Qt::Key_0)},
               [this] { setPresentationZoom(settings::MinPresentationZoom); });
    // Page Up / Page Down belong to the sliders, except while presenting.
    presenting("actionPreviousScenario", {QKeySequence(Qt::Key_PageUp)}, [this] { stepScenarioStrip(-1); });
    presenting("actionNextScenario", {QKeySequence(Qt::Key_PageDown)}, [this] { stepScenarioStrip(1); });
}

void MainWindow::setPresentationMode(bool on)
{
    if (on == m_presenting)
        return;
    m_presenting = on;
    if (on) {
        m_wasFullScreen = isFullScreen();
        m_normalPalette = QApplication::palette();
        QApplication::setPalette(theme::highContrastPalette(theme::isDark(m_normalPalette)));
        theme::setZoom(m_zoom);
        m_tabs->setCurrentWidget(m_explorer);
        showFullScreen();
    } else {
        theme::setZoom(1.0);
        QApplication::setPalette(m_normalPalette);
        if (!m_wasFullScreen)
            showNormal();
    }
    for (QAction *action : std::as_const(m_presentationActions))
        action->setEnabled(on);
    if (auto *action = findChild<QAction *>(QStringLiteral("actionPresentation")))
        action->setChecked(on);
    // The banner and the cards tint themselves when they show a plan: show it again.
    m_controller->setScenario(m_controller->scenario());
    statusBar()->showMessage(on ? tr("Presentation mode: Ctrl + / Ctrl − zoom, Page Up / Page Down step "
                                     "through the scenarios, F5 to leave")
                                : QString(),
                             8'000);
}

void MainWindow::setPresentationZoom(double zoom)
{
    m_zoom = std::clamp(zoom, settings::MinPresentationZoom, settings::MaxPresentationZoom);
    settings::SettingsWriter().write(settings::windowKeys().presentationZoom, m_zoom);
    if (m_presenting)
        theme::setZoom(m_zoom);
}

void MainWindow::stepScenarioStrip(int delta)
{
    ScenarioStrip *strip = m_explorer->scenarioStrip();
    if (strip->scenarios().isEmpty())
        statusBar()->showMessage(tr("The scenario strip is empty: add the scenario on screen with Ctrl+D."),
                                 5'000);
    else
        strip->step(delta);
}

void MainWindow::createShortcuts()
{
    ParameterPanel *panel = m_explorer->parameterPanel();
    const auto focus = [this](const QKeySequence &keys, QWidget *target) {
        auto *shortcut = new QShortcut(keys, this);
        connect(shortcut, &QShortcut::activated, target, [this, target] {
            m_tabs->setCurrentWidget(m_explorer);
            target->setFocus(Qt::ShortcutFocusReason);
        });
    };
    focus(QKeySequence(Qt::CTRL | Qt::Key_M), panel->modelPicker());
    focus(QKeySequence(Qt::CTRL | Qt::Key_G), panel->gpuPicker());
    focus(QKeySequence(Qt::CTRL | Qt::Key_B), panel->batchControl()->slider());
    focus(QKeySequence(Qt::CTRL | Qt::Key_L), panel->seqLenControl()->slider());
}

void MainWindow::cycleKvPrecision()
{
    const MemoryPlan &plan = m_controller->plan();
    const QList<KvCacheDtype> walk = kvPrecisionWalk(plan.dtype, plan.modelFormat);
    m_controller->setKvCacheDtype(walk.at((kvPrecisionStep(walk, plan.kvCacheDtype) + 1) % walk.size()));
}

void MainWindow::retranslate()
{
    m_tabs->setTabText(m_tabs->indexOf(m_explorer), tr("Explorer"));
    m_tabs->setTabText(m_tabs->indexOf(m_quantizationTab), tr("Quantization"));
    m_tabs->setTabText(m_tabs->indexOf(m_compare), tr("Compare"));
    m_fileMenu->setTitle(tr("&File"));
    m_viewMenu->setTitle(tr("&View"));
    m_languageMenu->setTitle(tr("&Language"));
    m_toolsMenu->setTitle(tr("&Tools"));
    m_helpMenu->setTitle(tr("&Help"));
    const auto text = [this](const char *name, const QString &label) {
        if (auto *action = findChild<QAction *>(QLatin1String(name)))
            action->setText(label);
    };
    text("actionOpenScenario", tr("Op&en scenario (.kvscope)…"));
    text("actionSaveScenario", tr("&Save scenario"));
    text("actionSaveScenarioAs", tr("Save scenario &as…"));
    text("actionExportReport", tr("Expor&t report (PNG, PDF)…"));
    text("actionExportFigures", tr("Export fi&gures (CSV, JSON)…"));
    text("actionOpenModel", tr("&Open model (config.json, .gguf)…"));
    text("actionOpenModelFolder", tr("Open model &folder…"));
    text("actionPasteConfig", tr("&Paste config.json…"));
    text("actionAddCustomGpu", tr("Add c&ustom GPU…"));
    m_recentMenu->setTitle(tr("&Recent files"));
    rebuildRecentMenu();
    text("actionCopyFigures", tr("&Copy figures"));
    text("actionCopyJson", tr("Copy plan as &JSON"));
    text("actionQuit", tr("&Quit"));
    text("actionShowExplorer", tr("&Explorer"));
    text("actionShowQuantization", tr("&Quantization simulator"));
    text("actionShowCompare", tr("&Compare precisions"));
    text("actionToggleGrowthAxis", tr("Growth chart: sequence length / batch size"));
    text("actionCycleKvPrecision", tr("Next KV precision (FP32 → FP16/BF16 → FP8)"));
    text("actionFullScreen", tr("&Full screen"));
    text("actionWhatDoINeed", tr("&What do I need…"));
    text("actionFormulaPanel", tr("F&ormula panel"));
    text("actionAddToStrip", tr("&Add scenario to the strip"));
    text("actionPresentation", tr("&Presentation mode"));
    text("actionZoomIn", tr("Zoom &in (presentation)"));
    text("actionZoomOut", tr("Zoom o&ut (presentation)"));
    text("actionZoomReset", tr("Zoom to 100 % (presentation)"));
    text("actionPreviousScenario", tr("Previous scenario of the strip (presentation)"));
    text("actionNextScenario", tr("Next scenario of the strip (presentation)"));
    text("actionAbout", tr("&About kvscope"));
    m_units->setText(tr("GiB = 2^30 bytes · figures per GPU"));
    m_units->setToolTip(unitsConvention());
    updateTitle();
}

void MainWindow::updateTitle()
{
    const Scenario &s = m_controller->scenario();
    const QString title =
        s.tensorParallelSize > 1
            ? tr("%1 on %2 × %3 — kvscope").arg(s.model.name, s.gpu.name).arg(s.tensorParallelSize)
            : tr("%1 on %2 — kvscope").arg(s.model.name, s.gpu.name);
    // "[*]" is where Qt shows the modified mark.
    const QString file =
        m_session && !m_session->path().isEmpty() ? QFileInfo(m_session->path()).fileName() : QString();
    setWindowTitle(file.isEmpty() ? title : QStringLiteral("%1[*] — %2").arg(file, title));
    setWindowModified(m_session && m_session->isModified());
}

void MainWindow::showError(const QString &message)
{
    statusBar()->showMessage(message, 10'000);
}

void MainWindow::refuse(const QString &title, const QString &message)
{
    showError(message);
    if (isVisible())
        QMessageBox::warning(this, title, message);
}

void MainWindow::importModelPath(const QString &path)
{
    // From the event loop, as an import reports from it: a refusal's message
    // box must not block whoever asked (the command line, a drop).
    if (path.endsWith(QLatin1String(".kvscope"), Qt::CaseInsensitive))
        QTimer::singleShot(0, this, [this, path] { openScenarioFile(path); });
    else
        m_importer->importPath(path);
}

bool MainWindow::maybeSaveChanges()
{
    if (!m_session->isModified())
        return true;
    switch (m_prompt(this, QFileInfo(m_session->path()).fileName())) {
    case QMessageBox::Save:
        return saveScenario();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

bool MainWindow::openScenarioFile(const QString &path)
{
    if (!maybeSaveChanges())
        return false;
    try {
        m_session->open(path);
    } catch (const Error &error) {
        Q_EMIT importFailed(error.message()); // kvscope FILE --screenshot exits 1
        refuse(tr("Cannot open scenario"), error.message());
        return false;
    }
    statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 8'000);
    return true;
}

void MainWindow::openScenario()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open scenario"), QFileInfo(m_session->path()).path(),
                                     tr("kvscope scenarios (*.kvscope);;All files (*)"));
    if (!path.isEmpty())
        openScenarioFile(path);
}

bool MainWindow::saveScenarioTo(const QString &path)
{
    try {
        m_session->save(path);
    } catch (const Error &error) {
        refuse(tr("Cannot save scenario"), error.message());
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 8'000);
    return true;
}

bool MainWindow::saveScenario()
{
    return m_session->path().isEmpty() ? saveScenarioAs() : saveScenarioTo(m_session->path());
}

bool MainWindow::saveScenarioAs()
{
    // The model's name as a file name: "Pasted config 2" -> "Pasted-config-2.kvscope".
    QString name = m_controller->scenario().model.name;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    const QString suggested = m_session->path().isEmpty()
                                  ? QDir::home().filePath(name + QStringLiteral(".kvscope"))
                                  : m_session->path();
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), suggested,
                                                tr("kvscope scenarios (*.kvscope)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".kvscope");
    return saveScenarioTo(path);
}

void MainWindow::exportReport()
{
    const QString suggested = QDir::home().filePath(QStringLiteral("kvscope-report.pdf"));
    ExportDialog dialog(ExportDialog::Kind::Report, QSize(), suggested, theme::isDark(palette()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    try {
        // The report adds the Compare view's table when it holds the current columns' comparison.
        ChartSource source = m_explorer->chartSource();
        source.comparison = m_compare->currentComparison();
        exportFigure(dialog.path(), *findChart(QStringLiteral("report")), source, dialog.options());
        statusBar()->showMessage(tr("Saved %1").arg(dialog.path()), 8'000);
    } catch (const Error &error) {
        refuse(tr("Cannot export the report"), error.message());
    }
}

FitDialog *MainWindow::fitDialog() const
{
    return m_fitDialog;
}

void MainWindow::showFitDialog()
{
    if (!m_fitDialog) {
        // Made afresh each time it opens, so custom GPUs added since are searched too.
        m_fitDialog =
            new FitDialog(servingGpus(GpuLibrary::builtin().presets()) + m_library->customGpus(), this);
        m_fitDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_fitDialog, &FitDialog::configurationChosen, this, [this](const Scenario &scenario) {
            m_tabs->setCurrentWidget(m_explorer);
            m_controller->setScenario(scenario);
        });
    }
    m_fitDialog->askFor(m_controller->scenario());
    m_fitDialog->show();
    m_fitDialog->raise();
    m_fitDialog->activateWindow();
}

void MainWindow::exportFigures()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export figures"), QDir::home().filePath(QStringLiteral("kvscope-figures.csv")),
        tr("CSV (*.csv);;JSON, as kvscope calc --json (*.json)"));
    if (path.isEmpty())
        return;
    try {
        const FigureFormat format = formatForPath(path);
        if (format != FigureFormat::Csv && format != FigureFormat::Json)
            throw Error(tr("%1: figures are saved as .csv or .json").arg(path));
        exportFigure(path, *findChart(QStringLiteral("report")), m_explorer->chartSource(), FigureOptions());
        statusBar()->showMessage(tr("Saved %1").arg(path), 8'000);
    } catch (const Error &error) {
        refuse(tr("Cannot export the figures"), error.message());
    }
}

void MainWindow::openModelFile()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open model"), QString(),
                                     tr("Models (*.json *.gguf *.safetensors);;HuggingFace config "
                                        "(*.json);;llama.cpp GGUF (*.gguf);;All files (*)"));
    if (!path.isEmpty())
        importModelPath(path);
}

void MainWindow::openModelFolder()
{
    const QString path =
        QFileDialog::getExistingDirectory(this, tr("Open model folder (config.json + .safetensors)"));
    if (!path.isEmpty())
        importModelPath(path);
}

void MainWindow::pasteConfig()
{
    PasteConfigDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    addImported(dialog.imported(), dialog.configText());
}

bool MainWindow::addImported(const ImportedModel &imported, const QByteArray &configText)
{
    try {
        selectImported(m_library->addImported(imported, configText));
        return true;
    } catch (const Error &error) {
        refuseImport(error.message());
        return false;
    }
}

void MainWindow::refuseImport(const QString &message)
{
    statusBar()->showMessage(message, 15'000);
    Q_EMIT importFailed(message);
    if (isVisible())
        QMessageBox::warning(this, tr("Cannot import model"), message);
}

void MainWindow::addCustomGpu()
{
    CustomGpuDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    try {
        const QString id = m_library->addCustomGpu(dialog.gpu());
        if (const GpuSpec *gpu = m_library->findGpu(id))
            m_controller->setGpu(*gpu);
    } catch (const Error &error) {
        showError(error.message());
    }
}

void MainWindow::selectImported(const QString &key)
{
    m_tabs->setCurrentWidget(m_explorer);
    if (const ModelArch *model = m_library->findModel(key))
        m_controller->setModel(*model);
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = m_library->recentFiles();
    for (const QString &path : recent)
        m_recentMenu->addAction(path, this, [this, path] { importModelPath(path); });
    if (!recent.isEmpty())
        m_recentMenu->addSeparator();
    QAction *clear = m_recentMenu->addAction(tr("Clear list"), m_library, &UserLibrary::clearRecentFiles);
    clear->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    importModelPath(urls.first().toLocalFile()); // a file or a folder
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange && m_fileMenu)
        retranslate();
    QMainWindow::changeEvent(event);
}

} // namespace kvscope
