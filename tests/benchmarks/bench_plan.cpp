// SPDX-License-Identifier: MIT
// One Scenario -> MemoryPlan evaluation, the speed roofline and its chart, for docs/benchmarks.md.
// Run: build/tests/benchmarks/bench_plan -iterations 2000
#include "core/library/library.h"
#include "core/output/speedchart.h"
#include "core/plan/planner.h"
#include "core/plan/speed.h"
#include "core/scenario/scenario.h"

#include <QTest>

using namespace kvscope;

class BenchPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plan_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("llama-3.1-8b") << "llama-3.1-8b";
        QTest::newRow("gemma-3-27b (hybrid, vision)") << "gemma-3-27b";
        QTest::newRow("deepseek-v3 (MLA, MoE)") << "deepseek-v3";
    }

    void plan()
    {
        QFETCH(QString, model);
        const Scenario s = scenario(model);
        std::int64_t sink = 0;
        QBENCHMARK
        {
            sink += planMemory(s).headroomBytes;
        }
        QVERIFY(sink != 0);
    }

    // planSpeed alone (planMemory above includes it): inventory FLOPs, decode and
    // prefill rooflines, and the two ridge-point bisections.
    void speed_data() { plan_data(); }
    void speed()
    {
        benchmarkOnPlan(
            [](const Scenario &s, const MemoryPlan &p) { return planSpeed(s, p).decode.seconds; });
    }

    // The decode-throughput chart: a plan per KV precision and 96 batch sizes per curve.
    void speedChart_data() { plan_data(); }
    void speedChart()
    {
        benchmarkOnPlan([](const Scenario &s, const MemoryPlan &p) {
            return double(speedChartData(s, p).curves.size());
        });
    }

private:
    static Scenario scenario(const QString &model)
    {
        Scenario s;
        s.model = resolveModel(model);
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.tensorParallelSize = model.startsWith(QLatin1String("deepseek")) ? 8 : 1;
        return s;
    }

    /// Times `evaluate(scenario, plan)` for the row's model, on a plan computed once.
    template <typename Evaluate> static void benchmarkOnPlan(Evaluate evaluate)
    {
        QFETCH(QString, model);
        const Scenario s = scenario(model);
        const MemoryPlan plan = planMemory(s);
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
