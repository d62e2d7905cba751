// SPDX-License-Identifier: MIT
#include "ui/export/reportpage.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/compare/comparetext.h"
#include "core/output/breakdown.h"
#include "core/output/stepbreakdown.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/growthchart.h"
#include "ui/charts/stepbreakdownchart.h"
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

/// A pass's time for a term as a table cell: "5.59 ms (62 %)", or a dash.
QString stepCell(const StepBar &bar, StepTerm term)
{
    const StepSegment *segment = bar.segment(term);
    return segment ? stepSegmentText(*segment) : QStringLiteral("—");
}

/// Where the time of a decode step and of the first token goes, term by term, each
/// term's name after a swatch of its colour in the speed breakdown chart.
QString stepBreakdownTable(const StepBreakdownChartData &data, const QPalette &palette)
{
    const auto cell = [](const QString &text, const char *align = "right") {
        return QStringLiteral("<td align=\"%1\" style=\"padding:1px 8px\">%2</td>")
            .arg(QLatin1String(align), text);
    };
    QString html = QStringLiteral("<table cellspacing=\"0\"><tr>") + cell(QString(), "left") +
                   cell(QStringLiteral("<b>%1</b>")
                            .arg(StepBreakdownChartView::passName(data, StepPass::Decode).toHtmlEscaped())) +
                   cell(QStringLiteral("<b>%1</b>")
                            .arg(StepBreakdownChartView::passName(data, StepPass::Prefill).toHtmlEscaped())) +
                   QStringLiteral("</tr>");
    for (std::size_t t = 0; t < StepTermCount; ++t) {
        const StepTerm term = StepTerm(t);
        if (!data.decode.segment(term) && !data.prefill.segment(term))
            continue;
        const QString swatch = QStringLiteral("<span style=\"color:%1\">■</span> ")
                                   .arg(theme::stepTermColor(term, palette).name());
        html += QStringLiteral("<tr>") + cell(swatch + stepTermName(term).toHtmlEscaped(), "left") +
                cell(stepCell(data.decode, term)) + cell(stepCell(data.prefill, term)) +
                QStringLiteral("</tr>");
    }
    html += QStringLiteral("<tr>") +
            cell(QStringLiteral("<b>%1</b>").arg(QCoreApplication::translate("kvscope::ReportPage", "Total")),
                 "left") +
            cell(QStringLiteral("<b>%1</b>").arg(formatDuration(data.decode.seconds))) +
            cell(QStringLiteral("<b>%1</b>").arg(formatDuration(data.prefill.seconds))) +
            QStringLiteral("</tr>");
    return html + QStringLiteral("</table>");
}

/// The speed breakdown as a table under its caption; null when speed is not computed.
QWidget *newStepBreakdown(const MemoryPlan &plan, QWidget *page)
{
    const StepBreakdownChartData data = stepBreakdownChartData(plan.speed);
    if (!data.available)
        return nullptr;
    auto *box = new QWidget(page);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *caption = new QLabel(StepBreakdownChartView::title(), box);
    caption->setFont(theme::chartTitleFont());
    layout->addWidget(caption);
    auto *table = new QLabel(stepBreakdownTable(data, page->palette()), box);
    table->setObjectName(QStringLiteral("reportStepBreakdown"));
    table->setTextFormat(Qt::RichText);
    table->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(table);
    layout->addStretch(1);
    return box;
}

/// A part and a side part: beside it on a wide page (a slide), under it on a
/// narrow one (A4 portrait), where beside it would squeeze the part. Under it
/// until laid out wide: a first layout side by side would make the page as wide
/// as both need, past a narrow page's edge.
class BesideOrUnder : public QWidget
{
public:
    BesideOrUnder(QWidget *main, QWidget *side, QWidget *parent)
        : QWidget(parent), m_side(side), m_box(new QBoxLayout(QBoxLayout::TopToBottom, this))
    {
        m_box->setContentsMargins(0, 0, 0, 0);
        m_box->addWidget(main, 1);
        if (side)
            m_box->addWidget(side);
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        const bool wide = !m_side || width() >= 2 * m_side->sizeHint().width();
        m_box->setDirection(wide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
        QWidget::resizeEvent(event);
    }

private:
    QWidget *m_side;
    QBoxLayout *m_box;
};

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
    auto *growthBox = new QWidget(page);
    auto *growthLayout = new QVBoxLayout(growthBox);
    growthLayout->setContentsMargins(0, 0, 0, 0);
    addChart(growthLayout, growth, 1);
    QWidget *steps = newStepBreakdown(plan, page);
    if (!source.comparison) {
        // The speed breakdown's table beside the growth chart, or under it.
        layout->addWidget(new BesideOrUnder(growthBox, steps, page), 5);
        return page;
    }
    // With the Compare view's columns: the speed breakdown under the growth chart, the
    // comparison's table beside them.
    auto *row = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    left->addWidget(growthBox, 1);
    if (steps)
        left->addWidget(steps);
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
