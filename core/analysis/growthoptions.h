// SPDX-License-Identifier: MIT
// The growth chart's choices — its axis, its scale, the counterfactual lines —
// apart from the chart's data (growth.h), so that what stores or shows them
// (settings, scenario files, the theme) need not include the planner.
#pragma once

#include <cstdint>

#include <QString>

namespace kvscope {

enum class GrowthAxis
{
    SequenceLength,
    BatchSize
};

/// How the growth chart spaces its horizontal axis. KV memory grows linearly with
/// tokens and sequences: a linear axis shows that as a straight line; a
/// logarithmic one shows the whole range at once but bends the line.
enum class AxisScale
{
    Linear,
    Logarithmic
};

/// A model that differs from the scenario's in one feature, to show what the
/// feature saves.
enum class Counterfactual
{
    AsIfMha,          ///< every query head with its own K and V: no GQA sharing, no MLA latent
    AsIfAllLayersFull ///< every layer keeps every token: no sliding window, chunk, recurrent state or sharing
};

/// "linear" or "log": how settings and scenario files spell the scale.
QString axisScaleName(AxisScale scale);
/// Reads axisScaleName()'s spellings; throws kvscope::Error naming `option` and the text.
AxisScale parseAxisScale(const QString &text, const QString &option);

/// Where `x` sits on an axis of `scale`: x itself, or log2(x) (x >= 1).
double axisPosition(std::int64_t x, AxisScale scale);

/// "sequence" or "batch": how settings, scenario files and the command line spell the axis.
QString growthAxisName(GrowthAxis axis);
/// Reads growthAxisName()'s spellings; throws kvscope::Error naming `option` and the text.
GrowthAxis parseGrowthAxis(const QString &text, const QString &option);

} // namespace kvscope
