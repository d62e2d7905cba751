// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/error.h"

#include <optional>

#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace kvscope::cli {

/// Exit codes of the headless commands.
enum ExitCode
{
    Success = 0,
    Failure = 1,
    UsageError = 2
};

/// A kvscope::Error that is a usage error (exit 2) rather than a failure (exit 1): an export
/// size beyond the bounds, as --size's is.
class UsageFailure : public Error
{
public:
    using Error::Error;
};

/// Writes text to stdout in UTF-8, all at once (so output is never partial).
/// A failed write is remembered for finishOutput(); later writes are skipped.
void writeOut(const QString &text);

/// The exit code once the output is done: `code`, or Failure with one line
/// "standard output: cannot write: <reason>" on stderr when a write or the
/// final flush failed (a full disk, a closed pipe) after a success.
int finishOutput(int code);

/// Prints "kvscope: error: <message>" as one line on stderr, its control characters escaped
/// (printableText), and returns `code`.
int fail(const QString &message, int code = Failure);

/// Prints "kvscope: warning: <message>" as one line on stderr, escaped as fail() escapes.
void warn(const QString &message);

/// Whether a command takes words besides its options.
enum class Positionals
{
    Refused,
    Taken
};

/// What ends a command before it runs: --help (Success, the help text for
/// stdout) or a usage error (UsageError, the message naming the command).
struct CommandLineStop
{
    ExitCode code;
    QString text;
};

/// Parses a command's options from `arguments` (the program, the command,
/// then its options) and says whether the command ends before it runs: for
/// --help, options it cannot parse or a word it does not take. Prints nothing.
std::optional<CommandLineStop> checkCommandLine(QCommandLineParser &parser, const QStringList &arguments,
                                                Positionals positionals = Positionals::Refused);

/// checkCommandLine(), then prints the help or the usage error. Returns that
/// exit code, or std::nullopt when the command should run.
std::optional<int> parseCommandLine(QCommandLineParser &parser, const QStringList &arguments,
                                    Positionals positionals = Positionals::Refused);

} // namespace kvscope::cli
