// SPDX-License-Identifier: MIT
// The quantize-then-dequantize rule of each scheme for one element, and how
// each scheme derives its scale from a unit's statistics. Everything is
// float32 arithmetic in the order the reference implementations use, so the
// results are bit-exact; inline so the kernels vectorize it.
#pragma once

#include "core/quantization/floatformat.h"
#include "core/quantization/scheme.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace kvscope::quant {

/// An integer grid: w' = (clamp(rint(w / scale) + zero, qmin, qmax) - zero) * scale.
/// AWQ, GPTQ and INT8 differ only in how they choose scale and zero.
struct IntGrid
{
    float scale = 1.0f;
    float zero = 0.0f;
    float qmin = 0.0f;
    float qmax = 15.0f;
};

/// AWQ's RTN quantizer (AutoAWQ pseudo_quantize_tensor, zero_point=True):
/// s = max(max - min, 1e-5) / (2^b - 1), z = clamp(-round(min / s), 0, 2^b - 1).
inline IntGrid awqGrid(float min, float max, int bits)
{
    const float qmax = float((1 << bits) - 1);
    IntGrid grid;
    grid.scale = std::max(max - min, 1e-5f) / qmax;
    grid.zero = std::min(std::max(-__builtin_rintf(min / grid.scale), 0.0f), qmax);
    grid.qmax = qmax;
    return grid;
}

/// GPTQ's symmetric quantizer (IST-DASLab gptq quant.py find_params, sym=True,
/// no MSE search): xmin = min(min, 0), xmax = max(max, 0); xmax = max(|xmin|,
/// xmax) and xmin = -xmax when xmin < 0; an all-zero group uses [-1, 1];
/// s = (xmax - xmin) / (2^b - 1), z = 2^(b-1).
inline IntGrid gptqSymmetricGrid(float min, float max, int bits)
{
    const float qmax = float((1 << bits) - 1);
    float xmin = std::min(min, 0.0f);
    float xmax = std::max(std::max(max, 0.0f), std::fabs(xmin));
    if (xmin < 0.0f)
        xmin = -xmax;
    if (xmin == 0.0f && xmax == 0.0f) {
        xmin = -1.0f;
        xmax = 1.0f;
    }
    IntGrid grid;
    grid.scale = (xmax - xmin) / qmax;
    grid.zero = float(1 << (bits - 1));
    grid.qmax = qmax;
    return grid;
}

/// Symmetric INT8 (SmoothQuant fake_quant.py): s = max(amax, 1e-5) / 127,
/// q in [-127, 127], no zero point.
inline IntGrid int8Grid(float amax)
{
    IntGrid grid;
    grid.scale = std::max(amax, 1e-5f) / 127.0f;
    grid.zero = 0.0f;
    grid.qmin = -127.0f;
    grid.qmax = 127.0f;
    return grid;
}

/// The grid of one group or row under `rule`.
inline IntGrid intGrid(IntRule rule, int bits, float min, float max)
{
    switch (rule) {
    case IntRule::Awq:
        return awqGrid(min, max, bits);
    case IntRule::GptqSymmetric:
        return gptqSymmetricGrid(min, max, bits);
    case IntRule::Int8:
        break;
    }
    return int8Grid(std::max(std::fabs(min), std::fabs(max)));
}

/// The stored integer q for w (before dequantization).
inline float intCode(float w, const IntGrid &grid, bool &clipped)
{
    const float unclamped = __builtin_rintf(w / grid.scale) + grid.zero;
    const float q = std::min(std::max(unclamped, grid.qmin), grid.qmax);
    clipped = q != unclamped;
    return q;
}

inline float dequantizeInt(float w, const IntGrid &grid, bool &clipped)
{
    return (intCode(w, grid, clipped) - grid.zero) * grid.scale;
}

/// NF4 code values, bitsandbytes functional.py get_4bit_type("nf4")
/// (docs/quantization-formats.md §5).
inline constexpr float Nf4Codes[16] = {-1.0f,
                                       -0.6961928009986877f,
                                       -0.5250730514526367f,
                                       -0.39491748809814453f,
                                       -0.28444138169288635f,
                                       -0.18477343022823334f,
                                       -0.09105003625154495f,
                                       0.0f,
                                       0.07958029955625534f,
                                       0.16093020141124725f,
                                       0.24611230194568634f,
                                       0.33791524171829224f,
                                       0.44070982933044434f,
                                       0.5626170039176941f,
                                       0.7229568362236023f,
                                       1.0f};

/// The decision thresholds of bitsandbytes' dQuantizeNF4 (csrc/kernels.cu),
/// ascending: code k is chosen when x > threshold[k-1] and x <= threshold[k],
/// so a value exactly on a threshold takes the lower code.
inline constexpr float Nf4Thresholds[15] = {
    -0.8480964004993439f,  -0.6106329262256622f,  -0.4599952697753906f,   -0.33967943489551544f,
    -0.23460740596055984f, -0.13791173323988914f, -0.045525018125772476f, 0.03979014977812767f,
    0.1202552504837513f,   0.2035212516784668f,   0.2920137718319893f,    0.3893125355243683f,
    0.5016634166240692f,   0.6427869200706482f,   0.8614784181118011f};

/// The NF4 code of a normalized value, by those thresholds, as a chain of
/// selects (no table lookup, so it vectorizes without gathers).
inline float nf4Code(float normalized)
{
    float code = Nf4Codes[0];
    for (int k = 0; k < 15; ++k)
        code = normalized > Nf4Thresholds[k] ? Nf4Codes[k + 1] : code;
    return code;
}

