// SPDX-License-Identifier: MIT
#include "cliio.h"

#include <cstdio>

#include <QCommandLineParser>

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
