// SPDX-License-Identifier: MIT
// The simulator's passes: metrics and histograms against a hand-worked case
// and against an independent scalar reference on tensors big enough to run in
// several chunks on several threads; the scan, grids, cancellation, progress.
#include "core/common/error.h"
#include "core/quantization/grid.h"
#include "core/quantization/quantizers.h"
#include "core/quantization/simulator.h"
#include "core/quantization/synthetic.h"
#include "tests/tensorfiles.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>

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

/// AWQ RTN written out plainly, per group along each row (AutoAWQ's formula,
/// docs/quantization-formats.md §4).
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
/// OCP table (docs/quantization-formats.md §1), ties to the code with an even last bit,
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

/// Round to nearest, ties to even, onto a binary floating-point format with
/// `mantissaBits` stored mantissa bits and smallest normal exponent
/// `minExponent` (below it the step stays that of the smallest normal:
/// subnormals), saturating at ±maxFinite. Written from the IEEE 754 / OCP OFP8
/// / OCP MX definitions in double arithmetic, independently of floatformat.h.
double roundToFloatFormat(double x, int mantissaBits, int minExponent, double maxFinite)
{
    if (x == 0)
        return x;
    const int exponent = std::max(std::ilogb(x), minExponent);
    const double step = std::ldexp(1.0, exponent - mantissaBits);
    return std::clamp(std::nearbyint(x / step) * step, -maxFinite, maxFinite);
}

/// Weights drawn with the standard library: N(0, std²), or Laplace with the
/// same deviation (scale std/√2) by inverting its CDF.
std::vector<float> independentSample(bool laplace, double std, std::int64_t rows, std::int64_t cols)
{
    std::mt19937_64 generator(20240611);
    std::normal_distribution<double> normal(0.0, std);
    std::uniform_real_distribution<double> uniform(-0.5, 0.5);
    std::vector<float> w(size_t(rows * cols));
    for (float &v : w) {
        if (laplace) {
            const double u = uniform(generator);
            v = float(-std / std::sqrt(2.0) * std::copysign(std::log1p(-2 * std::fabs(u)), u));
        } else {
            v = float(normal(generator));
        }
    }
    return w;
}

