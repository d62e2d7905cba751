// SPDX-License-Identifier: MIT
#include "app/cli/variants.h"

#include "app/cli/cliio.h"
#include "core/common/error.h"

#include <QCommandLineParser>

namespace kvscope::cli {

namespace {

/// The characters a backslash escapes inside double quotes (XCU 2.2.3); before any
/// other, the backslash stays.
bool escapableInDoubleQuotes(QChar c)
{
    return c == QLatin1Char('$') || c == QLatin1Char('`') || c == QLatin1Char('"') ||
           c == QLatin1Char('\\') || c == QLatin1Char('\n');
}

/// The words of `text` as a POSIX shell splits them (XCU 2.2 Quoting, 2.6.5 Field
/// Splitting), expanding nothing: blanks separate words; a backslash keeps the next
/// character; single quotes keep all up to the next one; double quotes keep all but
/// the backslash's escapes. Throws kvscope::Error for an open quote or a final backslash.
QStringList shellWords(const QString &text)
{
    QStringList words;
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n')) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == QLatin1Char('\\')) {
            if (++i == text.size())
                throw Error(QStringLiteral("a \\ at the end escapes nothing"));
            word += text.at(i);
        } else if (c == QLatin1Char('\'')) {
            const qsizetype close = text.indexOf(QLatin1Char('\''), i + 1);
            if (close < 0)
                throw Error(QStringLiteral("a ' quote is not closed"));
            word += text.mid(i + 1, close - i - 1);
            i = close;
        } else if (c == QLatin1Char('"')) {
            for (++i;; ++i) {
                if (i == text.size())
                    throw Error(QStringLiteral("a \" quote is not closed"));
                if (text.at(i) == QLatin1Char('"'))
                    break;
                if (text.at(i) == QLatin1Char('\\') && i + 1 < text.size() &&
                    escapableInDoubleQuotes(text.at(i + 1)))
                    ++i;
                word += text.at(i);
            }
        } else {
            word += c;
        }
    }
    if (inWord)
        words << word;
    return words;
}

} // namespace

QCommandLineOption variantOption()
{
    return QCommandLineOption(
        QStringLiteral("variant"),
        QStringLiteral(
            "Calc options applied on top of the shared ones for one column, quoted as one argument "
            "(\"--kv-cache-dtype fp8\"; \"\" for the shared options alone). Repeat 2 to 4 times."),
        QStringLiteral("options"));
}

QCommandLineOption servingFeaturesOption()
{
    return QCommandLineOption(
        QStringLiteral("serving-features"),
        QStringLiteral(
            "Instead of the seed question: the bare deployment, then each serving feature alone — "
            "the model's speculative drafter (%1 drafts a step), %2 LoRA slots of rank %3, a system "
            "prompt of half --seq-len shared by every request (those the engine and model take).")
            .arg(ServingFeatureDrafts)
            .arg(ServingFeatureLoraSlots)
            .arg(ServingFeatureLoraRank));
}

std::optional<QList<ComparisonColumn>> comparisonColumns(const ScenarioOptions &options, const Scenario &base,
                                                         const QStringList &variants, bool servingFeatures,
                                                         int &exitCode)
{
    if (servingFeatures && !variants.isEmpty()) {
        exitCode = fail(QStringLiteral("--serving-features: give it without --variant (it sets the columns)"),
                        UsageError);
        return std::nullopt;
    }
    if (servingFeatures)
        return servingFeatureColumns(base);
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
        QStringList words;
        try {
            words = shellWords(variants.at(i));
        } catch (const Error &error) {
            exitCode = fail(QStringLiteral("%1: %2").arg(prefix, error.message()), UsageError);
            return std::nullopt;
        }
        QCommandLineParser parser;
        options.addTo(parser);
        if (!parser.parse(QStringList{QStringLiteral("kvscope")} + words)) {
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
