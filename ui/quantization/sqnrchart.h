// SPDX-License-Identifier: MIT
#pragma once

#include "quantization/simulator.h"

#include <QChartView>

class QBarCategoryAxis;
class QHorizontalBarSeries;
class QBarSet;
class QValueAxis;

namespace kvscope {

/// SQNR in dB per scheme as horizontal bars (long scheme names stay
/// readable), first scheme on top: more is better, about 6 dB per bit.
class SqnrChart : public QChartView
{
    Q_OBJECT

public:
    explicit SqnrChart(QWidget *parent = nullptr);

    void setResults(const QList<quant::SchemeResult> &results);
    int barCount() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QHorizontalBarSeries *m_series = nullptr;
    QBarSet *m_set = nullptr;
    QBarCategoryAxis *m_categories = nullptr;
    QValueAxis *m_decibels = nullptr;
};

} // namespace kvscope
