// SPDX-License-Identifier: MIT
#include "charts/explorerchartview.h"

#include <QEvent>
#include <QLegend>

namespace kvscope {

ExplorerChartView::ExplorerChartView(const QString &objectName, int minimumHeight, const QMargins &margins,
                                     QWidget *parent)
    : QChartView(parent)
{
    setObjectName(objectName);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(minimumHeight);
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(margins);
    chart->legend()->setVisible(false);
    setChart(chart);
}

void ExplorerChartView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
    QChartView::changeEvent(event);
}

} // namespace kvscope
