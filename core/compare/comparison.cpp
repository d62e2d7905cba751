// SPDX-License-Identifier: MIT
#include "core/compare/comparison.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/compare/comparisonnotes.h"
#include "core/output/planjson.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speed.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>

namespace kvscope {

namespace {

QString weightLabel(const MemoryPlan &plan)
{
    if (plan.modelFormat == ModelFormat::Gguf)
        return plan.modelFileType.isEmpty() ? QStringLiteral("GGUF") : plan.modelFileType;
    if (plan.quantization.method != QuantMethod::None)
        return shortName(plan.quantization);
    return plan.dtype == WeightDtype::Float16   ? QStringLiteral("FP16")
           : plan.dtype == WeightDtype::Float32 ? QStringLiteral("FP32")
                                                : QStringLiteral("BF16");
}

QString kvLabel(KvCacheDtype dtype)
{
    return QStringLiteral("%1 KV").arg(kvPrecisionName(dtype));
}

ComparisonColumn column(const Scenario &scenario)
{
    return {precisionLabel(scenario), scenario};
}

/// Labels that tell the columns apart: the precisions, and the other options that differ from the first
/// column (a chart's legend on a slide is all that names a column) — every one when two columns share their
/// precisions, else those the precisions do not name.
void distinguishLabels(QList<ComparisonColumn> &columns)
{
    for (qsizetype i = 1; i < columns.size(); ++i) {
        bool shared = false;
        for (qsizetype j = 0; j < columns.size(); ++j)
            shared = shared || (j != i && columns.at(j).label == columns.at(i).label);
        QStringList words;
        ScenarioValues values = differingValues(columns.first().scenario, columns.at(i).scenario);
        if (!shared)
            for (const ScenarioField precision : {ScenarioField::Dtype, ScenarioField::Quantization,
                                                  ScenarioField::GroupSize, ScenarioField::KvCacheDtype})
                values.remove(fileKey(precision));
        const SpeculativeConfig &drafter = columns.at(i).scenario.speculative;
        // In kvscope calc's order (--max-loras before its --max-lora-rank), as a launch line reads.
        QSet<QString> said; // an option spelled for two engines is listed twice
        const Engine engine = columns.at(i).scenario.engine;
        for (const ScenarioOption &option : scenarioOptions()) {
            const QString key = option.name();
            if (!values.contains(key) || said.contains(key))
                continue;
            said.insert(key);
            // In the column's engine's spelling (SGLang's --dp-size), as its launch line reads.
            const std::optional<ScenarioField> field = fieldForKey(key);
            const QString flag = field ? optionFlag(*field, engine) : flagForKey(key);
            if (option.kind == OptionKind::Switch) { // a flag without a value, or its absence
                const bool on = values.value(key).compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
                words << (on ? flag : QStringLiteral("no %1").arg(flag));
                continue;
            }
            // A drafter's JSON would take lines of its own: its method and drafts say which it is.
            words << (key == fileKey(ScenarioField::SpeculativeConfig) && drafter.enabled()
                          ? QStringLiteral("%1 k=%2")
                                .arg(speculativeMethodName(drafter.method))
                                .arg(drafter.numSpeculativeTokens)
                          : QStringLiteral("%1 %2").arg(flag, values.value(key)));
        }
        if (!words.isEmpty())
            columns[i].label += QStringLiteral(" (%1)").arg(words.join(QLatin1Char(' ')));
    }
}

/// One row's figure of one column. The label is translated in CompareText's
/// context, where the window reads it.
struct RowSpec
{
    CompareRowId id;
    const char *key;
    const char *label;
    const char *unit;
    Better better;
    bool integral;
    CompareCell (*cell)(const ComparedColumn &c);
};

CompareCell number(double value)
{
    CompareCell cell;
    cell.value = value;
    return cell;
}

/// No figure, for why: a column whose engine does not start has no capacity, headroom or speed.
CompareCell notRunning(const ComparedColumn &c)
{
    CompareCell cell;
    cell.reason = c.plan.startFailure;
    return cell;
}

/// A figure of a running server: none when the engine does not start.
CompareCell runningNumber(const ComparedColumn &c, double value)
{
    return c.plan.engineStarts ? number(value) : notRunning(c);
}

CompareCell speedNumber(const ComparedColumn &c, double value)
{
    if (!c.plan.engineStarts)
        return notRunning(c);
    return c.plan.speed.available ? number(value) : CompareCell{};
}

/// vLLM's logged capacity; for a hybrid model, with what its attention layers really hold.
CompareCell loggedCapacity(const ComparedColumn &c)
{
    CompareCell cell = runningNumber(c, double(c.plan.kv.capacityTokens));
    if (c.plan.engineStarts && c.plan.kv.numGroups > 1)
        cell.reason = QCoreApplication::translate("kvscope::CompareText",
                                                  "the pool holds %1 attention tokens at this length (%2 "
                                                  "sequences × %3)")
                          .arg(formatCount(c.plan.kv.attentionTokensHeld),
                               formatCount(c.plan.largestBatchThatFits), formatCount(c.plan.seqLen));
    return cell;
}

/// Whether the column's engine starts and holds its batch, and why not.
CompareCell runs(const ComparedColumn &c)
{
    CompareCell cell;
    const MemoryPlan &p = c.plan;
    if (!p.engineStarts) {
        cell.text = QStringLiteral("does not start");
        cell.reason = p.startFailure;
    } else if (!p.fits) {
        cell.text = QStringLiteral("batch does not fit");
        cell.reason = QCoreApplication::translate("kvscope::CompareText",
                                                  "the KV cache holds %1 of the %2 sequences at once; the "
                                                  "speed is for those %1")
                          .arg(formatCount(p.speed.batchSize), formatCount(p.batchSize));
    } else {
        cell.text = QStringLiteral("fits");
    }
    return cell;
}

CompareCell sqnr(const std::optional<double> &value, bool lossless)
{
    CompareCell cell;
    cell.value = value;
    cell.lossless = lossless;
    return cell;
}

const RowSpec rowSpecs[] = {
    {CompareRowId::Runs, "runs", QT_TRANSLATE_NOOP("kvscope::CompareText", "runs?"), "", Better::None, false,
     runs},
    {CompareRowId::WeightsBytes, "weights_bytes",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "weights per GPU"), "bytes", Better::Less, true,
     [](const ComparedColumn &c) { return number(double(c.plan.weights.bytesPerGpu)); }},
    {CompareRowId::KvBytesPerToken, "kv_bytes_per_token",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "KV bytes per token"), "bytes", Better::Less, true,
     [](const ComparedColumn &c) { return number(double(c.plan.kv.bytesPerToken)); }},
    {CompareRowId::KvCacheBytes, "kv_cache_bytes",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "KV cache for the batch"), "bytes", Better::Less, true,
     [](const ComparedColumn &c) { return number(double(c.plan.kv.cacheBytes)); }},
    {CompareRowId::HeadroomBytes, "headroom_bytes", QT_TRANSLATE_NOOP("kvscope::CompareText", "headroom"),
     "bytes", Better::More, true,
     [](const ComparedColumn &c) { return runningNumber(c, double(c.plan.headroomBytes)); }},
    {CompareRowId::KvCapacityTokens, "kv_capacity_tokens",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "KV capacity as the engine logs it"), "tokens", Better::More,
     true, loggedCapacity},
    {CompareRowId::MaxConcurrency, "max_concurrency",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "maximum concurrency"), "x", Better::More, false,
     [](const ComparedColumn &c) { return runningNumber(c, c.plan.kv.maxConcurrency); }},
    {CompareRowId::LargestBatchThatFits, "largest_batch_that_fits",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "largest batch that fits"), "sequences", Better::More, true,
     [](const ComparedColumn &c) { return runningNumber(c, double(c.plan.largestBatchThatFits)); }},
    {CompareRowId::DecodeTokensPerSecond, "decode_tokens_per_second",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "decode tokens/s"), "tokens/s", Better::More, false,
     [](const ComparedColumn &c) {
         // With a drafter, the tokens a second it really emits.
         const SpeedPlan &s = c.plan.speed;
         if (!s.speculative)
             return speedNumber(c, s.decodeTokensPerSecond);
         CompareCell cell = speedNumber(c, emittedTokensPerSecond(s));
         if (cell.value)
             cell.reason = QCoreApplication::translate("kvscope::CompareText",
                                                       "with the %1 drafter: %2 tokens a step, %3x decoding "
                                                       "without it (%4 tokens/s)")
                               .arg(speculativeMethodName(c.plan.speculativeMethod))
                               .arg(s.speculative->tokensPerStep, 0, 'f', 2)
                               .arg(s.speculative->speedup, 0, 'f', 2)
                               .arg(formatRate(s.decodeTokensPerSecond, QLocale(QLocale::English)));
         return cell;
     }},
    {CompareRowId::PrefillSeconds, "prefill_seconds",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "time to first token"), "seconds", Better::Less, false,
     [](const ComparedColumn &c) { return speedNumber(c, c.plan.speed.prefill.seconds); }},
    {CompareRowId::DecodeBound, "decode_bound", QT_TRANSLATE_NOOP("kvscope::CompareText", "decode bound"), "",
     Better::None, false,
     [](const ComparedColumn &c) {
         if (!c.plan.engineStarts)
             return notRunning(c);
         CompareCell cell;
         if (c.plan.speed.available)
             cell.text = c.plan.speed.decode.bound == SpeedBound::Memory ? QStringLiteral("memory")
                                                                         : QStringLiteral("compute");
         return cell;
     }},
    {CompareRowId::WeightSqnrDb, "weight_sqnr_db", QT_TRANSLATE_NOOP("kvscope::CompareText", "weight SQNR"),
     "dB", Better::More, false,
     [](const ComparedColumn &c) {
         const WeightAccuracy &w = c.accuracy.weights;
         return sqnr(w.error ? std::optional(w.error->sqnrDb) : std::nullopt, w.lossless);
     }},
    {CompareRowId::LayerOutputSqnrDb, "layer_output_sqnr_db",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "layer output SQNR"), "dB", Better::More, false,
     [](const ComparedColumn &c) {
         const WeightAccuracy &w = c.accuracy.weights;
         return sqnr(w.error ? w.error->outputSqnrDb : std::nullopt, w.lossless);
     }},
    {CompareRowId::KvSqnrDb, "kv_sqnr_db", QT_TRANSLATE_NOOP("kvscope::CompareText", "KV SQNR"), "dB",
     Better::More, false,
     [](const ComparedColumn &c) { return sqnr(c.accuracy.kv.combinedSqnrDb, c.accuracy.kv.lossless); }},
    {CompareRowId::AttentionOutputSqnrDb, "attention_output_sqnr_db",
     QT_TRANSLATE_NOOP("kvscope::CompareText", "attention output SQNR"), "dB", Better::More, false,
     [](const ComparedColumn &c) {
         return sqnr(attentionOutputSqnrDb(c.accuracy.kv, quant::QueryModel::Diffuse),
                     c.accuracy.kv.lossless);
     }},
};

