// SPDX-License-Identifier: MIT
#include "core/quantization/outputerror.h"

#include "core/quantization/denselinalg.h"

#include <cmath>
#include <limits>
#include <vector>

namespace kvscope::quant {

namespace {

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
    std::vector<float> difference(size_t(weights.rows * weights.cols));
    for (std::int64_t r = 0; r < weights.rows; ++r)
        for (std::int64_t c = 0; c < weights.cols; ++c)
            difference[size_t(r * weights.cols + c)] =
                weights.data[r * weights.stride + c] - dequantized[r * weights.cols + c];
    const double error =
        productEnergy(activations, {difference.data(), weights.rows, weights.cols, weights.cols}, control);
    if (error == 0)
        return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(energy / error);
}

} // namespace kvscope::quant
