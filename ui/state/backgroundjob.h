// SPDX-License-Identifier: MIT
// The one way the window runs work off its thread (after KeePassXC's
// AsyncTask::runThenCallback): the work runs on a thread pool with a cancel
// flag of its own; a watcher owned by a context object hands its outcome to a
// callback on the context's thread, never after the context is gone. Whatever
// the work throws becomes a message (JobOutcome); a cancelled run's outcome is
// dropped; nothing waits for a run, not even a destructor.
//
//   start(work) --QtConcurrent::run(pool)--> work(RunControl) --QFutureWatcher--> done(JobOutcome)
#pragma once

#include "core/quantization/parallel.h"
#include "ui/state/joboutcome.h"

#include <atomic>
#include <functional>
#include <memory>

#include <QFutureWatcher>
#include <QPointer>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

class QThreadPool;

namespace kvscope {

/// Qt's global pool, where every computation runs: quant::parallelChunks asks
/// it for its helper threads too, so its maxThreadCount bounds them all together.
QThreadPool *computePool();
/// The pool for work that opens a path the user named. A hung mount can block
/// such work for good, so nothing ever waits for this pool, not even the exit
/// (QCoreApplication waits for the global one).
QThreadPool *pathPool();

/// Work for the background: its control carries the run's cancel flag (the
/// work stops at its next check) and reports progress in [0, 1].
template <typename T> using JobWork = std::function<T(const quant::RunControl &control)>;

namespace detail {

/// One run, as its context's thread sees it.
struct RunState
{
    std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    QPointer<QFutureWatcherBase> watcher; ///< while the run's outcome is due
};

/// Ends a run whose future finished (its watcher goes); false when it was cancelled.
bool endRun(RunState &state);

/// The outcome in a finished future, or the failure that stands for its lack.
template <typename T> JobOutcome<T> outcomeOf(QFuture<JobOutcome<T>> future) noexcept
{
    JobOutcome<T> outcome;
    try {
        future.waitForFinished(); // finished already: rethrows what escaped the run, if anything did
        if (future.resultCount() > 0)
            return future.result();
        outcome.failure.message = QStringLiteral("unexpected error: the work gave no result");
    } catch (...) {
        outcome.failure = currentFailure();
    }
    return outcome;
}

} // namespace detail

/// A run started by runInBackground().
class JobHandle
{
public:
    JobHandle() = default;
    explicit JobHandle(std::shared_ptr<detail::RunState> state) : m_state(std::move(state)) {}

    /// Whether its outcome is still due.
    bool isRunning() const;
    /// Sets its cancel flag and drops its outcome; whether it was still due.
    bool cancel();

private:
    std::shared_ptr<detail::RunState> m_state;
};

/// Runs `work` on `pool` and calls `done` with its outcome on `context`'s
/// thread, unless the run was cancelled or `context` is gone by then.
/// `progress` (0 to 100) is called there too.
template <typename T>
JobHandle runInBackground(QObject *context, QThreadPool *pool, JobWork<T> work,
                          std::function<void(JobOutcome<T>)> done,
                          std::function<void(int percent)> progress = {})
{
    auto state = std::make_shared<detail::RunState>();
    auto *watcher = new QFutureWatcher<JobOutcome<T>>(context);
    state->watcher = watcher;
    if (progress)
        QObject::connect(watcher, &QFutureWatcherBase::progressValueChanged, context, std::move(progress));
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [state, watcher, done = std::move(done)] {
                         if (!detail::endRun(*state))
                             return; // nobody waits for a cancelled run
                         JobOutcome<T> outcome = detail::outcomeOf(watcher->future());
                         if (!outcome.failure.cancelled)
                             done(std::move(outcome));
                     });
    watcher->setFuture(QtConcurrent::run(
        pool, [work = std::move(work), cancel = state->cancel](QPromise<JobOutcome<T>> &promise) {
            if (cancel->load())
                return; // cancelled while it waited for a thread: nobody waits for it
            promise.setProgressRange(0, 100);
            quant::RunControl control;
            control.cancel = cancel.get();
            control.progress = [&promise](double fraction) { promise.setProgressValue(int(fraction * 100)); };
            promise.addResult(catchEverything<T>([&] { return work(control); }));
        }));
    return JobHandle(std::move(state));
}

/// Runs of one kind for one context, one at a time: starting a run cancels
/// the one before it. Destroying the job cancels its run without waiting.
template <typename T> class BackgroundJob
{
public:
    using Done = std::function<void(JobOutcome<T>)>;

    /// Runs on `pool`; `done` gets each run's outcome on `context`'s thread.
    BackgroundJob(QObject *context, QThreadPool *pool, Done done)
        : m_context(context), m_pool(pool), m_done(std::move(done))
    {}
    /// Runs on computePool().
    BackgroundJob(QObject *context, Done done) : BackgroundJob(context, computePool(), std::move(done)) {}
    ~BackgroundJob() { cancel(); }
    BackgroundJob(const BackgroundJob &) = delete;
    BackgroundJob &operator=(const BackgroundJob &) = delete;

    /// Called with each run's progress, 0 to 100.
    void setProgress(std::function<void(int percent)> progress) { m_progress = std::move(progress); }

    /// Starts `work`; whether it superseded (cancelled) a run still due.
    bool start(JobWork<T> work)
    {
        const bool superseded = cancel();
        m_run = runInBackground<T>(m_context, m_pool, std::move(work), m_done, m_progress);
        return superseded;
    }
    /// Cancels the run still due, if any (its outcome never arrives); whether there was one.
    bool cancel() { return m_run.cancel(); }
    bool isRunning() const { return m_run.isRunning(); }

private:
    QObject *m_context;
    QThreadPool *m_pool;
    Done m_done;
    std::function<void(int)> m_progress;
    JobHandle m_run;
};

} // namespace kvscope
