// SPDX-License-Identifier: MIT
#pragma once

#include "core/scenario/scenario.h"
#include "ui/state/appsettings.h"

#include <functional>
#include <optional>

#include <QList>
#include <QMainWindow>
#include <QMessageBox>
#include <QPalette>
#include <QPointer>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QTabWidget;

namespace kvscope {

namespace settings {
class SettingsReader;
}

class CompareView;
class ExplainLogDialog;
class ExplorerView;
class FitDialog;
class QuantizationView;
class ModelImporter;
class ScenarioController;
class PresentationMode;
class ScenarioSession;
class StartupRestore;
class UserLibrary;
class WindowActions;
struct ImportedModel;

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
    CompareView *compare() const { return m_compare; }
    /// The quantization simulator; created the first time its tab is shown.
    QuantizationView *quantization();
    UserLibrary *library() const { return m_library; }
    /// The "What do I need?" dialog while it is open, else null.
    FitDialog *fitDialog() const;
    /// "Explain a start-up log" while it is open.
    ExplainLogDialog *explainLogDialog() const;
    ModelImporter *importer() const { return m_importer; }

public Q_SLOTS:
    /// Imports a config.json, model folder or .gguf (in the background) and
    /// selects it; a .kvscope file is opened as a scenario instead (from the event loop).
    void importModelPath(const QString &path);
    /// Opens what the user dropped or named: a .log or .txt file is a start-up log to
    /// explain; anything else a model or a scenario (importModelPath()).
    void openPath(const QString &path);
    /// Opens a scenario file (after asking about unsaved changes); false if
    /// it was not opened (cancelled, or refused with a message).
    bool openScenarioFile(const QString &path);
    void openScenario();
    /// Saves to the open file, or asks for one; false if not saved.
    bool saveScenario();
    bool saveScenarioAs();
    void exportReport();
    void exportFigures();
    void openModelFile();
    void openModelFolder();
    void pasteConfig();
    void addCustomGpu();
    void calibrateSpeed();
    /// "What do I need?": the configurations that serve N requests of the current model.
    void showFitDialog();
    /// "Explain a start-up log", explaining the log file at `path` when one is given.
    void showExplainLogDialog(const QString &path = QString());

Q_SIGNALS:
    /// An import was refused; the message names the file, field and value.
    void importFailed(const QString &message);

public:
    /// Writes the scenario, geometry and view state to QSettings now. (Not
    /// saveState(): that is QMainWindow's, for toolbars and docks.)
    void saveSettings();
    /// Shows a view by name: "explorer", "quantization", "compare" or "fit" (the "What do
    /// I need?" dialog over the explorer); false if unknown.
    bool showView(const QString &name);

    /// Messages about settings that could not be restored (also shown in the status bar).
    QStringList restoreProblems() const { return m_restoreProblems; }

    /// Shows `scenario` (from the command line) without saving it over the saved one,
    /// until something is changed in the window. A model file not yet in the library
    /// joins it, as File → Open does. Throws kvscope::Error when the core refuses it.
    void showCommandLineScenario(const Scenario &scenario);

    /// Presentation mode (F5): full screen, the presentation zoom, a high-contrast
    /// palette; Page Up / Page Down step through the scenario strip.
    bool presentationMode() const;
    void setPresentationMode(bool on);
    /// Whether presentation mode goes full screen (the default): `--present --screenshot` at
    /// `--size` presents in the window as sized.
    void setPresentationFullScreen(bool fullScreen);
    /// The zoom presentation mode applies (saved), from 1 to 3.
    double presentationZoom() const;
    void setPresentationZoom(double zoom);
    ScenarioSession *session() const { return m_session; }
    /// How the window asks what to do with unsaved changes (Save, Discard or
    /// Cancel); a QMessageBox unless replaced (tests answer it themselves).
    using UnsavedChangesPrompt =
        std::function<QMessageBox::StandardButton(QWidget *parent, const QString &file)>;
    void setUnsavedChangesPrompt(UnsavedChangesPrompt prompt) { m_prompt = std::move(prompt); }

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    /// An open fit dialog asks again about the current scenario.
    void askFitDialogAgain();
    /// What each menu action does.
    void connectActions();
    void createShortcuts();
    void restoreWindowState(settings::SettingsReader &saved);
    void restoreComparison(settings::SettingsReader &saved);
    /// Shows settings that could not be restored in the status bar (and on stderr).
    void reportRestoreProblems(const QStringList &problems);
    void retranslate();
    void updateTitle();
    void showError(const QString &message);
    /// Shows a refusal in the status bar and, when the window is on screen, in a message box.
    void refuse(const QString &title, const QString &message);
    void cycleKvPrecision();
    void stepScenarioStrip(int delta);
    /// Asks about unsaved changes to the open scenario file; true to go on.
    bool maybeSaveChanges();
    bool saveScenarioTo(const QString &path);
    // Every way in from the UI (files, drops, recent files, pastes, custom
    // GPUs, the controls) catches the core's Error and shows it: one that
    // reached Qt's event loop would end the program.

    /// Adds an import to the library and selects it; false (and shown) when refused.
    bool addImported(const ImportedModel &imported, const QByteArray &configText = {});
    /// Shows why an import was refused; the previous model stays selected.
    void refuseImport(const QString &message);
    void selectImported(const QString &key);
    void rebuildRecentMenu();

    UserLibrary *m_library;
    ModelImporter *m_importer;
    ScenarioController *m_controller;
    QTabWidget *m_tabs;
    ExplorerView *m_explorer = nullptr;
    QWidget *m_quantizationTab;
    CompareView *m_compare = nullptr;
    QuantizationView *m_quantization = nullptr;
    QLabel *m_units;
    StartupRestore *m_restore;
    WindowActions *m_actions = nullptr;
    PresentationMode *m_presentation = nullptr;
    QPointer<FitDialog> m_fitDialog;
    QPointer<ExplainLogDialog> m_explainLogDialog;
    QStringList m_restoreProblems;
    /// The scenario came from the command line and nothing was changed since: not saved.
    bool m_keepSavedScenario = false;
    Scenario m_openedScenario;
    ScenarioSession *m_session = nullptr;
    UnsavedChangesPrompt m_prompt;
};

} // namespace kvscope
