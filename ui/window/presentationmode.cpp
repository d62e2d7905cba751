// SPDX-License-Identifier: MIT
#include "ui/window/presentationmode.h"

#include "ui/state/settingkeys.h"
#include "ui/style/theme.h"

#include <algorithm>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QMainWindow>

namespace kvscope {

PresentationMode::PresentationMode(QMainWindow *window, QList<QAction *> presentationOnly)
    : QObject(window), m_window(window), m_presentationOnly(std::move(presentationOnly))
{}

void PresentationMode::setActive(bool on)
{
    if (on == m_active)
        return;
    m_active = on;
    if (on) {
        m_wasFullScreen = m_window->isFullScreen();
        m_normalPalette = QApplication::palette();
        QApplication::setPalette(theme::highContrastPalette(theme::isDark(m_normalPalette)));
        theme::setZoom(m_zoom);
        if (m_fullScreen)
            m_window->showFullScreen();
    } else {
        theme::setZoom(1.0);
        QApplication::setPalette(m_normalPalette);
        if (m_fullScreen && !m_wasFullScreen)
            m_window->showNormal();
    }
    for (QAction *action : std::as_const(m_presentationOnly))
        action->setEnabled(on);
    Q_EMIT activeChanged(on);
}

void PresentationMode::setZoom(double zoom)
{
    m_zoom = std::clamp(zoom, settings::MinPresentationZoom, settings::MaxPresentationZoom);
    settings::SettingsWriter().write(settings::windowKeys().presentationZoom, m_zoom);
    if (m_active)
        theme::setZoom(m_zoom);
}

} // namespace kvscope
