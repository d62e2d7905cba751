// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace kvscope {

/// Writes `contents` to `path` all or nothing, through QSaveFile: the write
/// and the commit are checked, a short write cancels the save, and on any
/// failure the file at `path` stays as it was (or absent) and kvscope::Error
/// names the file and the reason. Every file kvscope writes goes through here.
void writeFileAtomically(const QString &path, const QByteArray &contents);

} // namespace kvscope
