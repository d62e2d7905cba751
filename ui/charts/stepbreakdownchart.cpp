// SPDX-License-Identifier: MIT
#include "ui/charts/stepbreakdownchart.h"

#include "core/common/units.h"
#include "ui/charts/chartcallout.h"
#include "ui/style/theme.h"

#include <cmath>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCoreApplication>
#include <QEvent>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QValueAxis>

namespace kvscope {

namespace {

constexpr StepPass passes[] = {StepPass::Decode, StepPass::Prefill};

/// The decode step is the upper bar (next to its axis at the top), the prefill the lower.
int categoryOf(StepPass pass)
{
    return pass == StepPass::Decode ? 1 : 0;
}

StepPass passOf(int category)
{
    return category == categoryOf(StepPass::Decode) ? StepPass::Decode : StepPass::Prefill;
}

double milliseconds(double seconds)
{
    return seconds * 1000;
}

/// The smallest of 1, 2, 2.5, 5 x 10^k at or above `value`: axis lengths that stay put while
/// the bar changes a little (a segment that does not change keeps its length).
double roundUp(double value)
{
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (const double step : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (step * decade >= value * (1 - 1e-12))
            return step * decade;
    return 10 * decade;
}

} // namespace

QString stepTermName(StepTerm term)
{
    return QCoreApplication::translate("kvscope::StepTerm", stepTermLabel(term));
}

QString stepSegmentText(const StepSegment &segment)
{
    const double percent = 100 * segment.share;
    return QStringLiteral("%1 (%2 %)")
        .arg(formatDuration(segment.seconds), formatDecimal(percent, percent < 1 ? 1 : 0, QLocale()));
}

StepBreakdownChartView::StepBreakdownChartView(QWidget *parent)
    : ChartView(QStringLiteral("stepBreakdownChart"), QMargins(4, 2, 12, 2), parent),
      m_bars(new QHorizontalStackedBarSeries), m_share(new QValueAxis), m_categories(new QBarCategoryAxis),
      m_reason(new ChartCallout(chart()))
{
    setBaseMinimumHeight(170);
    QChart *chart = this->chart();
    m_bars->setBarWidth(0.7);
    for (std::size_t t = 0; t < StepTermCount; ++t) {
        m_sets[t] =
            new QBarSet(stepTermKey(StepTerm(t))); // Qt's legend is hidden: the key names it for tests
        m_sets[t]->append({0, 0});
        m_bars->append(m_sets[t]);
    }
    chart->addSeries(m_bars);
    m_categories->append({QStringLiteral("prefill"), QStringLiteral("decode")}); // named in retranslate()
    m_categories->setGridLineVisible(false);
    chart->addAxis(m_categories, Qt::AlignLeft);
    m_share->setRange(0, 1);
    m_share->setVisible(false);
    chart->addAxis(m_share, Qt::AlignBottom);
    m_bars->attachAxis(m_share);
    m_bars->attachAxis(m_categories);
    for (const StepPass pass : passes) {
        const int p = int(pass);
        m_axes[p] = new QValueAxis;
        m_axes[p]->setLabelFormat(QStringLiteral("%.4g ms"));
        m_axes[p]->setTickType(QValueAxis::TicksDynamic);
        m_axes[p]->setTickAnchor(0);
        // Each bar has its own scale: grid lines of both would cross both bars.
        m_axes[p]->setGridLineVisible(false);
        chart->addAxis(m_axes[p], pass == StepPass::Decode ? Qt::AlignTop : Qt::AlignBottom);
        m_axisCarriers[p] = new QLineSeries;
        chart->addSeries(m_axisCarriers[p]);
        m_axisCarriers[p]->attachAxis(m_axes[p]);
        m_axisCarriers[p]->attachAxis(m_categories);
        m_totals[p] = new QGraphicsSimpleTextItem(chart);
        m_totals[p]->setZValue(10);
        for (std::size_t t = 0; t < StepTermCount; ++t) {
            m_labels[p][t] = new QGraphicsSimpleTextItem(chart);
            m_labels[p][t]->setZValue(10);
        }
    }
    connect(m_bars, &QHorizontalStackedBarSeries::hovered, this,
            [this](bool status, int category, QBarSet *set) {
                for (std::size_t t = 0; t < StepTermCount; ++t)
                    if (m_sets[t] == set)
                        setToolTip(status ? segmentToolTip(passOf(category), StepTerm(t)) : QString());
            });
    connect(chart, &QChart::plotAreaChanged, this, &StepBreakdownChartView::placeLabels);
    applyPalette();
    showBreakdown(m_data);
}

void StepBreakdownChartView::showBreakdown(const StepBreakdownChartData &data)
{
    m_data = data;
    restack();
    retranslate();
    placeLabels();
}

void StepBreakdownChartView::restack()
{
    // Only the terms that take time are in the series: a term of neither pass draws nothing at all.
    // Re-stacked only when that set changes: rebuilding the series re-lays out its bars, which a
    // slider step cannot afford.
    std::bitset<StepTermCount> present;
    for (std::size_t t = 0; t < StepTermCount; ++t)
        present[t] = m_data.decode.segment(StepTerm(t)) || m_data.prefill.segment(StepTerm(t));
    if (present == m_stacked && m_bars->count() == int(present.count()))
        return;
    m_stacked = present;
    for (QBarSet *set : m_bars->barSets())
        m_bars->take(set);
    for (std::size_t t = 0; t < StepTermCount; ++t)
        if (present[t])
            m_bars->append(m_sets[t]);
}

void StepBreakdownChartView::fitAxis(StepPass pass)
{
    // The total's text must fit between the bar's end and the plot's right edge.
    const int p = int(pass);
    const double total = milliseconds(m_data.bar(pass).seconds);
    const double width = chart()->plotArea().width();
    const double room = width - theme::lineWidth(6) - m_totals[p]->boundingRect().width();
    const double needed = total <= 0 ? 1 : room > 0 ? total * width / room : total;
    const double length = roundUp(needed);
    m_axes[p]->setRange(0, length);
    m_axes[p]->setTickInterval(roundUp(length / 5));
    for (std::size_t t = 0; t < StepTermCount; ++t) {
        const StepSegment *segment = m_data.bar(pass).segment(StepTerm(t));
        m_sets[t]->replace(categoryOf(pass), segment ? milliseconds(segment->seconds) / length : 0.0);
    }
}

QBarSet *StepBreakdownChartView::barSet(StepPass pass, StepTerm term) const
{
    return m_data.bar(pass).segment(term) ? m_sets[std::size_t(term)] : nullptr;
}

double StepBreakdownChartView::drawnMilliseconds(StepPass pass, StepTerm term) const
{
    return m_sets[std::size_t(term)]->at(categoryOf(pass)) * m_axes[int(pass)]->max();
}

QGraphicsSimpleTextItem *StepBreakdownChartView::segmentLabel(StepPass pass, StepTerm term) const
{
    return m_labels[int(pass)][std::size_t(term)];
}

QRectF StepBreakdownChartView::segmentRect(StepPass pass, StepTerm term) const
{
    const StepBar &bar = m_data.bar(pass);
    if (!bar.segment(term))
        return {};
    const int category = categoryOf(pass);
    double start = 0;
    for (std::size_t t = 0; t < std::size_t(term); ++t)
        start += m_sets[t]->at(category);
    const double half = m_bars->barWidth() / 2;
    const QPointF corner = chart()->mapToPosition(QPointF(start, category + half), m_bars);
    const QPointF opposite = chart()->mapToPosition(
        QPointF(start + m_sets[std::size_t(term)]->at(category), category - half), m_bars);
    return QRectF(corner, opposite).normalized();
}

void StepBreakdownChartView::placeLabels()
{
    // Fitting an axis changes its labels, which may lay the chart out again at once:
    // place everything once more for the final plot area.
    if (m_placing) {
        m_placeAgain = true;
        return;
    }
    m_placing = true;
    // Without figures the chart says why, across the middle of the plot.
    m_reason->setVisible(!m_data.available);
    if (!m_data.available)
        placeReason(m_reason, chart()->plotArea());
    for (int round = 0; round < 3; ++round) {
        m_placeAgain = false;
        for (const StepPass pass : passes) {
            m_totals[int(pass)]->setText(totalText(pass));
            fitAxis(pass);
            placeTotal(pass);
            for (std::size_t t = 0; t < StepTermCount; ++t)
                placeSegmentLabel(pass, StepTerm(t));
        }
        if (!m_placeAgain)
            break;
    }
    m_placing = false;
}

void StepBreakdownChartView::placeTotal(StepPass pass)
{
    QGraphicsSimpleTextItem *total = m_totals[int(pass)];
    const double end = milliseconds(m_data.bar(pass).seconds) / m_axes[int(pass)]->max();
    const QPointF at = chart()->mapToPosition(QPointF(end, categoryOf(pass)), m_bars);
    total->setPos(at.x() + theme::lineWidth(6), at.y() - total->boundingRect().height() / 2);
}

void StepBreakdownChartView::placeSegmentLabel(StepPass pass, StepTerm term)
{
    // Inside the segment or not at all: a short segment's time is in its tooltip.
    QGraphicsSimpleTextItem *label = segmentLabel(pass, term);
    const StepSegment *segment = m_data.bar(pass).segment(term);
    if (!segment) {
        label->setVisible(false);
        return;
    }
    label->setText(formatDuration(segment->seconds));
    const QRectF box = label->boundingRect();
    const QRectF rect = segmentRect(pass, term);
    label->setVisible(rect.width() >= box.width() + theme::lineWidth(8) && rect.height() >= box.height());
    label->setPos(rect.center().x() - box.width() / 2, rect.center().y() - box.height() / 2);
}

QString StepBreakdownChartView::segmentToolTip(StepPass pass, StepTerm term) const
{
    const StepSegment *segment = m_data.bar(pass).segment(term);
    if (!segment)
        return {};
    return tr("%1: %2").arg(stepTermName(term), stepSegmentText(*segment));
}

QString StepBreakdownChartView::title()
{
    return tr("Where the time goes, per GPU");
}

QString StepBreakdownChartView::passName(const StepBreakdownChartData &data, StepPass pass)
{
    const QLocale locale;
    return pass == StepPass::Decode
               ? tr("Decode step, %1 sequences").arg(formatCount(data.batchSize, locale))
               : tr("First token, a %1-token prompt").arg(formatCount(data.promptLen, locale));
}

QString StepBreakdownChartView::totalText(StepPass pass) const
{
    return m_data.available ? formatDuration(m_data.bar(pass).seconds) : QStringLiteral("—");
}

QString StepBreakdownChartView::summaryText() const
{
    QStringList lines{chart()->title()};
    if (!m_data.available)
        return (lines << m_data.notes).join(QLatin1Char('\n'));
    for (const StepPass pass : passes) {
        lines << QStringLiteral("%1: %2").arg(passName(m_data, pass), totalText(pass));
        for (const StepSegment &segment : m_data.bar(pass).segments)
            lines << QStringLiteral("  ") + segmentToolTip(pass, segment.term);
    }
    return lines.join(QLatin1Char('\n'));
}

QList<LegendStrip::Entry> StepBreakdownChartView::legendEntries() const
{
    QList<LegendStrip::Entry> entries;
    for (std::size_t t = 0; t < StepTermCount; ++t) {
        const StepTerm term = StepTerm(t);
        if (m_data.decode.segment(term) || m_data.prefill.segment(term))
            entries.append({stepTermName(term), theme::stepTermColor(term, palette()), Qt::NoPen, false});
    }
    return entries;
}

void StepBreakdownChartView::retranslate()
{
    theme::setTitle(chart(), title());
    // The cards above say how many sequences and how long a prompt; the bars need only their names.
    const QStringList names{tr("First token"), tr("Decode step")}; // in category order, bottom up
    if (m_categories->categories() != names)
        m_categories->setCategories(names);
    m_reason->setText(tr("No speed figures: %1").arg(m_data.notes.join(QLatin1Char(' '))));
    Q_EMIT legendChanged();
}

void StepBreakdownChartView::applyPalette()
{
    ChartView::applyPalette();
    QFont labelFont = theme::chartLabelFont();
    labelFont.setBold(true);
    const QColor base = palette().color(QPalette::Base);
    for (std::size_t t = 0; t < StepTermCount; ++t) {
        const QColor color = theme::stepTermColor(StepTerm(t), palette());
        m_sets[t]->setColor(color);
        // A thin line in the background colour between segments of similar colours.
        m_sets[t]->setPen(QPen(base, theme::lineWidth(1)));
        for (const StepPass pass : passes) {
            m_labels[int(pass)][t]->setBrush(theme::textOn(color));
            m_labels[int(pass)][t]->setFont(labelFont);
        }
    }
    for (const StepPass pass : passes) {
        m_totals[int(pass)]->setBrush(palette().color(QPalette::Text));
        m_totals[int(pass)]->setFont(labelFont);
    }
    styleCallouts({m_reason}, palette());
    placeLabels();
    Q_EMIT legendChanged();
}

} // namespace kvscope
