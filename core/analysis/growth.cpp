// SPDX-License-Identifier: MIT
#include "core/analysis/growth.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/plan/expertparallel.h"
#include "core/plan/kvcache.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/scenario/scenario.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

QList<KvCacheDtype> kvPrecisionWalk(WeightDtype resolvedDtype, ModelFormat format)
{
    if (format == ModelFormat::Gguf)
        return {KvCacheDtype::Float32, KvCacheDtype::Float16, KvCacheDtype::Q8_0, KvCacheDtype::Q4_0};
    const KvCacheDtype sixteen =
        resolvedDtype == WeightDtype::Float16 ? KvCacheDtype::Float16 : KvCacheDtype::BFloat16;
    return {KvCacheDtype::Float32, sixteen, KvCacheDtype::Fp8E4M3};
}

int kvPrecisionStep(const QList<KvCacheDtype> &walk, KvCacheDtype resolvedKvDtype)
{
    for (qsizetype i = 0; i < walk.size(); ++i)
        if (kvBitsPerElement(walk.at(i)) == kvBitsPerElement(resolvedKvDtype))
            return int(i);
    return -1;
}

namespace {

std::int64_t powerOfTwoAtLeast(std::int64_t value)
{
    std::int64_t power = 1;
    while (power < value)
        power <<= 1;
    return power;
}

namespace {

/// `xs` with `lo` and `hi` added, sorted, without repeats and without values outside [lo, hi].
QList<std::int64_t> sortedWithin(QList<std::int64_t> xs, std::int64_t lo, std::int64_t hi)
{
    xs << lo << hi;
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    xs.erase(std::remove_if(xs.begin(), xs.end(), [&](std::int64_t x) { return x < lo || x > hi; }),
             xs.end());
    return xs;
}

} // namespace

/// `points` evenly spaced integers from lo to hi plus the `extra` values in that range.
QList<std::int64_t> linearSpacedPoints(std::int64_t lo, std::int64_t hi, int points,
                                       QList<std::int64_t> extra)
{
    QList<std::int64_t> xs = std::move(extra);
    for (int i = 0; i < points; ++i) {
        const double t = points > 1 ? double(i) / double(points - 1) : 0.0;
        xs << std::clamp<std::int64_t>(std::llround(double(lo) + double(hi - lo) * t), lo, hi);
    }
    return sortedWithin(std::move(xs), lo, hi);
}

/// Labelled x values: powers of two on a log axis, multiples of a power of two on a
/// linear one; at most about nine.
QList<std::int64_t> axisTicks(std::int64_t lo, std::int64_t hi, AxisScale scale)
{
    QList<std::int64_t> ticks;
    if (scale == AxisScale::Logarithmic) {
        const int first = int(std::ceil(std::log2(double(std::max<std::int64_t>(1, lo)))));
        const int last = int(std::floor(std::log2(double(hi))));
        const int every = std::max(1, (last - first + 1 + 7) / 8);
        for (int power = first; power <= last; power += every)
            ticks << (std::int64_t(1) << power);
        return ticks;
    }
    const std::int64_t step = powerOfTwoAtLeast(std::max<std::int64_t>(1, (hi - lo) / 8));
    for (std::int64_t x = lo + (step - lo % step) % step; x <= hi; x += step)
        ticks << x;
    return ticks;
}

/// The smallest of 1, 2 or 5 x 10^k GiB (k >= 0) at least `bytes`.
std::int64_t niceStep(std::int64_t bytes)
{
    for (std::int64_t decade = GiB;; decade *= 10)
        for (std::int64_t factor : {1, 2, 5})
            if (factor * decade >= bytes)
                return factor * decade;
}

GrowthMarker placeMarker(std::int64_t x, std::int64_t bytes, const GrowthChartData &d)
{
    GrowthMarker m;
    m.present = true;
    m.x = x;
    m.bytes = bytes;
    m.shownX = std::clamp(x, d.rangeMin, d.rangeMax);
    m.beyondX = x < d.rangeMin ? -1 : x > d.rangeMax ? 1 : 0;
    m.shownBytes = std::clamp<std::int64_t>(bytes, 0, d.yMaxBytes);
    m.beyondTop = bytes > d.yMaxBytes;
    return m;
}

} // namespace

std::int64_t sequenceAxisMin()
{
    return 128;
}

std::int64_t sequenceAxisMax(const ModelArch &model)
{
    return std::clamp<std::int64_t>(model.maxPositionEmbeddings, sequenceAxisMin(), 10'000'000);
}

