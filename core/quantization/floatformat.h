// SPDX-License-Identifier: MIT
// Bit-exact conversions from float32 into the small floating-point formats the
// simulator needs (FP16, BF16, FP8 E4M3/E5M2, E2M1), all round-to-nearest-even.
// Inline and branch-free so the kernels vectorize them.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kvscope::quant {

/// A binary floating-point format with IEEE-style subnormals, described by
/// what rounding needs: mantissa bits, the exponent of its smallest normal
/// number and its largest finite value (the tables of
/// docs/quantization-formats.md §1, §2, §7).
struct MinifloatFormat
{
    int mantissaBits;
    int minNormalExponent;
    float maxFinite;
};

inline constexpr MinifloatFormat Fp16Format{10, -14, 65504.0f};
inline constexpr MinifloatFormat Fp8E4M3Format{3, -6, 448.0f};
inline constexpr MinifloatFormat Fp8E5M2Format{2, -14, 57344.0f};
inline constexpr MinifloatFormat E2M1Format{1, 0, 6.0f};

/// The nearest value of `format` to `v`, ties to even, *ignoring the upper
/// limit*: the result may exceed maxFinite and the caller decides between
/// saturation and overflow. NaN stays NaN, ±inf stays ±inf.
///
/// Works by scaling v so that the format's spacing at v's exponent becomes 1
/// (both factors are powers of two, so the scaling is exact), rounding to an
/// integer with the FPU's round-half-even, and scaling back. Exponents below
/// the format's smallest normal use the subnormal spacing 2^(emin - m).
inline float roundToFormatUnbounded(float v, int mantissaBits, int minNormalExponent)
{
    const std::int32_t biased = std::int32_t((std::bit_cast<std::uint32_t>(v) >> 23) & 0xFFu);
    const std::int32_t exponent = std::min(std::max(biased, minNormalExponent + 127), 254);
    const float spacing = std::bit_cast<float>(std::uint32_t(exponent - mantissaBits) << 23);
    const float inverseSpacing = std::bit_cast<float>(std::uint32_t(254 - exponent + mantissaBits) << 23);
    return __builtin_rintf(v * inverseSpacing) * spacing;
}

/// Rounds into `format`; a finite result beyond maxFinite becomes
/// copysign(overflowMagnitude, v): maxFinite to saturate, infinity or NaN to
/// overflow. `overflowed` is set when that replacement happened.
inline float roundToFormat(float v, const MinifloatFormat &format, float overflowMagnitude, bool &overflowed)
{
    const float rounded = roundToFormatUnbounded(v, format.mantissaBits, format.minNormalExponent);
    overflowed = std::fabs(rounded) > format.maxFinite;
    return overflowed ? std::copysign(overflowMagnitude, v) : rounded;
}

/// float32 -> bfloat16 -> float32 with round-to-nearest-even, as PyTorch's
/// c10/util/BFloat16.h round_to_nearest_even: (u + 0x7FFF + lsb) >> 16.
/// Overflow past the largest bfloat16 becomes ±inf; NaN stays NaN.
inline float roundToBf16(float v)
{
    const std::uint32_t u = std::bit_cast<std::uint32_t>(v);
    const std::uint32_t rounded = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    return v != v ? v : std::bit_cast<float>(rounded);
}

/// float32 -> float16 -> float32, IEEE round-to-nearest-even with gradual
/// underflow; values that round past 65504 become ±inf (>= 65520).
inline float roundToFp16(float v)
{
    bool overflowed = false;
    return roundToFormat(v, Fp16Format, std::numeric_limits<float>::infinity(), overflowed);
}

/// IEEE binary16 bits -> float32, exact (subnormals included). The 2^112
/// multiply rebiases the exponent and normalizes subnormals in one step.
inline float halfBitsToFloat(std::uint16_t bits)
{
    const std::uint32_t magnitude = std::uint32_t(bits & 0x7FFFu) << 13;
    const float rebiased = std::bit_cast<float>(magnitude) * 0x1p112f;
    const std::uint32_t special = magnitude >= (0x7C00u << 13) ? (0xFFu << 23) : 0u; // inf, NaN
    return std::bit_cast<float>(std::bit_cast<std::uint32_t>(rebiased) | special |
                                (std::uint32_t(bits & 0x8000u) << 16));
}

/// bfloat16 bits -> float32 (bfloat16 is the upper half of a float32).
inline float bf16BitsToFloat(std::uint16_t bits)
{
    return std::bit_cast<float>(std::uint32_t(bits) << 16);
}

/// Decodes one code of a format with `exponentBits` and `mantissaBits` (sign
/// in the top bit, IEEE subnormals, bias 2^(e-1) - 1 unless given). Used to
/// enumerate a format's grid; inf/NaN codes are the caller's business.
inline double decodeMinifloat(std::uint32_t code, int exponentBits, int mantissaBits, int bias)
{
    const std::uint32_t mantissa = code & ((1u << mantissaBits) - 1u);
    const std::uint32_t exponent = (code >> mantissaBits) & ((1u << exponentBits) - 1u);
    const bool negative = (code >> (exponentBits + mantissaBits)) & 1u;
    const double fraction = double(mantissa) / double(1u << mantissaBits);
    const double magnitude =
        exponent == 0 ? std::ldexp(fraction, 1 - bias) : std::ldexp(1.0 + fraction, int(exponent) - bias);
    return negative ? -magnitude : magnitude;
}

} // namespace kvscope::quant
