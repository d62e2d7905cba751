// SPDX-License-Identifier: MIT
#include "core/common/textcolumns.h"

#include <cstdlib>

#include <QList>

namespace kvscope {

namespace {

/// The blocks of East_Asian_Width W and F a log explanation or a table can meet
/// (Unicode's EastAsianWidth.txt, coarsened to whole blocks).
bool isWide(char32_t c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF) ||
           (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
           (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
           (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD);
}

} // namespace

int displayColumns(const QString &text)
{
    int columns = 0;
    const QList<uint> codePoints = text.toUcs4();
    for (const uint c : codePoints)
        columns += isWide(c) ? 2 : 1;
    return columns;
}

QString padded(const QString &text, int width)
{
    const int missing = std::abs(width) - displayColumns(text);
    if (missing <= 0)
        return text;
    const QString spaces(missing, QLatin1Char(' '));
    return width < 0 ? text + spaces : spaces + text;
}

} // namespace kvscope
