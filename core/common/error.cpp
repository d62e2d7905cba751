// SPDX-License-Identifier: MIT
#include "core/common/error.h"

namespace kvscope {

bool isPrintable(QChar c)
{
    // A surrogate is half of a character beyond U+FFFF, printable as a pair.
    return c.isPrint() || c.isSurrogate();
}

QString printableText(const QString &text)
{
    QString shown;
    shown.reserve(text.size());
    for (const QChar c : text) {
        if (isPrintable(c))
            shown += c;
        else if (c.unicode() < 0x100)
            shown += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            shown += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
    }
    return shown;
}

QString boundedText(const QString &text)
{
    if (text.size() <= MaxErrorLength)
        return text;
    const qsizetype head = MaxErrorLength * 3 / 4, tail = MaxErrorLength / 8;
    return text.left(head) + QStringLiteral(" … (%1 characters left out) … ").arg(text.size() - head - tail) +
           text.right(tail);
}

} // namespace kvscope
