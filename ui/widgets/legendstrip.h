// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QList>
#include <QPen>
#include <QWidget>

class QLabel;

namespace kvscope {

/// A chart legend that wraps instead of truncating: colour swatch (a block
/// or a line with the series' pen) and selectable text per entry.
class LegendStrip : public QWidget
{
    Q_OBJECT

public:
    struct Entry
    {
        QString text;
        QColor color;
        Qt::PenStyle lineStyle = Qt::NoPen; ///< NoPen: a filled block; else a line swatch
        bool emphasized = false;
    };

    explicit LegendStrip(QWidget *parent = nullptr);

    void setEntries(const QList<Entry> &entries);
    QStringList texts() const;

private:
    QList<QWidget *> m_items;
    QList<Entry> m_entries;
};

} // namespace kvscope
