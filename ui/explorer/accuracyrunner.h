// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/accuracy.h"
#include "core/scenario/scenariovalues.h"
#include "ui/state/backgroundjob.h"

#include <memory>

#include <QObject>

namespace kvscope {

/// Runs estimateAccuracy() for the explorer's scenario off the UI thread
/// (BackgroundJob), only when what it depends on changes (model, weight and KV
/// precisions): a slider move starts nothing. A new run cancels the one before.
/// Shares its AccuracyCache with the Compare view, so a format either has
/// simulated is a lookup for the other.
class AccuracyRunner : public QObject
{
    Q_OBJECT

public:
    explicit AccuracyRunner(QObject *parent = nullptr);

    void setCache(std::shared_ptr<AccuracyCache> cache) { m_cache = std::move(cache); }
    /// Starts the scenario's accuracy unless the last run was for the same inputs.
    void update(const Scenario &scenario, const MemoryPlan &plan);
    bool isRunning() const { return m_job.isRunning(); }
    /// Runs started so far (a test's measure that a slider move starts none).
    int startedRuns() const { return m_started; }

Q_SIGNALS:
    void started();
    void finished(const kvscope::Accuracy &accuracy);
    void failed(const QString &message);

private:
    std::shared_ptr<AccuracyCache> m_cache;
    BackgroundJob<Accuracy> m_job;
    ScenarioValues m_inputs; ///< of the last run started
    int m_started = 0;
};

} // namespace kvscope
