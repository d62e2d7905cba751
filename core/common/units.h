// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QLocale>
#include <QString>

namespace kvscope {

/// Units convention used everywhere a figure is shown: binary prefixes,
/// GiB = 2^30 bytes, MiB = 2^20 bytes.
inline constexpr std::int64_t KiB = std::int64_t{1} << 10;
inline constexpr std::int64_t MiB = std::int64_t{1} << 20;
inline constexpr std::int64_t GiB = std::int64_t{1} << 30;

/// The sentence shown in the status bar, table footers and the README.
QString unitsConvention();

/// Bytes as GiB with a fixed number of decimals ("14.96 GiB").
QString formatGiB(std::int64_t bytes, int decimals = 2);

/// Bytes in the largest binary unit that keeps the number >= 1 ("128 KiB").
QString formatBytes(std::int64_t bytes, int decimals = 2);

/// An integer with thousands separators ("8,030,261,248"), locale independent.
QString formatCount(std::int64_t value);

/// A parameter count in short scale: "8.03B", "671B", "1.24B", "560M".
QString formatParameterCount(std::int64_t parameters);

/// A duration with three significant digits in s, ms or µs ("6.36 ms", "0.613 s" is "613 ms").
QString formatDuration(double seconds);

// On screen: the same figures with the digits grouped as `locale` groups them (the
// window passes the locale of its language), so a large figure stays readable.

/// Bytes as GiB, or TiB from 1,024 GiB on ("65,536.00 GiB" is "64.00 TiB").
QString formatMemory(std::int64_t bytes, const QLocale &locale, int decimals = 2);

/// Bytes in the largest binary unit that keeps the number >= 1, digits grouped.
QString formatBytes(std::int64_t bytes, const QLocale &locale, int decimals = 2);

/// An integer with the locale's digit grouping.
QString formatCount(std::int64_t value, const QLocale &locale);

/// A number with `decimals` decimals and the locale's digit grouping.
QString formatDecimal(double value, int decimals, const QLocale &locale);

/// A rate per second: whole from 1,000 on ("1,215"), else one decimal ("74.9"), digits grouped.
QString formatRate(double perSecond, const QLocale &locale);

/// A share of the budget given in basis points: "45.2%"; above 999% the multiple,
/// "×919 the budget" (translated where a translator is installed).
QString formatBudgetShare(std::int64_t basisPoints, const QLocale &locale);

/// Bytes / GiB as a double, for charts and percentages only.
inline double toGiB(std::int64_t bytes)
{
    return double(bytes) / double(GiB);
}

} // namespace kvscope
