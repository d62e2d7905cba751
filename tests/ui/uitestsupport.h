// SPDX-License-Identifier: MIT
// Helpers shared by the UI suites.
#pragma once

#include "appsettings.h"
#include "mainwindow.h"

#include <memory>

#include <QCoreApplication>
#include <QStandardPaths>
#include <QTest>

namespace kvscope::test {

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

} // namespace kvscope::test
