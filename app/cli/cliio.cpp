// SPDX-License-Identifier: MIT
#include "cliio.h"

#include <cstdio>

namespace kvscope::cli {

void writeOut(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    std::fwrite(utf8.constData(), 1, size_t(utf8.size()), stdout);
    std::fflush(stdout);
}

int fail(const QString &message, int code)
{
    QString line = message.simplified();
    const QByteArray utf8 = (QStringLiteral("kvscope: error: ") + line + QLatin1Char('\n')).toUtf8();
    std::fwrite(utf8.constData(), 1, size_t(utf8.size()), stderr);
    std::fflush(stderr);
    return code;
}

} // namespace kvscope::cli
