// SPDX-License-Identifier: MIT
#include "common/units.h"

#include <cmath>
#include <cstdlib>

namespace kvscope {

QString unitsConvention()
{
    return QStringLiteral(
        "Units: GiB = 2^30 bytes, MiB = 2^20 bytes; bytes are per GPU unless marked total.");
}

QString formatGiB(std::int64_t bytes, int decimals)
{
    return QString::number(toGiB(bytes), 'f', decimals) + QStringLiteral(" GiB");
}

QString formatBytes(std::int64_t bytes, int decimals)
{
    const std::int64_t magnitude = bytes < 0 ? -bytes : bytes;
    struct Unit
    {
        std::int64_t size;
        const char *name;
    };
    static constexpr Unit units[] = {
        {std::int64_t{1} << 40, "TiB"}, {GiB, "GiB"}, {MiB, "MiB"}, {KiB, "KiB"}};
    for (const Unit &unit : units) {
        if (magnitude >= unit.size)
            return QString::number(double(bytes) / double(unit.size), 'f', decimals) + QLatin1Char(' ') +
                   QLatin1String(unit.name);
    }
    return QString::number(bytes) + QStringLiteral(" B");
}

QString formatCount(std::int64_t value)
{
    const bool negative = value < 0;
    // Work on the unsigned magnitude so INT64_MIN formats correctly.
    std::uint64_t magnitude = negative ? std::uint64_t(0) - std::uint64_t(value) : std::uint64_t(value);
    QString digits = QString::number(magnitude);
    for (int i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return negative ? QLatin1Char('-') + digits : digits;
}

QString formatParameterCount(std::int64_t parameters)
{
    const double billions = double(parameters) / 1e9;
    if (billions >= 100)
        return QString::number(billions, 'f', 0) + QLatin1Char('B');
    if (billions >= 1)
        return QString::number(billions, 'f', 2) + QLatin1Char('B');
    return QString::number(double(parameters) / 1e6, 'f', 0) + QLatin1Char('M');
}

QString formatDuration(double seconds)
{
    static const char *const names[] = {"s", "ms", "µs"};
    double value = seconds;
    int unit = 0;
    while (unit < 2 && std::abs(value) < 1.0) {
        value *= 1000;
        ++unit;
    }
    const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(names[unit]);
}

} // namespace kvscope
