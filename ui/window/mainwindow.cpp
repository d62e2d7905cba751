// SPDX-License-Identifier: MIT
#include "ui/window/mainwindow.h"

#include "core/analysis/fit.h"
#include "core/analysis/growth.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/model/modelimport.h"
#include "core/plan/planner.h"
#include "core/scenario/scenariovalues.h"
#include "ui/compare/compareview.h"
#include "ui/compare/comparisonrunner.h"
#include "ui/explainlog/explainlogdialog.h"
#include "ui/explorer/accuracyrunner.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/parameterpanel.h"
#include "ui/explorer/scenariostrip.h"
#include "ui/export/chartactions.h"
#include "ui/export/chartcatalogue.h"
#include "ui/export/exportdialog.h"
#include "ui/fit/fitdialog.h"
#include "ui/library/customgpudialog.h"
#include "ui/library/pasteconfigdialog.h"
#include "ui/library/speedcalibrationdialog.h"
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
#include "ui/window/presentationmode.h"
#include "ui/window/startuprestore.h"
#include "ui/window/windowactions.h"

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
#include <QScopeGuard>
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
      m_quantizationTab(new QWidget(this)), m_units(new QLabel(this)),
      m_restore(new StartupRestore(m_controller, m_library, this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/kvscope.svg")));
    QCoreApplication::instance()->installEventFilter(new WrappedToolTips(this));
    settings::SettingsReader saved;
    translations::apply(appsettings::language(saved)); // before any widget sets its texts
    m_library->load(saved);
    m_controller->setStoredCalibrations(
        [this](const QString &gpuId) { return m_library->speedCalibration(gpuId); });
    connect(m_library, &UserLibrary::speedCalibrationsChanged, m_controller,
            &ScenarioController::applyStoredCalibration);
    m_controller->setStoredMemory([this](const Scenario &s) { return m_library->memoryCalibration(s); });
    connect(m_library, &UserLibrary::memoryCalibrationsChanged, m_controller,
            &ScenarioController::applyStoredMemory);
    m_restore->restoreScenario(saved); // before the views exist, so they start from the restored scenario
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
    // One simulation of a format serves the explorer's accuracy card and the Compare view.
    m_explorer->accuracyRunner()->setCache(m_compare->runner()->sharedCache());
    setCentralWidget(m_tabs);
    statusBar()->addPermanentWidget(m_units);

    connect(m_controller, &ScenarioController::errorOccurred, this, &MainWindow::showError);
    connect(m_explorer, &ExplorerView::errorOccurred, this, &MainWindow::showError);
    connect(m_explorer->parameterPanel(), &ParameterPanel::customGpuRequested, this,
            &MainWindow::addCustomGpu);
    connect(m_importer, &ModelImporter::started, this,
            [this](const QString &path) { statusBar()->showMessage(tr("Importing %1…").arg(path)); });
    connect(m_importer, &ModelImporter::imported, this, [this](const ImportedModel &imported) {
        if (addImported(imported)) {
            statusBar()->showMessage(
                tr("Imported %1 (%2)").arg(imported.model.name, importKindName(imported.kind)), 8'000);
            askFitDialogAgain();
        }
    });
    connect(m_importer, &ModelImporter::failed, this, &MainWindow::refuseImport);
    connect(m_library, &UserLibrary::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    connect(m_restore, &StartupRestore::problemsFound, this, &MainWindow::reportRestoreProblems);
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

    m_actions = new WindowActions(this);
    m_presentation = new PresentationMode(this, m_actions->presentationOnly());
    connectActions();
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
    else if (name == QLatin1String("attention")) {
        m_tabs->setCurrentWidget(m_quantizationTab);
        quantization()->showAttention();
    } else if (name == QLatin1String("fit"))
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
        // The attention tab draws the explorer's model's KV head.
        m_quantization->followScenario(m_controller->scenario(), m_controller->plan());
        connect(m_controller, &ScenarioController::planChanged, m_quantization,
                [this] { m_quantization->followScenario(m_controller->scenario(), m_controller->plan()); });
        reportRestoreProblems(m_quantization->restoreProblems());
    }
    return m_quantization;
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
    m_presentation->restoreZoom(saved.read(k.presentationZoom));
    ScenarioStrip *strip = m_explorer->scenarioStrip();
    strip->setScenarios(appsettings::loadScenarioStrip(saved, *m_library));
    strip->showCurrent(m_controller->scenario());
}

void MainWindow::reportRestoreProblems(const QStringList &problems)
{
    // Each reader of the settings says what is wrong with the file as a whole: said once.
    QStringList fresh;
    for (const QString &problem : problems)
        if (!m_restoreProblems.contains(problem) && !fresh.contains(problem))
            fresh << problem;
    if (fresh.isEmpty())
        return;
    m_restoreProblems << fresh;
    for (const QString &problem : fresh)
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
    if (!m_keepSavedScenario)
        appsettings::saveScenario(m_restore->scenarioToSave(m_controller->scenario()));
    appsettings::saveChartChoices(m_controller->growthAxis(), m_controller->growthScale(),
                                  m_controller->counterfactuals());
    appsettings::saveComparison(m_compare->columns());
    const settings::WindowKeys &k = settings::windowKeys();
    settings::SettingsWriter writer;
    writer.write(k.geometry, saveGeometry());
    writer.write(k.explorerSplitter, m_explorer->splitter()->saveState());
    writer.write(k.tab, m_tabs->currentIndex());
    writer.write(k.formulaPanel, m_explorer->formulaPanelShown());
    writer.write(k.presentationZoom, m_presentation->zoom());
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

void MainWindow::connectActions()
{
    const WindowActions &a = *m_actions;
    connect(a.openScenario, &QAction::triggered, this, &MainWindow::openScenario);
    connect(a.saveScenario, &QAction::triggered, this, &MainWindow::saveScenario);
    connect(a.saveScenarioAs, &QAction::triggered, this, &MainWindow::saveScenarioAs);
    connect(a.openModel, &QAction::triggered, this, &MainWindow::openModelFile);
    connect(a.openModelFolder, &QAction::triggered, this, &MainWindow::openModelFolder);
    connect(a.pasteConfig, &QAction::triggered, this, &MainWindow::pasteConfig);
    connect(a.addCustomGpu, &QAction::triggered, this, &MainWindow::addCustomGpu);
    connect(a.calibrateSpeed, &QAction::triggered, this, &MainWindow::calibrateSpeed);
    connect(a.exportReport, &QAction::triggered, this, &MainWindow::exportReport);
    connect(a.exportFigures, &QAction::triggered, this, &MainWindow::exportFigures);
    connect(a.copyFigures, &QAction::triggered, m_explorer, &ExplorerView::copyFigures);
    connect(a.copyJson, &QAction::triggered, m_explorer, &ExplorerView::copyJson);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);

    connect(a.showExplorer, &QAction::triggered, this, [this] { m_tabs->setCurrentWidget(m_explorer); });
    connect(a.showQuantization, &QAction::triggered, this,
            [this] { m_tabs->setCurrentWidget(m_quantizationTab); });
    connect(a.showCompare, &QAction::triggered, this, [this] { m_tabs->setCurrentWidget(m_compare); });
    connect(a.toggleGrowthAxis, &QAction::triggered, this, [this] {
        m_controller->setGrowthAxis(m_controller->growthAxis() == GrowthAxis::SequenceLength
                                        ? GrowthAxis::BatchSize
                                        : GrowthAxis::SequenceLength);
    });
    connect(a.cycleKvPrecision, &QAction::triggered, this, &MainWindow::cycleKvPrecision);
    connect(a.fullScreen, &QAction::triggered, this,
            [this] { isFullScreen() ? showNormal() : showFullScreen(); });
    connect(a.formulaPanel, &QAction::toggled, m_explorer, &ExplorerView::setFormulaPanelShown);
    connect(m_explorer, &ExplorerView::formulaPanelToggled, a.formulaPanel, &QAction::setChecked);
    connect(a.addToStrip, &QAction::triggered, this,
            [this] { m_explorer->scenarioStrip()->addScenario(m_controller->scenario()); });
    connect(a.presentation, &QAction::toggled, this, &MainWindow::setPresentationMode);
    connect(a.zoomIn, &QAction::triggered, this,
            [this] { setPresentationZoom(presentationZoom() + settings::PresentationZoomStep); });
    connect(a.zoomOut, &QAction::triggered, this,
            [this] { setPresentationZoom(presentationZoom() - settings::PresentationZoomStep); });
    connect(a.zoomReset, &QAction::triggered, this,
            [this] { setPresentationZoom(settings::MinPresentationZoom); });
    connect(a.previousScenario, &QAction::triggered, this, [this] { stepScenarioStrip(-1); });
    connect(a.nextScenario, &QAction::triggered, this, [this] { stepScenarioStrip(1); });

    connect(a.whatDoINeed, &QAction::triggered, this, &MainWindow::showFitDialog);
    connect(a.explainLog, &QAction::triggered, this, [this] { showExplainLogDialog(); });
    connect(a.about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About kvscope"),
            tr("<h3>kvscope %1</h3><p>Will this model fit on this GPU at this precision? How many "
               "tokens and concurrent requests does the KV cache hold?</p><p>Figures follow vLLM's "
               "own memory accounting.</p><p>%2</p><p>Released under the MIT licence.</p>")
                .arg(QCoreApplication::applicationVersion(), unitsConvention()));
    });
}

