// SPDX-License-Identifier: MIT
#include "core/quantization/parallel.h"

#include <algorithm>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include <QThread>

namespace kvscope::quant {

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
    std::atomic<std::int64_t> next{0};
    std::atomic<std::int64_t> done{0};
    std::exception_ptr firstError;
    std::mutex errorMutex;
    std::atomic<bool> failed{false};

    const auto loop = [&](int worker) {
        for (;;) {
            if (control.cancelled() || failed.load(std::memory_order_relaxed))
                return;
            const std::int64_t chunk = next.fetch_add(1, std::memory_order_relaxed);
            if (chunk >= chunks)
                return;
            try {
                work(chunk, worker);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!firstError)
                    firstError = std::current_exception();
                failed = true;
                return;
            }
            const std::int64_t finished = done.fetch_add(1, std::memory_order_relaxed) + 1;
            if (worker == 0)
                control.report(double(finished) / double(chunks));
        }
    };

    std::vector<std::thread> threads;
    for (int worker = 1; worker < workers; ++worker) {
        try {
            threads.emplace_back(loop, worker);
        } catch (const std::system_error &) {
            break; // no more threads: the ones running (and the caller) share the chunks
        }
    }
    loop(0);
    for (std::thread &thread : threads)
        thread.join();

    if (firstError)
        std::rethrow_exception(firstError);
    if (control.cancelled())
        throw Cancelled();
    control.report(1.0);
}

} // namespace kvscope::quant
