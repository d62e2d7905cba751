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

} // namespace

QString growthAxisName(GrowthAxis axis)
{
    return enumName(growthAxes, axis);
}

GrowthAxis parseGrowthAxis(const QString &text, const QString &option)
{
    if (const std::optional<GrowthAxis> axis = enumValue(growthAxes, text))
        return *axis;
    throw Error(QStringLiteral("%1: expected 'sequence' or 'batch', got '%2'").arg(option, text));
}

QString axisScaleName(AxisScale scale)
{
    return enumName(axisScales, scale);
}

AxisScale parseAxisScale(const QString &text, const QString &option)
{
    if (const std::optional<AxisScale> scale = enumValue(axisScales, text))
        return *scale;
    throw Error(QStringLiteral("%1: expected 'linear' or 'log', got '%2'").arg(option, text));
}

double axisPosition(std::int64_t x, AxisScale scale)
{
    return scale == AxisScale::Logarithmic ? std::log2(double(std::max<std::int64_t>(1, x))) : double(x);
}

} // namespace kvscope
