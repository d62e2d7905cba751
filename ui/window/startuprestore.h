// SPDX-License-Identifier: MIT
#pragma once

#include "core/scenario/scenario.h"
#include "ui/state/appsettings.h"

#include <optional>

#include <QObject>
#include <QStringList>

namespace kvscope {

namespace settings {
class SettingsReader;
}

class ScenarioController;
class UserLibrary;

/// The saved scenario put back at start-up, including the part that arrives
/// later: a saved model imported again in the background (a model folder, a
/// GGUF file). Until it arrives the window shows the saved values with the
/// default model (if they fit it); when it arrives the saved scenario is
/// restored, unless the user (or a scenario file) changed something meanwhile.
class StartupRestore : public QObject
{
    Q_OBJECT

public:
    StartupRestore(ScenarioController *controller, UserLibrary *library, QObject *parent);

    /// Restores the scenario and the chart choices into the controller.
    void restoreScenario(settings::SettingsReader &saved);
    /// The scenario to save at close: `current`, except that a saved model that
    /// has not come back yet stays the saved one.
    Scenario scenarioToSave(Scenario current) const;

Q_SIGNALS:
    /// Saved settings that could not be restored, each named.
    void problemsFound(const QStringList &problems);

private:
    void storedModelImported(const QString &key);
    void storedModelDropped(const QString &key, const QString &problem);

    ScenarioController *m_controller;
    UserLibrary *m_library;
    /// The saved scenario while its model is still being imported, and the
    /// scenario shown meanwhile (the saved one only if nothing changed it).
    struct Pending
    {
        RestoredState saved;
        Scenario shown;
    };
    std::optional<Pending> m_pending;
};

} // namespace kvscope
