// SPDX-License-Identifier: MIT
#include "core/analysis/growthoptions.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

namespace {

const EnumSpelling<GrowthAxis> growthAxes[] = {
    {GrowthAxis::SequenceLength, "sequence"},
    {GrowthAxis::BatchSize, "batch"},
};

const EnumSpelling<AxisScale> axisScales[] = {
    {AxisScale::Linear, "linear"},
    {AxisScale::Logarithmic, "log"},
};

/// The value `text` spells in `table`; else an error naming `option`: "expected 'a' or 'b', got 'c'".
template <class Enum, std::size_t N>
Enum parseSpelling(const EnumSpelling<Enum> (&table)[N], const QString &text, const QString &option)
{
    if (const std::optional<Enum> value = enumValue(table, text))
        return *value;
    QStringList quoted;
    for (const QString &name : enumChoices(table))
        quoted << QLatin1Char('\'') + name + QLatin1Char('\'');
    throw Error(
        QStringLiteral("%1: expected %2, got '%3'").arg(option, quoted.join(QStringLiteral(" or ")), text));
}

} // namespace

QString growthAxisName(GrowthAxis axis)
{
    return enumName(growthAxes, axis);
}

GrowthAxis parseGrowthAxis(const QString &text, const QString &option)
{
    return parseSpelling(growthAxes, text, option);
}

QString axisScaleName(AxisScale scale)
{
    return enumName(axisScales, scale);
}

AxisScale parseAxisScale(const QString &text, const QString &option)
{
    return parseSpelling(axisScales, text, option);
}

double axisPosition(std::int64_t x, AxisScale scale)
{
    return scale == AxisScale::Logarithmic ? std::log2(double(std::max<std::int64_t>(1, x))) : double(x);
}

} // namespace kvscope
