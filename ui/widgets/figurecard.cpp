// SPDX-License-Identifier: MIT
#include "ui/widgets/figurecard.h"

#include "ui/style/theme.h"
#include "ui/widgets/selectablelabel.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace kvscope {

FigureCard::FigureCard(const QString &key, QWidget *parent)
    : QFrame(parent), m_caption(new SelectableLabel(this)), m_value(new SelectableLabel(this)),
      m_detail(new SelectableLabel(this))
{
    setObjectName(key + QStringLiteral("Card"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    m_value->setObjectName(key);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(0);
    // As the figures panel's cards, scaled with the presentation zoom.
    theme::setScaledFont(m_caption, 0.9);
    theme::setScaledFont(m_value, 1.6, true);
    theme::setScaledFont(m_detail, 0.9);
    m_detail->setWordWrap(true);
    for (QLabel *label : {m_caption, m_value, m_detail})
        layout->addWidget(label);
    layout->addStretch(1);
    applyPalette();
}

void FigureCard::setTexts(const QString &caption, const QString &value, const QString &detail)
{
    m_caption->setText(caption);
    m_value->setText(value);
    m_detail->setText(detail);
    setToolTip(detail);
}

FigureCard *FigureCard::find(const QList<FigureCard *> &cards, const QString &key)
{
    for (FigureCard *card : cards)
        if (card->m_value->objectName() == key)
            return card;
    return nullptr;
}

QString FigureCard::text() const
{
    return QStringLiteral("%1: %2 (%3)").arg(m_caption->text(), m_value->text(), m_detail->text());
}

void FigureCard::applyPalette()
{
    QPalette muted = palette();
    muted.setColor(QPalette::WindowText, theme::mutedTextColor(palette()));
    m_caption->setPalette(muted);
    m_detail->setPalette(muted);
}

void FigureCard::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QFrame::changeEvent(event);
}

} // namespace kvscope
