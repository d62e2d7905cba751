// SPDX-License-Identifier: MIT
// Built with -O3 -fopenmp-simd -ffp-contract=off (core/quant/CMakeLists.txt):
// `#pragma omp simd` lets the double sums vectorize, and no fused multiply-add
// may change a rounding, so every build gives the same bits as the scalar rules.
#include "kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define KVSCOPE_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KVSCOPE_SIMD_CLONES
#endif
#define KVSCOPE_INLINE inline __attribute__((always_inline))

namespace kvscope::quant::kernels {

SlotMap SlotMap::forRange(double lo, double hi, int bins, bool clampToEdges)
{
    SlotMap map;
    map.bins = bins;
    const double scale = double(bins) / (hi - lo);
    map.scale = float(scale);
    map.offset = float(2.0 - lo * scale);
    map.lowest = clampToEdges ? 2.0f : 1.5f;
    map.highest = clampToEdges ? float(bins) + 1.5f : float(bins) + 2.5f;
    return map;
}

void ErrorSums::add(const ErrorSums &other)
{
    errorSquares += other.errorSquares;
    absError += other.absError;
    signalTimesError += other.signalTimesError;
    maxAbsError = std::max(maxAbsError, other.maxAbsError);
    flushed += other.flushed;
    nonFinite += other.nonFinite;
    clipped += other.clipped;
}

void ScanSums::add(const ScanSums &other)
{
    if (other.empty)
        return;
    min = empty ? other.min : std::min(min, other.min);
    max = empty ? other.max : std::max(max, other.max);
    sumSquares += other.sumSquares;
    nonFinite += other.nonFinite;
    empty = false;
}

HistogramLanes::HistogramLanes(int slotCount)
    : m_slotCount(slotCount), m_lanes(size_t(slotCount) * 4, 0), m_totals(size_t(slotCount), 0)
{}

void HistogramLanes::add(const std::int32_t *slots, std::int64_t count)
{
    // A lane sees at most a quarter of the elements (plus the tail), so
    // draining every 2^31 elements keeps every 32-bit counter below 2^30.
    if (m_pending + count > (std::int64_t{1} << 31))
        drain();
    std::uint32_t *lane0 = m_lanes.data();
    std::uint32_t *lane1 = lane0 + m_slotCount;
    std::uint32_t *lane2 = lane1 + m_slotCount;
    std::uint32_t *lane3 = lane2 + m_slotCount;
    std::int64_t i = 0;
    for (; i + 4 <= count; i += 4) {
        ++lane0[slots[i]];
        ++lane1[slots[i + 1]];
        ++lane2[slots[i + 2]];
        ++lane3[slots[i + 3]];
    }
    for (; i < count; ++i)
        ++lane0[slots[i]];
    m_pending += count;
}

void HistogramLanes::drain()
{
    for (int lane = 0; lane < 4; ++lane)
        for (int slot = 0; slot < m_slotCount; ++slot)
            m_totals[size_t(slot)] += m_lanes[size_t(lane * m_slotCount + slot)];
    std::fill(m_lanes.begin(), m_lanes.end(), 0u);
    m_pending = 0;
}

void HistogramLanes::addTotalsTo(std::vector<std::int64_t> &slots)
{
    drain();
    for (size_t i = 0; i < m_totals.size(); ++i)
        slots[i] += m_totals[i];
    std::fill(m_totals.begin(), m_totals.end(), 0);
}

namespace {

/// 16-bit little-endian patterns -> float32 with `toFloat`.
template <class ToFloat>
KVSCOPE_INLINE void decode16(const unsigned char *source, std::int64_t count, float *out, ToFloat toFloat)
{
#pragma omp simd
    for (std::int64_t i = 0; i < count; ++i) {
        std::uint16_t bits;
        std::memcpy(&bits, source + 2 * i, 2);
        out[i] = toFloat(bits);
    }
}

} // namespace

KVSCOPE_SIMD_CLONES
void decodeFloat16(const unsigned char *source, std::int64_t count, float *out)
{
    decode16(source, count, out, [](std::uint16_t bits) { return halfBitsToFloat(bits); });
}

KVSCOPE_SIMD_CLONES
void decodeBFloat16(const unsigned char *source, std::int64_t count, float *out)
{
    decode16(source, count, out, [](std::uint16_t bits) { return bf16BitsToFloat(bits); });
}

KVSCOPE_SIMD_CLONES
void scan(const float *w, std::int64_t n, ScanSums &sums)
{
    if (n <= 0)
        return;
    float lowest = w[0];
    float highest = w[0];
    double squares = 0;
    std::int64_t nonFinite = 0;
#pragma omp simd reduction(min : lowest) reduction(max : highest) reduction(+ : squares, nonFinite)
    for (std::int64_t i = 0; i < n; ++i) {
        const float v = w[i];
        lowest = std::min(lowest, v);
        highest = std::max(highest, v);
        squares += double(v) * double(v);
        nonFinite += (v - v) != 0.0f ? 1 : 0; // NaN and ±inf give NaN
    }
    sums.add({.min = lowest, .max = highest, .sumSquares = squares, .nonFinite = nonFinite, .empty = false});
}

KVSCOPE_INLINE std::int32_t slotOf(float v, bool finite, const SlotMap &map)
{
    float t = v * map.scale + map.offset;
    t = std::max(t, map.lowest);
    t = std::min(t, map.highest);
    return std::int32_t(finite ? t : 0.5f);
}

KVSCOPE_SIMD_CLONES
void valueSlots(const float *w, std::int64_t n, const SlotMap &map, std::int32_t *slots)
{
    const SlotMap m = map;
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i)
        slots[i] = slotOf(w[i], true, m);
}

