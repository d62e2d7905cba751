// SPDX-License-Identifier: MIT
#include "core/common/csv.h"

#include <QLocale>

namespace kvscope::csv {

QByteArray row(std::initializer_list<QByteArray> cells)
{
    QByteArray line;
    for (const QByteArray &cell : cells)
        line += (line.isEmpty() ? QByteArray() : QByteArray(",")) + cell;
    return line + '\n';
}

QByteArray field(const QString &text)
{
    QByteArray utf8 = text.toUtf8();
    if (!utf8.contains(',') && !utf8.contains('"') && !utf8.contains('\n') && !utf8.contains('\r'))
        return utf8;
    return '"' + utf8.replace('"', "\"\"") + '"';
}

QByteArray integer(std::int64_t value)
{
    return QByteArray::number(qint64(value));
}

QByteArray decimal(double value)
{
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace kvscope::csv
