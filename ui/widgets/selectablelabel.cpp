// SPDX-License-Identifier: MIT
#include "ui/widgets/selectablelabel.h"

#include "ui/widgets/textshaping.h"

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

void SelectableLabel::paintEvent(QPaintEvent *event)
{
    keepTextShaping(this);
    QLabel::paintEvent(event);
}

} // namespace kvscope
