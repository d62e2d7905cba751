// SPDX-License-Identifier: MIT
// Built with -O3 -fopenmp-simd -ffp-contract=off (core/quantization/CMakeLists.txt):
// `#pragma omp simd` lets the double sums vectorize, and no fused multiply-add
// may change a rounding, so every build gives the same bits as the scalar rules.
#include "core/quantization/kernels.h"

#include "core/quantization/simdclones.h"

#include <algorithm>
#include <cstring>
#include <limits>

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
    signalTimesOutput += other.signalTimesOutput;
    outputSquares += other.outputSquares;
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
            m_totals[size_t(slot)] += m_lanes[size_t(lane) * size_t(m_slotCount) + size_t(slot)];
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
    int nonFinite = 0; // a call covers at most one block
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

/// The histogram slot of v (see SlotMap). The comparisons are written so a
/// NaN lands on `lowest`: the float-to-int conversion never sees a NaN.
KVSCOPE_INLINE std::int32_t slotOf(float v, const SlotMap &map)
{
    float t = v * map.scale + map.offset;
    t = t >= map.lowest ? t : map.lowest;
    t = t <= map.highest ? t : map.highest;
    return std::int32_t(t);
}

/// slotOf, with non-finite values in slot 0.
KVSCOPE_INLINE std::int32_t slotOf(float v, bool finite, const SlotMap &map)
{
    return finite ? slotOf(v, map) : 0;
}

KVSCOPE_SIMD_CLONES
void valueSlots(const float *w, std::int64_t n, const SlotMap &map, std::int32_t *slots)
{
    const SlotMap m = map;
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i)
        slots[i] = slotOf(w[i], m);
}

