// SPDX-License-Identifier: MIT
// kvscope calc: one Scenario in, one MemoryPlan out, as a table or JSON.
#include "app/cli/calccommand.h"

#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "app/cli/plantext.h"
#include "core/analysis/fixes.h"
#include "core/analysis/formula.h"
#include "core/analysis/logexplanation.h"
#include "core/analysis/startuplog.h"
#include "core/common/error.h"
#include "core/formats/benchresult.h"
#include "core/library/library.h"
#include "core/output/calcjson.h"
#include "core/output/planjson.h"
#include "core/plan/planner.h"
#include "core/plan/speedcalibration.h"
#include "core/scenario/launchline.h"

#include <cmath>
#include <optional>

#include <QDate>
#include <QJsonDocument>
#include <QJsonObject>

namespace kvscope::cli {

CalcCommandLine::CalcCommandLine()
{
    parser.setApplicationDescription(
        QStringLiteral("Plan GPU memory for serving a model with vLLM: weights, KV cache, activations, "
                       "headroom, KV capacity and maximum concurrency. Option names follow vLLM's engine "
                       "arguments. Units: GiB = 2^30 bytes; byte figures are per GPU."));
    parser.addHelpOption();
    scenarioOptions.addTo(parser);
    parser.addOption(json);
    parser.addOption(formulas);
    parser.addOption(measuredItl);
    parser.addOption(benchResult);
    parser.addOption(memoryFromLog);
}

namespace {

/// --measured-itl-ms: a number of milliseconds above 0.
double measuredItlSeconds(const QString &text)
{
    bool ok = false;
    const double ms = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(ms) || ms <= 0)
        throw Error(QStringLiteral("%1: must be a positive number of milliseconds, got '%2'")
                        .arg(commandFlag(CommandOption::MeasuredItlMs), text));
    return ms / 1e3;
}

/// The measurement the command line gives, if any: this scenario's own ITL, or a benchmark's.
std::optional<SpeedMeasurement> measurement(const CalcCommandLine &commandLine, const Scenario &scenario,
                                            QStringList *warnings)
{
    const QCommandLineParser &parser = commandLine.parser;
    const bool typed = parser.isSet(commandLine.measuredItl), bench = parser.isSet(commandLine.benchResult);
    if (typed && bench)
        throw Error(
            QStringLiteral("%1 and %2 each give a measurement; give one")
                .arg(commandFlag(CommandOption::MeasuredItlMs), commandFlag(CommandOption::BenchResult)));
    if (typed)
        return SpeedMeasurement{measuredItlSeconds(parser.value(commandLine.measuredItl)), scenario.batchSize,
                                scenario.seqLen, commandFlag(CommandOption::MeasuredItlMs)};
    if (!bench)
        return std::nullopt;
    const BenchResult result = readBenchResult(parser.value(commandLine.benchResult));
    const QString mismatch =
        benchModelMismatch(result, scenario.model.id, scenario.model.name, scenario.model.hfRepoIds);
    if (!mismatch.isEmpty() && warnings)
        *warnings << mismatch;
    return SpeedMeasurement{result.medianItlMs / 1e3, result.concurrency, result.contextLen, result.origin};
}

/// --memory-from-log: the log's measured memory, refused where its deployment is not the scenario's.
MeasuredMemory memoryFromLog(const QString &path, const Scenario &scenario,
                             const ScenarioResolvers &resolvers)
{
    const QString flag = commandFlag(CommandOption::MemoryFromLog);
    try {
        const LogExplanation explained = explainStartupLog(readStartupLogFile(path), {}, resolvers);
        MeasuredMemory measured = measuredMemory(explained, QDate::currentDate());
        if (const std::optional<QString> differs = measured.mismatch(scenario))
            throw Error(QStringLiteral("the log ran another deployment: %1").arg(*differs));
        return measured;
    } catch (const Error &error) {
        throw Error(QStringLiteral("%1: %2").arg(flag, error.message()));
    }
}

} // namespace

QString calcOutput(const CalcCommandLine &commandLine, const ScenarioResolvers &resolvers,
                   QStringList *warnings)
{
    Scenario scenario = commandLine.scenarioOptions.scenario(commandLine.parser, resolvers);
    if (commandLine.parser.isSet(commandLine.memoryFromLog))
        scenario.measuredMemory =
            memoryFromLog(commandLine.parser.value(commandLine.memoryFromLog), scenario, resolvers);
    MemoryPlan plan = planMemory(scenario);
    std::optional<SpeedCalibration> calibration;
    if (const std::optional<SpeedMeasurement> measured = measurement(commandLine, scenario, warnings)) {
        calibration = calibrateSpeed(scenario, plan, *measured);
        scenario.speedCalibration = measuredSpeedScale(*calibration, scenario, QDate::currentDate());
        plan = planMemory(scenario);
    }
    if (commandLine.parser.isSet(commandLine.json)) {
        const QJsonObject json = calcJson(
            scenario, plan, proposeFixes(scenario, plan, GpuLibrary::builtin().presets()), calibration);
        return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
    }
    if (commandLine.parser.isSet(commandLine.formulas))
        return launchLine(scenario).text() + QLatin1Char('\n') + formulaSheet(scenario, plan).text();
    return planAsText(plan) + QStringLiteral("\nLaunch\n") + launchLine(scenario).text();
}

int runCalc(const QStringList &arguments)
{
    CalcCommandLine commandLine;
    if (const std::optional<int> exitCode = parseCommandLine(commandLine.parser, arguments))
        return *exitCode;
    try {
        QStringList warnings;
        const QString output = calcOutput(commandLine, builtinResolvers(), &warnings);
        for (const QString &warning : std::as_const(warnings))
            warn(warning);
        writeOut(output);
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
