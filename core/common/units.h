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

/// The sentence shown in the status bar, table footers and docs/methodology.md ("Units").
QString unitsConvention();

/// Bytes as GiB with a fixed number of decimals ("14.96 GiB").
QString formatGiB(std::int64_t bytes, int decimals = 2);

/// Bytes in the largest binary unit that keeps the number >= 1 ("128 KiB").
QString formatBytes(std::int64_t bytes, int decimals = 2);

/// An integer with thousands separators ("8,030,261,248"), locale independent.
QString formatCount(std::int64_t value);

/// A token or sequence count in binary thousands where it is a whole number of
/// them: 512, 8K, 128K, 1M (axis ticks, labels).
QString formatShortCount(std::int64_t value);

/// A parameter count in short scale: "8.03B", "671B", "1.24B", "560M".
QString formatParameterCount(std::int64_t parameters);

/// A duration with three significant digits in s, ms or µs ("6.36 ms", "0.613 s" is "613 ms");
/// beyond a million seconds with an exponent ("4.41e+302 s"); "—" when not finite.
QString formatDuration(double seconds);

/// The text shown for a figure without a value: the JSON's null (a non-finite number).
QString noFigure();

/// `value` as QString::number(value, format, precision) writes it, except that a figure
/// without a finite value is noFigure() and a value that rounds to zero has no minus sign.
QString formatFigure(double value, char format, int precision);

/// The sign a difference is shown with, given its magnitude as shown: none when that text
/// is zero (a difference that rounds away reads "0.00x", never "-0.00x"), else '+' or
/// `minus` ('-' in plain text; the window passes U+2212).
QString differenceSign(double difference, const QString &shownMagnitude, QChar minus = QLatin1Char('-'));

// On screen: the same figures with the digits grouped as `locale` groups them (the
// window passes the locale of its language), so a large figure stays readable.

/// Bytes as GiB, or TiB from 1,024 GiB on ("65,536.00 GiB" is "64.00 TiB").
QString formatMemory(std::int64_t bytes, const QLocale &locale, int decimals = 2);

/// Bytes in the largest binary unit that keeps the number >= 1, digits grouped.
QString formatBytes(std::int64_t bytes, const QLocale &locale, int decimals = 2);

/// An integer with the locale's digit grouping.
QString formatCount(std::int64_t value, const QLocale &locale);

/// formatCount() and formatMemory() in the default QLocale, which the window
/// sets to the locale of its language.
QString localCount(std::int64_t value);
QString localMemory(std::int64_t bytes);

/// A number with `decimals` decimals and the locale's digit grouping.
QString formatDecimal(double value, int decimals, const QLocale &locale);

/// A rate per second: whole from 1,000 on ("1,215"), else one decimal ("74.9"), digits grouped.
QString formatRate(double perSecond, const QLocale &locale);

/// A share of the budget given in basis points: "45.2%"; above 999% the multiple,
/// "×919 the budget" (translated where a translator is installed).
QString formatBudgetShare(std::int64_t basisPoints, const QLocale &locale);

/// `gib` whole GiB in bytes; kvscope::Error past 2^63 bytes.
std::int64_t bytesOfGiB(std::int64_t gib);

/// Bytes / GiB as a double, for charts and percentages only.
inline double toGiB(std::int64_t bytes)
{
    return double(bytes) / double(GiB);
}

} // namespace kvscope
