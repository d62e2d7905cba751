// SPDX-License-Identifier: MIT
// The attention error of a quantized KV cache (core/quantization/attentionerror.h):
// a case computed by hand, a reference implementation written here (one query,
// one context at a time, straight from the definitions), the cases that must
// come out exact, and the queries' outlier channels.
#include "core/common/error.h"
#include "core/quantization/attentionerror.h"
#include "core/quantization/synthetic.h"
#include "tests/testsupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <QTest>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

dense::ConstMatrixRef matrix(const std::vector<float> &values, std::int64_t cols)
{
    return {values.data(), std::int64_t(values.size()) / cols, cols, cols};
}

std::vector<float> drawn(std::int64_t rows, std::int64_t cols, std::uint64_t seed, double channelScale = 0)
{
    SyntheticSpec spec;
    spec.kind = SyntheticKind::Gaussian;
    spec.rows = rows;
    spec.cols = cols;
    spec.seed = seed;
    spec.standardDeviation = 1.0;
    spec.channelScale = channelScale;
    const TensorData data = generateSynthetic(spec);
    const float *v = data.floats(0, data.elements(), nullptr);
    return {v, v + data.elements()};
}

/// Every value rounded to a grid of `step`: a stand-in quantizer with a known error.
std::vector<float> rounded(const std::vector<float> &values, float step)
{
    std::vector<float> out(values.size());
    for (size_t i = 0; i < values.size(); ++i)
        out[i] = std::round(values[i] / step) * step;
    return out;
}

/// The definitions, one query and one context at a time.
AttentionErrorAt reference(const std::vector<float> &q, const std::vector<float> &k,
                           const std::vector<float> &v, const std::vector<float> &kq,
                           const std::vector<float> &vq, std::int64_t width, std::int64_t valueWidth,
                           std::int64_t context, double scale)
{
    const std::int64_t queries = std::int64_t(q.size()) / width;
    double output = 0, outputError = 0, moved = 0, logitSum = 0, logitSquares = 0, logitErrors = 0;
    for (std::int64_t i = 0; i < queries; ++i) {
        std::vector<double> l(static_cast<size_t>(context));
        std::vector<double> lq(static_cast<size_t>(context));
        for (std::int64_t t = 0; t < context; ++t) {
            for (std::int64_t c = 0; c < width; ++c) {
                l[size_t(t)] += double(q[size_t(i * width + c)]) * k[size_t(t * width + c)];
                lq[size_t(t)] += double(q[size_t(i * width + c)]) * kq[size_t(t * width + c)];
            }
            l[size_t(t)] *= scale;
            lq[size_t(t)] *= scale;
            logitSum += l[size_t(t)];
            logitSquares += l[size_t(t)] * l[size_t(t)];
            logitErrors += (l[size_t(t)] - lq[size_t(t)]) * (l[size_t(t)] - lq[size_t(t)]);
        }
        double z = 0, zq = 0;
        for (std::int64_t t = 0; t < context; ++t) {
            z += std::exp(l[size_t(t)]);
            zq += std::exp(lq[size_t(t)]);
        }
        for (std::int64_t c = 0; c < valueWidth; ++c) {
            double o = 0, oq = 0;
            for (std::int64_t t = 0; t < context; ++t) {
                o += std::exp(l[size_t(t)]) / z * v[size_t(t * valueWidth + c)];
                oq += std::exp(lq[size_t(t)]) / zq * vq[size_t(t * valueWidth + c)];
            }
            output += o * o;
            outputError += (o - oq) * (o - oq);
        }
        for (std::int64_t t = 0; t < context; ++t)
            moved += 0.5 * std::fabs(std::exp(l[size_t(t)]) / z - std::exp(lq[size_t(t)]) / zq);
    }
    const double n = double(queries * context);
    AttentionErrorAt at;
    at.contextTokens = context;
    at.outputSqnrDb = 10.0 * std::log10(output / outputError);
    at.massMoved = moved / double(queries);
    at.logitErrorRms = std::sqrt(logitErrors / n);
    at.logitStd = std::sqrt(logitSquares / n - (logitSum / n) * (logitSum / n));
    return at;
}

} // namespace

