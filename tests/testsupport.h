// SPDX-License-Identifier: MIT
// Helpers shared by the core suites.
#pragma once

#include "library.h"

#include <QStringList>
#include <QtGlobal>

#include <cstddef>

namespace kvscope::test {

/// A built-in preset by id; aborts the suite if it is missing.
inline const ModelArch &preset(const QString &id)
{
    const ModelArch *m = ModelLibrary::builtin().find(id);
    if (!m)
        qFatal("preset %s missing", qPrintable(id));
    return *m;
}

/// Ids of built-in presets that a table of rows (each with a `const char *id`)
/// leaves out, so that per-preset tables grow with the library.
template<typename Row, std::size_t N>
QStringList presetsMissingFrom(const Row (&rows)[N])
{
    QStringList missing;
    for (const ModelArch &m : ModelLibrary::builtin().models()) {
        bool found = false;
        for (const Row &row : rows)
            found = found || m.id == QLatin1String(row.id);
        if (!found)
            missing << m.id;
    }
    return missing;
}

} // namespace kvscope::test
