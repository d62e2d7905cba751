// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelarch.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace kvscope {

/// What a user handed kvscope.
enum class ImportKind
{
    ConfigFile,  ///< a HuggingFace config.json
    ConfigText,  ///< config.json text pasted into the window
    ModelFolder, ///< config.json plus .safetensors shards (headers measured)
    GgufFile,    ///< a llama.cpp .gguf file (split files are followed)
};

QString importKindName(ImportKind kind);

/// An imported model with its provenance. model.family is "Imported";
/// model.measured holds the checkpoint measured from file headers, if any.
struct ImportedModel
{
    ImportKind kind = ImportKind::ConfigFile;
    QString path; ///< file or folder imported; empty for pasted text
    ModelArch model;
    QStringList warnings; ///< also in model.notes; worth showing beside the model
};

/// Imports a config.json (any .json file), a model folder (config.json and
/// its .safetensors headers; a .safetensors or index.json path means its
/// folder) or a .gguf file (recognised by its magic). Reads headers only,
/// never tensor data. Throws kvscope::Error naming the file, field and value.
ImportedModel importModel(const QString &path);

/// Parses pasted config.json text; `origin` names it in error messages.
ImportedModel importConfigText(const QByteArray &json,
                               const QString &origin = QStringLiteral("pasted config"));

} // namespace kvscope
