// SPDX-License-Identifier: MIT
// Hostile writes: a full disk, devices, FIFOs, kvscope's own standard
// output named as a file, and a standard output that cannot be written.
// What kvscope writes is all or nothing: a failed save leaves the old file
// as it was and exits 1 with one line naming the file; a device or a FIFO
// is written in place, never replaced by a regular file.
#include "tests/hostile/hostilesupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

namespace {

/// A small, fast quant run whose histogram CSV is about 25 KB.
QStringList quantWithHistogram(const QString &path)
{
    return {QStringLiteral("quant"),
            QStringLiteral("--rows"),
            QStringLiteral("64"),
            QStringLiteral("--cols"),
            QStringLiteral("64"),
            QStringLiteral("--histogram"),
            path};
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

bool writeText(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

/// The CSV's header line (core/quantization/report.h histogramsCsv).
const QByteArray csvHeader = "histogram,scheme,bin,lower,upper,count\n";
/// Whether `out` holds the results table: its header line (app/cli/quanttext.cpp).
bool hasResultsTable(const QByteArray &out)
{
    static const QRegularExpression header(QStringLiteral("^scheme +bits/w +MSE +SQNR dB"),
                                           QRegularExpression::MultilineOption);
    return header.match(QString::fromUtf8(out)).hasMatch();
}

/// Exactly one line on stderr: "kvscope: error: <path>: cannot write: ...<reason>".
bool isOneWriteError(const QByteArray &err, const QString &path, const QByteArray &reason = {})
{
    return err.startsWith("kvscope: error: " + path.toUtf8() + ": cannot write: ") && err.count('\n') == 1 &&
           err.endsWith('\n') && err.contains(reason);
}

} // namespace

class TestHostileWrites : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY")); }

    // Before the fix: exit 0, no message, and errors.csv replaced by its
    // first 512 bytes (QSaveFile::write's short count was ignored).
    void histogramOnAFullDiskKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("errors.csv"));
        QVERIFY(writeText(path, "old,contents\n"));
        test::RunOptions limited;
        limited.fileSizeLimitBlocks = 1; // 512 bytes
        const test::WatchedRun run = test::runWatched(quantWithHistogram(path), limited);
        QVERIFY2(run.exitCode == 1, run.describe().constData());
        QVERIFY2(isOneWriteError(run.err, path, "File too large"), run.err.constData());
        QCOMPARE(readAll(path), QByteArray("old,contents\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("errors.csv")});
        QVERIFY(run.out.isEmpty()); // the CSV goes first: nothing reached stdout
    }

    void histogramOnAFullDiskLeavesNoNewFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("new.csv"));
        test::RunOptions limited;
        limited.fileSizeLimitBlocks = 1;
        const test::WatchedRun run = test::runWatched(quantWithHistogram(path), limited);
        QVERIFY2(run.exitCode == 1, run.describe().constData());
        QVERIFY2(isOneWriteError(run.err, path), run.err.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    // Before the fix: QPixmap::save truncated shot.png in place, then failed.
    void screenshotOnAFullDiskKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        QVERIFY(writeText(path, "old picture"));
        test::RunOptions limited;
        limited.fileSizeLimitBlocks = 1;
        limited.environment = {QStringLiteral("XDG_CONFIG_HOME=") + dir.filePath(QStringLiteral("config"))};
        const test::WatchedRun run =
            test::runWatched({QStringLiteral("--screenshot"), path, QStringLiteral("--size"),
                              QStringLiteral("640x480"), QStringLiteral("--lang"), QStringLiteral("en")},
                             limited);
        QVERIFY2(run.exitCode == 1, run.describe().constData());
        QVERIFY2(run.err.contains("kvscope: error: " + path.toUtf8() + ": cannot write: File too large"),
                 run.err.constData());
        QCOMPARE(readAll(path), QByteArray("old picture"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("shot.png")});
    }

