// SPDX-License-Identifier: MIT
// Helpers shared by the core suites.
#pragma once

#include "library.h"

#include <QtGlobal>

namespace kvscope::test {

/// A built-in preset by id; aborts the suite if it is missing.
inline const ModelArch &preset(const QString &id)
{
    const ModelArch *m = ModelLibrary::builtin().find(id);
    if (!m)
        qFatal("preset %s missing", qPrintable(id));
    return *m;
}

} // namespace kvscope::test
