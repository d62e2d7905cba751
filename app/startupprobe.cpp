// SPDX-License-Identifier: MIT
#include "app/startupprobe.h"

#include "app/cli/cliio.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEvent>
#include <QFile>
#include <QRegularExpression>
#include <QTimer>
#include <QWidget>

namespace kvscope {

namespace {

/// Resident memory in KiB, as the kernel counts it (the figure `ps` and `top` show).
qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    static const QRegularExpression rss(QStringLiteral("^VmRSS:\\s+(\\d+) kB$"),
                                        QRegularExpression::MultilineOption);
    return rss.match(QString::fromLatin1(status.readAll())).captured(1).toLongLong();
}

class FirstPaintProbe : public QObject
{
public:
    FirstPaintProbe(QWidget &window, int idleMs) : QObject(&window), m_idleMs(idleMs)
    {
        window.installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_painted) {
            m_painted = true;
            // Queued: runs once this paint has been drawn.
            QTimer::singleShot(0, this, [this] {
                cli::writeOut(
                    QStringLiteral("first_paint_epoch_ms %1\n").arg(QDateTime::currentMSecsSinceEpoch()));
                QTimer::singleShot(m_idleMs, this, [] {
                    cli::writeOut(QStringLiteral("idle_rss_kb %1\n").arg(residentKiB()));
                    QCoreApplication::exit(0);
                });
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    int m_idleMs;
    bool m_painted = false;
};

} // namespace

void installStartupProbe(QWidget &window, int idleMs)
{
    new FirstPaintProbe(window, idleMs);
}

} // namespace kvscope
