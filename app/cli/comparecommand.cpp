// SPDX-License-Identifier: MIT
// kvscope compare: 2 to 4 variants of one scenario side by side — memory,
// capacity, speed and accuracy — as a table or JSON.
#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "app/cli/comparetext.h"
#include "app/cli/scenariooptions.h"
#include "app/cli/variants.h"
#include "core/common/error.h"
#include "core/compare/comparison.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace kvscope::cli {

int runCompare(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare 2 to 4 variants of a scenario side by side: weights, KV cache, capacity, concurrency, speed "
        "and accuracy (simulated SQNR), each with its difference to the first. Without --variant: the seed "
        "question's four columns, BF16 or AWQ INT4 weights with 16-bit or FP8 KV (or, with "
        "--serving-features, "
        "what a drafter, LoRA slots and a shared prefix each do). Units: GiB = 2^30 bytes; "
        "byte figures are per GPU."));
    parser.addHelpOption();
    const ScenarioOptions scenarioOptions;
    scenarioOptions.addTo(parser);
    const QCommandLineOption variant = variantOption();
    const QCommandLineOption servingFeatures = servingFeaturesOption();
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOptions({variant, servingFeatures, jsonOption});

    if (const std::optional<int> exitCode = parseCommandLine(parser, arguments))
        return *exitCode;
    try {
        const Scenario base = scenarioOptions.scenario(parser);
        int exitCode = Success;
        const std::optional<QList<ComparisonColumn>> columns = comparisonColumns(
            scenarioOptions, base, parser.values(variant), parser.isSet(servingFeatures), exitCode);
        if (!columns)
            return exitCode;
        AccuracyCache cache;
        const Comparison comparison = compare(*columns, cache);
        if (parser.isSet(jsonOption))
            writeOut(QString::fromUtf8(
                QJsonDocument(comparisonToJson(comparison)).toJson(QJsonDocument::Indented)));
        else
            writeOut(comparisonAsText(comparison));
        return Success;
    } catch (const Error &error) {
        return fail(error.message());
    }
}

} // namespace kvscope::cli
