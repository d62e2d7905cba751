// SPDX-License-Identifier: MIT
#include "ui/compare/comparisonrunner.h"

#include "core/common/error.h"

#include <QtConcurrent/QtConcurrentRun>

namespace kvscope {

namespace {

void runComparison(QPromise<ComparisonJobResult> &promise, const QList<ComparisonColumn> &columns,
                   const std::shared_ptr<AccuracyCache> &cache,
                   const std::shared_ptr<std::atomic<bool>> &cancel)
{
    promise.setProgressRange(0, 100);
    quant::RunControl control;
    control.cancel = cancel.get();
    control.progress = [&promise](double fraction) { promise.setProgressValue(int(fraction * 100)); };
    ComparisonJobResult result;
    try {
        result.comparison = compare(columns, *cache, control);
    } catch (const quant::Cancelled &) {
        result.cancelled = true;
    } catch (const Error &error) {
        result.error = error.message();
    } catch (const std::bad_alloc &) {
        result.error = QStringLiteral("out of memory");
    }
    promise.addResult(std::move(result));
}

} // namespace

ComparisonRunner::ComparisonRunner(QObject *parent)
    : QObject(parent), m_cache(std::make_shared<AccuracyCache>())
{
    connect(&m_watcher, &QFutureWatcherBase::progressValueChanged, this, &ComparisonRunner::progressChanged);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &ComparisonRunner::collect);
}

ComparisonRunner::~ComparisonRunner()
{
    cancel();
    m_watcher.waitForFinished();
}

void ComparisonRunner::start(const QList<ComparisonColumn> &columns)
{
    const bool wasRunning = m_watcher.isRunning();
    cancel();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    ++m_started;
    // The superseded run keeps its own flag and cache pointer; its result is never collected.
    m_watcher.setFuture(QtConcurrent::run(runComparison, columns, m_cache, m_cancel));
    Q_EMIT progressChanged(0);
    if (!wasRunning)
        Q_EMIT runningChanged(true);
}

void ComparisonRunner::cancel()
{
    if (m_cancel && !m_cancel->exchange(true) && m_watcher.isRunning())
        ++m_cancelled;
}

void ComparisonRunner::collect()
{
    const QFuture<ComparisonJobResult> future = m_watcher.future();
    if (future.resultCount() == 0 || future.result().cancelled) {
        if (!m_watcher.isRunning())
            Q_EMIT runningChanged(false);
        return;
    }
    const ComparisonJobResult result = future.result();
    Q_EMIT runningChanged(false);
    if (result.comparison)
        Q_EMIT finished(*result.comparison);
    else
        Q_EMIT failed(result.error);
}

} // namespace kvscope
