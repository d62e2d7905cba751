// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace kvscope {

/// "0.1.0 (git 1a2b3c4d5e6f)": the version and the checkout's revision at build
/// time ("unknown" outside a git checkout). `kvscope --version` and the About
/// dialog (through QCoreApplication::applicationVersion) show it.
QString versionText();

} // namespace kvscope
