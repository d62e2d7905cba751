// SPDX-License-Identifier: MIT
#include "core/quantization/simulator.h"

#include "core/common/error.h"
#include "core/quantization/blockplan.h"
#include "core/quantization/kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace kvscope::quant {

namespace {

/// Scratch of one worker thread, sized once before the threads start.
struct WorkerScratch
{
    explicit WorkerScratch(std::int64_t blockLength, std::int64_t unitsPerBlock, int slotCount, bool relative)
        : decoded(size_t(blockLength)), dequantized(size_t(blockLength)), unitLengths(size_t(unitsPerBlock)),
          errorSlots(size_t(blockLength)), relativeSlots(relative ? size_t(blockLength) : 0),
          errorLanes(slotCount), relativeLanes(relative ? slotCount : 0)
    {}

    std::vector<float> decoded;
    std::vector<float> dequantized;
    std::vector<std::int32_t> unitLengths;
    std::vector<std::int32_t> errorSlots;
    std::vector<std::int32_t> relativeSlots;
    kernels::HistogramLanes errorLanes;
    kernels::HistogramLanes relativeLanes;
};

/// Per-row scales need a whole row in one block.
constexpr std::int64_t MaxUnitLength = std::int64_t{1} << 24;

double halfSpacing(double magnitude, int mantissaBits, int minNormalExponent)
{
    const int exponent =
        magnitude > 0 ? std::max(std::ilogb(magnitude), minNormalExponent) : minNormalExponent;
    return std::ldexp(1.0, exponent - mantissaBits - 1);
}

/// The farthest a value in [-1, 1] can be from the NF4 code it picks.
double largestNf4Error()
{
    double largest = 0;
    for (int k = 0; k < 15; ++k) {
        largest = std::max(largest, double(Nf4Thresholds[k]) - double(Nf4Codes[k]));
        largest = std::max(largest, double(Nf4Codes[k + 1]) - double(Nf4Thresholds[k]));
    }
    return largest;
}

std::int64_t dequantizeBlock(const Scheme &scheme, const Fp8Tensor &fp8, const float *w, const Block &block,
                             const std::int32_t *unitLengths, float *y)
{
    switch (scheme.kind) {
    case SchemeKind::Fp16:
        return kernels::dequantizeFp16(w, block.length, y);
    case SchemeKind::Bf16:
        return kernels::dequantizeBf16(w, block.length, y);
    case SchemeKind::Fp8E4M3:
    case SchemeKind::Fp8E5M2:
        return kernels::dequantizeFp8(w, block.length, fp8, y);
    case SchemeKind::Int8:
    case SchemeKind::Int:
        return kernels::dequantizeIntUnits(w, unitLengths, block.unitCount, intRule(scheme), scheme.bits, y);
    case SchemeKind::Nf4:
        return kernels::dequantizeNf4Units(w, unitLengths, block.unitCount, y);
    case SchemeKind::Mxfp4:
        return kernels::dequantizeMxfp4Units(w, unitLengths, block.unitCount, y);
    case SchemeKind::Nvfp4:
        return kernels::dequantizeNvfp4Units(w, unitLengths, block.unitCount, fp8.scale, y);
    case SchemeKind::Fp4MxBlock16:
        return kernels::dequantizeFp4MxBlock16Units(w, unitLengths, block.unitCount, y);
    }
    return 0;
}

bool hasLocalScales(const Scheme &scheme)
{
    return scheme.kind == SchemeKind::Int8 || scheme.kind == SchemeKind::Int ||
           scheme.kind == SchemeKind::Nf4 || scheme.kind == SchemeKind::Mxfp4 ||
           scheme.kind == SchemeKind::Nvfp4 || scheme.kind == SchemeKind::Fp4MxBlock16;
}

UnitLayout elementLayout(std::int64_t rows, std::int64_t cols)
{
    UnitLayout layout;
    layout.rows = rows;
    layout.cols = cols;
    layout.length = 1;
    layout.rowAligned = false;
    return layout;
}

/// Scale units of `scheme`, or single elements for per-tensor formats.
UnitLayout passLayout(const Scheme &scheme, std::int64_t rows, std::int64_t cols)
{
    return hasLocalScales(scheme) ? unitLayout(scheme, rows, cols) : elementLayout(rows, cols);
}

QString describeValue(float v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
}

[[noreturn]] void rejectNonFinite(const TensorData &tensor, std::int64_t count)
{
    std::int64_t index = 0;
    float value = 0;
    for (; index < tensor.elements(); ++index) {
        value = tensor.at(index / tensor.cols(), index % tensor.cols());
        if (!std::isfinite(value))
            break;
    }
    throw Error(QStringLiteral("%1: tensor '%2' holds %3 non-finite values (the first, %4, at [%5, %6]); "
                               "the simulator needs finite values")
                    .arg(tensor.origin(), tensor.name())
                    .arg(count)
                    .arg(describeValue(value))
                    .arg(index / tensor.cols())
                    .arg(index % tensor.cols()));
}

} // namespace

