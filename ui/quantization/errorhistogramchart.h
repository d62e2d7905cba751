// SPDX-License-Identifier: MIT
#pragma once

#include "quantization/histogramchartview.h"
#include "quantization/simulator.h"

namespace kvscope {

/// The error histograms of several schemes overlaid: w - w' or the relative
/// error (w - w') / |w|, one step line per scheme.
class ErrorHistogramChart : public HistogramChartView
{
    Q_OBJECT

public:
    enum class Kind
    {
        Absolute,
        Relative
    };

    explicit ErrorHistogramChart(QWidget *parent = nullptr);

    void setResults(const QList<quant::SchemeResult> &results, Kind kind, bool logY);
    int seriesCount() const { return int(m_series.size()); }

protected:
    void retranslate() override;

private:
    QList<QLineSeries *> m_series;
    Kind m_kind = Kind::Absolute;
};

} // namespace kvscope
