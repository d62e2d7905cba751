// SPDX-License-Identifier: MIT
#include "ui/charts/chartcallout.h"

#include "ui/style/theme.h"

#include <algorithm>

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
    if (text == m_text)
        return;
    prepareGeometryChange();
    m_text = text;
    m_bounds.reset();
}

void ChartCallout::setFont(const QFont &font)
{
    if (font == m_font)
        return;
    prepareGeometryChange();
    m_font = font;
    m_bounds.reset();
}

void ChartCallout::setColors(const QColor &text, const QColor &background, const QColor &border)
{
    m_textColor = text;
    m_background = background;
    m_border = border;
    update();
}

void ChartCallout::setMaximumWidth(qreal width)
{
    if (width == m_maximumWidth)
        return;
    prepareGeometryChange();
    m_maximumWidth = width;
    m_bounds.reset();
}

QRectF ChartCallout::boundingRect() const
{
    // The scene asks for it many times a frame (placing, separating, indexing, painting);
    // the text is laid out again only when it, the font or the width changed.
    if (m_bounds)
        return *m_bounds;
    const QFontMetricsF metrics(m_font);
    const QRectF text = m_maximumWidth > 2 * Padding
                            ? metrics.boundingRect(QRectF(0, 0, m_maximumWidth - 2 * Padding, 1e6),
                                                   Qt::AlignCenter | Qt::TextWordWrap, m_text)
                            : metrics.boundingRect(m_text);
    m_bounds = QRectF(0, 0, text.width() + 2 * Padding, text.height() + 2 * Padding);
    return *m_bounds;
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
    painter->drawText(box, Qt::AlignCenter | Qt::TextWordWrap, m_text);
}

void placeCallout(ChartCallout *label, QPointF at, QPointF offset, const QRectF &plot)
{
    const QRectF box = label->boundingRect();
    QPointF pos = at + offset;
    if (pos.x() + box.width() > plot.right())
        pos.setX(at.x() - offset.x() - box.width());
    pos.setX(std::clamp(pos.x(), plot.left(), std::max(plot.left(), plot.right() - box.width())));
    pos.setY(std::clamp(pos.y(), plot.top(), std::max(plot.top(), plot.bottom() - box.height())));
    label->setPos(pos);
}

void placeReason(ChartCallout *label, const QRectF &plot)
{
    label->setMaximumWidth(plot.width() - theme::lineWidth(8));
    placeCallout(label, plot.center() - QPointF(label->boundingRect().width() / 2, 0), {}, plot);
}

void separateCallouts(const QList<ChartCallout *> &labels)
{
    QList<ChartCallout *> placed;
    for (ChartCallout *label : labels) {
        if (!label->isVisible())
            continue;
        for (ChartCallout *other : placed) {
            const QRectF a = label->sceneBoundingRect(), b = other->sceneBoundingRect();
            if (a.intersects(b))
                label->setY(b.bottom() + 2);
        }
        placed << label;
    }
}

void styleCallouts(const QList<ChartCallout *> &labels, const QPalette &palette)
{
    QColor background = palette.color(QPalette::Base);
    background.setAlpha(235);
    for (ChartCallout *label : labels) {
        label->setFont(theme::chartLabelFont());
        label->setColors(palette.color(QPalette::Text), background, palette.color(QPalette::Mid));
    }
}

} // namespace kvscope
