// SPDX-License-Identifier: MIT
#include "ui/widgets/scrollingpane.h"

#include <algorithm>

#include <QScrollArea>
#include <QScrollBar>

namespace kvscope {

QScrollArea *scrollingPane(QWidget *content, QWidget *parent, Qt::ScrollBarPolicy horizontal)
{
    auto *area = new QScrollArea(parent);
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(horizontal);
    return area;
}

void keepPageWhole(QScrollArea *area, int atLeast)
{
    const int scrollBar = area->verticalScrollBar()->sizeHint().width();
    area->setMinimumWidth(std::max(atLeast, area->widget()->minimumSizeHint().width() + scrollBar));
}

} // namespace kvscope
