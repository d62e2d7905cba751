// SPDX-License-Identifier: MIT
// How the window reads a model path (the importer, the saved models):
// core's importModel(), or what a test puts in its place to see a read
// that throws anything or hangs.
#pragma once

#include "core/model/modelimport.h"
#include "ui/state/joboutcome.h"

#include <functional>

namespace kvscope {

using ModelReader = std::function<ImportedModel(const QString &path)>;

/// Reads `path` with the current reader. Any thread.
ImportedModel readModel(const QString &path);

/// Why reading `path` failed, naming it as the core's own messages do.
QString readFailureMessage(const QString &path, const JobFailure &failure);

/// Puts `reader` in importModel()'s place (tests); an empty one puts importModel() back.
void setModelReader(ModelReader reader);

} // namespace kvscope
