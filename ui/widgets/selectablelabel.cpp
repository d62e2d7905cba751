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
    bool changed = false;
    const auto sync = [&changed](const auto &held, const auto &wanted, const auto &set) {
        if (held != wanted) {
            set(wanted);
            changed = true;
        }
    };
    sync(twin.font(), font(), [&twin](const QFont &value) { twin.setFont(value); });
    sync(twin.textFormat(), textFormat(), [&twin](Qt::TextFormat value) { twin.setTextFormat(value); });
    sync(twin.wordWrap(), wordWrap(), [&twin](bool value) { twin.setWordWrap(value); });
    sync(twin.alignment(), alignment(), [&twin](Qt::Alignment value) { twin.setAlignment(value); });
    sync(twin.margin(), margin(), [&twin](int value) { twin.setMargin(value); });
    sync(twin.indent(), indent(), [&twin](int value) { twin.setIndent(value); });
    sync(twin.contentsMargins(), contentsMargins(),
         [&twin](const QMargins &value) { twin.setContentsMargins(value); });
    sync(twin.maximumWidth(), maximumWidth(), [&twin](int value) { twin.setMaximumWidth(value); });
    sync(twin.text(), text(), [&twin](const QString &value) { twin.setText(value); });
    if (changed)
        m_heightForWidth.clear();
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
    // Layouts ask the same few widths many times a frame, and QLabel keeps no height it measured.
    const QLabel &twin = plainTwin();
    if (const auto known = m_heightForWidth.constFind(width); known != m_heightForWidth.cend())
        return *known;
    if (m_heightForWidth.size() >= KeptHeights)
        m_heightForWidth.clear();
    return *m_heightForWidth.insert(width, twin.heightForWidth(width));
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
