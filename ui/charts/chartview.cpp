// SPDX-License-Identifier: MIT
#include "ui/charts/chartview.h"

#include "ui/style/theme.h"

#include <QEvent>
#include <QLegend>

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

} // namespace kvscope
