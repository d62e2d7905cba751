// SPDX-License-Identifier: MIT
#include "core/common/regularfile.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/units.h"

#include <algorithm>

#include <QFile>
#include <QFileInfo>

#if defined(Q_OS_UNIX)
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace kvscope {

namespace {

constexpr qint64 ReadChunkBytes = 64 * KiB;

[[noreturn]] void refuse(const QString &path, const QString &problem)
{
    throw Error(QStringLiteral("%1: %2").arg(path, problem));
}

#if defined(Q_OS_UNIX)
FileKind kindOf(mode_t mode)
{
    if (S_ISREG(mode))
        return FileKind::Regular;
    if (S_ISDIR(mode))
        return FileKind::Directory;
    if (S_ISCHR(mode))
        return FileKind::CharacterDevice;
    if (S_ISBLK(mode))
        return FileKind::BlockDevice;
    if (S_ISFIFO(mode))
        return FileKind::Fifo;
    if (S_ISSOCK(mode))
        return FileKind::Socket;
    return FileKind::Other;
}
#endif

void refuseIrregular(const QString &path, FileKind kind)
{
    refuse(path, QStringLiteral("not a regular file (%1)").arg(fileKindName(kind)));
}

} // namespace

FileKind fileKind(const QString &path)
{
#if defined(Q_OS_UNIX)
    struct stat status
    {
    };
    const QByteArray name = QFile::encodeName(path);
    if (::stat(name.constData(), &status) == 0)
        return kindOf(status.st_mode);
    if (errno == ELOOP)
        return FileKind::SymlinkLoop;
    // The name is there, but what it leads to is not.
    if (::lstat(name.constData(), &status) == 0 && S_ISLNK(status.st_mode))
        return FileKind::DanglingSymlink;
    return FileKind::Missing;
#else
    const QFileInfo info(path);
    if (!info.exists())
        return FileKind::Missing;
    if (info.isDir())
        return FileKind::Directory;
    return info.isFile() ? FileKind::Regular : FileKind::Other;
#endif
}

namespace {

const EnumSpelling<FileKind> fileKindNames[] = {
    {FileKind::Missing, "missing"},
    {FileKind::SymlinkLoop, "a symbolic link loop"},
    {FileKind::DanglingSymlink, "a symbolic link to a missing target"},
    {FileKind::Regular, "a regular file"},
    {FileKind::Directory, "a folder"},
    {FileKind::CharacterDevice, "a character device"},
    {FileKind::BlockDevice, "a block device"},
    {FileKind::Fifo, "a FIFO"},
    {FileKind::Socket, "a socket"},
    {FileKind::Other, "a special file"},
};

} // namespace

QString fileKindName(FileKind kind)
{
    return enumName(fileKindNames, kind);
}

QString describePath(const QString &path)
{
    const FileKind kind = fileKind(path);
    if (kind == FileKind::DanglingSymlink)
        return QStringLiteral("%1 (%2)").arg(fileKindName(kind), QFile::symLinkTarget(path));
    return fileKindName(kind);
}

bool isBrokenSymlink(FileKind kind)
{
    return kind == FileKind::SymlinkLoop || kind == FileKind::DanglingSymlink;
}

void openRegularFile(QFile &file, const QString &path)
{
    // Looked at before opening: opening a FIFO blocks until a writer comes.
    const FileKind kind = fileKind(path);
    if (isBrokenSymlink(kind))
        refuse(path, describePath(path));
    if (kind != FileKind::Regular && kind != FileKind::Missing)
        refuseIrregular(path, kind);
#if defined(Q_OS_UNIX)
    // O_NONBLOCK: should the path have become a FIFO since, the open still
    // returns, and fstat() then refuses what was opened.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        refuse(path, QStringLiteral("cannot open: %1").arg(qt_error_string(errno)));
    struct stat status
    {
    };
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        const FileKind opened = kindOf(status.st_mode);
        ::close(fd);
        refuseIrregular(path, opened);
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        refuse(path, QStringLiteral("cannot open: %1").arg(file.errorString()));
    }
#else
    file.setFileName(path);
    if (!file.open(QIODevice::ReadOnly))
        refuse(path, QStringLiteral("cannot open: %1").arg(file.errorString()));
#endif
}

QByteArray readRegularFile(const QString &path, qint64 maxBytes, const QString &what)
{
    QFile file;
    openRegularFile(file, path);
    if (file.size() > maxBytes)
        refuse(path, QStringLiteral("%1 bytes is too large for %2").arg(file.size()).arg(what));
    QByteArray bytes;
    bytes.reserve(qsizetype(file.size()));
    char chunk[ReadChunkBytes];
    for (;;) {
        // One byte past the limit at most: enough to tell that the file is larger.
        const qint64 read = file.read(chunk, std::min(ReadChunkBytes, maxBytes + 1 - bytes.size()));
        if (read < 0)
            refuse(path, QStringLiteral("cannot read: %1").arg(file.errorString()));
        if (read == 0)
            return bytes;
        if (bytes.size() + read > maxBytes) // it grew since size() was asked
            refuse(path, QStringLiteral("more than %1 bytes is too large for %2").arg(maxBytes).arg(what));
        bytes.append(chunk, qsizetype(read));
    }
}

bool regularFileStartsWith(const QString &path, const QByteArray &magic)
{
    QFile file;
    try {
        openRegularFile(file, path);
    } catch (const Error &) {
        return false;
    }
    return file.read(magic.size()) == magic;
}

QString notRegularFileDescription(const QString &path)
{
#if defined(Q_OS_UNIX)
    const QByteArray name = QFile::encodeName(path);
    struct stat link
    {
    };
    if (::lstat(name.constData(), &link) != 0)
        return {}; // nothing there yet
    if (!S_ISLNK(link.st_mode))
        return S_ISREG(link.st_mode) ? QString() : fileKindName(kindOf(link.st_mode));
    struct stat target
    {
    };
    if (::stat(name.constData(), &target) != 0)
        return errno == ELOOP ? QStringLiteral("a symbolic link loop")
                              : QStringLiteral("a symbolic link that leads nowhere");
    return S_ISREG(target.st_mode)
               ? QString()
               : QStringLiteral("a symbolic link to %1").arg(fileKindName(kindOf(target.st_mode)));
#else
    const FileKind kind = fileKind(path);
    return kind == FileKind::Regular || kind == FileKind::Missing ? QString() : fileKindName(kind);
#endif
}

} // namespace kvscope
