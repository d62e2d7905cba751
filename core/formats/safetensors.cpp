// SPDX-License-Identifier: MIT
#include "core/formats/safetensors.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/regularfile.h"

#include <algorithm>
#include <cmath>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QtEndian>

namespace kvscope {

namespace {

struct DtypeInfo
{
    TensorDtype dtype;
    const char *name;
    int bytes;
};

constexpr DtypeInfo dtypeTable[] = {
    {TensorDtype::F64, "F64", 8},         {TensorDtype::F32, "F32", 4},
    {TensorDtype::F16, "F16", 2},         {TensorDtype::BF16, "BF16", 2},
    {TensorDtype::F8_E4M3, "F8_E4M3", 1}, {TensorDtype::F8_E5M2, "F8_E5M2", 1},
    {TensorDtype::I64, "I64", 8},         {TensorDtype::I32, "I32", 4},
    {TensorDtype::I16, "I16", 2},         {TensorDtype::I8, "I8", 1},
    {TensorDtype::U8, "U8", 1},           {TensorDtype::Bool, "BOOL", 1},
};

std::int64_t integerField(const QJsonValue &v, const QString &origin, const QString &what)
{
    const double d = v.toDouble(-1);
    if (!v.isDouble() || !std::isfinite(d) || d < 0 || d != std::floor(d) || d > 9.0e15)
        failAt(origin, QStringLiteral("%1 must be a non-negative integer").arg(what));
    return std::int64_t(d);
}

SafetensorsEntry parseEntry(const QString &name, const QJsonValue &value, std::int64_t dataBytes,
                            const QString &origin)
{
    if (!value.isObject())
        failAt(origin, QStringLiteral("tensor '%1' is not an object").arg(name));
    const QJsonObject o = value.toObject();
    SafetensorsEntry e;
    e.name = name;
    e.dtypeText = o.value(QLatin1String("dtype")).toString();
    if (e.dtypeText.isEmpty())
        failAt(origin, QStringLiteral("tensor '%1' has no dtype").arg(name));
    e.dtype = parseTensorDtype(e.dtypeText);

    const QJsonValue shape = o.value(QLatin1String("shape"));
    if (!shape.isArray())
        failAt(origin, QStringLiteral("tensor '%1' has no shape array").arg(name));
    for (const QJsonValue dim : shape.toArray())
        e.shape << integerField(dim, origin, QStringLiteral("tensor '%1' shape entries").arg(name));

    const QJsonArray offsets = o.value(QLatin1String("data_offsets")).toArray();
    if (offsets.size() != 2)
        failAt(origin, QStringLiteral("tensor '%1' needs data_offsets [begin, end]").arg(name));
    e.begin = integerField(offsets.at(0), origin, QStringLiteral("tensor '%1' data_offsets").arg(name));
    e.end = integerField(offsets.at(1), origin, QStringLiteral("tensor '%1' data_offsets").arg(name));
    if (e.begin > e.end || e.end > dataBytes)
        failAt(origin, QStringLiteral("tensor '%1' data_offsets [%2, %3] run past the %4-byte data section")
                           .arg(name)
                           .arg(e.begin)
                           .arg(e.end)
                           .arg(dataBytes));

    std::int64_t elements = 0;
    try {
        elements = e.elements();
    } catch (const Error &) {
        failAt(origin, QStringLiteral("tensor '%1' shape is too large").arg(name));
    }
    const int bytes = tensorDtypeBytes(e.dtype);
    if (bytes > 0 && (Checked(elements) * bytes).value() != e.byteSize())
        failAt(origin, QStringLiteral("tensor '%1' is %2 bytes but shape x %3 needs %4")
                           .arg(name)
                           .arg(e.byteSize())
                           .arg(e.dtypeText)
                           .arg(elements * bytes));
    return e;
}

} // namespace

TensorDtype parseTensorDtype(const QString &text)
{
    for (const DtypeInfo &info : dtypeTable)
        if (text == QLatin1String(info.name))
            return info.dtype;
    return TensorDtype::Unknown;
}

int tensorDtypeBytes(TensorDtype dtype)
{
    for (const DtypeInfo &info : dtypeTable)
        if (info.dtype == dtype)
            return info.bytes;
    return 0;
}

std::int64_t SafetensorsEntry::elements() const
{
    Checked n = 1;
    for (std::int64_t dim : shape)
        n *= dim;
    return n.value();
}

const SafetensorsEntry *SafetensorsHeader::find(const QString &name) const
{
    for (const SafetensorsEntry &e : tensors)
        if (e.name == name)
            return &e;
    return nullptr;
}

SafetensorsHeader parseSafetensorsHeader(const QByteArray &json, std::int64_t dataBytes,
                                         const QString &origin)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        failAt(origin, QStringLiteral("header is not valid JSON at offset %1: %2")
                           .arg(error.offset)
                           .arg(error.errorString()));
    if (!doc.isObject())
        failAt(origin, QStringLiteral("header is not a JSON object"));

