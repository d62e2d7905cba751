// SPDX-License-Identifier: MIT
#include "ui/widgets/elidingcombobox.h"

#include <algorithm>

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolTip>

namespace kvscope {

ElidingComboBox::ElidingComboBox(QWidget *parent) : QComboBox(parent) {}

QRect ElidingComboBox::textField() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    return style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
}

QString ElidingComboBox::displayedText() const
{
    return fontMetrics().elidedText(currentText(), Qt::ElideRight, textField().width());
}

QString ElidingComboBox::toolTipText() const
{
    if (displayedText() == currentText())
        return toolTip();
    return toolTip().isEmpty() ? currentText() : currentText() + QStringLiteral("\n\n") + toolTip();
}

bool ElidingComboBox::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), toolTipText(), this);
        return true;
    }
    return QComboBox::event(event);
}

void ElidingComboBox::showPopup()
{
    // The list shows every entry whole, however narrow the box.
    view()->setMinimumWidth(std::max(width(), view()->sizeHintForColumn(0) + view()->frameWidth() * 2));
    QComboBox::showPopup();
}

void ElidingComboBox::paintEvent(QPaintEvent *)
{
    // QComboBox::paintEvent, with the label's text elided to its field.
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = displayedText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace kvscope
