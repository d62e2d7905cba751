// SPDX-License-Identifier: MIT
#include "ui/widgets/legendstrip.h"

#include "ui/widgets/flowlayout.h"
#include "ui/widgets/selectablelabel.h"

#include <algorithm>

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>

namespace kvscope {

namespace {

/// The coloured mark in front of a legend entry, sized to the text beside it
/// (so it grows with a zoomed font).
class Swatch : public QWidget
{
public:
    Swatch(const QColor &color, Qt::PenStyle lineStyle, QWidget *parent)
        : QWidget(parent), m_color(color), m_lineStyle(lineStyle)
    {
        resizeToFont();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        if (m_lineStyle == Qt::NoPen) {
            painter.fillRect(rect().adjusted(3, 1, -3, -1), m_color);
            return;
        }
        // 2.5 px at the usual 14 px height.
        painter.setPen(QPen(m_color, height() * 2.5 / 14, m_lineStyle));
        painter.drawLine(QPointF(1, height() / 2.0), QPointF(width() - 1, height() / 2.0));
    }

    void changeEvent(QEvent *event) override
    {
        if (event->type() == QEvent::FontChange)
            resizeToFont();
        QWidget::changeEvent(event);
    }

private:
    void resizeToFont()
    {
        const int height = std::max(14, fontMetrics().height() * 14 / 17);
        setFixedSize(height * 22 / 14, height);
    }

    QColor m_color;
    Qt::PenStyle m_lineStyle;
};

} // namespace

LegendStrip::LegendStrip(QWidget *parent) : QWidget(parent)
{
    new FlowLayout(this);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void LegendStrip::setEntries(const QList<Entry> &entries)
{
    // Texts change with every plan (slider drags); widgets are rebuilt only
    // when the entries themselves change.
    bool sameShape = entries.size() == m_entries.size();
    for (qsizetype i = 0; sameShape && i < entries.size(); ++i)
        sameShape = entries[i].color == m_entries[i].color &&
                    entries[i].lineStyle == m_entries[i].lineStyle &&
                    entries[i].emphasized == m_entries[i].emphasized;
    m_entries = entries;
    if (sameShape) {
        for (qsizetype i = 0; i < entries.size(); ++i)
            if (auto *label = m_items[i]->findChild<QLabel *>())
                label->setText(entries[i].text);
        return;
    }
    qDeleteAll(m_items);
    m_items.clear();
    for (const Entry &entry : entries) {
        auto *item = new QWidget(this);
        auto *row = new QHBoxLayout(item);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(4);
        row->addWidget(new Swatch(entry.color, entry.lineStyle, item));
        auto *label = new SelectableLabel(item);
        label->setText(entry.text);
        if (entry.emphasized) {
            QFont font = label->font();
            font.setBold(true);
            label->setFont(font);
        }
        row->addWidget(label);
        layout()->addWidget(item);
        // Shown now rather than when the layout's queued show runs: a hidden entry has no width, and
        // the strip's minimum sets its column's before the next refresh.
        item->show();
        m_items.append(item);
    }
    updateGeometry();
}

QStringList LegendStrip::texts() const
{
    QStringList list;
    for (QWidget *item : m_items)
        if (auto *label = item->findChild<QLabel *>())
            list << label->text();
    return list;
}

} // namespace kvscope
