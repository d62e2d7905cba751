// SPDX-License-Identifier: MIT
// What the comparison's charts and the decode chart draw, and their CSV:
// the core's figures, one row per bar or sample, nothing rounded.
#include "core/common/csv.h"
#include "core/compare/comparechart.h"
#include "core/library/library.h"
#include "core/output/chartcsv.h"
#include "core/output/speedchart.h"
#include "core/plan/planner.h"

#include <cmath>

#include <QTest>

using namespace kvscope;

namespace {

Scenario llama8bOnH100()
{
    Scenario s;
    s.model = resolveModel(QStringLiteral("llama-3.1-8b"));
    s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
    s.batchSize = 16;
    s.seqLen = 8192;
    return s;
}

QList<QByteArrayList> rows(const QByteArray &csv)
{
    QList<QByteArrayList> out;
    for (const QByteArray &line : csv.split('\n'))
        if (!line.isEmpty())
            out << line.split(',');
    return out;
}

} // namespace

class TestCompareChart : public QObject
{
    Q_OBJECT

    Comparison m_seed;

private Q_SLOTS:
    void initTestCase()
    {
        AccuracyCache cache;
        m_seed = compare(seedQuestionColumns(llama8bOnH100()), cache);
    }

    void csvCells()
    {
        QCOMPARE(csv::row({"a", "b,c"}), QByteArray("a,b,c\n"));
        QCOMPARE(csv::field(QStringLiteral("BF16 + FP8, KV")), QByteArray("\"BF16 + FP8, KV\""));
        QCOMPARE(csv::field(QStringLiteral("say \"hi\"")), QByteArray("\"say \"\"hi\"\"\""));
        QCOMPARE(csv::integer(-443456), QByteArray("-443456"));
        QCOMPARE(csv::decimal(1215.4), QByteArray("1215.4"));
        QCOMPARE(csv::decimal(0.1 + 0.2), QByteArray("0.30000000000000004")); // shortest exact
        QCOMPARE(csv::decimal(1.5e-05), QByteArray("1.5e-05"));
    }

    void memoryBarsAreEachColumnsPlan()
    {
        const CompareMemoryChartData data = compareMemoryChartData(m_seed);
        QCOMPARE(data.bars.size(), 4);
        std::int64_t largest = 0;
        for (int c = 0; c < 4; ++c) {
            const MemoryPlan &plan = m_seed.columns.at(c).plan;
            QCOMPARE(data.labels.at(c), m_seed.columns.at(c).label);
            QCOMPARE(data.bars.at(c).segment(MemoryPart::Weights)->bytes, plan.weights.bytesPerGpu);
            QCOMPARE(data.bars.at(c).segment(MemoryPart::KvCache)->bytes, plan.kv.cacheBytes);
            largest = std::max({largest, data.bars.at(c).gpuMemoryBytes, data.bars.at(c).demandBytes});
        }
        QCOMPARE(data.axisMaxBytes, largest);
        // FP8 KV halves the batch's cache: 16 x 8,192 tokens x 131,072 B = 16 GiB in BF16, 8 GiB in FP8.
        QCOMPARE(data.bars.at(0).segment(MemoryPart::KvCache)->bytes, std::int64_t(16) << 30);
        QCOMPARE(data.bars.at(1).segment(MemoryPart::KvCache)->bytes, std::int64_t(8) << 30);

        const QList<QByteArrayList> csv = rows(compareMemoryCsv(data));
        QCOMPARE(csv.first(), QByteArrayList({"column", "label", "part", "bytes", "beyond_budget_bytes",
                                              "share_of_budget_bp"}));
        // Each column: its segments, then budget and gpu_memory (every column fits: no overflow).
        qsizetype expectedRows = 1;
        for (const MemoryBreakdown &bar : data.bars)
            expectedRows += bar.segments.size() + 2;
        QCOMPARE(csv.size(), expectedRows);
        QVERIFY(csv.contains(
            QByteArrayList({"1", "BF16 + FP8 KV", "kv_cache", "8589934592", "0",
                            QByteArray::number(data.bars.at(1).segment(MemoryPart::KvCache)->basisPoints)})));
        QVERIFY(
            csv.contains(QByteArrayList({"3", m_seed.columns.at(3).label.toUtf8(), "budget",
                                         QByteArray::number(data.bars.at(3).budgetBytes), "0", "10000"})));
    }