namespace {

KVSCOPE_INLINE void spanMinMax(const float *w, std::int64_t n, float &min, float &max)
{
    float lowest = w[0];
    float highest = w[0];
#pragma omp simd reduction(min : lowest) reduction(max : highest)
    for (std::int64_t i = 0; i < n; ++i) {
        lowest = std::min(lowest, w[i]);
        highest = std::max(highest, w[i]);
    }
    min = lowest;
    max = highest;
}

/// Dequantizes consecutive units, each with the parameters
/// `unitParameters(min, max)` derives from its range, element by element
/// with `dequantize(w, parameters, clipped)`. Returns the clipped count.
template <class UnitParameters, class Dequantize>
KVSCOPE_INLINE std::int64_t dequantizeUnits(const float *w, const std::int32_t *lengths, std::int64_t units,
                                            float *y, UnitParameters unitParameters, Dequantize dequantize)
{
    std::int64_t clipped = 0;
    for (std::int64_t unit = 0; unit < units; ++unit) {
        const std::int64_t n = lengths[unit];
        float min, max;
        spanMinMax(w, n, min, max);
        const auto parameters = unitParameters(min, max);
        int unitClipped = 0;
#pragma omp simd reduction(+ : unitClipped)
        for (std::int64_t i = 0; i < n; ++i) {
            bool c = false;
            y[i] = dequantize(w[i], parameters, c);
            unitClipped += c ? 1 : 0;
        }
        clipped += unitClipped;
        w += n;
        y += n;
    }
    return clipped;
}

float absoluteMax(float min, float max)
{
    return std::max(std::fabs(min), std::fabs(max));
}

} // namespace

KVSCOPE_SIMD_CLONES
void minMax(const float *w, std::int64_t n, float &min, float &max)
{
    spanMinMax(w, n, min, max);
}

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeIntUnits(const float *w, const std::int32_t *lengths, std::int64_t units, IntRule rule,
                                int bits, float *y)
{
    return dequantizeUnits(
        w, lengths, units, y, [rule, bits](float min, float max) { return intGrid(rule, bits, min, max); },
        [](float v, const IntGrid &grid, bool &clipped) { return dequantizeInt(v, grid, clipped); });
}

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeNf4Units(const float *w, const std::int32_t *lengths, std::int64_t units, float *y)
{
    // absmax scaling never clips
    return dequantizeUnits(
        w, lengths, units, y, [](float min, float max) { return nf4Block(absoluteMax(min, max)); },
        [](float v, const Nf4Block &block, bool &) { return dequantizeNf4(v, block); });
}

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeMxfp4Units(const float *w, const std::int32_t *lengths, std::int64_t units, float *y)
{
    return dequantizeUnits(
        w, lengths, units, y, [](float min, float max) { return mxfp4Block(absoluteMax(min, max)); },
        [](float v, const MxBlock &block, bool &clipped) { return dequantizeMxfp4(v, block, clipped); });
}

