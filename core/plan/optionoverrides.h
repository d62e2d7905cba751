// SPDX-License-Identifier: MIT
// The command-line options that describe a Scenario, mapped to its fields
// once: `kvscope calc`, the variants of `kvscope compare` and the comparison
// columns of scenario files all read option text through applyOverrides().
#pragma once

#include "plan/scenario.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace kvscope {

/// Option text by option name, spelled as on the command line
/// ({"--kv-cache-dtype": "fp8", "--batch-size": "32"}).
using OptionValues = QMap<QString, QString>;

/// The options applyOverrides() reads, in the order it applies them
/// ("--model" before "--quantization" before "--group-size": each reads the one before).
QStringList scenarioOptionNames();

/// `base` with every option of `options` parsed onto its field, as the command
/// line parses them. An option left out keeps the base's value. Throws
/// kvscope::Error naming the option and the value ("--kv-cache-dtype: unknown
/// ... 'fp9'"), or "--name: unknown option" for a name that sets no field.
Scenario applyOverrides(const Scenario &base, const OptionValues &options);

/// The reverse: the options whose value in `changed` differs from `base`, spelled
/// so that applyOverrides(base, result) gives `changed` back field for field.
/// A model is spelled by its preset id or the path it was imported from, a GPU
/// by its preset id or its custom:MEMORY... text. Throws kvscope::Error for a
/// model or GPU no option can name (pasted configs, GPUs added in the window).
OptionValues differingOptions(const Scenario &base, const Scenario &changed);

} // namespace kvscope
