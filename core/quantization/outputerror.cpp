// SPDX-License-Identifier: MIT
#include "core/quantization/outputerror.h"

#include "core/quantization/denselinalg.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace kvscope::quant {

namespace {

/// Output rows of W - W' formed at once.
constexpr std::int64_t DifferenceBandRows = 256;

} // namespace

double outputEnergy(dense::ConstMatrixRef activations, dense::ConstMatrixRef weights,
                    const RunControl &control)
{
    std::vector<float> product(size_t(activations.rows * weights.rows));
    dense::multiply({activations, false}, {weights, true},
                    {product.data(), activations.rows, weights.rows, weights.rows}, 1.0f, 0.0f, control);
    double sum = 0;
    for (float v : product)
        sum += double(v) * double(v);
    return sum;
}

double outputSqnrDb(dense::ConstMatrixRef activations, dense::ConstMatrixRef weights,
                    const float *dequantized, double energy, const RunControl &control)
{
    // W - W' a band of output rows at a time: a whole 4096 x 4096 difference is
    // 64 MiB to allocate and fault in, which cost more than the products.
    const std::int64_t band = std::min<std::int64_t>(DifferenceBandRows, weights.rows);
    std::vector<float> difference(size_t(band * weights.cols));
    double error = 0; // the energy of X (W - W')^T, band by band
    for (std::int64_t first = 0; first < weights.rows; first += band) {
        const std::int64_t rows = std::min(band, weights.rows - first);
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < weights.cols; ++c)
                difference[size_t(r * weights.cols + c)] = weights.data[(first + r) * weights.stride + c] -
                                                           dequantized[(first + r) * weights.cols + c];
        error += outputEnergy(
            activations, {difference.data(), rows, weights.cols, weights.cols},
            control.slice(double(first) / double(weights.rows), double(first + rows) / double(weights.rows)));
    }
    if (error == 0)
        return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(energy / error);
}

double outputSqnrDb(dense::ConstMatrixRef activations, const float *quantizedActivations,
                    dense::ConstMatrixRef weights, const float *dequantized, double energy,
                    const RunControl &control)
{
    const std::int64_t inputs = weights.cols;
    // [X, X - X'], once: rows x 2 inputs.
    std::vector<float> joined(size_t(activations.rows * 2 * inputs));
    for (std::int64_t r = 0; r < activations.rows; ++r)
        for (std::int64_t c = 0; c < inputs; ++c) {
            const float x = activations.data[r * activations.stride + c];
            joined[size_t(r * 2 * inputs + c)] = x;
            joined[size_t(r * 2 * inputs + inputs + c)] = x - quantizedActivations[r * inputs + c];
        }
    // [W - W', W'] a band of output rows at a time.
    const std::int64_t band = std::min<std::int64_t>(DifferenceBandRows, weights.rows);
    std::vector<float> pair(size_t(band * 2 * inputs));
    double error = 0;
    for (std::int64_t first = 0; first < weights.rows; first += band) {
        const std::int64_t rows = std::min(band, weights.rows - first);
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < inputs; ++c) {
                const float w = weights.data[(first + r) * weights.stride + c];
                const float q = dequantized[(first + r) * inputs + c];
                pair[size_t(r * 2 * inputs + c)] = w - q;
                pair[size_t(r * 2 * inputs + inputs + c)] = q;
            }
        error += outputEnergy(
            {joined.data(), activations.rows, 2 * inputs, 2 * inputs},
            {pair.data(), rows, 2 * inputs, 2 * inputs},
            control.slice(double(first) / double(weights.rows), double(first + rows) / double(weights.rows)));
    }
    if (error == 0)
        return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(energy / error);
}

} // namespace kvscope::quant
