// SPDX-License-Identifier: MIT
// How a W8A8 kernel quantizes the activations it multiplies: dynamically, from
// each token's own largest magnitude, so the layer output's error has the
// activations' rounding in it as well as the weights'. Weight-only kernels
// (AWQ, GPTQ, NF4, MXFP4, FP8 through Marlin) leave the activations alone.
#pragma once

#include "core/quantization/densekernels.h"

#include <optional>
#include <vector>

#include <QString>

namespace kvscope::quant {

enum class ActivationQuantization
{
    None,
    /// FP8 E4M3, one scale per token (amax / 448, saturating): vLLM's dynamic
    /// FP8 linear where CUTLASS FP8 runs (fp8.py, Fp8LinearMethod: "Use per-token
    /// quantization for better perf if dynamic and cutlass").
    Fp8PerToken,
    /// FP8 E4M3, one scale per 128 values of a token: block-quantized FP8
    /// checkpoints (fp8.py: act_q_group_shape = GroupShape(1, weight_block_size[0])).
    Fp8PerTokenGroup128,
    /// INT8 symmetric, one scale per token (amax / 127, round half to even):
    /// compressed-tensors' INT8_W8A8 preset (input_activations: strategy TOKEN,
    /// symmetric, dynamic) and vLLM's scaled_int8_quant.
    Int8PerToken,
    /// MXFP8: FP8 E4M3 elements with one power-of-two (E8M0) scale per 32 values of a token, the
    /// scale amax / 448 rounded up to a power of two so nothing saturates: FlashInfer's
    /// mxfp8_quantize (TensorRT-LLM's cvt_warp_fp16_to_mxfp8, kernels/quantization.cuh), which vLLM
    /// and SGLang run on MXFP4 experts' inputs for the MXFP4 x MXFP8 MoE kernel.
    Mxfp8,
};

/// X' of X [rows, cols]: each token's row (or group) scaled by its amax, rounded
/// and scaled back. X itself for None.
std::vector<float> quantizeActivations(dense::ConstMatrixRef x, ActivationQuantization how);

/// "", "+a-fp8-token", "+a-fp8-g128", "+a-int8-token", "+a-mxfp8": the suffix of a scheme id.
QString activationQuantizationSuffix(ActivationQuantization how);
/// The inverse of activationQuantizationSuffix() for a non-empty suffix; nullopt when unknown.
std::optional<ActivationQuantization> activationQuantizationFromSuffix(const QString &suffix);
/// "activations FP8 E4M3 per token (dynamic)", for descriptions; empty for None.
QString activationQuantizationDescription(ActivationQuantization how);

} // namespace kvscope::quant
