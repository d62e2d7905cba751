// SPDX-License-Identifier: MIT
#include "explorer/speedpanel.h"

#include "common/units.h"
#include "plan/speed.h"
#include "widgets/figurecard.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>

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

SpeedPanel::SpeedPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("speedPanel"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    for (const char *key :
         {"decodeTokensPerSecond", "decodePerSequence", "timeToFirstToken", "decodeBound"}) {
        m_cards << new FigureCard(QLatin1String(key), this);
        layout->addWidget(m_cards.last(), 1);
    }
    showSpeed(m_speed);
}

FigureCard *SpeedPanel::card(const QString &key) const
{
    for (FigureCard *card : m_cards)
        if (card->valueLabel()->objectName() == key)
            return card;
    return nullptr;
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
    const QLocale locale;
    const QString none = QStringLiteral("—");
    const QString why = s.notes.join(QLatin1Char(' '));
    if (!s.available) {
        card(QStringLiteral("decodeTokensPerSecond"))->setTexts(tr("Decode, all sequences"), none, why);
        card(QStringLiteral("decodePerSequence"))->setTexts(tr("Decode, per sequence"), none, why);
        card(QStringLiteral("timeToFirstToken"))->setTexts(tr("Time to first token"), none, why);
        card(QStringLiteral("decodeBound"))->setTexts(tr("Decode is"), none, why);
        return;
    }
    card(QStringLiteral("decodeTokensPerSecond"))
        ->setTexts(tr("Decode, all sequences"), tr("%1 tokens/s").arg(rate(s.decodeTokensPerSecond)),
                   tr("ideal %1 tokens/s · %2 sequences × %3 tokens · a step every %4")
                       .arg(rate(s.decodeTokensPerSecondIdeal), formatCount(s.batchSize, locale),
                            formatCount(s.contextLen, locale), formatDuration(s.decode.seconds)));
    card(QStringLiteral("decodePerSequence"))
        ->setTexts(tr("Decode, per sequence"),
                   tr("%1 tokens/s").arg(rate(s.decodeTokensPerSecondPerSequence)),
                   tr("one token every %1; ideal every %2")
                       .arg(formatDuration(s.decode.seconds), formatDuration(s.decode.idealSeconds)));
    card(QStringLiteral("timeToFirstToken"))
        ->setTexts(tr("Time to first token"), formatDuration(s.prefill.seconds),
                   tr("a %1-token prompt alone, %2; ideal %3")
                       .arg(formatCount(s.promptLen, locale), boundName(s.prefill.bound),
                            formatDuration(s.prefill.idealSeconds)));
    const QString ridge =
        s.ridgeBatch > 0 ? tr("compute-bound from batch %1 (ideal %2)")
                               .arg(formatCount(s.ridgeBatch, locale),
                                    s.ridgeBatchIdeal > 0 ? formatCount(s.ridgeBatchIdeal, locale) : none)
                         : tr("memory-bound at any batch at this length");
    card(QStringLiteral("decodeBound"))
        ->setTexts(tr("Decode is"), boundName(s.decode.bound),
                   tr("%1 · %2 %3 TFLOPS%4, %5 GB/s · efficiencies %6 / %7")
                       .arg(ridge, computeFormatName(s.computeFormat), formatDecimal(s.peakTflops, 0, locale),
                            s.weightOnly ? tr(" (weights dequantized)") : QString(),
                            formatCount(std::llround(s.bandwidthGBs), locale),
                            formatDecimal(s.bandwidthEfficiency, 2, locale),
                            formatDecimal(s.computeEfficiency, 2, locale)));
}

QString SpeedPanel::figuresText() const
{
    QStringList lines;
    for (const FigureCard *card : m_cards)
        lines << card->text();
    return lines.join(QLatin1Char('\n'));
}

void SpeedPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        showSpeed(m_speed);
    QWidget::changeEvent(event);
}

} // namespace kvscope