void MainWindow::setPresentationMode(bool on)
{
    if (on == m_presentation->isActive())
        return;
    m_presentation->setActive(on); // on the view shown: Compare and Quantization are presented too
    m_actions->presentation->setChecked(on);
    m_compare->setKnobsShown(!on); // presented, Compare shows its figures; the knobs are a click away
    // The banner and the cards tint themselves when they show a plan: show it again.
    m_controller->setScenario(m_controller->scenario());
    statusBar()->showMessage(on ? tr("Presentation mode: Ctrl + / Ctrl − zoom, Page Up / Page Down step "
                                     "through the scenarios, F5 to leave")
                                : QString(),
                             8'000);
}

void MainWindow::setPresentationFullScreen(bool fullScreen)
{
    m_presentation->setFullScreen(fullScreen);
}

bool MainWindow::presentationMode() const
{
    return m_presentation->isActive();
}

double MainWindow::presentationZoom() const
{
    return m_presentation->zoom();
}

void MainWindow::setPresentationZoom(double zoom)
{
    m_presentation->setZoom(zoom);
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
    m_actions->retranslate();
    rebuildRecentMenu();
    m_units->setText(tr("GiB = 2^30 bytes · figures per GPU"));
    m_units->setToolTip(unitsConvention());
    updateTitle();
}

void MainWindow::updateTitle()
{
    const Scenario &s = m_controller->scenario();
    const QString title = s.gpuCount() > 1
                              ? tr("%1 on %2 × %3 — kvscope").arg(s.model.name, s.gpu.name).arg(s.gpuCount())
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
    askFitDialogAgain();
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
        // The report adds the Compare view's table when it holds the current columns' comparison,
        // and the scenario's accuracy (simulated once, then kept in the Compare view's cache).
        ChartSource source = m_explorer->chartSource();
        source.comparison = m_compare->currentComparison();
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const auto restoreCursor = qScopeGuard([] { QApplication::restoreOverrideCursor(); });
        source.accuracy = estimateAccuracy(source.scenario, source.plan, m_compare->runner()->cache());
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

void MainWindow::showExplainLogDialog(const QString &path)
{
    if (!m_explainLogDialog) {
        m_explainLogDialog = new ExplainLogDialog(this);
        m_explainLogDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_explainLogDialog, &ExplainLogDialog::calibrationChosen, m_library,
                &UserLibrary::saveMemoryCalibration);
    }
    if (!path.isEmpty())
        m_explainLogDialog->explainFile(path);
    m_explainLogDialog->show();
    m_explainLogDialog->raise();
    m_explainLogDialog->activateWindow();
}

void MainWindow::askFitDialogAgain()
{
    // An open "What do I need?" asks about what was just opened (kvscope FILE --view fit opens
    // the dialog before the file arrives), not about the scenario it was opened with.
    if (m_fitDialog && m_fitDialog->isVisible())
        m_fitDialog->askFor(m_controller->scenario());
}

void MainWindow::exportFigures()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export figures"), QDir::home().filePath(QStringLiteral("kvscope-figures.csv")),
        tr("CSV (*.csv);;JSON, as kvscope calc %1 (*.json)").arg(commandFlag(CommandOption::Json)));
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

