// SPDX-License-Identifier: MIT
// What the explorer charts draw: the memory bar segments, the growth curves,
// the KV precision walk and the GPU counts offered.
#include "core/analysis/growth.h"
#include "core/common/units.h"
#include "core/output/breakdown.h"
#include "core/plan/planner.h"
#include "core/plan/tensorparallel.h"
#include "core/scenario/scenario.h"
#include "tests/testsupport.h"

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

class TestGrowth : public QObject
{
    Q_OBJECT

    static Scenario defaultScenario()
    {
        Scenario s;
        s.model = preset(QStringLiteral("llama-3.1-8b"));
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        return s;
    }

private Q_SLOTS:
    void breakdownWhenItFits()
    {
        const MemoryPlan plan = planMemory(defaultScenario());
        const MemoryBreakdown b = memoryBreakdown(plan);
        QCOMPARE(b.segments.size(), 6);                              // with vLLM's CUDA graphs
        QCOMPARE(b.segment(MemoryPart::KvCache)->bytes, 16LL * GiB); // 16 x 8192 x 128 KiB
        QCOMPARE(b.segment(MemoryPart::Headroom)->bytes, plan.headroomBytes);
        QVERIFY(!b.segment(MemoryPart::Overflow));
        qint64 sum = 0;
        for (const BreakdownSegment &s : b.segments)
            sum += s.bytes;
        QCOMPARE(sum, plan.budgetBytes); // the bar fills the budget exactly
        // 16 GiB of a 71.27 GiB budget = 22.45 % -> 2244 basis points (floored).
        QCOMPARE(b.segment(MemoryPart::KvCache)->basisPoints, 16LL * GiB * 10'000 / plan.budgetBytes);
    }

    void breakdownShowsSglangsStatePool()
    {
        // SGLang keeps Qwen3-Next's recurrent states in a pool of their own, sized before the KV pool:
        // the bar shows it, and its headroom is the plan's.
        Scenario s = defaultScenario();
        s.model = preset(QStringLiteral("qwen3-next-80b-a3b"));
        s.engine = Engine::Sglang;
        s.tensorParallelSize = 4;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.kv.statePoolBytes > 0);
        const MemoryBreakdown b = memoryBreakdown(plan);
        QCOMPARE(b.segment(MemoryPart::RecurrentState)->bytes, plan.kv.statePoolBytes);
        QCOMPARE(b.segment(MemoryPart::Headroom)->bytes, plan.headroomBytes);
        // The growth chart's total counts the pool as fixed memory: at the plan's point it leaves the
        // plan's headroom.
        const GrowthChartData d = growthChartData(s, plan, GrowthAxis::SequenceLength, 64);
        QCOMPARE(d.currentTotalBytes, plan.budgetBytes - plan.headroomBytes);
    }

    void breakdownSplitsRuntimeOverheadFromCudaGraphs()
    {
        // vLLM on one H100 80 GB: 256 MiB of non-torch memory (0.25 GiB) and a CUDA-graph
        // estimate of 0.84 GiB (tests/testsupport.h), as vLLM logs it; the bar showed them as one 1.09 GiB
        // part.
        const MemoryPlan plan = planMemory(defaultScenario());
        const MemoryBreakdown b = memoryBreakdown(plan);
        const std::int64_t graphs = test::Llama8bH100CudaGraphEstimateBytes;
        QCOMPARE(b.segment(MemoryPart::Overhead)->bytes, 256LL * MiB);
        QCOMPARE(b.segment(MemoryPart::CudaGraphs)->bytes, graphs);
        QCOMPARE(b.segment(MemoryPart::Overhead)->bytes + b.segment(MemoryPart::CudaGraphs)->bytes,
                 plan.overheadWithGraphsBytes()); // together the part the bar used to draw
        // An engine that does not subtract them has no such part: vLLM 0.20.
        Scenario older = defaultScenario();
        older.vllmVersion = QStringLiteral("0.20");
        QVERIFY(!memoryBreakdown(planMemory(older)).segment(MemoryPart::CudaGraphs));
    }

