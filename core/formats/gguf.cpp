// SPDX-License-Identifier: MIT
// GGUF header reader (format: ggml-org/ggml docs/gguf.md): magic "GGUF",
// u32 version, u64 tensor count, u64 key count, key/value pairs, tensor
// infos, padding to general.alignment, tensor data. Little-endian.
#include "core/formats/gguf.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/regularfile.h"

#include <algorithm>
#include <cstring>

#include <QFile>
#include <QSet>
#include <QtEndian>

namespace kvscope {

bool GgufValue::isInteger() const
{
    switch (type) {
    case GgufValueType::UInt8:
    case GgufValueType::Int8:
    case GgufValueType::UInt16:
    case GgufValueType::Int16:
    case GgufValueType::UInt32:
    case GgufValueType::Int32:
    case GgufValueType::UInt64:
    case GgufValueType::Int64:
        return true;
    default:
        return false;
    }
}

const GgufValue *GgufFile::value(const QString &key) const
{
    const auto it = metadata.constFind(key);
    return it == metadata.constEnd() ? nullptr : &it.value();
}

const GgufTensor *GgufFile::tensor(const QString &name) const
{
    for (const GgufTensor &t : tensors)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::optional<std::int64_t> GgufFile::integer(const QString &key) const
{
    const GgufValue *v = value(key);
    if (!v || !v->isInteger())
        return std::nullopt;
    return v->scalar.toLongLong();
}

QString GgufFile::string(const QString &key) const
{
    const GgufValue *v = value(key);
    return v && v->type == GgufValueType::String ? v->scalar.toString() : QString();
}

namespace {

/// Smallest encoding of one value of each type, to bound counts by the bytes left.
std::int64_t minimumBytes(GgufValueType type)
{
    switch (type) {
    case GgufValueType::UInt8:
    case GgufValueType::Int8:
    case GgufValueType::Bool:
        return 1;
    case GgufValueType::UInt16:
    case GgufValueType::Int16:
        return 2;
    case GgufValueType::UInt32:
    case GgufValueType::Int32:
    case GgufValueType::Float32:
        return 4;
    case GgufValueType::UInt64:
    case GgufValueType::Int64:
    case GgufValueType::Float64:
    case GgufValueType::String:
        return 8; // a string is at least its u64 length
    case GgufValueType::Array:
        return 12; // u32 type + u64 count
    }
    return 1;
}

bool knownValueType(std::uint32_t type)
{
    return type <= std::uint32_t(GgufValueType::Float64);
}

/// Sequential little-endian reads with the file offset in every message.
class Reader
{
public:
    Reader(QIODevice &device, std::int64_t size, QString origin)
        : m_device(device), m_size(size), m_origin(std::move(origin))
    {}

    std::int64_t position() const { return m_position; }
    std::int64_t remaining() const { return m_size - m_position; }
    const QString &origin() const { return m_origin; }

    [[noreturn]] void fail(const QString &problem) const
    {
        throw Error(QStringLiteral("%1: %2").arg(m_origin, problem));
    }

    void bytes(char *out, std::int64_t n, const QString &what)
    {
        if (n > remaining())
            fail(QStringLiteral("truncated at offset %1 while reading %2 (%3 bytes needed, %4 left)")
                     .arg(m_position)
                     .arg(what)
                     .arg(n)
                     .arg(remaining()));
        if (m_device.read(out, n) != n)
            fail(QStringLiteral("read error at offset %1 while reading %2").arg(m_position).arg(what));
        m_position += n;
    }

    template <typename T> T number(const QString &what)
    {
        uchar raw[sizeof(T)];
        bytes(reinterpret_cast<char *>(raw), sizeof(T), what);
        return qFromLittleEndian<T>(raw);
    }

    double float32(const QString &what)
    {
        const quint32 bits = number<quint32>(what);
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }

    double float64(const QString &what)
    {
        const quint64 bits = number<quint64>(what);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }

    /// A u64 count checked against the bytes left at `minimumEach` bytes per item.
    std::int64_t count(const QString &what, std::int64_t minimumEach, std::int64_t cap)
    {
        const quint64 n = number<quint64>(what);
        if (n > quint64(cap))
            fail(QStringLiteral("%1 is %2, more than kvscope reads (at most %3)").arg(what).arg(n).arg(cap));
        if (minimumEach > 0 && std::int64_t(n) > remaining() / minimumEach)
            fail(QStringLiteral("%1 is %2, but only %3 bytes follow: the header is truncated or corrupt")
                     .arg(what)
                     .arg(n)
                     .arg(remaining()));
        return std::int64_t(n);
    }

    QString string(const QString &what, std::int64_t cap = MaxGgufStringBytes)
    {
        const std::int64_t length = count(what + QStringLiteral(" length"), 1, cap);
        QByteArray text(qsizetype(length), Qt::Uninitialized);
        bytes(text.data(), length, what);
        return QString::fromUtf8(text);
    }

    void skipString(const QString &what)
    {
        std::int64_t length = count(what + QStringLiteral(" length"), 1, MaxGgufStringBytes);
        char buffer[4096];
        while (length > 0) {
            const std::int64_t n = std::min<std::int64_t>(length, sizeof buffer);
            bytes(buffer, n, what);
            length -= n;
        }
    }

private:
    QIODevice &m_device;
    std::int64_t m_size;
    std::int64_t m_position = 0;
    QString m_origin;
};

QVariant readScalar(Reader &r, GgufValueType type, const QString &what)
{
    switch (type) {
    case GgufValueType::UInt8:
        return QVariant(qulonglong(r.number<quint8>(what)));
    case GgufValueType::Int8:
        return QVariant(qlonglong(r.number<qint8>(what)));
    case GgufValueType::UInt16:
        return QVariant(qulonglong(r.number<quint16>(what)));
    case GgufValueType::Int16:
        return QVariant(qlonglong(r.number<qint16>(what)));
    case GgufValueType::UInt32:
        return QVariant(qulonglong(r.number<quint32>(what)));
    case GgufValueType::Int32:
        return QVariant(qlonglong(r.number<qint32>(what)));
    case GgufValueType::Float32:
        return QVariant(r.float32(what));
    case GgufValueType::Bool: {
        const quint8 b = r.number<quint8>(what);
        if (b > 1)
            r.fail(QStringLiteral("%1 is a bool of value %2").arg(what).arg(b));
        return QVariant(b == 1);
    }
    case GgufValueType::String:
        return QVariant(r.string(what));
    case GgufValueType::UInt64: {
        const quint64 v = r.number<quint64>(what);
        if (v > quint64(std::numeric_limits<qint64>::max()))
            r.fail(QStringLiteral("%1 is %2, beyond 2^63").arg(what).arg(v));
        return QVariant(qulonglong(v));
    }
    case GgufValueType::Int64:
        return QVariant(qlonglong(r.number<qint64>(what)));
    case GgufValueType::Float64:
        return QVariant(r.float64(what));
    case GgufValueType::Array:
        break;
    }
    r.fail(QStringLiteral("internal: %1 is not a scalar").arg(what));
}

GgufValue readValue(Reader &r, const QString &key)
{
    const QString what = QStringLiteral("the value of '%1'").arg(key);
    GgufValue value;
    const quint32 type = r.number<quint32>(QStringLiteral("the type of '%1'").arg(key));
    if (!knownValueType(type))
        r.fail(QStringLiteral("key '%1' has value type %2, which GGUF does not define").arg(key).arg(type));
    value.type = GgufValueType(type);
    if (!value.isArray()) {
        value.scalar = readScalar(r, value.type, what);
        return value;
    }
    const quint32 elementType = r.number<quint32>(QStringLiteral("the element type of '%1'").arg(key));
    if (!knownValueType(elementType))
        r.fail(QStringLiteral("key '%1' is an array of type %2, which GGUF does not define")
                   .arg(key)
                   .arg(elementType));
    value.elementType = GgufValueType(elementType);
    if (value.elementType == GgufValueType::Array)
        r.fail(QStringLiteral("key '%1' is an array of arrays, which kvscope does not read").arg(key));
    value.count = r.count(QStringLiteral("the length of array '%1'").arg(key),
                          minimumBytes(value.elementType), std::numeric_limits<std::int64_t>::max());
    const bool keep = value.elementType != GgufValueType::String && value.count <= MaxKeptGgufArrayItems;
    if (keep)
        value.items.reserve(qsizetype(value.count));
    for (std::int64_t i = 0; i < value.count; ++i) {
        if (value.elementType == GgufValueType::String) {
            r.skipString(what);
            continue;
        }
        const QVariant item = readScalar(r, value.elementType, what);
        if (keep)
            value.items << item;
    }
    return value;
}

GgufTensor readTensorInfo(Reader &r, std::int64_t index)
{
    GgufTensor t;
    t.name = r.string(QStringLiteral("the name of tensor %1").arg(index), MaxGgufTensorNameBytes);
    const QString what = QStringLiteral("tensor '%1'").arg(t.name);
    const quint32 dims = r.number<quint32>(what + QStringLiteral(" dimension count"));
    if (dims < 1 || dims > 4) // GGML_MAX_DIMS
        r.fail(QStringLiteral("%1 has %2 dimensions; ggml allows 1 to 4").arg(what).arg(dims));
    Checked elements = 1;
    for (quint32 d = 0; d < dims; ++d) {
        const quint64 ne = r.number<quint64>(what + QStringLiteral(" shape"));
        if (ne > quint64(std::numeric_limits<qint64>::max()))
            r.fail(QStringLiteral("%1 has dimension %2 of %3").arg(what).arg(d).arg(ne));
        t.shape << std::int64_t(ne);
        try {
            elements *= std::int64_t(ne);
        } catch (const Error &) {
            r.fail(QStringLiteral("%1 has more than 2^63 elements").arg(what));
        }
    }
    t.elements = elements.value();
    const quint32 typeId = r.number<quint32>(what + QStringLiteral(" type"));
    const std::optional<GgmlType> type = ggmlType(typeId);
    if (!type)
        r.fail(QStringLiteral("%1 has ggml type %2, which kvscope does not know").arg(what).arg(typeId));
    t.type = *type;
    const std::optional<std::int64_t> rowBytes = ggmlRowBytes(t.type, t.shape.first());
    if (!rowBytes)
        r.fail(QStringLiteral("%1 rows of %2 values are not whole %3 blocks of %4")
                   .arg(what)
                   .arg(t.shape.first())
                   .arg(QLatin1String(t.type.name))
                   .arg(t.type.blockValues));
    try {
        Checked bytes = *rowBytes;
        for (qsizetype d = 1; d < t.shape.size(); ++d)
            bytes *= t.shape.at(d);
        t.bytes = bytes.value();
    } catch (const Error &) {
        r.fail(QStringLiteral("%1 is larger than 2^63 bytes").arg(what));
    }
    const quint64 offset = r.number<quint64>(what + QStringLiteral(" offset"));
    if (offset > quint64(std::numeric_limits<qint64>::max()))
        r.fail(QStringLiteral("%1 has offset %2").arg(what).arg(offset));
    t.offset = std::int64_t(offset);
    return t;
}

void readMetadata(Reader &r, GgufFile &file, std::int64_t keys)
{
    for (std::int64_t i = 0; i < keys; ++i) {
        const QString key = r.string(QStringLiteral("the name of key %1").arg(i), MaxGgufStringBytes);
        if (file.metadata.contains(key))
            r.fail(QStringLiteral("key '%1' appears twice").arg(key));
        file.metadata.insert(key, readValue(r, key));
    }
    if (const GgufValue *alignment = file.value(QStringLiteral("general.alignment"))) {
        const std::int64_t a = alignment->isInteger() ? alignment->scalar.toLongLong() : 0;
        if (alignment->type != GgufValueType::UInt32 || a <= 0 || (a & (a - 1)) != 0)
            r.fail(QStringLiteral("general.alignment must be a u32 power of two, got %1")
                       .arg(alignment->scalar.toString()));
        file.alignment = a;
    }
}

/// Offsets: aligned, inside the data section, not overlapping.
void checkTensorPlacement(Reader &r, GgufFile &file)
{
    QSet<QString> names;
    for (const GgufTensor &t : std::as_const(file.tensors)) {
        if (names.contains(t.name))
            r.fail(QStringLiteral("tensor '%1' appears twice").arg(t.name));
        names.insert(t.name);
    }
    file.dataOffset = ceilDiv(r.position(), file.alignment) * file.alignment;
    const std::int64_t dataBytes = file.fileSize - file.dataOffset;
    QList<const GgufTensor *> byOffset;
    for (const GgufTensor &t : std::as_const(file.tensors)) {
        if (t.offset % file.alignment != 0)
            r.fail(QStringLiteral("tensor '%1' offset %2 is not a multiple of the alignment %3")
                       .arg(t.name)
                       .arg(t.offset)
                       .arg(file.alignment));
        if (dataBytes < 0 || t.offset > dataBytes || t.bytes > dataBytes - t.offset)
            r.fail(QStringLiteral("tensor '%1' [%2, %3) runs past the end of the %4-byte data section")
                       .arg(t.name)
                       .arg(t.offset)
                       // Both below 2^63, so their sum is exact in 64 unsigned bits.
                       .arg(quint64(t.offset) + quint64(t.bytes))
                       .arg(std::max<std::int64_t>(0, dataBytes)));
        byOffset << &t;
    }
    std::sort(byOffset.begin(), byOffset.end(),
              [](const GgufTensor *a, const GgufTensor *b) { return a->offset < b->offset; });
    for (qsizetype i = 1; i < byOffset.size(); ++i)
        if (byOffset.at(i)->offset < byOffset.at(i - 1)->offset + byOffset.at(i - 1)->bytes)
            r.fail(QStringLiteral("tensors '%1' and '%2' overlap in the data section")
                       .arg(byOffset.at(i - 1)->name, byOffset.at(i)->name));
}

} // namespace

GgufFile parseGguf(QIODevice &device, std::int64_t size, const QString &origin)
{
    Reader r(device, size, origin);
    GgufFile file;
    file.fileSize = size;
    char magic[4];
    if (size < 4)
        r.fail(QStringLiteral("file is %1 bytes, too short for a GGUF header").arg(size));
    r.bytes(magic, 4, QStringLiteral("the magic"));
    if (std::memcmp(magic, "GGUF", 4) != 0)
        r.fail(QStringLiteral("not a GGUF file: magic is '%1', expected 'GGUF'")
                   .arg(QString::fromLatin1(QByteArray(magic, 4).toHex(' '))));
    const quint32 version = r.number<quint32>(QStringLiteral("the version"));
    if (version == 1)
        r.fail(QStringLiteral("GGUF version 1 is not supported (versions 2 and 3 are)"));
    if (version != 2 && version != 3)
        r.fail(QStringLiteral("GGUF version %1 is not supported (versions 2 and 3 are%2)")
                   .arg(version)
                   .arg(qbswap(version) <= 3 ? QStringLiteral("; this looks like a big-endian file")
                                             : QString()));
    file.version = int(version);
    // Minimal encodings: a tensor info is >= 8 + 4 + 8 + 4 + 8 bytes, a key/value >= 8 + 4 + 1.
    const std::int64_t tensorCount = r.count(QStringLiteral("the tensor count"), 32, MaxGgufTensors);
    const std::int64_t keyCount = r.count(QStringLiteral("the metadata key count"), 13, MaxGgufKeys);
    readMetadata(r, file, keyCount);
    file.tensors.reserve(qsizetype(tensorCount));
    for (std::int64_t i = 0; i < tensorCount; ++i)
        file.tensors << readTensorInfo(r, i);
    checkTensorPlacement(r, file);
    return file;
}

GgufFile readGgufFile(const QString &path)
{
    QFile file;
    openRegularFile(file, path);
    return parseGguf(file, file.size(), path);
}

bool looksLikeGguf(const QString &path)
{
    return regularFileStartsWith(path, QByteArrayLiteral("GGUF"));
}

} // namespace kvscope
