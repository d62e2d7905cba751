// SPDX-License-Identifier: MIT
// Least squares with lower bounds on the unknowns, for fitting the speed
// model's constants (tests/core/tst_speedvalidation.cpp): Lawson and Hanson's
// non-negative least squares (Solving Least Squares Problems, 1974, ch. 23)
// on x - lower, each subproblem solved by modified Gram-Schmidt QR on
// unit-norm columns (the columns span nine decades: seconds and counts).
#pragma once

#include <vector>

namespace kvscope::validation {

/// Rows of a dense design matrix.
using Matrix = std::vector<std::vector<double>>;

/// x minimising |A x - b| subject to x >= lower. Columns that are zero in
/// every row stay at their lower bound.
std::vector<double> boundedLeastSquares(const Matrix &a, const std::vector<double> &b,
                                        const std::vector<double> &lower);

} // namespace kvscope::validation
