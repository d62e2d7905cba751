// SPDX-License-Identifier: MIT
// The one way the suites run the kvscope binary (KVSCOPE_BINARY, set by
// ctest): with extra or removed environment variables, stdout to a file, a
// file-size limit, and a watch that kills a run that outlives its time or
// grows past its memory, so a defect that reads forever fails its test
// instead of hanging the suite.
#pragma once

#include <algorithm>

#if defined(Q_OS_UNIX)
#include <unistd.h>
#endif

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace kvscope::test {

/// How the kvscope binary is run.
struct RunOptions
{
    QString standardOutputFile; ///< stdout redirected to this file (truncated), else read
    QString workingDirectory;
    QStringList environment;          ///< NAME=value added to the test's environment
    QStringList unsetEnvironment;     ///< names removed from it (DISPLAY, QT_QPA_PLATFORM…)
    int fileSizeLimitBlocks = 0;      ///< > 0: `ulimit -f` (512-byte blocks), SIGXFSZ ignored
    bool ignoreFileSizeSignal = true; ///< false: SIGXFSZ left as the default (kill) for kvscope to handle
    bool withoutTerminal = false;     ///< in a session of its own: no controlling terminal (/dev/tty)
    int timeoutMs = 60'000;
    qint64 maxResidentBytes = 0; ///< > 0: killed past this (a runaway read)
};

struct Run
{
    int exitCode = -1;
    bool crashed = false;
    bool timedOut = false;
    bool tooLarge = false; ///< killed for its resident memory
    qint64 peakResidentBytes = 0;
    QByteArray out;
    QByteArray err;

    /// "exit 1, stderr: ..." for a failure message.
    QByteArray describe() const
    {
        QByteArray text = timedOut   ? QByteArray("timed out (killed)")
                          : tooLarge ? "killed past " + QByteArray::number(peakResidentBytes >> 20) + " MiB"
                          : crashed  ? QByteArray("crashed")
                                     : "exit " + QByteArray::number(exitCode);
        return text + ", stderr: " + err;
    }
};

/// The resident set of process `pid` in bytes (Linux /proc), or 0.
inline qint64 residentBytes(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines)
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    return 0;
}

/// Runs KVSCOPE_BINARY with `arguments` as `options` say, killing it when it
/// outlives `timeoutMs` or grows past `maxResidentBytes`.
inline Run runKvscope(const QStringList &arguments, const RunOptions &options = {})
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name : options.unsetEnvironment)
        environment.remove(name);
    for (const QString &entry : options.environment)
        environment.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
    process.setProcessEnvironment(environment);
    if (!options.standardOutputFile.isEmpty())
        process.setStandardOutputFile(options.standardOutputFile, QIODevice::Truncate);
    if (!options.workingDirectory.isEmpty())
        process.setWorkingDirectory(options.workingDirectory);
    const QString binary = qEnvironmentVariable("KVSCOPE_BINARY");
#if defined(Q_OS_UNIX)
    if (options.withoutTerminal)
        process.setChildProcessModifier([] { ::setsid(); });
#endif
    if (options.fileSizeLimitBlocks > 0) {
        // Ignored SIGXFSZ stays ignored across exec: a write past the limit
        // then fails with EFBIG, as on a full disk, instead of killing.
        const QString script =
            QStringLiteral("%1ulimit -f %2 && exec \"$0\" \"$@\"")
                .arg(options.ignoreFileSizeSignal ? QStringLiteral("trap '' XFSZ; ") : QString())
                .arg(options.fileSizeLimitBlocks);
        process.start(QStringLiteral("/bin/sh"),
                      QStringList{QStringLiteral("-c"), script, binary} + arguments);
    } else {
        process.start(binary, arguments);
    }
    Run run;
    if (!process.waitForStarted(10'000))
        qFatal("cannot start %s", qPrintable(binary));
    QElapsedTimer clock;
    clock.start();
    while (!process.waitForFinished(20)) {
        if (options.maxResidentBytes > 0) {
            run.peakResidentBytes = std::max(run.peakResidentBytes, residentBytes(process.processId()));
            run.tooLarge = run.peakResidentBytes > options.maxResidentBytes;
        }
        run.timedOut = clock.elapsed() > options.timeoutMs;
        if (run.tooLarge || run.timedOut) {
            process.kill();
            process.waitForFinished(10'000);
            break;
        }
    }
    run.crashed = process.exitStatus() == QProcess::CrashExit;
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

/// The JSON object `kvscope ARGUMENTS --json` prints; a run that fails ends the test program
/// with its message (every caller expects success).
inline QJsonObject runJson(const QStringList &arguments)
{
    const Run run = runKvscope(arguments + QStringList{QStringLiteral("--json")});
    if (run.exitCode != 0)
        qFatal("kvscope failed: %s", run.err.constData());
    return QJsonDocument::fromJson(run.out).object();
}

/// runKvscope() with no display at all: DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM unset,
/// as a script on a server runs it; two minutes to finish.
inline Run runWithoutDisplay(const QStringList &arguments, RunOptions options = {})
{
    options.unsetEnvironment << QStringLiteral("DISPLAY") << QStringLiteral("WAYLAND_DISPLAY")
                             << QStringLiteral("QT_QPA_PLATFORM");
    options.timeoutMs = 120'000;
    return runKvscope(arguments, options);
}

} // namespace kvscope::test
