// SPDX-License-Identifier: MIT
#include "core/model/modelimport.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/regularfile.h"
#include "core/formats/gguf.h"
#include "core/model/checkpointscan.h"
#include "core/model/ggufmodel.h"
#include "core/model/hfconfig.h"

#include <algorithm>

#include <QDir>
#include <QFileInfo>

namespace kvscope {

namespace {

const QString importedFamily = QStringLiteral("Imported");

void finish(ImportedModel &imported, const QString &id, const QString &source)
{
    ModelArch &m = imported.model;
    m.id = id;
    if (m.name.isEmpty())
        m.name = id;
    m.family = importedFamily;
    m.source = source;
    m.notes << imported.warnings;
}

ImportedModel importFolder(const QString &folder)
{
    const QDir dir(folder);
    const QString config = dir.filePath(QStringLiteral("config.json"));
    if (!QFileInfo(config).isFile()) {
        const QStringList gguf = dir.entryList({QStringLiteral("*.gguf")}, QDir::Files, QDir::Name);
        throw Error(
            QStringLiteral("%1: folder has no config.json%2")
                .arg(folder,
                     gguf.isEmpty()
                         ? QString()
                         : QStringLiteral(" (it holds %1: pass the .gguf file itself)").arg(gguf.first())));
    }
    ImportedModel imported;
    imported.kind = ImportKind::ModelFolder;
    imported.path = QFileInfo(folder).absoluteFilePath();
    imported.model = loadHfConfigFile(config);
    imported.model.measured = measureSafetensorsFolder(folder, imported.warnings);
    finish(imported, QFileInfo(imported.path).fileName(), imported.path);
    return imported;
}

ImportedModel importGguf(const QString &path)
{
    ImportedModel imported;
    imported.kind = ImportKind::GgufFile;
    imported.path = QFileInfo(path).absoluteFilePath();
    const GgufFile file = readGgufFile(path);
    imported.model = modelFromGguf(file, path);
    // llama.cpp split files: metadata in the first, tensors in all of them.
    const QStringList splits = ggufSplitFiles(
        path,
        int(std::clamp<std::int64_t>(file.integer(QStringLiteral("split.count")).value_or(1), 1, 100'000)));
    for (qsizetype i = 1; i < splits.size(); ++i) {
        const MeasuredCheckpoint part = measureGguf(readGgufFile(splits.at(i)));
        MeasuredCheckpoint &m = imported.model.measured;
        m.files += part.files;
        m.tensors += part.tensors;
        m.bytes = (Checked(m.bytes) + part.bytes).value();
        m.elements = (Checked(m.elements) + part.elements).value();
        for (auto it = part.bytesByType.begin(); it != part.bytesByType.end(); ++it)
            m.bytesByType[it.key()] = (Checked(m.bytesByType.value(it.key())) + it.value()).value();
        for (auto it = part.elementsByType.begin(); it != part.elementsByType.end(); ++it)
            m.elementsByType[it.key()] = (Checked(m.elementsByType.value(it.key())) + it.value()).value();
    }
    if (splits.size() > 1)
        imported.warnings << QStringLiteral("split GGUF: %1 files measured").arg(splits.size());
    finish(imported, QFileInfo(path).completeBaseName(), imported.path);
    return imported;
}

} // namespace

namespace {

const EnumSpelling<ImportKind> importKindNames[] = {
    {ImportKind::ConfigFile, "config.json"},
    {ImportKind::ConfigText, "pasted config"},
    {ImportKind::ModelFolder, "model folder"},
    {ImportKind::GgufFile, "GGUF"},
};

} // namespace

QString importKindName(ImportKind kind)
{
    return enumName(importKindNames, kind);
}

ImportedModel importModel(const QString &path)
{
    if (isBrokenSymlink(fileKind(path)))
        failAt(path, describePath(path));
    const QFileInfo info(path);
    if (!info.exists())
        throw Error(QStringLiteral("%1: no such file or folder").arg(path));
    if (info.isDir())
        return importFolder(info.filePath());
    const QString name = info.fileName();
    if (name.endsWith(QLatin1String(".safetensors")) || name == QLatin1String("model.safetensors.index.json"))
        return importFolder(info.dir().path());
    if (name.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive) || looksLikeGguf(path))
        return importGguf(path);
    ImportedModel imported;
    imported.kind = ImportKind::ConfigFile;
    imported.path = info.absoluteFilePath();
    imported.model = loadHfConfigFile(path);
    const QString parent = info.dir().dirName();
    const QString id =
        name == QLatin1String("config.json") && !parent.isEmpty() && parent != QLatin1String(".")
            ? parent
            : info.completeBaseName();
    finish(imported, id, imported.path);
    return imported;
}

ImportedModel importConfigText(const QByteArray &json, const QString &origin)
{
    ImportedModel imported;
    imported.kind = ImportKind::ConfigText;
    imported.model = parseHfConfig(parseJsonObject(json, origin), origin);
    const QString id =
        imported.model.architecture.isEmpty() ? QStringLiteral("pasted-config") : imported.model.architecture;
    finish(imported, id, origin);
    return imported;
}

} // namespace kvscope
