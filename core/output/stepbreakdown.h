// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/speedplan.h"

#include <cstdint>

#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

/// The forward passes the speed breakdown shows, one bar each.
enum class StepPass
{
    Decode,  ///< one decode step of the batch
    Prefill, ///< one prompt alone: the time to first token
};
inline constexpr int StepPassCount = 2;

/// One segment of a pass's bar: a term that takes time, and its share of the pass.
struct StepSegment
{
    StepTerm term = StepTerm::Weights;
    double seconds = 0;
    double share = 0; ///< of the pass, 0 to 1
};

/// Where the time of one pass goes.
struct StepBar
{
    StepPass pass = StepPass::Decode;
    double seconds = 0;          ///< the pass: the sum of its terms
    QList<StepSegment> segments; ///< the terms that take any time, in StepTerm order

    const StepSegment *segment(StepTerm term) const;
};

/// What the speed breakdown chart draws, computed from the plan's speed (plain data).
struct StepBreakdownChartData
{
    /// false when the GPU lacks a figure the step model needs, or the engine would not start
    bool available = false;
    QStringList notes; ///< why not (the engine's reason when it would not start)
    std::int64_t batchSize = 0;
    std::int64_t promptLen = 0;
    StepBar decode{StepPass::Decode, 0, {}};
    StepBar prefill{StepPass::Prefill, 0, {}};

    const StepBar &bar(StepPass pass) const { return pass == StepPass::Decode ? decode : prefill; }
};

StepBreakdownChartData stepBreakdownChartData(const SpeedPlan &speed);

/// A pass's key in CSV: "decode", "prefill".
QString stepPassKey(StepPass pass);

} // namespace kvscope
