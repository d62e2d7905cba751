// SPDX-License-Identifier: MIT
#include "core/quantization/parallel.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>

#include <QThread>
#include <QThreadPool>

namespace kvscope::quant {

namespace {

/// What the calling thread and its helpers share. Each helper holds it by
/// shared_ptr: one that begins after the call returned still finds it.
struct ChunkQueue
{
    explicit ChunkQueue(std::int64_t chunks) : chunks(chunks) {}

    const std::int64_t chunks;
    std::atomic<std::int64_t> next{0}; ///< the next chunk to hand out
    std::atomic<std::int64_t> done{0};
    std::atomic<bool> failed{false};

    std::mutex mutex; ///< guards what follows
    std::condition_variable helperEnded;
    bool open = true; ///< until the caller is done with its share; a helper beginning later has none
    int working = 0;  ///< helpers that began and have not ended
    std::exception_ptr firstError;
};

/// Works on the next chunk from `queue` as `worker`; false when none is
/// left, the run was cancelled or a chunk threw (whose exception it keeps, if
/// it is the first).
bool workOnNext(ChunkQueue &queue, int worker,
                const std::function<void(std::int64_t chunk, int worker)> &work, const RunControl &control)
{
    if (control.cancelled() || queue.failed.load(std::memory_order_relaxed))
        return false;
    const std::int64_t chunk = queue.next.fetch_add(1, std::memory_order_relaxed);
    if (chunk >= queue.chunks)
        return false;
    try {
        work(chunk, worker);
    } catch (...) {
        const std::lock_guard lock(queue.mutex);
        if (!queue.firstError)
            queue.firstError = std::current_exception();
        queue.failed = true;
        return false;
    }
    const std::int64_t finished = queue.done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (worker == 0)
        control.report(double(finished) / double(queue.chunks));
    return true;
}

void workOn(ChunkQueue &queue, int worker, const std::function<void(std::int64_t chunk, int worker)> &work,
            const RunControl &control)
{
    while (workOnNext(queue, worker, work, control)) {
    }
}

} // namespace

RunControl RunControl::slice(double from, double to) const
{
    RunControl sliced;
    sliced.cancel = cancel;
    if (progress)
        sliced.progress = [outer = progress, from, to](double fraction) {
            outer(from + (to - from) * fraction);
        };
    return sliced;
}

int workerCount(std::int64_t chunks)
{
    return int(std::clamp<std::int64_t>(chunks, 1, std::max(1, QThread::idealThreadCount())));
}

void parallelChunks(std::int64_t chunks, int workers,
                    const std::function<void(std::int64_t chunk, int worker)> &work,
                    const RunControl &control)
{
    const auto queue = std::make_shared<ChunkQueue>(chunks);
    // The caller's first chunk comes before any helper's: its progress has a step before the end.
    const bool more = workOnNext(*queue, 0, work, control);
    // Helpers only from a free thread of the global pool, never queued: a run
    // inside the pool (the window's background runs) then never waits for one,
    // and the threads never outnumber the pool's maxThreadCount.
    QThreadPool *pool = QThreadPool::globalInstance();
    for (int worker = 1; more && worker < std::min<std::int64_t>(workers, chunks); ++worker) {
        bool started = false;
        try {
            started = pool->tryStart([queue, worker, &work, &control] {
                {
                    const std::lock_guard lock(queue->mutex);
                    if (!queue->open)
                        return; // began too late: `work` and `control` may be gone
                    ++queue->working;
                }
                workOn(*queue, worker, work, control);
                const std::lock_guard lock(queue->mutex);
                --queue->working;
                queue->helperEnded.notify_all();
            });
        } catch (const std::bad_alloc &) {
            // no memory for one more helper: those started (and the caller) share the chunks
        }
        if (!started)
            break;
    }
    workOn(*queue, 0, work, control);
    {
        // A helper the pool accepted but has not begun is not waited for (its thread may never come).
        std::unique_lock lock(queue->mutex);
        queue->open = false;
        queue->helperEnded.wait(lock, [&] { return queue->working == 0; });
    }

    if (queue->firstError)
        std::rethrow_exception(queue->firstError);
    if (control.cancelled())
        throw Cancelled();
    control.report(1.0);
}

} // namespace kvscope::quant
