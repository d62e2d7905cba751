// SPDX-License-Identifier: MIT
// The one way the core reads a file the user names: regular files only,
// checked before they are opened (a FIFO would block the open, a device such
// as /dev/zero never ends), and whole-file reads bounded whatever size() says.
#pragma once

#include <QByteArray>
#include <QString>

class QFile;

namespace kvscope {

/// What a path names once symbolic links are followed.
enum class FileKind
{
    Missing,
    SymlinkLoop,     ///< links that lead back to themselves (ELOOP)
    DanglingSymlink, ///< a link to a name that does not exist
    Regular,
    Directory,
    CharacterDevice,
    BlockDevice,
    Fifo,
    Socket,
    Other
};

FileKind fileKind(const QString &path);

/// "a FIFO", "a character device", "a folder"...: for messages.
QString fileKindName(FileKind kind);

/// What `path` names for a message: fileKindName(), and for a link to nothing its
/// target ("a symbolic link to a missing target (/models/gone.gguf)").
QString describePath(const QString &path);

/// A link that leads nowhere: a loop, or a link to a missing name.
bool isBrokenSymlink(FileKind kind);

/// Opens `path` read-only into `file`, unless it is not a regular file:
/// then throws kvscope::Error "<path>: not a regular file (a FIFO)" without
/// having opened it, so nothing blocks ("<path>: a symbolic link loop" for a
/// link that leads nowhere). Other failures throw
/// "<path>: cannot open: <reason>".
void openRegularFile(QFile &file, const QString &path);

/// The whole of the regular file `path`, which must hold at most `maxBytes`
/// ("<path>: 17000000 bytes is too large for a config.json" names `what`).
/// Never reads more than `maxBytes` + 1 bytes, whatever the file reports.
QByteArray readRegularFile(const QString &path, qint64 maxBytes, const QString &what);

/// Whether `path` is a regular file that starts with `magic`; false for
/// anything else (never blocks, never throws).
bool regularFileStartsWith(const QString &path, const QByteArray &magic);

/// What `path` is when it cannot be kept as a file kvscope reads and rewrites
/// (its settings file): empty for a regular file, a symbolic link to one, or
/// nothing there yet; else "a FIFO", "a symbolic link to a character device",
/// "a symbolic link that leads nowhere", "a symbolic link loop"... Never
/// opens `path`, so nothing blocks.
QString notRegularFileDescription(const QString &path);

} // namespace kvscope
