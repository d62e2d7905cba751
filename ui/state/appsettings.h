// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/growthoptions.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"

#include <optional>

#include <QList>
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
/// Checks the restored scenario as a whole: one the planner refuses becomes
/// the default scenario, and the line that says so is returned.
std::optional<QString> checkWhole(RestoredState &state);

/// The scenario strip, each entry saved with the same keys as the scenario.
void saveScenarioStrip(const QList<Scenario> &scenarios);
/// Reads the strip back; an entry that cannot be restored as a whole is dropped
/// and reported (a single value falls back to its default, as for the scenario).
QList<Scenario> loadScenarioStrip(settings::SettingsReader &reader, const UserLibrary &library);

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
