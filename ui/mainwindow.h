// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

class QActionGroup;
class QLabel;
class QMenu;
class QTabWidget;

namespace kvscope {

class ExplorerView;
class ScenarioController;

/// The main window: tabs (Explorer, ...), menus, keyboard shortcuts, the
/// status bar with the units convention, and the persisted state.
///
/// Architecture: ScenarioController owns the Scenario and its MemoryPlan
/// (computed by the core); ExplorerView and its widgets bind to it with
/// functor connections and only format what the plan holds.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    ScenarioController *controller() const { return m_controller; }
    ExplorerView *explorer() const { return m_explorer; }

    /// Writes the scenario, geometry and view state to QSettings now.
    void saveState();
    /// Messages about settings that could not be restored (also shown in the status bar).
    QStringList restoreProblems() const { return m_restoreProblems; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createMenus();
    void createShortcuts();
    void restoreState();
    void retranslate();
    void updateTitle();
    void showError(const QString &message);
    void cycleKvPrecision();

    ScenarioController *m_controller;
    QTabWidget *m_tabs;
    ExplorerView *m_explorer;
    QLabel *m_units;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QActionGroup *m_languages = nullptr;
    QStringList m_restoreProblems;
};

} // namespace kvscope
