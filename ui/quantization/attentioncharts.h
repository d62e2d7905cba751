// SPDX-License-Identifier: MIT
// The attention tab's two charts, drawn from one AttentionPicture: the
// query's weight on each cached token with the 16-bit cache and with the FP8
// one side by side, and the logit error of each key. A token's bar is a step
// of an area series, so 1,024 tokens draw as one path each.
#pragma once

#include "core/compare/attentionpicture.h"
#include "ui/charts/chartview.h"
#include "ui/charts/niceaxis.h"

#include <optional>

class QAreaSeries;
class QLineSeries;
class QValueAxis;

namespace kvscope {

/// What both charts share: a token axis and the picture they draw.
class AttentionChartView : public ChartView
{
    Q_OBJECT

public:
    void setPicture(const AttentionPicture &picture);
    const std::optional<AttentionPicture> &picture() const { return m_picture; }

protected:
    AttentionChartView(const QString &objectName, QWidget *parent);
    /// An area series of bars on the two axes.
    QAreaSeries *addBars();
    /// Bars `width` tokens wide, each centred at token + `offset`, from 0 to its value.
    static void setBars(QAreaSeries *bars, const std::vector<double> &values, double offset, double width);
    /// Fills the bars in `color`, with no outline (an outline would draw along the zero line).
    static void colourBars(QAreaSeries *bars, const QColor &color);
    virtual void draw() = 0;
    /// Sets the value axis's range for `ticks` ticks (draw() and a new plot height call it).
    virtual void rangeValues(int ticks) = 0;
    /// The value axis with as many ticks as its labels have room for.
    void fitValueTicks();

    QValueAxis *m_tokens = nullptr;
    QValueAxis *m_values = nullptr;
    std::optional<AttentionPicture> m_picture;

private:
    AxisTickFit m_valueTicks; ///< for this picture and plot
};

/// p_t and p′_t: the exact cache's bar left of the quantized one's.
class AttentionWeightsChart : public AttentionChartView
{
    Q_OBJECT

public:
    explicit AttentionWeightsChart(QWidget *parent = nullptr);

protected:
    void applyPalette() override;
    void retranslate() override;
    void draw() override;
    void rangeValues(int ticks) override;

private:
    QAreaSeries *m_exact = nullptr;
    QAreaSeries *m_quantized = nullptr;
    double m_top = 0; ///< the largest weight, either cache's
};

/// l′_t − l_t: what the FP8 keys do to each logit.
class LogitErrorChart : public AttentionChartView
{
    Q_OBJECT

public:
    explicit LogitErrorChart(QWidget *parent = nullptr);

protected:
    void applyPalette() override;
    void retranslate() override;
    void draw() override;
    void rangeValues(int ticks) override;

private:
    QAreaSeries *m_errors = nullptr;
    double m_reach = 1; ///< the largest error's size, with room
};

} // namespace kvscope
