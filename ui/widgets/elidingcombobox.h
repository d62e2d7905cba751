// SPDX-License-Identifier: MIT
#pragma once

#include <QComboBox>

namespace kvscope {

/// A combo box whose chosen entry, when longer than the box, shows shortened with an ellipsis instead of
/// cut mid-letter (a drafter's repository id beside its drafts box); its tooltip then opens with the whole
/// entry, and the list opens wide enough for every entry.
class ElidingComboBox : public QComboBox
{
    Q_OBJECT

public:
    explicit ElidingComboBox(QWidget *parent = nullptr);

    /// The chosen entry's text as the box paints it at its present width.
    QString displayedText() const;
    /// What the tooltip shows: the whole entry where the box shortens it, then the box's own tooltip.
    QString toolTipText() const;
    void showPopup() override;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    /// The text field's rectangle inside the box, as the style lays it out.
    QRect textField() const;
};

} // namespace kvscope
