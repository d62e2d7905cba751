// SPDX-License-Identifier: MIT
#include "core/quantization/histogram.h"

#include "core/common/error.h"

#include <numeric>

namespace kvscope::quant {

std::int64_t Histogram::inRange() const
{
    return std::accumulate(counts.cbegin(), counts.cend(), std::int64_t{0});
}

Histogram Histogram::fromSlots(double lo, double hi, const std::vector<std::int64_t> &slots)
{
    Histogram h;
    h.lo = lo;
    h.hi = hi;
    const int bins = int(slots.size()) - 3;
    h.nonFinite = slots.at(0);
    h.below = slots.at(1);
    h.counts.reserve(bins);
    for (int bin = 0; bin < bins; ++bin)
        h.counts << slots.at(size_t(bin) + 2);
    h.above = slots.at(size_t(bins) + 2);
    return h;
}

int validateBinCount(int bins, const QString &option)
{
    if (bins < MinHistogramBins || bins > MaxHistogramBins)
        throw Error(QStringLiteral("%1: %2 bins is outside %3..%4")
                        .arg(option)
                        .arg(bins)
                        .arg(MinHistogramBins)
                        .arg(MaxHistogramBins));
    return bins;
}

} // namespace kvscope::quant
