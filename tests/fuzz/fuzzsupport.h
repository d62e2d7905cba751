// SPDX-License-Identifier: MIT
// What the fuzz targets share: turning bytes into a command line or a file,
// resolvers that never touch the disk, and how a broken property is reported.
#pragma once

#include "core/scenario/scenariovalues.h"

#include <cstddef>
#include <cstdint>

#include <QString>
#include <QStringList>

namespace kvscope::fuzz {

/// "kvscope COMMAND" followed by the input's lines, one argument each (a
/// trailing newline adds no empty argument; invalid UTF-8 becomes U+FFFD).
QStringList commandArguments(const char *command, const std::uint8_t *data, std::size_t size);

/// Built-in presets and custom:... GPUs only: a model given as a path is
/// refused as unknown, so no input makes a target read an arbitrary file
/// (files have targets of their own).
ScenarioResolvers presetResolvers();

/// The one mapping between a Scenario and calc's option values holds for
/// `scenario`: its values read back (through `resolvers`) to a scenario
/// with the same values. Else violated().
void checkScenarioValues(const Scenario &scenario, const ScenarioResolvers &resolvers);

/// A directory of this process's own, removed at exit: in memory (/dev/shm)
/// where there is one, since targets write a file per input and QSettings
/// syncs every file it writes to the disk.
QString scratchDirectory();

/// Writes the bytes to `name` in scratchDirectory() and returns its path,
/// for readers that take a path.
QString scratchFile(const QString &name, const std::uint8_t *data, std::size_t size);

/// A property every accepted input must have was broken: prints it and aborts,
/// which libFuzzer reports as a crash and the corpus replay as a failure.
[[noreturn]] void violated(const char *property, const QString &detail);

} // namespace kvscope::fuzz
