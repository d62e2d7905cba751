// SPDX-License-Identifier: MIT
#pragma once

#include "plan/growth.h"
#include "plan/scenario.h"
#include "plan/scenariovalues.h"

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

/// The Compare view's columns, each its values on top of the scenario.
void saveComparison(const QList<ScenarioValues> &columns);
/// Reads the saved columns (at most four); a column that names an unknown
/// option or that the core refuses on `base` is dropped and reported to `reader`.
QList<ScenarioValues> loadComparison(settings::SettingsReader &reader, const Scenario &base,
                                     const UserLibrary &library);

/// The saved interface language ("en", "zh_CN"; empty = the system's).
QString language(settings::SettingsReader &reader);
void setLanguage(const QString &code);

} // namespace appsettings
} // namespace kvscope
