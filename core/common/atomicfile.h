// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace kvscope {

/// Writes `contents` to `path` atomically (QSaveFile: all or nothing);
/// throws kvscope::Error naming the file. Every file kvscope writes goes
/// through here.
void writeFileAtomically(const QString &path, const QByteArray &contents);

} // namespace kvscope
