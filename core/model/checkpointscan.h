// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/checkpoint.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace kvscope {

/// Measures the .safetensors shards of a model folder from their headers
/// only: the shards model.safetensors.index.json maps (each mapped tensor
/// must be in its shard), else every *.safetensors file in the folder. A
/// folder without shards gives an unmeasured result and a warning. Throws
/// kvscope::Error naming the file, the tensor and the value.
MeasuredCheckpoint measureSafetensorsFolder(const QString &folder, QStringList &warnings);

/// The shard files model.safetensors.index.json at `indexPath` maps, each with
/// its tensor names, read within a size limit (never from a FIFO or device),
/// every shard checked to be a plain file name inside the folder. Throws
/// kvscope::Error naming the file, the field and the value.
QHash<QString, QStringList> readSafetensorsIndex(const QString &indexPath);

/// The files of a llama.cpp split GGUF ("name-00001-of-00003.gguf") in order,
/// or just `path` when it is not split. Throws when a split file is missing.
QStringList ggufSplitFiles(const QString &path, int splitCount);

} // namespace kvscope
