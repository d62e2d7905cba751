// SPDX-License-Identifier: MIT
// The one way kvscope writes a file: all or nothing, never over a device.
#pragma once

#include <QByteArray>
#include <QString>

namespace kvscope {

/// The name that means standard output in every option that takes an output file.
inline const QString StandardOutputPath = QStringLiteral("-");

/// Writes `contents` to `path`, all or nothing; every file kvscope writes
/// goes through here. What `path` names decides how:
/// - a regular file, or none yet: through QSaveFile, each write checked; a
///   short write (a full disk) cancels the save and the old file stays;
/// - "-", or a path that leads to kvscope's own standard output (such as
///   /dev/stdout): written to standard output, after what is already there;
/// - a character device or a FIFO (/dev/null, a pipe): written in place,
///   never renamed over; a FIFO that no program reads is refused at once;
/// - anything else (a folder, a block device, a socket): refused.
/// Throws kvscope::Error "<path>: cannot write: <reason>" ("standard output:
/// cannot write: <reason>" for standard output).
void writeFileAtomically(const QString &path, const QByteArray &contents);

/// Writes all of `bytes` to standard output now (after flushing stdio's
/// buffer); throws kvscope::Error "standard output: cannot write: <reason>".
void writeStandardOutput(const QByteArray &bytes);

} // namespace kvscope
