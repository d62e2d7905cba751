// SPDX-License-Identifier: MIT
#include "common/atomicfile.h"

#include "common/error.h"

#include <QSaveFile>

namespace kvscope {

void writeFileAtomically(const QString &path, const QByteArray &contents)
{
    QSaveFile file(path);
    const auto refuse = [&](const QString &reason) {
        throw Error(QStringLiteral("%1: cannot write: %2").arg(path, reason));
    };
    if (!file.open(QIODevice::WriteOnly))
        refuse(file.errorString());
    // A short write (disk full, file size limit) leaves a partial temporary
    // file: drop it, so the file at `path` stays as it was.
    const qint64 written = file.write(contents);
    if (written != contents.size()) {
        const QString reason =
            written < 0 ? file.errorString()
                        : QStringLiteral("only %1 of %2 bytes written").arg(written).arg(contents.size());
        file.cancelWriting();
        refuse(reason);
    }
    if (!file.commit())
        refuse(file.errorString());
}

} // namespace kvscope
