// SPDX-License-Identifier: MIT
#include "ui/charts/comparememorychart.h"

#include "core/common/units.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/niceaxis.h"
#include "ui/style/theme.h"

#include <algorithm>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QValueAxis>

namespace kvscope {

namespace {

/// The category a column is drawn at: the first column on top.
int categoryOf(int column, int columns)
{
    return columns - 1 - column;
}

} // namespace

CompareMemoryChartView::CompareMemoryChartView(QWidget *parent)
    : ChartView(QStringLiteral("compareMemoryChart"), QMargins(4, 4, 16, 4), parent),
      m_bars(new QHorizontalStackedBarSeries), m_budget(new QLineSeries), m_valueAxis(new QValueAxis),
      m_categoryAxis(new QBarCategoryAxis), m_lineAxis(new QValueAxis)
{
    setBaseMinimumHeight(280);
    QChart *chart = this->chart();
    for (int i = 0; i < MemoryPartCount; ++i) {
        m_sets[i] = new QBarSet(memoryPartName(MemoryPart(i)));
        m_bars->append(m_sets[i]);
    }
    m_bars->setBarWidth(0.7);
    chart->addSeries(m_bars);
    chart->addSeries(m_budget);
    chart->addAxis(m_valueAxis, Qt::AlignBottom);
    chart->addAxis(m_categoryAxis, Qt::AlignLeft);
    chart->addAxis(m_lineAxis, Qt::AlignRight);
    m_lineAxis->setVisible(false);
    m_bars->attachAxis(m_valueAxis);
    m_bars->attachAxis(m_categoryAxis);
    m_budget->attachAxis(m_valueAxis);
    m_budget->attachAxis(m_lineAxis);
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    connect(chart, &QChart::plotAreaChanged, this, &CompareMemoryChartView::placeLabels);
    applyPalette();
    retranslate();
}

void CompareMemoryChartView::showComparison(const CompareMemoryChartData &data)
{
    m_data = data;
    const int columns = int(data.bars.size());
    QStringList categories;
    for (int category = 0; category < columns; ++category)
        categories << data.labels.at(categoryOf(category, columns));
    m_categoryAxis->setCategories(categories);
    m_lineAxis->setRange(-0.5, std::max(0, columns) - 0.5);
    if (data.axisMaxBytes > 0) {
        setNiceRangeFromZero(m_valueAxis, toGiB(data.axisMaxBytes) * 1.02);
    } else {
        m_valueAxis->setRange(0, 1);
    }
    for (int part = 0; part < MemoryPartCount; ++part) {
        QList<qreal> values;
        for (int category = 0; category < columns; ++category) {
            const BreakdownSegment *segment =
                data.bars.at(categoryOf(category, columns)).segment(MemoryPart(part));
            values << (segment ? toGiB(segment->bytes) : 0.0);
        }
        m_sets[part]->remove(0, m_sets[part]->count());
        m_sets[part]->append(values);
    }
    // The budget of each bar across its band: one straight line when the columns share it.
    QList<QPointF> budget;
    for (int category = 0; category < columns; ++category) {
        const double gib = toGiB(data.bars.at(categoryOf(category, columns)).budgetBytes);
        budget << QPointF(gib, category - 0.5) << QPointF(gib, category + 0.5);
    }
    m_budget->replace(budget);

    while (m_overflow.size() < columns) {
        auto *region = new QGraphicsRectItem(chart());
        region->setZValue(9); // over the bars, under the size labels
        m_overflow << region;
    }
    while (m_labels.size() < qsizetype(columns) * MemoryPartCount) {
        auto *label = new QGraphicsSimpleTextItem(chart());
        label->setZValue(10);
        m_labels << label;
    }
    applyPalette();
    retranslate();
    placeLabels();
}

void CompareMemoryChartView::placeLabels()
{
    const int columns = int(m_data.bars.size());
    const double halfBar = m_bars->barWidth() / 2;
    for (int i = 0; i < m_labels.size(); ++i) {
        QGraphicsSimpleTextItem *label = m_labels.at(i);
        const int column = i / MemoryPartCount;
        const MemoryPart part = MemoryPart(i % MemoryPartCount);
        const BreakdownSegment *segment = column < columns ? m_data.bars.at(column).segment(part) : nullptr;
        if (!segment) {
            label->setVisible(false);
            continue;
        }
        double start = 0; // GiB before this part on its bar
        for (const BreakdownSegment &s : m_data.bars.at(column).segments) {
            if (s.part == part)
                break;
            start += toGiB(s.bytes);
        }
        const double category = categoryOf(column, columns);
        const QPointF left = chart()->mapToPosition(QPointF(start, category), m_bars);
        const QPointF right =
            chart()->mapToPosition(QPointF(start + toGiB(segment->bytes), category), m_bars);
        const QPointF top = chart()->mapToPosition(QPointF(start, category + halfBar), m_bars);
        label->setText(formatMemory(segment->bytes, QLocale()));
        const QRectF box = label->boundingRect();
        const bool roomy =
            right.x() - left.x() > box.width() + 8 && 2 * (left.y() - top.y()) > box.height() + 2;
        label->setVisible(roomy);
        label->setPos((left.x() + right.x() - box.width()) / 2, left.y() - box.height() / 2);
    }
    placeOverflow();
}

void CompareMemoryChartView::placeOverflow()
{
    const int columns = int(m_data.bars.size());
    const double halfBar = m_bars->barWidth() / 2;
    for (int column = 0; column < m_overflow.size(); ++column) {
        QGraphicsRectItem *region = m_overflow.at(column);
        const MemoryBreakdown *bar = column < columns ? &m_data.bars.at(column) : nullptr;
        region->setVisible(bar && bar->overflowBytes > 0);
        if (!region->isVisible())
            continue;
        const double category = categoryOf(column, columns);
        const QPointF from =
            chart()->mapToPosition(QPointF(toGiB(bar->budgetBytes), category + halfBar), m_bars);
        const QPointF to =
            chart()->mapToPosition(QPointF(toGiB(bar->demandBytes), category - halfBar), m_bars);
        region->setRect(QRectF(from, to).normalized());
    }
}

QList<LegendStrip::Entry> CompareMemoryChartView::legendEntries() const
{
    QList<LegendStrip::Entry> entries;
    for (int part = 0; part < MemoryPartCount; ++part) {
        const bool shown =
            std::any_of(m_data.bars.begin(), m_data.bars.end(),
                        [part](const MemoryBreakdown &b) { return b.segment(MemoryPart(part)) != nullptr; });
        if (shown)
            entries.append({memoryPartName(MemoryPart(part)), theme::partColor(MemoryPart(part), palette()),
                            Qt::NoPen, false});
    }
    if (std::any_of(m_data.bars.begin(), m_data.bars.end(),
                    [](const MemoryBreakdown &b) { return b.overflowBytes > 0; }))
        entries.append({memoryPartName(MemoryPart::Overflow),
                        theme::partColor(MemoryPart::Overflow, palette()), Qt::NoPen, true});
    if (!m_data.bars.isEmpty())
        entries.append({tr("Budget %1").arg(formatMemory(m_data.bars.first().budgetBytes, QLocale())),
                        theme::budgetColor(palette()), Qt::DashLine, false});
    return entries;
}

void CompareMemoryChartView::retranslate()
{
    theme::setTitle(chart(), m_data.byStage ? tr("Memory per GPU by pipeline stage, GiB = 2^30 bytes")
                                            : tr("Memory per GPU by column, GiB = 2^30 bytes"));
    for (int i = 0; i < MemoryPartCount; ++i)
        m_sets[i]->setLabel(memoryPartName(MemoryPart(i)));
    Q_EMIT legendChanged();
}

void CompareMemoryChartView::applyPalette()
{
    ChartView::applyPalette();
    QFont font = theme::chartLabelFont();
    font.setBold(true);
    for (int i = 0; i < MemoryPartCount; ++i) {
        const QColor color = theme::partColor(MemoryPart(i), palette());
        m_sets[i]->setColor(color);
        m_sets[i]->setBorderColor(color);
    }
    for (int i = 0; i < m_labels.size(); ++i) {
        const MemoryPart part = MemoryPart(i % MemoryPartCount);
        // Headroom is drawn in a shade of the background: the text colour reads on it.
        m_labels[i]->setBrush(part == MemoryPart::Headroom
                                  ? palette().color(QPalette::Text)
                                  : theme::textOn(theme::partColor(part, palette())));
        m_labels[i]->setFont(font);
    }
    m_budget->setPen(QPen(theme::budgetColor(palette()), theme::lineWidth(2.5), Qt::DashLine));
    const QColor warning = theme::warningColor(palette());
    for (QGraphicsRectItem *region : std::as_const(m_overflow)) {
        region->setBrush(QBrush(warning, Qt::BDiagPattern));
        region->setPen(QPen(warning, theme::lineWidth(2)));
    }
    Q_EMIT legendChanged();
}

} // namespace kvscope
