// SPDX-License-Identifier: MIT
// Matrix products and the Cholesky factorization AWQ and GPTQ need, on the
// threads of parallelChunks (core/quantization/parallel.h): each call splits
// its output into row panels and runs a single-threaded kernel of
// densekernels.h on each, so a run is cancellable between panels like every
// other pass of the simulator.
#pragma once

#include "core/quantization/densekernels.h"
#include "core/quantization/parallel.h"

#include <cstdint>

namespace kvscope::quant::dense {

/// c = beta * c + alpha * a * b. Throws Cancelled when the control's flag is set.
void multiply(Operand a, Operand b, MatrixRef c, float alpha, float beta, const RunControl &control = {});

/// The same product on the calling thread alone (for work already split across threads).
void multiplyHere(Operand a, Operand b, MatrixRef c, float alpha, float beta);

/// The lower triangle of g = scale * transpose(x) * x, the symmetric [cols, cols]
/// Gram matrix of the rows of x (half the work of the whole product). The upper
/// triangle is left as it was, except inside the diagonal panels.
void gram(ConstMatrixRef x, MatrixRef g, float scale, const RunControl &control = {});

/// Overwrites the lower triangle of the symmetric positive definite `a` with
/// L, a = L L^T (blocked, right-looking; the trailing updates in parallel).
/// The upper triangle is left undefined. False when `a` is not positive definite.
bool choleskyLower(MatrixRef a, const RunControl &control = {});

/// The lower triangle of inverse(l) for the lower triangular l (upper triangle
/// not read), into the lower triangle of `out` [n, n] (the upper one is left as
/// it was, except inside the diagonal panels): one triangular solve per panel
/// of columns, the panels in parallel.
void invertLower(ConstMatrixRef l, MatrixRef out, const RunControl &control = {});

} // namespace kvscope::quant::dense
