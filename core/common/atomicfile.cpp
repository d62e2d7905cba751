// SPDX-License-Identifier: MIT
#include "core/common/atomicfile.h"

#include "core/common/error.h"
#include "core/common/regularfile.h"

#include <cerrno>
#include <cstdio>

#include <QFile>
#include <QSaveFile>

#if defined(Q_OS_UNIX)
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#endif

namespace kvscope {

namespace {

const QString standardOutputName = QStringLiteral("standard output");

[[noreturn]] void cannotWrite(const QString &name, const QString &reason)
{
    throw Error(QStringLiteral("%1: cannot write: %2").arg(name, reason));
}

/// Through QSaveFile: a temporary file renamed over `path` once all of it is written.
void saveRegularFile(const QString &path, const QByteArray &contents)
{
    QSaveFile file(path);
    // Unbuffered: each write reaches the file system now, so its count is the
    // file system's answer (a buffered write would "succeed" into memory).
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        cannotWrite(path, file.errorString());
    // QFileDevice::write returns a short count, with no error set, when the
    // disk fills part-way; writing the rest then fails with the reason.
    qint64 written = 0;
    while (written < contents.size()) {
        const qint64 count = file.write(contents.constData() + written, contents.size() - written);
        if (count <= 0) {
            const QString reason = count < 0 ? file.errorString() : QStringLiteral("nothing was written");
            file.cancelWriting(); // the old file stays as it was
            cannotWrite(path, reason);
        }
        written += count;
    }
    if (!file.commit())
        cannotWrite(path, file.errorString());
}

#if defined(Q_OS_UNIX)
/// All of `bytes` to `fd`; false with errno set when a write fails.
bool writeAll(int fd, const QByteArray &bytes)
{
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t count = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0) {
            if (count == 0)
                errno = EIO;
            return false;
        }
        written += count;
    }
    return true;
}

/// Whether `path` leads to the file kvscope's standard output is (/dev/stdout,
/// /proc/self/fd/1, or the file stdout was redirected to): renaming over it
/// would lose what goes to standard output.
bool isStandardOutput(const QString &path)
{
    struct stat target
    {
    };
    struct stat output
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &target) == 0 &&
           ::fstat(STDOUT_FILENO, &output) == 0 && target.st_dev == output.st_dev &&
           target.st_ino == output.st_ino;
}

/// Why opening `path` for writing failed with ENXIO: a FIFO that no program reads, or
/// /dev/tty (character device 5, 0) in a process without a controlling terminal.
QString noReaderReason(const QString &path)
{
    struct stat status
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &status) == 0 && S_ISCHR(status.st_mode) &&
        status.st_rdev == makedev(5, 0))
        return QStringLiteral("no controlling terminal");
    if (fileKind(path) == FileKind::Fifo)
        return QStringLiteral("a FIFO that no program reads");
    return qt_error_string(ENXIO);
}

/// A character device or a FIFO, written where it is: opened without
/// blocking (a FIFO with no reader is refused, not waited for).
void writeSpecialFile(const QString &path, const QByteArray &contents)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        cannotWrite(path, error == ENXIO ? noReaderReason(path) : qt_error_string(error));
    }
    struct stat status
    {
    };
    if (::fstat(fd, &status) != 0 || !(S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode))) {
        ::close(fd); // it changed since it was looked at
        cannotWrite(path, QStringLiteral("no longer a device or a FIFO"));
    }
    // Blocking from here: a slow reader is waited for, not an error.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    const bool written = writeAll(fd, contents);
    const int error = errno;
    if (::close(fd) != 0 && written)
        cannotWrite(path, qt_error_string(errno));
    if (!written)
        cannotWrite(path, qt_error_string(error));
}
#endif

} // namespace

void writeStandardOutput(const QByteArray &bytes)
{
    if (std::fflush(stdout) != 0)
        cannotWrite(standardOutputName, qt_error_string(errno));
#if defined(Q_OS_UNIX)
    if (!writeAll(STDOUT_FILENO, bytes))
        cannotWrite(standardOutputName, qt_error_string(errno));
#else
    if (std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout) != size_t(bytes.size()) ||
        std::fflush(stdout) != 0)
        cannotWrite(standardOutputName, qt_error_string(errno));
#endif
}

void writeFileAtomically(const QString &path, const QByteArray &contents)
{
    if (path == StandardOutputPath)
        return writeStandardOutput(contents);
#if defined(Q_OS_UNIX)
    if (isStandardOutput(path))
        return writeStandardOutput(contents);
#endif
    const FileKind kind = fileKind(path);
    switch (kind) {
    case FileKind::Missing:
    case FileKind::Regular:
    case FileKind::DanglingSymlink: // the file the link names is made, as a shell's > makes it
        return saveRegularFile(path, contents);
    case FileKind::SymlinkLoop: // renaming over it would replace the link with a file
        cannotWrite(path, fileKindName(kind));
#if defined(Q_OS_UNIX)
    case FileKind::CharacterDevice:
    case FileKind::Fifo:
        return writeSpecialFile(path, contents);
#endif
    default:
        cannotWrite(path, QStringLiteral("%1, not a regular file").arg(fileKindName(kind)));
    }
}

} // namespace kvscope
