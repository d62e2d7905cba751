// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QObject>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;

namespace kvscope {

/// The main window's menus and actions, held by name: their shortcuts and
/// object names (which the UI tests find them by) are set here, their texts in
/// retranslate(); what each one does is connected by the window. The language
/// actions switch the language themselves.
class WindowActions : public QObject
{
    Q_OBJECT

public:
    /// Builds the menu bar of `window`.
    explicit WindowActions(QMainWindow *window);

    /// Every text, in the current language.
    void retranslate();

    QMenu *fileMenu;
    QAction *openScenario;
    QAction *saveScenario;
    QAction *saveScenarioAs;
    QAction *openModel;
    QAction *openModelFolder;
    QAction *pasteConfig;
    QMenu *recentMenu; ///< filled by the window from the user library
    QAction *addCustomGpu;
    QAction *calibrateSpeed;
    QAction *exportReport;
    QAction *exportFigures;
    QAction *copyFigures;
    QAction *copyJson;
    QAction *quit;

    QMenu *viewMenu;
    QAction *showExplorer;
    QAction *showQuantization;
    QAction *showCompare;
    QAction *toggleGrowthAxis;
    QAction *cycleKvPrecision;
    QAction *fullScreen;
    QAction *formulaPanel; ///< checkable
    QAction *addToStrip;
    QAction *presentation; ///< checkable
    QAction *zoomIn;
    QAction *zoomOut;
    QAction *zoomReset;
    QAction *previousScenario;
    QAction *nextScenario;
    QMenu *languageMenu;
    QActionGroup *languages;

    QMenu *toolsMenu;
    QAction *whatDoINeed;
    QAction *explainLog;

    QMenu *helpMenu;
    QAction *about;

    /// Enabled in presentation mode only (zoom, Page Up / Page Down).
    QList<QAction *> presentationOnly() const;
};

} // namespace kvscope