const RowSpec &rowSpec(CompareRowId id)
{
    for (const RowSpec &spec : rowSpecs)
        if (spec.id == id)
            return spec;
    Q_UNREACHABLE(); // the table holds every row
}

/// Two figures equal up to rounding (the same FLOPs summed in another order):
/// a difference below a billionth of either is none.
bool sameFigure(double a, double b)
{
    if (a == b)
        return true;
    return std::isfinite(a) && std::isfinite(b) &&
           std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

/// A cell's value for ranking: a lossless SQNR beats every finite one.
std::optional<double> rank(const CompareCell &cell)
{
    if (cell.lossless)
        return std::numeric_limits<double>::infinity();
    return cell.value;
}

QList<int> bestColumns(const CompareRow &row)
{
    if (row.better == Better::None)
        return {};
    std::optional<double> best;
    int ranked = 0;
    for (const CompareCell &cell : row.cells) {
        const std::optional<double> value = rank(cell);
        if (!value)
            continue;
        ++ranked;
        if (!best || (row.better == Better::More ? *value > *best : *value < *best))
            best = value;
    }
    QList<int> columns;
    if (ranked < 2)
        return columns;
    for (qsizetype i = 0; i < row.cells.size(); ++i)
        if (const std::optional<double> value = rank(row.cells.at(i)); value && sameFigure(*value, *best))
            columns << int(i);
    // Every column the same: none stands out.
    if (columns.size() == ranked)
        columns.clear();
    return columns;
}

QJsonValue optionalJson(const std::optional<double> &value, bool integral)
{
    if (!value)
        return QJsonValue::Null;
    return integral ? QJsonValue(qint64(*value)) : QJsonValue(*value);
}

const EnumSpelling<Better> betterNames[] = {
    {Better::Less, "less"},
    {Better::More, "more"},
    {Better::None, "none"},
};

QString betterName(Better better)
{
    return enumName(betterNames, better);
}

} // namespace

