// SPDX-License-Identifier: MIT
// The simulator's passes: metrics and histograms against a hand-worked case
// and against an independent scalar reference on tensors big enough to run in
// several chunks on several threads; the scan, grids, cancellation, progress.
#include "common/error.h"
#include "quantization/grid.h"
#include "quantization/simulator.h"
#include "quantization/synthetic.h"
#include "tensorfiles.h"

#include <atomic>
#include <cmath>

#include <QTest>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

TensorData tensor(std::vector<float> values, std::int64_t rows, std::int64_t cols)
{
    return TensorData::fromFloats(std::move(values), rows, cols, QStringLiteral("test"), QStringLiteral("t"));
}

std::vector<float> valuesOf(const TensorData &t)
{
    std::vector<float> v(size_t(t.elements()));
    const float *p = t.floats(0, t.elements(), v.data());
    return std::vector<float>(p, p + t.elements());
}

/// AWQ RTN written out plainly, per group along each row (issue 4's formula).
std::vector<float> referenceAwq(const std::vector<float> &w, std::int64_t rows, std::int64_t cols, int group)
{
    std::vector<float> out(w.size());
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c0 = 0; c0 < cols; c0 += group) {
            const std::int64_t c1 = std::min(cols, c0 + group);
            float lo = w[size_t(r * cols + c0)], hi = lo;
            for (std::int64_t c = c0; c < c1; ++c) {
                lo = std::min(lo, w[size_t(r * cols + c)]);
                hi = std::max(hi, w[size_t(r * cols + c)]);
            }
            const float s = std::max(hi - lo, 1e-5f) / 15.0f;
            const float z = std::clamp(-std::nearbyint(lo / s), 0.0f, 15.0f);
            for (std::int64_t c = c0; c < c1; ++c) {
                const float q = std::clamp(std::nearbyint(w[size_t(r * cols + c)] / s) + z, 0.0f, 15.0f);
                out[size_t(r * cols + c)] = (q - z) * s;
            }
        }
    }
    return out;
}

/// FP8 E4M3 by brute force: the nearest of the 253 finite values of the
/// OCP table (quantization.md §1), ties to the code with an even last bit,
/// saturating at 448.
float referenceE4m3(float v)
{
    double best = 0;
    int bestCode = 0;
    double bestDistance = INFINITY;
    for (int code = 0; code < 0x7F; ++code) { // positive codes; 0x7F is NaN
        const int e = code >> 3, m = code & 7;
        const double value = e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7);
        const double distance = std::fabs(std::fabs(double(v)) - value);
        if (distance < bestDistance || (distance == bestDistance && (code & 1) == 0)) {
            best = value;
            bestCode = code;
            bestDistance = distance;
        }
    }
    Q_UNUSED(bestCode);
    return float(std::copysign(best, double(v)));
}

struct Reference
{
    double mse, sqnr, maxAbs, meanAbs, cosine;
    std::int64_t flushed;
};

Reference referenceMetrics(const std::vector<float> &w, const std::vector<float> &y)
{
    double ee = 0, ww = 0, yy = 0, wy = 0, abs = 0, max = 0;
    std::int64_t flushed = 0;
    for (size_t i = 0; i < w.size(); ++i) {
        const double e = double(w[i]) - double(y[i]);
        ee += e * e;
        ww += double(w[i]) * w[i];
        yy += double(y[i]) * y[i];
        wy += double(w[i]) * y[i];
        abs += std::fabs(e);
        max = std::max(max, std::fabs(e));
        flushed += (w[i] != 0 && y[i] == 0) ? 1 : 0;
    }
    const double n = double(w.size());
    return {ee / n, 10 * std::log10(ww / ee), max, abs / n, wy / std::sqrt(ww * yy), flushed};
}

void compareMetrics(const ErrorMetrics &m, const Reference &r)
{
    QVERIFY2(std::fabs(m.mse - r.mse) <= 1e-12 * r.mse, qPrintable(QString::number(m.mse - r.mse)));
    QVERIFY(std::fabs(m.sqnrDb - r.sqnr) < 1e-9);
    QCOMPARE(m.maxAbsError, r.maxAbs);
    QVERIFY(std::fabs(m.meanAbsError - r.meanAbs) <= 1e-12 * r.meanAbs);
    QVERIFY(std::fabs(m.cosineSimilarity - r.cosine) < 1e-12);
    QCOMPARE(m.flushed, r.flushed);
}

