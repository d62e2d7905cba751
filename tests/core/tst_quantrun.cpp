// SPDX-License-Identifier: MIT
// The quantization pipeline's one entry point, runQuantization(): the same
// figures as loading, scanning and simulating by hand on the same tensor; a
// cached tensor reused for an equal source only; the optional histograms,
// progress over the whole run, cancellation and load errors.
#include "core/common/error.h"
#include "core/quantization/quantrun.h"
#include "core/quantization/scheme.h"
#include "core/quantization/tensorsource.h"
#include "tests/tensorfiles.h"

#include <atomic>

#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

SyntheticSpec smallSpec(std::uint64_t seed = 7)
{
    SyntheticSpec spec;
    spec.kind = SyntheticKind::Laplace;
    spec.rows = 48;
    spec.cols = 200;
    spec.seed = seed;
    return spec;
}

QList<Scheme> someSchemes()
{
    return parseSchemeList({QStringLiteral("int4-g64,fp8-e4m3,nf4,mxfp4")});
}

QuantRequest requestFor(const TensorSource &source)
{
    QuantRequest request;
    request.source = source;
    request.schemes = someSchemes();
    request.options.bins = 64;
    return request;
}

void compareHistograms(const Histogram &actual, const Histogram &expected)
{
    QCOMPARE(actual.lo, expected.lo);
    QCOMPARE(actual.hi, expected.hi);
    QCOMPARE(actual.counts, expected.counts);
    QCOMPARE(actual.below, expected.below);
    QCOMPARE(actual.above, expected.above);
    QCOMPARE(actual.nonFinite, expected.nonFinite);
}

void compareResults(const SchemeResult &actual, const SchemeResult &expected)
{
    QCOMPARE(actual.scheme, expected.scheme);
    QCOMPARE(actual.rows, expected.rows);
    QCOMPARE(actual.cols, expected.cols);
    QCOMPARE(actual.bitsPerWeight, expected.bitsPerWeight);
    QCOMPARE(actual.tensorScale, expected.tensorScale);
    const ErrorMetrics &a = actual.metrics;
    const ErrorMetrics &e = expected.metrics;
    QCOMPARE(a.elements, e.elements);
    QCOMPARE(a.mse, e.mse);
    QCOMPARE(a.sqnrDb, e.sqnrDb);
    QCOMPARE(a.maxAbsError, e.maxAbsError);
    QCOMPARE(a.meanAbsError, e.meanAbsError);
    QCOMPARE(a.cosineSimilarity, e.cosineSimilarity);
    QCOMPARE(a.clipped, e.clipped);
    QCOMPARE(a.flushed, e.flushed);
    QCOMPARE(a.nonFinite, e.nonFinite);
    compareHistograms(actual.error, expected.error);
    compareHistograms(actual.relativeError, expected.relativeError);
}

/// What runQuantization must give for `request` on `tensor`: each pass called by hand.
void compareWithHandRun(const QuantOutcome &outcome, const TensorData &tensor, const QuantRequest &request)
{
    const TensorStats stats = scanTensor(tensor);
    QCOMPARE(outcome.tensor.data.rows(), tensor.rows());
    QCOMPARE(outcome.tensor.data.cols(), tensor.cols());
    QCOMPARE(outcome.tensor.stats.min, stats.min);
    QCOMPARE(outcome.tensor.stats.max, stats.max);
    QCOMPARE(outcome.tensor.stats.sumSquares, stats.sumSquares);
    QCOMPARE(outcome.values.has_value(), request.valueHistogram);
    if (request.valueHistogram)
        compareHistograms(*outcome.values, valueHistogram(tensor, stats, request.options.bins));
    QCOMPARE(outcome.results.size(), request.schemes.size());
    for (int i = 0; i < request.schemes.size(); ++i)
        compareResults(outcome.results.at(i),
                       simulateScheme(tensor, stats, request.schemes.at(i), request.options));
}

} // namespace

class TestQuantRun : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    /// A [2, 3] float32 .npy: 0.5, -1.25, 2, 0, 3.5, -0.75.
    QString npyFile()
    {
        return test::writeFile(m_dir, QStringLiteral("w.npy"),
                               test::npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                              test::floatBytes({0.5f, -1.25f, 2.0f, 0.0f, 3.5f, -0.75f})));
    }

