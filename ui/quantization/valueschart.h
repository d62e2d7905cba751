// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/grid.h"
#include "ui/quantization/histogramchartview.h"

namespace kvscope {

/// The tensor's values with one scheme's quantization grid drawn over them
/// as vertical lines: where the representable values sit against the data.
class ValuesChart : public HistogramChartView
{
    Q_OBJECT

public:
    explicit ValuesChart(QWidget *parent = nullptr);

    void setValues(const quant::Histogram &values, const quant::QuantizationGrid &grid,
                   const QString &gridScheme, bool logY);
    int gridLines() const { return m_gridLines; }

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    void nameGrid();

    QLineSeries *m_histogram = nullptr;
    QLineSeries *m_grid = nullptr;
    int m_gridLines = 0;
    QString m_gridScheme; ///< what the grid belongs to, for its legend entry
    bool m_gridTooDense = false;
};

} // namespace kvscope
