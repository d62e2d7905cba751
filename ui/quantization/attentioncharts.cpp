// SPDX-License-Identifier: MIT
#include "ui/quantization/attentioncharts.h"

#include "ui/charts/niceaxis.h"
#include "ui/style/theme.h"

#include <algorithm>
#include <cmath>

#include <QAreaSeries>
#include <QChart>
#include <QFontMetrics>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace kvscope {

AttentionChartView::AttentionChartView(const QString &objectName, QWidget *parent)
    : ChartView(objectName, QMargins(4, 4, 4, 4), parent)
{
    QChart *c = chart();
    c->legend()->setVisible(true);
    c->legend()->setAlignment(Qt::AlignTop);
    m_tokens = new QValueAxis(this);
    m_tokens->setLabelFormat(QStringLiteral("%d"));
    m_values = new QValueAxis(this);
    m_values->setLabelFormat(QStringLiteral("%.2g"));
    c->addAxis(m_tokens, Qt::AlignBottom);
    c->addAxis(m_values, Qt::AlignLeft);
    setBaseMinimumHeight(150);
    // Presented, the charts are short: the ticks follow the plot's height.
    connect(c, &QChart::plotAreaChanged, this, [this] {
        if (m_picture)
            fitValueTicks();
    });
}

void AttentionChartView::fitValueTicks()
{
    // A label's line and Qt Charts' margins around it, and as much again between two labels.
    const double labelSpacing = 1.5 * (QFontMetrics(m_values->labelsFont()).height() + 4);
    if (m_valueTicks.update(chart()->plotArea().height(), labelSpacing))
        rangeValues(m_valueTicks.ticks());
}

QAreaSeries *AttentionChartView::addBars()
{
    auto *bars = new QAreaSeries(new QLineSeries(this), new QLineSeries(this));
    chart()->addSeries(bars);
    bars->attachAxis(m_tokens);
    bars->attachAxis(m_values);
    return bars;
}

void AttentionChartView::setBars(QAreaSeries *bars, const std::vector<double> &values, double offset,
                                 double width)
{
    QList<QPointF> upper;
    QList<QPointF> lower;
    upper.reserve(qsizetype(values.size()) * 4);
    lower.reserve(qsizetype(values.size()) * 4);
    for (size_t t = 0; t < values.size(); ++t) {
        const double left = double(t + 1) + offset - width / 2;
        const double right = left + width;
        upper << QPointF(left, 0) << QPointF(left, values[t]) << QPointF(right, values[t])
              << QPointF(right, 0);
        lower << QPointF(left, 0) << QPointF(left, 0) << QPointF(right, 0) << QPointF(right, 0);
    }
    bars->upperSeries()->replace(upper);
    bars->lowerSeries()->replace(lower);
}

void AttentionChartView::colourBars(QAreaSeries *bars, const QColor &color)
{
    bars->setBrush(color);
    bars->setPen(Qt::NoPen);
}

void AttentionChartView::setPicture(const AttentionPicture &picture)
{
    m_picture = picture;
    setItemAxis(m_tokens, std::int64_t(picture.weights.logits.size()));
    draw();
    m_valueTicks.reset(); // new values: ranged afresh
    fitValueTicks();
    retranslate();
    applyPalette(); // the format's colour
}

AttentionWeightsChart::AttentionWeightsChart(QWidget *parent)
    : AttentionChartView(QStringLiteral("attentionWeightsChart"), parent)
{
    m_exact = addBars();
    m_quantized = addBars();
    applyPalette();
    retranslate();
}

void AttentionWeightsChart::applyPalette()
{
    AttentionChartView::applyPalette();
    colourBars(m_exact, theme::precisionColor(KvCacheDtype::BFloat16, palette()));
    colourBars(m_quantized, theme::precisionColor(
                                m_picture ? m_picture->choices.format : KvCacheDtype::Fp8E4M3, palette()));
}

void AttentionWeightsChart::retranslate()
{
    chart()->setTitle(tr("Attention of one decode query over the cached tokens"));
    m_tokens->setTitleText(tr("cached token"));
    // The chart's title says whose weights: a longer axis title was cut on a 1280 x 800 projector.
    m_values->setTitleText(tr("weight"));
    m_exact->setName(tr("16-bit cache"));
    if (m_picture) {
        const QString format = kvPrecisionName(m_picture->choices.format);
        m_quantized->setName(m_picture->choices.calibratedScale ? tr("%1 cache, calibrated scale").arg(format)
                                                                : tr("%1 cache, scale 1.0").arg(format));
    }
}

void AttentionWeightsChart::draw()
{
    const quant::AttentionWeights &w = m_picture->weights;
    // Two bars a token, side by side, with a gap between tokens.
    setBars(m_exact, w.weights, -0.2, 0.38);
    setBars(m_quantized, w.quantizedWeights, 0.2, 0.38);
    m_top = 0;
    for (size_t t = 0; t < w.weights.size(); ++t)
        m_top = std::max({m_top, w.weights[t], w.quantizedWeights[t]});
}

void AttentionWeightsChart::rangeValues(int ticks)
{
    setNiceRangeFromZero(m_values, m_top * 1.05, ticks);
}

LogitErrorChart::LogitErrorChart(QWidget *parent)
    : AttentionChartView(QStringLiteral("logitErrorChart"), parent)
{
    m_errors = addBars();
    chart()->legend()->setVisible(false); // one series: the title says what it is
    applyPalette();
    retranslate();
}

void LogitErrorChart::applyPalette()
{
    AttentionChartView::applyPalette();
    colourBars(m_errors, theme::precisionColor(m_picture ? m_picture->choices.format : KvCacheDtype::Fp8E4M3,
                                               palette()));
}

void LogitErrorChart::retranslate()
{
    chart()->setTitle(tr("What the quantized keys do to each logit"));
    m_tokens->setTitleText(tr("cached token"));
    m_values->setTitleText(tr("logit error l′ − l"));
    m_errors->setName(m_picture ? tr("%1 keys").arg(kvPrecisionName(m_picture->choices.format)) : QString());
}

void LogitErrorChart::draw()
{
    const std::vector<double> errors = m_picture->weights.logitErrors();
    double largest = 0;
    for (double e : errors)
        largest = std::max(largest, std::fabs(e));
    setBars(m_errors, errors, 0, 0.76);
    m_reach = largest > 0 ? largest * 1.1 : 1;
}

void LogitErrorChart::rangeValues(int ticks)
{
    m_values->setRange(-m_reach, m_reach);
    m_values->setTickCount(ticks);
    m_values->applyNiceNumbers(); // round ticks; the range only grows
}

} // namespace kvscope
