// SPDX-License-Identifier: MIT
#include "charts/growthchart.h"

#include "common/units.h"
#include "theme.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QEvent>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

namespace kvscope {

QString shortCount(std::int64_t value)
{
    if (value >= (std::int64_t(1) << 20) && value % (std::int64_t(1) << 20) == 0)
        return QString::number(value >> 20) + QLatin1Char('M');
    if (value >= 1024 && value % 1024 == 0)
        return QString::number(value >> 10) + QLatin1Char('K');
    return QString::number(value);
}

namespace {

/// Horizontal position of x on the log axis.
double logX(std::int64_t x)
{
    return std::log2(double(std::max<std::int64_t>(1, x)));
}

QString precisionName(KvCacheDtype dtype)
{
    switch (dtype) {
    case KvCacheDtype::Float32:
        return QStringLiteral("FP32");
    case KvCacheDtype::Float16:
        return QStringLiteral("FP16");
    case KvCacheDtype::Fp8E5M2:
        return QStringLiteral("FP8 E5M2");
    case KvCacheDtype::Q8_0:
        return QStringLiteral("Q8_0");
    case KvCacheDtype::Q4_0:
        return QStringLiteral("Q4_0");
    case KvCacheDtype::Fp8:
    case KvCacheDtype::Fp8E4M3:
        return QStringLiteral("FP8");
    default:
        return QStringLiteral("BF16");
    }
}

} // namespace

GrowthChartView::GrowthChartView(QWidget *parent)
    : ChartView(QStringLiteral("growthChart"), QMargins(4, 4, 24, 4), parent), m_total(new QLineSeries),
      m_budget(new QLineSeries), m_current(new QScatterSeries), m_crossing(new QScatterSeries),
      m_xAxis(new QCategoryAxis), m_yAxis(new QValueAxis)
{
    setMinimumHeight(220);
    QChart *chart = this->chart();
    chart->addAxis(m_xAxis, Qt::AlignBottom);
    chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_xAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_yAxis->setLabelFormat(QStringLiteral("%.0f"));
    // Up to four KV precisions (llama.cpp's walk); unused lines stay empty.
    for (int i = 0; i < 4; ++i)
        m_kvLines << new QLineSeries;
    QList<QXYSeries *> all(m_kvLines.begin(), m_kvLines.end());
    all << m_total << m_budget << m_current << m_crossing;
    for (QXYSeries *series : all) {
        chart->addSeries(series);
        series->attachAxis(m_xAxis);
        series->attachAxis(m_yAxis);
    }
    for (QScatterSeries *point : {m_current, m_crossing}) {
        point->setMarkerSize(13);
        point->setPointLabelsVisible(true);
        point->setPointLabelsClipping(false);
    }
    applyPalette();
}

void GrowthChartView::showGrowth(const GrowthChartData &data)
{
    const bool axisChanged = data.axis != m_data.axis || data.xMin != m_data.xMin || data.xMax != m_data.xMax;
    m_data = data;
    const double yMax = toGiB(
        std::min(std::max(data.gpuMemoryBytes, data.currentTotalBytes) * 5 / 4, data.gpuMemoryBytes * 4));
    m_yAxis->setRange(0, std::max(1.0, yMax));
    m_yAxis->applyNiceNumbers();
    if (axisChanged)
        rebuildTicks();

    for (int i = 0; i < m_kvLines.size(); ++i) {
        QList<QPointF> points;
        if (i < data.curves.size()) {
            const GrowthCurve &curve = data.curves.at(i);
            points.reserve(curve.x.size());
            for (qsizetype p = 0; p < curve.x.size(); ++p)
                points.append(QPointF(logX(curve.x.at(p)), toGiB(curve.kvBytes.at(p))));
        }
        m_kvLines[i]->replace(points);
    }
    QList<QPointF> total;
    if (data.currentCurve < data.curves.size()) {
        const GrowthCurve &curve = data.curves.at(data.currentCurve);
        for (qsizetype p = 0; p < curve.x.size(); ++p)
            total.append(QPointF(logX(curve.x.at(p)), toGiB(curve.totalBytes.at(p))));
    }
    m_total->replace(total);
    m_budget->replace({QPointF(logX(data.xMin), toGiB(data.budgetBytes)),
                       QPointF(logX(data.xMax), toGiB(data.budgetBytes))});
    m_current->replace({QPointF(logX(data.currentX), toGiB(data.currentTotalBytes))});

    const std::int64_t fitsUpTo =
        data.currentCurve < data.curves.size() ? data.curves.at(data.currentCurve).fitsUpTo : 0;
    const bool crossingShown = fitsUpTo >= data.xMin && fitsUpTo <= data.xMax;
    m_crossing->replace(crossingShown ? QList<QPointF>{QPointF(logX(fitsUpTo), toGiB(data.budgetBytes))}
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
    return bySequence ? tr("fits up to %1 tokens").arg(formatCount(fitsUpTo))
                      : tr("fits up to %1 sequences").arg(formatCount(fitsUpTo));
}

void GrowthChartView::rebuildTicks()
{
    for (const QString &label : m_xAxis->categoriesLabels())
        m_xAxis->remove(label);
    m_xAxis->setRange(logX(m_data.xMin), logX(m_data.xMax));
    const int first = int(std::ceil(logX(m_data.xMin)));
    const int last = int(std::floor(logX(m_data.xMax)));
    const int every = std::max(1, (last - first + 1 + 7) / 8); // at most ~8 labels
    for (int power = first; power <= last; power += every)
        m_xAxis->append(shortCount(std::int64_t(1) << power), power);
}

void GrowthChartView::retranslate()
{
    const bool bySequence = m_data.axis == GrowthAxis::SequenceLength;
    theme::setTitle(
        chart(), bySequence
                     ? tr("Memory per GPU vs sequence length (batch %1)").arg(formatCount(m_data.batchSize))
                     : tr("Memory per GPU vs batch size (%1 tokens each)").arg(formatCount(m_data.seqLen)));
    const QString xTitle =
        bySequence ? tr("Sequence length (tokens, log scale)") : tr("Batch size (sequences, log scale)");
    m_xAxis->setTitleText(xTitle);
    m_yAxis->setTitleText(tr("GiB"));
    for (int i = 0; i < m_kvLines.size() && i < m_data.curves.size(); ++i) {
        const QString name = tr("KV cache %1").arg(precisionName(m_data.curves.at(i).kvCacheDtype));
        m_kvLines[i]->setName(i == m_data.currentCurve ? tr("%1 (current)").arg(name) : name);
    }
    if (m_data.currentCurve < m_data.curves.size())
        m_total->setName(
            tr("Total, KV %1").arg(precisionName(m_data.curves.at(m_data.currentCurve).kvCacheDtype)));
    m_budget->setName(tr("Budget %1").arg(formatGiB(m_data.budgetBytes)));
    m_current->setPointLabelsFormat(
        bySequence
            ? tr("%1 tokens: %2").arg(formatCount(m_data.currentX), formatGiB(m_data.currentTotalBytes))
            : tr("batch %1: %2").arg(formatCount(m_data.currentX), formatGiB(m_data.currentTotalBytes)));
    m_crossing->setPointLabelsFormat(crossingText());
    Q_EMIT legendChanged();
}

QList<LegendStrip::Entry> GrowthChartView::legendEntries() const
{
    QList<LegendStrip::Entry> entries;
    for (int i = 0; i < m_kvLines.size() && i < m_data.curves.size(); ++i)
        entries.append({m_kvLines.at(i)->name(), m_kvLines.at(i)->pen().color(), Qt::SolidLine,
                        i == m_data.currentCurve});
    entries.append({m_total->name(), m_total->pen().color(), Qt::DashLine, false});
    entries.append({m_budget->name(), m_budget->pen().color(), Qt::DashDotLine, false});
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
    for (int i = 0; i < m_kvLines.size(); ++i) {
        const KvCacheDtype dtype =
            i < m_data.curves.size() ? m_data.curves.at(i).kvCacheDtype : KvCacheDtype::BFloat16;
        QPen pen(theme::precisionColor(dtype, palette()), i == m_data.currentCurve ? 3.5 : 2.0);
        m_kvLines[i]->setPen(pen);
    }
    const QColor current =
        m_data.currentCurve < m_data.curves.size()
            ? theme::precisionColor(m_data.curves.at(m_data.currentCurve).kvCacheDtype, palette())
            : palette().color(QPalette::Text);
    m_total->setPen(QPen(current, 2.5, Qt::DashLine));
    m_budget->setPen(QPen(theme::budgetColor(palette()), 2.0, Qt::DashDotLine));
    m_current->setColor(current);
    m_current->setBorderColor(palette().color(QPalette::Base));
    m_crossing->setColor(theme::warningColor(palette()));
    m_crossing->setBorderColor(palette().color(QPalette::Base));
    for (QScatterSeries *point : {m_current, m_crossing}) {
        point->setPointLabelsColor(palette().color(QPalette::Text));
        point->setPointLabelsFont(theme::chartLabelFont());
    }
}

} // namespace kvscope
