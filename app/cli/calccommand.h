// SPDX-License-Identifier: MIT
// kvscope calc's command line and what it prints, apart from the printing:
// the fuzz target of the command line runs the same code in-process.
#pragma once

#include "app/cli/scenariooptions.h"
#include "core/scenario/scenariovalues.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

namespace kvscope::cli {

/// calc's parser with its options (the scenario's, --json and --formulas).
struct CalcCommandLine
{
    CalcCommandLine();

    QCommandLineParser parser;
    ScenarioOptions scenarioOptions;
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print one JSON object.")};
    QCommandLineOption formulas{
        QStringLiteral("formulas"),
        QStringLiteral(
            "Print the vllm serve command and the formulas behind the figures, with the numbers.")};
};

/// What calc prints for the parsed options, the model and GPU found by
/// `resolvers`: the plan as a table, as JSON with the fixes that fit, or
/// the launch line and the formulas with their numbers (--formulas).
/// Throws kvscope::Error naming the option and value on bad input.
QString calcOutput(const CalcCommandLine &commandLine, const ScenarioResolvers &resolvers);

} // namespace kvscope::cli
