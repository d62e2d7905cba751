// SPDX-License-Identifier: MIT
#pragma once

#include <Qt>

class QScrollArea;
class QWidget;

namespace kvscope {

/// `content` in a frameless scroll area that resizes it to the area's width, so a
/// pane shorter than its content scrolls instead of squeezing it; by default
/// without a horizontal scroll bar.
QScrollArea *scrollingPane(QWidget *content, QWidget *parent,
                           Qt::ScrollBarPolicy horizontal = Qt::ScrollBarAlwaysOff);

/// The pane's width for a page `pageWidth` wide: the page and the vertical scroll bar beside it.
int paneWidthFor(const QScrollArea *area, int pageWidth);

/// A pane without a horizontal scroll bar at least as wide as its page's controls (and `atLeast`):
/// a splitter then widens the pane to that minimum instead of cutting the page.
void keepPageWhole(QScrollArea *area, int atLeast = 0);

} // namespace kvscope
