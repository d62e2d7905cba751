// SPDX-License-Identifier: MIT
#include "core/quantization/activationquant.h"

#include "core/quantization/quantizers.h"

#include <algorithm>
#include <cmath>

namespace kvscope::quant {

namespace {

/// vLLM's dynamic FP8 quantization floors the scale so that an all-zero token
/// divides by no zero (csrc/quantization/fp8: min_scaling_factor = 1 / (448 * 512)).
constexpr float Fp8MinScale = 1.0f / (448.0f * 512.0f);

/// MXFP8's shared scale: amax / 448 rounded up to a power of two, an E8M0 byte
/// (__nv_cvt_float_to_e8m0(amax / 448, __NV_SATFINITE, cudaRoundPosInf) in cvt_warp_fp16_to_mxfp8), so
/// that amax / X is at most 448 and nothing saturates; 0 for a block of zeros.
float mxfp8Scale(float amax)
{
    if (!(amax > 0))
        return 0.0f;
    int exponent = 0;
    const float mantissa = std::frexp(amax / Fp8E4M3Format.maxFinite, &exponent); // in [0.5, 1)
    const int roundedUp = mantissa == 0.5f ? exponent - 1 : exponent;
    return std::ldexp(1.0f, std::clamp(roundedUp, -127, 127));
}

/// The values of `how`'s groups along a token: 128 for block FP8, 32 for MXFP8, else the whole token.
std::int64_t groupSize(ActivationQuantization how, std::int64_t cols)
{
    switch (how) {
    case ActivationQuantization::Fp8PerTokenGroup128:
        return 128;
    case ActivationQuantization::Mxfp8:
        return 32;
    case ActivationQuantization::None:
    case ActivationQuantization::Fp8PerToken:
    case ActivationQuantization::Int8PerToken:
        break;
    }
    return cols;
}

void quantizeGroup(const float *in, float *out, std::int64_t count, ActivationQuantization how)
{
    float amax = 0;
    for (std::int64_t i = 0; i < count; ++i)
        amax = std::max(amax, std::fabs(in[i]));
    bool clipped = false;
    if (how == ActivationQuantization::Int8PerToken) {
        const IntGrid grid = int8Grid(amax);
        for (std::int64_t i = 0; i < count; ++i)
            out[i] = dequantizeInt(in[i], grid, clipped);
        return;
    }
    Fp8Tensor fp8;
    fp8.scale = std::max(amax / Fp8E4M3Format.maxFinite, Fp8MinScale);
    if (how == ActivationQuantization::Mxfp8) {
        fp8.scale = mxfp8Scale(amax);
        if (fp8.scale == 0.0f) {
            std::fill(out, out + count, 0.0f);
            return;
        }
    }
    fp8.overflowMagnitude = Fp8E4M3Format.maxFinite;
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = dequantizeFp8(in[i], fp8, clipped);
}

} // namespace

std::vector<float> quantizeActivations(dense::ConstMatrixRef x, ActivationQuantization how)
{
    std::vector<float> out(static_cast<size_t>(x.rows * x.cols));
    const std::int64_t group = groupSize(how, x.cols);
    for (std::int64_t r = 0; r < x.rows; ++r) {
        const float *in = x.data + r * x.stride;
        float *row = out.data() + r * x.cols;
        if (how == ActivationQuantization::None) {
            std::copy(in, in + x.cols, row);
            continue;
        }
        for (std::int64_t first = 0; first < x.cols; first += group)
            quantizeGroup(in + first, row + first, std::min(group, x.cols - first), how);
    }
    return out;
}

namespace {

/// Each way, written once: its scheme-id suffix and its description.
struct ActivationQuantizationSpelling
{
    ActivationQuantization how;
    const char *suffix;
    const char *description;
};

constexpr ActivationQuantizationSpelling activationQuantizationSpellings[] = {
    {ActivationQuantization::None, "", ""},
    {ActivationQuantization::Fp8PerToken, "+a-fp8-token",
     "activations FP8 E4M3, one dynamic scale per token"},
    {ActivationQuantization::Fp8PerTokenGroup128, "+a-fp8-g128",
     "activations FP8 E4M3, one dynamic scale per 128 values of a token"},
    {ActivationQuantization::Int8PerToken, "+a-int8-token",
     "activations INT8 symmetric, one dynamic scale per token"},
    {ActivationQuantization::Mxfp8, "+a-mxfp8",
     "activations MXFP8: FP8 E4M3, one power-of-two scale per 32 values"},
};

const ActivationQuantizationSpelling &spelling(ActivationQuantization how)
{
    for (const ActivationQuantizationSpelling &s : activationQuantizationSpellings)
        if (s.how == how)
            return s;
    return activationQuantizationSpellings[0];
}

} // namespace

QString activationQuantizationSuffix(ActivationQuantization how)
{
    return QLatin1String(spelling(how).suffix);
}

std::optional<ActivationQuantization> activationQuantizationFromSuffix(const QString &suffix)
{
    for (const ActivationQuantizationSpelling &s : activationQuantizationSpellings)
        if (s.how != ActivationQuantization::None && suffix == QLatin1String(s.suffix))
            return s.how;
    return std::nullopt;
}

QString activationQuantizationDescription(ActivationQuantization how)
{
    return QLatin1String(spelling(how).description);
}

} // namespace kvscope::quant
