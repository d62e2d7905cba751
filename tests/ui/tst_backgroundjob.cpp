// SPDX-License-Identifier: MIT
// BackgroundJob and runInBackground (ui/state/backgroundjob.h): the outcome
// comes on the context's thread, whatever the work throws becomes a message,
// a newer run cancels the one before, progress arrives while the work runs,
// and nothing waits for a run: not a destroyed job, not a destroyed context,
// which then never hears of it.
#include "core/common/error.h"
#include "tests/throwers.h"
#include "ui/state/backgroundjob.h"

#include <QElapsedTimer>
#include <QException>
#include <QPromise>
#include <QSemaphore>
#include <QTest>
#include <QThreadPool>

using namespace kvscope;

namespace {

/// The outcomes a job handed to its callback, and the thread each came on.
struct Received
{
    QList<JobOutcome<int>> outcomes;
    QList<QThread *> threads;

    auto callback()
    {
        return [this](JobOutcome<int> outcome) {
            outcomes << std::move(outcome);
            threads << QThread::currentThread();
        };
    }
};

/// Work that is held until let go (10 s at most), then ends and gives 1.
class HeldWork
{
public:
    JobWork<int> work() const
    {
        return [began = m_began, held = m_held, ended = m_ended](const quant::RunControl &) {
            began->release();
            held->tryAcquire(1, 10'000);
            ended->release();
            return 1;
        };
    }
    bool began(int runs = 1) const { return m_began->tryAcquire(runs, 10'000); }
    void letGo(int runs = 1) const { m_held->release(runs); }
    bool ended(int runs = 1) const { return m_ended->tryAcquire(runs, 10'000); }

private:
    std::shared_ptr<QSemaphore> m_began = std::make_shared<QSemaphore>();
    std::shared_ptr<QSemaphore> m_held = std::make_shared<QSemaphore>();
    std::shared_ptr<QSemaphore> m_ended = std::make_shared<QSemaphore>();
};

} // namespace

class TestBackgroundJob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theOutcomeComesOnTheContextsThread()
    {
        QObject context;
        Received received;
        auto worker = std::make_shared<QThread *>(nullptr);
        runInBackground<int>(
            &context, computePool(),
            [worker](const quant::RunControl &) {
                *worker = QThread::currentThread();
                return 42;
            },
            received.callback());
        QTRY_COMPARE(received.outcomes.size(), 1);
        QCOMPARE(received.outcomes.first().result, std::optional<int>(42));
        QCOMPARE(received.threads.first(), QThread::currentThread());
        QVERIFY(*worker != QThread::currentThread());
    }

    void everyExceptionBecomesAMessage_data()
    {
        test::addThrownRows();
        QTest::newRow("kvscope::Error")
            << QStringLiteral("kvscope::Error") << QStringLiteral("config.json: field 'x' is -1");
    }

    void everyExceptionBecomesAMessage()
    {
        QFETCH(QString, thrown);
        QFETCH(QString, shown);
        QObject context;
        Received received;
        BackgroundJob<int> job(&context, received.callback());
        job.start([thrown](const quant::RunControl &) -> int {
            if (thrown == QLatin1String("kvscope::Error"))
                throw Error(QStringLiteral("config.json: field 'x' is -1"));
            test::throwNamed(thrown);
        });
        QTRY_COMPARE(received.outcomes.size(), 1);
        const JobOutcome<int> &outcome = received.outcomes.first();
        QVERIFY(!outcome.result);
        QCOMPARE(outcome.failure.message, shown);
        QCOMPARE(outcome.failure.outOfMemory, thrown == QLatin1String("std::bad_alloc"));
        QVERIFY(!job.isRunning());
    }

    // What escapes the run (storing its outcome ran out of memory) is in the
    // future, as QtConcurrent wraps it: the message says what it was.
    void whatEscapesTheRunIsAMessageToo_data()
    {
        QTest::addColumn<bool>("wrapped");
        QTest::newRow("as thrown") << false;
        QTest::newRow("in a QUnhandledException") << true;
    }

    void whatEscapesTheRunIsAMessageToo()
    {
        QFETCH(bool, wrapped);
        const std::exception_ptr thrown = std::make_exception_ptr(std::bad_alloc());
        QPromise<JobOutcome<int>> promise;
        promise.start();
        promise.setException(wrapped ? std::make_exception_ptr(QUnhandledException(thrown)) : thrown);
        promise.finish();
        const JobOutcome<int> outcome = detail::outcomeOf(promise.future());
        QVERIFY(!outcome.result);
        QCOMPARE(outcome.failure.message, QStringLiteral("out of memory"));
        QVERIFY(outcome.failure.outOfMemory);
    }

    void aNewRunCancelsTheOneBefore()
    {
        QObject context;
        Received received;
        BackgroundJob<int> job(&context, received.callback());
        auto began = std::make_shared<QSemaphore>();
        auto sawCancel = std::make_shared<QSemaphore>();
        QVERIFY(!job.start([began, sawCancel](const quant::RunControl &control) {
            began->release();
            QElapsedTimer waited;
            waited.start();
            while (!control.cancelled() && waited.elapsed() < 10'000)
                QThread::msleep(1);
            if (control.cancelled())
                sawCancel->release();
            return 1;
        }));
        QVERIFY(job.isRunning());
        QVERIFY(began->tryAcquire(1, 10'000));
        QVERIFY(job.start([](const quant::RunControl &) { return 2; })); // supersedes the first
        QVERIFY(sawCancel->tryAcquire(1, 10'000));
        QTRY_COMPARE(received.outcomes.size(), 1);
        QCOMPARE(received.outcomes.first().result, std::optional<int>(2));
        QTest::qWait(50);
        QCOMPARE(received.outcomes.size(), 1); // the first one's never comes
    }

    void aCancelledRunIsNotHeardOf()
    {
        QObject context;
        Received received;
        BackgroundJob<int> job(&context, received.callback());
        QVERIFY(!job.cancel());
        const HeldWork held;
        job.start(held.work());
        QVERIFY(held.began());
        QVERIFY(job.cancel());
        QVERIFY(!job.isRunning());
        held.letGo();
        QVERIFY(held.ended());
        QTest::qWait(50);
        QVERIFY(received.outcomes.isEmpty());
    }

    void aRunCancelledBeforeItBeginsNeverRuns()
    {
        QThreadPool pool; // one thread, held by the first run
        pool.setMaxThreadCount(1);
        QObject context;
        Received received;
        const HeldWork held;
        runInBackground<int>(&context, &pool, held.work(), received.callback());
        auto ran = std::make_shared<std::atomic<bool>>(false);
        BackgroundJob<int> job(&context, &pool, received.callback());
        job.start([ran](const quant::RunControl &) {
            *ran = true;
            return 2;
        });
        QVERIFY(job.cancel()); // while it waits for the pool's thread
        held.letGo();
        QVERIFY(pool.waitForDone(10'000));
        QVERIFY(!*ran);
        QTRY_COMPARE(received.outcomes.size(), 1);
        QCOMPARE(received.outcomes.first().result, std::optional<int>(1));
    }

    void progressArrivesWhileTheWorkRuns()
    {
        QObject context;
        Received received;
        QList<int> progress;
        BackgroundJob<int> job(&context, received.callback());
        job.setProgress([&progress](int percent) { progress << percent; });
        auto release = std::make_shared<QSemaphore>();
        job.start([release](const quant::RunControl &control) {
            control.report(0.5);
            release->tryAcquire(1, 10'000);
            return 1;
        });
        QTRY_VERIFY(progress.contains(50));
        release->release();
        QTRY_COMPARE(received.outcomes.size(), 1);
    }

    // A run on a hung path must not hold its owner: neither the job's
    // destructor nor the context's waits, and the outcome goes nowhere.
    void nothingWaitsForARun()
    {
        const HeldWork held;
        auto called = std::make_shared<int>(0);
        const auto count = [called](const JobOutcome<int> &) { ++*called; };
        QElapsedTimer destroying;
        {
            auto context = std::make_unique<QObject>();
            BackgroundJob<int> job(context.get(), pathPool(), count);
            job.start(held.work());
            QVERIFY(held.began());
            destroying.start();
        }
        QVERIFY2(destroying.elapsed() < 1'000, "the job was waited for");
        // A one-shot run whose context goes first.
        {
            auto context = std::make_unique<QObject>();
            runInBackground<int>(context.get(), pathPool(), held.work(), count);
        }
        held.letGo(2);
        QVERIFY(held.ended(2));
        QTest::qWait(50);
        QCOMPARE(*called, 0);
    }

    void pathsHaveAPoolOfTheirOwn()
    {
        QCOMPARE(computePool(), QThreadPool::globalInstance());
        QVERIFY(pathPool() != computePool());
    }
};

QTEST_GUILESS_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