/// SQNR in dB of one scheme applied as its definition states
/// (docs/quantization-formats.md): per-tensor FP8 scale amax/max (or 1.0),
/// per-row INT8, AWQ RTN groups, NF4 blocks of 64, MXFP4 blocks of 32.
double independentSqnr(const std::vector<float> &w, std::int64_t rows, std::int64_t cols,
                       const QString &scheme, bool unitScale)
{
    std::vector<float> y(w.size());
    double amax = 0;
    for (float v : w)
        amax = std::max(amax, std::fabs(double(v)));
    const auto perElement = [&](auto f) {
        for (size_t i = 0; i < w.size(); ++i)
            y[i] = float(f(double(w[i])));
    };
    const auto fp8 = [&](int mantissaBits, int minExponent, double maxFinite) {
        const double scale = unitScale ? 1.0 : amax / maxFinite;
        perElement([&](double v) {
            return roundToFloatFormat(v / scale, mantissaBits, minExponent, maxFinite) * scale;
        });
    };
    if (scheme == QLatin1String("fp16")) {
        perElement([](double v) { return roundToFloatFormat(v, 10, -14, 65504); });
    } else if (scheme == QLatin1String("bf16")) {
        perElement([](double v) { return roundToFloatFormat(v, 7, -126, 0x1.fep127); });
    } else if (scheme == QLatin1String("fp8-e4m3")) {
        fp8(3, -6, 448);
    } else if (scheme == QLatin1String("fp8-e5m2")) {
        fp8(2, -14, 57344);
    } else if (scheme == QLatin1String("int8")) {
        for (std::int64_t r = 0; r < rows; ++r) {
            double rowMax = 0;
            for (std::int64_t c = 0; c < cols; ++c)
                rowMax = std::max(rowMax, std::fabs(double(w[size_t(r * cols + c)])));
            const double s = std::max(rowMax, 1e-5) / 127;
            for (std::int64_t c = 0; c < cols; ++c) {
                const size_t i = size_t(r * cols + c);
                y[i] = float(std::clamp(std::nearbyint(w[i] / s), -127.0, 127.0) * s);
            }
        }
    } else if (scheme.startsWith(QLatin1String("int4"))) {
        const int group = scheme == QLatin1String("int4-row") ? int(cols)
                          : scheme == QLatin1String("int4")   ? 128
                                                              : scheme.mid(6).toInt();
        y = referenceAwq(w, rows, cols, group);
    } else if (scheme == QLatin1String("nf4")) {
        for (size_t b = 0; b < w.size(); b += 64) {
            double absmax = 0;
            for (size_t i = b; i < b + 64; ++i)
                absmax = std::max(absmax, std::fabs(double(w[i])));
            for (size_t i = b; i < b + 64; ++i) {
                const double x = absmax > 0 ? w[i] / absmax : 0;
                const float *nearest =
                    std::min_element(std::begin(Nf4Codes), std::end(Nf4Codes),
                                     [x](float a, float c) { return std::fabs(a - x) < std::fabs(c - x); });
                y[i] = float(*nearest * absmax);
            }
        }
    } else if (scheme == QLatin1String("mxfp4")) {
        for (size_t b = 0; b < w.size(); b += 32) {
            double blockMax = 0;
            for (size_t i = b; i < b + 32; ++i)
                blockMax = std::max(blockMax, std::fabs(double(w[i])));
            // OCP MX: X = 2^(floor(log2 amax) - emax of E2M1 (2)); elements E2M1, ±6 saturates.
            const double x = blockMax > 0 ? std::ldexp(1.0, std::ilogb(blockMax) - 2) : 1.0;
            for (size_t i = b; i < b + 32; ++i)
                y[i] = float(roundToFloatFormat(w[i] / x, 1, 0, 6) * x);
        }
    } else if (scheme == QLatin1String("nvfp4")) {
        // vLLM tests/kernels/quantization/nvfp4_utils.py: a value is E2M1 x its block's E4M3
        // scale x the tensor's scale, the tensor scale amax / (448 x 6) (the inverse of
        // get_nvfp4_global_scale) or vLLM's default k/v scale 1.0.
        const double tensorScale = unitScale ? 1.0 : amax / (448.0 * 6.0);
        for (size_t b = 0; b < w.size(); b += 16) {
            double blockMax = 0;
            for (size_t i = b; i < b + 16; ++i)
                blockMax = std::max(blockMax, std::fabs(double(w[i])));
            const double scale = roundToFloatFormat(blockMax / 6 / tensorScale, 3, -6, 448) * tensorScale;
            for (size_t i = b; i < b + 16; ++i)
                y[i] = scale > 0 ? float(roundToFloatFormat(w[i] / scale, 1, 0, 6) * scale) : 0.0f;
        }
    } else if (scheme == QLatin1String("fp4-mx-block16")) {
        // SGLang's KV blocks of 16 (kvfp4_tensor.py, FP4MXBlock16KVQuantizeUtil): X = 2^ceil(log2(amax / 6)),
        // each |w / X| the E2M1 magnitude of its interval between the bounds, a bound taking the larger.
        constexpr double bounds[] = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0};
        constexpr double magnitudes[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
        for (size_t b = 0; b < w.size(); b += 16) {
            double blockMax = 0;
            for (size_t i = b; i < b + 16; ++i)
                blockMax = std::max(blockMax, std::fabs(double(w[i])));
            const double x = std::exp2(std::ceil(std::log2(std::max(blockMax / 6, 1e-10))));
            for (size_t i = b; i < b + 16; ++i) {
                const double scaled = w[i] / x;
                const auto index = std::upper_bound(std::begin(bounds), std::end(bounds), std::fabs(scaled)) -
                                   std::begin(bounds);
                y[i] = float(std::copysign(magnitudes[index], scaled) * x);
            }
        }
    } else {
        qFatal("no independent reference for %s", qPrintable(scheme));
    }
    return referenceMetrics(w, y).sqnr;
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

    void cosineOfAConstantHugeTensor()
    {
        // A constant 3e38 tensor under int4: AutoAWQ's s = max(max - min, 1e-5) / 15
        // makes every group clip to w' = 15 s = 1e-5. w and w' are both constant and
        // positive, so cos = n·3e38·1e-5 / (sqrt(n·9e76)·sqrt(n·1e-10)) = 1, while
        // Σw² - Σw·e (9e76 against a difference of 3e33) cancels to 0 in double.
        const TensorData t = tensor(std::vector<float>(256, 3e38f), 2, 128);
        const SchemeResult r =
            simulateScheme(t, scanTensor(t), parseScheme(QStringLiteral("int4")), SimulationOptions{});
        QCOMPARE(r.metrics.clipped, 256);
        QVERIFY2(std::fabs(r.metrics.cosineSimilarity - 1.0) < 1e-12,
                 qPrintable(QString::number(r.metrics.cosineSimilarity, 'g', 17)));
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

    void sqnrMatchesAnIndependentReference_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("std");
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<bool>("unitScale");
        // 64 x 4096 weights N(0, 0.02²) or Laplace with the same deviation, as in
        // docs/quantization-formats.md ("Reference SQNR"); the last row is vLLM's
        // uncalibrated FP8 KV cache (scale 1.0) on N(0, 0.01²), which underflows.
        const int gaussian = int(SyntheticKind::Gaussian), laplace = int(SyntheticKind::Laplace);
        QTest::newRow("fp16") << gaussian << 0.02 << "fp16" << false;
        QTest::newRow("bf16") << gaussian << 0.02 << "bf16" << false;
        QTest::newRow("int8 per channel") << gaussian << 0.02 << "int8" << false;
        QTest::newRow("int8 per channel, Laplace") << laplace << 0.02 << "int8" << false;
        QTest::newRow("fp8 e4m3") << gaussian << 0.02 << "fp8-e4m3" << false;
        QTest::newRow("fp8 e4m3, Laplace") << laplace << 0.02 << "fp8-e4m3" << false;
        QTest::newRow("fp8 e5m2") << gaussian << 0.02 << "fp8-e5m2" << false;
        QTest::newRow("int4 g32") << gaussian << 0.02 << "int4-g32" << false;
        QTest::newRow("int4 g64") << gaussian << 0.02 << "int4-g64" << false;
        QTest::newRow("nf4") << gaussian << 0.02 << "nf4" << false;
        QTest::newRow("int4 g128") << gaussian << 0.02 << "int4" << false;
        QTest::newRow("int4 g128, Laplace") << laplace << 0.02 << "int4" << false;
        QTest::newRow("mxfp4") << gaussian << 0.02 << "mxfp4" << false;
        QTest::newRow("nvfp4") << gaussian << 0.02 << "nvfp4" << false;
        QTest::newRow("nvfp4 scale 1.0") << gaussian << 0.02 << "nvfp4" << true;
        QTest::newRow("fp4 mx block16") << gaussian << 0.02 << "fp4-mx-block16" << false;
        QTest::newRow("int4 per channel") << gaussian << 0.02 << "int4-row" << false;
        QTest::newRow("fp8 scale 1.0 underflows") << gaussian << 0.01 << "fp8-e4m3" << true;
    }

    void sqnrMatchesAnIndependentReference()
    {
        // The simulator on its own synthetic tensor against the formats written
        // out from their definitions (independentSqnr) on an independent sample
        // (std::mt19937_64, more rows): the two estimates of the same SQNR agree within 0.3 dB.
        QFETCH(int, kind);
        QFETCH(double, std);
        QFETCH(QString, scheme);
        QFETCH(bool, unitScale);
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
        // 512 rows: per-row scales make the SQNR of 64 rows vary by a few tenths of a dB.
        const double reference =
            independentSqnr(independentSample(spec.kind == SyntheticKind::Laplace, std, 512, 4096), 512, 4096,
                            scheme, unitScale);
        QVERIFY2(
            std::fabs(r.metrics.sqnrDb - reference) < 0.3,
            qPrintable(
                QStringLiteral("simulator %1 dB, reference %2 dB").arg(r.metrics.sqnrDb).arg(reference)));
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
        // e4m3fn has 256 codes: 2 NaNs and a -0 leave 253 values (quantization-formats.md §1).
        const QuantizationGrid fp8 =
            quantizationGrid(t, stats, parseScheme(QStringLiteral("fp8")), 0, 0, -1e9, 1e9);
        QCOMPARE(fp8.values.size(), 253);
        QCOMPARE(fp8.values.last(), 448.0 * double(10.0f / 448.0f));
        // The group of the worked example in quantization-formats.md §4: (q - 8) × 0.05 for q = 0..15.
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