namespace {

/// 16 and 8 floats: one AVX-512 register, or two and one AVX2 registers. GCC documents
/// vector_size on typedefs, so these stay typedefs.
typedef float Floats16 __attribute__((vector_size(64))); // NOLINT(modernize-use-using)
typedef float Floats8 __attribute__((vector_size(32)));  // NOLINT(modernize-use-using)

/// Minimum and maximum lane, folding halves together.
KVSCOPE_INLINE void foldMinMax(Floats16 low, Floats16 high, float &min, float &max)
{
    const auto lower = [](Floats8 a, Floats8 b) { return a < b ? a : b; };
    const auto upper = [](Floats8 a, Floats8 b) { return a > b ? a : b; };
    Floats8 l = lower(__builtin_shufflevector(low, low, 0, 1, 2, 3, 4, 5, 6, 7),
                      __builtin_shufflevector(low, low, 8, 9, 10, 11, 12, 13, 14, 15));
    Floats8 h = upper(__builtin_shufflevector(high, high, 0, 1, 2, 3, 4, 5, 6, 7),
                      __builtin_shufflevector(high, high, 8, 9, 10, 11, 12, 13, 14, 15));
    l = lower(l, __builtin_shufflevector(l, l, 4, 5, 6, 7, 0, 1, 2, 3));
    h = upper(h, __builtin_shufflevector(h, h, 4, 5, 6, 7, 0, 1, 2, 3));
    l = lower(l, __builtin_shufflevector(l, l, 2, 3, 0, 1, 6, 7, 4, 5));
    h = upper(h, __builtin_shufflevector(h, h, 2, 3, 0, 1, 6, 7, 4, 5));
    min = std::min(l[0], l[1]);
    max = std::max(h[0], h[1]);
}

/// Minimum and maximum of a span. Written with explicit vectors because GCC
/// leaves a min/max reduction over a short span scalar. With a compile-time
/// `Length` (a multiple of 16) the loop has no remainder.
template <int Length = 0>
KVSCOPE_INLINE void spanMinMax(const float *w, std::int64_t n, float &min, float &max)
{
    if constexpr (Length != 0)
        n = Length;
    float lowest = w[0];
    float highest = w[0];
    std::int64_t i = 0;
    if (n >= 16) {
        Floats16 low, high;
        std::memcpy(&low, w, sizeof low);
        high = low;
        for (i = 16; i + 16 <= n; i += 16) {
            Floats16 v;
            std::memcpy(&v, w + i, sizeof v);
            low = v < low ? v : low;
            high = v > high ? v : high;
        }
        foldMinMax(low, high, lowest, highest);
    }
    for (; i < n; ++i) {
        lowest = std::min(lowest, w[i]);
        highest = std::max(highest, w[i]);
    }
    min = lowest;
    max = highest;
}

/// Dequantizes `units` consecutive units of `Length` elements (0: lengths[i]),
/// each with the parameters `unitParameters(min, max)` derives from its
/// range, element by element with `dequantize(w, parameters, clipped)`.
/// Returns the clipped count.
template <int Length, class UnitParameters, class Dequantize>
KVSCOPE_INLINE std::int64_t dequantizeUnitsOf(const float *w, const std::int32_t *lengths, std::int64_t units,
                                              float *y, UnitParameters unitParameters, Dequantize dequantize)
{
    std::int64_t clipped = 0;
    for (std::int64_t unit = 0; unit < units; ++unit) {
        const std::int64_t n = Length != 0 ? Length : lengths[unit];
        float min, max;
        spanMinMax<Length>(w, n, min, max);
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

/// dequantizeUnitsOf with the loop bounds fixed at compile time when every
/// unit of the block has one of the usual lengths (NF4's 64, MXFP4's 32, NVFP4's 16, the
/// int groups 32..128), so short units carry no loop remainders.
template <class UnitParameters, class Dequantize>
KVSCOPE_INLINE std::int64_t dequantizeUnits(const float *w, const std::int32_t *lengths, std::int64_t units,
                                            float *y, UnitParameters unitParameters, Dequantize dequantize)
{
    const std::int32_t first = lengths[0];
    const bool uniform =
        std::all_of(lengths, lengths + units, [first](std::int32_t l) { return l == first; });
    switch (uniform ? first : 0) {
    case 16:
        return dequantizeUnitsOf<16>(w, lengths, units, y, unitParameters, dequantize);
    case 32:
        return dequantizeUnitsOf<32>(w, lengths, units, y, unitParameters, dequantize);
    case 64:
        return dequantizeUnitsOf<64>(w, lengths, units, y, unitParameters, dequantize);
    case 128:
        return dequantizeUnitsOf<128>(w, lengths, units, y, unitParameters, dequantize);
    default:
        return dequantizeUnitsOf<0>(w, lengths, units, y, unitParameters, dequantize);
    }
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

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeFp4MxBlock16Units(const float *w, const std::int32_t *lengths, std::int64_t units,
                                         float *y)
{
    return dequantizeUnits(
        w, lengths, units, y, [](float min, float max) { return fp4MxBlock16Block(absoluteMax(min, max)); },
        [](float v, const MxBlock &block, bool &clipped) {
            return dequantizeFp4MxBlock16(v, block, clipped);
        });
}

KVSCOPE_SIMD_CLONES
std::int64_t dequantizeNvfp4Units(const float *w, const std::int32_t *lengths, std::int64_t units,
                                  float tensorScale, float *y)
{
    return dequantizeUnits(
        w, lengths, units, y,
        [tensorScale](float min, float max) { return nvfp4Block(absoluteMax(min, max), tensorScale); },
        [](float v, const Nvfp4Block &block, bool &clipped) { return dequantizeNvfp4(v, block, clipped); });
}

namespace {

/// Dequantizes n elements of a per-tensor format; returns the clipped count.
template <class Dequantize>
KVSCOPE_INLINE std::int64_t dequantizeSpan(const float *w, std::int64_t n, float *y, Dequantize dequantize)
{
    int clipped = 0; // a call covers at most one block
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

/// The error pass over one span. The fast variant (Careful = false) assumes
/// every w' is finite; a NaN or infinite w' makes its Σe² non-finite, and
/// the span is then redone carefully, counting and setting such values apart.
template <bool Relative, bool Careful>
KVSCOPE_INLINE ErrorSums errorLoop(const float *w, const float *y, std::int64_t n, const SlotMap &errorMap,
                                   std::int32_t *errorSlots, const SlotMap &relativeMap,
                                   std::int32_t *relativeSlots)
{
    const SlotMap em = errorMap;
    const SlotMap rm = relativeMap;
    double errorSquares = 0, absError = 0, signalTimesOutput = 0, outputSquares = 0, maxAbsError = 0;
    int flushed = 0, nonFinite = 0; // 32-bit lanes vectorize better; a call covers at most one block
#pragma omp simd reduction(+ : errorSquares, absError, signalTimesOutput, outputSquares, flushed, nonFinite) \
    reduction(max : maxAbsError)
    for (std::int64_t i = 0; i < n; ++i) {
        const float wi = w[i];
        const float yi = y[i];
        const double e = double(wi) - double(yi);
        errorSquares += e * e;
        absError += std::fabs(e);
        signalTimesOutput += double(wi) * double(yi);
        outputSquares += double(yi) * double(yi);
        flushed += (wi != 0.0f && yi == 0.0f) ? 1 : 0;
        const float ef = wi - yi;
        const float relative = wi != 0.0f ? ef / std::fabs(wi) : 0.0f;
        if constexpr (Careful) {
            const bool finite = (yi - yi) == 0.0f;
            maxAbsError = std::max(maxAbsError, finite ? std::fabs(e) : 0.0);
            nonFinite += finite ? 0 : 1;
            errorSlots[i] = slotOf(ef, finite, em);
            if constexpr (Relative)
                relativeSlots[i] = slotOf(relative, finite, rm);
        } else {
            maxAbsError = std::max(maxAbsError, std::fabs(e));
            errorSlots[i] = slotOf(ef, em);
            if constexpr (Relative)
                relativeSlots[i] = slotOf(relative, rm);
        }
    }
    return {.errorSquares = errorSquares,
            .absError = absError,
            .signalTimesOutput = signalTimesOutput,
            .outputSquares = outputSquares,
            .maxAbsError = maxAbsError,
            .flushed = flushed,
            .nonFinite = nonFinite};
}

template <bool Relative>
KVSCOPE_INLINE ErrorSums errorPass(const float *w, const float *y, std::int64_t n, const SlotMap &errorMap,
                                   std::int32_t *errorSlots, const SlotMap &relativeMap,
                                   std::int32_t *relativeSlots)
{
    const ErrorSums fast =
        errorLoop<Relative, false>(w, y, n, errorMap, errorSlots, relativeMap, relativeSlots);
    if (std::isfinite(fast.errorSquares))
        return fast;
    return errorLoop<Relative, true>(w, y, n, errorMap, errorSlots, relativeMap, relativeSlots);
}

} // namespace

KVSCOPE_SIMD_CLONES
void accumulateErrors(const float *w, const float *y, std::int64_t n, const SlotMap &errorMap,
                      std::int32_t *errorSlots, const SlotMap *relativeMap, std::int32_t *relativeSlots,
                      ErrorSums &sums)
{
    if (relativeMap)
        sums.add(errorPass<true>(w, y, n, errorMap, errorSlots, *relativeMap, relativeSlots));
    else
        sums.add(errorPass<false>(w, y, n, errorMap, errorSlots, errorMap, nullptr));
}

} // namespace kvscope::quant::kernels
