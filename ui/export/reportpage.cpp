// SPDX-License-Identifier: MIT
#include "ui/export/reportpage.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/compare/comparetext.h"
#include "core/output/breakdown.h"
#include "core/output/scenariolabel.h"
#include "core/output/stepbreakdown.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/growthchart.h"
#include "ui/charts/memorychart.h"
#include "ui/charts/stepbreakdownchart.h"
#include "ui/explorer/figurespanel.h"
#include "ui/explorer/fitbanner.h"
#include "ui/explorer/speedpanel.h"
#include "ui/style/theme.h"
#include "ui/widgets/legendstrip.h"

#include <QCoreApplication>
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

/// A section's title, in the charts' title font.
QLabel *newSectionTitle(const QString &text, QWidget *parent)
{
    auto *title = new QLabel(text, parent);
    title->setFont(theme::chartTitleFont());
    return title;
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
    layout->addWidget(newSectionTitle(StepBreakdownChartView::title(), box));
    auto *table = new QLabel(stepBreakdownTable(data, page->palette()), box);
    table->setObjectName(QStringLiteral("reportStepBreakdown"));
    table->setTextFormat(Qt::RichText);
    table->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(table);
    layout->addStretch(1);
    return box;
}

/// The speed cards as the window shows them (a dash and the reason when the engine would not
/// start), then where the time of a step goes.
QWidget *newSpeedSection(const MemoryPlan &plan, QWidget *page)
{
    auto *box = new QWidget(page);
    box->setObjectName(QStringLiteral("reportSpeed"));
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(newSectionTitle(QCoreApplication::translate("kvscope::ReportPage", "Speed"), box));
    auto *cards = new SpeedPanel(box);
    cards->setBreakdownChartVisible(false);
    cards->showSpeed(plan.speed);
    layout->addWidget(cards);
    if (QWidget *steps = newStepBreakdown(plan, box))
        layout->addWidget(steps);
    return box;
}

/// The scenario's weight and KV errors, their notes, what they were simulated on and what SQNR is.
QWidget *newAccuracySection(const Accuracy &accuracy, QWidget *page)
{
    auto *box = new QWidget(page);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(newSectionTitle(QCoreApplication::translate("kvscope::ReportPage", "Accuracy"), box));
    QStringList lines;
    for (const AccuracyLine &line : CompareText::accuracyLines(accuracy))
        lines << (line.part.isEmpty() ? line.text.toHtmlEscaped()
                                      : QStringLiteral("<b>%1</b> %2")
                                            .arg(line.part.toHtmlEscaped(), line.text.toHtmlEscaped()));
    for (const QString &note : CompareText::accuracyNotes(accuracy))
        lines << QStringLiteral("<small>%1</small>").arg(note.toHtmlEscaped());
    QStringList simulatedOn;
    CompareText::addSimulatedOn(simulatedOn, accuracy);
    const QString caveat =
        simulatedOn.isEmpty()
            ? QCoreApplication::translate("kvscope::ReportPage", "SQNR: %1.")
                  .arg(CompareText::accuracyCaveat())
            : QCoreApplication::translate("kvscope::ReportPage", "SQNR: %1. Simulated on %2.")
                  .arg(CompareText::accuracyCaveat(), simulatedOn.join(QStringLiteral("; ")));
    lines << QStringLiteral("<small>%1</small>").arg(caveat.toHtmlEscaped());
    auto *text = new QLabel(lines.join(QStringLiteral("<br>")), box);
    text->setObjectName(QStringLiteral("reportAccuracy"));
    text->setTextFormat(Qt::RichText);
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(text);
    return box;
}

