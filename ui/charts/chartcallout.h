// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QList>
#include <QPalette>

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
    /// Wraps the text at word boundaries to fit this width (0: one line, as long as the text).
    void setMaximumWidth(qreal width);
    void setColors(const QColor &text, const QColor &background, const QColor &border);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_text;
    QFont m_font;
    qreal m_maximumWidth = 0;
    QColor m_textColor, m_background, m_border;
    mutable std::optional<QRectF> m_bounds; ///< boundingRect() of the text, font and width set
};

/// Places a callout at `at` + `offset`, inside `plot`; flipped to the left of
/// `at` where it would cross the plot's right edge.
void placeCallout(ChartCallout *label, QPointF at, QPointF offset, const QRectF &plot);
/// A sentence standing in for a chart's figures: wrapped to the plot's width, across its middle.
void placeReason(ChartCallout *label, const QRectF &plot);

/// Moves each visible callout down past the earlier ones it overlaps, in order.
void separateCallouts(const QList<ChartCallout *> &labels);

/// The charts' callout look: the label font, the text colour on the base colour
/// (nearly opaque), a mid-tone border.
void styleCallouts(const QList<ChartCallout *> &labels, const QPalette &palette);

} // namespace kvscope
