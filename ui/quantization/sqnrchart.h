// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/simulator.h"
#include "ui/charts/chartview.h"

class QBarCategoryAxis;
class QGraphicsSimpleTextItem;
class QHorizontalBarSeries;
class QBarSet;
class QValueAxis;

namespace kvscope {

/// SQNR in dB per scheme as horizontal bars (long scheme names stay
/// readable), first scheme on top: more is better, about 6 dB per bit.
class SqnrChart : public ChartView
{
    Q_OBJECT

public:
    explicit SqnrChart(QWidget *parent = nullptr);

    void setResults(const QList<quant::SchemeResult> &results);
    int barCount() const;

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    /// Each bar's value beyond its end.
    void placeValueLabels();

    QHorizontalBarSeries *m_series = nullptr;
    QBarSet *m_set = nullptr;
    QBarCategoryAxis *m_categories = nullptr;
    QValueAxis *m_decibels = nullptr;
    /// Our own labels: Qt's write "20" for 20.00 beside "20.7" (%g drops trailing zeros).
    QList<QGraphicsSimpleTextItem *> m_valueLabels;
};

} // namespace kvscope
