// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace kvscope {

/// The columns `text` takes in a monospace font: two for an East Asian wide or
/// full-width character (CJK ideographs and punctuation, kana, Hangul, full-width
/// forms; Unicode's East_Asian_Width W and F), one for any other.
int displayColumns(const QString &text);

/// `text` padded with spaces to `width` display columns: on the right when `width`
/// is negative (left-aligned), on the left when positive, as QString::arg's field
/// width does for characters of one column.
QString padded(const QString &text, int width);

} // namespace kvscope
