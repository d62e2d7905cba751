// SPDX-License-Identifier: MIT
#include "core/quantization/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvscope::quant {

ErrorMetrics ErrorMetrics::fromSums(std::int64_t elements, double signalSquares, double errorSquares,
                                    double absError, double signalTimesOutput, double outputSquares,
                                    double maxAbsError, std::int64_t clipped, std::int64_t flushed,
                                    std::int64_t nonFinite)
{
    constexpr double infinity = std::numeric_limits<double>::infinity();
    ErrorMetrics m;
    m.elements = elements;
    m.clipped = clipped;
    m.flushed = flushed;
    m.nonFinite = nonFinite;
    if (nonFinite > 0) {
        // A NaN or infinite w' makes every error figure unbounded.
        m.mse = infinity;
        m.sqnrDb = -infinity;
        m.maxAbsError = infinity;
        m.meanAbsError = infinity;
        m.cosineSimilarity = std::numeric_limits<double>::quiet_NaN();
        return m;
    }
    const double n = double(std::max<std::int64_t>(elements, 1));
    m.mse = errorSquares / n;
    m.meanAbsError = absError / n;
    m.maxAbsError = maxAbsError;
    m.sqnrDb = errorSquares > 0 ? 10.0 * std::log10(signalSquares / errorSquares) : infinity;

    if (errorSquares == 0)
        m.cosineSimilarity = 1.0;
    else if (signalSquares <= 0 || outputSquares <= 0)
        m.cosineSimilarity = 0.0; // one side is the zero vector
    else
        m.cosineSimilarity =
            std::clamp(signalTimesOutput / (std::sqrt(signalSquares) * std::sqrt(outputSquares)), -1.0, 1.0);
    return m;
}

} // namespace kvscope::quant
