// SPDX-License-Identifier: MIT
#include "app/cli/cliio.h"

#include "core/common/atomicfile.h"
#include "core/common/error.h"

#include <cerrno>
#include <cstdio>
#include <optional>

#include <QCommandLineParser>

namespace kvscope::cli {

namespace {

/// Why standard output could not be written, from the first write that failed.
std::optional<QString> &outputFailure()
{
    static std::optional<QString> failure;
    return failure;
}

/// "kvscope: <kind>: <message>" as one line on stderr. Escaped, not only simplified: a value
/// echoed back (an option's text, Qt's "Unknown option 'X'") could otherwise retitle the
/// terminal, clear it or start a forged line.
void printLine(const QString &kind, const QString &message)
{
    const QString line = printableText(message).simplified();
    const QByteArray utf8 = QStringLiteral("kvscope: %1: %2\n").arg(kind, line).toUtf8();
    std::fwrite(utf8.constData(), 1, size_t(utf8.size()), stderr);
    std::fflush(stderr);
}

} // namespace

void writeOut(const QString &text)
{
    if (outputFailure())
        return; // what follows a lost part is not worth writing
    try {
        writeStandardOutput(text.toUtf8());
    } catch (const Error &error) {
        outputFailure() = error.message();
    }
}

int finishOutput(int code)
{
    if (!outputFailure() && std::fflush(stdout) != 0)
        outputFailure() = QStringLiteral("standard output: cannot write: %1").arg(qt_error_string(errno));
    // A command that failed has said why; its output was not the point.
    if (outputFailure() && code == Success)
        return fail(*outputFailure());
    return code;
}

int fail(const QString &message, int code)
{
    printLine(QStringLiteral("error"), message);
    return code;
}

void warn(const QString &message)
{
    printLine(QStringLiteral("warning"), message);
}

std::optional<CommandLineStop> checkCommandLine(QCommandLineParser &parser, const QStringList &arguments,
                                                Positionals positionals)
{
    const QString command = arguments.value(1);
    if (!parser.parse(arguments.mid(1)))
        return CommandLineStop{UsageError, QStringLiteral("%1: %2").arg(command, parser.errorText())};
    if (parser.isSet(QStringLiteral("help")))
        return CommandLineStop{Success, parser.helpText()};
    if (positionals == Positionals::Refused && !parser.positionalArguments().isEmpty())
        return CommandLineStop{UsageError, QStringLiteral("%1: unexpected argument '%2'")
                                               .arg(command, parser.positionalArguments().first())};
    return std::nullopt;
}

std::optional<int> parseCommandLine(QCommandLineParser &parser, const QStringList &arguments,
                                    Positionals positionals)
{
    const std::optional<CommandLineStop> stop = checkCommandLine(parser, arguments, positionals);
    if (!stop)
        return std::nullopt;
    if (stop->code == Success) {
        writeOut(stop->text);
        return Success;
    }
    return fail(stop->text, stop->code);
}

} // namespace kvscope::cli