    // Before the fix the FIFO was renamed over: a regular file took its place.
    void histogramIntoAFifoIsStreamed()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("histogram.fifo"));
        QVERIFY(test::makeFifo(fifo));
        const QString link = dir.filePath(QStringLiteral("link.csv"));
        QVERIFY(QFile::link(fifo, link));
        for (const QString &path : {fifo, link}) {
            test::FifoReader reader(fifo);
            QVERIFY(reader.isOpen());
            const test::WatchedRun run = test::runWatched(quantWithHistogram(path));
            const QByteArray received = reader.finish();
            QVERIFY2(run.exitCode == 0, run.describe().constData());
            QVERIFY(test::isFifo(fifo));
            QVERIFY(QFileInfo(link).isSymLink());
            QVERIFY2(received.startsWith(csvHeader), received.left(200).constData());
            QVERIFY(hasResultsTable(run.out));
        }
    }

    void histogramIntoAFifoWithoutReaderFails()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("unread.fifo"));
        QVERIFY(test::makeFifo(fifo));
        const test::WatchedRun run = test::runWatched(quantWithHistogram(fifo));
        QVERIFY2(run.exitCode == 1 && !run.timedOut, run.describe().constData());
        QVERIFY2(isOneWriteError(run.err, fifo, "a FIFO that no program reads"), run.err.constData());
        QVERIFY(test::isFifo(fifo));
    }

    // As root, --histogram /dev/null used to replace the device node with a
    // regular file. The test uses a node of its own as root (never /dev).
    void histogramIntoANullDevice()
    {
        QTemporaryDir dir;
        const QString device = test::deviceNode(QDir(dir.path()), QStringLiteral("null"));
        if (device.isEmpty())
            QSKIP("no usable null device node (root on a nodev file system?)");
        const QString link = dir.filePath(QStringLiteral("null-link.csv"));
        QVERIFY(QFile::link(device, link));
        for (const QString &path : {device, link}) {
            const test::WatchedRun run = test::runWatched(quantWithHistogram(path));
            QVERIFY2(run.exitCode == 0, run.describe().constData());
            QVERIFY(test::isCharacterDevice(device));
            QVERIFY(hasResultsTable(run.out));
        }
    }

    void histogramIntoAFullDevice()
    {
        QTemporaryDir dir;
        const QString device = test::deviceNode(QDir(dir.path()), QStringLiteral("full"));
        if (device.isEmpty())
            QSKIP("no usable full device node (root on a nodev file system?)");
        const test::WatchedRun run = test::runWatched(quantWithHistogram(device));
        QVERIFY2(run.exitCode == 1, run.describe().constData());
        QVERIFY2(isOneWriteError(run.err, device, "No space left on device"), run.err.constData());
        QVERIFY(test::isCharacterDevice(device));
        QVERIFY(run.out.isEmpty());
    }

    void histogramIntoAFolderIsRefused()
    {
        QTemporaryDir dir;
        const test::WatchedRun run = test::runWatched(quantWithHistogram(dir.path()));
        QVERIFY2(run.exitCode == 1, run.describe().constData());
        QVERIFY2(isOneWriteError(run.err, dir.path(), "a folder, not a regular file"), run.err.constData());
        QVERIFY(QFileInfo(dir.path()).isDir());
    }

    // Before the fix /dev/stdout, which leads to out.txt, was renamed over:
    // out.txt then held the CSV and the results table was lost.
    void histogramToDevStdoutKeepsTheTable()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.txt"));
        test::RunOptions redirected;
        redirected.standardOutputFile = out;
        const test::WatchedRun run =
            test::runWatched(quantWithHistogram(QStringLiteral("/dev/stdout")), redirected);
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        const QByteArray written = readAll(out);
        QVERIFY2(written.startsWith(csvHeader), written.left(200).constData());
        QVERIFY2(hasResultsTable(written), written.right(400).constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("out.txt")});
    }

    void histogramDashIsStandardOutput()
    {
        QTemporaryDir dir;
        test::RunOptions inDir;
        inDir.workingDirectory = dir.path();
        const test::WatchedRun run = test::runWatched(quantWithHistogram(QStringLiteral("-")), inDir);
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        QVERIFY2(run.out.startsWith(csvHeader), run.out.left(200).constData());
        QVERIFY(hasResultsTable(run.out));
        QVERIFY2(QDir(dir.path()).entryList(QDir::Files).isEmpty(), "a file named '-' was written");
    }

    // Before the fix '-' was a file name without an extension: refused.
    void exportDashIsStandardOutput()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("memory.csv"));
        const QStringList chart{QStringLiteral("export"), QStringLiteral("--chart"),
                                QStringLiteral("memory")};
        const test::WatchedRun file = test::runWatched(chart + QStringList{QStringLiteral("--out"), csv});
        QVERIFY2(file.exitCode == 0, file.describe().constData());
        test::RunOptions inDir;
        inDir.workingDirectory = dir.path();
        const test::WatchedRun dash =
            test::runWatched(chart + QStringList{QStringLiteral("--out"), QStringLiteral("-"),
                                                 QStringLiteral("--format"), QStringLiteral("csv")},
                             inDir);
        QVERIFY2(dash.exitCode == 0, dash.describe().constData());
        QCOMPARE(dash.out, readAll(csv));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("memory.csv")});

        const test::WatchedRun unnamed =
            test::runWatched(chart + QStringList{QStringLiteral("--out"), QStringLiteral("-")}, inDir);
        QVERIFY2(unnamed.exitCode == 1, unnamed.describe().constData());
        QCOMPARE(unnamed.err,
                 QByteArray("kvscope: error: --out -: give the format with --format (png, svg, pdf, "
                            "csv or json)\n"));
        QVERIFY(unnamed.out.isEmpty());
    }

    // Before the fix each of these exited 0 with the output lost.
    void standardOutputThatCannotBeWritten_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("calc") << QStringList{QStringLiteral("calc")};
        QTest::newRow("calc --json") << QStringList{QStringLiteral("calc"), QStringLiteral("--json")};
        QTest::newRow("quant") << QStringList{QStringLiteral("quant"), QStringLiteral("--rows"),
                                              QStringLiteral("64"), QStringLiteral("--cols"),
                                              QStringLiteral("64")};
        QTest::newRow("quant --json")
            << QStringList{QStringLiteral("quant"),  QStringLiteral("--rows"), QStringLiteral("64"),
                           QStringLiteral("--cols"), QStringLiteral("64"),     QStringLiteral("--json")};
        QTest::newRow("models") << QStringList{QStringLiteral("models")};
        QTest::newRow("models --json") << QStringList{QStringLiteral("models"), QStringLiteral("--json")};
        QTest::newRow("gpus") << QStringList{QStringLiteral("gpus")};
        QTest::newRow("gpus --json") << QStringList{QStringLiteral("gpus"), QStringLiteral("--json")};
        QTest::newRow("calc --help") << QStringList{QStringLiteral("calc"), QStringLiteral("--help")};
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")};
        QTest::newRow("--version") << QStringList{QStringLiteral("--version")};
        QTest::newRow("export --out -")
            << QStringList{QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                           QStringLiteral("--out"),  QStringLiteral("-"),       QStringLiteral("--format"),
                           QStringLiteral("json")};
        // A small model: the seed question's AWQ column simulates its layers before anything is written
        // (Llama-3.1-8B's took 10 s a row under the sanitizers).
        QTest::newRow("compare") << QStringList{QStringLiteral("compare"), QStringLiteral("--model"),
                                                QStringLiteral("qwen2.5-0.5b")};
        QTest::newRow("compare --json")
            << QStringList{QStringLiteral("compare"), QStringLiteral("--json"), QStringLiteral("--model"),
                           QStringLiteral("qwen2.5-0.5b")};
        QTest::newRow("export --list-charts")
            << QStringList{QStringLiteral("export"), QStringLiteral("--list-charts")};
    }

    void standardOutputThatCannotBeWritten()
    {
        QFETCH(QStringList, arguments);
        QTemporaryDir dir;
        const QString device = test::deviceNode(QDir(dir.path()), QStringLiteral("full"));
        if (device.isEmpty())
            QSKIP("no usable full device node (root on a nodev file system?)");
        test::RunOptions full;
        full.standardOutputFile = device;
        const test::WatchedRun run = test::runWatched(arguments, full);
        QVERIFY2(run.exitCode == 1, run.describe().constData());
        QCOMPARE(run.err,
                 QByteArray("kvscope: error: standard output: cannot write: No space left on device\n"));
    }
};

QTEST_GUILESS_MAIN(TestHostileWrites)
#include "tst_hostilewrites.moc"
