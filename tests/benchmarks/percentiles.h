// SPDX-License-Identifier: MIT
// Percentiles of timed samples, for the benchmarks that print p50/p95/max.
#pragma once

#include <algorithm>

#include <QList>

namespace kvscope::bench {

struct Percentiles
{
    double p50 = 0;
    double p95 = 0;
    double max = 0;
};

inline Percentiles percentiles(QList<double> samples)
{
    std::sort(samples.begin(), samples.end());
    const auto at = [&](double q) { return samples.at(qsizetype(q * double(samples.size() - 1))); };
    return {at(0.50), at(0.95), samples.last()};
}

} // namespace kvscope::bench
