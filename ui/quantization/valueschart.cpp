// SPDX-License-Identifier: MIT
#include "ui/quantization/valueschart.h"

#include <algorithm>

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace kvscope {

ValuesChart::ValuesChart(QWidget *parent)
    : HistogramChartView(QStringLiteral("valuesChart"), Qt::AlignTop, parent) // two entries, one long
{
    m_histogram = createSeries();
    m_grid = createSeries();
    applyPalette();
    retranslate();
}

void ValuesChart::applyPalette()
{
    HistogramChartView::applyPalette();
    QPen pen(QColor(220, 60, 40, 150)); // translucent: the values show through the grid
    pen.setWidthF(1.0);
    m_grid->setPen(pen);
}

void ValuesChart::retranslate()
{
    chart()->setTitle(tr("Values and quantization grid"));
    m_x->setTitleText(tr("value w"));
    m_histogram->setName(tr("values"));
    nameGrid();
}

void ValuesChart::nameGrid()
{
    if (m_gridScheme.isEmpty())
        return;
    m_grid->setName(m_gridTooDense ? tr("grid of %1: too dense to draw").arg(m_gridScheme)
                                   : tr("grid of %1").arg(m_gridScheme));
}

void ValuesChart::setValues(const quant::Histogram &values, const quant::QuantizationGrid &grid,
                            const QString &gridName, bool logY)
{
    useLogAxis(logY);
    double top = 1;
    for (std::int64_t c : values.counts)
        top = std::max(top, double(c));
    m_histogram->replace(stepPoints(values, logY));

    // One comb: down the baseline to each grid value, up to the top, back down.
    const double base = logY ? 0.5 : 0.0;
    QList<QPointF> comb;
    comb.reserve(grid.values.size() * 3);
    for (double g : grid.values)
        comb << QPointF(g, base) << QPointF(g, top) << QPointF(g, base);
    m_grid->replace(comb);
    m_gridLines = int(grid.values.size());
    m_gridScheme = gridName;
    m_gridTooDense = grid.tooDense;
    nameGrid();
    setRanges(values.lo, values.hi, top);
}

} // namespace kvscope
