// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace kvscope::quant {

/// How far w' (the dequantized tensor) is from w, all in double precision
/// (docs/quantization-formats.md §8).
struct ErrorMetrics
{
    std::int64_t elements = 0;
    double mse = 0;              ///< mean (w - w')²
    double sqnrDb = 0;           ///< 10·log10(Σw² / Σ(w - w')²); +inf when w' == w
    double maxAbsError = 0;      ///< max |w - w'|
    double meanAbsError = 0;     ///< mean |w - w'|
    double cosineSimilarity = 0; ///< Σww' / (‖w‖·‖w'‖)
    std::int64_t clipped = 0;    ///< elements the format's range cut (saturated, clamped or overflowed)
    std::int64_t flushed = 0;    ///< w != 0 but w' == 0
    std::int64_t nonFinite = 0;  ///< w' is NaN or ±inf (FP8 without saturation); makes the error unbounded

    double clippedShare() const { return elements ? double(clipped) / double(elements) : 0.0; }
    double flushedShare() const { return elements ? double(flushed) / double(elements) : 0.0; }

    /// From the sums of one pass: Σw², Σ(w - w')², Σ|w - w'|, Σww', Σw'². The cosine takes
    /// Σww' and Σw'² as summed: derived from Σw² and Σw(w - w') they cancel when w' << w.
    static ErrorMetrics fromSums(std::int64_t elements, double signalSquares, double errorSquares,
                                 double absError, double signalTimesOutput, double outputSquares,
                                 double maxAbsError, std::int64_t clipped, std::int64_t flushed,
                                 std::int64_t nonFinite);
};

} // namespace kvscope::quant