float TensorStats::amax() const
{
    return std::max(std::fabs(min), std::fabs(max));
}

Fp8Tensor fp8Tensor(const Scheme &scheme, float amax)
{
    Fp8Tensor t;
    const bool e4m3 = scheme.kind == SchemeKind::Fp8E4M3 || scheme.kind == SchemeKind::Nvfp4;
    t.format = e4m3 ? Fp8E4M3Format : Fp8E5M2Format;
    // NVFP4's per-tensor scale leaves the largest block scale at E4M3's 448 and its
    // largest element at E2M1's 6 (get_nvfp4_global_scale's inverse, nvfp4_utils.py).
    const float largest =
        t.format.maxFinite * (scheme.kind == SchemeKind::Nvfp4 ? E2M1Format.maxFinite : 1.0f);
    t.scale = scheme.unitScale || !(amax > 0) ? 1.0f : amax / largest;
    if (scheme.saturate)
        t.overflowMagnitude = t.format.maxFinite;
    else
        t.overflowMagnitude =
            e4m3 ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    return t;
}

double largestRoundingError(const Scheme &scheme, const TensorStats &stats)
{
    const float amax = stats.amax();
    switch (scheme.kind) {
    case SchemeKind::Fp16:
        return halfSpacing(std::min(double(amax), double(Fp16Format.maxFinite)), Fp16Format.mantissaBits,
                           Fp16Format.minNormalExponent);
    case SchemeKind::Bf16:
        return halfSpacing(amax, 7, -126);
    case SchemeKind::Fp8E4M3:
    case SchemeKind::Fp8E5M2: {
        const Fp8Tensor t = fp8Tensor(scheme, amax);
        const double largest = std::min(double(amax) / t.scale, double(t.format.maxFinite));
        return t.scale * halfSpacing(largest, t.format.mantissaBits, t.format.minNormalExponent);
    }
    case SchemeKind::Int8:
    case SchemeKind::Int:
        // A group's range lies inside the tensor's, so its step is no larger.
        return intGrid(intRule(scheme), scheme.bits, stats.min, stats.max).scale / 2.0;
    case SchemeKind::Nf4:
        return amax * largestNf4Error();
    case SchemeKind::Mxfp4:
        return mxfp4Block(amax).scale * 1.0; // half of E2M1's spacing 2 in [4, 8), times X
    case SchemeKind::Fp4MxBlock16:
        return fp4MxBlock16Block(amax).scale * 1.0; // half of E2M1's spacing 2 in [4, 6], times X
    case SchemeKind::Nvfp4: {
        // Half of E2M1's spacing 2 in [4, 6] times the largest block scale (amax / 6 rounded up
        // by at most E4M3's half step); with a unit tensor scale a block scale can also round to
        // zero (its amax / 6 below half of E4M3's smallest subnormal, 2^-10), zeroing the block.
        const double bound = double(amax) / 6.0 * (1.0 + 1.0 / 16.0);
        return scheme.unitScale ? std::max(bound, std::min(double(amax), 6.0 * std::ldexp(1.0, -10))) : bound;
    }
    }
    return 0;
}

