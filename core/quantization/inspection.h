// SPDX-License-Identifier: MIT
// A close look at one integer group: its scale and zero point, every weight
// with its stored code q and dequantized value, and the worked example
// "(q - z) × s" for one weight (the worked example of
// docs/quantization-formats.md §4: (12 - 8) × 0.05 = 0.2).
#pragma once

#include "core/quantization/quantizers.h"
#include "core/quantization/scheme.h"
#include "core/quantization/tensordata.h"

#include <cstdint>

#include <QList>
#include <QString>

namespace kvscope::quant {

struct GroupInspection
{
    Scheme scheme;
    std::int64_t row = 0;
    std::int64_t group = 0;       ///< group index within the row
    std::int64_t firstColumn = 0; ///< column of the group's first weight
    float min = 0;
    float max = 0;
    IntGrid grid;             ///< scale s, zero point z, code range
    QList<float> weights;     ///< w
    QList<float> codes;       ///< q
    QList<float> dequantized; ///< w' = (q - z) × s
    int chosen = 0;           ///< index within the group of the worked example

    /// "(12 − 8) × 0.05 = 0.2" for the chosen weight, numbers to `digits` significant digits.
    QString workedExample(int digits = 4) const;
};

/// Groups per row of `scheme` on a tensor with `cols` columns (1 for int8).
std::int64_t groupsPerRow(const Scheme &scheme, std::int64_t cols);

/// Inspects group `group` of row `row` of an integer scheme, with weight
/// `index` (within the group) as the worked example. Throws kvscope::Error
/// for a non-integer scheme or out-of-range positions.
GroupInspection inspectGroup(const TensorData &tensor, const Scheme &scheme, std::int64_t row,
                             std::int64_t group, int index);

/// Formats a float with `digits` significant digits, no trailing zeros ("0.05", "-3.2e-05").
QString formatNumber(double value, int digits = 4);

} // namespace kvscope::quant
