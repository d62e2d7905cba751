// SPDX-License-Identifier: MIT
#pragma once

#include "model/checkpoint.h"

#include <QString>
#include <QStringList>

namespace kvscope {

/// Measures the .safetensors shards of a model folder from their headers
/// only: the shards model.safetensors.index.json maps (each mapped tensor
/// must be in its shard), else every *.safetensors file in the folder. A
/// folder without shards gives an unmeasured result and a warning. Throws
/// kvscope::Error naming the file, the tensor and the value.
MeasuredCheckpoint measureSafetensorsFolder(const QString &folder, QStringList &warnings);

/// The files of a llama.cpp split GGUF ("name-00001-of-00003.gguf") in order,
/// or just `path` when it is not split. Throws when a split file is missing.
QStringList ggufSplitFiles(const QString &path, int splitCount);

} // namespace kvscope
