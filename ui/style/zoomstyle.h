// SPDX-License-Identifier: MIT
#pragma once

#include <QProxyStyle>

namespace kvscope {

/// The application's style with its indicators and small icons scaled by the
/// presentation zoom (theme::zoom()): the font alone grows otherwise, and check
/// boxes, radio buttons and tool-button icons stay at their 100 % size beside
/// text twice as large.
class ZoomStyle : public QProxyStyle
{
    Q_OBJECT

public:
    explicit ZoomStyle(const QString &baseStyleName);

    int pixelMetric(PixelMetric metric, const QStyleOption *option = nullptr,
                    const QWidget *widget = nullptr) const override;

    /// Puts a ZoomStyle over the application's style, once, keeping the palette
    /// (QApplication::setStyle() would reset it to the style's own).
    static void install();
};

} // namespace kvscope
