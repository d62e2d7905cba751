// SPDX-License-Identifier: MIT
#include "ui/state/backgroundjob.h"

#include <QThreadPool>

namespace kvscope {

QThreadPool *computePool()
{
    return QThreadPool::globalInstance();
}

QThreadPool *pathPool()
{
    // Never deleted: QThreadPool's destructor waits for its threads, and one may be stuck on a path.
    static QThreadPool *const pool = [] {
        auto *p = new QThreadPool;
        // Each path that hangs holds a thread for good; the others keep the next reads going.
        p->setMaxThreadCount(8);
        return p;
    }();
    return pool;
}

namespace detail {

bool endRun(RunState &state)
{
    if (state.watcher)
        state.watcher->deleteLater();
    state.watcher = nullptr;
    return !state.cancel->load();
}

} // namespace detail

bool JobHandle::isRunning() const
{
    return m_state && m_state->watcher;
}

bool JobHandle::cancel()
{
    if (!m_state)
        return false;
    m_state->cancel->store(true);
    QFutureWatcherBase *watcher = m_state->watcher;
    if (!watcher)
        return false;
    m_state->watcher = nullptr;
    watcher->disconnect(); // no progress, no outcome: the run goes on unwatched until it sees the flag
    watcher->deleteLater();
    return true;
}

} // namespace kvscope
