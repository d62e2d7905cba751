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
};

CompareMemoryChartData compareMemoryChartData(const Comparison &comparison);

/// Columns column,label,part,bytes,beyond_budget_bytes,share_of_budget_bp: each
/// column's memory bar as breakdownCsv() writes it, the column's index (0 = first)
/// and label before every row.
QByteArray compareMemoryCsv(const CompareMemoryChartData &data);

/// One group of bars: a row of the comparison, a bar per column.
struct CompareBarGroup
{
    CompareRow row;
    /// Each column's value as a share of the group's largest, in % (0 without a value):
    /// the bar's length, so that bars of different units share one axis.
    QList<double> sharePercent;
};

/// Capacity and speed as grouped bars: KV capacity (tokens), largest batch
/// that fits and decode tokens/s (every row where more is better and the
/// figure is not a share of another), each column's bar a share of the group's largest.
struct CompareSpeedChartData
{
    QStringList labels; ///< the columns' labels
    QList<CompareBarGroup> groups;
};

CompareSpeedChartData compareSpeedChartData(const Comparison &comparison);

/// Columns row,column,label,value,share_of_largest_percent,delta,delta_percent,best:
/// one line per bar; an empty cell where the core has no figure.
QByteArray compareSpeedCsv(const CompareSpeedChartData &data);

} // namespace kvscope
