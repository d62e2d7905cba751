// SPDX-License-Identifier: MIT
// Helpers shared by the UI suites.
#pragma once

#include "tests/support/kvscoperun.h"
#include "ui/state/appsettings.h"
#include "ui/window/mainwindow.h"

#include <memory>
#include <set>

#include <QColor>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace kvscope::test {

/// How long a test waits for work on a worker thread (a quantization run):
/// generous, because the machine may be loaded or the build sanitized; a
/// passing test returns as soon as the work is done.
inline constexpr int BackgroundWorkTimeoutMs = 60'000;

/// Points QSettings at a test location (never the user's) under `application`.
inline void isolateSettings(const QString &application)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("kvscope-tests"));
    QCoreApplication::setApplicationName(application);
}

/// Forgets saved state and pins the language, for a window that starts clean.
inline void resetState()
{
    appsettings::reset();
    appsettings::setLanguage(QStringLiteral("en"));
}

/// A shown main window, optionally at the default 1280x720.
inline std::unique_ptr<MainWindow> openWindow(bool defaultSize = true)
{
    auto window = std::make_unique<MainWindow>();
    if (defaultSize)
        window->resize(1280, 720);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        qFatal("window not exposed");
    return window;
}

/// Closes and destroys `window`; how long that took, in milliseconds.
inline qint64 closeWindow(std::unique_ptr<MainWindow> &window)
{
    QElapsedTimer closing;
    closing.start();
    window->close();
    window.reset();
    return closing.elapsed();
}

/// The kvscope program (KVSCOPE_BINARY) opening its window offscreen, with
/// settings of its own in `config` (its XDG_CONFIG_HOME): `settings` is the
/// INI text of its settings file when it starts.
struct WindowRun
{
    int exitCode = -1;
    QByteArray err;
};

/// The settings file kvscope uses under XDG_CONFIG_HOME `config`.
inline QString settingsFile(const QTemporaryDir &config)
{
    return config.filePath(QStringLiteral("kvscope/kvscope.conf"));
}

inline WindowRun runWindow(const QTemporaryDir &config, const QStringList &arguments,
                           const QByteArray &settings = {})
{
    QDir(config.path()).mkpath(QStringLiteral("kvscope"));
    QFile file(settingsFile(config));
    if (!file.open(QIODevice::WriteOnly) || file.write(settings) != settings.size())
        qFatal("cannot write %s", qPrintable(file.fileName()));
    file.close();
    RunOptions options;
    options.environment = {QStringLiteral("XDG_CONFIG_HOME=") + config.path(),
                           QStringLiteral("QT_QPA_PLATFORM=offscreen")};
    options.timeoutMs = 120'000;
    const Run run = runKvscope(arguments, options);
    if (run.timedOut)
        qFatal("kvscope did not finish");
    return {run.exitCode, run.err};
}

/// Counts the pixels of `color` (within a small tolerance).
inline int pixelsNear(const QImage &image, const QColor &color)
{
    int count = 0;
    // Every pixel: a one-pixel line sampled every other column came and went as a layout moved it by one.
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (qAbs(c.red() - color.red()) < 12 && qAbs(c.green() - color.green()) < 12 &&
                qAbs(c.blue() - color.blue()) < 12)
                ++count;
        }
    return count;
}

/// Distinct colours in an image (every third pixel): a blank or single-colour picture has few.
inline int colourCount(const QImage &image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

} // namespace kvscope::test