bool percentDifferenceMeans(const QString &unit, double first)
{
    return first > 0 && unit != QLatin1String("dB");
}

QString compareRowKey(CompareRowId id)
{
    return QLatin1String(rowSpec(id).key);
}

QString compareRowLabel(CompareRowId id)
{
    return QLatin1String(rowSpec(id).label);
}

QString precisionLabel(const Scenario &scenario)
{
    try {
        const MemoryPlan plan = planMemory(scenario);
        return QStringLiteral("%1 + %2").arg(weightLabel(plan), kvLabel(plan.kvCacheDtype));
    } catch (const Error &) {
        return QStringLiteral("%1 + %2 KV")
            .arg(quantizationChoiceName(scenario.quantization), dtypeName(scenario.kvCacheDtype));
    }
}

QList<Scenario> seedQuestionScenarios(const Scenario &base)
{
    QList<Scenario> scenarios;
    Scenario s = base;
    if (base.model.format == ModelFormat::Gguf) {
        s.quantization.reset();
        for (const KvCacheDtype kv : {KvCacheDtype::Float16, KvCacheDtype::Q8_0, KvCacheDtype::Q4_0}) {
            s.kvCacheDtype = kv;
            scenarios << s;
        }
        return scenarios;
    }
    if (base.model.checkpointQuantization.method != QuantMethod::None) {
        s.quantization.reset();
        s.kvCacheDtype = KvCacheDtype::Auto;
        scenarios << s;
        s.kvCacheDtype = KvCacheDtype::Fp8;
        scenarios << s;
        return scenarios;
    }
    for (const QuantMethod method : {QuantMethod::None, QuantMethod::Awq}) {
        s.quantization = defaultSpecFor(method);
        for (const KvCacheDtype kv : {KvCacheDtype::Auto, KvCacheDtype::Fp8}) {
            s.kvCacheDtype = kv;
            scenarios << s;
        }
    }
    return scenarios;
}

