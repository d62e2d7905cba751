// SPDX-License-Identifier: MIT
#pragma once

#include "plan/growth.h"
#include "plan/scenario.h"

#include <optional>

#include <QString>

namespace kvscope {

class UserLibrary;

namespace settings {
class SettingsReader;
}

/// The explorer's state read back from QSettings: each value checked on its
/// own (settings/settingkeys.h), then the scenario as a whole.
struct RestoredState
{
    Scenario scenario;
    GrowthAxis growthAxis = GrowthAxis::SequenceLength;
    AxisScale growthScale = AxisScale::Linear;
    /// The saved model when it is a saved import still running (UserLibrary
    /// imports them in the background): `scenario` then holds the default
    /// model in its place and is not yet checked as a whole (checkWhole()).
    QString pendingModel;
};

namespace appsettings {

/// Forgets everything (--reset-settings).
void reset();

void saveScenario(const Scenario &scenario, GrowthAxis growthAxis, AxisScale growthScale);
/// Reads the saved scenario; models and GPUs resolve through `library`
/// (presets, imported models, custom GPUs). What cannot be restored falls
/// back to the default and is reported to `reader`; a scenario the planner
/// refuses as a whole falls back to the default scenario.
RestoredState loadScenario(settings::SettingsReader &reader, const UserLibrary &library);
/// Checks the restored scenario as a whole: one the planner refuses becomes
/// the default scenario, and the line that says so is returned.
std::optional<QString> checkWhole(RestoredState &state);

/// The saved interface language ("en", "zh_CN"; empty = the system's).
QString language(settings::SettingsReader &reader);
void setLanguage(const QString &code);

} // namespace appsettings
} // namespace kvscope
