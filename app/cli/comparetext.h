// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/comparison.h"

#include <QString>

namespace kvscope::cli {

/// The comparison as the table `kvscope compare` prints: rows x columns, each
/// figure after the first column with its difference to the first, '*' on the
/// best column of a row; then what the accuracy figures were simulated on and
/// the published results for the formats. Only formats the core's figures.
QString comparisonAsText(const Comparison &comparison);

} // namespace kvscope::cli
