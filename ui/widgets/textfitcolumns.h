// SPDX-License-Identifier: MIT
#pragma once

class QTableView;

namespace kvscope {

/// Keeps `table`'s columns as wide as their texts (the title's and every cell's): the room a wider view
/// leaves is shared in proportion, and a view narrower than the texts scrolls sideways instead of eliding
/// them (a figure cut to "2...." is no figure). Follows the model, the view's width and its font (the
/// presentation zoom).
void fitColumnsToTexts(QTableView *table);

} // namespace kvscope
