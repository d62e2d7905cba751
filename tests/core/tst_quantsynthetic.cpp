// SPDX-License-Identifier: MIT
// Synthetic tensors: reproducible from the seed, with the statistics each
// kind promises (tolerances are several standard errors of the estimate).
#include "core/common/error.h"
#include "core/quantization/synthetic.h"
#include "tests/tensorfiles.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <QTest>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

struct Moments
{
    double mean = 0;
    double std = 0;
    double excessKurtosis = 0;
};

Moments moments(const TensorData &t, std::int64_t column = -1)
{
    double s1 = 0, s2 = 0, s4 = 0;
    std::int64_t n = 0;
    for (std::int64_t r = 0; r < t.rows(); ++r) {
        for (std::int64_t c = 0; c < t.cols(); ++c) {
            if (column >= 0 && c != column)
                continue;
            const double v = t.at(r, c);
            s1 += v;
            s2 += v * v;
            ++n;
        }
    }
    Moments m;
    m.mean = s1 / double(n);
    m.std = std::sqrt(s2 / double(n) - m.mean * m.mean);
    for (std::int64_t r = 0; r < t.rows(); ++r)
        for (std::int64_t c = 0; c < t.cols(); ++c)
            if (column < 0 || c == column)
                s4 += std::pow((t.at(r, c) - m.mean) / m.std, 4);
    m.excessKurtosis = s4 / double(n) - 3.0;
    return m;
}

SyntheticSpec spec(SyntheticKind kind, std::int64_t rows, std::int64_t cols, std::uint64_t seed = 1)
{
    SyntheticSpec s;
    s.kind = kind;
    s.rows = rows;
    s.cols = cols;
    s.seed = seed;
    return s;
}

} // namespace

