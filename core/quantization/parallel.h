// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>

namespace kvscope::quant {

/// Thrown when a RunControl's cancel flag was set while work was running.
class Cancelled : public std::exception
{
public:
    const char *what() const noexcept override { return "cancelled"; }
};

/// How a caller steers long work: an atomic flag checked before every chunk,
/// and a progress callback in [0, 1] called on the calling thread only.
struct RunControl
{
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(double fraction)> progress;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(double fraction) const
    {
        if (progress)
            progress(fraction);
    }
    /// The same control with progress [0, 1] mapped onto [from, to].
    RunControl slice(double from, double to) const;
};

/// Runs work(chunk, worker) for every chunk in [0, chunks) on up to
/// `workers` threads: the calling thread is worker 0, and helpers 1, 2, ...
/// are threads of Qt's global pool taken only while one is free
/// (QThreadPool::tryStart), so runs inside that pool never wait for a helper
/// and all of them together stay within its maxThreadCount. Chunks are handed
/// out in order from a shared counter; a worker index is on one thread at a
/// time. Throws Cancelled when the flag was set, and rethrows the first
/// exception a chunk threw, after every helper ended.
void parallelChunks(std::int64_t chunks, int workers,
                    const std::function<void(std::int64_t chunk, int worker)> &work,
                    const RunControl &control);

/// Threads worth using for `chunks` chunks: the machine's cores, at most one per chunk.
int workerCount(std::int64_t chunks);

} // namespace kvscope::quant
