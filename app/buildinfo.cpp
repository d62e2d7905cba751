// SPDX-License-Identifier: MIT
#include "app/buildinfo.h"

#include "gitrevision.h"

namespace kvscope {

QString versionText()
{
    return QStringLiteral("%1 (git %2)")
        .arg(QStringLiteral(KVSCOPE_VERSION), QStringLiteral(KVSCOPE_GIT_REVISION));
}

} // namespace kvscope
