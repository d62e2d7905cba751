// SPDX-License-Identifier: MIT
#include "core/output/speedchart.h"

#include "core/analysis/growth.h"
#include "core/common/error.h"
#include "core/plan/planner.h"
#include "core/plan/speed.h"
#include "core/scenario/scenario.h"

namespace kvscope {

SpeedChartData speedChartData(const Scenario &scenario, const MemoryPlan &plan, int points)
{
    SpeedChartData d;
    d.xMin = batchAxisMin();
    d.xMax = batchAxisMax();
    d.seqLen = plan.seqLen;            // its images' tokens too
    d.currentX = plan.speed.batchSize; // the sequences decoding at once: on the curve
    // A server that does not start decodes nothing at any batch: no curve, and the reason instead.
    d.available = plan.speed.priced();
    d.notes = d.available ? plan.speed.notes : plan.speed.whyNotPriced();
    if (!d.available)
        return d;
    d.currentTokensPerSecond = plan.speed.decodeTokensPerSecond;
    if (plan.speed.speculative) {
        d.draftTokens = plan.speed.speculative->draftTokens;
        d.acceptanceRate = plan.speed.speculative->acceptanceRate;
    }
    if (plan.speed.serving) {
        d.servingPromptLen = plan.speed.serving->promptLen;
        d.servingOutputLen = plan.speed.serving->outputLen;
    }

    const QList<KvCacheDtype> dtypes = chartKvDtypes(plan, d.currentCurve);
    // Each precision's own plan: its KV bytes, what fits, and its ridge point.
    QList<Scenario> variants;
    QList<MemoryPlan> plans;
    QList<std::int64_t> extra{d.currentX};
    for (qsizetype i = 0; i < dtypes.size(); ++i) {
        Scenario variant = scenario;
        variant.kvCacheDtype = dtypes.at(i);
        plans << (i == d.currentCurve ? plan : planMemory(variant));
        variants << variant;
        extra << plans.last().speed.ridgeBatch << plans.last().speed.ridgeBatchIdeal;
    }
    const QList<std::int64_t> xs = logSpacedPoints(d.xMin, d.xMax, points, extra);

    for (qsizetype i = 0; i < dtypes.size(); ++i) {
        const MemoryPlan &p = plans.at(i);
        const SpeedModel model(variants.at(i), p);
        SpeedCurve curve;
        curve.kvCacheDtype = dtypes.at(i);
        curve.ridgeBatch = p.speed.ridgeBatch;
        curve.ridgeBatchIdeal = p.speed.ridgeBatchIdeal;
        curve.fitsUpTo = p.largestBatchThatFits;
        const bool serving = i == d.currentCurve && plan.speed.serving;
        for (const std::int64_t batch : xs) {
            try {
                const ForwardCost step = model.decode(batch);
                curve.batch << batch;
                curve.tokensPerSecond << double(batch) / step.seconds;
                curve.tokensPerSecondIdeal << double(batch) / step.idealSeconds;
                // As many users as the cache holds: past that the engine queues.
                if (serving && batch <= curve.fitsUpTo)
                    curve.tokensPerSecondServing
                        << model.serving(batch, d.servingPromptLen, d.servingOutputLen).outputTokensPerSecond;
                if (i == d.currentCurve && plan.speed.speculative)
                    curve.tokensPerSecondSpeculative
                        << speculativeDecode(model, batch, d.draftTokens,
                                             {d.acceptanceRate, plan.speed.speculative->acceptanceSource})
                               .tokensPerSecond;
            } catch (const Error &) {
                break; // beyond 2^63 bytes: the curve ends here
            }
        }
        d.curves << curve;
    }
    return d;
}

} // namespace kvscope
