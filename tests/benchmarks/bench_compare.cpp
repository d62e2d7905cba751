// SPDX-License-Identifier: MIT
// kvscope compare's work, for docs/benchmarks.md: the seed question's four
// columns for Llama-3.1-8B on an H100, with accuracy.
// Run: build/tests/benchmarks/bench_compare -iterations 5
//   cold:  a new AccuracyCache each time (the first comparison a view shows:
//          tensors generated, every distinct format simulated once)
//   warm:  one cache kept (a knob that leaves the formats alone: batch, GPU, length)
//   newFormat: the tensors kept, one format not seen before (a new --quantization)
//   plansOnly: the four plans and the rows without accuracy
#include "core/compare/comparison.h"
#include "core/library/library.h"
#include "core/plan/planner.h"

#include <QTest>

using namespace kvscope;

class BenchCompare : public QObject
{
    Q_OBJECT

    static Scenario base()
    {
        Scenario s;
        s.model = resolveModel(QStringLiteral("llama-3.1-8b"));
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        return s;
    }

private Q_SLOTS:
    void cold()
    {
        const QList<ComparisonColumn> columns = seedQuestionColumns(base());
        double sink = 0;
        QBENCHMARK
        {
            AccuracyCache cache;
            sink += compare(columns, cache).rows.size();
        }
        QVERIFY(sink > 0);
    }

    void warm()
    {
        QList<ComparisonColumn> columns = seedQuestionColumns(base());
        AccuracyCache cache;
        (void)compare(columns, cache);
        std::int64_t batch = 16;
        double sink = 0;
        QBENCHMARK
        {
            batch = batch == 16 ? 32 : 16;
            for (ComparisonColumn &c : columns)
                c.scenario.batchSize = batch;
            sink += compare(columns, cache).rows.size();
        }
        QVERIFY(sink > 0);
    }

    void newFormat()
    {
        QList<ComparisonColumn> columns = seedQuestionColumns(base());
        AccuracyCache primed;
        (void)compare(columns, primed);
        int group = 128;
        double sink = 0;
        QBENCHMARK
        {
            // A group size not simulated before on the kept tensors.
            group = group == 128 ? 32 : group + 32;
            for (ComparisonColumn &c : columns)
                if (c.scenario.quantization && c.scenario.quantization->isAwqOrGptq())
                    c.scenario.quantization->groupSize = group;
            sink += compare(columns, primed).rows.size();
        }
        QVERIFY(sink > 0);
    }

    void plansOnly()
    {
        const QList<ComparisonColumn> columns = seedQuestionColumns(base());
        double sink = 0;
        QBENCHMARK
        {
            QList<ComparedColumn> compared;
            for (const ComparisonColumn &c : columns) {
                ComparedColumn column;
                column.scenario = c.scenario;
                column.plan = planMemory(c.scenario);
                compared << column;
            }
            sink += comparisonRows(compared).size();
        }
        QVERIFY(sink > 0);
    }
};

QTEST_GUILESS_MAIN(BenchCompare)
#include "bench_compare.moc"
