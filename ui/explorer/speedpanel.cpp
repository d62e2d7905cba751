// SPDX-License-Identifier: MIT
#include "ui/explorer/speedpanel.h"

#include "core/common/units.h"
#include "core/output/stepbreakdown.h"
#include "core/plan/speed.h"
#include "ui/charts/stepbreakdownchart.h"
#include "ui/widgets/cardcolumns.h"
#include "ui/widgets/figurecard.h"
#include "ui/widgets/legendstrip.h"
#include "ui/widgets/selectablelabel.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace kvscope {

namespace {

QString rate(double perSecond)
{
    return formatRate(perSecond, QLocale());
}

QString boundName(SpeedBound bound)
{
    return bound == SpeedBound::Memory ? SpeedPanel::tr("memory-bound") : SpeedPanel::tr("compute-bound");
}

} // namespace

SpeedPanel::SpeedPanel(QWidget *parent)
    : QWidget(parent), m_grid(new QGridLayout), m_serving(new FigureCard(QStringLiteral("serving"), this)),
      m_speculative(new FigureCard(QStringLiteral("speculative"), this)), m_notes(new SelectableLabel(this)),
      m_breakdown(new StepBreakdownChartView(this)),
      m_breakdownLegend(m_breakdown->makeLegend(this, QStringLiteral("stepBreakdownLegend")))
{
    setObjectName(QStringLiteral("speedPanel"));
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    for (const char *key : {"decodeTokensPerSecond", "decodePerSequence", "timeToFirstToken", "decodeBound"})
        m_cards << new FigureCard(QLatin1String(key), this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_grid);
    // What the figures assume (a stand-in efficiency, a layout no measurement checks, ...).
    m_notes->setObjectName(QStringLiteral("speedNotes"));
    m_notes->setWordWrap(true);
    layout->addWidget(m_notes);
    layout->addWidget(m_breakdown);
    layout->addWidget(m_breakdownLegend);
    showSpeed(m_speed);
}

void SpeedPanel::setBreakdownChartVisible(bool visible)
{
    m_breakdownWanted = visible;
    showBreakdown();
}

void SpeedPanel::showBreakdown()
{
    // Without a speed figure the chart would be an empty axis; the cards say why.
    const bool shown = m_breakdownWanted && m_speed.available && m_speed.startFailure.isEmpty();
    m_breakdown->setVisible(shown);
    m_breakdownLegend->setVisible(shown);
}

void SpeedPanel::reflow()
{
    const int widest = widestMinimumWidth({m_cards.cbegin(), m_cards.cend()});
    // Set here, so the grid does not demand four cards' width of the column.
    setMinimumWidth(widest);
    const int columns = cardColumnsThatFit({4, 2}, widest, m_grid->horizontalSpacing(), width());
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (FigureCard *card : std::as_const(m_cards))
        m_grid->removeWidget(card);
    for (int i = 0; i < m_cards.size(); ++i)
        m_grid->addWidget(m_cards.at(i), i / columns, i % columns);
    const int servingRow = int((m_cards.size() + columns - 1) / columns);
    m_grid->removeWidget(m_serving);
    m_grid->addWidget(m_serving, servingRow, 0, 1, columns);
    m_grid->removeWidget(m_speculative);
    m_grid->addWidget(m_speculative, servingRow + 1, 0, 1, columns);
    for (int c = 0; c < 4; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
}

void SpeedPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    reflow();
}

FigureCard *SpeedPanel::card(const QString &key) const
{
    return FigureCard::find(m_cards + QList<FigureCard *>{m_serving, m_speculative}, key);
}

QLabel *SpeedPanel::valueLabel(const QString &key) const
{
    FigureCard *c = card(key);
    return c ? c->valueLabel() : nullptr;
}

QLabel *SpeedPanel::detailLabel(const QString &key) const
{
    FigureCard *c = card(key);
    return c ? c->detailLabel() : nullptr;
}

