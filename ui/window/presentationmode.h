// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

#include <QList>
#include <QObject>
#include <QPalette>

class QAction;
class QMainWindow;

namespace kvscope {

/// Presentation mode (F5): full screen, the presentation zoom on every font,
/// a high-contrast palette, and the actions that only make sense on a
/// projector (zoom, stepping through the scenario strip) enabled. Leaving it
/// puts back the palette and the window's size.
class PresentationMode : public QObject
{
    Q_OBJECT

public:
    /// `window` is shown full screen; `presentationOnly` are enabled while presenting.
    PresentationMode(QMainWindow *window, QList<QAction *> presentationOnly);

    bool isActive() const { return m_active; }
    void setActive(bool on);
    /// The zoom presenting applies (saved in the settings), from 1 to 3.
    double zoom() const { return m_zoom; }
    void setZoom(double zoom);
    /// The saved zoom, without saving it again.
    void restoreZoom(double zoom) { m_zoom = zoom; }
    /// Whether presenting goes full screen (the default); a screenshot at a given size presents
    /// in the window as sized instead.
    void setFullScreen(bool fullScreen) { m_fullScreen = fullScreen; }

Q_SIGNALS:
    /// After entering or leaving (the palette and fonts have changed).
    void activeChanged(bool on);

private:
    QMainWindow *m_window;
    QList<QAction *> m_presentationOnly;
    bool m_active = false;
    double m_zoom = 1.5;
    bool m_fullScreen = true;
    bool m_wasFullScreen = false;
    QPalette m_normalPalette;
};

} // namespace kvscope