TensorStats scanTensor(const TensorData &tensor, const RunControl &control)
{
    const BlockPlan plan(elementLayout(tensor.rows(), tensor.cols()), 16384);
    const std::int64_t chunks = plan.chunkCount();
    const int workers = workerCount(chunks);
    std::vector<std::vector<float>> buffers(size_t(workers),
                                            std::vector<float>(size_t(plan.maxBlockLength())));
    std::vector<kernels::ScanSums> chunkSums(static_cast<size_t>(chunks));
    parallelChunks(
        chunks, workers,
        [&](std::int64_t chunk, int worker) {
            for (std::int64_t b = plan.firstBlockOf(chunk); b < plan.endBlockOf(chunk); ++b) {
                const Block block = plan.block(b);
                kernels::scan(tensor.floats(block.begin, block.length, buffers[size_t(worker)].data()),
                              block.length, chunkSums[size_t(chunk)]);
            }
        },
        control);
    kernels::ScanSums total;
    for (const kernels::ScanSums &sums : chunkSums)
        total.add(sums);
    if (total.nonFinite > 0)
        rejectNonFinite(tensor, total.nonFinite);

    TensorStats stats;
    stats.rows = tensor.rows();
    stats.cols = tensor.cols();
    stats.min = total.empty ? 0.0f : total.min;
    stats.max = total.empty ? 0.0f : total.max;
    stats.sumSquares = total.sumSquares;
    return stats;
}

Histogram valueHistogram(const TensorData &tensor, const TensorStats &stats, int bins,
                         const RunControl &control)
{
    validateBinCount(bins, QStringLiteral("bins"));
    const double lo = stats.min;
    const double hi = stats.max > stats.min ? double(stats.max) : lo + 1.0; // a constant tensor fills bin 0
    const kernels::SlotMap map = kernels::SlotMap::forRange(lo, hi, bins, true);
    const BlockPlan plan(elementLayout(tensor.rows(), tensor.cols()), 4096);
    const std::int64_t chunks = plan.chunkCount();
    const int workers = workerCount(chunks);
    struct Scratch
    {
        std::vector<float> decoded;
        std::vector<std::int32_t> slots;
        kernels::HistogramLanes lanes;
    };
    std::vector<Scratch> scratch;
    scratch.reserve(size_t(workers));
    for (int w = 0; w < workers; ++w)
        scratch.push_back({std::vector<float>(size_t(plan.maxBlockLength())),
                           std::vector<std::int32_t>(size_t(plan.maxBlockLength())),
                           kernels::HistogramLanes(map.slotCount())});
    parallelChunks(
        chunks, workers,
        [&](std::int64_t chunk, int worker) {
            Scratch &s = scratch[size_t(worker)];
            for (std::int64_t b = plan.firstBlockOf(chunk); b < plan.endBlockOf(chunk); ++b) {
                const Block block = plan.block(b);
                kernels::valueSlots(tensor.floats(block.begin, block.length, s.decoded.data()), block.length,
                                    map, s.slots.data());
                s.lanes.add(s.slots.data(), block.length);
            }
        },
        control);
    std::vector<std::int64_t> slots(size_t(map.slotCount()), 0);
    for (Scratch &s : scratch)
        s.lanes.addTotalsTo(slots);
    return Histogram::fromSlots(lo, hi, slots);
}

