// SPDX-License-Identifier: MIT
#include "app/cli/variants.h"

#include "app/cli/cliio.h"
#include "core/common/error.h"

#include <QCommandLineParser>
#include <QProcess>

namespace kvscope::cli {

QCommandLineOption variantOption()
{
    return QCommandLineOption(
        QStringLiteral("variant"),
        QStringLiteral(
            "Calc options applied on top of the shared ones for one column, quoted as one argument "
            "(\"--kv-cache-dtype fp8\"; \"\" for the shared options alone). Repeat 2 to 4 times."),
        QStringLiteral("options"));
}

std::optional<QList<ComparisonColumn>> comparisonColumns(const ScenarioOptions &options, const Scenario &base,
                                                         const QStringList &variants, int &exitCode)
{
    if (variants.isEmpty())
        return seedQuestionColumns(base);
    if (variants.size() < 2 || variants.size() > MaxComparisonColumns) {
        exitCode =
            fail(QStringLiteral(
                     "--variant: give 2 to %1 variants, got %2 (--variant \"\" is the shared options alone)")
                     .arg(MaxComparisonColumns)
                     .arg(variants.size()),
                 UsageError);
        return std::nullopt;
    }
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
    return labelledColumns(scenarios);
}

} // namespace kvscope::cli
