// SPDX-License-Identifier: MIT
#include "ui/style/zoomstyle.h"

#include "ui/style/theme.h"

#include <cmath>

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QStyleOption>

namespace kvscope {

ZoomStyle::ZoomStyle(const QString &baseStyleName) : QProxyStyle(baseStyleName) {}

int ZoomStyle::pixelMetric(PixelMetric metric, const QStyleOption *option, const QWidget *widget) const
{
    const int base = QProxyStyle::pixelMetric(metric, option, widget);
    switch (metric) {
    case PM_IndicatorWidth:
    case PM_IndicatorHeight:
    case PM_ExclusiveIndicatorWidth:
    case PM_ExclusiveIndicatorHeight:
    case PM_SmallIconSize:
    case PM_ButtonIconSize:
    case PM_ToolBarIconSize:
    case PM_MenuButtonIndicator:
        return int(std::lround(theme::lineWidth(base)));
    default:
        return base;
    }
}

void ZoomStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                              const QWidget *widget) const
{
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    const bool indicator = element == PE_IndicatorCheckBox || element == PE_IndicatorRadioButton;
    if (!indicator || !option || !theme::isDark(option->palette))
        return;
    // Fusion's frame is the window colour darkened (QFusionStylePrivate::outline): redrawn in the
    // palette's mid tone, dimmed with the control when it is disabled.
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    QColor frame = option->palette.color(QPalette::Mid);
    if (!(option->state & State_Enabled))
        frame.setAlphaF(0.5);
    painter->setPen(QPen(frame, 1));
    painter->setBrush(Qt::NoBrush);
    const QRectF box = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (element == PE_IndicatorRadioButton)
        painter->drawEllipse(box);
    else
        painter->drawRect(box);
    painter->restore();
}

void ZoomStyle::install()
{
    if (qobject_cast<ZoomStyle *>(QApplication::style()))
        return;
    const QPalette palette = QApplication::palette();
    QApplication::setStyle(new ZoomStyle(QApplication::style()->name()));
    QApplication::setPalette(palette);
}

} // namespace kvscope
