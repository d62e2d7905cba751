// SPDX-License-Identifier: MIT
// kvscope calc's command line and what it prints, apart from the printing:
// the fuzz target of the command line runs the same code in-process.
#pragma once

#include "app/cli/scenariooptions.h"
#include "core/common/scenariofield.h"
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
    QCommandLineOption measuredItl{
        commandFlag(CommandOption::MeasuredItlMs).mid(2),
        QStringLiteral("Calibrate the speed to this inter-token latency in ms, measured for this scenario "
                       "(its batch size at its sequence length): both bandwidth efficiencies of the GPU "
                       "are scaled to reproduce it."),
        QStringLiteral("ms")};
    QCommandLineOption benchResult{
        commandFlag(CommandOption::BenchResult).mid(2),
        QStringLiteral("Calibrate the speed to a `vllm bench serve --save-result` JSON: its median ITL at "
                       "its max concurrency and mean context."),
        QStringLiteral("file")};
    QCommandLineOption memoryFromLog{
        commandFlag(CommandOption::MemoryFromLog).mid(2),
        QStringLiteral(
            "Plan with the weights, activation peak, non-torch memory and CUDA-graph estimate a vLLM "
            "start-up log of this deployment measured (the same model, GPU, release, precision, "
            "parallel sizes, max batched tokens and sequences), in place of kvscope's estimates; the "
            "utilization, lengths, batch and KV cache precision may differ."),
        QStringLiteral("log")};
};

/// What calc prints for the parsed options, the model and GPU found by
/// `resolvers`: the plan as a table, as JSON with the fixes that fit, or
/// the launch line and the formulas with their numbers (--formulas).
/// With --measured-itl-ms or --bench-result the speed is calibrated first;
/// what is worth a warning (a benchmark of another model) goes to `warnings`.
/// Throws kvscope::Error naming the option and value on bad input.
QString calcOutput(const CalcCommandLine &commandLine, const ScenarioResolvers &resolvers,
                   QStringList *warnings = nullptr);

} // namespace kvscope::cli
