// SPDX-License-Identifier: MIT
#include "core/quantization/fittedweights.h"

#include <algorithm>

namespace kvscope::quant {

std::vector<std::int32_t> rowGroupLengths(const Scheme &scheme, std::int64_t cols)
{
    const UnitLayout layout = unitLayout(scheme, 1, cols);
    std::vector<std::int32_t> lengths(size_t(layout.unitsPerRow()));
    for (std::int64_t unit = 0; unit < layout.unitsPerRow(); ++unit)
        lengths[size_t(unit)] = std::int32_t(layout.unitLength(unit));
    return lengths;
}

} // namespace kvscope::quant
