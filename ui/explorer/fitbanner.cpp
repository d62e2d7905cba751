// SPDX-License-Identifier: MIT
#include "explorer/fitbanner.h"

#include "common/units.h"
#include "theme.h"

#include <QApplication>
#include <QEvent>

namespace kvscope {

FitBanner::FitBanner(QWidget *parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("fitBanner"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMargin(8);
    setAutoFillBackground(true);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    setFont(f);
}

void FitBanner::showPlan(const MemoryPlan &p)
{
    m_plan = p;
    m_warning = !p.fits || !p.engineStarts;
    QString text;
    if (p.fits) {
        text = tr("<b>Fits.</b> %1 headroom of the %2 budget per GPU.")
                   .arg(formatGiB(p.headroomBytes), formatGiB(p.budgetBytes));
    } else {
        const QString longest = p.largestSeqLenThatFits < 0
                                    ? tr("any length")
                                    : tr("%1 tokens").arg(formatCount(p.largestSeqLenThatFits));
        text = tr("<b>Does not fit:</b> %1 over the %2 budget per GPU. At %3 tokens the largest batch that "
                  "fits is "
                  "<b>%4</b>; at batch %5 the longest sequence is <b>%6</b>.")
                   .arg(formatGiB(-p.headroomBytes), formatGiB(p.budgetBytes), formatCount(p.seqLen),
                        formatCount(p.largestBatchThatFits), formatCount(p.batchSize), longest);
    }
    if (!p.engineStarts)
        text +=
            QLatin1Char(' ') +
            tr("vLLM would refuse to start: one %1-token request needs %2 KV blocks and the cache holds %3; "
               "--max-model-len %4 would fit.")
                .arg(formatCount(p.maxModelLen), formatCount(p.kv.blocksPerMaxRequest),
                     formatCount(p.kv.numGpuBlocks), formatCount(p.kv.maxModelLenThatFits));
    setText(text);
    restyle();
}

void FitBanner::restyle()
{
    // Decide colours from the surrounding palette; ours has the tinted background.
    const QPalette surrounding = parentWidget() ? parentWidget()->palette() : QApplication::palette();
    QPalette pal = surrounding;
    const QColor accent = m_warning ? theme::warningColor(pal) : theme::partColor(MemoryPart::KvCache, pal);
    QColor background = accent;
    background.setAlpha(40);
    pal.setColor(QPalette::Window, background);
    setPalette(pal);
    // The text colour too: a style sheet takes unset colours from the application's palette, which
    // an export in the other theme does not share.
    setStyleSheet(QStringLiteral("QLabel#fitBanner { border-left: 5px solid %1; color: %2; }")
                      .arg(accent.name(), surrounding.color(QPalette::WindowText).name()));
}

void FitBanner::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        showPlan(m_plan);
    QLabel::changeEvent(event);
}

} // namespace kvscope
