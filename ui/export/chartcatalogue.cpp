// SPDX-License-Identifier: MIT
#include "ui/export/chartcatalogue.h"

#include "core/common/error.h"
#include "core/compare/comparechart.h"
#include "core/output/breakdown.h"
#include "core/output/calcjson.h"
#include "core/output/chartcsv.h"
#include "core/output/planjson.h"
#include "core/output/stepbreakdown.h"
#include "core/quantization/grid.h"
#include "core/quantization/report.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/comparebarschart.h"
#include "ui/charts/comparememorychart.h"
#include "ui/charts/growthchart.h"
#include "ui/charts/memorychart.h"
#include "ui/charts/speedchart.h"
#include "ui/charts/stepbreakdownchart.h"
#include "ui/quantization/attentioncharts.h"
#include "ui/quantization/errorhistogramchart.h"
#include "ui/quantization/sqnrchart.h"
#include "ui/quantization/valueschart.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace kvscope {

namespace {

const quant::QuantOutcome &outcome(const ChartSource &source)
{
    if (!source.quant)
        throw Error(QStringLiteral("the quantization simulator has no results to draw yet"));
    return *source.quant;
}

const AttentionPicture &attention(const ChartSource &source)
{
    if (!source.attention)
        throw Error(QStringLiteral("the attention tab has no picture to draw yet"));
    return *source.attention;
}

template <class Chart> ChartView *attentionChart(const ChartSource &source)
{
    auto *chart = new Chart;
    chart->setPicture(attention(source));
    return chart;
}

const quant::Histogram &valueHistogram(const ChartSource &source)
{
    const quant::QuantOutcome &o = outcome(source);
    if (!o.values)
        throw Error(QStringLiteral("the quantization simulator binned no values to draw"));
    return *o.values;
}

quant::QuantizationGrid valuesGrid(const ChartSource &source)
{
    const quant::QuantOutcome &o = outcome(source);
    return quant::quantizationGrid(o.tensor.data, o.tensor.stats, source.gridScheme, source.gridRow,
                                   source.gridColumn, valueHistogram(source).lo, valueHistogram(source).hi);
}

ChartView *memoryChart(const ChartSource &source)
{
    return makeMemoryChart(source.plan);
}

/// The memory bar's data, or each pipeline stage's bar as the stage chart draws them.
QByteArray memoryCsv(const ChartSource &source)
{
    return source.plan.pipelineStages.isEmpty() ? breakdownCsv(memoryBreakdown(source.plan))
                                                : compareMemoryCsv(stageMemoryChartData(source.plan));
}

ChartView *growthChart(const ChartSource &source)
{
    const GrowthChartData data = growthChartData(source.scenario, source.plan, source.growthAxis, 96,
                                                 source.growthScale, source.counterfactuals);
    auto *chart = new GrowthChartView;
    chart->showGrowth(data);
    return chart;
}

ChartView *speedChart(const ChartSource &source)
{
    auto *chart = new SpeedChartView;
    chart->showSpeed(speedChartData(source.scenario, source.plan));
    return chart;
}

ChartView *stepBreakdownChart(const ChartSource &source)
{
    auto *chart = new StepBreakdownChartView;
    chart->showBreakdown(stepBreakdownChartData(source.plan.speed));
    return chart;
}

const Comparison &comparison(const ChartSource &source)
{
    if (!source.comparison)
        throw Error(QStringLiteral("there is no comparison to draw: give the Compare view 2 to 4 columns"));
    return *source.comparison;
}

ChartView *compareMemoryChart(const ChartSource &source)
{
    auto *chart = new CompareMemoryChartView;
    chart->showComparison(compareMemoryChartData(comparison(source)));
    return chart;
}

ChartView *compareSpeedChart(const ChartSource &source)
{
    auto *chart = new CompareBarsChartView(CompareBars::CapacityAndSpeed);
    chart->showComparison(compareSpeedChartData(comparison(source)));
    return chart;
}

ChartView *compareAccuracyChart(const ChartSource &source)
{
    auto *chart = new CompareBarsChartView(CompareBars::Accuracy);
    chart->showComparison(compareAccuracyChartData(comparison(source)));
    return chart;
}

ChartView *errorHistogramChart(const ChartSource &source)
{
    const quant::QuantOutcome &o = outcome(source);
    auto *chart = new ErrorHistogramChart;
    chart->setResults(o.results,
                      source.quantChoices.relativeError ? ErrorHistogramChart::Kind::Relative
                                                        : ErrorHistogramChart::Kind::Absolute,
                      source.quantChoices.logCounts);
    return chart;
}

ChartView *valuesChart(const ChartSource &source)
{
    const quant::QuantizationGrid grid = valuesGrid(source);
    auto *chart = new ValuesChart;
    chart->setValues(valueHistogram(source), grid, source.gridName, source.quantChoices.logCounts);
    return chart;
}

ChartView *sqnrChart(const ChartSource &source)
{
    auto *chart = new SqnrChart;
    chart->setResults(outcome(source).results);
    return chart;
}

} // namespace

