// SPDX-License-Identifier: MIT
// The quantization simulator on a 4096 x 4096 float32 tensor, for
// docs/benchmarks.md: one plain pass (the memory-bandwidth floor), the scan,
// and int4 g128 / fp8-e4m3 with metrics and a 256-bin error histogram.
// The phases_* rows time each hot loop alone on one thread, over the whole
// tensor in the simulator's 4096-element blocks, to show where the time goes.
// Run: build/tests/benchmarks/bench_quant -iterations 20
#include "core/quantization/kernels.h"
#include "core/quantization/parallel.h"
#include "core/quantization/simdclones.h"
#include "core/quantization/simulator.h"
#include "core/quantization/synthetic.h"

#include <atomic>

#include <QTest>

using namespace kvscope::quant;

namespace {

/// Σw of a span, built like the simulator's kernels (same flags, same clones).
KVSCOPE_SIMD_CLONES
double spanSum(const float *values, std::int64_t n)
{
    double sum = 0;
#pragma omp simd reduction(+ : sum)
    for (std::int64_t i = 0; i < n; ++i)
        sum += values[i];
    return sum;
}

/// The floor: Σw over the buffer with the same threads and chunking as the
/// simulator.
double plainSum(const TensorData &tensor)
{
    const std::int64_t n = tensor.elements();
    constexpr std::int64_t chunkElements = 1 << 16;
    const std::int64_t chunks = (n + chunkElements - 1) / chunkElements;
    std::vector<double> partial(static_cast<size_t>(chunks));
    const float *values = tensor.floats(0, n, nullptr);
    parallelChunks(chunks, workerCount(chunks),
                   [&](std::int64_t chunk, int) {
                       const std::int64_t begin = chunk * chunkElements;
                       const std::int64_t end = std::min(n, begin + chunkElements);
                       partial[size_t(chunk)] = spanSum(values + begin, end - begin);
                   },
                   {});
    double total = 0;
    for (double p : partial)
        total += p;
    return total;
}

} // namespace

class BenchQuant : public QObject
{
    Q_OBJECT

    TensorData m_tensor;
    TensorStats m_stats;
    std::vector<float> m_int4;         ///< the tensor through int4 g128, for the error phase
    std::vector<std::int32_t> m_slots; ///< its error slots, for the histogram phase

private Q_SLOTS:
    void initTestCase()
    {
        SyntheticSpec spec;
        spec.rows = 4096;
        spec.cols = 4096;
        spec.seed = 1;
        m_tensor = generateSynthetic(spec);
        m_stats = scanTensor(m_tensor);
        const std::int64_t n = m_tensor.elements();
        const float *w = m_tensor.floats(0, n, nullptr);
        m_int4.resize(size_t(n));
        m_slots.resize(size_t(n));
        const std::vector<std::int32_t> groups(size_t(n / 128), 128);
        kernels::dequantizeIntUnits(w, groups.data(), std::int64_t(groups.size()), IntRule::Awq, 4,
                                    m_int4.data());
        const double bound = largestRoundingError(parseScheme(QStringLiteral("int4")), m_stats);
        kernels::ErrorSums sums;
        kernels::accumulateErrors(w, m_int4.data(), n, kernels::SlotMap::forRange(-bound, bound, 256, false),
                                  m_slots.data(), nullptr, nullptr, sums);
        qInfo("tensor: %lld x %lld float32 = %.1f MiB, threads %d", qlonglong(m_tensor.rows()),
              qlonglong(m_tensor.cols()), double(m_tensor.elements()) * 4 / (1 << 20), workerCount(1 << 20));
    }

    void floorSum()
    {
        double sink = 0;
        QBENCHMARK
        {
            sink += plainSum(m_tensor);
        }
        QVERIFY(std::isfinite(sink));
    }

    void scan()
    {
        double sink = 0;
        QBENCHMARK
        {
            sink += scanTensor(m_tensor).sumSquares;
        }
        QVERIFY(sink > 0);
    }

    void scheme_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<bool>("withScan");
        QTest::addColumn<bool>("relative");
        for (const char *name : {"int4", "fp8-e4m3"}) {
            QTest::addRow("%s", name) << QString::fromLatin1(name) << false << false;
            QTest::addRow("%s incl. scan", name) << QString::fromLatin1(name) << true << false;
            QTest::addRow("%s + relative histogram", name) << QString::fromLatin1(name) << false << true;
        }
    }

    void scheme()
    {
        QFETCH(QString, scheme);
        QFETCH(bool, withScan);
        QFETCH(bool, relative);
        const Scheme parsed = parseScheme(scheme);
        SimulationOptions options;
        options.bins = 256;
        options.relativeHistogram = relative;
        double sink = 0;
        QBENCHMARK
        {
            const TensorStats stats = withScan ? scanTensor(m_tensor) : m_stats;
            sink += simulateScheme(m_tensor, stats, parsed, options).metrics.sqnrDb;
        }
        QVERIFY(sink > 0);
    }

    void phase_data()
    {
        QTest::addColumn<int>("phase");
        QTest::newRow("dequantize int4 g128") << 0;
        QTest::newRow("dequantize fp8-e4m3") << 1;
        QTest::newRow("error sums + slots") << 2;
        QTest::newRow("histogram scatter") << 3;
        QTest::newRow("scan") << 4;
    }

    void phase()
    {
        QFETCH(int, phase);
        constexpr std::int64_t block = 4096;
        const float *w = m_tensor.floats(0, m_tensor.elements(), nullptr);
        std::vector<float> y(block, 0.0f);
        std::vector<std::int32_t> slots(block, 0), groups(block / 128, 128);
        const double bound = largestRoundingError(parseScheme(QStringLiteral("int4")), m_stats);
        const kernels::SlotMap map = kernels::SlotMap::forRange(-bound, bound, 256, false);
        kernels::HistogramLanes lanes(map.slotCount());
        Fp8Tensor fp8;
        fp8.scale = m_stats.amax() / 448.0f;
        kernels::ErrorSums sums;
        kernels::ScanSums scanned;
        std::int64_t sink = 0;
        QBENCHMARK
        {
            for (std::int64_t b = 0; b < m_tensor.elements(); b += block) {
                switch (phase) {
                case 0:
                    sink += kernels::dequantizeIntUnits(w + b, groups.data(), std::int64_t(groups.size()),
                                                        IntRule::Awq, 4, y.data());
                    break;
                case 1:
                    sink += kernels::dequantizeFp8(w + b, block, fp8, y.data());
                    break;
                case 2:
                    kernels::accumulateErrors(w + b, m_int4.data() + b, block, map, slots.data(), nullptr,
                                              nullptr, sums);
                    break;
                case 3:
                    lanes.add(m_slots.data() + b, block);
                    break;
                default:
                    kernels::scan(w + b, block, scanned);
                }
            }
        }
        QVERIFY(sink >= 0);
    }
};

QTEST_GUILESS_MAIN(BenchQuant)
#include "bench_quant.moc"
