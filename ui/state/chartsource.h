// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/fixes.h"
#include "core/analysis/growthoptions.h"
#include "core/compare/attentionpicture.h"
#include "core/compare/comparison.h"
#include "core/document/scenariofile.h"
#include "core/plan/memoryplan.h"
#include "core/quantization/quantrun.h"
#include "core/quantization/scheme.h"
#include "core/scenario/scenario.h"

#include <optional>

namespace kvscope {

/// Everything a chart is drawn from, in the window or headless: the
/// explorer's scenario, plan and growth axis and scale, the Quantization view's
/// outcome with its display choices, and the Compare view's comparison. The window fills it from its views;
/// `kvscope export` from the command line or a scenario file.
struct ChartSource
{
    Scenario scenario;
    MemoryPlan plan;
    QList<Fix> fixes; ///< what would make the plan fit (the banner, the JSON's "fixes")
    GrowthAxis growthAxis = GrowthAxis::SequenceLength;
    AxisScale growthScale = AxisScale::Linear; ///< the growth chart's horizontal spacing
    bool counterfactuals = false;              ///< the growth chart's "as if MHA / no window" lines

    QuantizationChoices quantChoices;         ///< what was simulated, and the histogram kind and count axis
    std::optional<quant::QuantOutcome> quant; ///< the simulation's outcome (absent: no quantization chart)
    quant::Scheme gridScheme;                 ///< whose grid the values chart draws
    std::int64_t gridRow = 0;                 ///< the inspected element: its row ...
    std::int64_t gridColumn = 0;              ///< ... and column pick the grid's group
    QString gridName;                         ///< the grid's legend name ("int4-g128, row 0, group 0")

    /// The attention tab's picture (absent: no attention chart).
    std::optional<AttentionPicture> attention;

    /// The Compare view's comparison (absent: no comparison chart; the report leaves it out).
    std::optional<Comparison> comparison;
    /// The scenario's accuracy (estimateAccuracy(); absent: the report leaves its accuracy out).
    std::optional<Accuracy> accuracy;
};

} // namespace kvscope
