// SPDX-License-Identifier: MIT
// AWQ and GPTQ fitted to a layer's activations (core/quantization/awq.h,
// gptq.h), the activations they fit on (activations.h) and the output error
// (outputerror.h): hand-computed small cases, the cases where each method must
// reduce to round-to-nearest, the ordering on outlier activations, a literal
// transcription of the GPTQ reference loop, and bad activation files.
#include "core/common/error.h"
#include "core/quantization/activationquant.h"
#include "core/quantization/activations.h"
#include "core/quantization/awq.h"
#include "core/quantization/denselinalg.h"
#include "core/quantization/gptq.h"
#include "core/quantization/outputerror.h"
#include "core/quantization/quantizers.h"
#include "core/quantization/synthetic.h"
#include "tests/tensorfiles.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

/// Synthetic Gaussian weights [rows, cols], std 0.02.
std::vector<float> gaussianWeights(std::int64_t rows, std::int64_t cols, std::uint64_t seed)
{
    SyntheticSpec spec;
    spec.rows = rows;
    spec.cols = cols;
    spec.seed = seed;
    const TensorData data = generateSynthetic(spec);
    const float *values = data.floats(0, data.elements(), nullptr);
    return {values, values + data.elements()};
}

/// Round-to-nearest of the scheme's rule on every group (AWQ with unit scales).
std::vector<float> roundToNearest(const std::vector<float> &w, std::int64_t rows, std::int64_t cols,
                                  const Scheme &scheme)
{
    std::vector<float> out(w.size());
    awqFoldBack({w.data(), rows, cols, cols}, std::vector<float>(size_t(cols), 1.0f), scheme,
                {out.data(), rows, cols, cols});
    return out;
}

Scheme scheme(const char *id)
{
    return parseScheme(QString::fromLatin1(id));
}

struct Layer
{
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::vector<float> weights;
    Activations activations;
    double energy = 0;

    dense::ConstMatrixRef w() const { return {weights.data(), rows, cols, cols}; }
    double outputSqnr(const std::vector<float> &dequantized) const
    {
        return outputSqnrDb(activations.heldOut(), w(), dequantized.data(), energy);
    }
};

Layer layer(std::int64_t rows, std::int64_t cols, bool outliers)
{
    Layer l;
    l.rows = rows;
    l.cols = cols;
    l.weights = gaussianWeights(rows, cols, 1);
    SyntheticActivations spec;
    spec.outliers = outliers;
    l.activations = loadActivations(spec, cols);
    l.energy = outputEnergy(l.activations.heldOut(), l.w());
    return l;
}

} // namespace

