// SPDX-License-Identifier: MIT
#include "ui/widgets/cardcolumns.h"

#include <algorithm>

#include <QWidget>

namespace kvscope {

int widestMinimumWidth(const QList<QWidget *> &cards)
{
    int widest = 0;
    for (const QWidget *card : cards)
        widest = std::max(widest, card->minimumSizeHint().width());
    return widest;
}

int cardColumnsThatFit(std::initializer_list<int> candidates, int widest, int spacing, int available)
{
    for (const int candidate : candidates)
        if (candidate * widest + (candidate - 1) * spacing <= available)
            return candidate;
    return 1;
}

} // namespace kvscope
