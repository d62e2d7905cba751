// SPDX-License-Identifier: MIT
// AWQ, activation-aware weight quantization (Lin et al., "AWQ: Activation-aware
// Weight Quantization for LLM Compression and Acceleration", MLSys 2024,
// arXiv 2306.00978), as its reference code searches the scales:
// mit-han-lab/llm-awq, awq/quantize/auto_scale.py, _search_module_scale
// (https://github.com/mit-han-lab/llm-awq). The few input channels with large
// activations dominate the output error; scaling their weight columns up
// before rounding shrinks their relative rounding error, and the inverse scale
// folds into the activations (here: into w', which is the same product).
// Clipping search (auto_clip.py) is not simulated.
#pragma once

#include "core/quantization/densekernels.h"
#include "core/quantization/fittedweights.h"
#include "core/quantization/parallel.h"
#include "core/quantization/scheme.h"

#include <vector>

namespace kvscope::quant {

/// The grid of the search: alpha in {0, 1/20, ..., 19/20} (n_grid = 20).
inline constexpr int AwqGridPoints = 20;
/// The search scores each alpha on a fixed, evenly spaced subsample of the
/// calibration rows and of the output channels (the reference uses every
/// output of the block on 128 x 512 tokens, on a GPU); the chosen alpha then
/// scales the whole tensor.
inline constexpr std::int64_t AwqSearchTokens = 256;
inline constexpr std::int64_t AwqSearchOutputs = 256;

/// mean |x| of every input channel (get_act_scale: x.abs().view(-1, C).mean(0)).
std::vector<double> channelMeanMagnitudes(dense::ConstMatrixRef activations);

/// s = clamp(m^alpha, min 1e-4), then s / sqrt(max(s) * min(s)).
std::vector<float> awqScales(const std::vector<double> &meanMagnitudes, double alpha);

/// w' = Q(W diag(s)) diag(1/s): every row's groups rounded by the scheme's
/// rule (AWQ: asymmetric with a zero point) after scaling, then scaled back.
/// Writes out[rows, cols]; returns the clipped count.
std::int64_t awqFoldBack(dense::ConstMatrixRef weights, const std::vector<float> &scales,
                         const Scheme &scheme, dense::MatrixRef out);

/// The search and the fold-back with the best alpha (least squared output
/// error on the subsample; the first on ties, so equal scales give alpha 0).
/// Throws Cancelled when the control's flag is set.
FittedWeights awqQuantize(dense::ConstMatrixRef weights, dense::ConstMatrixRef calibration,
                          const Scheme &scheme, const RunControl &control = {});

} // namespace kvscope::quant
