// SPDX-License-Identifier: MIT
#pragma once

#include "core/output/speedchart.h"
#include "ui/charts/chartview.h"

#include <optional>

#include <QList>

class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace kvscope {

class ChartCallout;

/// The explorer's decode chart: decode tokens/s of all sequences against batch
/// size (log axis), one line per KV precision with the current one thicker,
/// its ideal roofline dashed, each line's ridge point (where decode turns
/// compute-bound), the current batch, and the largest batch whose KV cache
/// fits. Every point is speedChartData()'s.
class SpeedChartView : public ChartView
{
    Q_OBJECT

public:
    explicit SpeedChartView(QWidget *parent = nullptr);

    void showSpeed(const SpeedChartData &data);

    const SpeedChartData &data() const { return m_data; }
    QList<QLineSeries *> lines() const { return m_lines; }
    QLineSeries *idealLine() const { return m_ideal; }
    /// Steady-state serving's output tokens/s against users (empty without a serving workload).
    QLineSeries *servingLine() const { return m_serving; }
    QLineSeries *speculativeLine() const { return m_speculative; }
    QScatterSeries *ridgePoints() const { return m_ridges; }
    QScatterSeries *currentPoint() const { return m_current; }
    QLineSeries *fitsLine() const { return m_fits; }
    ChartCallout *currentLabel() const { return m_currentLabel; }
    ChartCallout *ridgeLabel() const { return m_ridgeLabel; }
    QList<LegendStrip::Entry> legendEntries() const override;

protected:
    void applyPalette() override;
    void retranslate() override;

private:
    void updatePens();
    void placeLabels();
    /// The current curve's tokens/s at `batch`, a sample of the core's (the ridge batches are samples).
    std::optional<double> sampleAt(const SpeedCurve &curve, std::int64_t batch) const;

    QList<QLineSeries *> m_lines;
    QLineSeries *m_ideal;
    QLineSeries *m_serving;
    QLineSeries *m_speculative; ///< the current curve with the scenario's drafter
    QLineSeries *m_fits;
    QScatterSeries *m_ridges;
    QScatterSeries *m_current;
    ChartCallout *m_currentLabel;
    ChartCallout *m_ridgeLabel;
    ChartCallout *m_fitsLabel;
    QLogValueAxis *m_xAxis;
    QValueAxis *m_yAxis;
    SpeedChartData m_data;
};

} // namespace kvscope
