// SPDX-License-Identifier: MIT
#include "core/common/integertext.h"

#include "core/common/error.h"

#include <QRegularExpression>

namespace kvscope {

IntegerText IntegerText::read(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*([+-]?)(\\d+)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    IntegerText t;
    if (!match.hasMatch())
        return t;
    t.isInteger = true;
    t.negative = match.captured(1) == QLatin1String("-");
    // QString::toLongLong fails beyond 64 bits, so "fits" is exactly its ok.
    t.value = (match.captured(1) + match.captured(2)).toLongLong(&t.fits);
    t.negative = t.negative && (!t.fits || t.value != 0);
    return t;
}

std::int64_t parseInteger(const QString &text, const QString &option, std::int64_t minimum,
                          std::int64_t maximum, const QString &invalid)
{
    const IntegerText t = IntegerText::read(text);
    if (t.above(maximum))
        throw Error(QStringLiteral("%1: %2 is larger than %3").arg(option, text.trimmed()).arg(maximum));
    if (!t.isInteger || !t.fits || t.value < minimum)
        throw Error(invalid);
    return t.value;
}

} // namespace kvscope
