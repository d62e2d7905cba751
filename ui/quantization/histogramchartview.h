// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/histogram.h"
#include "ui/charts/chartview.h"
#include "ui/charts/niceaxis.h"

#include <QList>
#include <QPointF>

class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace kvscope {

/// A chart of histograms drawn as step lines, with a linear or log count
/// axis and Qt's legend. One chart object lives as long as the view; series
/// are reused and their points replaced, never rebuilt (Qt Charts is slow to
/// rebuild).
class HistogramChartView : public ChartView
{
    Q_OBJECT

public:
    /// Step-line points of a histogram: two per bin, at its edges. With
    /// logY, empty bins sit at 0.5 (a log axis has no 0).
    static QList<QPointF> stepPoints(const quant::Histogram &histogram, bool logY);

protected:
    HistogramChartView(const QString &objectName, Qt::Alignment legendAlignment, QWidget *parent);

    void applyPalette() override;

    /// Series `index` of a pool of `count` (created or deleted as needed).
    QLineSeries *pooledSeries(QList<QLineSeries *> &pool, int index, int count);
    void trimPool(QList<QLineSeries *> &pool, int count);
    /// Puts the log or the linear count axis on the chart; call before
    /// replacing points, so no zero count ever meets a log axis.
    void useLogAxis(bool logY);
    /// Sets both ranges (of the axes useLogAxis chose).
    void setRanges(double xMin, double xMax, double maxCount);
    QLineSeries *createSeries();

    QValueAxis *m_x = nullptr;

private:
    /// As many x ticks (3 to 5) as their labels leave room for on the plot: at a presentation zoom five
    /// ran into each other.
    void fitXTicks();

    double m_xMin = 0; ///< the range asked for, before nice numbers widen it
    double m_xMax = 1;
    AxisTickFit m_xTicks; ///< for this range and plot
    QValueAxis *m_linearY = nullptr;
    QLogValueAxis *m_logY = nullptr;
    bool m_logActive = false;
};

} // namespace kvscope