    void capacityAndSpeedBarsAreSharesOfTheLargest()
    {
        const CompareBarsChartData data = compareSpeedChartData(m_seed);
        QStringList keys;
        for (const CompareBarGroup &group : data.groups)
            keys << compareRowKey(group.row.id);
        QCOMPARE(keys,
                 QStringList({QStringLiteral("kv_capacity_tokens"), QStringLiteral("largest_batch_that_fits"),
                              QStringLiteral("decode_tokens_per_second")}));
        for (const CompareBarGroup &group : data.groups) {
            double largest = 0;
            for (const CompareCell &cell : group.row.cells)
                largest = std::max(largest, *cell.value);
            for (int c = 0; c < 4; ++c)
                QCOMPARE(group.length.at(c), *group.row.cells.at(c).value / largest * 100.0);
            // AWQ INT4 weights with an FP8 cache hold the most and decode the fastest.
            QCOMPARE(group.length.at(3), 100.0);
            QCOMPARE(group.row.best, QList<int>{3});
        }

        const QList<QByteArrayList> csv = rows(compareSpeedCsv(data));
        QCOMPARE(csv.first(), QByteArrayList({"row", "column", "label", "value", "share_of_largest_percent",
                                              "delta", "delta_percent", "best"}));
        QCOMPARE(csv.size(), 1 + 3 * 4);
        // The first column's capacity in full, its difference 0, not the best.
        const CompareCell &first = data.groups.first().row.cells.first();
        QCOMPARE(csv.at(1),
                 QByteArrayList({"kv_capacity_tokens", "0", "BF16 + BF16 KV",
                                 QByteArray::number(qint64(*first.value)),
                                 csv::decimal(data.groups.first().length.first()), "0", "0", "0"}));
        QCOMPARE(csv.at(4).last(), QByteArray("1"));
    }

    void accuracyBarsAreTheSqnrRows()
    {
        // The seed question: BF16 + BF16 KV · BF16 + FP8 KV · AWQ INT4 + 16-bit KV · AWQ INT4 + FP8 KV.
        const CompareBarsChartData data = compareAccuracyChartData(m_seed);
        QCOMPARE(data.labels.size(), 4);
        QStringList keys;
        for (const CompareBarGroup &group : data.groups)
            keys << compareRowKey(group.row.id);
        QCOMPARE(keys,
                 QStringList({QStringLiteral("weight_sqnr_db"), QStringLiteral("layer_output_sqnr_db"),
                              QStringLiteral("kv_sqnr_db"), QStringLiteral("attention_output_sqnr_db")}));
        // Which columns are lossless: BF16 weights (columns 0, 1), a 16-bit cache (columns 0, 2).
        const QList<bool> bf16Weights{true, true, false, false};
        const QList<bool> sixteenBitCache{true, false, true, false};
        const QList<QList<bool>> lossless = {bf16Weights, bf16Weights, sixteenBitCache, sixteenBitCache};
        double largest = 0;
        for (int g = 0; g < 4; ++g) {
            const CompareBarGroup &group = data.groups.at(g);
            for (int c = 0; c < 4; ++c) {
                const CompareCell &cell = group.row.cells.at(c);
                QCOMPARE(cell.lossless, lossless.at(g).at(c));
                // A bar is the table's SQNR in dB; a lossless column has none.
                QCOMPARE(group.length.at(c), cell.lossless ? 0.0 : *cell.value);
                QVERIFY(cell.lossless || *cell.value > 0);
                largest = std::max(largest, group.length.at(c));
            }
        }
        // The axis: the largest SQNR rounded up to a multiple of 10 dB.
        QVERIFY(largest > 0);
        QVERIFY(data.axisMax >= largest && data.axisMax < largest + 10);
        QCOMPARE(std::fmod(data.axisMax, 10.0), 0.0);

        const QList<QByteArrayList> csv = rows(compareAccuracyCsv(data));
        QCOMPARE(csv.first(), QByteArrayList({"row", "column", "label", "value", "lossless", "delta",
                                              "delta_percent", "best"}));
        QCOMPARE(csv.size(), 1 + 4 * 4);
        QCOMPARE(csv.at(1).mid(3, 2), QByteArrayList({"", "1"})); // BF16 weights: no figure, lossless
        QCOMPARE(csv.at(4).at(3), csv::decimal(*data.groups.first().row.cells.at(3).value));
    }

    void speedCsvHoldsEverySample()
    {
        const Scenario s = llama8bOnH100();
        const MemoryPlan plan = planMemory(s);
        const SpeedChartData data = speedChartData(s, plan);
        const QList<QByteArrayList> csv = rows(speedCsv(data));
        QCOMPARE(csv.first(), QByteArrayList({"kv_cache_dtype", "batch_size", "tokens_per_second",
                                              "tokens_per_second_ideal", "ridge_batch", "ridge_batch_ideal",
                                              "fits_up_to", "current", "tokens_per_second_with_drafter"}));
        qsizetype samples = 0;
        for (const SpeedCurve &curve : data.curves)
            samples += curve.batch.size();
        QCOMPARE(csv.size(), 1 + samples);
        // The current batch on the current curve is the plan's decode figure, in full.
        const QByteArrayList current{"bfloat16",
                                     "16",
                                     csv::decimal(plan.speed.decodeTokensPerSecond),
                                     csv::decimal(plan.speed.decodeTokensPerSecondIdeal),
                                     QByteArray::number(qint64(plan.speed.ridgeBatch)),
                                     QByteArray::number(qint64(plan.speed.ridgeBatchIdeal)),
                                     QByteArray::number(qint64(plan.largestBatchThatFits)),
                                     "1",
                                     ""}; // no drafter
        QVERIFY2(csv.contains(current), current.join(',').constData());
        // A GPU without a bandwidth figure: only the header.
        Scenario blind = s;
        blind.gpu.bandwidthGBs = 0;
        QCOMPARE(speedCsv(speedChartData(blind, planMemory(blind))).count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestCompareChart)
#include "tst_comparechart.moc"
