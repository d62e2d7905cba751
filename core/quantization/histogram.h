// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include <QList>
#include <QString>

namespace kvscope::quant {

/// Counts in equal-width bins over [lo, hi]: bin i covers
/// [lo + i·w, lo + (i+1)·w), the last bin also holds hi. Values outside the
/// range and non-finite values are counted apart, so every element is
/// accounted for exactly once.
struct Histogram
{
    double lo = 0;
    double hi = 0;
    QList<std::int64_t> counts;
    std::int64_t below = 0;     ///< values < lo
    std::int64_t above = 0;     ///< values > hi
    std::int64_t nonFinite = 0; ///< NaN or ±inf

    int bins() const { return int(counts.size()); }
    double binWidth() const { return bins() > 0 ? (hi - lo) / bins() : 0.0; }
    double binLower(int bin) const { return lo + bin * binWidth(); }
    std::int64_t inRange() const;
    std::int64_t total() const { return inRange() + below + above + nonFinite; }

    /// From slot totals laid out as kernels::SlotMap does: [non-finite,
    /// below, bins..., above].
    static Histogram fromSlots(double lo, double hi, const std::vector<std::int64_t> &slots);
};

/// Smallest and largest bin counts a user may ask for.
inline constexpr int MinHistogramBins = 1;
inline constexpr int MaxHistogramBins = 4096;

/// Checks a bin-count option; throws kvscope::Error naming `option` and the value.
int validateBinCount(int bins, const QString &option);

} // namespace kvscope::quant
