// SPDX-License-Identifier: MIT
// The Compare view's table, offscreen, for docs/benchmarks.md: the seed
// question's four columns (Llama-3.1-8B on one H100, with accuracy) from the
// click to the table on screen, cold (every format simulated) and warm (a
// batch change: plans only, accuracy from the view's cache); the UI thread's
// time to fill the table and charts; and the longest the event loop waited
// while a cold comparison ran on its worker thread (the view stays responsive).
// Run: QT_QPA_PLATFORM=offscreen build/tests/benchmarks/bench_compareview
#include "tests/benchmarks/percentiles.h"
#include "ui/compare/compareview.h"
#include "ui/compare/comparisonrunner.h"
#include "ui/state/appsettings.h"
#include "ui/state/scenariocontroller.h"
#include "ui/window/mainwindow.h"

#include <algorithm>
#include <cstdio>

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

namespace {

using kvscope::bench::Percentiles;
using kvscope::bench::percentiles;

void print(const char *what, const Percentiles &p)
{
    std::printf("%-44s %9.1f %9.1f %9.1f\n", what, p.p50, p.p95, p.max);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("kvscope-bench"));
    kvscope::appsettings::reset();

    QList<double> cold, gaps, warm, fill;
    for (int run = 0; run < 5; ++run) {
        kvscope::MainWindow window; // a new window: a new accuracy cache
        window.resize(1280, 720);
        window.show();
        window.showView(QStringLiteral("compare"));
        QApplication::processEvents();
        kvscope::CompareView *view = window.compare();

        // The event loop's longest wait while the cold comparison runs: a 1 ms timer's lateness.
        QElapsedTimer tick;
        double longest = 0;
        QTimer probe;
        probe.setInterval(1);
        QObject::connect(&probe, &QTimer::timeout, [&] {
            longest = std::max(longest, double(tick.nsecsElapsed()) / 1e6);
            tick.start();
        });
        QElapsedTimer timer;
        timer.start();
        tick.start();
        probe.start();
        view->seedQuestion();
        if (!QTest::qWaitFor([view] { return view->currentComparison().has_value(); }, 120'000))
            qFatal("no comparison");
        cold << double(timer.nsecsElapsed()) / 1e6;
        probe.stop();
        gaps << longest;

        // Warm: the batch changes, the formats stay; click-to-table and the UI thread's share of it.
        QElapsedTimer uiThread;
        double filling = 0;
        // The runner says it stopped running just before it hands the comparison to the view.
        QObject::connect(view->runner(), &kvscope::ComparisonRunner::runningChanged, view, [&](bool running) {
            if (!running)
                uiThread.start();
        });
        QObject::connect(view, &kvscope::CompareView::comparisonShown, view,
                         [&] { filling = double(uiThread.nsecsElapsed()) / 1e6; });
        for (int step = 0; step < 20; ++step) {
            timer.start();
            window.controller()->setBatchSize(step % 2 ? 16 : 32);
            if (!QTest::qWaitFor([view] { return view->currentComparison().has_value(); }, 60'000))
                qFatal("no comparison");
            warm << double(timer.nsecsElapsed()) / 1e6;
            fill << filling;
        }
    }
    std::printf("%-44s %9s %9s %9s\n", "Compare view, seed question (4 columns)", "p50 ms", "p95 ms",
                "max ms");
    print("cold: click to table (accuracy simulated)", percentiles(cold));
    print("longest event-loop wait during a cold run", percentiles(gaps));
    print("warm: batch change to table", percentiles(warm));
    print("UI thread: fill table and charts", percentiles(fill));
    return 0;
}