void SpeedPanel::showSpeed(const SpeedPlan &s)
{
    m_speed = s;
    m_breakdown->showBreakdown(stepBreakdownChartData(s));
    showBreakdown();
    // Where the cards have figures, the notes say what they rest on; else the cards say why not.
    const bool figures = s.available && s.startFailure.isEmpty();
    m_notes->setText(s.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(figures && !s.notes.isEmpty());
    const QLocale locale;
    const QString none = QStringLiteral("—");
    // A server that never starts has no speed: the reason stands in for every figure.
    const QString why = s.startFailure.isEmpty() ? s.notes.join(QLatin1Char(' ')) : s.startFailure;
    if (!s.available || !s.startFailure.isEmpty()) {
        card(QStringLiteral("decodeTokensPerSecond"))->setTexts(tr("Decode, all sequences"), none, why);
        card(QStringLiteral("decodePerSequence"))->setTexts(tr("Decode, per sequence"), none, why);
        card(QStringLiteral("timeToFirstToken"))->setTexts(tr("Time to first token"), none, why);
        card(QStringLiteral("decodeBound"))->setTexts(tr("Decode is"), none, why);
        m_serving->setVisible(false);
        m_speculative->setVisible(false);
        reflow();
        return;
    }
    // A batch the KV cache cannot hold: the engine decodes what it holds and queues the rest.
    const QString held =
        s.batchSize < s.requestedBatchSize
            ? tr("speed for %1 sequences: the KV cache holds %1 of %2")
                      .arg(formatCount(s.batchSize, locale), formatCount(s.requestedBatchSize, locale)) +
                  QStringLiteral(" · ")
            : QString();
    // Data-parallel ranks step at once, each its share of the sequences.
    const QString ranks = s.ranks > 1
                              ? QStringLiteral(" · ") + tr("%1 ranks of %2 sequences, a step each at once")
                                                            .arg(s.ranks)
                                                            .arg(formatCount(s.rankBatchSize, locale))
                              : QString();
    // A pipeline's batches in flight, one a stage (the core's split of the sequences).
    const StepQuantities &step = s.decode.quantities;
    const QString batches =
        step.pipelineBatches > 1
            ? QStringLiteral(" · ") + tr("%1 batches of %2 sequences in flight, one a stage")
                                          .arg(step.pipelineBatches)
                                          .arg(formatCount(step.sequences, locale))
            : QString();
    card(QStringLiteral("decodeTokensPerSecond"))
        ->setTexts(tr("Decode, all sequences"), tr("%1 tokens/s").arg(rate(s.decodeTokensPerSecond)),
                   held +
                       tr("ideal %1 tokens/s · %2 sequences × %3 tokens · a step every %4")
                           .arg(rate(s.decodeTokensPerSecondIdeal), formatCount(s.batchSize, locale),
                                formatCount(s.contextLen, locale), formatDuration(s.decode.seconds)) +
                       ranks + batches);
    card(QStringLiteral("decodePerSequence"))
        ->setTexts(tr("Decode, per sequence"),
                   tr("%1 tokens/s").arg(rate(s.decodeTokensPerSecondPerSequence)),
                   tr("one token every %1; ideal every %2")
                       .arg(formatDuration(s.decode.seconds), formatDuration(s.decode.idealSeconds)));
    card(QStringLiteral("timeToFirstToken"))
        ->setTexts(
            tr("Time to first token"), formatDuration(s.prefill.seconds),
            (s.cachedPromptTokens > 0
                 ? tr("a %1-token prompt alone, %2 of its tokens from the prefix cache, %3; ideal %4")
                       .arg(formatCount(s.promptLen, locale), formatCount(s.cachedPromptTokens, locale))
                 : tr("a %1-token prompt alone, %2; ideal %3").arg(formatCount(s.promptLen, locale)))
                .arg(boundName(s.prefill.bound), formatDuration(s.prefill.idealSeconds)));
    const QString ridge =
        s.ridgeBatch > 0 ? tr("compute-bound from batch %1 (ideal %2)")
                               .arg(formatCount(s.ridgeBatch, locale),
                                    s.ridgeBatchIdeal > 0 ? formatCount(s.ridgeBatchIdeal, locale) : none)
                         : tr("memory-bound at any batch at this length");
    const QString calibrated =
        s.calibrationSource.isEmpty() ? QString() : tr(" · calibrated from your measurement");
    card(QStringLiteral("decodeBound"))
        ->setTexts(tr("Decode is"), boundName(s.decode.bound),
                   tr("%1 · %2 %3 TFLOPS%4, %5 GB/s · efficiencies %6 / %7")
                       .arg(ridge, computeFormatName(s.computeFormat), formatDecimal(s.peakTflops, 0, locale),
                            s.weightOnly ? tr(" (weights dequantized)") : QString(),
                            formatCount(std::llround(s.bandwidthGBs), locale),
                            formatDecimal(s.bandwidthEfficiency, 2, locale),
                            formatDecimal(s.computeEfficiency, 2, locale) + calibrated));
    showServing(s);
    showSpeculative(s);
    reflow(); // new texts, new widths
}

void SpeedPanel::showServing(const SpeedPlan &s)
{
    m_serving->setVisible(s.serving.has_value());
    if (!s.serving)
        return;
    const ServingCost &v = *s.serving;
    const QLocale locale;
    if (v.requestRate > 0) {
        showServingAtRate(v);
        return;
    }
    const QString users = v.concurrency < s.batchSize
                              ? tr("%1 users (the KV cache holds %1 of the %2 at once)")
                                    .arg(formatCount(v.concurrency, locale), formatCount(s.batchSize, locale))
                              : tr("%1 users").arg(formatCount(v.concurrency, locale));
    m_serving->setTexts(
        tr("Serving %1, each a %2-token prompt and %3 tokens out")
            .arg(users, formatCount(v.promptLen, locale), formatCount(v.outputLen, locale)),
        tr("%1 tokens/s").arg(rate(v.outputTokensPerSecond)),
        tr("a token every %1 on average (%2 % of steps also prefill another prompt) · first token after %3 · "
           "a "
           "request takes %4")
            .arg(formatDuration(v.interTokenSeconds), formatDecimal(v.prefillStepShare * 100, 1, locale),
                 formatDuration(v.timeToFirstTokenSeconds), formatDuration(v.requestSeconds)));
}

void SpeedPanel::showServingAtRate(const ServingCost &v)
{
    const QLocale locale;
    const QString title = tr("Serving %1 requests a second, each a %2-token prompt and %3 tokens out")
                              .arg(locale.toString(v.requestRate, 'g', 7), formatCount(v.promptLen, locale),
                                   formatCount(v.outputLen, locale));
    if (v.saturated) {
        // The queue grows without end: no first-token time, the most the server completes instead.
        m_serving->setTexts(
            title, tr("saturated"),
            tr("with %1 in flight (what the KV cache and the engine run at once) it completes "
               "%2 requests a second, %3 tokens/s; the rest queue, so first tokens wait longer "
               "and longer")
                .arg(formatCount(v.concurrency, locale), formatDecimal(v.maxRequestRate, 2, locale),
                     rate(v.outputTokensPerSecond)));
        return;
    }
    m_serving->setTexts(
        title, tr("%1 tokens/s").arg(rate(v.outputTokensPerSecond)),
        tr("%1 requests in flight on average · a token every %2 · first token after %3 · a request takes %4")
            .arg(formatDecimal(v.requestsInFlight, 1, locale), formatDuration(v.interTokenSeconds),
                 formatDuration(v.timeToFirstTokenSeconds), formatDuration(v.requestSeconds)));
}

void SpeedPanel::showSpeculative(const SpeedPlan &s)
{
    m_speculative->setVisible(s.speculative.has_value());
    if (!s.speculative)
        return;
    const SpeculativeSpeed &x = *s.speculative;
    const QLocale locale;
    const QString pays =
        x.breakEvenBatch < 0
            ? tr("it pays at every batch")
            : tr("it stops paying from %1 sequences, where verifying costs more than the drafts yield")
                  .arg(formatCount(x.breakEvenBatch, locale));
    m_speculative->setTexts(
        tr("With the drafter: %1 drafts a step, each accepted with p = %2")
            .arg(formatCount(x.draftTokens, locale), formatDecimal(x.acceptanceRate, 3, locale)),
        tr("%1 tokens/s · %2×").arg(rate(x.tokensPerSecond), formatDecimal(x.speedup, 2, locale)),
        tr("%1 tokens a step in %2: the model verifies in %3, the drafter proposes in %4 × %5 · %6")
            .arg(formatDecimal(x.tokensPerStep, 2, locale), formatDuration(x.stepSeconds),
                 formatDuration(x.verifyPass.seconds), formatCount(x.draftTokens, locale),
                 formatDuration(x.draftPass.seconds), pays));
}

QString SpeedPanel::figuresText() const
{
    QStringList lines;
    for (const FigureCard *card : m_cards)
        lines << card->text();
    for (const FigureCard *row : {m_serving, m_speculative})
        if (row->isVisibleTo(this))
            lines << row->text();
    lines << m_breakdown->summaryText();
    return lines.join(QLatin1Char('\n'));
}

void SpeedPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        showSpeed(m_speed);
    else if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
        reflow();
    QWidget::changeEvent(event);
}

} // namespace kvscope
