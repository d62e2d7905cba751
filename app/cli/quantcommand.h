// SPDX-License-Identifier: MIT
// kvscope quant's command line and the simulation it asks for, apart from
// running it: the fuzz target of the command line checks the same code in-process.
#pragma once

#include "app/cli/quantoptions.h"
#include "core/quantization/quantrun.h"

#include <QCommandLineParser>

namespace kvscope::cli {

/// quant's parser with its options.
struct QuantCommandLine
{
    QuantCommandLine();

    QCommandLineParser parser;
    QuantOptions options;
};

/// The simulation the parsed options ask for (not --list): schemes, bins and
/// the tensor's source, checked but not loaded. Throws kvscope::Error naming
/// the option and value.
quant::QuantRequest quantRequest(const QCommandLineParser &parser, const QuantOptions &options);

} // namespace kvscope::cli
