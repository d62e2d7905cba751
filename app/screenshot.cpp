// SPDX-License-Identifier: MIT
#include "app/screenshot.h"

#include "app/cli/cliio.h"
#include "core/common/atomicfile.h"
#include "core/common/error.h"
#include "ui/compare/compareview.h"
#include "ui/explainlog/explainlogdialog.h"
#include "ui/explorer/accuracyrunner.h"
#include "ui/explorer/explorerview.h"
#include "ui/fit/fitdialog.h"
#include "ui/quantization/quantizationview.h"
#include "ui/state/modelimporter.h"
#include "ui/state/userlibrary.h"
#include "ui/window/mainwindow.h"

#include <memory>

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <QTimer>

namespace kvscope {

namespace {

/// Time for the first layout, and the longest wait for imports and results.
constexpr int LayoutMs = 400;
constexpr int GiveUpMs = 60'000;
/// After the last result, time for the charts to repaint.
constexpr int SettleMs = 200;

} // namespace

void scheduleScreenshot(MainWindow &window, const QString &path)
{
    auto failures = std::make_shared<QStringList>();
    const auto remember = [failures](const QString &message) { *failures << message; };
    QObject::connect(&window, &MainWindow::importFailed, &window, remember);
    // The simulator exists only once its tab has been shown (--view quantization).
    QuantizationView *simulator = window.findChild<QuantizationView *>();
    if (simulator)
        QObject::connect(simulator, &QuantizationView::failed, &window, remember);

    auto *poll = new QTimer(&window);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QObject::connect(poll, &QTimer::timeout, &window, [&window, path, failures, simulator, poll, clock] {
        // The Compare view compares while it is shown (--view compare); the explorer's
        // accuracy card simulates its formats and its banner's proposals are worked out.
        const CompareView *compare = window.compare();
        const FitDialog *fit = window.fitDialog();
        const ExplainLogDialog *explain = window.explainLogDialog();
        const bool ready = clock->elapsed() >= LayoutMs && !window.importer()->busy() &&
                           !window.library()->isImporting() && !(simulator && simulator->isBusy()) &&
                           !(compare->isVisible() && compare->isBusy()) && !(fit && fit->isSearching()) &&
                           !(explain && explain->isBusy()) &&
                           !(window.explorer()->isVisible() && window.explorer()->isBusy());
        const bool late = clock->elapsed() >= GiveUpMs;
        if (!ready && !late)
            return;
        poll->stop();
        if (!ready)
            *failures
                << QStringLiteral("--screenshot: still busy after %1 s; taken anyway").arg(GiveUpMs / 1000);
        QTimer::singleShot(SettleMs, &window, [&window, path, failures] {
            // The "What do I need?" dialog (--view fit) or "Explain a start-up log" (kvscope
            // FILE.log) is the picture when it is open.
            QWidget *shown = &window;
            if (window.fitDialog())
                shown = window.fitDialog();
            else if (window.explainLogDialog())
                shown = window.explainLogDialog();
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            try {
                if (!shown->grab().save(&buffer, "PNG"))
                    throw Error(QStringLiteral("--screenshot: cannot encode the window as PNG"));
                writeFileAtomically(path, png);
            } catch (const Error &error) {
                *failures << error.message();
            }
            for (const QString &failure : *failures)
                cli::fail(failure);
            QCoreApplication::exit(failures->isEmpty() ? 0 : 1);
        });
    });
    poll->start(100);
}

} // namespace kvscope
