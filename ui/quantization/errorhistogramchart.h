// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/simulator.h"
#include "ui/quantization/histogramchartview.h"

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
    void applyPalette() override;
    void retranslate() override;

private:
    void colourSeries();

    QList<QLineSeries *> m_series;
    QList<quant::Scheme> m_schemes; ///< of m_series, for their colours
    Kind m_kind = Kind::Absolute;
};

} // namespace kvscope