namespace {

/// Dequantizes n elements of a per-tensor format; returns the clipped count.
template <class Dequantize>
KVSCOPE_INLINE std::int64_t dequantizeSpan(const float *w, std::int64_t n, float *y, Dequantize dequantize)
{
    std::int64_t clipped = 0;
#pragma omp simd reduction(+ : clipped)
    for (std::int64_t i = 0; i < n; ++i) {
        bool c = false;
        y[i] = dequantize(w[i], c);
        clipped += c ? 1 : 0;
    }
    return clipped;
}

} // namespace

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeFp8(const float *w, std::int64_t n, const Fp8Tensor &tensor, float *y)
{
    const Fp8Tensor t = tensor;
    return dequantizeSpan(w, n, y, [t](float v, bool &clipped) { return dequantizeFp8(v, t, clipped); });
}

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeFp16(const float *w, std::int64_t n, float *y)
{
    return dequantizeSpan(w, n, y, [](float v, bool &clipped) {
        return roundToFormat(v, Fp16Format, std::numeric_limits<float>::infinity(), clipped);
    });
}

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeBf16(const float *w, std::int64_t n, float *y)
{
    return dequantizeSpan(w, n, y, [](float v, bool &clipped) {
        const float rounded = roundToBf16(v);
        clipped = std::fabs(rounded) == std::numeric_limits<float>::infinity(); // a finite input overflowed
        return rounded;
    });
}

namespace {

template <bool Relative>
KVSCOPE_INLINE void errorLoop(const float *w, const float *y, std::int64_t n, const SlotMap &errorMap,
                              std::int32_t *errorSlots, const SlotMap &relativeMap,
                              std::int32_t *relativeSlots, ErrorSums &sums)
{
    const SlotMap em = errorMap;
    const SlotMap rm = relativeMap;
    double errorSquares = 0, absError = 0, signalTimesError = 0, maxAbsError = 0;
    std::int64_t flushed = 0, nonFinite = 0;
#pragma omp simd reduction(+ : errorSquares, absError, signalTimesError, flushed, nonFinite) \
    reduction(max : maxAbsError)
    for (std::int64_t i = 0; i < n; ++i) {
        const float wi = w[i];
        const float yi = y[i];
        const bool finite = (yi - yi) == 0.0f;
        const double e = double(wi) - double(yi);
        errorSquares += e * e;
        absError += std::fabs(e);
        signalTimesError += double(wi) * e;
        maxAbsError = std::max(maxAbsError, finite ? std::fabs(e) : 0.0);
        flushed += (wi != 0.0f && yi == 0.0f) ? 1 : 0;
        nonFinite += finite ? 0 : 1;
        const float ef = wi - yi;
        errorSlots[i] = slotOf(ef, finite, em);
        if constexpr (Relative) {
            const float relative = wi != 0.0f ? ef / std::fabs(wi) : 0.0f;
            relativeSlots[i] = slotOf(relative, finite, rm);
        }
    }
    sums.add({.errorSquares = errorSquares,
              .absError = absError,
              .signalTimesError = signalTimesError,
              .maxAbsError = maxAbsError,
              .flushed = flushed,
              .nonFinite = nonFinite});
}

} // namespace

KVSCOPE_SIMD_CLONES
void accumulateErrors(const float *w, const float *y, std::int64_t n, const SlotMap &errorMap,
                      std::int32_t *errorSlots, const SlotMap *relativeMap, std::int32_t *relativeSlots,
                      ErrorSums &sums)
{
    if (relativeMap)
        errorLoop<true>(w, y, n, errorMap, errorSlots, *relativeMap, relativeSlots, sums);
    else
        errorLoop<false>(w, y, n, errorMap, errorSlots, errorMap, nullptr, sums);
}

} // namespace kvscope::quant::kernels