QList<ComparisonColumn> seedQuestionColumns(const Scenario &base)
{
    QList<ComparisonColumn> columns;
    for (const Scenario &s : seedQuestionScenarios(base))
        columns << column(s);
    return columns;
}

QList<ComparisonColumn> servingFeatureColumns(const Scenario &base)
{
    Scenario bare = base;
    bare.speculative = {};
    bare.maxLoras = 0;
    bare.sharedPrefixLen = 0;
    QList<Scenario> scenarios{bare};
    // A feature joins where the core plans it on this deployment.
    const auto addIfPlanned = [&](const Scenario &s) {
        try {
            planMemory(s);
            scenarios << s;
        } catch (const Error &) {
        }
    };
    // Both engines draft (speculativeChoices keeps what each plans) and hold LoRA slots where planned.
    const QList<SpeculativeConfig> drafters = speculativeChoices(bare, ServingFeatureDrafts);
    if (!drafters.isEmpty()) {
        Scenario drafted = bare;
        drafted.speculative = drafters.first();
        addIfPlanned(drafted);
    }
    Scenario adapted = bare;
    adapted.maxLoras = ServingFeatureLoraSlots;
    adapted.maxLoraRank = ServingFeatureLoraRank;
    addIfPlanned(adapted);
    Scenario shared = bare;
    shared.sharedPrefixLen = bare.seqLen / 2;
    if (shared.sharedPrefixLen > 0)
        addIfPlanned(shared);
    return labelledColumns(scenarios);
}