private Q_SLOTS:
    void syntheticSourceGivesTheHandFigures()
    {
        const QuantRequest request = requestFor(smallSpec());
        const QuantOutcome outcome = runQuantization(request);
        compareWithHandRun(outcome, generateSynthetic(smallSpec()), request);
        QVERIFY(outcome.tensor.source == request.source);
        // Every histogram has the requested bins.
        QCOMPARE(outcome.values->bins(), 64);
        QCOMPARE(outcome.results.first().error.bins(), 64);
        QCOMPARE(outcome.results.first().relativeError.bins(), 64);
    }

    void fileSourceGivesTheHandFigures()
    {
        const QString path = npyFile();
        const QuantRequest request = requestFor(TensorFile{path, QString()});
        const QuantOutcome outcome = runQuantization(request);
        const TensorData tensor = openTensor(path);
        compareWithHandRun(outcome, tensor, request);
        QCOMPARE(outcome.tensor.data.at(1, 1), 3.5f);
        QCOMPARE(outcome.tensor.data.origin(), path);
    }

    void aW8A8SchemeMeasuresTheLayerOutput()
    {
        // A W8A8 scheme alone brings the synthetic activations (as AWQ does) and measures the layer
        // output with them quantized: the same weights as the weight-only scheme, a larger output
        // error (INT8 per token, stretched by the outlier channels).
        QuantRequest request;
        SyntheticSpec spec;
        spec.rows = 128;
        spec.cols = 256;
        request.source = spec;
        request.schemes = {parseScheme(QStringLiteral("int8+a-int8-token"))};
        const QuantOutcome w8a8 = runQuantization(request);
        QVERIFY(w8a8.activations.has_value() && w8a8.results.first().outputSqnrDb.has_value());
        request.schemes = {parseScheme(QStringLiteral("int8")),
                           parseScheme(QStringLiteral("int8+a-int8-token"))};
        const QuantOutcome both = runQuantization(request);
        QCOMPARE(both.results.at(0).metrics.sqnrDb, both.results.at(1).metrics.sqnrDb);
        QVERIFY(*both.results.at(1).outputSqnrDb < *both.results.at(0).outputSqnrDb);
        QCOMPARE(*both.results.at(1).outputSqnrDb, *w8a8.results.first().outputSqnrDb);
        // Weight-only schemes alone still run without activations.
        request.schemes = {parseScheme(QStringLiteral("int8"))};
        QVERIFY(!runQuantization(request).activations.has_value());
    }

    void histogramsOnlyWhenAsked()
    {
        QuantRequest request = requestFor(smallSpec());
        request.valueHistogram = false;
        request.options.relativeHistogram = false;
        const QuantOutcome outcome = runQuantization(request);
        QVERIFY(!outcome.values);
        for (const SchemeResult &r : outcome.results) {
            QCOMPARE(r.relativeError.bins(), 0);
            QCOMPARE(r.error.bins(), 64);
        }
        compareWithHandRun(outcome, generateSynthetic(smallSpec()), request);
    }

    void reusesACachedTensorForAnEqualSourceOnly()
    {
        // A cached tensor that the source could never generate ([1, 4]), so
        // the outcome shows whether it was taken or the source loaded anew.
        LoadedTensor cached;
        cached.source = smallSpec();
        cached.data = TensorData::fromFloats({1.0f, -2.0f, 0.25f, 4.0f}, 1, 4, QStringLiteral("cache"),
                                             QStringLiteral("t"));
        cached.stats = scanTensor(cached.data);

        const QuantRequest same = requestFor(smallSpec());
        const QuantOutcome reused = runQuantization(same, cached);
        QCOMPARE(reused.tensor.data.origin(), QStringLiteral("cache"));
        compareWithHandRun(reused, cached.data, same);

        // Any other source loads its own tensor: another seed, another std,
        // a file, another tensor of the same file.
        SyntheticSpec otherStd = smallSpec();
        otherStd.standardDeviation = 0.5;
        const QString path = npyFile();
        for (const TensorSource &other : {TensorSource(smallSpec(8)), TensorSource(otherStd),
                                          TensorSource(TensorFile{path, QString()})}) {
            const QuantRequest request = requestFor(other);
            const QuantOutcome loaded = runQuantization(request, cached);
            QVERIFY(loaded.tensor.data.origin() != QStringLiteral("cache"));
            QVERIFY(loaded.tensor.source == other);
            compareWithHandRun(loaded, loadTensor(other), request);
        }
        LoadedTensor cachedFile = cached;
        cachedFile.source = TensorFile{path, QStringLiteral("weight")};
        QCOMPARE(runQuantization(requestFor(TensorFile{path, QString()}), cachedFile).tensor.data.origin(),
                 path);
        QCOMPARE(runQuantization(requestFor(TensorFile{path, QStringLiteral("weight")}), cachedFile)
                     .tensor.data.origin(),
                 QStringLiteral("cache"));
    }

    void progressCoversTheRun()
    {
        for (const bool cachedRun : {false, true}) {
            const QuantRequest request = requestFor(smallSpec());
            std::optional<LoadedTensor> cached;
            if (cachedRun)
                cached = runQuantization(request).tensor;
            QList<double> fractions;
            RunControl control;
            control.progress = [&fractions](double f) { fractions << f; };
            runQuantization(request, cached, control);
            QVERIFY(!fractions.isEmpty());
            QVERIFY(fractions.first() >= 0.0);
            for (int i = 1; i < fractions.size(); ++i)
                QVERIFY2(fractions[i] >= fractions[i - 1] - 1e-12, qPrintable(QString::number(i)));
            QVERIFY(qAbs(fractions.last() - 1.0) < 1e-9);
        }
    }

    void cancels()
    {
        std::atomic<bool> cancel{true};
        RunControl control;
        control.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(Cancelled, runQuantization(requestFor(smallSpec()), std::nullopt, control));
    }

    void loadErrorsNameTheInput()
    {
        SyntheticSpec tooWide = smallSpec();
        tooWide.cols = MaxSyntheticDimension + 1;
        QCOMPARE(test::errorOf([&] { runQuantization(requestFor(tooWide)); }),
                 QStringLiteral("--cols: 8193 is outside 1..8192"));
        const QString missing = m_dir.filePath(QStringLiteral("missing.npy"));
        QVERIFY(test::errorOf([&] {
                    runQuantization(requestFor(TensorFile{missing, QString()}));
                }).contains(missing));
    }
};

QTEST_GUILESS_MAIN(TestQuantRun)
#include "tst_quantrun.moc"
