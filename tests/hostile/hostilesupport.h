// SPDX-License-Identifier: MIT
// Helpers for the hostile-input suites: the kvscope binary run under a
// watch (time, memory, file size limit), FIFOs and device nodes in a
// temporary folder, and a watch for anything left blocked on a FIFO.
// Nothing here needs root; nothing here touches /dev as root.
#pragma once

#include "tests/support/kvscoperun.h"

#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QStringList>

namespace kvscope::test {

using WatchedRun = Run;

/// runKvscope() under the hostile suites' watch: killed past 600 MiB unless
/// `options` says otherwise.
inline Run runWatched(const QStringList &arguments, RunOptions options = {})
{
    if (options.maxResidentBytes == 0)
        options.maxResidentBytes = 600 << 20;
    return runKvscope(arguments, options);
}

/// Makes a FIFO at `path`; false if the file system cannot hold one.
inline bool makeFifo(const QString &path)
{
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

/// A character device like /dev/`name` that a test may write to or have
/// replaced: as root a node of the same device made in `dir` (kvscope's
/// old rename would have replaced the real /dev node), else /dev/`name`
/// itself (which a non-root rename cannot touch). Empty if neither works.
inline QString deviceNode(const QDir &dir, const QString &name)
{
    const QString real = QStringLiteral("/dev/") + name;
    struct stat status
    {
    };
    if (::stat(QFile::encodeName(real).constData(), &status) != 0 || !S_ISCHR(status.st_mode))
        return {};
    if (::geteuid() != 0)
        return real;
    const QString copy = dir.filePath(name);
    if (::mknod(QFile::encodeName(copy).constData(), S_IFCHR | 0666, status.st_rdev) != 0)
        return {};
    // A folder mounted nodev makes such a node unusable: say so, use none.
    const int fd = ::open(QFile::encodeName(copy).constData(), O_WRONLY | O_NONBLOCK);
    if (fd < 0)
        return {};
    ::close(fd);
    return copy;
}

/// Whether `path` is (still) a character device or a FIFO, not a regular file.
inline bool isCharacterDevice(const QString &path)
{
    struct stat status
    {
    };
    return ::lstat(QFile::encodeName(path).constData(), &status) == 0 && S_ISCHR(status.st_mode);
}

inline bool isFifo(const QString &path)
{
    struct stat status
    {
    };
    return ::lstat(QFile::encodeName(path).constData(), &status) == 0 && S_ISFIFO(status.st_mode);
}

/// Watches a FIFO from a thread for as long as it lives: whenever a reader
/// has it open (kvscope blocked in open() or read()), the watch opens and
/// closes the writing end, which hands that reader an end of file, and
/// counts it. So a defect that reads a FIFO fails its test instead of
/// hanging it.
class FifoWatch
{
public:
    explicit FifoWatch(const QString &path) : m_path(QFile::encodeName(path))
    {
        m_thread = std::thread([this] {
            while (!m_stop) {
                // With O_NONBLOCK, opening for writing succeeds only if a reader is there.
                const int fd = ::open(m_path.constData(), O_WRONLY | O_NONBLOCK);
                if (fd >= 0) {
                    ++m_readers;
                    ::close(fd);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        });
    }
    ~FifoWatch()
    {
        m_stop = true;
        m_thread.join();
    }
    FifoWatch(const FifoWatch &) = delete;
    FifoWatch &operator=(const FifoWatch &) = delete;

    /// Times a reader was found with the FIFO open.
    int readersSeen() const { return m_readers; }

private:
    QByteArray m_path;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_readers{0};
    std::thread m_thread;
};

/// Reads everything a FIFO receives while it lives (the reader a kvscope
/// writing into the FIFO needs), from a thread.
class FifoReader
{
public:
    explicit FifoReader(const QString &path)
    {
        // O_NONBLOCK: the open returns at once, before any writer comes.
        m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK);
        m_thread = std::thread([this] {
            char buffer[4096];
            while (m_fd >= 0) {
                const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
                if (n > 0)
                    m_received.append(buffer, n);
                else if (m_stop)
                    break;
                else
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        });
    }
    ~FifoReader() { finish(); }
    FifoReader(const FifoReader &) = delete;
    FifoReader &operator=(const FifoReader &) = delete;

    bool isOpen() const { return m_fd >= 0; }

    /// Stops reading (after what is buffered) and returns what came.
    QByteArray finish()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
        return m_received;
    }

private:
    int m_fd = -1;
    std::atomic<bool> m_stop{false};
    QByteArray m_received;
    std::thread m_thread;
};

} // namespace kvscope::test
