// SPDX-License-Identifier: MIT
// kvscope compare: 2 to 4 variants of one scenario side by side — memory,
// capacity, speed and accuracy — as a table or JSON.
#include "cliio.h"
#include "commands.h"
#include "common/error.h"
#include "compare/comparison.h"
#include "comparetext.h"
#include "scenariooptions.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QProcess>

namespace kvscope::cli {

namespace {

/// Each --variant's options on top of the shared ones; a bad one names the
/// variant, its text and the option.
std::optional<QList<Scenario>> variantScenarios(const ScenarioOptions &options, const Scenario &base,
                                                const QStringList &variants, int &exitCode)
{
    QList<Scenario> scenarios;
    for (qsizetype i = 0; i < variants.size(); ++i) {
        const QString prefix = QStringLiteral("--variant %1 (\"%2\")").arg(i + 1).arg(variants.at(i));
        QCommandLineParser parser;
        options.addTo(parser);
        if (!parser.parse(QStringList{QStringLiteral("kvscope")} + QProcess::splitCommand(variants.at(i)))) {
            exitCode = fail(QStringLiteral("%1: %2").arg(prefix, parser.errorText()), UsageError);
            return std::nullopt;
        }
        if (!parser.positionalArguments().isEmpty()) {
            exitCode = fail(QStringLiteral("%1: unexpected argument '%2'")
                                .arg(prefix, parser.positionalArguments().first()),
                            UsageError);
            return std::nullopt;
        }
        try {
            scenarios << applyValues(base, options.givenValues(parser));
        } catch (const Error &error) {
            exitCode = fail(QStringLiteral("%1: %2").arg(prefix, error.message()));
            return std::nullopt;
        }
    }
    return scenarios;
}

} // namespace

int runCompare(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare 2 to 4 variants of a scenario side by side: weights, KV cache, capacity, concurrency, speed "
        "and accuracy (simulated SQNR), each with its difference to the first. Without --variant: the seed "
        "question's four columns, BF16 or AWQ INT4 weights with 16-bit or FP8 KV. Units: GiB = 2^30 bytes; "
        "byte figures are per GPU."));
    parser.addHelpOption();
    const ScenarioOptions scenarioOptions;
    scenarioOptions.addTo(parser);
    const QCommandLineOption variantOption(
        QStringLiteral("variant"),
        QStringLiteral(
            "Calc options applied on top of the shared ones for one column, quoted as one argument "
            "(\"--kv-cache-dtype fp8\"; \"\" for the shared options alone). Repeat 2 to 4 times."),
        QStringLiteral("options"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOptions({variantOption, jsonOption});

    if (const std::optional<int> exitCode = parseCommandLine(parser, arguments))
        return *exitCode;
    const QStringList variants = parser.values(variantOption);
    if (!variants.isEmpty() && (variants.size() < 2 || variants.size() > MaxComparisonColumns))
        return fail(
            QStringLiteral("--variant: give 2 to %1 variants, got %2 (--variant \"\" is the shared options "
                           "alone)")
                .arg(MaxComparisonColumns)
                .arg(variants.size()),
            UsageError);
    try {
        const Scenario base = scenarioOptions.scenario(parser);
        QList<ComparisonColumn> columns;
        if (variants.isEmpty()) {
            columns = seedQuestionColumns(base);
        } else {
            int exitCode = Success;
            const std::optional<QList<Scenario>> scenarios =
                variantScenarios(scenarioOptions, base, variants, exitCode);
            if (!scenarios)
                return exitCode;
            columns = labelledColumns(*scenarios);
        }
        AccuracyCache cache;
        const Comparison comparison = compare(columns, cache);
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
