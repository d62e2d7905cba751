// SPDX-License-Identifier: MIT
// kvscope calc: one Scenario in, one MemoryPlan out, as a table or JSON.
#include "app/cli/calccommand.h"

#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "app/cli/plantext.h"
#include "core/analysis/fixes.h"
#include "core/analysis/formula.h"
#include "core/common/error.h"
#include "core/library/library.h"
#include "core/output/calcjson.h"
#include "core/output/planjson.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"

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
}

QString calcOutput(const CalcCommandLine &commandLine, const ScenarioResolvers &resolvers)
{
    const Scenario scenario = commandLine.scenarioOptions.scenario(commandLine.parser, resolvers);
    const MemoryPlan plan = planMemory(scenario);
    if (commandLine.parser.isSet(commandLine.json)) {
        const QJsonObject json =
            calcJson(scenario, plan, proposeFixes(scenario, plan, GpuLibrary::builtin().presets()));
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
        writeOut(calcOutput(commandLine, builtinResolvers()));
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