/// Bins of w - y over the histogram's range, counted in double.
void compareErrorHistogram(const Histogram &h, const std::vector<float> &w, const std::vector<float> &y)
{
    QList<std::int64_t> counts(h.bins(), 0);
    std::int64_t below = 0, above = 0;
    for (size_t i = 0; i < w.size(); ++i) {
        const double e = double(w[i] - y[i]);
        if (e < h.lo)
            ++below;
        else if (e > h.hi)
            ++above;
        else
            ++counts[std::min(h.bins() - 1, int((e - h.lo) / h.binWidth()))];
    }
    QCOMPARE(h.total(), std::int64_t(w.size()));
    QCOMPARE(h.below, below);
    QCOMPARE(h.above, above);
    // Bin edges are evaluated in float32 by the kernel; a value within
    // rounding of an edge may land next door. Allow 1 in 1000 to move.
    std::int64_t moved = 0;
    for (int i = 0; i < h.bins(); ++i)
        moved += std::abs(h.counts[i] - counts[i]);
    QVERIFY2(moved <= std::int64_t(w.size()) / 1000, qPrintable(QStringLiteral("%1 moved").arg(moved)));
}

} // namespace

class TestQuantSimulator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handWorkedMetrics()
    {
        // int2 AWQ on [0, 0.5, 1.5, 3]: s = 1, z = 0 -> w' = [0, 0, 2, 3],
        // e = [0, 0.5, -0.5, 0]. Σe² = 0.5, MSE 0.125; Σw² = 11.5 ->
        // SQNR = 10·log10(23) = 13.617 dB; max |e| 0.5, mean 0.25;
        // cos = Σww'/(‖w‖‖w'‖) = 12 / sqrt(11.5 · 13); 0.5 -> 0 is flushed.
        const TensorData t = tensor({0.0f, 0.5f, 1.5f, 3.0f}, 1, 4);
        SimulationOptions options;
        options.bins = 4;
        const SchemeResult r = simulateScheme(t, scanTensor(t), parseScheme(QStringLiteral("int2")), options);
        QCOMPARE(r.metrics.elements, 4);
        QCOMPARE(r.metrics.mse, 0.125);
        QCOMPARE(r.metrics.sqnrDb, 10 * std::log10(23.0));
        QCOMPARE(r.metrics.maxAbsError, 0.5);
        QCOMPARE(r.metrics.meanAbsError, 0.25);
        QVERIFY(qFuzzyCompare(r.metrics.cosineSimilarity, 12 / std::sqrt(11.5 * 13)));
        QCOMPARE(r.metrics.flushed, 1);
        QCOMPARE(r.metrics.flushedShare(), 0.25);
        QCOMPARE(r.metrics.clipped, 0);

        // Error histogram over ± half a step (s/2 = 0.5) padded by 1/256, 4 bins:
        // -0.5 -> bin 0, 0 and 0 -> bin 2, 0.5 -> bin 3.
        QCOMPARE(r.error.hi, 0.5 * (1 + 1.0 / 256));
        QCOMPARE(r.error.counts, (QList<std::int64_t>{1, 0, 2, 1}));
        // Relative error over [-1, 1]: 0 (w = 0), 1 (flushed, the closed top
        // edge), -1/3, 0 -> [0, 1, 2, 1].
        QCOMPARE(r.relativeError.counts, (QList<std::int64_t>{0, 1, 2, 1}));

        // Values over [min, max] = [0, 3] in 3 bins: 0, 0.5 | 1.5 | 3.
        const Histogram values = valueHistogram(t, scanTensor(t), 3);
        QCOMPARE(values.counts, (QList<std::int64_t>{2, 1, 1}));
    }

    void awqMatchesReference_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("group");
        QTest::newRow("300x300 g128, partial last group, several chunks") << 300 << 300 << 128;
        QTest::newRow("64x1000 g32") << 64 << 1000 << 32;
        QTest::newRow("3x5 g2") << 3 << 5 << 2;
    }

    void awqMatchesReference()
    {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, group);
        SyntheticSpec spec;
        spec.kind = SyntheticKind::Laplace;
        spec.rows = rows;
        spec.cols = cols;
        spec.seed = 7;
        const TensorData t = generateSynthetic(spec);
        const std::vector<float> w = valuesOf(t);
        const std::vector<float> y = referenceAwq(w, rows, cols, group);
        SchemeDefaults defaults;
        defaults.groupSize = group;
        const SchemeResult r =
            simulateScheme(t, scanTensor(t), parseScheme(QStringLiteral("int4"), defaults));
        compareMetrics(r.metrics, referenceMetrics(w, y));
        compareErrorHistogram(r.error, w, y);
        if (group >= 32) // a group of 32 random values straddles 0, so nothing clips
            QCOMPARE(r.error.below + r.error.above, 0);
    }

    void fp8MatchesBruteForce()
    {
        SyntheticSpec spec;
        spec.rows = 257;
        spec.cols = 300;
        spec.seed = 3;
        const TensorData t = generateSynthetic(spec);
        const TensorStats stats = scanTensor(t);
        const SchemeResult r = simulateScheme(t, stats, parseScheme(QStringLiteral("fp8-e4m3")));
        const float s = stats.amax() / 448.0f;
        QCOMPARE(r.tensorScale, double(s));
        const std::vector<float> w = valuesOf(t);
        std::vector<float> y(w.size());
        for (size_t i = 0; i < w.size(); ++i)
            y[i] = referenceE4m3(w[i] / s) * s;
        compareMetrics(r.metrics, referenceMetrics(w, y));
        compareErrorHistogram(r.error, w, y);
    }

    void sqnrNearReferenceSimulation_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("std");
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<bool>("unitScale");
        QTest::addColumn<double>("sqnr");
        // quantization.md §8 [SIM] table: 64 x 4096 weights N(0, 0.02²), Laplacian in parentheses.
        const int gaussian = int(SyntheticKind::Gaussian), laplace = int(SyntheticKind::Laplace);
        QTest::newRow("fp16") << gaussian << 0.02 << "fp16" << false << 73.7;
        QTest::newRow("bf16") << gaussian << 0.02 << "bf16" << false << 55.6;
        QTest::newRow("int8 per channel") << gaussian << 0.02 << "int8" << false << 41.2;
        QTest::newRow("int8 per channel, Laplace") << laplace << 0.02 << "int8" << false << 36.9;
        QTest::newRow("fp8 e4m3") << gaussian << 0.02 << "fp8-e4m3" << false << 31.6;
        QTest::newRow("fp8 e4m3, Laplace") << laplace << 0.02 << "fp8-e4m3" << false << 31.5;
        QTest::newRow("fp8 e5m2") << gaussian << 0.02 << "fp8-e5m2" << false << 25.6;
        QTest::newRow("int4 g32") << gaussian << 0.02 << "int4-g32" << false << 21.9;
        QTest::newRow("int4 g64") << gaussian << 0.02 << "int4-g64" << false << 20.8;
        QTest::newRow("nf4") << gaussian << 0.02 << "nf4" << false << 20.7;
        QTest::newRow("int4 g128") << gaussian << 0.02 << "int4" << false << 20.0;
        QTest::newRow("int4 g128, Laplace") << laplace << 0.02 << "int4" << false << 17.7;
        QTest::newRow("mxfp4") << gaussian << 0.02 << "mxfp4" << false << 18.9;
        QTest::newRow("int4 per channel") << gaussian << 0.02 << "int4-row" << false << 17.0;
        // "FP8 with the default scale 1.0 on N(0, 0.01²) ... drops to 25.0 dB."
        QTest::newRow("fp8 scale 1.0 underflows") << gaussian << 0.01 << "fp8-e4m3" << true << 25.0;
    }

    void sqnrNearReferenceSimulation()
    {
        // An independent Monte-Carlo (pure Python, its own seed) gives these
        // figures to 0.1 dB; ours must agree within 0.3 dB.
        QFETCH(int, kind);
        QFETCH(double, std);
        QFETCH(QString, scheme);
        QFETCH(bool, unitScale);
        QFETCH(double, sqnr);
        SyntheticSpec spec;
        spec.kind = SyntheticKind(kind);
        spec.rows = 64;
        spec.cols = 4096;
        spec.seed = 11;
        spec.standardDeviation = std;
        const TensorData t = generateSynthetic(spec);
        SchemeDefaults defaults;
        defaults.unitScale = unitScale;
        const SchemeResult r = simulateScheme(t, scanTensor(t), parseScheme(scheme, defaults));
        QVERIFY2(std::fabs(r.metrics.sqnrDb - sqnr) < 0.3, qPrintable(QString::number(r.metrics.sqnrDb)));
    }

    void deterministicAcrossRuns()
    {
        SyntheticSpec spec;
        spec.kind = SyntheticKind::Outliers;
        spec.rows = 512;
        spec.cols = 512;
        const TensorData t = generateSynthetic(spec);
        const TensorStats stats = scanTensor(t);
        const SchemeResult a = simulateScheme(t, stats, parseScheme(QStringLiteral("int8")));
        const SchemeResult b = simulateScheme(t, stats, parseScheme(QStringLiteral("int8")));
        QCOMPARE(a.metrics.mse, b.metrics.mse); // chunk sums are merged in chunk order
        QCOMPARE(a.error.counts, b.error.counts);
    }

    void scanRejectsNonFinite()
    {
        const TensorData t = tensor({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, NAN, INFINITY, 0.0f}, 2, 4);
        const QString error = test::errorOf([&] { scanTensor(t); });
        QVERIFY2(error.contains(QLatin1String("2 non-finite values (the first, nan, at [1, 1])")),
                 qPrintable(error));
    }

    void scanStatistics()
    {
        const TensorStats s = scanTensor(tensor({-3.0f, 1.0f, 2.0f, 0.5f}, 2, 2));
        QCOMPARE(s.min, -3.0f);
        QCOMPARE(s.max, 2.0f);
        QCOMPARE(s.amax(), 3.0f);
        QCOMPARE(s.sumSquares, 9 + 1 + 4 + 0.25);
    }

    void cancellation()
    {
        SyntheticSpec spec;
        spec.rows = 512;
        spec.cols = 512;
        const TensorData t = generateSynthetic(spec);
        const TensorStats stats = scanTensor(t);
        std::atomic<bool> cancel{true};
        RunControl control;
        control.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(Cancelled,
                                 simulateScheme(t, stats, parseScheme(QStringLiteral("nf4")), {}, control));
        QVERIFY_THROWS_EXCEPTION(Cancelled, scanTensor(t, control));
        QVERIFY_THROWS_EXCEPTION(Cancelled, generateSynthetic(spec, control));
    }

    void progressRisesToOne()
    {
        SyntheticSpec spec;
        spec.rows = 1024;
        spec.cols = 1024;
        const TensorData t = generateSynthetic(spec);
        QList<double> seen;
        RunControl control;
        control.progress = [&seen](double f) { seen << f; };
        simulateScheme(t, scanTensor(t), parseScheme(QStringLiteral("int4")), {}, control.slice(0.5, 1.0));
        QVERIFY(seen.size() >= 2);
        QVERIFY(std::is_sorted(seen.cbegin(), seen.cend()));
        QVERIFY(seen.first() >= 0.5);
        QCOMPARE(seen.last(), 1.0);
    }

    void grids()
    {
        const TensorData t = tensor({-0.4f, 0.35f, 0.2f, 0.0f, 10.0f, 1.0f, 2.0f, 3.0f}, 2, 4);
        const TensorStats stats = scanTensor(t);
        // e4m3fn has 256 codes: 2 NaNs and a -0 leave 253 values (quantization.md §1).
        const QuantizationGrid fp8 =
            quantizationGrid(t, stats, parseScheme(QStringLiteral("fp8")), 0, 0, -1e9, 1e9);
        QCOMPARE(fp8.values.size(), 253);
        QCOMPARE(fp8.values.last(), 448.0 * double(10.0f / 448.0f));
        // The seed document's group: (q - 8) × 0.05 for q = 0..15.
        const QuantizationGrid awq =
            quantizationGrid(t, stats, parseScheme(QStringLiteral("int4")), 0, 1, -1e9, 1e9);
        QCOMPARE(awq.values.size(), 16);
        QCOMPARE(awq.values.first(), double(-8 * (0.75f / 15.0f)));
        QCOMPARE(awq.unit, QStringLiteral("row 0, group 0"));
        // fp16 has far more than 512 values between -10 and 10.
        QVERIFY(quantizationGrid(t, stats, parseScheme(QStringLiteral("fp16")), 0, 0, -10, 10).tooDense);
        // MXFP4 block of row 1: amax 10 -> X = 2; ±{0,.5,1,1.5,2,3,4,6}·2 -> 15 values.
        const QuantizationGrid mx =
            quantizationGrid(t, stats, parseScheme(QStringLiteral("mxfp4")), 1, 0, -1e9, 1e9);
        QCOMPARE(mx.values.size(), 15);
        QCOMPARE(mx.values.last(), 12.0);
    }
};

QTEST_GUILESS_MAIN(TestQuantSimulator)
#include "tst_quantsimulator.moc"
