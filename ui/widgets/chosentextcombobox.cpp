// SPDX-License-Identifier: MIT
#include "ui/widgets/chosentextcombobox.h"

#include <QStyleOptionComboBox>

namespace kvscope {

ChosenTextComboBox::ChosenTextComboBox(QWidget *parent) : QComboBox(parent)
{
    // The minimum follows the chosen entry's text.
    connect(this, &QComboBox::currentTextChanged, this, [this] { updateGeometry(); });
}

QSize ChosenTextComboBox::minimumSizeHint() const
{
    const QSize least = QComboBox::minimumSizeHint();
    if (isEditable())
        return least;
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QSize text = fontMetrics().size(Qt::TextSingleLine, currentText());
    return least.expandedTo(style()->sizeFromContents(QStyle::CT_ComboBox, &option, text, this));
}

} // namespace kvscope
