// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <cstdint>

#include <QList>
#include <QStringList>

namespace kvscope {

struct Scenario;

/// Decode throughput against batch size for one KV dtype, at the scenario's --seq-len.
struct SpeedCurve
{
    KvCacheDtype kvCacheDtype = KvCacheDtype::BFloat16;
    QList<std::int64_t> batch;
    QList<double> tokensPerSecond;      ///< all sequences, with the efficiencies
    QList<double> tokensPerSecondIdeal; ///< the ideal roofline (efficiencies 1)
    /// Output tokens/s of steady-state serving with that many users (ServingCost),
    /// up to fitsUpTo; empty without a serving workload or for a curve not the plan's.
    QList<double> tokensPerSecondServing;
    /// Tokens/s with the scenario's drafter (--speculative-config) at each batch; empty without
    /// one, or for a curve not the plan's.
    QList<double> tokensPerSecondSpeculative;
    std::int64_t ridgeBatch = -1;      ///< where decode turns compute-bound; -1 = never
    std::int64_t ridgeBatchIdeal = -1; ///< the same on the ideal roofline
    std::int64_t fitsUpTo = 0;         ///< largest batch whose KV cache fits the budget
};

/// Everything a decode-throughput chart draws, computed here (plain data, like GrowthChartData).
struct SpeedChartData
{
    bool available = false; ///< false when the GPU lacks a figure the roofline needs
    QStringList notes;      ///< why not
    std::int64_t xMin = 1;
    std::int64_t xMax = 1;
    std::int64_t seqLen = 0;           ///< fixed along the batch axis
    std::int64_t servingPromptLen = 0; ///< the serving workload's prompt; 0 = no serving line
    std::int64_t servingOutputLen = 0; ///< and its output tokens
    std::int64_t draftTokens = 0;      ///< the drafter's drafts a step; 0 = no drafter line
    double acceptanceRate = 0;         ///< each draft's chance of acceptance
    std::int64_t currentX =
        0; ///< the sequences decoding at once: the batch, or what the KV cache holds of it
    double currentTokensPerSecond = 0;
    QList<SpeedCurve> curves; ///< one per KV precision on the walk (plus the plan's, if off the walk)
    int currentCurve = 0;     ///< the curve of the plan's KV dtype
};

/// Samples decode tokens/s at `points` log-spaced batch sizes over the batch
/// axis (1 to 4096, plus the current batch and each curve's ridge point).
SpeedChartData speedChartData(const Scenario &scenario, const MemoryPlan &plan, int points = 96);

} // namespace kvscope