std::int64_t batchAxisMin()
{
    return 1;
}

std::int64_t batchAxisMax()
{
    return 4096;
}

QList<std::int64_t> logSpacedPoints(std::int64_t lo, std::int64_t hi, int points, QList<std::int64_t> extra)
{
    QList<std::int64_t> xs = std::move(extra);
    const double ratio = std::log(double(hi) / double(lo));
    for (int i = 0; i < points; ++i) {
        const double t = points > 1 ? double(i) / double(points - 1) : 0.0;
        xs << std::clamp<std::int64_t>(std::llround(double(lo) * std::exp(ratio * t)), lo, hi);
    }
    return sortedWithin(std::move(xs), lo, hi);
}

QList<KvCacheDtype> chartKvDtypes(const MemoryPlan &plan, int &current)
{
    QList<KvCacheDtype> walk = kvPrecisionWalk(plan.dtype, plan.modelFormat);
    current = kvPrecisionStep(walk, plan.kvCacheDtype);
    if (current < 0) {
        walk.append(plan.kvCacheDtype); // a cache type off the walk still gets its curve
        current = int(walk.size()) - 1;
    } else {
        walk[current] = plan.kvCacheDtype; // fp8_e5m2 sits on the FP8 step as itself
    }
    return walk;
}

std::optional<ModelArch> counterfactualModel(const ModelArch &model, Counterfactual kind)
{
    ModelArch changed = model;
    switch (kind) {
    case Counterfactual::AsIfMha:
        if (!model.usesMla() && model.numKvHeads >= model.numHeads)
            return std::nullopt;
        // MLA configs already give the per-head key (nope + rope) and value dimensions.
        changed.numKvHeads = model.numHeads;
        changed.mla = MlaSpec{};
        changed.indexer = IndexerSpec{};
        return changed;
    case Counterfactual::AsIfAllLayersFull:
        if (model.slidingLayerCount() == 0 && model.attentionChunkSize == 0 && !model.recurrent.enabled() &&
            model.kvSharedLayers == 0)
            return std::nullopt;
        changed.slidingWindow = 0;
        changed.slidingLayers.clear();
        changed.attentionChunkSize = 0;
        changed.chunkedLayers.clear();
        changed.recurrent = RecurrentSpec{};
        changed.kvSharedLayers = 0;
        return changed;
    }
    return std::nullopt;
}

