// SPDX-License-Identifier: MIT
#include "ui/charts/growthchart.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "ui/charts/chartcallout.h"
#include "ui/style/theme.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QEvent>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

namespace kvscope {

GrowthChartView::GrowthChartView(QWidget *parent)
    : ChartView(QStringLiteral("growthChart"), QMargins(4, 4, 24, 4), parent), m_total(new QLineSeries),
      m_budget(new QLineSeries), m_current(new QScatterSeries), m_crossing(new QScatterSeries),
      m_maxModelLen(new QLineSeries), m_currentLabel(new ChartCallout(chart())),
      m_crossingLabel(new ChartCallout(chart())), m_maxModelLenLabel(new ChartCallout(chart())),
      m_xAxis(new QCategoryAxis), m_yAxis(new QValueAxis)
{
    setBaseMinimumHeight(220);
    QChart *chart = this->chart();
    chart->addAxis(m_xAxis, Qt::AlignBottom);
    chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_xAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_yAxis->setLabelFormat(QStringLiteral("%.0f"));
    // A diamond for the limit, a circle for the scenario: under deuteranopia their red and green
    // are the same olive, so the shape (and each one's label) tells them apart.
    m_crossing->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    // Up to four KV precisions (llama.cpp's walk); unused lines stay empty.
    for (int i = 0; i < 4; ++i)
        m_kvLines << new QLineSeries;
    // As if MHA, as if every layer full; unused lines stay empty.
    for (int i = 0; i < 2; ++i)
        m_counterfactualLines << new QLineSeries;
    QList<QXYSeries *> all(m_kvLines.begin(), m_kvLines.end());
    all << m_counterfactualLines.at(0) << m_counterfactualLines.at(1);
    all << m_total << m_budget << m_maxModelLen << m_current << m_crossing;
    for (QXYSeries *series : all) {
        chart->addSeries(series);
        series->attachAxis(m_xAxis);
        series->attachAxis(m_yAxis);
    }
    connect(chart, &QChart::plotAreaChanged, this, &GrowthChartView::placeLabels);
    applyPalette();
}

QPointF GrowthChartView::position(std::int64_t x, std::int64_t bytes) const
{
    return QPointF(axisPosition(x, m_data.scale), toGiB(bytes));
}

void GrowthChartView::showGrowth(const GrowthChartData &data)
{
    const bool axisChanged = data.axis != m_data.axis || data.scale != m_data.scale ||
                             data.rangeMin != m_data.rangeMin || data.rangeMax != m_data.rangeMax;
    m_data = data;
    m_yAxis->setRange(0, toGiB(data.yMaxBytes));
    m_yAxis->setTickType(QValueAxis::TicksDynamic);
    m_yAxis->setTickAnchor(0);
    m_yAxis->setTickInterval(toGiB(data.yTickBytes));
    if (axisChanged)
        rebuildTicks();

    for (int i = 0; i < m_kvLines.size(); ++i) {
        QList<QPointF> points;
        if (i < data.curves.size()) {
            const GrowthCurve &curve = data.curves.at(i);
            points.reserve(curve.x.size());
            for (qsizetype p = 0; p < curve.x.size(); ++p)
                points.append(position(curve.x.at(p), curve.kvBytes.at(p)));
        }
        m_kvLines[i]->replace(points);
    }
    for (int i = 0; i < m_counterfactualLines.size(); ++i) {
        QList<QPointF> points;
        if (i < data.counterfactuals.size()) {
            const CounterfactualCurve &curve = data.counterfactuals.at(i);
            points.reserve(curve.x.size());
            for (qsizetype p = 0; p < curve.x.size(); ++p)
                points.append(position(curve.x.at(p), curve.kvBytes.at(p)));
        }
        m_counterfactualLines[i]->replace(points);
    }
    QList<QPointF> total;
    if (data.currentCurve < data.curves.size()) {
        const GrowthCurve &curve = data.curves.at(data.currentCurve);
        for (qsizetype p = 0; p < curve.x.size(); ++p)
            total.append(position(curve.x.at(p), curve.totalBytes.at(p)));
    }
    m_total->replace(total);
    m_budget->replace({position(data.rangeMin, data.budgetBytes), position(data.rangeMax, data.budgetBytes)});
    const auto marker = [this](const GrowthMarker &m) {
        return m.present ? QList<QPointF>{position(m.shownX, m.shownBytes)} : QList<QPointF>{};
    };
    m_current->replace(marker(data.current));
    m_crossing->replace(marker(data.crossing));
    m_maxModelLen->replace(data.maxModelLen.present
                               ? QList<QPointF>{position(data.maxModelLen.shownX, 0),
                                                position(data.maxModelLen.shownX, data.yMaxBytes)}
                               : QList<QPointF>{});
    updatePens();
    retranslate();
}

QString GrowthChartView::crossingText() const
{
    if (m_data.curves.isEmpty())
        return {};
    const std::int64_t fitsUpTo = m_data.curves.value(m_data.currentCurve).fitsUpTo;
    const bool bySequence = m_data.axis == GrowthAxis::SequenceLength;
    if (fitsUpTo < 0)
        return tr("fits at any length (every layer slides)");
    if (fitsUpTo == 0)
        return bySequence ? tr("does not fit even one token") : tr("does not fit even one sequence");
    const QString n = formatCount(fitsUpTo, QLocale());
    return bySequence ? tr("fits up to %1 tokens").arg(n) : tr("fits up to %1 sequences").arg(n);
}

QString GrowthChartView::counterfactualName(const CounterfactualCurve &curve) const
{
    const QString precision = m_data.currentCurve < m_data.curves.size()
                                  ? kvPrecisionName(m_data.curves.at(m_data.currentCurve).kvCacheDtype)
                                  : QString();
    if (curve.kind == Counterfactual::AsIfMha)
        return tr("KV %1 as if MHA (%2 KV heads)").arg(precision).arg(curve.kvHeads);
    return tr("KV %1 as if every layer full (%2 layers, no window or state)")
        .arg(precision)
        .arg(curve.cacheLayers);
}

void GrowthChartView::rebuildTicks()
{
    for (const QString &label : m_xAxis->categoriesLabels())
        m_xAxis->remove(label);
    m_xAxis->setRange(axisPosition(m_data.rangeMin, m_data.scale),
                      axisPosition(m_data.rangeMax, m_data.scale));
    for (std::int64_t tick : m_data.ticks)
        m_xAxis->append(formatShortCount(tick), axisPosition(tick, m_data.scale));
}

void GrowthChartView::retranslate()
{
    const QLocale locale;
    const bool bySequence = m_data.axis == GrowthAxis::SequenceLength;
    const bool log = m_data.scale == AxisScale::Logarithmic;
    theme::setTitle(
        chart(),
        bySequence
            ? tr("Memory per GPU vs sequence length (batch %1)").arg(formatCount(m_data.batchSize, locale))
            : tr("Memory per GPU vs batch size (%1 tokens each)").arg(formatCount(m_data.seqLen, locale)));
    m_xAxis->setTitleText(
        bySequence ? (log ? tr("Sequence length (tokens, log scale)") : tr("Sequence length (tokens)"))
                   : (log ? tr("Batch size (sequences, log scale)") : tr("Batch size (sequences)")));
    m_yAxis->setTitleText(tr("GiB"));
    for (int i = 0; i < m_kvLines.size() && i < m_data.curves.size(); ++i) {
        const QString name = tr("KV cache %1").arg(kvPrecisionName(m_data.curves.at(i).kvCacheDtype));
        m_kvLines[i]->setName(i == m_data.currentCurve ? tr("%1 (current)").arg(name) : name);
    }
    for (int i = 0; i < m_counterfactualLines.size() && i < m_data.counterfactuals.size(); ++i)
        m_counterfactualLines[i]->setName(counterfactualName(m_data.counterfactuals.at(i)));
    if (m_data.currentCurve < m_data.curves.size())
        m_total->setName(
            tr("Total, KV %1").arg(kvPrecisionName(m_data.curves.at(m_data.currentCurve).kvCacheDtype)));
    m_budget->setName(tr("Budget %1").arg(formatMemory(m_data.budgetBytes, locale)));
    m_maxModelLen->setName(optionFlag(ScenarioField::MaxModelLen, m_data.engine));

    // Arrows say which way a marker drawn at the edge really lies.
    const auto arrowed = [](const GrowthMarker &m, const QString &text) {
        QString shown = text;
        if (m.beyondTop)
            shown = QStringLiteral("↑ ") + shown;
        if (m.beyondX < 0)
            shown = QStringLiteral("← ") + shown;
        if (m.beyondX > 0)
            shown += QStringLiteral(" →");
        return shown;
    };
    const QString current = formatMemory(m_data.current.bytes, locale);
    m_currentLabel->setText(arrowed(
        m_data.current, bySequence ? tr("%1 tokens: %2").arg(formatCount(m_data.currentX, locale), current)
                                   : tr("batch %1: %2").arg(formatCount(m_data.currentX, locale), current)));
    m_crossingLabel->setText(arrowed(m_data.crossing, crossingText()));
    m_maxModelLenLabel->setText(arrowed(
        m_data.maxModelLen, QStringLiteral("%1 %2").arg(optionFlag(ScenarioField::MaxModelLen, m_data.engine),
                                                        formatCount(m_data.maxModelLen.x, locale))));
    m_currentLabel->setVisible(m_data.current.present);
    m_crossingLabel->setVisible(m_data.crossing.present);
    m_maxModelLenLabel->setVisible(m_data.maxModelLen.present);
    placeLabels();
    Q_EMIT legendChanged();
}

void GrowthChartView::placeLabels()
{
    const QRectF plot = chart()->plotArea();
    // Beside its point, inside the plot; flipped to the left near the right edge.
    const auto place = [&plot](ChartCallout *label, QPointF at, QPointF offset) {
        placeCallout(label, at, offset, plot);
    };
    const auto pointOf = [this](const GrowthMarker &m) {
        return chart()->mapToPosition(position(m.shownX, m.shownBytes), m_current);
    };
    if (m_data.maxModelLen.present) {
        const QPointF top =
            chart()->mapToPosition(position(m_data.maxModelLen.shownX, m_data.yMaxBytes), m_current);
        place(m_maxModelLenLabel, QPointF(top.x(), plot.top()), QPointF(6, 2));
    }
    if (m_data.current.present)
        place(m_currentLabel, pointOf(m_data.current),
              QPointF(10, -m_currentLabel->boundingRect().height() - 6));
    if (m_data.crossing.present)
        place(m_crossingLabel, pointOf(m_data.crossing), QPointF(10, 8));
    // No two labels on top of each other: move the later ones down past the earlier.
    separateCallouts({m_maxModelLenLabel, m_currentLabel, m_crossingLabel});
}

QList<LegendStrip::Entry> GrowthChartView::legendEntries() const
{
    QList<LegendStrip::Entry> entries;
    for (int i = 0; i < m_kvLines.size() && i < m_data.curves.size(); ++i)
        entries.append({m_kvLines.at(i)->name(), m_kvLines.at(i)->pen().color(), Qt::SolidLine,
                        i == m_data.currentCurve});
    for (int i = 0; i < m_counterfactualLines.size() && i < m_data.counterfactuals.size(); ++i)
        entries.append({m_counterfactualLines.at(i)->name(), m_counterfactualLines.at(i)->pen().color(),
                        m_counterfactualLines.at(i)->pen().style(), false});
    entries.append({m_total->name(), m_total->pen().color(), Qt::DashLine, false});
    entries.append({m_budget->name(), m_budget->pen().color(), Qt::DashDotLine, false});
    if (m_data.maxModelLen.present)
        entries.append({m_maxModelLen->name(), m_maxModelLen->pen().color(), Qt::DotLine, false});
    return entries;
}

void GrowthChartView::applyPalette()
{
    ChartView::applyPalette();
    updatePens();
    Q_EMIT legendChanged();
}

void GrowthChartView::updatePens()
{
    QList<KvCacheDtype> dtypes;
    for (const GrowthCurve &curve : m_data.curves)
        dtypes << curve.kvCacheDtype;
    const QColor current = penPrecisionLines(m_kvLines, dtypes, m_data.currentCurve);
    for (int i = 0; i < m_counterfactualLines.size(); ++i) {
        const Counterfactual kind =
            i < m_data.counterfactuals.size() ? m_data.counterfactuals.at(i).kind : Counterfactual::AsIfMha;
        m_counterfactualLines[i]->setPen(
            QPen(theme::counterfactualColor(kind, palette()), theme::lineWidth(2.5),
                 kind == Counterfactual::AsIfMha ? Qt::DashLine : Qt::DashDotDotLine));
    }
    m_total->setPen(QPen(current, theme::lineWidth(2.5), Qt::DashLine));
    m_budget->setPen(QPen(theme::budgetColor(palette()), theme::lineWidth(2.0), Qt::DashDotLine));
    stylePoint(m_current, current, 13);
    stylePoint(m_crossing, theme::warningColor(palette()), 13);
    m_maxModelLen->setPen(QPen(theme::mutedTextColor(palette()), theme::lineWidth(1.5), Qt::DotLine));
    styleCallouts({m_currentLabel, m_crossingLabel, m_maxModelLenLabel}, palette());
}

} // namespace kvscope
