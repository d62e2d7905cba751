// SPDX-License-Identifier: MIT
#include "ui/charts/speedchart.h"

#include "core/common/units.h"
#include "core/precision/dtypes.h"
#include "ui/charts/chartcallout.h"
#include "ui/charts/niceaxis.h"
#include "ui/style/theme.h"

#include <algorithm>

#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

namespace kvscope {

namespace {

/// Up to four KV precisions (llama.cpp's walk) and one off the walk.
constexpr int MaxCurves = 5;

} // namespace

SpeedChartView::SpeedChartView(QWidget *parent)
    : ChartView(QStringLiteral("speedChart"), QMargins(4, 4, 24, 4), parent), m_ideal(new QLineSeries),
      m_serving(new QLineSeries), m_speculative(new QLineSeries), m_fits(new QLineSeries),
      m_ridges(new QScatterSeries), m_current(new QScatterSeries), m_currentLabel(new ChartCallout(chart())),
      m_ridgeLabel(new ChartCallout(chart())), m_fitsLabel(new ChartCallout(chart())),
      m_xAxis(new QLogValueAxis), m_yAxis(new QValueAxis)
{
    setBaseMinimumHeight(220);
    QChart *chart = this->chart();
    chart->addAxis(m_xAxis, Qt::AlignBottom);
    chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_xAxis->setBase(4);
    m_xAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_xAxis->setMinorTickCount(-1);
    m_yAxis->setLabelFormat(QStringLiteral("%.0f"));
    for (int i = 0; i < MaxCurves; ++i)
        m_lines << new QLineSeries;
    QList<QXYSeries *> all(m_lines.begin(), m_lines.end());
    all << m_ideal << m_serving << m_speculative << m_fits << m_ridges << m_current;
    for (QXYSeries *series : all) {
        chart->addSeries(series);
        series->attachAxis(m_xAxis);
        series->attachAxis(m_yAxis);
    }
    m_ridges->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    connect(chart, &QChart::plotAreaChanged, this, &SpeedChartView::placeLabels);
    applyPalette();
    retranslate();
}

std::optional<double> SpeedChartView::sampleAt(const SpeedCurve &curve, std::int64_t batch) const
{
    const qsizetype i = curve.batch.indexOf(batch);
    return i >= 0 ? std::optional(curve.tokensPerSecond.at(i)) : std::nullopt;
}

void SpeedChartView::showSpeed(const SpeedChartData &data)
{
    m_data = data;
    m_xAxis->setRange(double(data.xMin), double(data.xMax));
    double top = 0;
    for (int i = 0; i < m_lines.size(); ++i) {
        QList<QPointF> points;
        if (i < data.curves.size()) {
            const SpeedCurve &curve = data.curves.at(i);
            for (qsizetype p = 0; p < curve.batch.size(); ++p)
                points.append(QPointF(double(curve.batch.at(p)), curve.tokensPerSecond.at(p)));
            top =
                std::max(top, *std::max_element(curve.tokensPerSecond.begin(), curve.tokensPerSecond.end()));
        }
        m_lines[i]->replace(points);
    }
    QList<QPointF> ideal, serving, drafted, ridges;
    if (data.currentCurve < data.curves.size()) {
        const SpeedCurve &curve = data.curves.at(data.currentCurve);
        for (qsizetype p = 0; p < curve.batch.size(); ++p)
            ideal.append(QPointF(double(curve.batch.at(p)), curve.tokensPerSecondIdeal.at(p)));
        if (!curve.tokensPerSecondIdeal.isEmpty())
            top = std::max(
                top, *std::max_element(curve.tokensPerSecondIdeal.begin(), curve.tokensPerSecondIdeal.end()));
        for (qsizetype p = 0; p < curve.tokensPerSecondServing.size(); ++p)
            serving.append(QPointF(double(curve.batch.at(p)), curve.tokensPerSecondServing.at(p)));
        for (qsizetype p = 0; p < curve.tokensPerSecondSpeculative.size(); ++p) {
            drafted.append(QPointF(double(curve.batch.at(p)), curve.tokensPerSecondSpeculative.at(p)));
            top = std::max(top, curve.tokensPerSecondSpeculative.at(p));
        }
    }
    for (const SpeedCurve &curve : data.curves)
        if (const std::optional<double> at = sampleAt(curve, curve.ridgeBatch); curve.ridgeBatch > 0 && at)
            ridges.append(QPointF(double(curve.ridgeBatch), *at));
    m_ideal->replace(ideal);
    m_serving->replace(serving);
    m_speculative->replace(drafted);
    m_ridges->replace(ridges);
    setNiceRangeFromZero(m_yAxis, top * 1.05);
    m_current->replace(data.available
                           ? QList<QPointF>{QPointF(double(data.currentX), data.currentTokensPerSecond)}
                           : QList<QPointF>{});
    const std::int64_t fits =
        data.currentCurve < data.curves.size() ? data.curves.at(data.currentCurve).fitsUpTo : 0;
    m_fits->replace(fits >= data.xMin && fits <= data.xMax
                        ? QList<QPointF>{QPointF(double(fits), 0), QPointF(double(fits), m_yAxis->max())}
                        : QList<QPointF>{});
    updatePens();
    retranslate();
}

void SpeedChartView::retranslate()
{
    const QLocale locale;
    theme::setTitle(chart(), tr("Decode tokens/s of all sequences vs batch size (%1 tokens each)")
                                 .arg(formatCount(m_data.seqLen, locale)));
    m_xAxis->setTitleText(tr("Batch size (sequences, log scale)"));
    m_yAxis->setTitleText(tr("tokens/s")); // short: a low chart elides a long one
    for (int i = 0; i < m_lines.size() && i < m_data.curves.size(); ++i) {
        const QString name = tr("KV %1").arg(kvPrecisionName(m_data.curves.at(i).kvCacheDtype));
        m_lines[i]->setName(i == m_data.currentCurve ? tr("%1 (current)").arg(name) : name);
    }
    m_ideal->setName(tr("ideal roofline (efficiencies 1)"));
    m_serving->setName(tr("serving that many users: %1-token prompts, %2 out (average context %3)")
                           .arg(formatCount(m_data.servingPromptLen, locale),
                                formatCount(m_data.servingOutputLen, locale),
                                formatCount(m_data.servingPromptLen + m_data.servingOutputLen / 2, locale)));
    m_speculative->setName(
        tr("with the drafter: %1 drafts a step, each accepted with p = %2")
            .arg(formatCount(m_data.draftTokens, locale), formatDecimal(m_data.acceptanceRate, 3, locale)));
    m_ridges->setName(tr("ridge point: compute-bound from here"));
    m_current->setName(tr("current batch"));

    const bool hasCurve = m_data.available && m_data.currentCurve < m_data.curves.size();
    const SpeedCurve curve = hasCurve ? m_data.curves.at(m_data.currentCurve) : SpeedCurve();
    m_currentLabel->setText(m_data.available
                                ? tr("batch %1: %2 tokens/s")
                                      .arg(formatCount(m_data.currentX, locale),
                                           formatRate(m_data.currentTokensPerSecond, locale))
                                : tr("No speed figures: %1").arg(m_data.notes.join(QLatin1Char(' '))));
    m_currentLabel->setVisible(true);
    const QString ridge = formatCount(curve.ridgeBatch, locale);
    if (curve.ridgeBatch <= 0)
        m_ridgeLabel->setText(tr("memory-bound at every batch at this length"));
    else if (sampleAt(curve, curve.ridgeBatch)) // its marker is on the line
        m_ridgeLabel->setText(tr("compute-bound from batch %1").arg(ridge));
    else
        m_ridgeLabel->setText(tr("compute-bound from batch %1, past the axis").arg(ridge));
    m_ridgeLabel->setVisible(hasCurve);
    m_fitsLabel->setText(tr("KV cache fits up to batch %1").arg(formatCount(curve.fitsUpTo, locale)));
    m_fitsLabel->setVisible(hasCurve && !m_fits->points().isEmpty());
    m_fits->setName(m_fitsLabel->text());
    placeLabels();
    Q_EMIT legendChanged();
}

void SpeedChartView::placeLabels()
{
    const QRectF plot = chart()->plotArea();
    const auto place = [&plot](ChartCallout *label, QPointF at, QPointF offset) {
        placeCallout(label, at, offset, plot);
    };
    if (!m_data.available) {
        placeReason(m_currentLabel, plot);
        return;
    }
    m_currentLabel->setMaximumWidth(0); // a point's label stays on one line
    place(m_currentLabel,
          chart()->mapToPosition(QPointF(double(m_data.currentX), m_data.currentTokensPerSecond), m_current),
          QPointF(10, -m_currentLabel->boundingRect().height() - 6));
    if (m_data.currentCurve < m_data.curves.size()) {
        const SpeedCurve &curve = m_data.curves.at(m_data.currentCurve);
        const std::optional<double> at = sampleAt(curve, curve.ridgeBatch);
        if (curve.ridgeBatch > 0 && at)
            place(m_ridgeLabel, chart()->mapToPosition(QPointF(double(curve.ridgeBatch), *at), m_ridges),
                  QPointF(10, 8));
        else
            place(m_ridgeLabel, plot.topLeft(), QPointF(8, 8));
    }
    if (!m_fits->points().isEmpty())
        place(m_fitsLabel, QPointF(chart()->mapToPosition(m_fits->points().first(), m_fits).x(), plot.top()),
              QPointF(6, 2));
    // No two labels on top of each other: move the later ones down past the earlier.
    separateCallouts({m_fitsLabel, m_currentLabel, m_ridgeLabel});
}

QList<LegendStrip::Entry> SpeedChartView::legendEntries() const
{
    QList<LegendStrip::Entry> entries;
    for (int i = 0; i < m_lines.size() && i < m_data.curves.size(); ++i)
        entries.append(
            {m_lines.at(i)->name(), m_lines.at(i)->pen().color(), Qt::SolidLine, i == m_data.currentCurve});
    if (!m_data.curves.isEmpty())
        entries.append({m_ideal->name(), m_ideal->pen().color(), Qt::DashLine, false});
    if (!m_serving->points().isEmpty())
        entries.append({m_serving->name(), m_serving->pen().color(), Qt::DashDotLine, false});
    if (!m_speculative->points().isEmpty())
        entries.append({m_speculative->name(), m_speculative->pen().color(), Qt::DotLine, false});
    if (!m_ridges->points().isEmpty()) // no entry for a marker the chart does not draw
        entries.append({m_ridges->name(), m_ridges->color(), Qt::NoPen, false});
    if (!m_fits->points().isEmpty())
        entries.append({m_fits->name(), m_fits->pen().color(), Qt::DotLine, false});
    return entries;
}

void SpeedChartView::applyPalette()
{
    ChartView::applyPalette();
    updatePens();
    Q_EMIT legendChanged();
}

void SpeedChartView::updatePens()
{
    QList<KvCacheDtype> dtypes;
    for (const SpeedCurve &curve : m_data.curves)
        dtypes << curve.kvCacheDtype;
    const QColor current = penPrecisionLines(m_lines, dtypes, m_data.currentCurve);
    m_ideal->setPen(QPen(current, theme::lineWidth(2.0), Qt::DashLine));
    m_serving->setPen(QPen(current, theme::lineWidth(2.0), Qt::DashDotLine));
    m_speculative->setPen(QPen(current, theme::lineWidth(2.5), Qt::DotLine));
    m_fits->setPen(QPen(theme::budgetColor(palette()), theme::lineWidth(1.5), Qt::DotLine));
    stylePoint(m_ridges, palette().color(QPalette::Text), 12);
    stylePoint(m_current, current, 13);
    styleCallouts({m_currentLabel, m_ridgeLabel, m_fitsLabel}, palette());
}

} // namespace kvscope
