// SPDX-License-Identifier: MIT
#include "ui/export/reportpage.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/compare/comparetext.h"
#include "core/output/breakdown.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/growthchart.h"
#include "ui/explorer/figurespanel.h"
#include "ui/explorer/fitbanner.h"
#include "ui/style/theme.h"
#include "ui/widgets/legendstrip.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// A chart with its legend under it, the legend following the chart's entries.
void addChart(QVBoxLayout *layout, ChartView *chart, int stretch)
{
    layout->addWidget(chart, stretch);
    layout->addWidget(chart->makeLegend(chart->parentWidget()));
}

} // namespace

QString scenarioHeadline(const Scenario &s)
{
    return s.tensorParallelSize > 1
               ? QCoreApplication::translate("kvscope::ReportPage", "%1 on %2 × %3")
                     .arg(s.model.name, s.gpu.name)
                     .arg(s.tensorParallelSize)
               : QCoreApplication::translate("kvscope::ReportPage", "%1 on %2").arg(s.model.name, s.gpu.name);
}

QWidget *newReportPage(const ChartSource &source, QWidget *parent)
{
    auto *page = new QWidget(parent);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *headline = new QLabel(scenarioHeadline(source.scenario), page);
    headline->setObjectName(QStringLiteral("reportHeadline"));
    QFont font = theme::chartTitleFont();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    headline->setFont(font);
    layout->addWidget(headline);

    const MemoryPlan &plan = source.plan;
    auto *summary = new QLabel(page);
    summary->setWordWrap(true);
    summary->setText(
        QCoreApplication::translate("kvscope::ReportPage",
                                    "%8 %1 · %9 %2 · %10 %3 · batch %4 × %5 tokens · %11 %6 · %12 %7")
            .arg(dtypeName(source.scenario.dtype), quantizationChoiceName(source.scenario.quantization),
                 dtypeName(source.scenario.kvCacheDtype), formatCount(plan.batchSize),
                 formatCount(plan.seqLen), formatUtilization(plan.gpuMemoryUtilizationPpm),
                 formatCount(plan.maxModelLen), optionFlag(ScenarioField::Dtype),
                 optionFlag(ScenarioField::Quantization), optionFlag(ScenarioField::KvCacheDtype),
                 optionFlag(ScenarioField::GpuMemoryUtilization), optionFlag(ScenarioField::MaxModelLen)));
    layout->addWidget(summary);

    auto *banner = new FitBanner(page);
    banner->showPlan(plan, source.fixes);
    layout->addWidget(banner);
    auto *figures = new FiguresPanel(page);
    figures->showPlan(plan);
    layout->addWidget(figures);

    auto *breakdown = new BreakdownChartView(page);
    breakdown->showBreakdown(memoryBreakdown(plan), plan.tensorParallelSize);
    addChart(layout, breakdown, 2);
    auto *growth = new GrowthChartView(page);
    growth->showGrowth(growthChartData(source.scenario, plan, source.growthAxis, 96, source.growthScale,
                                       source.counterfactuals));
    if (!source.comparison) {
        addChart(layout, growth, 5);
        return page;
    }
    // With the Compare view's columns: its table beside the growth chart.
    auto *row = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    addChart(left, growth, 1);
    row->addLayout(left, 1);
    auto *table = new QLabel(CompareText::htmlTable(*source.comparison), page);
    table->setObjectName(QStringLiteral("reportComparison"));
    table->setTextFormat(Qt::RichText);
    table->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    row->addWidget(table, 1);
    layout->addLayout(row, 5);
    return page;
}

} // namespace kvscope
