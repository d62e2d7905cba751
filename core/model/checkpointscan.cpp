// SPDX-License-Identifier: MIT
#include "core/model/checkpointscan.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/regularfile.h"
#include "core/common/units.h"
#include "core/formats/safetensors.h"
#include "core/model/hfconfig.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

namespace kvscope {

namespace {

constexpr qint64 MaxIndexBytes = 64 * MiB;
constexpr int MaxShards = 100'000;

} // namespace

QHash<QString, QStringList> readSafetensorsIndex(const QString &indexPath)
{
    const QJsonObject index = parseJsonObject(
        readRegularFile(indexPath, MaxIndexBytes, QStringLiteral("a safetensors index")), indexPath);
    const QJsonValue map = index.value(QLatin1String("weight_map"));
    if (!map.isObject())
        throw Error(QStringLiteral("%1: field 'weight_map' must be an object of tensor -> shard file")
                        .arg(indexPath));
    QHash<QString, QStringList> tensorsByShard;
    const QJsonObject weightMap = map.toObject();
    for (auto it = weightMap.begin(); it != weightMap.end(); ++it) {
        const QString shard = it.value().toString();
        if (shard.isEmpty() || shard.contains(QLatin1Char('/')) || shard.contains(QLatin1Char('\\')) ||
            shard == QLatin1String(".") || shard == QLatin1String(".."))
            throw Error(
                QStringLiteral("%1: field 'weight_map.%2' is '%3', not a file name in the model folder")
                    .arg(indexPath, it.key(), it.value().toVariant().toString()));
        tensorsByShard[shard] << it.key();
        if (tensorsByShard.size() > MaxShards)
            throw Error(QStringLiteral("%1: more than %2 shard files").arg(indexPath).arg(MaxShards));
    }
    return tensorsByShard;
}

namespace {

void add(MeasuredCheckpoint &m, const SafetensorsHeader &header)
{
    Checked bytes = m.bytes, elements = m.elements;
    for (const SafetensorsEntry &e : header.tensors) {
        bytes += e.byteSize();
        elements += e.elements();
        m.bytesByType[e.dtypeText] = (Checked(m.bytesByType.value(e.dtypeText)) + e.byteSize()).value();
        m.elementsByType[e.dtypeText] = (Checked(m.elementsByType.value(e.dtypeText)) + e.elements()).value();
    }
    m.bytes = bytes.value();
    m.elements = elements.value();
    m.tensors += header.tensors.size();
    m.files += 1;
}

} // namespace

MeasuredCheckpoint measureSafetensorsFolder(const QString &folder, QStringList &warnings)
{
    const QDir dir(folder);
    MeasuredCheckpoint measured;
    const QString indexPath = dir.filePath(QStringLiteral("model.safetensors.index.json"));
    QSet<QString> seen;
    if (QFileInfo::exists(indexPath)) {
        const QHash<QString, QStringList> tensorsByShard = readSafetensorsIndex(indexPath);
        QStringList shards = tensorsByShard.keys();
        shards.sort();
        for (const QString &shard : shards) {
            const QString path = dir.filePath(shard);
            if (!QFileInfo::exists(path)) // anything else is the reader's to refuse
                throw Error(
                    QStringLiteral("%1: shard '%2' is listed but not in the folder").arg(indexPath, shard));
            const SafetensorsHeader header = readSafetensorsHeader(path);
            for (const QString &name : tensorsByShard.value(shard))
                if (!header.find(name))
                    throw Error(QStringLiteral("%1: tensor '%2' is mapped to '%3', which does not hold it")
                                    .arg(indexPath, name, shard));
            for (const SafetensorsEntry &e : header.tensors) {
                if (seen.contains(e.name))
                    throw Error(
                        QStringLiteral("%1: tensor '%2' appears in more than one shard").arg(path, e.name));
                seen.insert(e.name);
            }
            add(measured, header);
        }
    } else {
        const QStringList shards = dir.entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name);
        if (shards.size() > MaxShards)
            throw Error(QStringLiteral("%1: more than %2 .safetensors files").arg(folder).arg(MaxShards));
        for (const QString &shard : shards) {
            const SafetensorsHeader header = readSafetensorsHeader(dir.filePath(shard));
            for (const SafetensorsEntry &e : header.tensors) {
                if (seen.contains(e.name))
                    throw Error(QStringLiteral("%1: tensor '%2' appears in more than one shard")
                                    .arg(dir.filePath(shard), e.name));
                seen.insert(e.name);
            }
            add(measured, header);
        }
    }
    if (measured.files == 0)
        warnings << QStringLiteral(
                        "%1 holds no .safetensors files: weights are estimated from config.json only")
                        .arg(folder);
    else
        measured.format = QStringLiteral("safetensors");
    return measured;
}

QStringList ggufSplitFiles(const QString &path, int splitCount)
{
    if (splitCount <= 1)
        return {path};
    // llama.cpp's llama_split_path: "<prefix>-%05d-of-%05d.gguf".
    static const QRegularExpression pattern(QStringLiteral("^(.*)-(\\d{5})-of-(\\d{5})\\.gguf$"));
    const QFileInfo info(path);
    const QRegularExpressionMatch match = pattern.match(info.fileName());
    if (!match.hasMatch() || match.captured(3).toInt() != splitCount)
        throw Error(QStringLiteral("%1: split.count is %2, but the name is not '<name>-00001-of-%3.gguf'")
                        .arg(path)
                        .arg(splitCount)
                        .arg(splitCount, 5, 10, QLatin1Char('0')));
    QStringList files;
    for (int k = 1; k <= splitCount; ++k) {
        const QString name = QStringLiteral("%1-%2-of-%3.gguf")
                                 .arg(match.captured(1))
                                 .arg(k, 5, 10, QLatin1Char('0'))
                                 .arg(splitCount, 5, 10, QLatin1Char('0'));
        const QString file = info.dir().filePath(name);
        if (!QFileInfo(file).isFile())
            throw Error(QStringLiteral("%1: split file %2 of %3 ('%4') is missing")
                            .arg(path)
                            .arg(k)
                            .arg(splitCount)
                            .arg(name));
        files << file;
    }
    return files;
}

} // namespace kvscope
