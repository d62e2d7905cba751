// SPDX-License-Identifier: MIT
#include "ui/widgets/wrappedtooltips.h"

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QTextDocument>
#include <QToolTip>

namespace kvscope {

QString WrappedToolTips::wrapped(const QString &plain)
{
    QString html = plain.toHtmlEscaped();
    html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    return QStringLiteral("<p>%1</p>").arg(html);
}

bool WrappedToolTips::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QObject::eventFilter(watched, event);
    auto *widget = qobject_cast<QWidget *>(watched);
    if (!widget)
        return QObject::eventFilter(watched, event);
    const auto *help = static_cast<QHelpEvent *>(event);
    QString tip = widget->toolTip();
    // An item view asks its model (the event reaches its viewport).
    if (auto *view = qobject_cast<QAbstractItemView *>(widget->parentWidget());
        view && view->viewport() == widget)
        tip = view->indexAt(help->pos()).data(Qt::ToolTipRole).toString();
    if (tip.isEmpty() || Qt::mightBeRichText(tip))
        return QObject::eventFilter(watched, event);
    QToolTip::showText(help->globalPos(), wrapped(tip), widget, {}, widget->toolTipDuration());
    return true;
}

} // namespace kvscope
