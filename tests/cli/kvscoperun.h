// SPDX-License-Identifier: MIT
// Runs the kvscope binary (KVSCOPE_BINARY, set by ctest) for the CLI suites.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace kvscope::test {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline Run runKvscope(const QStringList &arguments)
{
    QProcess process;
    process.start(qEnvironmentVariable("KVSCOPE_BINARY"), arguments);
    if (!process.waitForFinished(60'000))
        qFatal("kvscope did not finish");
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace kvscope::test
