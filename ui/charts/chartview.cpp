// SPDX-License-Identifier: MIT
#include "ui/charts/chartview.h"

#include "ui/style/theme.h"

#include <QEvent>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>

namespace kvscope {

namespace {

QChart *newChart(const QMargins &margins)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(margins);
    chart->legend()->setVisible(false);
    return chart;
}

} // namespace

// The chart is handed to QChartView's constructor: setChart() would leave
// the view's default chart behind, never deleted.
ChartView::ChartView(const QString &objectName, const QMargins &margins, QWidget *parent)
    : QChartView(newChart(margins), parent)
{
    setObjectName(objectName);
    setRenderHint(QPainter::Antialiasing);
}

void ChartView::applyPalette()
{
    theme::applyToChart(chart(), palette());
    setMinimumHeight(qRound(theme::lineWidth(m_baseMinimumHeight)));
}

void ChartView::setBaseMinimumHeight(int height)
{
    m_baseMinimumHeight = height;
    setMinimumHeight(qRound(theme::lineWidth(height)));
}

void ChartView::changeEvent(QEvent *event)
{
    // The presentation zoom changes the application font: fonts, pens and markers follow it.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationFontChange)
        applyPalette();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
    QChartView::changeEvent(event);
}

LegendStrip *ChartView::makeLegend(QWidget *parent, const QString &objectName)
{
    auto *legend = new LegendStrip(parent);
    legend->setObjectName(objectName);
    legend->setEntries(legendEntries());
    connect(this, &ChartView::legendChanged, legend, [this, legend] { legend->setEntries(legendEntries()); });
    return legend;
}

QColor ChartView::penPrecisionLines(const QList<QLineSeries *> &lines, const QList<KvCacheDtype> &dtypes,
                                    int current) const
{
    for (int i = 0; i < lines.size(); ++i) {
        const KvCacheDtype dtype = i < dtypes.size() ? dtypes.at(i) : KvCacheDtype::BFloat16;
        lines[i]->setPen(
            QPen(theme::precisionColor(dtype, palette()), theme::lineWidth(i == current ? 3.5 : 2.0)));
    }
    return current >= 0 && current < dtypes.size() ? theme::precisionColor(dtypes.at(current), palette())
                                                   : palette().color(QPalette::Text);
}

void ChartView::stylePoint(QScatterSeries *point, const QColor &color, double size) const
{
    point->setColor(color);
    point->setBorderColor(palette().color(QPalette::Base));
    point->setMarkerSize(theme::lineWidth(size));
}

} // namespace kvscope
