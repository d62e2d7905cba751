// SPDX-License-Identifier: MIT
// What a background run hands back: its result or why there is none, never an
// exception (one that reached the event loop would end the program).
#pragma once

#include <optional>

#include <QString>

namespace kvscope {

/// Why a background run has no result.
struct JobFailure
{
    /// What the user is shown: kvscope::Error's message, "out of memory", or
    /// "unexpected error: " and what another exception said.
    QString message;
    bool outOfMemory = false; ///< std::bad_alloc: a view may word it its own way
    bool cancelled = false;   ///< quant::Cancelled: the run was stopped, nobody waits for it
};

/// The failure the exception being handled stands for. Call it in a catch block only.
JobFailure currentFailure() noexcept;

/// A background run's result, or why there is none.
template <typename T> struct JobOutcome
{
    std::optional<T> result;
    JobFailure failure; ///< when there is no result
};

/// `work()`'s result, or the failure whatever it threw stands for.
template <typename T, typename Work> JobOutcome<T> catchEverything(Work &&work) noexcept
{
    JobOutcome<T> outcome;
    try {
        outcome.result.emplace(work());
    } catch (...) {
        outcome.failure = currentFailure();
    }
    return outcome;
}

} // namespace kvscope