    void breakdownWhenItOverflows()
    {
        Scenario s = defaultScenario();
        s.batchSize = 64;
        s.seqLen = 32768; // 64 x 32768 x 128 KiB = 256 GiB of KV
        const MemoryPlan plan = planMemory(s);
        const MemoryBreakdown b = memoryBreakdown(plan);
        const BreakdownSegment *kv = b.segment(MemoryPart::KvCache);
        // True to scale: the whole 256 GiB, of which what the budget does not leave lies beyond it.
        QCOMPARE(kv->bytes, 256LL * GiB);
        QCOMPARE(kv->beyondBudgetBytes, 256LL * GiB - plan.kv.availableBytes);
        QCOMPARE(b.segment(MemoryPart::Weights)->beyondBudgetBytes, 0LL);
        QCOMPARE(b.overflowBytes, -plan.headroomBytes);
        QCOMPARE(b.demandBytes, plan.budgetBytes + b.overflowBytes);
        QVERIFY(!b.segment(MemoryPart::Overflow));
        QVERIFY(!b.segment(MemoryPart::Headroom));
    }

    void breakdownWhenTheWeightsAloneOverflow()
    {
        // Llama-3.1-70B in BF16 on one H100: 131.4 GiB of weights against a 71.27 GiB budget.
        Scenario s = defaultScenario();
        s.model = preset(QStringLiteral("llama-3.1-70b"));
        const MemoryPlan plan = planMemory(s);
        const MemoryBreakdown b = memoryBreakdown(plan);
        const BreakdownSegment *weights = b.segment(MemoryPart::Weights);
        QCOMPARE(weights->bytes, plan.weights.bytesPerGpu);
        QCOMPARE(weights->beyondBudgetBytes, plan.weights.bytesPerGpu - plan.budgetBytes);
        // Everything after the weights lies wholly beyond the budget line.
        for (MemoryPart part : {MemoryPart::Activations, MemoryPart::Overhead, MemoryPart::KvCache})
            QCOMPARE(b.segment(part)->beyondBudgetBytes, b.segment(part)->bytes);
        QCOMPARE(b.overflowBytes, b.demandBytes - plan.budgetBytes);
    }

    void precisionWalk()
    {
        QCOMPARE(kvPrecisionWalk(WeightDtype::BFloat16),
                 (QList<KvCacheDtype>{KvCacheDtype::Float32, KvCacheDtype::BFloat16, KvCacheDtype::Fp8E4M3}));
        QCOMPARE(kvPrecisionWalk(WeightDtype::Float16).at(1), KvCacheDtype::Float16);
        const QList<KvCacheDtype> walk = kvPrecisionWalk(WeightDtype::BFloat16);
        QCOMPARE(kvPrecisionStep(walk, KvCacheDtype::Float32), 0);
        QCOMPARE(kvPrecisionStep(walk, KvCacheDtype::Float16), 1); // same 16 bits as the BF16 step
        QCOMPARE(kvPrecisionStep(walk, KvCacheDtype::Fp8E5M2), 2);
        QCOMPARE(kvPrecisionStep(walk, KvCacheDtype::Q8_0), -1);
        // llama.cpp's cache types for GGUF models: F32, F16, Q8_0 (8.5 bits), Q4_0 (4.5 bits).
        const QList<KvCacheDtype> gguf = kvPrecisionWalk(WeightDtype::Float16, ModelFormat::Gguf);
        QCOMPARE(gguf.size(), 4);
        QCOMPARE(kvPrecisionStep(gguf, KvCacheDtype::Q4_0), 3);
    }

