// SPDX-License-Identifier: MIT
#include "charts/chartcallout.h"

#include <QFontMetricsF>
#include <QPainter>

namespace kvscope {

namespace {
constexpr qreal Padding = 4;
}

ChartCallout::ChartCallout(QGraphicsItem *parent) : QGraphicsItem(parent)
{
    setZValue(20); // above every series
}

void ChartCallout::setText(const QString &text)
{
    prepareGeometryChange();
    m_text = text;
}

void ChartCallout::setFont(const QFont &font)
{
    prepareGeometryChange();
    m_font = font;
}

void ChartCallout::setColors(const QColor &text, const QColor &background, const QColor &border)
{
    m_textColor = text;
    m_background = background;
    m_border = border;
    update();
}

QRectF ChartCallout::boundingRect() const
{
    const QRectF text = QFontMetricsF(m_font).boundingRect(m_text);
    return QRectF(0, 0, text.width() + 2 * Padding, text.height() + 2 * Padding);
}

void ChartCallout::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const QRectF box = boundingRect();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(m_border, 1));
    painter->setBrush(m_background);
    painter->drawRoundedRect(box.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    painter->setPen(m_textColor);
    painter->setFont(m_font);
    painter->drawText(box, Qt::AlignCenter, m_text);
}

} // namespace kvscope
