// SPDX-License-Identifier: MIT
// The validation suites' data files (tests/data/*.json), read whole.
#pragma once

#include "core/common/error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope::validation {

/// The file's top-level object. Throws kvscope::Error naming the file when it cannot be read.
inline QJsonObject readJsonDataFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(QStringLiteral("%1: %2").arg(path, file.errorString()));
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// The rows of the array `key` in the data file at `path`, each read into a `Row` whose id and source
/// are the row's and whose other fields `readRow(row, t)` fills (throwing kvscope::Error for a bad row).
template <class Row, class ReadRow>
QList<Row> readDataRows(const QString &path, const char *key, ReadRow readRow)
{
    QList<Row> rows;
    for (const QJsonValue &value : readJsonDataFile(path).value(QLatin1String(key)).toArray()) {
        const QJsonObject row = value.toObject();
        Row t;
        t.id = row.value(QLatin1String("id")).toString();
        t.source = row.value(QLatin1String("source")).toString();
        readRow(row, t);
        rows.push_back(t);
    }
    return rows;
}

} // namespace kvscope::validation
