// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>

namespace kvscope {

/// A text label on a chart with an opaque rounded background, so that no curve
/// runs through it; placed in scene coordinates by its chart.
class ChartCallout : public QGraphicsItem
{
public:
    explicit ChartCallout(QGraphicsItem *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    void setFont(const QFont &font);
    void setColors(const QColor &text, const QColor &background, const QColor &border);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_text;
    QFont m_font;
    QColor m_textColor, m_background, m_border;
};

} // namespace kvscope
