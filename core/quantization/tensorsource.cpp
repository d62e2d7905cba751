// SPDX-License-Identifier: MIT
#include "core/quantization/tensorsource.h"

#include "core/common/error.h"
#include "core/common/regularfile.h"
#include "core/common/scenariofield.h"
#include "core/formats/npy.h"
#include "core/formats/safetensors.h"

#include <memory>
#include <optional>

#include <QFileInfo>

namespace kvscope::quant {

namespace {

bool isNpy(const QString &path)
{
    if (path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
        return true;
    if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive))
        return false;
    return regularFileStartsWith(path, QByteArray("\x93NUMPY", 6));
}

std::optional<ElementType> safetensorsType(TensorDtype dtype)
{
    switch (dtype) {
    case TensorDtype::F32:
        return ElementType::Float32;
    case TensorDtype::F16:
        return ElementType::Float16;
    case TensorDtype::BF16:
        return ElementType::BFloat16;
    default:
        return std::nullopt;
    }
}

std::optional<ElementType> npyType(const QString &descr)
{
    if (descr == QLatin1String("<f4"))
        return ElementType::Float32;
    if (descr == QLatin1String("<f2"))
        return ElementType::Float16;
    if (descr == QLatin1String("<V2") || descr == QLatin1String("|V2"))
        return ElementType::BFloat16;
    return std::nullopt;
}

QString shapeText(const QList<std::int64_t> &shape)
{
    QStringList dims;
    for (std::int64_t d : shape)
        dims << QString::number(d);
    return QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
}

/// Why the simulator cannot use a tensor of this type and shape, or empty.
QString unusableReason(bool knownType, const QString &dtype, const QList<std::int64_t> &shape)
{
    if (!knownType)
        return QStringLiteral("dtype %1 is not F32, F16 or BF16").arg(dtype);
    if (shape.size() != 2)
        return QStringLiteral("shape %1 is %2-D, the simulator needs a 2-D tensor [rows, cols]")
            .arg(shapeText(shape))
            .arg(shape.size());
    if (shape[0] == 0 || shape[1] == 0)
        return QStringLiteral("shape %1 has no elements").arg(shapeText(shape));
    return {};
}

QString npyArrayName(const QString &path)
{
    return QFileInfo(path).completeBaseName();
}

TensorInfo npyInfo(const QString &path, const NpyHeader &header)
{
    TensorInfo info{npyArrayName(path), header.descr, header.shape, {}};
    if (header.descr.startsWith(QLatin1Char('>')))
        info.unusableReason =
            QStringLiteral("descr '%1' is big-endian; save it little-endian").arg(header.descr);
    else if (header.fortranOrder)
        info.unusableReason = QStringLiteral("array is in Fortran order; save it with np.ascontiguousarray");
    else
        info.unusableReason = unusableReason(npyType(header.descr).has_value(), header.descr, header.shape);
    return info;
}

TensorInfo safetensorsInfo(const SafetensorsEntry &entry)
{
    return {entry.name, entry.dtypeText, entry.shape,
            unusableReason(safetensorsType(entry.dtype).has_value(), entry.dtypeText, entry.shape)};
}

QString nameList(const QList<SafetensorsEntry> &tensors)
{
    QStringList names;
    for (const SafetensorsEntry &e : tensors) {
        if (names.size() == 8) {
            names << QStringLiteral("… %1 more").arg(tensors.size() - 8);
            break;
        }
        names << e.name;
    }
    return names.join(QStringLiteral(", "));
}

TensorData openNpy(const QString &path, const QString &name)
{
    auto file = std::make_shared<NpyFile>(NpyFile::open(path));
    const TensorInfo info = npyInfo(path, file->header());
    if (!name.isEmpty() && name != info.name)
        failAt(path, QStringLiteral("a .npy file holds one array, '%1'; there is no tensor '%2'")
                         .arg(info.name, name));
    if (!info.unusableReason.isEmpty())
        failAt(path, info.unusableReason);
    const unsigned char *bytes = file->data();
    return TensorData::fromBytes(bytes, *npyType(info.dtype), info.shape[0], info.shape[1], std::move(file),
                                 path, info.name);
}

TensorData openSafetensors(const QString &path, const QString &name)
{
    auto file = std::make_shared<SafetensorsFile>(SafetensorsFile::open(path));
    const QList<SafetensorsEntry> &tensors = file->tensors();
    const SafetensorsEntry *entry = nullptr;
    if (name.isEmpty()) {
        if (tensors.size() != 1)
            failAt(path, QStringLiteral("holds %1 tensors; pick one with %2 (see %3)")
                             .arg(tensors.size())
                             .arg(commandFlag(CommandOption::Tensor), commandFlag(CommandOption::List)));
        entry = &tensors.first();
    } else {
        entry = file->header().find(name);
        if (!entry)
            failAt(path, QStringLiteral("no tensor '%1' (the file holds: %2)").arg(name, nameList(tensors)));
    }
    const TensorInfo info = safetensorsInfo(*entry);
    if (!info.unusableReason.isEmpty())
        failAt(path, QStringLiteral("tensor '%1': %2").arg(entry->name, info.unusableReason));
    const unsigned char *bytes = file->data(*entry);
    return TensorData::fromBytes(bytes, *safetensorsType(entry->dtype), entry->shape[0], entry->shape[1],
                                 std::move(file), path, entry->name);
}

} // namespace

QString TensorInfo::shapeText() const
{
    return quant::shapeText(shape);
}

QList<TensorInfo> listTensors(const QString &path)
{
    if (isNpy(path)) {
        const NpyFile file = NpyFile::open(path);
        return {npyInfo(path, file.header())};
    }
    QList<TensorInfo> infos;
    for (const SafetensorsEntry &entry : readSafetensorsHeader(path).tensors)
        infos << safetensorsInfo(entry);
    return infos;
}

TensorData openTensor(const QString &path, const QString &name)
{
    if (!QFileInfo::exists(path))
        failAt(path, QStringLiteral("no such file"));
    return isNpy(path) ? openNpy(path, name) : openSafetensors(path, name);
}

} // namespace kvscope::quant
