// SPDX-License-Identifier: MIT
#include "ui/widgets/selectablelabel.h"

#include "ui/widgets/textshaping.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOption>
#include <QTextDocument>

namespace kvscope {

SelectableLabel::SelectableLabel(QWidget *parent) : QLabel(parent)
{
    setTextInteractionFlags(Qt::TextSelectableByMouse);
}

const QLabel &SelectableLabel::plainTwin() const
{
    // Only what changed is set: some of QLabel's setters drop its measured sizes even when
    // handed the value they hold (setWordWrap, setIndent), which would cost the measuring again.
    QLabel &twin = m_plainTwin;
    if (twin.font() != font())
        twin.setFont(font());
    if (twin.textFormat() != textFormat())
        twin.setTextFormat(textFormat());
    if (twin.wordWrap() != wordWrap())
        twin.setWordWrap(wordWrap());
    if (twin.alignment() != alignment())
        twin.setAlignment(alignment());
    if (twin.margin() != margin())
        twin.setMargin(margin());
    if (twin.indent() != indent())
        twin.setIndent(indent());
    if (twin.contentsMargins() != contentsMargins())
        twin.setContentsMargins(contentsMargins());
    if (twin.maximumWidth() != maximumWidth())
        twin.setMaximumWidth(maximumWidth());
    if (twin.text() != text())
        twin.setText(text());
    return twin;
}

QSize SelectableLabel::sizeHint() const
{
    return plainTwin().sizeHint();
}

QSize SelectableLabel::minimumSizeHint() const
{
    return plainTwin().minimumSizeHint();
}

int SelectableLabel::heightForWidth(int width) const
{
    return plainTwin().heightForWidth(width);
}

bool SelectableLabel::drawnPlain() const
{
    const bool rich =
        textFormat() == Qt::RichText || (textFormat() == Qt::AutoText && Qt::mightBeRichText(text()));
    return !rich && indent() < 0 && frameWidth() == 0 && !hasSelectedText() && !hasFocus();
}

void SelectableLabel::paintEvent(QPaintEvent *event)
{
    if (!drawnPlain()) {
        keepTextShaping(this);
        QLabel::paintEvent(event);
        return;
    }
    // QLabel::paintEvent for a plain text without a text control.
    QPainter painter(this);
    drawFrame(&painter);
    // QLabelPrivate::documentRect, for a label with no indent and no frame.
    const QRect textRect = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
    const Qt::LayoutDirection direction = text().isRightToLeft() ? Qt::RightToLeft : Qt::LeftToRight;
    int flags = QStyle::visualAlignment(direction, alignment());
    if (wordWrap())
        flags |= Qt::TextWordWrap;
    flags |= direction == Qt::LeftToRight ? Qt::TextForceLeftToRight : Qt::TextForceRightToLeft;
    QStyleOption option;
    option.initFrom(this);
    style()->drawItemText(&painter, textRect, flags, option.palette, isEnabled(), text(), foregroundRole());
}

} // namespace kvscope