SchemeResult simulateScheme(const TensorData &tensor, const TensorStats &stats, const Scheme &scheme,
                            const SimulationOptions &options, const RunControl &control,
                            const FittedWeights *fitted)
{
    validateBinCount(options.bins, QStringLiteral("bins"));
    const UnitLayout layout = passLayout(scheme, tensor.rows(), tensor.cols());
    if (layout.length > MaxUnitLength)
        throw Error(
            QStringLiteral("%1: %2 needs whole rows of %3 elements in memory at once; the limit is %4")
                .arg(tensor.origin(), scheme.id())
                .arg(layout.length)
                .arg(MaxUnitLength));

    SchemeResult result;
    result.scheme = scheme;
    result.rows = tensor.rows();
    result.cols = tensor.cols();
    result.bitsPerWeight = bitsPerWeight(scheme, tensor.rows(), tensor.cols());
    const Fp8Tensor fp8 = fp8Tensor(scheme, stats.amax());
    if (scheme.isFp8())
        result.tensorScale = fp8.scale;

    double bound = largestRoundingError(scheme, stats) * (1.0 + 1.0 / 256.0); // room for float32 rounding
    if (!(bound > 0) || !std::isfinite(bound))
        bound = 1.0;
    const kernels::SlotMap errorMap = kernels::SlotMap::forRange(-bound, bound, options.bins, false);
    const kernels::SlotMap relativeMap = kernels::SlotMap::forRange(-1.0, 1.0, options.bins, true);

    const BlockPlan plan(layout);
    const std::int64_t chunks = plan.chunkCount();
    const int workers = workerCount(chunks);
    const std::int64_t unitsPerBlock = std::max<std::int64_t>(1, plan.maxBlockLength() / layout.length);
    std::vector<WorkerScratch> scratch;
    scratch.reserve(size_t(workers));
    for (int w = 0; w < workers; ++w)
        scratch.emplace_back(plan.maxBlockLength(), unitsPerBlock, errorMap.slotCount(),
                             options.relativeHistogram);
    std::vector<kernels::ErrorSums> chunkSums(static_cast<size_t>(chunks));

    parallelChunks(
        chunks, workers,
        [&](std::int64_t chunk, int worker) {
            WorkerScratch &s = scratch[size_t(worker)];
            kernels::ErrorSums &sums = chunkSums[size_t(chunk)];
            for (std::int64_t b = plan.firstBlockOf(chunk); b < plan.endBlockOf(chunk); ++b) {
                const Block block = plan.block(b);
                const float *w = tensor.floats(block.begin, block.length, s.decoded.data());
                if (hasLocalScales(scheme))
                    plan.unitLengths(block, s.unitLengths.data());
                if (fitted)
                    std::copy_n(fitted->values.begin() + block.begin, block.length, s.dequantized.begin());
                else
                    sums.clipped +=
                        dequantizeBlock(scheme, fp8, w, block, s.unitLengths.data(), s.dequantized.data());
                kernels::accumulateErrors(
                    w, s.dequantized.data(), block.length, errorMap, s.errorSlots.data(),
                    options.relativeHistogram ? &relativeMap : nullptr, s.relativeSlots.data(), sums);
                s.errorLanes.add(s.errorSlots.data(), block.length);
                if (options.relativeHistogram)
                    s.relativeLanes.add(s.relativeSlots.data(), block.length);
            }
        },
        control);

    kernels::ErrorSums total;
    for (const kernels::ErrorSums &sums : chunkSums)
        total.add(sums);
    if (fitted) {
        total.clipped = fitted->clipped;
        result.awqAlpha = fitted->awqAlpha;
    }
    result.metrics = ErrorMetrics::fromSums(tensor.elements(), stats.sumSquares, total.errorSquares,
                                            total.absError, total.signalTimesOutput, total.outputSquares,
                                            total.maxAbsError, total.clipped, total.flushed, total.nonFinite);

    std::vector<std::int64_t> errorSlots(size_t(errorMap.slotCount()), 0);
    std::vector<std::int64_t> relativeSlots(size_t(relativeMap.slotCount()), 0);
    for (WorkerScratch &s : scratch) {
        s.errorLanes.addTotalsTo(errorSlots);
        if (options.relativeHistogram)
            s.relativeLanes.addTotalsTo(relativeSlots);
    }
    result.error = Histogram::fromSlots(-bound, bound, errorSlots);
    if (options.relativeHistogram)
        result.relativeError = Histogram::fromSlots(-1.0, 1.0, relativeSlots);
    return result;
}

std::vector<float> dequantizeTensor(const TensorData &tensor, const TensorStats &stats, const Scheme &scheme,
                                    const RunControl &control)
{
    const UnitLayout layout = passLayout(scheme, tensor.rows(), tensor.cols());
    const BlockPlan plan(layout);
    const std::int64_t chunks = plan.chunkCount();
    const int workers = workerCount(chunks);
    const std::int64_t unitsPerBlock = std::max<std::int64_t>(1, plan.maxBlockLength() / layout.length);
    std::vector<std::vector<float>> decoded(static_cast<size_t>(workers),
                                            std::vector<float>(static_cast<size_t>(plan.maxBlockLength())));
    std::vector<std::vector<std::int32_t>> lengths(
        static_cast<size_t>(workers), std::vector<std::int32_t>(static_cast<size_t>(unitsPerBlock)));
    const Fp8Tensor fp8 = fp8Tensor(scheme, stats.amax());
    std::vector<float> out(size_t(tensor.elements()));
    parallelChunks(
        chunks, workers,
        [&](std::int64_t chunk, int worker) {
            for (std::int64_t b = plan.firstBlockOf(chunk); b < plan.endBlockOf(chunk); ++b) {
                const Block block = plan.block(b);
                const float *w = tensor.floats(block.begin, block.length, decoded[size_t(worker)].data());
                if (hasLocalScales(scheme))
                    plan.unitLengths(block, lengths[size_t(worker)].data());
                dequantizeBlock(scheme, fp8, w, block, lengths[size_t(worker)].data(),
                                out.data() + block.begin);
            }
        },
        control);
    return out;
}

} // namespace kvscope::quant