QList<ComparisonColumn> labelledColumns(const QList<Scenario> &scenarios)
{
    QList<ComparisonColumn> columns;
    for (const Scenario &s : scenarios)
        columns << column(s);
    distinguishLabels(columns);
    return columns;
}

QList<ComparisonColumn> variantColumns(const Scenario &base, const QList<ScenarioValues> &variants)
{
    QList<Scenario> scenarios;
    for (qsizetype i = 0; i < variants.size(); ++i) {
        try {
            scenarios << applyValues(base, variants.at(i));
        } catch (const Error &error) {
            throw Error(QStringLiteral("variant %1: %2").arg(i + 1).arg(error.message()));
        }
    }
    return labelledColumns(scenarios);
}

QList<CompareRow> comparisonRows(const QList<ComparedColumn> &columns)
{
    QList<CompareRow> rows;
    for (const RowSpec &spec : rowSpecs) {
        CompareRow row;
        row.id = spec.id;
        row.unit = QLatin1String(spec.unit);
        row.better = spec.better;
        row.integral = spec.integral;
        for (const ComparedColumn &c : columns)
            row.cells << spec.cell(c);
        // The first column's figure, as a plain double (GCC 12 misreads an optional here).
        const bool hasFirst = !row.cells.isEmpty() && row.cells.first().value.has_value();
        const double first = hasFirst ? *row.cells.first().value : 0.0;
        for (CompareCell &cell : row.cells) {
            if (!hasFirst || !cell.value)
                continue;
            const double delta = sameFigure(*cell.value, first) ? 0.0 : *cell.value - first;
            cell.delta = delta;
            if (percentDifferenceMeans(row.unit, first))
                cell.deltaPercent = delta / std::fabs(first) * 100.0;
        }
        row.best = bestColumns(row);
        rows << row;
    }
    return rows;
}

