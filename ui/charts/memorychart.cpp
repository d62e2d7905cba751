// SPDX-License-Identifier: MIT
#include "ui/charts/memorychart.h"

#include "core/compare/comparechart.h"
#include "core/output/breakdown.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/comparememorychart.h"

namespace kvscope {

ChartView *makeMemoryChart(const MemoryPlan &plan, QWidget *parent)
{
    if (!plan.pipelineStages.isEmpty()) {
        auto *chart = new CompareMemoryChartView(parent);
        chart->showComparison(stageMemoryChartData(plan));
        return chart;
    }
    auto *chart = new BreakdownChartView(parent);
    chart->showBreakdown(memoryBreakdown(plan), plan.gpuCount());
    return chart;
}

} // namespace kvscope
