// SPDX-License-Identifier: MIT
// Weights quantized by a method fitted to the layer's activations (AWQ, GPTQ),
// and the round-to-nearest pass over one row's groups that both build on.
#pragma once

#include "core/quantization/scheme.h"

#include <cstdint>
#include <vector>

namespace kvscope::quant {

/// w' of a whole [rows, cols] tensor, row-major.
struct FittedWeights
{
    std::vector<float> values;
    std::int64_t clipped = 0; ///< elements whose code the grid's range cut
    double awqAlpha = -1;     ///< AWQ: the exponent its search chose; -1 for other methods
};

/// The group lengths of a row of `cols` elements under an Int scheme.
std::vector<std::int32_t> rowGroupLengths(const Scheme &scheme, std::int64_t cols);

} // namespace kvscope::quant
