// SPDX-License-Identifier: MIT
// kvscope: the window by default (with a model file to open, if one is
// given), headless subcommands (calc, models, gpus...) when the first
// argument names one.
#include "app/buildinfo.h"
#include "app/cli/cliio.h"
#include "app/cli/commands.h"
#include "app/cli/scenariooptions.h"
#include "app/screenshot.h"
#include "app/startupprobe.h"
#include "core/common/error.h"
#include "core/common/imagesize.h"
#include "core/common/regularfile.h"
#include "core/plan/planner.h"
#include "ui/explainlog/explainlogdialog.h"
#include "ui/fit/fitdialog.h"
#include "ui/state/appsettings.h"
#include "ui/state/translations.h"
#include "ui/style/theme.h"
#include "ui/style/zoomstyle.h"
#include "ui/window/mainwindow.h"

#include <csignal>
#include <cstdio>
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStyle>

namespace {

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("kvscope"));
    QCoreApplication::setApplicationName(QStringLiteral("kvscope"));
    QCoreApplication::setApplicationVersion(kvscope::versionText());
}

/// Qt would abort with "could not connect to display": headless commands
/// draw on the offscreen platform instead when no display is there.
void drawOffscreenWithoutDisplay()
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

/// A script reads stderr for one error line: keep Qt's notes about the
/// offscreen platform and the runtime directory, which change nothing, out of it.
void quietPlatformNotes(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")) ||
                                 message.contains(QLatin1String("propagateSizeHints"))))
        return;
    const QByteArray line = qFormatLogMessage(type, context, message).toLocal8Bit() + '\n';
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
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
#if defined(Q_OS_UNIX)
    // A write past `ulimit -f` then fails with EFBIG, reported as any short write (exit 1),
    // instead of SIGXFSZ ending kvscope with no message.
    std::signal(SIGXFSZ, SIG_IGN);
#endif
    const QStringList arguments = argumentList(argc, argv);
    const QString first = arguments.value(1);
    if (kvscope::cli::commandDrawsCharts(first)) {
        drawOffscreenWithoutDisplay();
        qInstallMessageHandler(quietPlatformNotes);
        QApplication app(argc, argv);
        setApplicationIdentity();
        return kvscope::cli::finishOutput(kvscope::cli::runCommand(QCoreApplication::arguments()));
    }
    if (kvscope::cli::isCommand(first)) {
        QCoreApplication app(argc, argv);
        setApplicationIdentity();
        return kvscope::cli::finishOutput(kvscope::cli::runCommand(QCoreApplication::arguments()));
    }

    // GUI options are parsed before any display is opened, so --help and
    // mistakes work on a machine without one.
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("kvscope: will this LLM fit on this GPU?\n\n") +
                                     kvscope::cli::commandSummary());
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption resetSettings(
        QStringLiteral("reset-settings"),
        QStringLiteral("Forget the saved scenario and window state; start clean."));
    const QCommandLineOption language(
        QStringLiteral("lang"), QStringLiteral("Interface language: en or zh_CN."), QStringLiteral("code"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window to a PNG file and exit."),
                                        QStringLiteral("file"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot, e.g. 1280x720."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral(
            "Open on a view: explorer, quantization, attention (its attention tab), compare or fit "
            "(What do I need?)."),
        QStringLiteral("name"));
    const QCommandLineOption palette(
        QStringLiteral("palette"),
        QStringLiteral("Use a dark or light palette instead of the system's (drawn with Fusion)."),
        QStringLiteral("name"));
    const QCommandLineOption present(
        QStringLiteral("present"),
        QStringLiteral("Open in presentation mode (F5): full screen, zoomed, high contrast."));
    // For tests/benchmarks/bench_startup.sh only.
    QCommandLineOption startupProbe(
        QStringLiteral("startup-probe"),
        QStringLiteral("Print the first paint's time and the idle memory, then exit."));
    startupProbe.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({resetSettings, language, screenshot, size, view, palette, present, startupProbe});
    // The calc command's scenario options: the window opens on that scenario.
    const kvscope::cli::ScenarioOptions scenarioOptions;
    scenarioOptions.addTo(parser);
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QStringLiteral("A model to open (a config.json, a model folder or a .gguf file), or a .kvscope "
                       "scenario file."),
        QStringLiteral("[FILE]"));
    if (!parser.parse(arguments))
        return kvscope::cli::fail(parser.errorText(), kvscope::cli::UsageError);
    if (parser.isSet(help)) {
        // No QCoreApplication exists yet to name the program in the usage line.
        kvscope::cli::writeOut(
            parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("kvscope")));
        return kvscope::cli::finishOutput(kvscope::cli::Success);
    }
    if (parser.isSet(version)) {
        kvscope::cli::writeOut(QStringLiteral("kvscope %1\n").arg(kvscope::versionText()));
        return kvscope::cli::finishOutput(kvscope::cli::Success);
    }
    const QStringList files = parser.positionalArguments();
    // A link that leads nowhere is a file named on purpose: say what it is.
    if (!files.isEmpty() && kvscope::isBrokenSymlink(kvscope::fileKind(files.first())))
        return kvscope::cli::fail(
            QStringLiteral("%1: %2").arg(files.first(), kvscope::describePath(files.first())));
    // A word that is no command and no file is most likely a mistyped command.
    if (!files.isEmpty() && !QFileInfo::exists(files.first()))
        return kvscope::cli::fail(
            QStringLiteral("unknown command '%1', and no file or folder of that name (try --help)")
                .arg(files.first()),
            kvscope::cli::UsageError);
    if (files.size() > 1)
        return kvscope::cli::fail(
            QStringLiteral("one model at a time: '%1' and '%2' given").arg(files.at(0), files.at(1)),
            kvscope::cli::UsageError);
    const QStringList views{QStringLiteral("explorer"), QStringLiteral("quantization"),
                            QStringLiteral("attention"), QStringLiteral("compare"), QStringLiteral("fit")};
    if (parser.isSet(view) && !views.contains(parser.value(view)))
        return kvscope::cli::fail(QStringLiteral("--view: unknown view '%1' (choose %2)")
                                      .arg(parser.value(view), views.join(QStringLiteral(", "))),
                                  kvscope::cli::UsageError);
    if (parser.isSet(palette) && parser.value(palette) != QLatin1String("dark") &&
        parser.value(palette) != QLatin1String("light"))
        return kvscope::cli::fail(QStringLiteral("--palette: unknown palette '%1' (choose dark or light)")
                                      .arg(parser.value(palette)),
                                  kvscope::cli::UsageError);
    if (parser.isSet(language) && !kvscope::translations::available().contains(parser.value(language)))
        return kvscope::cli::fail(
            QStringLiteral("--lang: unknown language '%1' (choose en or zh_CN)").arg(parser.value(language)),
            kvscope::cli::UsageError);
    static const QRegularExpression sizePattern(QStringLiteral("^(\\d{1,9})x(\\d{1,9})$"));
    const QRegularExpressionMatch sizeMatch = sizePattern.match(parser.value(size));
    if (parser.isSet(size) && !sizeMatch.hasMatch())
        return kvscope::cli::fail(QStringLiteral("--size: expected WIDTHxHEIGHT such as 1280x720, got '%1'")
                                      .arg(parser.value(size)),
                                  kvscope::cli::UsageError);
    if (sizeMatch.hasMatch()) {
        try {
            kvscope::checkImageSize(sizeMatch.captured(1).toLongLong(), sizeMatch.captured(2).toLongLong(),
                                    QStringLiteral("--size"));
        } catch (const kvscope::Error &error) {
            return kvscope::cli::fail(error.message(), kvscope::cli::UsageError);
        }
    }

    std::optional<kvscope::Scenario> scenario;
    if (!scenarioOptions.givenValues(parser).isEmpty()) {
        if (!files.isEmpty())
            return kvscope::cli::fail(
                QStringLiteral("'%1': a file and scenario options together; pass a model file as --model")
                    .arg(files.first()),
                kvscope::cli::UsageError);
        try {
            scenario = scenarioOptions.scenario(parser);
            kvscope::validateScenario(*scenario);
        } catch (const kvscope::Error &error) {
            return kvscope::cli::fail(error.message());
        }
    }

