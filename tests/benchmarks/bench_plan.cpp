// SPDX-License-Identifier: MIT
// One Scenario -> MemoryPlan evaluation, for docs/benchmarks.md.
// Run: build/tests/benchmarks/bench_plan -iterations 2000
#include "library/library.h"
#include "plan/planner.h"

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
        Scenario s;
        s.model = resolveModel(model);
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.tensorParallelSize = model.startsWith(QLatin1String("deepseek")) ? 8 : 1;
        std::int64_t sink = 0;
        QBENCHMARK
        {
            sink += planMemory(s).headroomBytes;
        }
        QVERIFY(sink != 0);
    }
};

QTEST_GUILESS_MAIN(BenchPlan)
#include "bench_plan.moc"