class TestQuantSynthetic : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reproducibleFromSeed()
    {
        const TensorData a = generateSynthetic(spec(SyntheticKind::StudentT, 100, 333, 42));
        const TensorData b = generateSynthetic(spec(SyntheticKind::StudentT, 100, 333, 42));
        const TensorData c = generateSynthetic(spec(SyntheticKind::StudentT, 100, 333, 43));
        QVERIFY(std::memcmp(a.floats(0, a.elements(), nullptr), b.floats(0, b.elements(), nullptr),
                            size_t(a.elements()) * 4) == 0);
        QVERIFY(std::memcmp(a.floats(0, a.elements(), nullptr), c.floats(0, c.elements(), nullptr),
                            size_t(a.elements()) * 4) != 0);
        // Each row has its own stream: a taller tensor starts with the same rows.
        const TensorData taller = generateSynthetic(spec(SyntheticKind::StudentT, 200, 333, 42));
        QCOMPARE(taller.at(99, 332), a.at(99, 332));
        QCOMPARE(a.origin(), QStringLiteral("synthetic:student-t"));
    }

    void statistics_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("kurtosis");
        QTest::addColumn<double>("kurtosisTolerance");
        // Excess kurtosis: Gaussian 0, Laplace 3, Student-t(5) 6 (its
        // estimate converges slowly, hence the wide band).
        QTest::newRow("gaussian") << int(SyntheticKind::Gaussian) << 0.0 << 0.05;
        QTest::newRow("laplace") << int(SyntheticKind::Laplace) << 3.0 << 0.3;
        QTest::newRow("student-t") << int(SyntheticKind::StudentT) << 6.0 << 3.0;
    }

    void statistics()
    {
        QFETCH(int, kind);
        QFETCH(double, kurtosis);
        QFETCH(double, kurtosisTolerance);
        const TensorData t = generateSynthetic(spec(SyntheticKind(kind), 512, 1024, 5));
        const Moments m = moments(t);
        // 524,288 samples: the std of the mean is 0.02/724 = 2.8e-5; the std
        // estimate is within 1 % (more than 5 standard errors even for t(5)).
        QVERIFY2(std::fabs(m.mean) < 1.5e-4, qPrintable(QString::number(m.mean)));
        QVERIFY2(std::fabs(m.std / 0.02 - 1) < 0.01, qPrintable(QString::number(m.std)));
        QVERIFY2(std::fabs(m.excessKurtosis - kurtosis) < kurtosisTolerance,
                 qPrintable(QString::number(m.excessKurtosis)));
    }

    void outlierChannels()
    {
        const SyntheticSpec s = spec(SyntheticKind::Outliers, 2000, 256, 9);
        const QList<OutlierChannel> channels = quant::outlierChannels(s);
        QCOMPARE(channels.size(), 4);
        QCOMPARE(channels.last().multiplier, 100.0);
        const TensorData t = generateSynthetic(s);
        for (const OutlierChannel &channel : channels) {
            const double std = moments(t, channel.column).std;
            // 2,000 tokens per channel: std within 5 % of multiplier x 1.
            QVERIFY2(std::fabs(std / channel.multiplier - 1) < 0.05, qPrintable(QString::number(std)));
        }
        std::int64_t normal = 0;
        while (std::any_of(channels.cbegin(), channels.cend(),
                           [normal](const OutlierChannel &c) { return c.column == normal; }))
            ++normal;
        QVERIFY(std::fabs(moments(t, normal).std - 1.0) < 0.05);
        // A narrow tensor gets as many channels as it has columns.
        QCOMPARE(quant::outlierChannels(spec(SyntheticKind::Outliers, 4, 2)).size(), 2);
    }

    void channelScaleOfAnyKind()
    {
        // Student-t weights with four input channels 2.5x, 5x, 7.5x and 10x wider.
        SyntheticSpec s = spec(SyntheticKind::StudentT, 4000, 64, 3);
        s.channelScale = 10;
        const QList<OutlierChannel> channels = quant::outlierChannels(s);
        QCOMPARE(channels.size(), 4);
        QCOMPARE(channels.at(0).multiplier, 2.5);
        QCOMPARE(channels.at(3).multiplier, 10.0);
        const TensorData t = generateSynthetic(s);
        // 4,000 draws of t(5) per column: the std within 10 % (its kurtosis widens the estimate).
        for (const OutlierChannel &channel : channels) {
            const double std = moments(t, channel.column).std;
            QVERIFY2(std::fabs(std / (0.02 * channel.multiplier) - 1) < 0.1,
                     qPrintable(QString::number(std)));
        }
        // Without a scale, only the Outliers kind has channels.
        QVERIFY(quant::outlierChannels(spec(SyntheticKind::Gaussian, 4, 8)).isEmpty());
        SyntheticSpec negative = spec(SyntheticKind::Gaussian, 2, 2);
        negative.channelScale = -1;
        QVERIFY_THROWS_EXCEPTION(Error, validate(negative));
    }

    void storedAsRoundsEveryValue()
    {
        SyntheticSpec s = spec(SyntheticKind::Gaussian, 64, 64, 4);
        const TensorData exact = generateSynthetic(s);
        s.storedAs = ElementType::BFloat16;
        const TensorData bf16 = generateSynthetic(s);
        s.storedAs = ElementType::Float16;
        const TensorData fp16 = generateSynthetic(s);
        int differs = 0;
        for (std::int64_t r = 0; r < 64; ++r) {
            for (std::int64_t c = 0; c < 64; ++c) {
                // bfloat16 keeps the top 16 bits of a float32; float16 values of N(0, 0.02)
                // (all above 2^-14 here or subnormal) hold 11 significant bits.
                std::uint32_t bits = 0;
                const float b = bf16.at(r, c);
                std::memcpy(&bits, &b, 4);
                QCOMPARE(bits & 0xFFFFu, 0u);
                QVERIFY(std::fabs(b - exact.at(r, c)) <= std::fabs(exact.at(r, c)) * std::ldexp(1.0, -8));
                const float h = fp16.at(r, c);
                QVERIFY(std::fabs(h - exact.at(r, c)) <=
                        std::max(std::fabs(exact.at(r, c)) * std::ldexp(1.0, -11), std::ldexp(1.0, -25)));
                differs += b != exact.at(r, c);
            }
        }
        QVERIFY(differs > 4000); // nearly every float32 draw needs rounding
    }

    void customStd()
    {
        SyntheticSpec s = spec(SyntheticKind::Gaussian, 256, 256);
        s.standardDeviation = 0.01;
        QVERIFY(std::fabs(moments(generateSynthetic(s)).std / 0.01 - 1) < 0.02);
    }

    void limits_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero rows") << qint64(0) << qint64(4) << "--rows: 0 is outside 1..8192";
        QTest::newRow("too wide") << qint64(4) << qint64(8193) << "--cols: 8193 is outside 1..8192";
    }

    void limits()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        QFETCH(QString, message);
        QCOMPARE(test::errorOf([&] { generateSynthetic(spec(SyntheticKind::Gaussian, rows, cols)); }),
                 message);
        SyntheticSpec negative = spec(SyntheticKind::Gaussian, 2, 2);
        negative.standardDeviation = -1;
        QVERIFY_THROWS_EXCEPTION(Error, validate(negative));
    }

    void standardDeviationsFloat32CannotHold()
    {
        // Below 2^-126, float32's smallest normal value, samples are zero or subnormal: the
        // tensor would be all zeros with perfect figures. Above 2^108 (2^20 below float32's
        // largest, room for the Student-t tail and the 100x outlier channels) samples overflow.
        SyntheticSpec s = spec(SyntheticKind::Gaussian, 8, 8);
        s.standardDeviation = 1e-300;
        QVERIFY(
            test::errorOf([&] { generateSynthetic(s); }).startsWith(QLatin1String("--std: 1e-300 is below")));
        s.standardDeviation = 1e308;
        QVERIFY(
            test::errorOf([&] { generateSynthetic(s); }).startsWith(QLatin1String("--std: 1e+308 is above")));
        // The bounds themselves give finite samples, none of them all zero.
        for (const double bound : {0x1p-126, 0x1p108}) {
            s.kind = bound < 1 ? SyntheticKind::Gaussian : SyntheticKind::Outliers;
            s.standardDeviation = bound;
            const TensorData t = generateSynthetic(s);
            bool nonZero = false;
            for (std::int64_t i = 0; i < t.elements(); ++i) {
                const float v = t.at(i / t.cols(), i % t.cols());
                QVERIFY(std::isfinite(v));
                nonZero = nonZero || v != 0.0f;
            }
            QVERIFY(nonZero);
        }
    }

    void kindNames()
    {
        QCOMPARE(parseSyntheticKind(QStringLiteral("Student-T")), SyntheticKind::StudentT);
        QVERIFY_THROWS_EXCEPTION(Error, parseSyntheticKind(QStringLiteral("uniform")));
    }
};

QTEST_GUILESS_MAIN(TestQuantSynthetic)
#include "tst_quantsynthetic.moc"