#if defined(Q_OS_LINUX)
    // Qt would abort with "could not connect to display"; say what to do instead.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return kvscope::cli::fail(
            QStringLiteral("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are "
                           "unset); run a command such as 'kvscope calc', or set "
                           "QT_QPA_PLATFORM=offscreen"),
            kvscope::cli::Failure);
#endif
    QApplication app(argc, argv);
    setApplicationIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("kvscope"));
    if (parser.isSet(palette)) {
        QApplication::setStyle(QStringLiteral("Fusion")); // a platform style may ignore the palette
        QApplication::setPalette(parser.value(palette) == QLatin1String("dark")
                                     ? kvscope::theme::darkPalette()
                                     : QApplication::style()->standardPalette());
    }
    kvscope::ZoomStyle::install(); // legible check boxes on a dark palette, ours or the system's
    if (parser.isSet(resetSettings))
        kvscope::appsettings::reset();
    if (parser.isSet(language))
        kvscope::appsettings::setLanguage(parser.value(language));

    kvscope::MainWindow window;
    if (scenario) {
        try {
            window.showCommandLineScenario(*scenario);
        } catch (const kvscope::Error &error) {
            return kvscope::cli::fail(error.message());
        }
    }
    if (sizeMatch.hasMatch())
        window.resize(sizeMatch.captured(1).toInt(), sizeMatch.captured(2).toInt());
    if (parser.isSet(view) && parser.value(view) != QLatin1String("fit"))
        window.showView(parser.value(view));
    if (parser.isSet(startupProbe))
        kvscope::installStartupProbe(window);
    window.show();
    if (parser.isSet(present)) {
        // A screenshot at --size is a projector of that size, not of the screen kvscope runs on.
        window.setPresentationFullScreen(!(parser.isSet(screenshot) && sizeMatch.hasMatch()));
        window.setPresentationMode(true);
    }
    if (parser.value(view) == QLatin1String("fit")) { // a dialog over the shown window, at --size
        window.showView(parser.value(view));
        if (sizeMatch.hasMatch() && window.fitDialog())
            window.fitDialog()->resize(sizeMatch.captured(1).toInt(), sizeMatch.captured(2).toInt());
    }
    // In the background, as File → Open does; a refused file is shown in the
    // window. A .kvscope scenario file opens as File → Open scenario does, a
    // start-up log (.log, .txt) in "Explain a start-up log", at --size.
    if (!files.isEmpty())
        window.openPath(QFileInfo(files.first()).absoluteFilePath());
    if (sizeMatch.hasMatch() && window.explainLogDialog())
        window.explainLogDialog()->resize(sizeMatch.captured(1).toInt(), sizeMatch.captured(2).toInt());
    if (parser.isSet(screenshot))
        kvscope::scheduleScreenshot(window, parser.value(screenshot));
    return QApplication::exec();
}
