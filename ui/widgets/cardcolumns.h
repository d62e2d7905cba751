// SPDX-License-Identifier: MIT
#pragma once

#include <initializer_list>

#include <QList>

class QWidget;

namespace kvscope {

/// The widest minimum width among `cards` (their fonts grow with the presentation zoom).
int widestMinimumWidth(const QList<QWidget *> &cards);

/// Cards a row for a grid of cards as wide as the widest: the first of `candidates`
/// (largest first) whose row fits in `available` with `spacing` between cards, else one.
int cardColumnsThatFit(std::initializer_list<int> candidates, int widest, int spacing, int available);

} // namespace kvscope
