// SPDX-License-Identifier: MIT
// Slider to updated charts, offscreen: the time from setting the batch or
// sequence slider to (a) the chart series holding the new data and (b) the next frame done:
// the layouts the step invalidated and both charts (and the formula sheet, when shown) repainted. Prints
// p50/p95 for docs/benchmarks.md, first for the window as it opens, then with every view open: the formula
// panel shown, Compare, Quantization and the What-do-I-need dialog opened once (Compare follows the
// explorer's scenario from then on, the dialog stays open). Run: QT_QPA_PLATFORM=offscreen
// build/tests/benchmarks/bench_explorer Wall times on a shared machine spread by several milliseconds; for a
// change's effect count instructions instead, over fewer steps (KVSCOPE_BENCH_STEPS sets the updated steps
// per slider), in one command: KVSCOPE_BENCH_STEPS=40 valgrind --tool=callgrind --collect-atstart=no
//     --toggle-collect='kvscope::ScenarioController::setScenario*' build/tests/benchmarks/bench_explorer
// (the frame after a step, its layout and paint: --toggle-collect='*paintFrame*').
#include "tests/benchmarks/percentiles.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/growthchart.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/formulapanel.h"
#include "ui/state/appsettings.h"
#include "ui/window/mainwindow.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>
#include <QStandardPaths>
#include <QTextBrowser>

namespace {

using kvscope::bench::Percentiles;
using kvscope::bench::percentiles;

/// Sweeps the slider back and forth over its stops; returns milliseconds per step.
QList<double> sweep(QSlider *slider, int steps, const std::function<void()> &afterSet)
{
    QList<double> samples;
    int direction = 1;
    QElapsedTimer timer;
    for (int i = 0; i < steps; ++i) {
        int next = slider->value() + direction;
        if (next > slider->maximum() || next < slider->minimum()) {
            direction = -direction;
            next = slider->value() + direction;
        }
        timer.start();
        slider->setValue(next);
        afterSet();
        samples << double(timer.nsecsElapsed()) / 1e6;
    }
    return samples;
}

/// What the window's next frame does after a step: lay out again the widgets whose size hints the
/// step changed (the LayoutRequest events it posted), then draw both charts and the formula sheet,
/// when it is shown, and with them every other widget the step marked dirty (the banner, the cards).
Q_NEVER_INLINE void paintFrame(kvscope::ExplorerView *explorer) // not inlined: callgrind toggles on it
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    explorer->breakdownChart()->viewport()->repaint();
    explorer->growthChart()->viewport()->repaint();
    if (QWidget *sheet = explorer->formulaPanel()->browser()->viewport(); sheet->isVisible())
        sheet->repaint();
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("kvscope-bench"));
    kvscope::appsettings::reset();
    kvscope::MainWindow window;
    window.resize(1280, 720);
    window.show();
    QApplication::processEvents();

    kvscope::ExplorerView *explorer = window.explorer();
    const auto repaintCharts = [explorer] { paintFrame(explorer); };
    const int updatedSteps = qEnvironmentVariableIsSet("KVSCOPE_BENCH_STEPS")
                                 ? std::max(1, qEnvironmentVariableIntValue("KVSCOPE_BENCH_STEPS"))
                                 : 1000;
    const auto measure = [&](const char *heading) {
        std::printf("%s\n%-34s %8s %8s %8s\n", heading, "slider -> ...", "p50 ms", "p95 ms", "max ms");
        for (const char *name : {"batchSlider", "seqLenSlider"}) {
            auto *slider = window.findChild<QSlider *>(QLatin1String(name));
            sweep(slider, std::min(50, updatedSteps), [] {}); // warm up
            const Percentiles updated = percentiles(sweep(slider, updatedSteps, [] {}));
            const Percentiles painted =
                percentiles(sweep(slider, std::max(1, updatedSteps * 3 / 10), repaintCharts));
            std::printf("%-34s %8.3f %8.3f %8.3f\n",
                        qPrintable(QStringLiteral("%1: series updated").arg(QLatin1String(name))),
                        updated.p50, updated.p95, updated.max);
            std::printf("%-34s %8.3f %8.3f %8.3f\n",
                        qPrintable(QStringLiteral("%1: charts repainted").arg(QLatin1String(name))),
                        painted.p50, painted.p95, painted.max);
        }
    };
    measure("The window as it opens");

    // Each view added in turn, so the table says what each costs a slider step.
    const auto open = [&window](const char *view) {
        window.showView(QLatin1String(view));
        QElapsedTimer settle; // let the view's first run finish before the sweep
        settle.start();
        while (settle.elapsed() < 3000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        window.showView(QStringLiteral("explorer"));
        QApplication::processEvents();
    };
    explorer->setFormulaPanelShown(true);
    QApplication::processEvents();
    measure("+ the formula panel shown");
    open("compare");
    measure("+ Compare opened once (it follows the explorer from then on)");
    open("quantization");
    open("fit");
    measure("+ Quantization opened once and What do I need? open: every view open");
    return 0;
}