    SafetensorsHeader header;
    header.headerBytes = json.size();
    header.dataBytes = dataBytes;
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__")) {
            const QJsonObject meta = it.value().toObject();
            for (auto m = meta.begin(); m != meta.end(); ++m)
                header.metadata.insert(m.key(), m.value().toString());
            continue;
        }
        header.tensors << parseEntry(it.key(), it.value(), dataBytes, origin);
    }
    std::sort(header.tensors.begin(), header.tensors.end(),
              [](const SafetensorsEntry &a, const SafetensorsEntry &b) {
                  return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
              });
    for (qsizetype i = 1; i < header.tensors.size(); ++i) {
        const SafetensorsEntry &previous = header.tensors.at(i - 1);
        const SafetensorsEntry &current = header.tensors.at(i);
        if (current.begin < previous.end)
            failAt(origin, QStringLiteral("tensors '%1' and '%2' overlap in the data section")
                               .arg(previous.name, current.name));
    }
    return header;
}

SafetensorsHeader readSafetensorsHeader(QIODevice &file, std::int64_t size, const QString &origin)
{
    if (size < 8)
        failAt(origin, QStringLiteral("file is %1 bytes, shorter than the 8-byte header length").arg(size));
    uchar lengthBytes[8];
    if (file.read(reinterpret_cast<char *>(lengthBytes), 8) != 8)
        failAt(origin, QStringLiteral("cannot read the header length: %1").arg(file.errorString()));
    const quint64 length = qFromLittleEndian<quint64>(lengthBytes);
    if (length > quint64(size - 8))
        failAt(
            origin,
            QStringLiteral("header length %1 runs past the end of the %2-byte file").arg(length).arg(size));
    if (length > quint64(MaxSafetensorsHeaderBytes))
        failAt(origin, QStringLiteral("header length %1 exceeds the 100 MB limit").arg(length));
    const QByteArray json = file.read(qint64(length));
    if (json.size() != qsizetype(length))
        failAt(origin, QStringLiteral("header is truncated"));
    return parseSafetensorsHeader(json, size - 8 - std::int64_t(length), origin);
}

SafetensorsHeader readSafetensorsHeader(const QString &path)
{
    QFile file;
    openRegularFile(file, path);
    return readSafetensorsHeader(file, file.size(), path);
}

SafetensorsFile SafetensorsFile::open(const QString &path)
{
    SafetensorsFile f;
    f.m_path = path;
    f.m_file = QSharedPointer<QFile>::create();
    openRegularFile(*f.m_file, path);
    f.m_header = readSafetensorsHeader(*f.m_file, f.m_file->size(), path);
    if (f.m_header.dataBytes > 0) {
        const qint64 dataOffset = 8 + f.m_header.headerBytes;
        f.m_dataStart = f.m_file->map(dataOffset, f.m_header.dataBytes);
        if (!f.m_dataStart)
            failAt(path,
                   QStringLiteral("cannot memory-map the data section: %1").arg(f.m_file->errorString()));
    }
    return f;
}

const uchar *SafetensorsFile::data(const SafetensorsEntry &entry) const
{
    return m_dataStart ? m_dataStart + entry.begin : nullptr;
}

} // namespace kvscope