/// One NF4 block: bitsandbytes multiplies by the float reciprocal of absmax
/// (kQuantizeBlockwise: local_abs_max = 1/absmax) and dequantizes code * absmax.
/// An all-zero block gives 0 * inf = NaN, which no threshold exceeds: code
/// -1.0 * absmax 0 = -0, so zeros stay zero.
struct Nf4Block
{
    float absmax = 0.0f;
    float inverse = 0.0f;
};

inline Nf4Block nf4Block(float absmax)
{
    return {absmax, 1.0f / absmax};
}

inline float dequantizeNf4(float w, const Nf4Block &block)
{
    return nf4Code(w * block.inverse) * block.absmax;
}

/// One MXFP4 block: X = 2^(floor(log2(amax)) - 2) clamped to E8M0's
/// [-127, 127] (torchao to_mx, FLOOR mode; OCP MX §6.3), elements
/// E2M1 = RNE(w / X) saturated to ±6.
struct MxBlock
{
    float scale = 1.0f;
    int exponent = 0;
};

inline MxBlock mxfp4Block(float amax)
{
    constexpr int emaxElement = 2; // E2M1's largest power of two (6 = 1.5 * 2^2)
    // floor(log2(amax)) from the exponent bits (a subnormal or zero amax is
    // below 2^-126 and clamps to E8M0's smallest scale 2^-127 anyway).
    const int biased = int((std::bit_cast<std::uint32_t>(amax) >> 23) & 0xFFu);
    const int exponent = biased == 0 ? -127 : std::clamp(biased - 127 - emaxElement, -127, 127);
    const std::uint32_t scaleBits = exponent == -127 ? 0x00400000u : std::uint32_t(exponent + 127) << 23;
    return {std::bit_cast<float>(scaleBits), exponent};
}

inline float dequantizeMxfp4(float w, const MxBlock &block, bool &clipped)
{
    return roundToFormat(w / block.scale, E2M1Format, E2M1Format.maxFinite, clipped) * block.scale;
}

/// One block of SGLang's fp4_mx_block16 KV cache (FP4MXBlock16KVQuantizeUtil.batched_quantize,
/// python/sglang/srt/layers/quantization/kvfp4_tensor.py): X = 2^ceil(log2(max(amax / 6, 1e-10))),
/// an E8M0 byte, so that amax / X is at most 6 and nothing clips (OCP's MXFP4 takes
/// floor(log2(amax)) - 2 and saturates instead); computed here in float32.
inline MxBlock fp4MxBlock16Block(float amax)
{
    const float exponent = std::ceil(std::log2(std::max(amax / 6.0f, 1e-10f)));
    return {std::exp2(exponent), int(exponent)};
}

/// An element of an fp4_mx_block16 block: the E2M1 magnitude whose interval w / X falls in by
/// SGLang's E2M1_BOUNDS (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5; a value on a bound takes the
/// larger magnitude, where round-to-nearest-even may take the smaller), with w's sign.
inline float dequantizeFp4MxBlock16(float w, const MxBlock &block, bool &clipped)
{
    constexpr float bounds[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
    constexpr float magnitudes[] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    const float scaled = w / block.scale;
    const float magnitude = std::fabs(scaled);
    int index = 0;
    for (float bound : bounds)
        index += magnitude >= bound ? 1 : 0;
    clipped = clipped || magnitude > E2M1Format.maxFinite;
    return std::copysign(magnitudes[index], scaled) * block.scale;
}

/// One NVFP4 block (vLLM tests/kernels/quantization/nvfp4_utils.py: a value is
/// E2M1 x its block's E4M3 scale x the tensor's FP32 scale): the block scale is
/// E4M3 = RNE(amax / 6 / tensorScale), saturated to 448, and the elements
/// E2M1 = RNE(w / (blockScale x tensorScale)) saturated to ±6. A block scale that
/// rounds to zero holds zeros.
struct Nvfp4Block
{
    float scale = 0.0f; ///< block scale x tensor scale
};

inline Nvfp4Block nvfp4Block(float amax, float tensorScale)
{
    bool saturated = false;
    const float blockScale =
        roundToFormat(amax / 6.0f / tensorScale, Fp8E4M3Format, Fp8E4M3Format.maxFinite, saturated);
    return {blockScale * tensorScale};
}

inline float dequantizeNvfp4(float w, const Nvfp4Block &block, bool &clipped)
{
    if (!(block.scale > 0.0f))
        return 0.0f;
    return roundToFormat(w / block.scale, E2M1Format, E2M1Format.maxFinite, clipped) * block.scale;
}

/// FP8 with one per-tensor scale (vLLM: FP8 = Quantize(HP / scale),
/// HP = Dequant(FP8) * scale).
struct Fp8Tensor
{
    MinifloatFormat format = Fp8E4M3Format;
    float scale = 1.0f;
    float overflowMagnitude = 448.0f; ///< maxFinite when saturating, else NaN (e4m3fn) or inf (e5m2)
};

inline float dequantizeFp8(float w, const Fp8Tensor &tensor, bool &clipped)
{
    return roundToFormat(w / tensor.scale, tensor.format, tensor.overflowMagnitude, clipped) * tensor.scale;
}

} // namespace kvscope::quant
