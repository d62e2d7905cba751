// SPDX-License-Identifier: MIT
// The error of a linear layer's output, Y = X W^T (W [out, in] as checkpoints
// store it, X [tokens, in]): what quantizing the weights costs the layer,
// rather than the weights themselves. Measured on activation rows the fitting
// methods did not see (Activations::heldOut()).
#pragma once

#include "core/quantization/densekernels.h"
#include "core/quantization/parallel.h"

namespace kvscope::quant {

/// sum y^2 over Y = X W^T.
double outputEnergy(dense::ConstMatrixRef activations, dense::ConstMatrixRef weights,
                    const RunControl &control = {});

/// 10 log10(sum y^2 / sum (y - y')^2), y' = X W'^T; `dequantized` is W'
/// [out, in] row-major and `energy` is outputEnergy() of the same X and W.
/// The error is computed as X (W - W')^T, so it is not lost in Y - Y'.
/// +inf when W' equals W.
double outputSqnrDb(dense::ConstMatrixRef activations, dense::ConstMatrixRef weights,
                    const float *dequantized, double energy, const RunControl &control = {});

/// The same when the kernel multiplies quantized activations too (W8A8):
/// y' = X' W'^T, `quantizedActivations` X' with the shape of X. The error
/// X W^T - X' W'^T = X (W - W')^T + (X - X') W'^T is formed band by band as one
/// product [X, X - X'] [W - W', W']^T.
double outputSqnrDb(dense::ConstMatrixRef activations, const float *quantizedActivations,
                    dense::ConstMatrixRef weights, const float *dequantized, double energy,
                    const RunControl &control = {});

} // namespace kvscope::quant