void MainWindow::calibrateSpeed()
{
    const Scenario scenario = m_controller->scenario();
    std::optional<UserLibrary::StoredCalibration> saved;
    for (const UserLibrary::StoredCalibration &calibration : m_library->speedCalibrations())
        if (calibration.gpuId == scenario.gpu.id)
            saved = calibration;
    SpeedCalibrationDialog dialog(scenario, m_controller->plan(), saved, this);
    const bool accepted = dialog.exec() == QDialog::Accepted;
    // The library tells the controller, which plans again with the GPU's calibration.
    if (accepted)
        m_library->saveSpeedCalibration(dialog.calibration());
    else if (dialog.forgetRequested())
        m_library->forgetSpeedCalibration(scenario.gpu.id);
}

void MainWindow::selectImported(const QString &key)
{
    m_tabs->setCurrentWidget(m_explorer);
    if (const ModelArch *model = m_library->findModel(key))
        m_controller->setModel(*model);
}

void MainWindow::rebuildRecentMenu()
{
    QMenu *recentMenu = m_actions->recentMenu;
    recentMenu->clear();
    const QStringList recent = m_library->recentFiles();
    for (const QString &path : recent)
        recentMenu->addAction(path, this, [this, path] { importModelPath(path); });
    if (!recent.isEmpty())
        recentMenu->addSeparator();
    QAction *clear = recentMenu->addAction(tr("Clear list"), m_library, &UserLibrary::clearRecentFiles);
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
    openPath(urls.first().toLocalFile());
}

void MainWindow::openPath(const QString &path)
{
    const QFileInfo file(path);
    const QString suffix = file.suffix().toLower();
    if (file.isFile() && (suffix == QLatin1String("log") || suffix == QLatin1String("txt")))
        showExplainLogDialog(path);
    else
        importModelPath(path); // a file or a folder
}

ExplainLogDialog *MainWindow::explainLogDialog() const
{
    return m_explainLogDialog;
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange && m_actions)
        retranslate();
    QMainWindow::changeEvent(event);
}

} // namespace kvscope
