// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QSharedPointer>
#include <QString>

class QFile;
class QIODevice;

namespace kvscope {

/// Element types a .safetensors header can name.
enum class TensorDtype
{
    F64,
    F32,
    F16,
    BF16,
    F8_E4M3,
    F8_E5M2,
    I64,
    I32,
    I16,
    I8,
    U8,
    Bool,
    Unknown
};

TensorDtype parseTensorDtype(const QString &text);
/// Bytes per element; 0 for Unknown.
int tensorDtypeBytes(TensorDtype dtype);

/// One tensor entry of a safetensors header. Offsets are relative to the
/// start of the data section (the byte after the header).
struct SafetensorsEntry
{
    QString name;
    QString dtypeText; ///< as written in the header ("BF16")
    TensorDtype dtype = TensorDtype::Unknown;
    QList<std::int64_t> shape;
    std::int64_t begin = 0;
    std::int64_t end = 0;

    std::int64_t elements() const; ///< product of shape (1 for a scalar)
    std::int64_t byteSize() const { return end - begin; }
};

/// A parsed, validated header.
struct SafetensorsHeader
{
    QList<SafetensorsEntry> tensors; ///< in data-offset order
    QMap<QString, QString> metadata; ///< "__metadata__"
    std::int64_t headerBytes = 0;    ///< N, the JSON length
    std::int64_t dataBytes = 0;      ///< file size - 8 - N

    const SafetensorsEntry *find(const QString &name) const;
};

/// Largest header kvscope reads (the safetensors reference limit is 100 MB).
inline constexpr std::int64_t MaxSafetensorsHeaderBytes = 100'000'000;

/// Validates the JSON header of a file whose data section is `dataBytes`
/// long: every entry has a dtype, a non-negative shape and offsets inside
/// the data section that match the shape, and entries do not overlap.
/// Throws kvscope::Error naming `origin`, the tensor and the field.
SafetensorsHeader parseSafetensorsHeader(const QByteArray &json, std::int64_t dataBytes,
                                         const QString &origin);

/// Reads only the 8-byte length and the header of a file (never the data);
/// for counting a checkpoint's parameters without touching its weights.
SafetensorsHeader readSafetensorsHeader(const QString &path);

/// The same from a device positioned at the file's start, `size` bytes long
/// (a QFile, or a QBuffer in tests and fuzzing).
SafetensorsHeader readSafetensorsHeader(QIODevice &device, std::int64_t size, const QString &origin);

/// A memory-mapped .safetensors file: header validated against the file
/// size, tensor bytes read from the mapping without a copy. Copies share the mapping.
class SafetensorsFile
{
public:
    static SafetensorsFile open(const QString &path);

    const QString &path() const { return m_path; }
    const SafetensorsHeader &header() const { return m_header; }
    const QList<SafetensorsEntry> &tensors() const { return m_header.tensors; }

    /// The tensor's bytes inside the mapping (valid while any copy of this object lives).
    const uchar *data(const SafetensorsEntry &entry) const;

private:
    QString m_path;
    SafetensorsHeader m_header;
    QSharedPointer<QFile> m_file;
    const uchar *m_dataStart = nullptr;
};

} // namespace kvscope