class TestQuantFitting : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void schemeIds()
    {
        for (const char *id : {"awq-int4-g128", "gptq-int4-g128", "awq-int3-row", "gptq-int2-g64"}) {
            const Scheme s = scheme(id);
            QCOMPARE(s.id(), QString::fromLatin1(id));
            QCOMPARE(parseScheme(s.id()), s);
            QVERIFY(s.isCalibrated());
        }
        QCOMPARE(scheme("awq-int4").method, IntMethod::Awq);
        QVERIFY(!scheme("awq-int4").symmetric);
        QVERIFY(scheme("gptq-int4").symmetric);
        QCOMPARE(intRule(scheme("gptq-int4")), IntRule::GptqSymmetric);
        QVERIFY(!scheme("int4-g128").isCalibrated());
        QCOMPARE(scheme("int4-sym-g128").id(), QStringLiteral("int4-sym-g128"));
        QVERIFY(scheme("awq-int4").description().contains(QLatin1String("AWQ")));
        QVERIFY(test::errorOf([] { scheme("awq-int4-sym"); }).contains(QLatin1String("drop '-sym'")));
        QVERIFY(schemeChoices().contains(QStringLiteral("gptq-int4[-gN|-row]")));
    }

    void awqScalesAndFoldBackByHand()
    {
        // mean |x| = [4, 1, 1, 0.25], alpha 0.5: s = [2, 1, 1, 0.5], sqrt(max min) = 1.
        const std::vector<float> s = awqScales({4.0, 1.0, 1.0, 0.25}, 0.5);
        QCOMPARE(s, (std::vector<float>{2.0f, 1.0f, 1.0f, 0.5f}));
        // Row [0.05, -0.1, 0.13, 0.3] scales to [0.1, -0.1, 0.13, 0.15]: INT4 asymmetric,
        // one group of 4: step 0.25 / 15 = 1/60, zero round(0.1 * 60) = 6; 0.13 * 60 = 7.8
        // rounds to 8, so 0.13 comes back as 8/60; the other three land on the grid,
        // and folding back divides by s: [0.05, -0.1, 0.1333, 0.3].
        const std::vector<float> w{0.05f, -0.1f, 0.13f, 0.3f};
        std::vector<float> out(4);
        QCOMPARE(awqFoldBack({w.data(), 1, 4, 4}, s, scheme("awq-int4-g4"), {out.data(), 1, 4, 4}), 0);
        const double expected[] = {0.05, -0.1, 8.0 / 60.0, 0.3};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::fabs(out[size_t(i)] - expected[i]) < 1e-6,
                     qPrintable(QString::number(out[size_t(i)])));
        // The same row with unit scales rounds 0.13 in a group of range [-0.1, 0.3]:
        // step 0.4 / 15, 0.13 / step = 4.875 -> 5 (+ zero), back to 5 * 0.4 / 15 = 0.1333...
        // and 0.05 / step = 1.875 -> 2: 0.0533; the scales moved the first weight onto the grid.
        QVERIFY(std::fabs(roundToNearest(w, 1, 4, scheme("awq-int4-g4"))[0] - 2 * 0.4 / 15) < 1e-6);
    }

    void gptqOneCompensationStepByHand()
    {
        // Tokens (1, 1) and (1, 0): H = 2 X^T X / 2 = [[2, 1], [1, 1]], dampened by
        // 0.01 * mean(2, 1) = 0.015. Weights [0.3, -0.7], INT4 symmetric over the row:
        // step 1.4 / 15. Column 0: 0.3 / step = 3.21 -> 3, q0 = 0.28, error 0.02; the
        // update moves column 1 by 0.02 * H01 / H11 = 0.02 / 1.015 to -0.680296, which
        // rounds to -7 steps: -0.653333 (round-to-nearest of -0.7 gives -8 steps).
        const std::vector<float> x{1, 1, 1, 0};
        const std::vector<float> w{0.3f, -0.7f};
        const FittedWeights f =
            gptqQuantize({w.data(), 1, 2, 2}, {x.data(), 2, 2, 2}, scheme("gptq-int4-row"));
        QVERIFY2(std::fabs(f.values[0] - 0.28) < 1e-6, qPrintable(QString::number(f.values[0])));
        QVERIFY2(std::fabs(f.values[1] - (-7 * 1.4 / 15)) < 1e-6, qPrintable(QString::number(f.values[1])));
    }

    void gptqMatchesTheReferenceLoop()
    {
        // fasterquant without lazy batches, in double: quantize column i, then
        // W[:, i:] -= (w - q) / U_ii * U[i, i:], U = cholesky(H^-1, upper); groups of 128
        // start on a block boundary, so the lazy batches change nothing but rounding.
        const std::int64_t rows = 3;
        const std::int64_t n = 256;
        const std::int64_t tokens = 512;
        const std::vector<float> weights = gaussianWeights(rows, n, 2);
        std::vector<float> x = gaussianWeights(tokens, n, 3);
        for (std::int64_t t = 0; t < tokens; ++t)
            x[size_t(t * n + 7)] *= 50.0f; // an outlier channel, so that H is far from diagonal in scale
        const Scheme s = scheme("gptq-int4-g128");
        const FittedWeights fitted = gptqQuantize({weights.data(), rows, n, n}, {x.data(), tokens, n, n}, s);

        std::vector<double> h(size_t(n * n), 0.0);
        for (std::int64_t t = 0; t < tokens; ++t)
            for (std::int64_t i = 0; i < n; ++i)
                for (std::int64_t j = 0; j < n; ++j)
                    h[size_t(i * n + j)] +=
                        2.0 * x[size_t(t * n + i)] * x[size_t(t * n + j)] / double(tokens);
        double mean = 0;
        for (std::int64_t i = 0; i < n; ++i)
            mean += h[size_t(i * n + i)] / double(n);
        for (std::int64_t i = 0; i < n; ++i)
            h[size_t(i * n + i)] += 0.01 * mean;
        // H^-1 by Gauss-Jordan, then its upper Cholesky factor.
        std::vector<double> inv(size_t(n * n), 0.0);
        for (std::int64_t i = 0; i < n; ++i)
            inv[size_t(i * n + i)] = 1.0;
        for (std::int64_t c = 0; c < n; ++c) {
            const double pivot = h[size_t(c * n + c)];
            for (std::int64_t k = 0; k < n; ++k) {
                h[size_t(c * n + k)] /= pivot;
                inv[size_t(c * n + k)] /= pivot;
            }
            for (std::int64_t r = 0; r < n; ++r) {
                const double f = h[size_t(r * n + c)];
                if (r == c || f == 0)
                    continue;
                for (std::int64_t k = 0; k < n; ++k) {
                    h[size_t(r * n + k)] -= f * h[size_t(c * n + k)];
                    inv[size_t(r * n + k)] -= f * inv[size_t(c * n + k)];
                }
            }
        }
        std::vector<double> u(size_t(n * n), 0.0); // inv = U^T U
        for (std::int64_t i = 0; i < n; ++i) {
            double d = inv[size_t(i * n + i)];
            for (std::int64_t k = 0; k < i; ++k)
                d -= u[size_t(k * n + i)] * u[size_t(k * n + i)];
            u[size_t(i * n + i)] = std::sqrt(d);
            for (std::int64_t j = i + 1; j < n; ++j) {
                double v = inv[size_t(i * n + j)];
                for (std::int64_t k = 0; k < i; ++k)
                    v -= u[size_t(k * n + i)] * u[size_t(k * n + j)];
                u[size_t(i * n + j)] = v / u[size_t(i * n + i)];
            }
        }
        std::int64_t same = 0;
        for (std::int64_t r = 0; r < rows; ++r) {
            std::vector<double> row(weights.begin() + r * n, weights.begin() + (r + 1) * n);
            IntGrid grid;
            for (std::int64_t i = 0; i < n; ++i) {
                if (i % 128 == 0) {
                    const auto [lo, hi] = std::minmax_element(row.begin() + i, row.begin() + i + 128);
                    grid = intGrid(IntRule::GptqSymmetric, 4, float(*lo), float(*hi));
                }
                bool clipped = false;
                const double q = dequantizeInt(float(row[size_t(i)]), grid, clipped);
                const double error = (row[size_t(i)] - q) / u[size_t(i * n + i)];
                for (std::int64_t k = i; k < n; ++k)
                    row[size_t(k)] -= error * u[size_t(i * n + k)];
                same += std::fabs(q - fitted.values[size_t(r * n + i)]) < 1e-7 ? 1 : 0;
            }
        }
        // float32 against double: a code may flip where a value sits on a rounding edge.
        QVERIFY2(same >= rows * n - 2, qPrintable(QStringLiteral("%1 of %2 equal").arg(same).arg(rows * n)));
    }

    void gptqWithUncorrelatedChannelsIsRoundToNearest()
    {
        // X = 3 I: H is diagonal, so no column's error moves another.
        const std::int64_t n = 256;
        std::vector<float> x(size_t(n * n), 0.0f);
        for (std::int64_t i = 0; i < n; ++i)
            x[size_t(i * n + i)] = 3.0f;
        const std::vector<float> w = gaussianWeights(16, n, 4);
        const Scheme s = scheme("gptq-int4-g128");
        const FittedWeights f = gptqQuantize({w.data(), 16, n, n}, {x.data(), n, n, n}, s);
        QCOMPARE(f.values, roundToNearest(w, 16, n, scheme("int4-sym-g128")));
    }

    void gptqZeroesDeadColumns()
    {
        // Channel 1 never fires: diag H = 0 there; the reference zeroes its weights.
        const std::vector<float> x{1, 0, 0.5f, 0, -1, 0, 2, 0};
        const std::vector<float> w{0.3f, 0.9f, -0.2f, -0.5f};
        const FittedWeights f =
            gptqQuantize({w.data(), 2, 2, 2}, {x.data(), 4, 2, 2}, scheme("gptq-int4-row"));
        QCOMPARE(f.values[1], 0.0f);
        QCOMPARE(f.values[3], 0.0f);
    }

    void awqWithEqualActivationMagnitudesIsRoundToNearest()
    {
        // |x| = 1 everywhere: every alpha gives s = 1, so the first (0) is kept, and
        // w' is round-to-nearest exactly.
        const std::int64_t n = 256;
        std::vector<float> x = gaussianWeights(64, n, 5);
        for (float &v : x)
            v = v < 0 ? -1.0f : 1.0f;
        const std::vector<float> w = gaussianWeights(32, n, 6);
        const FittedWeights f =
            awqQuantize({w.data(), 32, n, n}, {x.data(), 64, n, n}, scheme("awq-int4-g128"));
        QCOMPARE(f.awqAlpha, 0.0);
        QCOMPARE(f.values, roundToNearest(w, 32, n, scheme("int4-g128")));
    }

    void withoutOutliersAwqIsCloseToRoundToNearest()
    {
        const Layer l = layer(128, 512, false);
        const double rtn = l.outputSqnr(roundToNearest(l.weights, l.rows, l.cols, scheme("int4-g128")));
        const FittedWeights awq = awqQuantize(l.w(), l.activations.calibration(), scheme("awq-int4-g128"));
        QVERIFY2(std::fabs(l.outputSqnr(awq.values) - rtn) < 0.3,
                 qPrintable(QStringLiteral("AWQ %1 dB, RTN %2 dB").arg(l.outputSqnr(awq.values)).arg(rtn)));
    }

    void outlierActivationsOrderTheMethods()
    {
        const Layer l = layer(256, 1024, true);
        const double rtn = l.outputSqnr(roundToNearest(l.weights, l.rows, l.cols, scheme("int4-g128")));
        const double rtnSymmetric =
            l.outputSqnr(roundToNearest(l.weights, l.rows, l.cols, scheme("int4-sym-g128")));
        const FittedWeights awq = awqQuantize(l.w(), l.activations.calibration(), scheme("awq-int4-g128"));
        const FittedWeights gptq = gptqQuantize(l.w(), l.activations.calibration(), scheme("gptq-int4-g128"));
        const QString figures = QStringLiteral("RTN %1, RTN sym %2, AWQ %3 (alpha %4), GPTQ %5 dB")
                                    .arg(rtn)
                                    .arg(rtnSymmetric)
                                    .arg(l.outputSqnr(awq.values))
                                    .arg(awq.awqAlpha)
                                    .arg(l.outputSqnr(gptq.values));
        qInfo("%s", qPrintable(figures));
        QVERIFY2(l.outputSqnr(awq.values) > rtn + 4.0, qPrintable(figures));
        QVERIFY2(l.outputSqnr(gptq.values) > rtnSymmetric + 3.0, qPrintable(figures));
        QVERIFY2(awq.awqAlpha > 0.1, qPrintable(figures));
    }

    void denseShapesAreChecked()
    {
        // A product, Gram matrix, factorization or inverse whose shapes disagree fails before any
        // kernel reads outside a buffer.
        std::vector<float> a(6, 1.0f), b(6, 1.0f), c(9, 0.0f);
        const dense::ConstMatrixRef a23{a.data(), 2, 3, 3};
        const dense::ConstMatrixRef b32{b.data(), 3, 2, 2};
        dense::multiply({a23, false}, {b32, false}, {c.data(), 2, 2, 2}, 1.0f, 0.0f);
        QCOMPARE(c[0], 3.0f);
        QVERIFY_THROWS_EXCEPTION(Error,
                                 dense::multiply({a23, false}, {a23, false}, {c.data(), 2, 3, 3}, 1, 0));
        QVERIFY_THROWS_EXCEPTION(Error,
                                 dense::multiplyHere({a23, false}, {b32, false}, {c.data(), 3, 3, 3}, 1, 0));
        QVERIFY_THROWS_EXCEPTION(Error, dense::multiply({{a.data(), 2, 3, 2}, false}, {b32, false},
                                                        {c.data(), 2, 2, 2}, 1, 0)); // rows overlap
        QVERIFY_THROWS_EXCEPTION(Error, dense::gram(a23, {c.data(), 2, 2, 2}, 1.0f));
        QVERIFY_THROWS_EXCEPTION(Error, dense::choleskyLower({c.data(), 2, 3, 3}));
        QVERIFY_THROWS_EXCEPTION(Error, dense::invertLower({c.data(), 3, 3, 3}, {a.data(), 2, 3, 3}));
    }

    void outputErrorAgainstADirectSum()
    {
        // sum y^2 / sum (y - y')^2 over Y = X W^T, summed here in double one output at a
        // time; 300 output rows cross the bands outputSqnrDb forms W - W' in.
        const std::int64_t rows = 300;
        const std::int64_t cols = 24;
        const std::vector<float> w = gaussianWeights(rows, cols, 3);
        const std::vector<float> q = roundToNearest(w, rows, cols, scheme("int4-g8"));
        SyntheticActivations spec;
        spec.calibrationRows = 2;
        spec.heldOutRows = 5;
        const Activations a = loadActivations(spec, cols);
        double energy = 0;
        double error = 0;
        for (std::int64_t t = 0; t < a.heldOutRows; ++t)
            for (std::int64_t r = 0; r < rows; ++r) {
                double y = 0;
                double e = 0;
                for (std::int64_t c = 0; c < cols; ++c) {
                    const double x = a.heldOut().data[t * cols + c];
                    y += x * w[size_t(r * cols + c)];
                    e += x * (double(w[size_t(r * cols + c)]) - double(q[size_t(r * cols + c)]));
                }
                energy += y * y;
                error += e * e;
            }
        const dense::ConstMatrixRef weights{w.data(), rows, cols, cols};
        QVERIFY(std::fabs(outputEnergy(a.heldOut(), weights) / energy - 1.0) < 1e-5);
        QVERIFY(std::fabs(outputSqnrDb(a.heldOut(), weights, q.data(), energy) -
                          10.0 * std::log10(energy / error)) < 1e-4);
        QCOMPARE(outputSqnrDb(a.heldOut(), weights, w.data(), energy),
                 std::numeric_limits<double>::infinity());
    }

    void activationsQuantizedByHand()
    {
        // INT8 per token: the row's amax 127 gives scale 1; 63.5 and 62.5 round half to even (64, 62),
        // -0.4 to -0. The second row, amax 2.54: scale 0.02, 1.27 -> 63.5 -> 64 steps -> 1.28.
        const std::vector<float> x{127.0f, 63.5f, 62.5f, -0.4f, 2.54f, 1.27f, 0.0f, -2.54f};
        const std::vector<float> int8 =
            quantizeActivations({x.data(), 2, 4, 4}, ActivationQuantization::Int8PerToken);
        QCOMPARE(int8[0], 127.0f);
        QCOMPARE(int8[1], 64.0f);
        QCOMPARE(int8[2], 62.0f);
        QCOMPARE(int8[3], -0.0f);
        QVERIFY(std::fabs(int8[5] - 64.0f * (2.54f / 127.0f)) < 1e-6f);
        QCOMPARE(int8[6], 0.0f);
        // FP8 E4M3 per token: amax 448 gives scale 1; 300 lies between 288 and 320 (steps of 32
        // above 256) and rounds to 288; 0.3 to 0.3125 (steps of 1/64 in [0.25, 0.5)).
        const std::vector<float> y{448.0f, 300.0f, 0.3f, -17.0f, -18.0f};
        const std::vector<float> fp8 =
            quantizeActivations({y.data(), 1, 5, 5}, ActivationQuantization::Fp8PerToken);
        QCOMPARE(fp8[0], 448.0f);
        QCOMPARE(fp8[1], 288.0f);
        QCOMPARE(fp8[2], 0.3125f);
        QCOMPARE(fp8[3], -16.0f); // in [16, 32) the steps are 2: a tie, to the even mantissa (16)
        QCOMPARE(fp8[4], -18.0f);
        // Groups of 128: a group's own amax sets its scale, so a small group keeps its precision
        // where one scale for the token would flush it.
        std::vector<float> wide(256, 1e-3f);
        wide[0] = 448.0f;
        const std::vector<float> perToken =
            quantizeActivations({wide.data(), 1, 256, 256}, ActivationQuantization::Fp8PerToken);
        const std::vector<float> perGroup =
            quantizeActivations({wide.data(), 1, 256, 256}, ActivationQuantization::Fp8PerTokenGroup128);
        QCOMPARE(perToken[200], 0.001953125f); // 1e-3 rounds to E4M3's smallest subnormal, 2^-9
        QVERIFY(std::fabs(perGroup[200] - 1e-3f) < 1e-3f / 16);
        // MXFP8: each 32 values share a power-of-two scale, amax / 448 rounded up. The first block's
        // amax 100: 100 / 448 = 0.2232, rounded up to 2^-2; 100 / 0.25 = 400 lies midway between
        // E4M3's 384 and 416 (steps of 32 above 256) and rounds to the even mantissa, 384: 96. Its 1.0
        // is 4 exactly. The second block's amax 0.3: 0.3 / 448 = 6.70e-4, rounded up to 2^-10; 0.3 x
        // 1024 = 307.2 rounds to 320: 0.3125. One FP8 scale for the whole token (amax 100) would give
        // its 0.3 E4M3's steps of 1/64 x 100/448 instead.
        std::vector<float> blocks(64, 0.0f);
        blocks[0] = 100.0f;
        blocks[1] = 1.0f;
        blocks[32] = 0.3f;
        blocks[33] = -0.3f;
        const std::vector<float> mx =
            quantizeActivations({blocks.data(), 1, 64, 64}, ActivationQuantization::Mxfp8);
        QCOMPARE(mx[0], 96.0f);
        QCOMPARE(mx[1], 1.0f);
        QCOMPARE(mx[2], 0.0f);
        QCOMPARE(mx[32], 0.3125f);
        QCOMPARE(mx[33], -0.3125f);
        // A block of zeros has a zero scale and stays zero (the kernel's outputScale 0).
        const std::vector<float> zeros(32, 0.0f);
        QVERIFY(quantizeActivations({zeros.data(), 1, 32, 32}, ActivationQuantization::Mxfp8) == zeros);
        const std::vector<float> none =
            quantizeActivations({y.data(), 1, 5, 5}, ActivationQuantization::None);
        QVERIFY(none == y);
    }

    void outputErrorWithQuantizedActivationsAgainstADirectSum()
    {
        // W8A8: y' = X' W'^T. Summed here straight from Y and Y'; 300 output rows cross the bands.
        const std::int64_t rows = 300;
        const std::int64_t cols = 24;
        const std::vector<float> w = gaussianWeights(rows, cols, 5);
        const std::vector<float> q = roundToNearest(w, rows, cols, scheme("int8"));
        SyntheticActivations spec;
        spec.calibrationRows = 2;
        spec.heldOutRows = 6;
        const Activations a = loadActivations(spec, cols);
        const std::vector<float> xq = quantizeActivations(a.heldOut(), ActivationQuantization::Int8PerToken);
        double energy = 0;
        double error = 0;
        double weightsOnly = 0;
        for (std::int64_t t = 0; t < a.heldOutRows; ++t)
            for (std::int64_t r = 0; r < rows; ++r) {
                double y = 0;
                double yq = 0;
                double yw = 0;
                for (std::int64_t c = 0; c < cols; ++c) {
                    const double x = a.heldOut().data[t * cols + c];
                    y += x * w[size_t(r * cols + c)];
                    yq += double(xq[size_t(t * cols + c)]) * q[size_t(r * cols + c)];
                    yw += x * q[size_t(r * cols + c)];
                }
                energy += y * y;
                error += (y - yq) * (y - yq);
                weightsOnly += (y - yw) * (y - yw);
            }
        const dense::ConstMatrixRef weights{w.data(), rows, cols, cols};
        const double db = outputSqnrDb(a.heldOut(), xq.data(), weights, q.data(), energy);
        QVERIFY2(std::fabs(db - 10.0 * std::log10(energy / error)) < 1e-3,
                 qPrintable(QStringLiteral("%1 against %2").arg(db).arg(10.0 * std::log10(energy / error))));
        // The activations' rounding adds to the weights' (the outlier channels stretch each
        // token's INT8 scale): the W8A8 output is worse than the weight-only one.
        QVERIFY(error > weightsOnly);
        // Exact activations: the weight-only figure.
        const std::vector<float> x(a.heldOut().data, a.heldOut().data + a.heldOutRows * cols);
        QVERIFY(std::fabs(outputSqnrDb(a.heldOut(), x.data(), weights, q.data(), energy) -
                          outputSqnrDb(a.heldOut(), weights, q.data(), energy)) < 1e-4);
    }

    void cancellable()
    {
        // The GUI runs the fits off its thread and cancels them through the run's flag.
        const Layer l = layer(64, 256, true);
        std::atomic<bool> cancel{true};
        RunControl control;
        control.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(
            Cancelled, awqQuantize(l.w(), l.activations.calibration(), scheme("awq-int4-g128"), control));
        QVERIFY_THROWS_EXCEPTION(
            Cancelled, gptqQuantize(l.w(), l.activations.calibration(), scheme("gptq-int4-g128"), control));
        QVERIFY_THROWS_EXCEPTION(Cancelled, loadActivations(SyntheticActivations{}, 256, control));
    }

    void syntheticActivations()
    {
        const QList<ActivationOutlier> outliers = activationOutliers(4096, 0);
        QCOMPARE(outliers.size(), 21); // ceil(0.5 % of 4096)
        QCOMPARE(outliers.first().multiplier, SmallestOutlierMultiplier);
        QCOMPARE(outliers.last().multiplier, LargestOutlierMultiplier);
        QCOMPARE(activationOutliers(100, 0).size(), 1);
        const Activations a = loadActivations(SyntheticActivations{}, 64);
        QCOMPARE(a.calibrationRows, 2048);
        QCOMPARE(a.heldOutRows, 256);
        QCOMPARE(a.values.size(), size_t(2304 * 64));
        QCOMPARE(loadActivations(SyntheticActivations{}, 64).values, a.values);
    }

    void activationFileSplit()
    {
        QByteArray data;
        for (int i = 0; i < 9 * 2; ++i)
            data += test::floatBytes({float(i)});
        const QString path = test::writeFile(
            m_dir, QStringLiteral("x.npy"),
            test::npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (9, 2), }", data));
        const Activations a = loadActivations(parseActivationSource(path), 2);
        QCOMPARE(a.heldOutRows, 2); // ceil(9 / 8)
        QCOMPARE(a.calibrationRows, 7);
        QCOMPARE(a.heldOut().data[0], 14.0f);
    }

    void badActivations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const auto npy = [](const char *shape, std::initializer_list<float> values) {
            return test::npyBytes(QByteArray("{'descr': '<f4', 'fortran_order': False, 'shape': ") + shape +
                                      ", }",
                                  test::floatBytes(values));
        };
        QTest::newRow("missing file") << QStringLiteral("/nonexistent/a.npy") << QByteArray()
                                      << "--activations: /nonexistent/a.npy: no such file";
        QTest::newRow("not npy") << QStringLiteral("a.txt") << QByteArray()
                                 << "--activations: 'a.txt' is neither 'synthetic' nor a .npy file";
        QTest::newRow("wrong width")
            << QStringLiteral("FILE") << npy("(2, 3)", {1, 2, 3, 4, 5, 6})
            << "holds activations of shape [2, 3] [tokens, channels]; the weights have "
               "2 input channels";
        QTest::newRow("one row") << QStringLiteral("FILE") << npy("(1, 2)", {1, 2})
                                 << "holds 1 rows of activations (shape [1, 2]); it needs 2 to 65536";
        QTest::newRow("nan") << QStringLiteral("FILE") << npy("(2, 2)", {1, 2, NAN, 4})
                             << "holds nan at [1, 0]; activations must be finite";
        QTest::newRow("1-D") << QStringLiteral("FILE") << npy("(4,)", {1, 2, 3, 4}) << "--activations: ";
    }

    void badActivations()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        if (!bytes.isEmpty())
            text = test::writeFile(
                m_dir, QStringLiteral("%1.npy").arg(QString::fromLatin1(QTest::currentDataTag())), bytes);
        const QString error = test::errorOf([&] { loadActivations(parseActivationSource(text), 2); });
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY2(error.startsWith(QLatin1String("--activations: ")), qPrintable(error));
        if (!bytes.isEmpty())
            QVERIFY2(error.contains(text), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestQuantFitting)
#include "tst_quantfitting.moc"
