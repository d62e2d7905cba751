// SPDX-License-Identifier: MIT
#include "core/scenario/scenario.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/integertext.h"
#include "core/model/imagetokens.h"

#include <limits>
#include <optional>

#include <QRegularExpression>

namespace kvscope {

std::int64_t parseUtilization(const QString &text, const QString &option)
{
    // Decimal text to millionths without going through a double; the range is checked
    // on every digit given, so 1.0000009 is above 1 rather than rounded down to it.
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d+)(?:\\.(\\d*))?\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    const auto fail = [&]() -> std::int64_t {
        throw Error(QStringLiteral("%1: must be a number in (0, 1], got '%2'").arg(option, text));
    };
    if (!match.hasMatch() || match.captured(1).size() > 6)
        return fail();
    const std::int64_t whole = match.captured(1).toLongLong();
    const QString fraction = match.captured(2);
    const bool fractionIsZero = fraction.count(QLatin1Char('0')) == fraction.size();
    if (whole > 1 || (whole == 1 && !fractionIsZero) || (whole == 0 && fractionIsZero))
        return fail();
    const std::int64_t ppm =
        whole * 1'000'000 + fraction.left(6).leftJustified(6, QLatin1Char('0')).toLongLong();
    if (ppm == 0)
        throw Error(
            QStringLiteral("%1: '%2' is below 0.000001, the smallest share kvscope plans").arg(option, text));
    return ppm;
}

namespace {

/// Decimal text ("2.5") to thousandths without a double, as parseUtilization does; "auto" is
/// 0. nullopt for text that is not such a number, finer than 0.001 or of more than 7 whole digits.
std::optional<std::int64_t> thousandths(const QString &text)
{
    if (text.trimmed().compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
        return 0;
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d+)(?:\\.(\\d*))?\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    const QString fraction = match.captured(2);
    const bool finer = fraction.mid(3).count(QLatin1Char('0')) != fraction.mid(3).size();
    if (!match.hasMatch() || match.captured(1).size() > 7 || finer)
        return std::nullopt;
    return match.captured(1).toLongLong() * 1000 +
           fraction.left(3).leftJustified(3, QLatin1Char('0')).toLongLong();
}

} // namespace

std::int64_t parseRequestRate(const QString &text, const QString &option)
{
    const std::optional<std::int64_t> milli = thousandths(text);
    if (!milli)
        throw Error(QStringLiteral("%1: must be requests a second, at least 0 and in steps of 0.001 "
                                   "(0 or auto: a closed loop of %3 users), got '%2'")
                        .arg(option, text, optionFlag(ScenarioField::BatchSize)));
    if (*milli > MaxRequestRateMilli)
        throw Error(QStringLiteral("%1: '%2' requests a second is above a million, the most kvscope plans")
                        .arg(option, text));
    return *milli;
}

std::int64_t parseOffloadingSize(const QString &text, const QString &option)
{
    const std::optional<std::int64_t> milli = thousandths(text);
    if (!milli)
        throw Error(QStringLiteral("%1: must be GiB, at least 0 and in steps of 0.001 (0 or auto: no "
                                   "offloading), got '%2'")
                        .arg(option, text));
    if (*milli > MaxOffloadingMilliGiB)
        throw Error(
            QStringLiteral("%1: '%2' GiB is above a pebibyte, the most kvscope plans").arg(option, text));
    return *milli;
}

void parseImageSize(const QString &text, const QString &option, std::int64_t &width, std::int64_t &height)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{1,6})\\s*[xX×]\\s*(\\d{1,6})\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    const std::int64_t w = match.hasMatch() ? match.captured(1).toLongLong() : 0;
    const std::int64_t h = match.hasMatch() ? match.captured(2).toLongLong() : 0;
    if (w < 1 || h < 1 || w > MaxInputImageSide || h > MaxInputImageSide)
        throw Error(QStringLiteral("%1: must be WIDTHxHEIGHT in pixels, each 1 to %3 (1024x1024), got '%2'")
                        .arg(option, text)
                        .arg(MaxInputImageSide));
    width = w;
    height = h;
}

QString formatImageSize(std::int64_t width, std::int64_t height)
{
    return QStringLiteral("%1x%2").arg(width).arg(height);
}

QString formatThousandths(std::int64_t milli)
{
    QString text = QStringLiteral("%1.%2").arg(milli / 1000).arg(milli % 1000, 3, 10, QLatin1Char('0'));
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text;
}

QString formatRequestRate(std::int64_t milli)
{
    return formatThousandths(milli);
}

std::int64_t parsePositive(const QString &text, const QString &option)
{
    // Bounds beyond "positive" (block sizes, GPU counts) are the planner's: it names the value as given.
    return parseInteger(text, option, 1, std::numeric_limits<std::int64_t>::max(),
                        QStringLiteral("%1: must be a positive integer, got '%2'").arg(option, text));
}

std::int64_t parseOptionalCount(const QString &text, const QString &option)
{
    if (text.trimmed().compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
        return 0;
    return parsePositive(text, option);
}

std::int64_t parseHumanReadableCount(const QString &text, const QString &option)
{
    // vLLM's human_readable_int (vllm/utils/argparse_utils.py): "25.6k" = 25,600, "32K" = 32,768.
    static const QRegularExpression suffixed(QStringLiteral(R"(^\s*(\d+)(?:\.(\d+))?([kKmMgGtT])\s*$)"));
    const QRegularExpressionMatch m = suffixed.match(text);
    if (!m.hasMatch())
        return parseOptionalCount(text, option);
    const QString invalid =
        QStringLiteral("%1: must be a positive integer (or one with vLLM's k, m, g, t or K, M, "
                       "G, T suffix), got '%2'")
            .arg(option, text.trimmed());
    const QChar suffix = m.captured(3).at(0);
    const int power = int(QStringLiteral("kmgt").indexOf(suffix.toLower())) + 1;
    const bool binary = suffix.isUpper();
    if (binary && m.hasCaptured(2))
        throw Error(QStringLiteral("%1: %2: vLLM allows no decimals with a binary suffix (%3 is decimal)")
                        .arg(option, text.trimmed(),
                             m.captured(1) + QLatin1Char('.') + m.captured(2) + suffix.toLower()));
    // Exact: the whole part and the decimals scaled apart, vLLM's int(float(number) x multiplier) truncating
    // what the multiplier leaves below one.
    std::int64_t value = 0;
    try {
        Checked multiplier(1);
        for (int i = 0; i < power; ++i)
            multiplier *= binary ? 1024 : 1000;
        Checked whole = Checked(m.captured(1).toLongLong()) * multiplier.value();
        if (const QString decimals = m.captured(2).left(15); !decimals.isEmpty()) {
            Checked scale(1);
            for (qsizetype i = 0; i < decimals.size(); ++i)
                scale *= 10;
            whole += (Checked(decimals.toLongLong()) * multiplier.value()).value() / scale.value();
        }
        value = whole.value();
    } catch (const Error &) {
        throw Error(QStringLiteral("%1: %2 is larger than %3")
                        .arg(option, text.trimmed())
                        .arg(std::numeric_limits<std::int64_t>::max()));
    }
    if (m.captured(1).size() > 18 || value < 1)
        throw Error(invalid);
    return value;
}

QString formatUtilization(std::int64_t ppm)
{
    QString text = QStringLiteral("%1.%2").arg(ppm / 1'000'000).arg(ppm % 1'000'000, 6, 10, QLatin1Char('0'));
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text;
}

std::int64_t Scenario::gpuCount() const
{
    return (Checked(tensorParallelSize) * pipelineParallelSize * dataParallelSize).value();
}

} // namespace kvscope
