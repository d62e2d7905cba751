// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QByteArray>
#include <QList>
#include <QSharedPointer>
#include <QString>

class QFile;

namespace kvscope {

/// The header of a NumPy .npy file (numpy/lib/format.py, versions 1.0-3.0):
/// magic "\x93NUMPY", version, header length, then a Python dict literal
/// {'descr': '<f4', 'fortran_order': False, 'shape': (rows, cols), }.
struct NpyHeader
{
    int majorVersion = 1;
    int minorVersion = 0;
    QString descr; ///< array-protocol type string: "<f4", "<f2", "|V2"...
    bool fortranOrder = false;
    QList<std::int64_t> shape;
    std::int64_t dataOffset = 0; ///< where the array data starts in the file

    std::int64_t elements() const; ///< product of shape (1 for a scalar)
    /// Bytes per element from descr ("<f4" -> 4); 0 when descr has no size.
    int itemBytes() const;
};

/// Largest header kvscope reads (numpy itself refuses more than 10,000 bytes
/// unless told otherwise; the format allows 4 GiB).
inline constexpr std::int64_t MaxNpyHeaderBytes = 1'000'000;

/// Parses the fixed preamble and the dict literal; `fileSize` bounds the
/// header. Throws kvscope::Error naming `origin`, the field and the value.
NpyHeader parseNpyHeader(const QByteArray &preambleAndHeader, std::int64_t fileSize, const QString &origin);

/// A memory-mapped .npy file: header validated against the file size (the
/// data must hold shape x item size bytes), data read without a copy.
class NpyFile
{
public:
    static NpyFile open(const QString &path);

    const QString &path() const { return m_path; }
    const NpyHeader &header() const { return m_header; }
    std::int64_t dataBytes() const { return m_dataBytes; }
    /// The array's bytes inside the mapping (valid while any copy of this object lives).
    const uchar *data() const { return m_data; }

private:
    QString m_path;
    NpyHeader m_header;
    std::int64_t m_dataBytes = 0;
    QSharedPointer<QFile> m_file;
    const uchar *m_data = nullptr;
};

} // namespace kvscope
