// SPDX-License-Identifier: MIT
#include "core/compare/comparechart.h"

#include "core/common/csv.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

namespace kvscope {

namespace {

/// The rows the capacity-and-speed chart draws, in its order.
const CompareRowId speedChartRows[] = {CompareRowId::KvCapacityTokens, CompareRowId::LargestBatchThatFits,
                                       CompareRowId::DecodeTokensPerSecond};
/// The rows the accuracy chart draws, in its order.
const CompareRowId accuracyChartRows[] = {CompareRowId::WeightSqnrDb, CompareRowId::LayerOutputSqnrDb,
                                          CompareRowId::KvSqnrDb, CompareRowId::AttentionOutputSqnrDb};

const CompareRow *findRow(const Comparison &comparison, CompareRowId id)
{
    const auto row = std::find_if(comparison.rows.begin(), comparison.rows.end(),
                                  [id](const CompareRow &r) { return r.id == id; });
    return row == comparison.rows.end() ? nullptr : &*row;
}

QStringList columnLabels(const Comparison &comparison)
{
    QStringList labels;
    for (const ComparedColumn &column : comparison.columns)
        labels << column.label;
    return labels;
}

/// A figure in full: an integer row's as an integer (the doubles hold them exactly).
QByteArray figure(const std::optional<double> &value, bool integral)
{
    if (!value)
        return {};
    return integral ? csv::integer(std::int64_t(*value)) : csv::decimal(*value);
}

/// One line per bar; the fifth column the bar's length (`lengthColumn` "share_of_largest_percent"),
/// or whether the column is lossless ("lossless": its SQNR is the bar).
QByteArray barsCsv(const CompareBarsChartData &data, const QByteArray &lengthColumn)
{
    QByteArray out = "row,column,label,value," + lengthColumn + ",delta,delta_percent,best\n";
    const bool lossless = lengthColumn == "lossless";
    for (const CompareBarGroup &group : data.groups)
        for (qsizetype i = 0; i < group.row.cells.size(); ++i) {
            const CompareCell &cell = group.row.cells.at(i);
            out +=
                csv::row({compareRowKey(group.row.id).toUtf8(), csv::integer(i),
                          csv::field(data.labels.value(i)), figure(cell.value, group.row.integral),
                          lossless ? QByteArray(cell.lossless ? "1" : "0") : csv::decimal(group.length.at(i)),
                          figure(cell.delta, group.row.integral), figure(cell.deltaPercent, false),
                          group.row.best.contains(int(i)) ? "1" : "0"});
        }
    return out;
}

} // namespace

CompareMemoryChartData compareMemoryChartData(const Comparison &comparison)
{
    CompareMemoryChartData d;
    for (const ComparedColumn &column : comparison.columns) {
        d.labels << column.label;
        d.bars << memoryBreakdown(column.plan);
        d.axisMaxBytes = std::max({d.axisMaxBytes, d.bars.last().gpuMemoryBytes, d.bars.last().demandBytes});
    }
    return d;
}

CompareMemoryChartData stageMemoryChartData(const MemoryPlan &plan)
{
    CompareMemoryChartData d;
    d.byStage = true;
    d.bars = stageBreakdowns(plan);
    for (const PipelineStagePlan &stage : plan.pipelineStages)
        d.labels << QCoreApplication::translate("kvscope::Planner", "Stage %1 · layers %2–%3%4")
                        .arg(stage.index + 1)
                        .arg(stage.firstLayer)
                        .arg(stage.firstLayer + stage.layers - 1)
                        .arg(stage.index == plan.bindingStage
                                 ? QCoreApplication::translate("kvscope::Planner", " · fewest blocks")
                                 : QString());
    for (const MemoryBreakdown &bar : std::as_const(d.bars))
        d.axisMaxBytes = std::max({d.axisMaxBytes, bar.gpuMemoryBytes, bar.demandBytes});
    return d;
}

QByteArray compareMemoryCsv(const CompareMemoryChartData &data)
{
    QByteArray out = "column,label,part,bytes,beyond_budget_bytes,share_of_budget_bp\n";
    for (qsizetype i = 0; i < data.bars.size(); ++i) {
        const MemoryBreakdown &bar = data.bars.at(i);
        const QByteArray index = csv::integer(i);
        const QByteArray label = csv::field(data.labels.at(i));
        for (const BreakdownSegment &segment : bar.segments)
            out += csv::row({index, label, memoryPartKey(segment.part), csv::integer(segment.bytes),
                             csv::integer(segment.beyondBudgetBytes), csv::integer(segment.basisPoints)});
        out += csv::row({index, label, "budget", csv::integer(bar.budgetBytes), "0", "10000"});
        out += csv::row({index, label, "gpu_memory", csv::integer(bar.gpuMemoryBytes), "", ""});
        if (bar.overflowBytes > 0)
            out += csv::row({index, label, "overflow", csv::integer(bar.overflowBytes),
                             csv::integer(bar.overflowBytes), csv::integer(bar.overflowBasisPoints)});
    }
    return out;
}

CompareBarsChartData compareSpeedChartData(const Comparison &comparison)
{
    CompareBarsChartData d;
    d.labels = columnLabels(comparison);
    for (const CompareRowId id : speedChartRows) {
        const CompareRow *row = findRow(comparison, id);
        if (!row)
            continue;
        CompareBarGroup group;
        group.row = *row;
        double largest = 0;
        for (const CompareCell &cell : row->cells)
            largest = std::max(largest, cell.value.value_or(0.0));
        for (const CompareCell &cell : row->cells)
            group.length << (largest > 0 ? cell.value.value_or(0.0) / largest * 100.0 : 0.0);
        d.groups << group;
    }
    return d;
}

CompareBarsChartData compareAccuracyChartData(const Comparison &comparison)
{
    CompareBarsChartData d;
    d.labels = columnLabels(comparison);
    double largest = 0;
    for (const CompareRowId id : accuracyChartRows) {
        const CompareRow *row = findRow(comparison, id);
        if (!row)
            continue;
        CompareBarGroup group;
        group.row = *row;
        for (const CompareCell &cell : row->cells) {
            group.length << std::max(0.0, cell.value.value_or(0.0));
            largest = std::max(largest, group.length.last());
        }
        d.groups << group;
    }
    d.axisMax = std::max(10.0, std::ceil(largest / 10.0) * 10.0);
    return d;
}

QByteArray compareSpeedCsv(const CompareBarsChartData &data)
{
    return barsCsv(data, "share_of_largest_percent");
}

QByteArray compareAccuracyCsv(const CompareBarsChartData &data)
{
    return barsCsv(data, "lossless");
}

} // namespace kvscope
