// SPDX-License-Identifier: MIT
// writeFileAtomically: all or nothing, whatever fails on the way.
#include "core/common/atomicfile.h"
#include "tests/testsupport.h"

#include <csignal>
#include <sys/resource.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return "<missing>";
    return file.readAll();
}

/// Lowers the largest file this process may write (RLIMIT_FSIZE) for its
/// lifetime: a write past it fails with EFBIG, as on a full disk.
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN); // else the kernel ends the process
        getrlimit(RLIMIT_FSIZE, &m_saved);
        rlimit limit = m_saved;
        limit.rlim_cur = bytes;
        m_set = setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &m_saved); }
    bool isSet() const { return m_set; }

private:
    rlimit m_saved{};
    bool m_set = false;
};

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writesAndReplaces()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        writeFileAtomically(path, "first\n");
        QCOMPARE(readAll(path), QByteArray("first\n"));
        writeFileAtomically(path, "second, longer\n");
        QCOMPARE(readAll(path), QByteArray("second, longer\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("out.csv")});
    }

    void missingDirectoryIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("no-such-dir/out.png"));
        KVSCOPE_VERIFY_ERROR(writeFileAtomically(path, "x"), path, QStringLiteral("cannot write"));
    }

    void parentThatIsAFileIsNamed()
    {
        // Root may write anywhere; a path under a regular file fails for everyone.
        QTemporaryDir dir;
        const QString parent = dir.filePath(QStringLiteral("plain"));
        writeFileAtomically(parent, "not a directory");
        const QString path = parent + QStringLiteral("/out.svg");
        KVSCOPE_VERIFY_ERROR(writeFileAtomically(path, "x"), path, QStringLiteral("cannot write"));
    }

    void shortWriteKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scenario.kvscope"));
        writeFileAtomically(path, "old contents\n");
        const QByteArray large(256 * 1024, 'x');
        {
            FileSizeLimit limit(4096);
            QVERIFY(limit.isSet());
            KVSCOPE_VERIFY_ERROR(writeFileAtomically(path, large), path, QStringLiteral("cannot write"));
        }
        QCOMPARE(readAll(path), QByteArray("old contents\n"));
        // No temporary file is left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("scenario.kvscope")});
    }

    void shortWriteLeavesNoNewFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("new.png"));
        {
            FileSizeLimit limit(4096);
            QVERIFY(limit.isSet());
            KVSCOPE_VERIFY_ERROR(writeFileAtomically(path, QByteArray(256 * 1024, 'x')), path,
                                 QStringLiteral("cannot write"));
        }
        QVERIFY(!QFile::exists(path));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
