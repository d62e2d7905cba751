// SPDX-License-Identifier: MIT
// What the Compare view's two charts draw, computed here from a Comparison
// (plain data, like SpeedChartData), and their data as CSV: the charts'
// "Copy data" and `kvscope export --chart compare-memory|compare-speed --out FILE.csv`.
#pragma once

#include "core/compare/comparison.h"
#include "core/output/breakdown.h"

#include <cstdint>

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace kvscope {

/// Each column's memory bar (memoryBreakdown() of its plan), drawn against one budget line.
struct CompareMemoryChartData
{
    QStringList labels;            ///< the columns' labels, first column first
    QList<MemoryBreakdown> bars;   ///< one per column
    std::int64_t axisMaxBytes = 0; ///< the largest GPU memory or demand of any column
    bool byStage = false;          ///< the bars are one plan's pipeline stages, not columns
};

CompareMemoryChartData compareMemoryChartData(const Comparison &comparison);

/// One plan's pipeline stages as bars ("Stage 2 · layers 40-79"), the stage that limits
/// the KV cache marked; the explorer draws them in place of its one bar.
CompareMemoryChartData stageMemoryChartData(const MemoryPlan &plan);

/// Columns column,label,part,bytes,beyond_budget_bytes,share_of_budget_bp: each
/// column's memory bar as breakdownCsv() writes it, the column's index (0 = first)
/// and label before every row.
QByteArray compareMemoryCsv(const CompareMemoryChartData &data);

/// One group of bars: a row of the comparison, a bar per column.
struct CompareBarGroup
{
    CompareRow row;
    /// Each column's bar, on the chart's axis (0 without a value): for capacity and speed its
    /// value as a share of the group's largest, in % (so that bars of different units share one
    /// axis); for accuracy its SQNR in dB.
    QList<double> length;
};

/// Grouped bars, a group per row of the comparison and a bar per column.
struct CompareBarsChartData
{
    QStringList labels; ///< the columns' labels
    QList<CompareBarGroup> groups;
    double axisMax = 100; ///< the axis runs from 0 to this: 100 (%), or the largest SQNR rounded up
};

/// Capacity and speed: KV capacity (tokens), largest batch that fits and decode tokens/s (every
/// row where more is better and the figure is not a share of another), each column's bar a
/// share of the group's largest.
CompareBarsChartData compareSpeedChartData(const Comparison &comparison);

/// Accuracy: weight SQNR and KV SQNR, each column's bar its figure in dB (the comparison's own
/// row values) on one axis from 0 to the largest figure rounded up to 10 dB; a lossless column,
/// or one whose format is not modelled, has no bar (its label says which).
CompareBarsChartData compareAccuracyChartData(const Comparison &comparison);

/// Columns row,column,label,value,share_of_largest_percent,delta,delta_percent,best:
/// one line per bar; an empty cell where the core has no figure.
QByteArray compareSpeedCsv(const CompareBarsChartData &data);

/// Columns row,column,label,value,lossless,delta,delta_percent,best: each bar of the accuracy
/// chart, its value the SQNR in dB (empty where lossless, lossless 1, or not modelled).
QByteArray compareAccuracyCsv(const CompareBarsChartData &data);

} // namespace kvscope
