// SPDX-License-Identifier: MIT
#pragma once

#include "plan/growth.h"
#include "plan/scenario.h"

#include <QStringList>

namespace kvscope {

class UserLibrary;

/// The explorer's state in QSettings, read back with validation: anything
/// unreadable or out of range falls back to the default and is reported.
struct RestoredState
{
    Scenario scenario;
    GrowthAxis growthAxis = GrowthAxis::SequenceLength;
    QStringList problems; ///< one message per value that was ignored
};

namespace appsettings {

/// Forgets everything (--reset-settings).
void reset();

void saveScenario(const Scenario &scenario, GrowthAxis growthAxis);
/// Reads the saved scenario; models and GPUs resolve through `library`
/// (presets, imported models, custom GPUs).
RestoredState loadScenario(const Scenario &defaults, const UserLibrary &library);

QString language();
void setLanguage(const QString &code);

} // namespace appsettings
} // namespace kvscope
