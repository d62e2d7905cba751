// SPDX-License-Identifier: MIT
#include "ui/charts/niceaxis.h"

#include <algorithm>
#include <cmath>

#include <QValueAxis>

namespace kvscope {

namespace {

/// 1, 2, 5 or 10 × 10^n near `x`: at or above it when `ceiling`, else the nearest
/// (Qt Charts' AbstractDomain::niceNumber).
double niceNumber(double x, bool ceiling)
{
    const double power = std::pow(10.0, std::floor(std::log10(x)));
    const double q = x / power;
    if (ceiling)
        return (q <= 1.0 ? 1.0 : q <= 2.0 ? 2.0 : q <= 5.0 ? 5.0 : 10.0) * power;
    return (q < 1.5 ? 1.0 : q < 3.0 ? 2.0 : q < 7.0 ? 5.0 : 10.0) * power;
}

} // namespace

void setNiceRangeFromZero(QValueAxis *axis, double top, int ticks)
{
    double max = 1.0;
    int count = 2;
    if (std::isfinite(top) && top > 0) {
        const double step = niceNumber(niceNumber(top, true) / std::max(1, ticks - 1), false);
        const double steps = std::ceil(top / step);
        max = steps * step;
        count = int(steps) + 1;
    }
    if (axis->min() != 0.0 || axis->max() != max)
        axis->setRange(0.0, max);
    if (axis->tickCount() != count)
        axis->setTickCount(count);
}

int ticksThatFit(double length, double labelSpacing)
{
    return labelSpacing > 0 ? std::clamp(int(length / labelSpacing) + 1, 3, 5) : 5;
}

bool AxisTickFit::update(double length, double labelSpacing)
{
    if (m_ticks > 0 && std::abs(length - m_length) < labelSpacing)
        return false;
    m_length = length;
    const int ticks = ticksThatFit(length, labelSpacing);
    if (ticks == m_ticks)
        return false;
    m_ticks = ticks;
    return true;
}

void setItemAxis(QValueAxis *axis, std::int64_t count)
{
    constexpr double TargetTicks = 8;
    const double step = std::max(1.0, niceNumber(double(count) / TargetTicks, false));
    axis->setRange(0.5, double(count) + 0.5);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
}

} // namespace kvscope