    void sequenceCurves()
    {
        const Scenario s = defaultScenario();
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData d = growthChartData(s, plan, GrowthAxis::SequenceLength, 64);
        QCOMPARE(d.xMin, 128LL);
        QCOMPARE(d.xMax, 131'072LL); // Llama-3.1-8B's context
        QCOMPARE(d.curves.size(), 3);
        QCOMPARE(d.currentCurve, 1);
        const GrowthCurve &bf16 = d.curves.at(1);
        QVERIFY(bf16.x.contains(8192));
        // At 8192 tokens the curve equals the plan's KV cache; FP32 doubles it, FP8 halves it.
        const qsizetype at = bf16.x.indexOf(8192);
        QCOMPARE(bf16.kvBytes.at(at), plan.kv.cacheBytes);
        QCOMPARE(d.curves.at(0).kvBytes.at(at), plan.kv.cacheBytes * 2);
        QCOMPARE(d.curves.at(2).kvBytes.at(at), plan.kv.cacheBytes / 2);
        QCOMPARE(bf16.totalBytes.at(at), d.currentTotalBytes);
        QCOMPARE(bf16.fitsUpTo, plan.largestSeqLenThatFits);
        // FP8 fits about twice the tokens of BF16, FP32 about half.
        QVERIFY(d.curves.at(2).fitsUpTo > 2 * bf16.fitsUpTo - 32);
        QVERIFY(d.curves.at(0).fitsUpTo < bf16.fitsUpTo / 2 + 32);
        QVERIFY(std::is_sorted(bf16.x.begin(), bf16.x.end()));
        QVERIFY(std::is_sorted(bf16.kvBytes.begin(), bf16.kvBytes.end()));
    }

    void batchCurves()
    {
        const Scenario s = defaultScenario();
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData d = growthChartData(s, plan, GrowthAxis::BatchSize, 32);
        QCOMPARE(d.xMin, 1LL);
        QCOMPARE(d.xMax, 4096LL);
        const GrowthCurve &bf16 = d.curves.at(1);
        QCOMPARE(bf16.kvBytes.first(), GiB); // one 8192-token sequence = 1 GiB
        QCOMPARE(bf16.fitsUpTo, plan.largestBatchThatFits);
    }

    void windowedModelBendsAtTheWindow()
    {
        Scenario s;
        s.model = preset(QStringLiteral("mistral-7b-v0.1")); // window 4096 on every layer
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData d = growthChartData(s, plan, GrowthAxis::SequenceLength, 32);
        const GrowthCurve &c = d.curves.at(1);
        QVERIFY(c.x.contains(4096));
        QCOMPARE(c.kvBytes.last(), c.kvBytes.at(c.x.indexOf(4096 + 16)));
        QCOMPARE(c.fitsUpTo, -1LL);
    }

    void curvesFollowTheEnginesPool_data()
    {
        QTest::addColumn<QString>("model");
        // SGLang keeps every token of Mistral's windows in its one pool: the curve keeps growing.
        QTest::newRow("sglang one pool") << "mistral-7b-v0.1";
        // gpt-oss under SGLang: a full pool and a window pool of 0.8 of its tokens (cells of 66,355.2 B).
        QTest::newRow("sglang split pool") << "gpt-oss-20b";
    }

    void curvesFollowTheEnginesPool()
    {
        QFETCH(QString, model);
        Scenario s;
        s.model = preset(model);
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.engine = Engine::Sglang;
        s.batchSize = 2;
        s.seqLen = 8192;
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData d = growthChartData(s, plan, GrowthAxis::SequenceLength, 64);
        const GrowthCurve &c = d.curves.at(d.currentCurve);
        const qsizetype at = c.x.indexOf(8192);
        QVERIFY(at >= 0);
        QCOMPARE(c.kvBytes.at(at), plan.kv.cacheBytes);
        QCOMPARE(c.fitsUpTo, plan.largestSeqLenThatFits);
        QVERIFY(c.kvBytes.last() > c.kvBytes.at(at));
        QCOMPARE(d.engine, Engine::Sglang); // its markers take SGLang's flags (--context-length)
    }

    void pipelineCurvesAreTheBindingStages_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("full layers") << "llama-3.1-8b";
        QTest::newRow("sliding and full") << "gemma-3-1b";
    }

    // Under pipeline parallelism the plan's figures per GPU are the stage that binds the cache's: the
    // curves are that stage's cache too (its layers, the whole model's groups projected onto them), so
    // they pass through the plan's own point at every precision.
    void pipelineCurvesAreTheBindingStages()
    {
        QFETCH(QString, model);
        Scenario s = defaultScenario();
        s.model = preset(model);
        s.pipelineParallelSize = 3;
        s.batchSize = 4;
        s.seqLen = 8192;
        const MemoryPlan plan = planMemory(s);
        for (const GrowthAxis axis : {GrowthAxis::SequenceLength, GrowthAxis::BatchSize}) {
            const GrowthChartData d = growthChartData(s, plan, axis, 64);
            const GrowthCurve &c = d.curves.at(d.currentCurve);
            const qsizetype at = c.x.indexOf(d.currentX);
            QVERIFY(at >= 0);
            QCOMPARE(c.kvBytes.at(at), plan.kv.cacheBytes);
        }
    }

