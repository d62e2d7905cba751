// SPDX-License-Identifier: MIT
// The charts kvscope exports, each registered once: its name (`kvscope
// export --chart NAME`), its title, what it is drawn from, how a fresh one
// is built from a ChartSource (never shown, at any size: the same code for
// the window's Save image and for the command line), and its data as CSV
// and JSON.
//
// Adding a chart takes one entry in chartCatalogue() (chartcatalogue.cpp), as
// the speed chart's:
//
//     {"speed", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Speed"), ChartInputs::Scenario,
//      [](const ChartSource &s) {
//          auto *chart = new SpeedChartView;
//          chart->showSpeed(speedChartData(s.scenario, s.plan));
//          return chart;
//      },
//      [](const ChartSource &s) { return speedCsv(speedChartData(s.scenario, s.plan)); }, planJsonBytes},
//
// and one line in the view that shows it; the window then gives the chart its
// context menu and corner button (Save image…, Copy image, Copy data),
// drawn from the view's chartSource() (makeChartsExportable):
//
//     chart->setCatalogueName(QStringLiteral("speed"));
//
// `kvscope export --list-charts` then lists it, `--chart speed` draws it,
// and the export tests, which walk the catalogue, cover it.
#pragma once

#include "ui/state/chartsource.h"

#include <functional>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

class ChartView;

/// What a chart is drawn from: which options `kvscope export` takes for it
/// and what its caption says.
enum class ChartInputs
{
    Scenario,     ///< kvscope calc's options: the plan, the growth curves, the speed chart
    Quantization, ///< kvscope quant's options: the simulator's outcome
    Comparison,   ///< kvscope compare's options: the shared calc options and --variant
    Attention     ///< the model and --kv-cache-dtype of kvscope calc's options, and --attention-*
};

struct ChartEntry
{
    const char *name;  ///< "memory", "growth", ...
    const char *title; ///< QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", ...)
    ChartInputs inputs;
    /// A new chart showing the source; null for a page of its own (the report).
    /// Throws kvscope::Error when the source lacks what it draws.
    std::function<ChartView *(const ChartSource &)> build;
    std::function<QByteArray(const ChartSource &)> csv;
    std::function<QByteArray(const ChartSource &)> json;

    QString translatedTitle() const;
};

const QList<ChartEntry> &chartCatalogue();
/// The entry of that name, or null.
const ChartEntry *findChart(const QString &name);
QStringList chartNames();

/// `kvscope calc --json`'s bytes for the source's plan.
QByteArray planJsonBytes(const ChartSource &source);
/// `kvscope quant --json`'s bytes for the source's outcome.
QByteArray quantJsonBytes(const ChartSource &source);
/// The attention picture's JSON (attentionPictureToJson()).
QByteArray attentionJsonBytes(const ChartSource &source);
/// `kvscope compare --json`'s bytes for the source's comparison.
QByteArray comparisonJsonBytes(const ChartSource &source);

} // namespace kvscope
