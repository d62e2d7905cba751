// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/scheme.h"
#include "core/quantization/simulator.h"
#include "core/quantization/tensordata.h"

#include <cstdint>

#include <QList>
#include <QString>

namespace kvscope::quant {

/// The values a scheme can give back (its dequantized grid) inside a range,
/// to draw over a histogram of the tensor's values.
struct QuantizationGrid
{
    QList<double> values;  ///< ascending
    bool tooDense = false; ///< more points than asked for fall in the range; values is empty
    QString unit;          ///< whose grid it is: "whole tensor", "row 3, group 2", "block 17"
};

/// Per-tensor formats: every finite code times the scale. Schemes with local
/// scales: the grid of the unit holding element (row, column).
QuantizationGrid quantizationGrid(const TensorData &tensor, const TensorStats &stats, const Scheme &scheme,
                                  std::int64_t row, std::int64_t column, double lo, double hi,
                                  int maxPoints = 512);

} // namespace kvscope::quant