QString ChartEntry::translatedTitle() const
{
    return QCoreApplication::translate("kvscope::ChartCatalogue", title);
}

QByteArray planJsonBytes(const ChartSource &source)
{
    return QJsonDocument(calcJson(source.scenario, source.plan, source.fixes))
        .toJson(QJsonDocument::Indented);
}

QByteArray quantJsonBytes(const ChartSource &source)
{
    const quant::QuantOutcome &o = outcome(source);
    QJsonArray array;
    for (const quant::SchemeResult &r : o.results)
        array << quant::resultToJson(r, o.tensor.data);
    const QJsonDocument doc =
        array.size() == 1 ? QJsonDocument(array.first().toObject()) : QJsonDocument(array);
    return doc.toJson(QJsonDocument::Indented);
}

QByteArray comparisonJsonBytes(const ChartSource &source)
{
    return QJsonDocument(comparisonToJson(comparison(source))).toJson(QJsonDocument::Indented);
}

QByteArray attentionJsonBytes(const ChartSource &source)
{
    return QJsonDocument(attentionPictureToJson(attention(source))).toJson(QJsonDocument::Indented);
}

const QList<ChartEntry> &chartCatalogue()
{
    static const QList<ChartEntry> entries = {
        {"memory", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Memory per GPU (bar)"),
         ChartInputs::Scenario, memoryChart, memoryCsv, planJsonBytes},
        {"growth", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Memory growth"), ChartInputs::Scenario,
         growthChart,
         [](const ChartSource &s) {
             return growthCsv(
                 growthChartData(s.scenario, s.plan, s.growthAxis, 96, s.growthScale, s.counterfactuals));
         },
         planJsonBytes},
        {"speed", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Decode tokens/s vs batch size"),
         ChartInputs::Scenario, speedChart,
         [](const ChartSource &s) { return speedCsv(speedChartData(s.scenario, s.plan)); }, planJsonBytes},
        {"speed-breakdown", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Where the time of a step goes"),
         ChartInputs::Scenario, stepBreakdownChart,
         [](const ChartSource &s) { return stepBreakdownCsv(stepBreakdownChartData(s.plan.speed)); },
         planJsonBytes},
        {"compare-memory",
         QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Comparison: memory per GPU by column"),
         ChartInputs::Comparison, compareMemoryChart,
         [](const ChartSource &s) { return compareMemoryCsv(compareMemoryChartData(comparison(s))); },
         comparisonJsonBytes},
        {"compare-speed",
         QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Comparison: capacity and speed by column"),
         ChartInputs::Comparison, compareSpeedChart,
         [](const ChartSource &s) { return compareSpeedCsv(compareSpeedChartData(comparison(s))); },
         comparisonJsonBytes},
        {"compare-accuracy", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Comparison: accuracy by column"),
         ChartInputs::Comparison, compareAccuracyChart,
         [](const ChartSource &s) { return compareAccuracyCsv(compareAccuracyChartData(comparison(s))); },
         comparisonJsonBytes},
        {"error-histogram", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Quantization error histogram"),
         ChartInputs::Quantization, errorHistogramChart,
         [](const ChartSource &s) { return quant::histogramsCsv(outcome(s).results, nullptr); },
         quantJsonBytes},
        {"values", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Values and quantization grid"),
         ChartInputs::Quantization, valuesChart,
         [](const ChartSource &s) {
             return quant::valuesCsv(valueHistogram(s), valuesGrid(s), s.gridScheme.id());
         },
         quantJsonBytes},
        {"sqnr", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "SQNR by scheme"), ChartInputs::Quantization,
         sqnrChart, [](const ChartSource &s) { return quant::resultsCsv(outcome(s).results); },
         quantJsonBytes},
        {"attention",
         QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Attention of one query: 16-bit and FP8 KV cache"),
         ChartInputs::Attention, attentionChart<AttentionWeightsChart>,
         [](const ChartSource &s) { return attentionPictureCsv(attention(s)); }, attentionJsonBytes},
        {"attention-logits",
         QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Logit error of each key under an FP8 KV cache"),
         ChartInputs::Attention, attentionChart<LogitErrorChart>,
         [](const ChartSource &s) { return attentionPictureCsv(attention(s)); }, attentionJsonBytes},
        {"report", QT_TRANSLATE_NOOP("kvscope::ChartCatalogue", "Report: summary, figures and charts"),
         ChartInputs::Scenario, nullptr, [](const ChartSource &s) { return figuresCsv(s.plan); },
         planJsonBytes},
    };
    return entries;
}

const ChartEntry *findChart(const QString &name)
{
    for (const ChartEntry &entry : chartCatalogue())
        if (name == QLatin1String(entry.name))
            return &entry;
    return nullptr;
}

QStringList chartNames()
{
    QStringList names;
    for (const ChartEntry &entry : chartCatalogue())
        names << QLatin1String(entry.name);
    return names;
}

} // namespace kvscope
