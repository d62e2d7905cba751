// SPDX-License-Identifier: MIT
// The Quantization view's settings, kept in QSettings under "quantization/"
// between runs (keys in settings/settingkeys.h). Reading checks every key on
// its own: a missing value gives that field's default, an unusable one the
// default and a report.
#pragma once

#include "core/document/scenariofile.h"
#include "core/quantization/quantrun.h"
#include "core/quantization/schemecatalogue.h"
#include "ui/state/quantsource.h"

#include <QList>
#include <QStringList>

namespace kvscope {

namespace settings {
class SettingsReader;
}

/// Largest seed the source picker takes.
inline constexpr int MaxSyntheticSeed = 1'000'000;
/// Largest standard deviation the source picker takes (0 = the kind's default).
inline constexpr double MaxSyntheticStd = 1000;

/// What the scheme picker holds.
struct SchemeChoice
{
    QStringList names;   ///< checked schemes, as schemeEntries() names them
    int groupSize = 128; ///< the AWQ/GPTQ default
    int bins = 128;
    bool saturate = true;
    bool unitScale = false;

    SchemeChoice();
};

struct QuantSettings
{
    QuantSource source;
    SchemeChoice schemes;
    bool relativeError = false; ///< histogram of (w - w') / |w| instead of w - w'
    bool logY = true;
};

namespace quantsettings {

/// The saved settings, each field checked; defaults where nothing usable is
/// saved, and a report to `reader` for each value that was unusable. A file
/// source is returned as saved: whether the file still opens is the picker's test.
QuantSettings load(settings::SettingsReader &reader);
void save(const QuantSettings &settings);

/// The settings as a scenario file's quantization section, and back. The
/// way back throws kvscope::Error naming `origin` and the field when the
/// view cannot show a value (a scheme or group size its picker does not
/// offer, a seed or standard deviation beyond its range).
QuantizationChoices toChoices(const QuantSettings &settings);
QuantSettings fromChoices(const QuantizationChoices &choices, const QString &origin);

/// What to simulate for the choices (the command line's export runs it headless).
quant::QuantRequest quantRequest(const QuantizationChoices &choices);

} // namespace quantsettings
} // namespace kvscope
