// SPDX-License-Identifier: MIT
#pragma once

#include "plan/growth.h"
#include "plan/scenario.h"

#include <QList>

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
    bool counterfactuals = false;
};

namespace appsettings {

/// Forgets everything (--reset-settings).
void reset();

void saveScenario(const Scenario &scenario);
/// The growth chart's choices: its axis, its scale, the counterfactual lines.
void saveChartChoices(GrowthAxis growthAxis, AxisScale growthScale, bool counterfactuals);
/// Reads the saved scenario; models and GPUs resolve through `library`
/// (presets, imported models, custom GPUs). What cannot be restored falls
/// back to the default and is reported to `reader`; a scenario the planner
/// refuses as a whole falls back to the default scenario.
RestoredState loadScenario(settings::SettingsReader &reader, const UserLibrary &library);

/// The scenario strip, each entry saved with the same keys as the scenario.
void saveScenarioStrip(const QList<Scenario> &scenarios);
/// Reads the strip back; an entry that cannot be restored as a whole is dropped
/// and reported (a single value falls back to its default, as for the scenario).
QList<Scenario> loadScenarioStrip(settings::SettingsReader &reader, const UserLibrary &library);

/// The saved interface language ("en", "zh_CN"; empty = the system's).
QString language(settings::SettingsReader &reader);
void setLanguage(const QString &code);

} // namespace appsettings
} // namespace kvscope