GrowthChartData growthChartData(const Scenario &scenario, const MemoryPlan &plan, GrowthAxis axis, int points,
                                AxisScale scale, bool counterfactuals)
{
    GrowthChartData d;
    d.axis = axis;
    d.scale = scale;
    const bool bySequence = axis == GrowthAxis::SequenceLength;
    d.xMin = bySequence ? sequenceAxisMin() : batchAxisMin();
    d.xMax = bySequence ? sequenceAxisMax(scenario.model) : batchAxisMax();
    // The sequence axis counts every token a sequence holds, its images' too (the plan's seqLen).
    d.currentX = bySequence ? plan.seqLen : scenario.batchSize;
    d.batchSize = plan.rankBatchSize; // a GPU's: one data-parallel rank's share of the batch
    d.seqLen = plan.seqLen;
    d.budgetBytes = plan.budgetBytes;
    d.engine = plan.engine;
    d.gpuMemoryBytes = plan.gpuMemoryBytes;
    // SGLang's state pool is allocated whole, whatever the batch holds.
    d.fixedBytes = (Checked(plan.weights.bytesPerGpu) + plan.activationBytes +
                    plan.overheadWithGraphsBytes() + plan.kv.statePoolBytes)
                       .value();
    d.currentKvBytes = plan.kv.cacheBytes;
    d.currentTotalBytes = (Checked(d.fixedBytes) + plan.kv.cacheBytes).value();

    // Up to where the curves are drawn: the whole control range on a log axis; on a
    // linear one, a power of two past the current point and the crossing, so both
    // stand apart from the origin.
    const std::int64_t currentFitsUpTo = bySequence ? plan.largestSeqLenThatFits : plan.largestBatchThatFits;
    d.rangeMin = scale == AxisScale::Logarithmic ? d.xMin : 0;
    d.rangeMax = d.xMax;
    if (scale == AxisScale::Linear) {
        const std::int64_t reach = std::max(d.currentX, std::min(currentFitsUpTo, d.xMax));
        d.rangeMax = std::min(d.xMax, powerOfTwoAtLeast(reach + reach / 4 + 1));
    }
    d.ticks = axisTicks(d.rangeMin, d.rangeMax, scale);
    const std::int64_t top =
        std::min(std::max(d.gpuMemoryBytes, d.currentTotalBytes) / 4 * 5, d.gpuMemoryBytes * 4);
    d.yTickBytes = niceStep(top / 5);
    d.yMaxBytes = ceilDiv(top, d.yTickBytes) * d.yTickBytes;

    d.current = placeMarker(d.currentX, d.currentTotalBytes, d);
    if (currentFitsUpTo >= 0)
        d.crossing = placeMarker(currentFitsUpTo, d.budgetBytes, d);
    if (bySequence)
        d.maxModelLen = placeMarker(plan.maxModelLen, d.yMaxBytes, d);

    QList<std::int64_t> extra{d.currentX};
    if (bySequence && scenario.model.slidingWindow > 0)
        extra << scenario.model.slidingWindow << scenario.model.slidingWindow + plan.blockSize;
    const QList<std::int64_t> xs = scale == AxisScale::Logarithmic
                                       ? logSpacedPoints(d.xMin, d.rangeMax, points, extra)
                                       : linearSpacedPoints(d.xMin, d.rangeMax, points, extra);

    // A GPU of one data-parallel rank holds its share of a batch (the batch axis is the deployment's).
    const auto onRank = [&](std::int64_t batch) { return dataParallelShare(batch, plan.dataParallelSize); };
    // The drafter's layers share the pool; a running request holds its speculative slots too. Under
    // pipeline parallelism the curves are the binding stage's cache, as the plan's figures are.
    const ModelArch m = poolModel(scenario, plan.kv.draftLayers);
    const std::int64_t slots = plan.kv.speculativeSlots;
    const QList<KvCacheDtype> walk = chartKvDtypes(plan, d.currentCurve);
    for (qsizetype i = 0; i < walk.size(); ++i) {
        GrowthCurve curve;
        curve.kvCacheDtype = walk.at(i);
        // The plan already answers for its own KV dtype; the other precisions need their own plan.
        MemoryPlan otherPlan;
        if (i != d.currentCurve) {
            Scenario variant = scenario;
            variant.kvCacheDtype = curve.kvCacheDtype;
            otherPlan = planMemory(variant);
        }
        const MemoryPlan &fits = i == d.currentCurve ? plan : otherPlan;
        curve.fitsUpTo = bySequence ? fits.largestSeqLenThatFits : fits.largestBatchThatFits;
        const PlanCache cache = planCache(m, plan, kvCacheOptions(scenario, plan.dtype, curve.kvCacheDtype));
        for (std::int64_t x : xs) {
            try {
                const std::int64_t kv = bySequence
                                            ? kvCacheBytes(cache.model, cache.layout, plan.rankBatchSize,
                                                           x + slots, scenario.sharedPrefixLen)
                                            : kvCacheBytes(cache.model, cache.layout, onRank(x),
                                                           plan.seqLen + slots, scenario.sharedPrefixLen);
                const std::int64_t total = (Checked(d.fixedBytes) + kv).value();
                curve.x << x;
                curve.kvBytes << kv;
                curve.totalBytes << total;
            } catch (const Error &) {
                break; // beyond 2^63 bytes: the curve ends here
            }
        }
        d.curves << curve;
    }
    if (!counterfactuals)
        return d;
    for (const Counterfactual kind : {Counterfactual::AsIfMha, Counterfactual::AsIfAllLayersFull}) {
        const std::optional<ModelArch> changed = counterfactualModel(m, kind);
        if (!changed)
            continue;
        CounterfactualCurve curve;
        curve.kind = kind;
        curve.kvHeads = changed->numKvHeads;
        const PlanCache cache =
            planCache(*changed, plan, kvCacheOptions(scenario, plan.dtype, plan.kvCacheDtype));
        curve.cacheLayers = kvCacheLayerCount(cache.model);
        for (std::int64_t x : xs) {
            try {
                curve.kvBytes << (bySequence ? kvCacheBytes(cache.model, cache.layout, plan.rankBatchSize,
                                                            x + slots, scenario.sharedPrefixLen)
                                             : kvCacheBytes(cache.model, cache.layout, onRank(x),
                                                            plan.seqLen + slots, scenario.sharedPrefixLen));
                curve.x << x;
            } catch (const Error &) {
                break; // beyond 2^63 bytes: the curve ends here
            }
        }
        d.counterfactuals << curve;
    }
    return d;
}

} // namespace kvscope
