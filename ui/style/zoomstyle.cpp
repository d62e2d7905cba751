// SPDX-License-Identifier: MIT
#include "ui/style/zoomstyle.h"

#include "ui/style/theme.h"

#include <cmath>

#include <QApplication>
#include <QPalette>

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

void ZoomStyle::install()
{
    if (qobject_cast<ZoomStyle *>(QApplication::style()))
        return;
    const QPalette palette = QApplication::palette();
    QApplication::setStyle(new ZoomStyle(QApplication::style()->name()));
    QApplication::setPalette(palette);
}

} // namespace kvscope