class TestAttentionError : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void byHand()
    {
        // One query q = 1 against two keys 0 and ln 3 (scale 1): logits 0 and ln 3, weights 1/4 and
        // 3/4; values 1 and 3: o = 1/4 + 9/4 = 2.5. The quantized second key is 0: weights 1/2 and
        // 1/2, o' = 2. Output SQNR 10 log10(2.5² / 0.5²) = 13.98 dB; half of |1/4 - 1/2| + |3/4 - 1/2|
        // = 1/4 of the attention moves; logit error sqrt((0 + ln² 3) / 2).
        const std::vector<float> q{1.0f};
        const std::vector<float> k{0.0f, float(std::log(3.0))};
        const std::vector<float> kq{0.0f, 0.0f};
        const std::vector<float> v{1.0f, 3.0f};
        const QList<AttentionErrorAt> e = attentionErrors(
            matrix(q, 1), {matrix(k, 1), matrix(v, 1), matrix(kq, 1), matrix(v, 1)}, {2}, 1.0);
        QCOMPARE(e.size(), 1);
        QCOMPARE(e.first().contextTokens, 2);
        QVERIFY(std::fabs(e.first().outputSqnrDb - 10.0 * std::log10(6.25 / 0.25)) < 1e-6);
        QVERIFY(std::fabs(e.first().massMoved - 0.25) < 1e-7);
        QVERIFY(std::fabs(e.first().logitErrorRms - std::log(3.0) / std::sqrt(2.0)) < 1e-6);
        // Logits 0 and ln 3: mean ln 3 / 2, standard deviation ln 3 / 2.
        QVERIFY(std::fabs(e.first().logitStd - std::log(3.0) / 2) < 1e-6);
        // The first token alone: one weight of 1 either way, o = o' = 1 exactly.
        const QList<AttentionErrorAt> first = attentionErrors(
            matrix(q, 1), {matrix(k, 1), matrix(v, 1), matrix(kq, 1), matrix(v, 1)}, {1, 2}, 1.0);
        QCOMPARE(first.first().outputSqnrDb, std::numeric_limits<double>::infinity());
        QCOMPARE(first.first().massMoved, 0.0);
        QCOMPARE(first.last().massMoved, e.first().massMoved);
    }

    void weightsTokenByTokenByHand()
    {
        // The same case token by token: logits 0 and ln 3 -> weights 1/4, 3/4; the quantized
        // second key 0 -> logits 0, 0 and weights 1/2, 1/2.
        const std::vector<float> q{1.0f};
        const std::vector<float> k{0.0f, float(std::log(3.0))};
        const std::vector<float> kq{0.0f, 0.0f};
        const std::vector<float> v{1.0f, 3.0f};
        const AttentionWeights w =
            attentionWeights(q.data(), {matrix(k, 1), matrix(v, 1), matrix(kq, 1), matrix(v, 1)}, 2, 1.0);
        QCOMPARE(w.logits.size(), size_t(2));
        QVERIFY(std::fabs(w.logits[1] - std::log(3.0)) < 1e-6);
        QCOMPARE(w.quantizedLogits[1], 0.0);
        QVERIFY(std::fabs(w.weights[0] - 0.25) < 1e-7 && std::fabs(w.weights[1] - 0.75) < 1e-7);
        QVERIFY(std::fabs(w.quantizedWeights[0] - 0.5) < 1e-7 &&
                std::fabs(w.quantizedWeights[1] - 0.5) < 1e-7);
        // A longer cache, the first tokens only: its weights sum to one over those tokens.
        const std::vector<float> keys = drawn(50, 8, 21, 4.0);
        const std::vector<float> values = drawn(50, 4, 22);
        const std::vector<float> query = drawn(1, 8, 23, 4.0);
        const AttentionWeights some = attentionWeights(
            query.data(),
            {matrix(keys, 8), matrix(values, 4), matrix(rounded(keys, 0.5f), 8), matrix(values, 4)}, 20, 0.3);
        double sum = 0, quantizedSum = 0;
        for (size_t t = 0; t < 20; ++t) {
            sum += some.weights[t];
            quantizedSum += some.quantizedWeights[t];
        }
        QVERIFY(std::fabs(sum - 1) < 1e-12 && std::fabs(quantizedSum - 1) < 1e-12);
        const AttentionCache exact{matrix(keys, 8), matrix(values, 4), matrix(keys, 8), matrix(values, 4)};
        KVSCOPE_VERIFY_ERROR(attentionWeights(query.data(), exact, 51, 0.3), QStringLiteral("attention: "),
                             QStringLiteral("50 cached tokens"));
    }

    void queryModelsAreSpelledOnce()
    {
        QCOMPARE(queryModelName(QueryModel::KeyOutliers), QStringLiteral("key_outliers"));
        QCOMPARE(parseQueryModel(QStringLiteral("Key-Outliers"), QStringLiteral("--q")),
                 QueryModel::KeyOutliers);
        QCOMPARE(parseQueryModel(queryModelName(QueryModel::Diffuse), QStringLiteral("--q")),
                 QueryModel::Diffuse);
        KVSCOPE_VERIFY_ERROR(parseQueryModel(QStringLiteral("sharp"), QStringLiteral("--attention-queries")),
                             QStringLiteral("--attention-queries: unknown queries 'sharp'"),
                             QStringLiteral("diffuse, key_outliers"));
    }

    void matchesTheDefinitionsAtEveryContext()
    {
        const std::int64_t width = 16;
        const std::int64_t valueWidth = 8;
        const std::vector<float> q = drawn(5, width, 11, 4.0);
        const std::vector<float> k = drawn(300, width, 12, 4.0);
        const std::vector<float> v = drawn(300, valueWidth, 13);
        const std::vector<float> kq = rounded(k, 0.25f);
        const std::vector<float> vq = rounded(v, 0.125f);
        const double scale = 1.0 / std::sqrt(double(width));
        const QList<std::int64_t> contexts{7, 64, 300};
        const QList<AttentionErrorAt> e = attentionErrors(
            matrix(q, width),
            {matrix(k, width), matrix(v, valueWidth), matrix(kq, width), matrix(vq, valueWidth)}, contexts,
            scale);
        QCOMPARE(e.size(), 3);
        for (qsizetype i = 0; i < contexts.size(); ++i) {
            const AttentionErrorAt r = reference(q, k, v, kq, vq, width, valueWidth, contexts.at(i), scale);
            QCOMPARE(e.at(i).contextTokens, contexts.at(i));
            QVERIFY2(std::fabs(e.at(i).outputSqnrDb - r.outputSqnrDb) < 1e-9,
                     qPrintable(QStringLiteral("%1 vs %2").arg(e.at(i).outputSqnrDb).arg(r.outputSqnrDb)));
            QVERIFY(std::fabs(e.at(i).massMoved - r.massMoved) < 1e-12);
            QVERIFY(std::fabs(e.at(i).logitErrorRms - r.logitErrorRms) < 1e-12);
            QVERIFY(std::fabs(e.at(i).logitStd - r.logitStd) < 1e-9);
        }
    }

    void anExactCacheHasNoError()
    {
        const std::vector<float> q = drawn(3, 8, 1);
        const std::vector<float> k = drawn(50, 8, 2);
        const std::vector<float> v = drawn(50, 8, 3);
        const QList<AttentionErrorAt> e = attentionErrors(
            matrix(q, 8), {matrix(k, 8), matrix(v, 8), matrix(k, 8), matrix(v, 8)}, {50}, 0.35);
        QCOMPARE(e.first().outputSqnrDb, std::numeric_limits<double>::infinity());
        QCOMPARE(e.first().massMoved, 0.0);
        QCOMPARE(e.first().logitErrorRms, 0.0);
    }

    void onlyValuesQuantizedMovesNoAttention()
    {
        // Exact keys leave the weights alone: the output error is the values' alone.
        const std::vector<float> q = drawn(4, 8, 1);
        const std::vector<float> k = drawn(64, 8, 2);
        const std::vector<float> v = drawn(64, 8, 3);
        const QList<AttentionErrorAt> e = attentionErrors(
            matrix(q, 8), {matrix(k, 8), matrix(v, 8), matrix(k, 8), matrix(rounded(v, 0.5f), 8)}, {64},
            0.35);
        QCOMPARE(e.first().massMoved, 0.0);
        QVERIFY(std::isfinite(e.first().outputSqnrDb));
    }

    void queriesCarryTheKeysOutlierChannels()
    {
        // The keys' four outlier channels at their multipliers (channelScale x 1/4 .. 1), in the
        // queries too; every other channel N(0, 1).
        SyntheticSpec keys;
        keys.kind = SyntheticKind::Gaussian;
        keys.rows = 16;
        keys.cols = 128;
        keys.seed = 2;
        keys.standardDeviation = 1.0;
        keys.channelScale = 10;
        const std::vector<float> queries = syntheticQueries(keys, QueryModel::KeyOutliers, 2000, 4);
        const QList<OutlierChannel> outliers = outlierChannels(keys);
        QCOMPARE(outliers.size(), 4);
        const auto channelStd = [&](std::int64_t column) {
            double squares = 0;
            for (std::int64_t row = 0; row < 2000; ++row)
                squares += double(queries[size_t(row * 128 + column)]) * queries[size_t(row * 128 + column)];
            return std::sqrt(squares / 2000);
        };
        for (const OutlierChannel &o : outliers)
            QVERIFY2(std::fabs(channelStd(o.column) / o.multiplier - 1.0) < 0.1,
                     qPrintable(QStringLiteral("column %1: %2").arg(o.column).arg(channelStd(o.column))));
        std::int64_t ordinary = 0;
        while (std::any_of(outliers.cbegin(), outliers.cend(),
                           [&](const OutlierChannel &o) { return o.column == ordinary; }))
            ++ordinary;
        QVERIFY(std::fabs(channelStd(ordinary) - 1.0) < 0.1);
        // Diffuse queries: the same draws without the multipliers.
        const std::vector<float> diffuse = syntheticQueries(keys, QueryModel::Diffuse, 2000, 4);
        QCOMPARE(diffuse[size_t(outliers.first().column)] * float(outliers.first().multiplier),
                 queries[size_t(outliers.first().column)]);
        QCOMPARE(diffuse[size_t(ordinary)], queries[size_t(ordinary)]);
    }

    void badShapesAreRefused()
    {
        const std::vector<float> q(8, 1.0f);
        const std::vector<float> k(40, 1.0f);
        QVERIFY_THROWS_EXCEPTION(
            Error, attentionErrors(matrix(q, 4), {matrix(k, 8), matrix(k, 8), matrix(k, 8), matrix(k, 8)},
                                   {5}, 1.0));
        QVERIFY_THROWS_EXCEPTION(
            Error, attentionErrors(matrix(q, 8), {matrix(k, 8), matrix(k, 8), matrix(k, 8), matrix(k, 8)},
                                   {6}, 1.0));
        QVERIFY_THROWS_EXCEPTION(
            Error, attentionErrors(matrix(q, 8), {matrix(k, 8), matrix(k, 8), matrix(k, 8), matrix(k, 8)},
                                   {4, 2}, 1.0));
    }
};

QTEST_GUILESS_MAIN(TestAttentionError)
#include "tst_attentionerror.moc"
