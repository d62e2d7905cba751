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

double productEnergy(dense::ConstMatrixRef activations, dense::ConstMatrixRef weights,
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

} // namespace

double outputEnergy(dense::ConstMatrixRef activations, dense::ConstMatrixRef weights,
                    const RunControl &control)
{
    return productEnergy(activations, weights, control);
}

double outputSqnrDb(dense::ConstMatrixRef activations, dense::ConstMatrixRef weights,
                    const float *dequantized, double energy, const RunControl &control)
{
    // W - W' a band of output rows at a time: a whole 4096 x 4096 difference is
    // 64 MiB to allocate and fault in, which cost more than the products.
    const std::int64_t band = std::min<std::int64_t>(DifferenceBandRows, weights.rows);
    std::vector<float> difference(size_t(band * weights.cols));
    std::vector<float> product(size_t(activations.rows * band));
    double error = 0;
    for (std::int64_t first = 0; first < weights.rows; first += band) {
        const std::int64_t rows = std::min(band, weights.rows - first);
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < weights.cols; ++c)
                difference[size_t(r * weights.cols + c)] = weights.data[(first + r) * weights.stride + c] -
                                                           dequantized[(first + r) * weights.cols + c];
        dense::multiply(
            {activations, false}, {{difference.data(), rows, weights.cols, weights.cols}, true},
            {product.data(), activations.rows, rows, rows}, 1.0f, 0.0f,
            control.slice(double(first) / double(weights.rows), double(first + rows) / double(weights.rows)));
        for (std::int64_t i = 0; i < activations.rows * rows; ++i)
            error += double(product[size_t(i)]) * double(product[size_t(i)]);
    }
    if (error == 0)
        return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(energy / error);
}

} // namespace kvscope::quant
