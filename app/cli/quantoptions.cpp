// SPDX-License-Identifier: MIT
#include "app/cli/quantoptions.h"

#include "core/common/error.h"
#include "core/common/integertext.h"
#include "core/quantization/histogram.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"

#include <cmath>
#include <limits>

namespace kvscope::cli {

using namespace kvscope::quant;

std::uint64_t parseSeed(const QString &text)
{
    bool ok = false;
    const qulonglong seed = text.trimmed().toULongLong(&ok);
    if (!ok)
        throw Error(QStringLiteral("--seed: '%1' is not a non-negative integer").arg(text));
    return seed;
}

double parseStd(const QString &text)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !(value > 0) || !std::isfinite(value))
        throw Error(QStringLiteral("--std: '%1' is not a positive number").arg(text));
    const QString problem = standardDeviationProblem(value);
    if (!problem.isEmpty())
        throw Error(QStringLiteral("--std: '%1' %2").arg(text, problem));
    return value;
}

int parseGroupSize(const QString &text)
{
    const QString option = QStringLiteral("--group-size");
    return validateGroupSize(parseInteger(text, option, std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<int>::max(),
                                          QStringLiteral("%1: '%2' is not an integer").arg(option, text)));
}

QuantizationChoices quantizationChoices(const QCommandLineParser &parser, const QuantOptions &o,
                                        const QCommandLineOption &groupSize, QuantizationChoices c)
{
    if (parser.isSet(o.input))
        c.input = parser.value(o.input);
    if (parser.isSet(o.tensor))
        c.tensor = parser.value(o.tensor);
    if (parser.isSet(o.scheme)) {
        c.schemes.clear();
        for (const QString &value : parser.values(o.scheme))
            c.schemes << value.split(QLatin1Char(','), Qt::SkipEmptyParts);
        parseSchemeList(c.schemes); // names checked here, with the option named
    }
    if (parser.isSet(o.rows))
        c.rows = parsePositive(parser.value(o.rows), QStringLiteral("--rows"));
    if (parser.isSet(o.cols))
        c.cols = parsePositive(parser.value(o.cols), QStringLiteral("--cols"));
    if (parser.isSet(o.seed))
        c.seed = parseSeed(parser.value(o.seed));
    if (parser.isSet(o.deviation))
        c.standardDeviation = parseStd(parser.value(o.deviation));
    if (parser.isSet(groupSize))
        c.groupSize = parseGroupSize(parser.value(groupSize));
    if (parser.isSet(o.bins)) {
        const std::int64_t bins = parsePositive(parser.value(o.bins), QStringLiteral("--bins"));
        if (bins > MaxHistogramBins)
            throw Error(QStringLiteral("--bins: %1 is more than %2").arg(bins).arg(MaxHistogramBins));
        c.bins = int(bins);
    }
    if (parser.isSet(o.noSaturation))
        c.saturate = false;
    if (parser.isSet(o.unitScale))
        c.unitScale = true;
    return c;
}

} // namespace kvscope::cli