/// A part and a side part: beside it on a wide page (a slide), under it on a
/// narrow one (A4 portrait), where beside it would squeeze the part. Under it
/// until laid out wide: a first layout side by side would make the page as wide
/// as both need, past a narrow page's edge.
class BesideOrUnder : public QWidget
{
    static constexpr int MinimumMainWidth = 700;

public:
    BesideOrUnder(QWidget *main, QWidget *side, QWidget *parent)
        : QWidget(parent), m_side(side), m_box(new QBoxLayout(QBoxLayout::TopToBottom, this))
    {
        m_box->setContentsMargins(0, 0, 0, 0);
        m_box->addWidget(main, 1);
        if (side) {
            // As wide (or tall) as the part. Its word-wrapped texts' minimum heights (taken at a
            // narrow width) must not make the page taller than the paper.
            side->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
            m_box->addWidget(side, 1);
        }
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        // Beside it where the part keeps MinimumMainWidth (the comparison's table is wide).
        const bool wide = !m_side || width() >= m_side->sizeHint().width() + MinimumMainWidth;
        m_box->setDirection(wide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
        if (m_side) // under it, as tall as it needs
            m_side->setSizePolicy(QSizePolicy::Preferred,
                                  wide ? QSizePolicy::Ignored : QSizePolicy::Preferred);
        QWidget::resizeEvent(event);
    }

private:
    QWidget *m_side;
    QBoxLayout *m_box;
};

} // namespace

QString scenarioHeadline(const Scenario &s)
{
    return s.gpuCount() > 1
               ? QCoreApplication::translate("kvscope::ReportPage", "%1 on %2 × %3")
                     .arg(s.model.name, s.gpu.name)
                     .arg(s.gpuCount())
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
    const ResolvedPrecisions precisions = resolvedPrecisions(plan);
    auto *summary = new QLabel(page);
    summary->setObjectName(QStringLiteral("reportSummary"));
    summary->setWordWrap(true);
    summary->setText(
        QCoreApplication::translate("kvscope::ReportPage",
                                    "%8 %1 · %9 %2 · %10 %3 · batch %4 × %5 tokens · %11 %6 · %12 %7")
            .arg(precisions.dtype, precisions.quantization, precisions.kvCacheDtype,
                 formatCount(plan.batchSize), formatCount(plan.seqLen),
                 formatUtilization(plan.gpuMemoryUtilizationPpm), formatCount(plan.maxModelLen),
                 optionFlag(ScenarioField::Dtype), optionFlag(ScenarioField::Quantization),
                 optionFlag(ScenarioField::KvCacheDtype), optionFlag(ScenarioField::GpuMemoryUtilization),
                 optionFlag(ScenarioField::MaxModelLen)));
    layout->addWidget(summary);

    auto *banner = new FitBanner(page);
    banner->showPlan(plan, source.fixes);
    layout->addWidget(banner);
    auto *figures = new FiguresPanel(page);
    figures->showPlan(plan);
    layout->addWidget(figures);

    // Memory and capacity as charts on one side; speed, accuracy and the comparison's table
    // (the Compare view's rows, "Runs?" first) on the other, or under them on a narrow page.
    auto *charts = new QWidget(page);
    auto *chartsLayout = new QVBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    addChart(chartsLayout, makeMemoryChart(plan, charts), plan.pipelineStages.isEmpty() ? 2 : 3);
    auto *growth = new GrowthChartView(charts);
    growth->showGrowth(growthChartData(source.scenario, plan, source.growthAxis, 96, source.growthScale,
                                       source.counterfactuals));
    addChart(chartsLayout, growth, 5);
    auto *side = new QWidget(page);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    if (source.comparison) {
        auto *table = new QLabel(CompareText::htmlTable(*source.comparison), side);
        table->setObjectName(QStringLiteral("reportComparison"));
        table->setTextFormat(Qt::RichText);
        table->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        sideLayout->addWidget(table);
    }
    sideLayout->addWidget(newSpeedSection(plan, side));
    if (source.accuracy)
        sideLayout->addWidget(newAccuracySection(*source.accuracy, side));
    sideLayout->addStretch(1);
    layout->addWidget(new BesideOrUnder(charts, side, page), 1);
    return page;
}

} // namespace kvscope
