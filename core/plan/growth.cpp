// SPDX-License-Identifier: MIT
#include "plan/growth.h"

#include "common/checked.h"
#include "common/error.h"
#include "plan/kvcache.h"
#include "plan/planner.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

QString growthAxisName(GrowthAxis axis)
{
    return axis == GrowthAxis::BatchSize ? QStringLiteral("batch") : QStringLiteral("sequence");
}

GrowthAxis parseGrowthAxis(const QString &text, const QString &option)
{
    for (const GrowthAxis axis : {GrowthAxis::SequenceLength, GrowthAxis::BatchSize})
        if (text == growthAxisName(axis))
            return axis;
    throw Error(QStringLiteral("%1: expected 'sequence' or 'batch', got '%2'").arg(option, text));
}

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
    xs << lo << hi;
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    xs.erase(std::remove_if(xs.begin(), xs.end(), [&](std::int64_t x) { return x < lo || x > hi; }),
             xs.end());
    return xs;
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

GrowthChartData growthChartData(const Scenario &scenario, const MemoryPlan &plan, GrowthAxis axis, int points)
{
    GrowthChartData d;
    d.axis = axis;
    const bool bySequence = axis == GrowthAxis::SequenceLength;
    d.xMin = bySequence ? sequenceAxisMin() : batchAxisMin();
    d.xMax = bySequence ? sequenceAxisMax(scenario.model) : batchAxisMax();
    d.currentX = bySequence ? scenario.seqLen : scenario.batchSize;
    d.batchSize = scenario.batchSize;
    d.seqLen = scenario.seqLen;
    d.budgetBytes = plan.budgetBytes;
    d.gpuMemoryBytes = plan.gpuMemoryBytes;
    d.fixedBytes = (Checked(plan.weights.bytesPerGpu) + plan.activationBytes + plan.overheadBytes).value();
    d.currentKvBytes = plan.kv.cacheBytes;
    d.currentTotalBytes = (Checked(d.fixedBytes) + plan.kv.cacheBytes).value();

    QList<std::int64_t> extra{d.currentX};
    if (bySequence && scenario.model.slidingWindow > 0)
        extra << scenario.model.slidingWindow << scenario.model.slidingWindow + plan.blockSize;
    const QList<std::int64_t> xs = logSpacedPoints(d.xMin, d.xMax, points, extra);

    const ModelArch &m = scenario.model;
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
        const KvCacheLayout layout =
            kvCacheLayout(m, kvCacheOptions(scenario, plan.dtype, curve.kvCacheDtype));
        for (std::int64_t x : xs) {
            try {
                const std::int64_t kv = bySequence ? kvCacheBytes(m, layout, scenario.batchSize, x)
                                                   : kvCacheBytes(m, layout, x, scenario.seqLen);
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
    return d;
}

} // namespace kvscope
