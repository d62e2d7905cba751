// SPDX-License-Identifier: MIT
// Helpers for suites that write their own tensor files: the byte layouts of
// .safetensors (huggingface/safetensors README, "Format") and .npy (numpy
// lib/format.py), and a way to catch the one error a bad input must give.
#pragma once

#include "core/common/error.h"

#include <initializer_list>

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>
#include <QtEndian>

namespace kvscope::test {

/// u64 little-endian header length (or `declaredLength`), the JSON header, the data.
inline QByteArray safetensorsBytes(const QByteArray &header, const QByteArray &data,
                                   qint64 declaredLength = -1)
{
    uchar length[8];
    qToLittleEndian<quint64>(quint64(declaredLength < 0 ? header.size() : declaredLength), length);
    return QByteArray(reinterpret_cast<const char *>(length), 8) + header + data;
}

/// "\x93NUMPY", version major.0, the header length (u16 in 1.0, u32 after)
/// or `declaredLength`, the dict padded with spaces and '\n' so the preamble
/// is a multiple of 64 bytes as numpy writes it, then the data.
inline QByteArray npyBytes(const QByteArray &dict, const QByteArray &data, int major = 1,
                           qint64 declaredLength = -1)
{
    const int lengthBytes = major == 1 ? 2 : 4;
    QByteArray header = dict;
    while ((6 + 2 + lengthBytes + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY", 6);
    bytes += char(major);
    bytes += char(0);
    const quint32 length = quint32(declaredLength < 0 ? header.size() : declaredLength);
    uchar field[4];
    if (major == 1)
        qToLittleEndian<quint16>(quint16(length), field);
    else
        qToLittleEndian<quint32>(length, field);
    bytes += QByteArray(reinterpret_cast<const char *>(field), lengthBytes);
    return bytes + header + data;
}

inline QByteArray floatBytes(std::initializer_list<float> values)
{
    QByteArray bytes;
    for (float v : values)
        bytes.append(reinterpret_cast<const char *>(&v), 4);
    return bytes;
}

/// 16-bit patterns (F16 or BF16), little-endian.
inline QByteArray halfBytes(std::initializer_list<quint16> values)
{
    QByteArray bytes;
    for (quint16 v : values) {
        uchar raw[2];
        qToLittleEndian<quint16>(v, raw);
        bytes.append(reinterpret_cast<const char *>(raw), 2);
    }
    return bytes;
}

inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write test file %s", qPrintable(path));
    return path;
}

/// The message of the kvscope::Error `run` throws, or "no error".
template <class Run> QString errorOf(Run &&run)
{
    try {
        run();
    } catch (const Error &error) {
        return error.message();
    }
    return QStringLiteral("no error");
}

} // namespace kvscope::test
