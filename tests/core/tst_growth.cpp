// SPDX-License-Identifier: MIT
// What the explorer charts draw: the memory bar segments, the growth curves,
// the KV precision walk and the GPU counts offered.
#include "common/units.h"
#include "plan/breakdown.h"
#include "plan/growth.h"
#include "plan/planner.h"
#include "plan/tensorparallel.h"
#include "testsupport.h"

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
        QCOMPARE(b.segments.size(), 5);
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

    void breakdownWhenItOverflows()
    {
        Scenario s = defaultScenario();
        s.batchSize = 64;
        s.seqLen = 32768; // 64 x 32768 x 128 KiB = 256 GiB of KV
        const MemoryPlan plan = planMemory(s);
        const MemoryBreakdown b = memoryBreakdown(plan);
        const BreakdownSegment *kv = b.segment(MemoryPart::KvCache);
        QCOMPARE(kv->fullBytes, 256LL * GiB);
        QCOMPARE(kv->bytes, plan.kv.availableBytes); // only what the budget leaves
        QCOMPARE(b.overflowBytes, -plan.headroomBytes);
        QCOMPARE(b.segment(MemoryPart::Overflow)->bytes, 256LL * GiB - plan.kv.availableBytes);
        QVERIFY(!b.segment(MemoryPart::Headroom));
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

    void gpuCountsOffered()
    {
        // Llama-3.1-8B: 32 heads, 8 KV heads, I 14336 = 2^11 x 7.
        QCOMPARE(validTensorParallelSizes(preset(QStringLiteral("llama-3.1-8b")), 64),
                 (QList<int>{1, 2, 4, 8, 16, 32}));
        // Qwen2.5-7B: 28 heads, 4 KV heads, I 18944: 1, 2, 4 and 28 fails I.
        QCOMPARE(validTensorParallelSizes(preset(QStringLiteral("qwen2.5-7b")), 64), (QList<int>{1, 2, 4}));
    }
};

QTEST_GUILESS_MAIN(TestGrowth)
#include "tst_growth.moc"