Comparison compare(const QList<ComparisonColumn> &columns, AccuracyCache &cache,
                   const quant::RunControl &control)
{
    if (columns.size() < 2 || columns.size() > MaxComparisonColumns)
        throw Error(QStringLiteral("comparison: needs 2 to %1 columns, got %2")
                        .arg(MaxComparisonColumns)
                        .arg(columns.size()));
    Comparison comparison;
    const double share = 1.0 / double(columns.size());
    for (qsizetype i = 0; i < columns.size(); ++i) {
        // Between columns too: a column whose accuracy is all cached runs no simulation to notice.
        if (control.cancelled())
            throw quant::Cancelled();
        ComparedColumn c;
        c.label = columns.at(i).label;
        c.scenario = columns.at(i).scenario;
        try {
            c.plan = planMemory(c.scenario);
        } catch (const Error &error) {
            throw Error(QStringLiteral("column %1 (%2): %3").arg(i + 1).arg(c.label, error.message()));
        }
        c.accuracy = estimateAccuracy(c.scenario, c.plan, cache,
                                      control.slice(share * double(i), share * double(i + 1)));
        c.published = publishedResultsFor(c.scenario, c.plan);
        c.unpublishedFormats = formatsWithoutPublishedResults(c.scenario, c.plan);
        // As proposeFixes() says of them: the engine quantizes to fp8 or bitsandbytes while
        // loading, but AWQ and GPTQ weights must come calibrated in the checkpoint.
        if (c.plan.quantization.isAwqOrGptq() && !c.plan.quantizationFromCheckpoint &&
            c.scenario.model.checkpointQuantization.method != c.plan.quantization.method)
            c.notes << QCoreApplication::translate(
                           "kvscope::Comparison",
                           "%3 loads %1 weights only from a checkpoint stored that way (the same "
                           "model quantized with %2); it does not quantize a 16-bit checkpoint")
                           .arg(quantMethodName(c.plan.quantization.method).toUpper(),
                                c.plan.quantization.method == QuantMethod::Awq ? QStringLiteral("AutoAWQ")
                                                                               : QStringLiteral("GPTQ"),
                                engineDisplayName(c.plan.engine));
        comparison.columns << c;
    }
    comparison.rows = comparisonRows(comparison.columns);
    comparison.notes = comparisonNotes(comparison.columns);
    control.report(1.0);
    return comparison;
}

QJsonObject comparisonToJson(const Comparison &comparison)
{
    QJsonArray variants;
    for (const ComparedColumn &c : comparison.columns) {
        QJsonObject o = planToJson(c.plan);
        o.insert(u"label", c.label);
        const WeightAccuracy &w = c.accuracy.weights;
        o.insert(u"weight_sqnr_db",
                 optionalJson(w.error ? std::optional(w.error->sqnrDb) : std::nullopt, false));
        o.insert(u"kv_sqnr_db", optionalJson(c.accuracy.kv.combinedSqnrDb, false));
        o.insert(u"accuracy", accuracyToJson(c.accuracy));
        QJsonArray published;
        for (const PublishedResult &r : c.published)
            published << publishedResultToJson(r);
        o.insert(u"published_results", published);
        o.insert(u"formats_without_published_results", QJsonArray::fromStringList(c.unpublishedFormats));
        o.insert(u"comparison_notes", QJsonArray::fromStringList(c.notes));
        QJsonObject options;
        const ScenarioValues differing = differingValues(comparison.columns.first().scenario, c.scenario);
        for (auto it = differing.cbegin(); it != differing.cend(); ++it)
            options.insert(it.key(), it.value());
        o.insert(u"options", options);
        variants << o;
    }
    QJsonArray rows;
    for (const CompareRow &row : comparison.rows) {
        QJsonArray values, deltas, percents, reasons, best;
        for (const CompareCell &cell : row.cells) {
            values << (!cell.text.isEmpty() ? QJsonValue(cell.text) : optionalJson(cell.value, row.integral));
            reasons << (cell.reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(cell.reason));
            deltas << optionalJson(cell.delta, row.integral);
            percents << optionalJson(cell.deltaPercent, false);
        }
        for (const int column : row.best)
            best << column;
        QJsonObject o;
        o.insert(u"key", compareRowKey(row.id));
        o.insert(u"label", compareRowLabel(row.id));
        o.insert(u"unit", row.unit);
        o.insert(u"better", betterName(row.better));
        o.insert(u"values", values);
        o.insert(u"deltas", deltas);
        o.insert(u"delta_percents", percents);
        o.insert(u"reasons", reasons);
        o.insert(u"best", best);
        rows << o;
    }
    QJsonObject o;
    o.insert(u"variants", variants);
    o.insert(u"rows", rows);
    o.insert(u"notes", QJsonArray::fromStringList(comparison.notes));
    return o;
}

} // namespace kvscope
