// SPDX-License-Identifier: MIT
// docs/validation.md's generated section: predicted vs logged figures of every
// vLLM log, one table per engine version, written from the same checks the
// validation test asserts (so the document cannot drift from the code).
#pragma once

#include "tests/core/generateddoc.h"
#include "tests/core/vllmlogcheck.h"

#include <QJsonArray>
#include <QList>
#include <QString>

namespace kvscope::validation {

/// docs/validation.md, read from `path`.
GeneratedDocument validationDocument(const QString &path);

/// The markdown between the markers, from the checks of the modelled logs
/// and the skip reasons of the others (`logs` is the whole data file).
QString validationTables(const QList<LogCheck> &checks, const QJsonArray &logs);

} // namespace kvscope::validation
