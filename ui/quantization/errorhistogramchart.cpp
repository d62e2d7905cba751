// SPDX-License-Identifier: MIT
#include "ui/quantization/errorhistogramchart.h"

#include "ui/quantization/schemecolors.h"

#include <algorithm>

#include <QChart>
#include <QLineSeries>
#include <QPalette>
#include <QPen>
#include <QValueAxis>

namespace kvscope {

ErrorHistogramChart::ErrorHistogramChart(QWidget *parent)
    : HistogramChartView(QStringLiteral("errorChart"), Qt::AlignRight,
                         parent) // a column never truncates names
{
    applyPalette();
    retranslate();
}

void ErrorHistogramChart::applyPalette()
{
    HistogramChartView::applyPalette();
    colourSeries();
}

void ErrorHistogramChart::colourSeries()
{
    for (qsizetype i = 0; i < m_series.size() && i < m_schemes.size(); ++i) {
        QPen pen(schemeColor(m_schemes.at(i), palette()));
        pen.setWidthF(1.5);
        m_series[i]->setPen(pen);
    }
}

void ErrorHistogramChart::retranslate()
{
    const bool relative = m_kind == Kind::Relative;
    chart()->setTitle(relative ? tr("Relative error (w − w′) / |w|") : tr("Error w − w′"));
    m_x->setTitleText(relative ? tr("relative error") : tr("error"));
}

void ErrorHistogramChart::setResults(const QList<quant::SchemeResult> &results, Kind kind, bool logY)
{
    useLogAxis(logY);
    m_kind = kind;
    retranslate();
    const bool relative = kind == Kind::Relative;
    double lo = 0, hi = 0, top = 0;
    m_schemes.clear();
    for (int i = 0; i < results.size(); ++i) {
        const quant::Histogram &h = relative ? results[i].relativeError : results[i].error;
        QLineSeries *series = pooledSeries(m_series, i, int(results.size()));
        series->setName(results[i].scheme.id());
        m_schemes << results[i].scheme;
        series->replace(stepPoints(h, logY));
        lo = std::min(lo, h.lo);
        hi = std::max(hi, h.hi);
        for (std::int64_t c : h.counts)
            top = std::max(top, double(c));
    }
    trimPool(m_series, int(results.size()));
    colourSeries();
    setRanges(lo, hi, top);
}

} // namespace kvscope
