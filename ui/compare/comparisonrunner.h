// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/comparison.h"
#include "ui/state/backgroundjob.h"

#include <memory>

#include <QObject>

namespace kvscope {

/// Runs compare() off the UI thread (BackgroundJob), one run at a time: a new
/// run cancels the one before (it stops at its next chunk and its result is
/// dropped). Keeps one AccuracyCache for its lifetime, so a run that changes
/// no format is a lookup.
class ComparisonRunner : public QObject
{
    Q_OBJECT

public:
    explicit ComparisonRunner(QObject *parent = nullptr);

    /// Starts comparing `columns`, superseding any run in progress.
    void start(const QList<ComparisonColumn> &columns);
    /// Cancels the run in progress, if any (its result never arrives).
    void cancel();
    bool isRunning() const { return m_job.isRunning(); }
    /// Runs started so far, and runs that ended cancelled (a test's and a benchmark's measure).
    int startedRuns() const { return m_started; }
    int cancelledRuns() const { return m_cancelled; }

    AccuracyCache &cache() { return *m_cache; }
    /// The cache, for another view's accuracy runs to share.
    std::shared_ptr<AccuracyCache> sharedCache() const { return m_cache; }

Q_SIGNALS:
    /// Progress of the current run, 0 to 100.
    void progressChanged(int percent);
    void finished(const kvscope::Comparison &comparison);
    void failed(const QString &message);
    void runningChanged(bool running);

private:
    void collect(const JobOutcome<Comparison> &outcome);

    std::shared_ptr<AccuracyCache> m_cache;
    BackgroundJob<Comparison> m_job;
    int m_started = 0;
    int m_cancelled = 0;
};

} // namespace kvscope
