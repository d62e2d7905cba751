// SPDX-License-Identifier: MIT
#include "charts/breakdownchart.h"

#include "common/units.h"
#include "theme.h"

#include <algorithm>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCoreApplication>
#include <QEvent>
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

namespace {

QString percent(std::int64_t basisPoints)
{
    return QString::number(double(basisPoints) / 100.0, 'f', 1) + QLatin1Char('%');
}

} // namespace

BreakdownChartView::BreakdownChartView(QWidget *parent)
    : ChartView(QStringLiteral("breakdownChart"), QMargins(4, 2, 12, 2), parent),
      m_bars(new QHorizontalStackedBarSeries), m_budget(new QLineSeries), m_physical(new QLineSeries),
      m_valueAxis(new QValueAxis), m_categoryAxis(new QBarCategoryAxis), m_lineAxis(new QValueAxis)
{
    setMinimumHeight(110);
    QChart *chart = this->chart();
    for (int i = 0; i < MemoryPartCount; ++i) {
        m_sets[i] = new QBarSet(QString());
        m_sets[i]->append(0);
        m_bars->append(m_sets[i]);
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
    connect(chart, &QChart::plotAreaChanged, this, &BreakdownChartView::placeLabels);
    applyPalette();
    retranslate();
}

void BreakdownChartView::showBreakdown(const MemoryBreakdown &breakdown, int tensorParallelSize)
{
    m_breakdown = breakdown;
    m_tensorParallelSize = tensorParallelSize;
    m_valueAxis->setRange(0, toGiB(std::max(breakdown.gpuMemoryBytes, breakdown.demandBytes)) * 1.02);
    m_valueAxis->applyNiceNumbers();
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
        label->setText(formatGiB(segment->fullBytes));
        const QRectF box = label->boundingRect();
        const bool roomy = right.x() - left.x() > box.width() + 8;
        label->setVisible(roomy);
        label->setPos((left.x() + right.x() - box.width()) / 2, left.y() - box.height() / 2);
    }
}

QList<LegendStrip::Entry> BreakdownChartView::legendEntries() const
{
    QList<LegendStrip::Entry> entries;
    for (const BreakdownSegment &segment : m_breakdown.segments)
        entries.append({QStringLiteral("%1 %2 (%3)")
                            .arg(memoryPartName(segment.part), formatGiB(segment.fullBytes),
                                 percent(segment.basisPoints)),
                        theme::partColor(segment.part, palette()), Qt::NoPen,
                        segment.part == MemoryPart::Overflow});
    entries.append({tr("Budget %1").arg(formatGiB(m_breakdown.budgetBytes)), theme::budgetColor(palette()),
                    Qt::DashLine, false});
    entries.append({tr("GPU memory %1").arg(formatGiB(m_breakdown.gpuMemoryBytes)),
                    palette().color(QPalette::Mid), Qt::DotLine, false});
    return entries;
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
    m_budget->setPen(QPen(theme::budgetColor(palette()), 2.5, Qt::DashLine));
    m_physical->setPen(QPen(palette().color(QPalette::Mid), 2, Qt::DotLine));
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
