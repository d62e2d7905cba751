// SPDX-License-Identifier: MIT
// kvscope: the window by default, headless subcommands (calc, models, gpus...)
// when the first argument names one.
#include "cli/cliio.h"
#include "cli/commands.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace {

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("kvscope"));
    QCoreApplication::setApplicationName(QStringLiteral("kvscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KVSCOPE_VERSION));
}

QStringList argumentList(int argc, char *argv[])
{
    QStringList list;
    for (int i = 0; i < argc; ++i)
        list << QString::fromLocal8Bit(argv[i]);
    return list;
}

} // namespace

int main(int argc, char *argv[])
{
    const QStringList arguments = argumentList(argc, argv);
    const QString first = arguments.value(1);
    if (kvscope::cli::isCommand(first)) {
        QCoreApplication app(argc, argv);
        setApplicationIdentity();
        return kvscope::cli::runCommand(QCoreApplication::arguments());
    }

    // GUI options are parsed before any display is opened, so --help and
    // mistakes work on a machine without one.
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("kvscope: will this LLM fit on this GPU?\n\n")
                                     + kvscope::cli::commandSummary());
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    if (!parser.parse(arguments))
        return kvscope::cli::fail(parser.errorText(), kvscope::cli::UsageError);
    if (parser.isSet(help)) {
        // No QCoreApplication exists yet to name the program in the usage line.
        kvscope::cli::writeOut(parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("kvscope")));
        return 0;
    }
    if (parser.isSet(version)) {
        kvscope::cli::writeOut(QStringLiteral("kvscope %1\n").arg(QStringLiteral(KVSCOPE_VERSION)));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return kvscope::cli::fail(
            QStringLiteral("unknown command '%1' (try --help)").arg(parser.positionalArguments().first()),
            kvscope::cli::UsageError);

    QApplication app(argc, argv);
    setApplicationIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("kvscope"));
    kvscope::MainWindow window;
    window.show();
    return QApplication::exec();
}
