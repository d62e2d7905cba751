// SPDX-License-Identifier: MIT
// One Scenario -> MemoryPlan evaluation, the speed roofline and its chart, for docs/benchmarks.md.
// Run: build/tests/benchmarks/bench_plan -iterations 2000
#include "core/library/library.h"
#include "core/output/speedchart.h"
#include "core/plan/planner.h"
#include "core/plan/speed.h"
#include "core/scenario/scenario.h"
#include "core/scenario/speculativeconfig.h"

#include <QTest>

using namespace kvscope;

class BenchPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plan_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("serving");
        QTest::addColumn<bool>("drafter");
        QTest::newRow("llama-3.1-8b") << "llama-3.1-8b" << false << false;
        QTest::newRow("gemma-3-27b (hybrid, vision)") << "gemma-3-27b" << false << false;
        QTest::newRow("deepseek-v3 (MLA, MoE)") << "deepseek-v3" << false << false;
        // Under SGLang the load is sized through the caching allocator, tensor by tensor.
        QTest::newRow("deepseek-v3 under sglang") << "deepseek-v3@sglang" << false << false;
    }

    /// The same with a serving workload (a 4,096-token prompt of the 8,192): steady-state serving too.
    void withServing_data()
    {
        plan_data();
        QTest::newRow("llama-3.1-8b serving") << "llama-3.1-8b" << true << false;
        QTest::newRow("qwen3-30b-a3b serving (MoE)") << "qwen3-30b-a3b" << true << false;
        // With its EAGLE-3 drafter: the speed adds the break-even search, the chart a drafter line.
        QTest::newRow("llama-3.1-8b eagle3") << "llama-3.1-8b" << false << true;
    }

    void plan()
    {
        QFETCH(QString, model);
        QFETCH(bool, serving);
        QFETCH(bool, drafter);
        const Scenario s = scenario(model, serving, drafter);
        std::int64_t sink = 0;
        QBENCHMARK
        {
            sink += planMemory(s).headroomBytes;
        }
        QVERIFY(sink != 0);
    }

    // planSpeed alone (planMemory above includes it): inventory FLOPs, decode and
    // prefill rooflines, and the two ridge-point bisections.
    void speed_data() { withServing_data(); }
    void speed()
    {
        benchmarkOnPlan(
            [](const Scenario &s, const MemoryPlan &p) { return planSpeed(s, p).decode.seconds; });
    }

    // The decode-throughput chart: a plan per KV precision and 96 batch sizes per curve.
    void speedChart_data() { withServing_data(); }
    void speedChart()
    {
        benchmarkOnPlan([](const Scenario &s, const MemoryPlan &p) {
            return double(speedChartData(s, p).curves.size());
        });
    }

private:
    static Scenario scenario(const QString &model, bool serving, bool drafter)
    {
        Scenario s;
        if (drafter)
            s.speculative = parseSpeculativeConfig(
                QStringLiteral(R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", )"
                               R"("num_speculative_tokens": 3})"),
                QStringLiteral("--speculative-config"), resolveDraftModel);
        s.promptLen = serving ? s.seqLen / 2 : 0;
        const QStringList idAndEngine = model.split(QLatin1Char('@')); // "deepseek-v3@sglang"
        s.model = resolveModel(idAndEngine.first());
        if (idAndEngine.size() > 1)
            s.engine = Engine::Sglang;
        // DeepSeek-V3's FP8 weights (79 GiB a GPU at TP 8) outgrow an H100's budget: a plan that cannot
        // start has no speed to chart, so it runs on eight H200s.
        const bool deepseek = model.startsWith(QLatin1String("deepseek"));
        s.gpu = resolveGpu(deepseek ? QStringLiteral("h200") : QStringLiteral("h100-sxm"));
        s.tensorParallelSize = deepseek ? 8 : 1;
        return s;
    }

    /// Times `evaluate(scenario, plan)` for the row's model, on a plan computed once.
    template <typename Evaluate> static void benchmarkOnPlan(Evaluate evaluate)
    {
        QFETCH(QString, model);
        QFETCH(bool, serving);
        QFETCH(bool, drafter);
        const Scenario s = scenario(model, serving, drafter);
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.speed.serving.has_value(), serving);
        QCOMPARE(plan.speed.speculative.has_value(), drafter);
        double sink = 0;
        QBENCHMARK
        {
            sink += evaluate(s, plan);
        }
        QVERIFY(sink > 0);
    }
};

QTEST_GUILESS_MAIN(BenchPlan)
#include "bench_plan.moc"
