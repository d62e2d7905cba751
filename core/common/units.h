// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

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

/// Bytes / GiB as a double, for charts and percentages only.
inline double toGiB(std::int64_t bytes)
{
    return double(bytes) / double(GiB);
}

} // namespace kvscope
