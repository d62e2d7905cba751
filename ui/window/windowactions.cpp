// SPDX-License-Identifier: MIT
#include "ui/window/windowactions.h"

#include "ui/state/appsettings.h"
#include "ui/state/translations.h"

#include <QAction>
#include <QActionGroup>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace kvscope {

namespace {

QAction *addAction(QMenu *menu, const char *objectName, const QList<QKeySequence> &keys = {})
{
    QAction *action = menu->addAction(QString());
    action->setObjectName(QLatin1String(objectName));
    action->setShortcuts(keys);
    return action;
}

} // namespace

WindowActions::WindowActions(QMainWindow *window) : QObject(window)
{
    QMenuBar *bar = window->menuBar();
    fileMenu = bar->addMenu(QString());
    openScenario = addAction(fileMenu, "actionOpenScenario");
    saveScenario = addAction(fileMenu, "actionSaveScenario", {QKeySequence::Save});
    saveScenarioAs =
        addAction(fileMenu, "actionSaveScenarioAs", {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)});
    fileMenu->addSeparator();
    openModel = addAction(fileMenu, "actionOpenModel", {QKeySequence::Open});
    openModelFolder =
        addAction(fileMenu, "actionOpenModelFolder", {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)});
    pasteConfig = addAction(fileMenu, "actionPasteConfig");
    recentMenu = fileMenu->addMenu(QString());
    recentMenu->setObjectName(QStringLiteral("menuRecentFiles"));
    addCustomGpu = addAction(fileMenu, "actionAddCustomGpu");
    calibrateSpeed = addAction(fileMenu, "actionCalibrateSpeed");
    fileMenu->addSeparator();
    exportReport = addAction(fileMenu, "actionExportReport", {QKeySequence(Qt::CTRL | Qt::Key_E)});
    exportFigures = addAction(fileMenu, "actionExportFigures");
    copyFigures = addAction(fileMenu, "actionCopyFigures", {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)});
    copyJson = addAction(fileMenu, "actionCopyJson");
    fileMenu->addSeparator();
    quit = addAction(fileMenu, "actionQuit", {QKeySequence::Quit});

    viewMenu = bar->addMenu(QString());
    showExplorer = addAction(viewMenu, "actionShowExplorer", {QKeySequence(Qt::CTRL | Qt::Key_1)});
    showQuantization = addAction(viewMenu, "actionShowQuantization", {QKeySequence(Qt::CTRL | Qt::Key_2)});
    showCompare = addAction(viewMenu, "actionShowCompare", {QKeySequence(Qt::CTRL | Qt::Key_3)});
    viewMenu->addSeparator();
    toggleGrowthAxis = addAction(viewMenu, "actionToggleGrowthAxis", {QKeySequence(Qt::CTRL | Qt::Key_T)});
    cycleKvPrecision = addAction(viewMenu, "actionCycleKvPrecision", {QKeySequence(Qt::CTRL | Qt::Key_K)});
    fullScreen = addAction(viewMenu, "actionFullScreen", {QKeySequence::FullScreen});
    viewMenu->addSeparator();
    formulaPanel =
        addAction(viewMenu, "actionFormulaPanel", {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F)});
    formulaPanel->setCheckable(true);
    addToStrip = addAction(viewMenu, "actionAddToStrip", {QKeySequence(Qt::CTRL | Qt::Key_D)});
    presentation = addAction(viewMenu, "actionPresentation", {QKeySequence(Qt::Key_F5)});
    presentation->setCheckable(true);
    zoomIn =
        addAction(viewMenu, "actionZoomIn", {QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    zoomOut = addAction(viewMenu, "actionZoomOut", {QKeySequence::ZoomOut});
    zoomReset = addAction(viewMenu, "actionZoomReset", {QKeySequence(Qt::CTRL | Qt::Key_0)});
    // Page Up / Page Down belong to the sliders, except while presenting.
    previousScenario = addAction(viewMenu, "actionPreviousScenario", {QKeySequence(Qt::Key_PageUp)});
    nextScenario = addAction(viewMenu, "actionNextScenario", {QKeySequence(Qt::Key_PageDown)});
    for (QAction *action : presentationOnly())
        action->setEnabled(false);
    viewMenu->addSeparator();
    languageMenu = viewMenu->addMenu(QString());
    languages = new QActionGroup(this);
    const QString current = translations::current();
    for (const QString &code : translations::available()) {
        QAction *action = languageMenu->addAction(translations::displayName(code));
        action->setObjectName(QStringLiteral("actionLanguage_") + code);
        action->setCheckable(true);
        action->setChecked(code == current);
        action->setData(code);
        languages->addAction(action);
        connect(action, &QAction::triggered, this, [code] {
            appsettings::setLanguage(code);
            translations::apply(code);
        });
    }

    toolsMenu = bar->addMenu(QString());
    whatDoINeed = addAction(toolsMenu, "actionWhatDoINeed");
    explainLog = addAction(toolsMenu, "actionExplainLog");

    helpMenu = bar->addMenu(QString());
    about = addAction(helpMenu, "actionAbout");
}

QList<QAction *> WindowActions::presentationOnly() const
{
    return {zoomIn, zoomOut, zoomReset, previousScenario, nextScenario};
}

void WindowActions::retranslate()
{
    fileMenu->setTitle(tr("&File"));
    viewMenu->setTitle(tr("&View"));
    languageMenu->setTitle(tr("&Language"));
    toolsMenu->setTitle(tr("&Tools"));
    helpMenu->setTitle(tr("&Help"));
    openScenario->setText(tr("Op&en scenario (.kvscope)…"));
    saveScenario->setText(tr("&Save scenario"));
    saveScenarioAs->setText(tr("Save scenario &as…"));
    exportReport->setText(tr("Expor&t report (PNG, PDF)…"));
    exportFigures->setText(tr("Export fi&gures (CSV, JSON)…"));
    openModel->setText(tr("&Open model (config.json, .gguf)…"));
    openModelFolder->setText(tr("Open model &folder…"));
    pasteConfig->setText(tr("&Paste config.json…"));
    addCustomGpu->setText(tr("Add c&ustom GPU…"));
    calibrateSpeed->setText(tr("Calibrate spee&d to your measurement…"));
    recentMenu->setTitle(tr("&Recent files"));
    copyFigures->setText(tr("&Copy figures"));
    copyJson->setText(tr("Copy plan as &JSON"));
    quit->setText(tr("&Quit"));
    showExplorer->setText(tr("&Explorer"));
    showQuantization->setText(tr("&Quantization simulator"));
    showCompare->setText(tr("&Compare precisions"));
    toggleGrowthAxis->setText(tr("Growth chart: sequence length / batch size"));
    cycleKvPrecision->setText(tr("Next KV precision (FP32 → FP16/BF16 → FP8)"));
    fullScreen->setText(tr("&Full screen"));
    whatDoINeed->setText(tr("&What do I need…"));
    explainLog->setText(tr("&Explain a start-up log…"));
    explainLog->setToolTip(tr("Read a vLLM start-up log, plan what it describes and say where each GiB went "
                              "(also: drop a .log or .txt file on the window)."));
    formulaPanel->setText(tr("F&ormula panel"));
    addToStrip->setText(tr("&Add scenario to the strip"));
    presentation->setText(tr("&Presentation mode"));
    zoomIn->setText(tr("Zoom &in (presentation)"));
    zoomOut->setText(tr("Zoom o&ut (presentation)"));
    zoomReset->setText(tr("Zoom to 100 % (presentation)"));
    previousScenario->setText(tr("Previous scenario of the strip (presentation)"));
    nextScenario->setText(tr("Next scenario of the strip (presentation)"));
    about->setText(tr("&About kvscope"));
}

} // namespace kvscope
