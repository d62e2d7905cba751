// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace kvscope {

/// Largest n in [0, upper] with fits(n), for a predicate that holds up to some n
/// and not beyond; 0 when it holds for no n >= 1 (fits(0) is never asked).
template <typename Predicate> std::int64_t largestSatisfying(std::int64_t upper, Predicate fits)
{
    std::int64_t lo = 0, hi = upper;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (fits(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace kvscope
