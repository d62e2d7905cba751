// SPDX-License-Identifier: MIT
// GPTQ (Frantar, Ashkboos, Hoefler, Alistarh, "GPTQ: Accurate Post-Training
// Quantization for Generative Pre-trained Transformers", ICLR 2023,
// arXiv 2210.17323), as its reference code runs it: IST-DASLab/gptq, gptq.py,
// GPTQ.fasterquant (https://github.com/IST-DASLab/gptq). Columns are quantized
// in order; each column's rounding error is pushed onto the columns not yet
// quantized, weighted by the inverse Hessian H^-1 of the layer's squared
// output error, H = 2 X^T X / n. Settings as AutoGPTQ's defaults: symmetric,
// damp_percent 0.01, blocks of 128 columns, act_order off, static_groups off.
//
// U = cholesky(H^-1, upper) is taken as the reference's cholesky,
// cholesky_inverse, cholesky(upper=True) chain gives it, with one factorization
// and one triangular inverse: with H reversed (rows and columns) = L L^T,
// U = J L^-1 J (J the reversal), the same matrix by uniqueness of the factor.
#pragma once

#include "core/quantization/densekernels.h"
#include "core/quantization/fittedweights.h"
#include "core/quantization/parallel.h"
#include "core/quantization/scheme.h"

namespace kvscope::quant {

inline constexpr std::int64_t GptqBlockSize = 128; ///< columns per lazy batch update (blocksize)
inline constexpr double GptqDampening = 0.01;      ///< percdamp: lambda = 0.01 x mean(diag H)

/// GPTQ on `weights` [rows, cols] with the calibration activations [tokens,
/// cols]. Group parameters are found when a group starts, from the columns as
/// updated so far (a whole-row group: from the weights before any update).
/// Columns no activation reaches (diag H = 0) are zeroed, as the reference
/// does. Throws kvscope::Error when H is not positive definite even after
/// dampening, Cancelled when the control's flag is set.
FittedWeights gptqQuantize(dense::ConstMatrixRef weights, dense::ConstMatrixRef calibration,
                           const Scheme &scheme, const RunControl &control = {});

} // namespace kvscope::quant
