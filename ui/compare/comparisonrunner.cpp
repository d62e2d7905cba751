// SPDX-License-Identifier: MIT
#include "ui/compare/comparisonrunner.h"

namespace kvscope {

ComparisonRunner::ComparisonRunner(QObject *parent)
    : QObject(parent), m_cache(std::make_shared<AccuracyCache>()),
      m_job(this, [this](const JobOutcome<Comparison> &outcome) { collect(outcome); })
{
    m_job.setProgress([this](int percent) { Q_EMIT progressChanged(percent); });
}

void ComparisonRunner::start(const QList<ComparisonColumn> &columns)
{
    ++m_started;
    // A superseded run keeps its own copy of the columns and its share of the cache.
    const bool superseded = m_job.start([columns, cache = m_cache](const quant::RunControl &control) {
        return compare(columns, *cache, control);
    });
    if (superseded)
        ++m_cancelled;
    Q_EMIT progressChanged(0);
    if (!superseded)
        Q_EMIT runningChanged(true);
}

void ComparisonRunner::cancel()
{
    if (!m_job.cancel())
        return;
    ++m_cancelled;
    Q_EMIT runningChanged(false);
}

void ComparisonRunner::collect(const JobOutcome<Comparison> &outcome)
{
    Q_EMIT runningChanged(false);
    if (outcome.result)
        Q_EMIT finished(*outcome.result);
    else
        Q_EMIT failed(outcome.failure.message);
}

} // namespace kvscope
