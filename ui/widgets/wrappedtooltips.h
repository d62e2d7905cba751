// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

namespace kvscope {

/// Shows every plain-text tooltip of the application — a widget's own or an
/// item view's (Qt::ToolTipRole) — as rich text, which Qt word-wraps to a
/// readable width instead of one line as wide as the text (cut at the screen
/// edge). Install once on the application.
class WrappedToolTips : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    /// `plain` as rich text that wraps, line breaks kept.
    static QString wrapped(const QString &plain);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace kvscope
