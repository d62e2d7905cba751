// SPDX-License-Identifier: MIT
// Files of the source tree (test data, the documents a suite keeps current),
// found from the suite's executable.
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QString>

namespace kvscope::test {

/// `relative` ("tests/data/vllm-logs.json") in the source tree. The build
/// gives each suite the path from its executable's folder to the tree
/// (KVSCOPE_SOURCE_ROOT, tests/CMakeLists.txt) rather than an absolute one,
/// so that clones in different folders compile every suite alike and share
/// ccache's results; it holds wherever the suite is started from.
inline QString sourceTreePath(const QString &relative)
{
    const QDir root(QCoreApplication::applicationDirPath() + QLatin1Char('/') +
                    QStringLiteral(KVSCOPE_SOURCE_ROOT));
    return QDir::cleanPath(root.filePath(relative));
}

} // namespace kvscope::test
