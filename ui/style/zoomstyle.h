// SPDX-License-Identifier: MIT
#pragma once

#include <QProxyStyle>

namespace kvscope {

/// The application's style with its indicators legible: scaled, with the small
/// icons, by the presentation zoom (theme::zoom()): the font alone grows
/// otherwise, and check boxes, radio buttons and tool-button icons stay at their
/// 100 % size beside text twice as large; and outlined on a dark palette, where
/// Fusion draws their frame a shade darker than the window, all but invisible on
/// a projector.
class ZoomStyle : public QProxyStyle
{
    Q_OBJECT

public:
    explicit ZoomStyle(const QString &baseStyleName);

    int pixelMetric(PixelMetric metric, const QStyleOption *option = nullptr,
                    const QWidget *widget = nullptr) const override;
    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;

    /// Puts a ZoomStyle over the application's style, once, keeping the palette
    /// (QApplication::setStyle() would reset it to the style's own).
    static void install();
};

} // namespace kvscope