    void linearAxisFramesTheCurrentPointAndTheCrossing()
    {
        const Scenario s = defaultScenario();
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData d = growthChartData(s, plan, GrowthAxis::SequenceLength, 64, AxisScale::Linear);
        QCOMPARE(d.rangeMin, 0LL);
        // Batch 16 x 128 KiB = 2 MiB per token of sequence: the 55 GiB left after the
        // weights hold about 28,100 tokens; a quarter past that, the next power of two is 64K.
        QVERIFY(plan.largestSeqLenThatFits > 28'000 && plan.largestSeqLenThatFits < 29'000);
        QCOMPARE(d.rangeMax, 65'536LL);
        QCOMPARE(d.ticks,
                 (QList<std::int64_t>{0, 8192, 16'384, 24'576, 32'768, 40'960, 49'152, 57'344, 65'536}));
        QCOMPARE(d.current.beyondX, 0);
        QCOMPARE(d.current.shownX, 8192LL);
        QCOMPARE(d.crossing.x, plan.largestSeqLenThatFits);
        QCOMPARE(d.crossing.beyondX, 0);
        // --max-model-len (131,072) lies past the range: drawn at its right edge.
        QVERIFY(d.maxModelLen.present);
        QCOMPARE(d.maxModelLen.x, 131'072LL);
        QCOMPARE(d.maxModelLen.beyondX, 1);
        QCOMPARE(d.maxModelLen.shownX, d.rangeMax);
        // Samples are evenly spaced, and KV grows in proportion: a straight line.
        const GrowthCurve &bf16 = d.curves.at(1);
        QCOMPARE(bf16.x.last(), d.rangeMax);
        for (qsizetype i = 0; i < bf16.x.size(); ++i)
            if (bf16.x.at(i) % 16 == 0)
                QCOMPARE(bf16.kvBytes.at(i), bf16.x.at(i) * 16 * 128 * KiB);
        QCOMPARE(axisPosition(8192, AxisScale::Linear), 8192.0);
        QCOMPARE(axisPosition(8192, AxisScale::Logarithmic), 13.0);
    }

    void markersOutsideTheRangeAreClampedToItsEdge()
    {
        // 4,096 sequences of 8,192 tokens: 4 TiB of KV cache, far above the chart's top.
        Scenario s = defaultScenario();
        s.batchSize = 4096;
        MemoryPlan plan = planMemory(s);
        GrowthChartData d = growthChartData(s, plan, GrowthAxis::SequenceLength, 32, AxisScale::Logarithmic);
        QVERIFY(d.current.beyondTop);
        QCOMPARE(d.current.shownBytes, d.yMaxBytes);
        QCOMPARE(d.current.bytes, d.currentTotalBytes);
        // Llama-3.1-70B on one H100: the weights alone overflow, not one token fits; the
        // crossing lies left of the 128-token axis start.
        s = defaultScenario();
        s.model = preset(QStringLiteral("llama-3.1-70b"));
        plan = planMemory(s);
        d = growthChartData(s, plan, GrowthAxis::SequenceLength, 32, AxisScale::Logarithmic);
        QCOMPARE(d.crossing.x, 0LL);
        QCOMPARE(d.crossing.beyondX, -1);
        QCOMPARE(d.crossing.shownX, d.rangeMin);
        QCOMPARE(d.ticks.first(), 128LL);
        QCOMPARE(d.ticks.last(), 131'072LL);
    }

    void gpuCountsOffered()
    {
        // Llama-3.1-8B: 32 heads, 8 KV heads, I 14336 = 2^11 x 7.
        QCOMPARE(validTensorParallelSizes(preset(QStringLiteral("llama-3.1-8b")), 64),
                 (QList<int>{1, 2, 4, 8, 16, 32}));
        // Qwen2.5-7B: 28 heads, 4 KV heads, I 18944: 1, 2, 4 and 28 fails I.
        QCOMPARE(validTensorParallelSizes(preset(QStringLiteral("qwen2.5-7b")), 64), (QList<int>{1, 2, 4}));
    }

    void counterfactualMhaIsFourTimesGqa()
    {
        // Llama-3.1-8B config.json: 32 attention heads share 8 KV heads (GQA). As if MHA,
        // every query head keeps its own K and V: 32 / 8 = 4 times the cache at every point.
        const ModelArch &m = preset(QStringLiteral("llama-3.1-8b"));
        QCOMPARE(m.numHeads, 32);
        QCOMPARE(m.numKvHeads, 8);
        const Scenario s = defaultScenario();
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData d =
            growthChartData(s, plan, GrowthAxis::SequenceLength, 48, AxisScale::Linear, true);
        QCOMPARE(d.counterfactuals.size(), 1); // no window to remove
        const CounterfactualCurve &mha = d.counterfactuals.first();
        QCOMPARE(int(mha.kind), int(Counterfactual::AsIfMha));
        QCOMPARE(mha.kvHeads, 32);
        const GrowthCurve &gqa = d.curves.at(d.currentCurve);
        QCOMPARE(mha.x, gqa.x);
        for (qsizetype i = 0; i < gqa.x.size(); ++i)
            QCOMPARE(mha.kvBytes.at(i), 4 * gqa.kvBytes.at(i));
        // Without the option, none are computed.
        QVERIFY(growthChartData(s, plan, GrowthAxis::SequenceLength).counterfactuals.isEmpty());
    }

    void counterfactualWithoutSlidingWindow()
    {
        // Gemma-3-27B: 62 layers, 16 KV heads of 128 dims (of 32 query heads), 52 of them sliding
        // over 1,024 tokens. As if no window, all 62 keep every token in whole 16-token blocks.
        const ModelArch &m = preset(QStringLiteral("gemma-3-27b"));
        Scenario s = defaultScenario();
        s.model = m;
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData d =
            growthChartData(s, plan, GrowthAxis::SequenceLength, 48, AxisScale::Linear, true);
        QCOMPARE(d.counterfactuals.size(), 2); // as if MHA (16 of 32 heads), as if no window
        const CounterfactualCurve &full = d.counterfactuals.at(1);
        QCOMPARE(int(full.kind), int(Counterfactual::AsIfAllLayersFull));
        QCOMPARE(full.cacheLayers, 62);
        const std::int64_t perTokenAllLayers = 62LL * 2 * 16 * 128 * 2;
        for (qsizetype i = 0; i < full.x.size(); ++i) {
            const std::int64_t tokens = (full.x.at(i) + 15) / 16 * 16;
            QCOMPARE(full.kvBytes.at(i), s.batchSize * tokens * perTokenAllLayers);
        }
        // Past the window the real cache grows far slower.
        const GrowthCurve &windowed = d.curves.at(d.currentCurve);
        QVERIFY(windowed.kvBytes.last() * 3 < full.kvBytes.last());
        const CounterfactualCurve &mha = d.counterfactuals.at(0);
        QCOMPARE(mha.kvHeads, 32);
        for (qsizetype i = 0; i < mha.x.size(); ++i)
            QCOMPARE(mha.kvBytes.at(i), 2 * windowed.kvBytes.at(i));
    }

    void counterfactualMlaAndHybrid()
    {
        // DeepSeek-V3 as if MHA: 128 heads x (K 192 + V 128) dims x 2 B per layer instead of
        // one (512 + 64) x 2 B latent: 81,920 / 1,152 times the cache.
        Scenario s = defaultScenario();
        s.model = preset(QStringLiteral("deepseek-v3"));
        s.tensorParallelSize = 8;
        const GrowthChartData d =
            growthChartData(s, planMemory(s), GrowthAxis::BatchSize, 24, AxisScale::Linear, true);
        QCOMPARE(d.counterfactuals.size(), 1);
        const GrowthCurve &mla = d.curves.at(d.currentCurve);
        const CounterfactualCurve &mha = d.counterfactuals.first();
        QCOMPARE(mha.kvBytes.last() * 1152, mla.kvBytes.last() * 128 / 8 * (192 + 128) * 2);
        // Qwen3-Next as if every layer were attention: 48 layers of 2 KV heads x 256 dims, no state.
        s = defaultScenario();
        s.model = preset(QStringLiteral("qwen3-next-80b-a3b"));
        const GrowthChartData q =
            growthChartData(s, planMemory(s), GrowthAxis::SequenceLength, 24, AxisScale::Linear, true);
        const CounterfactualCurve &all = q.counterfactuals.last();
        QCOMPARE(int(all.kind), int(Counterfactual::AsIfAllLayersFull));
        QCOMPARE(all.cacheLayers, 48);
        QCOMPARE(all.kvBytes.last(), s.batchSize * ((all.x.last() + 15) / 16 * 16) * 48 * 2 * 2 * 256 * 2);
    }
};

QTEST_GUILESS_MAIN(TestGrowth)
#include "tst_growth.moc"
