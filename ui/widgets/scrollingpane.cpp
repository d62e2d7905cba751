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

int paneWidthFor(const QScrollArea *area, int pageWidth)
{
    return pageWidth + area->verticalScrollBar()->sizeHint().width();
}

void keepPageWhole(QScrollArea *area, int atLeast)
{
    area->setMinimumWidth(std::max(atLeast, paneWidthFor(area, area->widget()->minimumSizeHint().width())));
}

} // namespace kvscope
