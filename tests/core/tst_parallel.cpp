// SPDX-License-Identifier: MIT
// quant::parallelChunks: every chunk once, a worker index on one thread at a
// time, cancellation, the first exception after every helper ended, progress
// on the calling thread, figures that do not depend on the threads, and one
// bound on the threads however many runs split their work at once (the
// helpers come from Qt's global pool, where the window's background runs are).
#include "core/quantization/parallel.h"
#include "core/quantization/simulator.h"
#include "core/quantization/synthetic.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <vector>

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QThreadPool>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

/// The most `busy` reached, kept up to date by each chunk of work.
class Concurrency
{
public:
    /// Call on entering a chunk; leave() when it ends.
    void enter()
    {
        const int now = ++m_busy;
        int most = m_most.load();
        while (now > most && !m_most.compare_exchange_weak(most, now)) {
        }
    }
    void leave() { --m_busy; }
    int busy() const { return m_busy; }
    int most() const { return m_most; }

private:
    std::atomic<int> m_busy{0};
    std::atomic<int> m_most{0};
};

/// Sets the global pool's size for a test and puts it back after.
class PoolSize
{
public:
    explicit PoolSize(int threads) : m_before(QThreadPool::globalInstance()->maxThreadCount())
    {
        QThreadPool::globalInstance()->setMaxThreadCount(threads);
    }
    ~PoolSize() { QThreadPool::globalInstance()->setMaxThreadCount(m_before); }
    PoolSize(const PoolSize &) = delete;
    PoolSize &operator=(const PoolSize &) = delete;

private:
    int m_before;
};

} // namespace

class TestParallel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyChunkOnceAndEachWorkerOnOneThreadAtATime()
    {
        const PoolSize pool(4);
        constexpr std::int64_t chunks = 300;
        std::vector<std::atomic<int>> runs(chunks);
        std::vector<std::atomic<int>> inUse(4);
        std::atomic<bool> shared{false};
        std::atomic<bool> outOfRange{false};
        parallelChunks(chunks, 4,
                       [&](std::int64_t chunk, int worker) {
                           if (worker < 0 || worker >= 4) {
                               outOfRange = true;
                               return;
                           }
                           if (++inUse[size_t(worker)] != 1)
                               shared = true;
                           ++runs[size_t(chunk)];
                           QThread::usleep(200);
                           --inUse[size_t(worker)];
                       },
                       {});
        QVERIFY(!outOfRange);
        QVERIFY(!shared);
        for (std::int64_t chunk = 0; chunk < chunks; ++chunk)
            QCOMPARE(runs[size_t(chunk)].load(), 1);
    }

    // Before the fix each run started workers - 1 threads of its own: four
    // runs on a pool of three, each split eight ways, kept up to 24 busy.
    void runsInsideThePoolStayWithinIt()
    {
        const PoolSize pool(3);
        Concurrency concurrency;
        const auto work = [&concurrency](std::int64_t, int) {
            concurrency.enter();
            QThread::usleep(2000);
            concurrency.leave();
        };
        QSemaphore ended;
        for (int run = 0; run < 4; ++run)
            QThreadPool::globalInstance()->start([&] {
                parallelChunks(64, 8, work, {});
                ended.release();
            });
        QVERIFY(ended.tryAcquire(4, 60'000));
        QVERIFY2(concurrency.most() <= 3,
                 qPrintable(QStringLiteral("%1 threads at once").arg(concurrency.most())));
    }

    void aCancelledRunStopsAndSaysSo()
    {
        const PoolSize pool(4);
        std::atomic<bool> cancel{false};
        RunControl control;
        control.cancel = &cancel;
        Concurrency concurrency;
        std::atomic<int> ran{0};
        bool cancelled = false;
        try {
            parallelChunks(
                1000, 4,
                [&](std::int64_t chunk, int) {
                    concurrency.enter();
                    if (chunk == 10)
                        cancel = true;
                    ++ran;
                    QThread::usleep(200);
                    concurrency.leave();
                },
                control);
        } catch (const Cancelled &) {
            cancelled = true;
            QCOMPARE(concurrency.busy(), 0); // every helper had ended
        }
        QVERIFY(cancelled);
        QVERIFY(ran < 1000);
    }

    void theFirstExceptionComesBackAfterEveryHelperEnded()
    {
        const PoolSize pool(4);
        Concurrency concurrency;
        QString caught;
        try {
            parallelChunks(200, 4,
                           [&](std::int64_t chunk, int) {
                               concurrency.enter();
                               QThread::usleep(500);
                               concurrency.leave();
                               if (chunk == 20)
                                   throw std::runtime_error("chunk 20");
                           },
                           {});
        } catch (const std::runtime_error &error) {
            caught = QString::fromLatin1(error.what());
            QCOMPARE(concurrency.busy(), 0);
        }
        QCOMPARE(caught, QStringLiteral("chunk 20"));
    }

    void progressComesOnTheCallingThreadOnly()
    {
        const PoolSize pool(4);
        std::vector<double> reports;
        bool elsewhere = false;
        RunControl control;
        control.progress = [&](double fraction) {
            elsewhere = elsewhere || QThread::currentThread() != thread();
            reports.push_back(fraction);
        };
        parallelChunks(
            100, 4, [](std::int64_t, int) { QThread::usleep(100); }, control);
        QVERIFY(!elsewhere);
        QVERIFY(!reports.empty());
        QCOMPARE(reports.back(), 1.0);
        QVERIFY(std::is_sorted(reports.begin(), reports.end()));
    }

    // Chunk sums are added in chunk order and each worker's scratch holds
    // whole counts, so the threads a run gets change no figure.
    void figuresDoNotDependOnTheThreads()
    {
        SyntheticSpec spec;
        spec.rows = 512;
        spec.cols = 1024;
        spec.seed = 11;
        const auto simulated = [&spec](int threads) {
            const PoolSize pool(threads);
            const TensorData tensor = generateSynthetic(spec);
            SimulationOptions options;
            options.relativeHistogram = true;
            return simulateScheme(tensor, scanTensor(tensor), parseScheme(QStringLiteral("int4")), options);
        };
        const SchemeResult alone = simulated(1);
        const SchemeResult shared = simulated(8);
        QCOMPARE(shared.metrics.mse, alone.metrics.mse);
        QCOMPARE(shared.metrics.sqnrDb, alone.metrics.sqnrDb);
        QCOMPARE(shared.metrics.meanAbsError, alone.metrics.meanAbsError);
        QCOMPARE(shared.metrics.cosineSimilarity, alone.metrics.cosineSimilarity);
        QCOMPARE(shared.error.counts, alone.error.counts);
        QCOMPARE(shared.relativeError.counts, alone.relativeError.counts);
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
