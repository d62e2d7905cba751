// SPDX-License-Identifier: MIT
#include "ui/charts/breakdownchart.h"

#include "core/common/units.h"
#include "ui/charts/niceaxis.h"
#include "ui/style/theme.h"

#include <algorithm>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCoreApplication>
#include <QEvent>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

namespace kvscope {

QString memoryPartName(MemoryPart part)
{
    switch (part) {
    case MemoryPart::Weights:
        return QCoreApplication::translate("kvscope", "Weights");
    case MemoryPart::Activations:
        return QCoreApplication::translate("kvscope", "Activations");
    case MemoryPart::Overhead:
        return QCoreApplication::translate("kvscope", "Runtime overhead");
    case MemoryPart::CudaGraphs:
        return QCoreApplication::translate("kvscope", "CUDA graphs");
    case MemoryPart::KvCache:
        return QCoreApplication::translate("kvscope", "KV cache");
    case MemoryPart::RecurrentState:
        return QCoreApplication::translate("kvscope", "Recurrent state");
    case MemoryPart::Headroom:
        return QCoreApplication::translate("kvscope", "Headroom");
    case MemoryPart::Overflow:
        return QCoreApplication::translate("kvscope", "Over budget");
    }
    return {};
}

BreakdownChartView::BreakdownChartView(QWidget *parent)
    : ChartView(QStringLiteral("breakdownChart"), QMargins(4, 2, 12, 2), parent),
      m_bars(new QHorizontalStackedBarSeries), m_budget(new QLineSeries), m_physical(new QLineSeries),
      m_overflow(new QGraphicsRectItem), m_valueAxis(new QValueAxis), m_categoryAxis(new QBarCategoryAxis),
      m_lineAxis(new QValueAxis)
{
    setBaseMinimumHeight(110);
    QChart *chart = this->chart();
    for (QBarSet *&set : m_sets) {
        set = new QBarSet(QString());
        set->append(0);
        m_bars->append(set);
    }
    m_bars->setBarWidth(0.8);
    chart->addSeries(m_bars);
    chart->addSeries(m_budget);
    chart->addSeries(m_physical);

    m_categoryAxis->append(QStringLiteral("GPU"));
    m_categoryAxis->setVisible(false);
    chart->addAxis(m_valueAxis, Qt::AlignBottom);
    chart->addAxis(m_categoryAxis, Qt::AlignLeft);
    chart->addAxis(m_lineAxis, Qt::AlignRight);
    m_lineAxis->setRange(0, 1);
    m_lineAxis->setVisible(false);
    m_bars->attachAxis(m_valueAxis);
    m_bars->attachAxis(m_categoryAxis);
    for (QLineSeries *line : {m_budget, m_physical}) {
        line->attachAxis(m_valueAxis);
        line->attachAxis(m_lineAxis);
    }
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    for (int i = 0; i < MemoryPartCount; ++i)
        m_sets[i]->setLabel(memoryPartName(MemoryPart(i)));
    for (auto &label : m_labels) {
        label = new QGraphicsSimpleTextItem(chart);
        label->setZValue(10);
    }
    m_overflow->setParentItem(chart);
    m_overflow->setZValue(5); // over the bars, under the labels
    m_overflow->setVisible(false);
    connect(chart, &QChart::plotAreaChanged, this, &BreakdownChartView::placeLabels);
    applyPalette();
    retranslate();
}

void BreakdownChartView::showBreakdown(const MemoryBreakdown &breakdown, int tensorParallelSize)
{
    m_breakdown = breakdown;
    m_tensorParallelSize = tensorParallelSize;
    setNiceRangeFromZero(m_valueAxis,
                         toGiB(std::max(breakdown.gpuMemoryBytes, breakdown.demandBytes)) * 1.02);
    for (int i = 0; i < MemoryPartCount; ++i) {
        const BreakdownSegment *segment = breakdown.segment(MemoryPart(i));
        m_sets[i]->replace(0, segment ? toGiB(segment->bytes) : 0.0);
    }
    m_budget->replace({QPointF(toGiB(breakdown.budgetBytes), 0), QPointF(toGiB(breakdown.budgetBytes), 1)});
    m_physical->replace(
        {QPointF(toGiB(breakdown.gpuMemoryBytes), 0), QPointF(toGiB(breakdown.gpuMemoryBytes), 1)});
    retranslate();
    placeLabels();
}

void BreakdownChartView::placeLabels()
{
    // In-bar labels only where the segment is wide enough to hold them.
    double start = 0;
    double barTop = 0, barBottom = 0;
    for (int i = 0; i < MemoryPartCount; ++i) {
        QGraphicsSimpleTextItem *label = m_labels[i];
        const BreakdownSegment *segment = m_breakdown.segment(MemoryPart(i));
        const double value = segment ? toGiB(segment->bytes) : 0.0;
        const QPointF left = chart()->mapToPosition(QPointF(start, 0), m_bars);
        const QPointF right = chart()->mapToPosition(QPointF(start + value, 0), m_bars);
        start += value;
        if (!segment) {
            label->setVisible(false);
            continue;
        }
        label->setText(formatMemory(segment->bytes, QLocale()));
        const QRectF box = label->boundingRect();
        const bool roomy = right.x() - left.x() > box.width() + 8;
        label->setVisible(roomy);
        label->setPos((left.x() + right.x() - box.width()) / 2, left.y() - box.height() / 2);
        const double halfBar = chart()->plotArea().height() * m_bars->barWidth() / 2;
        barTop = left.y() - halfBar;
        barBottom = left.y() + halfBar;
    }
    // Past the budget line: hatched over the parts that run into it.
    m_overflow->setVisible(m_breakdown.overflowBytes > 0);
    if (m_breakdown.overflowBytes > 0) {
        const QPointF from = chart()->mapToPosition(QPointF(toGiB(m_breakdown.budgetBytes), 0), m_bars);
        const QPointF to = chart()->mapToPosition(QPointF(toGiB(m_breakdown.demandBytes), 0), m_bars);
        m_overflow->setRect(QRectF(QPointF(from.x(), barTop), QPointF(to.x(), barBottom)));
    }
}

QList<LegendStrip::Entry> BreakdownChartView::legendEntries() const
{
    const QLocale locale;
    QList<LegendStrip::Entry> entries;
    for (const BreakdownSegment &segment : m_breakdown.segments)
        entries.append({QStringLiteral("%1 %2 (%3)")
                            .arg(memoryPartName(segment.part), formatMemory(segment.bytes, locale),
                                 formatBudgetShare(segment.basisPoints, locale)),
                        theme::partColor(segment.part, palette()), Qt::NoPen, false});
    if (m_breakdown.overflowBytes > 0)
        entries.append(
            {QStringLiteral("%1 %2 (%3)")
                 .arg(memoryPartName(MemoryPart::Overflow), formatMemory(m_breakdown.overflowBytes, locale),
                      formatBudgetShare(m_breakdown.overflowBasisPoints, locale)),
             theme::partColor(MemoryPart::Overflow, palette()), Qt::NoPen, true});
    entries.append({tr("Budget %1").arg(formatMemory(m_breakdown.budgetBytes, locale)),
                    theme::budgetColor(palette()), Qt::DashLine, false});
    entries.append({tr("GPU memory %1").arg(formatMemory(m_breakdown.gpuMemoryBytes, locale)),
                    palette().color(QPalette::Mid), Qt::DotLine, false});
    return entries;
}

QString BreakdownChartView::summaryText() const
{
    QStringList lines;
    for (const LegendStrip::Entry &entry : legendEntries())
        lines << entry.text;
    return lines.join(QLatin1Char('\n'));
}

void BreakdownChartView::retranslate()
{
    theme::setTitle(chart(),
                    m_tensorParallelSize > 1
                        ? tr("Memory per GPU (each of %1), GiB = 2^30 bytes").arg(m_tensorParallelSize)
                        : tr("Memory per GPU, GiB = 2^30 bytes"));
    Q_EMIT legendChanged();
}

void BreakdownChartView::applyPalette()
{
    ChartView::applyPalette();
    for (int i = 0; i < MemoryPartCount; ++i) {
        const QColor color = theme::partColor(MemoryPart(i), palette());
        m_sets[i]->setColor(color);
        m_sets[i]->setBorderColor(color);
        const bool onLightFill = MemoryPart(i) == MemoryPart::Headroom;
        m_labels[i]->setBrush(onLightFill ? palette().color(QPalette::Text) : QColor(Qt::white));
        QFont font = theme::chartLabelFont();
        font.setBold(true);
        m_labels[i]->setFont(font);
    }
    const QColor warning = theme::warningColor(palette());
    m_overflow->setBrush(QBrush(warning, Qt::BDiagPattern));
    m_overflow->setPen(QPen(warning, theme::lineWidth(2)));
    m_budget->setPen(QPen(theme::budgetColor(palette()), theme::lineWidth(2.5), Qt::DashLine));
    m_physical->setPen(QPen(palette().color(QPalette::Mid), theme::lineWidth(2), Qt::DotLine));
    Q_EMIT legendChanged();
}

void BreakdownChartView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        for (int i = 0; i < MemoryPartCount; ++i)
            m_sets[i]->setLabel(memoryPartName(MemoryPart(i)));
    ChartView::changeEvent(event);
}

} // namespace kvscope
