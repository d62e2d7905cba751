// SPDX-License-Identifier: MIT
#include "ui/charts/comparebarschart.h"

#include "core/compare/comparetext.h"
#include "ui/style/theme.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QValueAxis>

namespace kvscope {

namespace {

/// Within a group Qt draws the first bar set lowest; the first column goes on top.
int setOf(int column, int columns)
{
    return columns - 1 - column;
}

} // namespace

CompareBarsChartView::CompareBarsChartView(CompareBars kind, QWidget *parent)
    : ChartView(kind == CompareBars::Accuracy ? QStringLiteral("compareAccuracyChart")
                                              : QStringLiteral("compareSpeedChart"),
                QMargins(4, 4, 16, 4), parent),
      m_kind(kind), m_bars(new QHorizontalBarSeries), m_valueAxis(new QValueAxis),
      m_categoryAxis(new QBarCategoryAxis)
{
    setBaseMinimumHeight(280);
    QChart *chart = this->chart();
    m_bars->setBarWidth(0.84);
    chart->addSeries(m_bars);
    chart->addAxis(m_valueAxis, Qt::AlignBottom);
    chart->addAxis(m_categoryAxis, Qt::AlignLeft);
    m_bars->attachAxis(m_valueAxis);
    m_bars->attachAxis(m_categoryAxis);
    m_valueAxis->setRange(0, 100);
    m_valueAxis->setTickCount(5);
    m_valueAxis->setLabelFormat(kind == CompareBars::Accuracy ? QStringLiteral("%.0f")
                                                              : QStringLiteral("%.0f%%"));
    connect(chart, &QChart::plotAreaChanged, this, &CompareBarsChartView::placeLabels);
    applyPalette();
    retranslate();
}

QBarSet *CompareBarsChartView::barSet(int column) const
{
    const int columns = int(m_sets.size());
    return column >= 0 && column < columns ? m_sets.at(setOf(column, columns)) : nullptr;
}

void CompareBarsChartView::showComparison(const CompareBarsChartData &data)
{
    m_data = data;
    const int columns = int(data.labels.size());
    const int groups = int(data.groups.size());
    if (m_sets.size() != columns) {
        m_bars->clear(); // deletes the sets
        m_sets.clear();
        for (int set = 0; set < columns; ++set) {
            m_sets << new QBarSet(QString());
            m_bars->append(m_sets.last());
        }
    }
    for (int column = 0; column < columns; ++column) {
        QList<qreal> values;
        for (int category = 0; category < groups; ++category)
            values << data.groups.at(groups - 1 - category).length.at(column);
        QBarSet *set = barSet(column);
        set->remove(0, set->count());
        set->append(values);
        set->setLabel(data.labels.at(column));
    }
    while (m_labels.size() < qsizetype(groups) * columns) {
        auto *label = new QGraphicsSimpleTextItem(chart());
        label->setZValue(10);
        m_labels << label;
    }
    for (int i = groups * columns; i < m_labels.size(); ++i)
        m_labels.at(i)->setVisible(false);
    m_valueAxis->setRange(0, data.axisMax); // places the labels: after they exist
    applyPalette();
    retranslate();
}

void CompareBarsChartView::placeLabels()
{
    const int columns = int(m_data.labels.size());
    const int groups = int(m_data.groups.size());
    const double band = m_bars->barWidth() / std::max(1, columns);
    const QRectF plot = chart()->plotArea();
    for (int g = 0; g < groups; ++g) {
        const CompareBarGroup &group = m_data.groups.at(g);
        const int category = groups - 1 - g;
        for (int column = 0; column < columns; ++column) {
            QGraphicsSimpleTextItem *label = m_labels.at(g * columns + column);
            const double centre = category - m_bars->barWidth() / 2 + (setOf(column, columns) + 0.5) * band;
            const QPointF end = chart()->mapToPosition(QPointF(group.length.at(column), centre), m_bars);
            const QPointF start = chart()->mapToPosition(QPointF(0, centre), m_bars);
            const QRectF box = label->boundingRect();
            // Inside the bar's end where it has room, else just past it.
            const bool inside = end.x() - start.x() > box.width() + 12;
            double x = inside ? end.x() - box.width() - 6 : end.x() + 6;
            x = std::min(x, plot.right() - box.width());
            label->setPos(x, end.y() - box.height() / 2);
            label->setBrush(inside ? theme::textOn(theme::columnColor(column, palette()))
                                   : palette().color(QPalette::Text));
            label->setVisible(true);
        }
    }
}

QList<LegendStrip::Entry> CompareBarsChartView::legendEntries() const
{
    QList<LegendStrip::Entry> entries;
    for (int column = 0; column < m_data.labels.size(); ++column)
        entries.append({m_data.labels.at(column), theme::columnColor(column, palette()), Qt::NoPen, false});
    return entries;
}

void CompareBarsChartView::retranslate()
{
    const bool accuracy = m_kind == CompareBars::Accuracy;
    theme::setTitle(chart(), accuracy ? tr("Accuracy by column") : tr("Capacity and speed by column"));
    m_valueAxis->setTitleText(accuracy ? tr("SQNR in dB (simulated; higher is better)")
                                       : tr("share of the largest in each group"));
    const int groups = int(m_data.groups.size());
    QStringList categories;
    for (int category = 0; category < groups; ++category)
        categories << CompareText::rowLabel(m_data.groups.at(groups - 1 - category).row.id);
    if (m_categoryAxis->categories() != categories)
        m_categoryAxis->setCategories(categories);
    const int columns = int(m_data.labels.size());
    for (int g = 0; g < groups; ++g) {
        const CompareRow &row = m_data.groups.at(g).row;
        for (int column = 0; column < columns; ++column) {
            QGraphicsSimpleTextItem *label = m_labels.at(g * columns + column);
            label->setText(CompareText::cell(row, row.cells.at(column)));
            QFont font = theme::chartLabelFont();
            font.setBold(row.best.contains(column));
            label->setFont(font);
        }
    }
    placeLabels();
    Q_EMIT legendChanged();
}

void CompareBarsChartView::applyPalette()
{
    ChartView::applyPalette();
    for (int column = 0; column < m_sets.size(); ++column) {
        const QColor color = theme::columnColor(column, palette());
        barSet(column)->setColor(color);
        barSet(column)->setBorderColor(color);
    }
    placeLabels(); // their colour: white inside a bar, the text's outside
    Q_EMIT legendChanged();
}

} // namespace kvscope
