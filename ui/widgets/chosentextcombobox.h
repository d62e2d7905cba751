// SPDX-License-Identifier: MIT
#pragma once

#include <QComboBox>

namespace kvscope {

/// A combo box at least as wide as its chosen entry's text, which shows whole:
/// Qt's minimum of a number of characters cut longer entries ("Gaussian weights"
/// when presented), and sizing to the longest entry would widen the layout for
/// entries that are not shown (the popup shows them whole). An editable box
/// keeps Qt's minimum.
class ChosenTextComboBox : public QComboBox
{
    Q_OBJECT

public:
    explicit ChosenTextComboBox(QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;
};

} // namespace kvscope
