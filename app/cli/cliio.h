// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace kvscope::cli {

/// Exit codes of the headless commands.
enum ExitCode
{
    Success = 0,
    Failure = 1,
    UsageError = 2
};

/// Writes text to stdout in UTF-8, all at once (so output is never partial).
void writeOut(const QString &text);

/// Prints "kvscope: error: <message>" as one line on stderr and returns `code`.
int fail(const QString &message, int code = Failure);

} // namespace kvscope::cli
