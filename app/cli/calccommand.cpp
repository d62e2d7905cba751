// SPDX-License-Identifier: MIT
// kvscope calc: one Scenario in, one MemoryPlan out, as a table or JSON.
#include "cliio.h"
#include "commands.h"
#include "common/error.h"
#include "library/library.h"
#include "plan/fixes.h"
#include "plan/formula.h"
#include "plan/launchline.h"
#include "plan/planjson.h"
#include "plan/planner.h"
#include "plantext.h"
#include "scenariooptions.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

namespace kvscope::cli {

int runCalc(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Plan GPU memory for serving a model with vLLM: weights, KV cache, activations, "
                       "headroom, KV capacity and maximum concurrency. Option names follow vLLM's engine "
                       "arguments. Units: GiB = 2^30 bytes; byte figures are per GPU."));
    parser.addHelpOption();
    const ScenarioOptions scenarioOptions;
    scenarioOptions.addTo(parser);
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOption(jsonOption);
    const QCommandLineOption formulasOption(
        QStringLiteral("formulas"),
        QStringLiteral(
            "Print the vllm serve command and the formulas behind the figures, with the numbers."));
    parser.addOption(formulasOption);

    if (const std::optional<int> exitCode = parseCommandLine(parser, arguments))
        return *exitCode;
    try {
        const Scenario scenario = scenarioOptions.scenario(parser);
        const MemoryPlan plan = planMemory(scenario);
        if (parser.isSet(jsonOption)) {
            const QJsonObject json =
                calcJson(scenario, plan, proposeFixes(scenario, plan, GpuLibrary::builtin().presets()));
            writeOut(QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented)));
        } else if (parser.isSet(formulasOption)) {
            writeOut(launchLine(scenario).text() + QLatin1Char('\n') + formulaSheet(scenario, plan).text());
        } else
            writeOut(planAsText(plan));
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
