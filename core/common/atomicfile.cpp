// SPDX-License-Identifier: MIT
#include "common/atomicfile.h"

#include "common/error.h"

#include <QSaveFile>

namespace kvscope {

void writeFileAtomically(const QString &path, const QByteArray &contents)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw Error(QStringLiteral("%1: cannot write: %2").arg(path, file.errorString()));
    file.write(contents);
    if (!file.commit())
        throw Error(QStringLiteral("%1: cannot write: %2").arg(path, file.errorString()));
}

} // namespace kvscope
