// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/fixes.h"
#include "ui/state/backgroundjob.h"

#include <QObject>

namespace kvscope {

/// Runs proposeFixes() for the explorer's scenario off the UI thread
/// (BackgroundJob): a scenario that does not fit is planned again on every
/// larger GPU, precision and parallel size, some millisecond of work a slider
/// step need not wait for. A new scenario cancels the run before it, so only
/// the current scenario's proposals arrive.
class FixProposer : public QObject
{
    Q_OBJECT

public:
    explicit FixProposer(QObject *parent = nullptr);

    /// Starts the proposals for `scenario`; for the same inputs as the last run, waits for
    /// that run or gives its proposals again.
    void propose(const Scenario &scenario, const MemoryPlan &plan, const QList<GpuSpec> &gpus);
    bool isRunning() const { return m_job.isRunning(); }
    /// The current scenario's proposals: the last run's, or, while one is due, worked out
    /// here and now (an export or a copy cannot wait for the next frame). Ends that run.
    QList<Fix> settle();
    /// Runs started so far (a test's measure that an unchanged scenario starts none).
    int startedRuns() const { return m_started; }

Q_SIGNALS:
    void proposed(const QList<kvscope::Fix> &fixes);
    /// A run failed; the message says why. The proposals before it stand.
    void failed(const QString &message);

private:
    BackgroundJob<QList<Fix>> m_job;
    // The inputs of the last run started, and its proposals once they came.
    Scenario m_scenario;
    MemoryPlan m_plan;
    QList<GpuSpec> m_gpus;
    QList<Fix> m_fixes;
    int m_started = 0;
};

} // namespace kvscope
