// SPDX-License-Identifier: MIT
// The simulator's hot loops over contiguous float32 spans. Each is a plain
// function (no callbacks, no virtual calls per element) that the compiler
// vectorizes; on x86-64 they are built for AVX-512, AVX2 and baseline and the
// loader picks one. Internal to core/quant.
#pragma once

#include "core/quantization/quantizers.h"

#include <cstdint>
#include <vector>

namespace kvscope::quant::kernels {

/// Maps a value v to a histogram slot int(v * scale + offset): slot 0 holds
/// non-finite values, 1 values below the range, 2..bins+1 the bins, bins+2
/// values above. With `clampToEdges` values outside fall into the first or
/// last bin instead (for ranges that bound the data by construction).
struct SlotMap
{
    int bins = 1;
    float scale = 1.0f;
    float offset = 2.0f;
    float lowest = 1.5f;
    float highest = 3.5f;

    static SlotMap forRange(double lo, double hi, int bins, bool clampToEdges);
    int slotCount() const { return bins + 3; }
};

/// Sums of one span of the error pass, in double.
struct ErrorSums
{
    double errorSquares = 0;      ///< Σ (w - w')²
    double absError = 0;          ///< Σ |w - w'|
    double signalTimesOutput = 0; ///< Σ w w'
    double outputSquares = 0;     ///< Σ w'²
    double maxAbsError = 0;
    std::int64_t flushed = 0;   ///< w != 0 but w' == 0
    std::int64_t nonFinite = 0; ///< w' is NaN or ±inf
    std::int64_t clipped = 0;   ///< filled by the dequantize step

    void add(const ErrorSums &other);
};

/// Sums of the scan pass.
struct ScanSums
{
    float min = 0;
    float max = 0;
    double sumSquares = 0;
    std::int64_t nonFinite = 0;
    bool empty = true;

    void add(const ScanSums &other);
};

/// Histogram counters with four interleaved lanes, so runs of equal slots do
/// not serialize on one counter; drained into 64-bit totals before a lane can
/// overflow.
class HistogramLanes
{
public:
    explicit HistogramLanes(int slotCount = 0);

    void add(const std::int32_t *slots, std::int64_t count);
    /// Adds all counts so far to `slots` (slotCount entries) and clears them.
    void addTotalsTo(std::vector<std::int64_t> &slots);

private:
    void drain();

    int m_slotCount = 0;
    std::vector<std::uint32_t> m_lanes;
    std::vector<std::int64_t> m_totals;
    std::int64_t m_pending = 0;
};

void decodeFloat16(const unsigned char *source, std::int64_t count, float *out);
void decodeBFloat16(const unsigned char *source, std::int64_t count, float *out);

void scan(const float *w, std::int64_t n, ScanSums &sums);
void valueSlots(const float *w, std::int64_t n, const SlotMap &map, std::int32_t *slots);

/// Minimum and maximum of a non-empty span.
void minMax(const float *w, std::int64_t n, float &min, float &max);

/// Dequantize consecutive units (unit i has lengths[i] elements, each with its
/// own scale) from w into y; return the number of clipped elements.
std::int64_t dequantizeIntUnits(const float *w, const std::int32_t *lengths, std::int64_t units, IntRule rule,
                                int bits, float *y);
std::int64_t dequantizeNf4Units(const float *w, const std::int32_t *lengths, std::int64_t units, float *y);
std::int64_t dequantizeMxfp4Units(const float *w, const std::int32_t *lengths, std::int64_t units, float *y);
/// SGLang's fp4_mx_block16 KV blocks (quantizers.h fp4MxBlock16Block).
std::int64_t dequantizeFp4MxBlock16Units(const float *w, const std::int32_t *lengths, std::int64_t units,
                                         float *y);
/// NVFP4 blocks over one per-tensor scale (quantizers.h nvfp4Block).
std::int64_t dequantizeNvfp4Units(const float *w, const std::int32_t *lengths, std::int64_t units,
                                  float tensorScale, float *y);

/// Per-tensor formats over n elements.
std::int64_t dequantizeFp8(const float *w, std::int64_t n, const Fp8Tensor &tensor, float *y);
std::int64_t dequantizeFp16(const float *w, std::int64_t n, float *y);
std::int64_t dequantizeBf16(const float *w, std::int64_t n, float *y);

/// The error pass over w and its dequantized y: sums, and the slots of the
/// error w - y and (when relativeMap is given) of the relative error
/// (w - y) / |w| (0 where w = 0, which every format stores exactly).
void accumulateErrors(const float *w, const float *y, std::int64_t n, const SlotMap &errorMap,
                      std::int32_t *errorSlots, const SlotMap *relativeMap, std::int32_t *relativeSlots,
                      ErrorSums &sums);

} // namespace kvscope::quant::kernels
