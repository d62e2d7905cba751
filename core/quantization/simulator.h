// SPDX-License-Identifier: MIT
// The quantization simulator: fake-quantize a 2-D tensor with a scheme and
// measure the error. Passes run over the tensor in parallel chunks, straight
// from its buffer or mapping; cancellable and with progress (RunControl).
#pragma once

#include "core/quantization/fittedweights.h"
#include "core/quantization/histogram.h"
#include "core/quantization/metrics.h"
#include "core/quantization/parallel.h"
#include "core/quantization/quantizers.h"
#include "core/quantization/scheme.h"
#include "core/quantization/tensordata.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace kvscope::quant {

/// What one scan of the tensor finds; every later pass relies on it.
struct TensorStats
{
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    float min = 0;
    float max = 0;
    double sumSquares = 0; ///< Σw², the SQNR numerator

    std::int64_t elements() const { return rows * cols; }
    float amax() const;
};

/// One pass: range and Σw². Throws kvscope::Error when a value is NaN or
/// infinite (naming the first one): a weight like that has no error to measure.
TensorStats scanTensor(const TensorData &tensor, const RunControl &control = {});

struct SimulationOptions
{
    int bins = 256;                ///< bins of every histogram
    bool relativeHistogram = true; ///< also bin (w - w') / |w|

    friend bool operator==(const SimulationOptions &, const SimulationOptions &) = default;
};

struct SchemeResult
{
    Scheme scheme;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    double bitsPerWeight = 0;
    ErrorMetrics metrics;
    /// w - w' over ± the largest rounding error (see largestRoundingError),
    /// padded by 1/256; errors of clipped elements land in below/above.
    Histogram error;
    /// (w - w') / |w| over [-1, 1] (rounding to a grid that holds 0 never
    /// leaves it); empty unless asked for.
    Histogram relativeError;
    double tensorScale = 0; ///< FP8: the per-tensor scale; 0 for the other schemes
    /// 10·log10(Σy² / Σ(y - y')²) of the layer output Y = X·Wᵀ on held-out
    /// activation rows; only when the run had activations (quantrun.h).
    std::optional<double> outputSqnrDb;
    double awqAlpha = -1; ///< AWQ: the scale exponent its search chose
};

/// Quantizes and dequantizes the whole tensor with `scheme`, in one parallel
/// pass that never stores w', and measures the error. With `fitted` (the w' an
/// AWQ or GPTQ fit computed) it measures that instead of rounding. Throws
/// kvscope::Error for options that cannot apply, Cancelled when the control's
/// flag is set.
SchemeResult simulateScheme(const TensorData &tensor, const TensorStats &stats, const Scheme &scheme,
                            const SimulationOptions &options = {}, const RunControl &control = {},
                            const FittedWeights *fitted = nullptr);

/// w' of the whole tensor under a round-to-nearest scheme (row-major floats),
/// for the output error; the same rounding as simulateScheme().
std::vector<float> dequantizeTensor(const TensorData &tensor, const TensorStats &stats, const Scheme &scheme,
                                    const RunControl &control = {});

/// The values of the tensor over [min, max].
Histogram valueHistogram(const TensorData &tensor, const TensorStats &stats, int bins,
                         const RunControl &control = {});

/// Half the largest quantization step `scheme` can have on a tensor with
/// these statistics. Every element the format does not clip rounds by at
/// most this much, so it bounds the error histogram.
double largestRoundingError(const Scheme &scheme, const TensorStats &stats);

/// The per-tensor FP8 quantizer: scale amax / max (1.0 for an all-zero
/// tensor or with unitScale), overflow to ±max when saturating, else NaN
/// (E4M3 has no infinity) or ±inf (E5M2).
Fp8Tensor fp8Tensor(const Scheme &scheme, float amax);

} // namespace kvscope::quant
