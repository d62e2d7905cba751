// SPDX-License-Identifier: MIT
#include "ui/widgets/scrollingpane.h"

#include <QScrollArea>

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

} // namespace kvscope
