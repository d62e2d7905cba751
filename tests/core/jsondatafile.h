// SPDX-License-Identifier: MIT
// The validation suites' data files (tests/data/*.json), read whole.
#pragma once

#include "core/common/error.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
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

} // namespace kvscope::validation
