// SPDX-License-Identifier: MIT
#include "ui/quantization/histogramchartview.h"

#include <algorithm>

#include <QApplication>
#include <QChart>
#include <QFontMetrics>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

namespace kvscope {

HistogramChartView::HistogramChartView(const QString &objectName, Qt::Alignment legendAlignment,
                                       QWidget *parent)
    : ChartView(objectName, QMargins(4, 4, 4, 4), parent)
{
    QChart *c = chart();
    c->legend()->setVisible(true);
    c->legend()->setAlignment(legendAlignment);
    m_x = new QValueAxis(this);
    m_x->setLabelFormat(QStringLiteral("%.3g"));
    m_x->setTickCount(5);
    m_linearY = new QValueAxis(this);
    m_linearY->setLabelFormat(QStringLiteral("%.3g"));
    m_logY = new QLogValueAxis(this);
    m_logY->setLabelFormat(QStringLiteral("%.0e"));
    m_logY->setBase(10);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_linearY, Qt::AlignLeft);
    connect(c, &QChart::plotAreaChanged, this, &HistogramChartView::fitXTicks);
}

void HistogramChartView::applyPalette()
{
    ChartView::applyPalette();
    // The count axis off the chart misses the chart's colours: give it the same.
    for (QAbstractAxis *y : {static_cast<QAbstractAxis *>(m_linearY), static_cast<QAbstractAxis *>(m_logY)}) {
        y->setLabelsColor(m_x->labelsColor());
        y->setLabelsFont(m_x->labelsFont());
        y->setTitleBrush(m_x->titleBrush());
        y->setGridLineColor(m_x->gridLineColor());
        y->setLinePen(m_x->linePen());
    }
    QFont legendFont = QApplication::font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9); // eleven schemes fit one column
    chart()->legend()->setFont(legendFont);
}

QList<QPointF> HistogramChartView::stepPoints(const quant::Histogram &histogram, bool logY)
{
    QList<QPointF> points;
    points.reserve(qsizetype(histogram.bins()) * 2);
    for (int bin = 0; bin < histogram.bins(); ++bin) {
        const double count = histogram.counts[bin];
        const double y = logY && count < 1 ? 0.5 : count;
        points << QPointF(histogram.binLower(bin), y) << QPointF(histogram.binLower(bin + 1), y);
    }
    return points;
}

QLineSeries *HistogramChartView::createSeries()
{
    auto *series = new QLineSeries;
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_logActive ? static_cast<QAbstractAxis *>(m_logY) : m_linearY);
    return series;
}

QLineSeries *HistogramChartView::pooledSeries(QList<QLineSeries *> &pool, int index, int count)
{
    trimPool(pool, count);
    while (pool.size() <= index)
        pool << createSeries();
    return pool[index];
}

void HistogramChartView::trimPool(QList<QLineSeries *> &pool, int count)
{
    while (pool.size() > count) {
        QLineSeries *last = pool.takeLast();
        chart()->removeSeries(last);
        delete last;
    }
}

void HistogramChartView::useLogAxis(bool logY)
{
    if (logY != m_logActive) {
        QAbstractAxis *from = logY ? static_cast<QAbstractAxis *>(m_linearY) : m_logY;
        QAbstractAxis *to = logY ? static_cast<QAbstractAxis *>(m_logY) : m_linearY;
        chart()->removeAxis(from);
        from->setParent(this); // the chart gave it up; keep it for the next switch
        chart()->addAxis(to, Qt::AlignLeft);
        const QList<QAbstractSeries *> all = chart()->series();
        for (QAbstractSeries *series : all)
            series->attachAxis(to);
        m_logActive = logY;
    }
}

void HistogramChartView::setRanges(double xMin, double xMax, double maxCount)
{
    if (!(xMax > xMin))
        xMax = xMin + 1; // Qt ignores an empty range
    m_xMin = xMin;
    m_xMax = xMax;
    m_xTicks.reset(); // a new range: fitted afresh
    fitXTicks();
    const double top = std::max(maxCount, 1.0);
    if (m_logActive)
        m_logY->setRange(0.5, top * 2);
    else
        m_linearY->setRange(0, top * 1.05);
}

void HistogramChartView::fitXTicks()
{
    // A %.3g label is at most about "-0.000" wide; a gap of one more such width keeps them apart.
    const double labelWidth =
        2.0 * QFontMetrics(m_x->labelsFont()).horizontalAdvance(QStringLiteral("-0.000"));
    if (!m_xTicks.update(chart()->plotArea().width(), labelWidth))
        return;
    m_x->setRange(m_xMin, m_xMax);
    m_x->setTickCount(m_xTicks.ticks());
    m_x->applyNiceNumbers(); // round ticks; the range only grows
}

} // namespace kvscope
