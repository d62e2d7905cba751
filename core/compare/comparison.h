// SPDX-License-Identifier: MIT
// Precisions side by side: 2 to 4 scenarios (columns) compared on memory,
// capacity, speed and accuracy, each figure with its difference to the first
// column and the best column per row. `kvscope compare` prints it; the
// Compare view shows it.
//
// For the views: compare() plans every column (microseconds) and estimates
// each column's accuracy (the heavy part: tens to hundreds of milliseconds the
// first time, a lookup with a warm AccuracyCache). Run it on a worker thread
// (QtConcurrent::run) with a RunControl whose cancel flag the view sets when
// the columns change, and keep one AccuracyCache for the view's lifetime.
// Every type is a plain value; every figure on screen is a field of these.
#pragma once

#include "core/compare/accuracy.h"
#include "core/compare/publishedresults.h"
#include "core/plan/memoryplan.h"
#include "core/quantization/parallel.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"

#include <optional>

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

/// One column to compare: a label and the scenario it plans. The first is the baseline.
struct ComparisonColumn
{
    QString label; ///< "BF16 weights · FP8 KV"
    Scenario scenario;
};

/// The seed question's one-click preset, on the model, GPU and workload of `base`:
/// - a 16- or 32-bit checkpoint: BF16 weights + BF16 KV · BF16 + FP8 KV · AWQ INT4 +
///   16-bit KV · AWQ INT4 + FP8 KV (weights in the checkpoint's 16-bit dtype; vLLM
///   runs AWQ in float16, so "auto" KV is FP16 there, the same bytes as BF16);
/// - a checkpoint already quantized (AWQ, FP8...): its weights with 16-bit KV and with
///   FP8 KV (vLLM cannot serve it unquantized);
/// - a GGUF file: its weights with F16, Q8_0 and Q4_0 KV (llama.cpp's cache types).
/// Labels name the resolved precisions.
QList<ComparisonColumn> seedQuestionColumns(const Scenario &base);
/// The scenarios of seedQuestionColumns() without their labels, which plan each one (the
/// Compare view seeds its columns from them on every step of the explorer's sliders).
QList<Scenario> seedQuestionScenarios(const Scenario &base);

/// The serving features' one-click preset, on the model, GPU, precisions and workload of
/// `base`: the bare deployment (no drafter, no LoRA, no shared prefix), then each feature
/// alone — the model's first drafter (speculativeChoices(): its EAGLE draft, its MTP layers,
/// else n-gram) with ServingFeatureDrafts drafts a step, ServingFeatureLoraSlots LoRA slots of
/// rank ServingFeatureLoraRank, and a system prompt of half the sequence shared by every
/// request. A feature the engine or the model does not take (LoRA and n-gram under SGLang,
/// a shared prefix on a model whose layers keep different tokens) is left out.
QList<ComparisonColumn> servingFeatureColumns(const Scenario &base);
inline constexpr std::int64_t ServingFeatureDrafts = 3;
inline constexpr std::int64_t ServingFeatureLoraSlots = 4;
inline constexpr std::int64_t ServingFeatureLoraRank = 64;

/// A column label from the precisions a scenario resolves to: "AWQ INT4 · FP8 KV".
QString precisionLabel(const Scenario &scenario);

/// Columns for scenarios, labelled by precisionLabel(); when two share their
/// precisions, a label adds the options in which it differs from the first.
QList<ComparisonColumn> labelledColumns(const QList<Scenario> &scenarios);

/// The columns of `variants` (each a set of options applied on top of `base` with
/// applyValues()), labelled as labelledColumns(). Throws kvscope::Error naming the
/// variant (1-based) and the option.
QList<ComparisonColumn> variantColumns(const Scenario &base, const QList<ScenarioValues> &variants);

/// Whether a difference to the first column reads as a percentage: not from a
/// negative first figure (a headroom of −83 GiB growing is no "+19 %"), nor in
/// decibels (a ratio already: their difference is the comparison). Elsewhere, when
/// the first figure is not 0.
bool percentDifferenceMeans(const QString &unit, double first);

/// Which way a row is better.
enum class Better
{
    Less, ///< memory, time
    More, ///< capacity, tokens, SQNR, headroom
    None  ///< a category (bound)
};

/// One figure of one column and its difference to the first column.
struct CompareCell
{
    std::optional<double> value; ///< nullopt: not available (no speed figures) or lossless
    bool lossless = false;       ///< SQNR rows: no error at all (better than any finite SQNR)
    QString text;                ///< category rows ("memory", "compute"; "fits", "does not start")
    /// Why there is no figure or what qualifies it: the engine's refusal to start for a
    /// column that cannot, the sequences held for a batch that does not fit.
    QString reason;
    std::optional<double> delta;        ///< value - first column's value (0 within a billionth)
    std::optional<double> deltaPercent; ///< delta / |first| x 100; nullopt when the first is 0
};

/// The figures a comparison holds, a row each, in their order.
enum class CompareRowId
{
    Runs, ///< "fits", "batch does not fit" (the engine starts, queues the rest) or "does not start"
    WeightsBytes,
    KvBytesPerToken,
    KvCacheBytes,
    HeadroomBytes,
    KvCapacityTokens,
    MaxConcurrency,
    LargestBatchThatFits,
    DecodeTokensPerSecond,
    PrefillSeconds,
    DecodeBound,
    WeightSqnrDb,
    /// The weights' error where it matters: the layer output on Compare's activations.
    LayerOutputSqnrDb,
    KvSqnrDb,
    /// The KV cache's error where it matters: the attention output (diffuse queries, 4,096 tokens).
    AttentionOutputSqnrDb,
};

/// The row's key in JSON and CSV: "weights_bytes", "kv_sqnr_db".
QString compareRowKey(CompareRowId id);
/// The row's label in English, as `kvscope compare` prints it: "weights per GPU"
/// (CompareText::rowLabel() gives it in the window's language).
QString compareRowLabel(CompareRowId id);

/// One row: a figure across the columns.
struct CompareRow
{
    CompareRowId id = CompareRowId::WeightsBytes;
    QString unit; ///< "bytes", "tokens", "tokens/s", "seconds", "dB", "x", ""
    Better better = Better::None;
    bool integral = false; ///< exact integers (bytes, tokens); the doubles hold them exactly (< 2^53)
    QList<CompareCell> cells;
    /// Columns with the best value (ties all count; figures within a billionth of each
    /// other tie); empty when the row has no direction, fewer than two columns have a
    /// value, or every column ties.
    QList<int> best;
};

/// One compared column: its plan (with speed), accuracy and the published results for its formats.
struct ComparedColumn
{
    QString label;
    Scenario scenario;
    MemoryPlan plan;
    Accuracy accuracy;
    QList<PublishedResult> published;
    QStringList
        unpublishedFormats; ///< its formats no published result measured (formatsWithoutPublishedResults)
    QStringList notes;      ///< what the figures assume ("vLLM loads AWQ weights only from ...")
};

struct Comparison
{
    QList<ComparedColumn> columns;
    /// runs?, weights per GPU, KV bytes per token, KV cache for the batch, headroom, KV capacity
    /// (tokens), maximum concurrency, largest batch that fits, decode tokens/s, time to
    /// first token, decode bound, weight SQNR, KV SQNR.
    QList<CompareRow> rows;
    /// What the columns say taken together (comparisonNotes()): why the same KV format reads
    /// differently in two columns.
    QStringList notes;
};

/// Plans and compares 2 to 4 columns; accuracy runs share `cache` (a format simulated
/// for one column is not simulated again for another). Throws kvscope::Error for a
/// bad column count or a scenario planMemory() refuses (naming the column),
/// quant::Cancelled when the control's flag is set.
Comparison compare(const QList<ComparisonColumn> &columns, AccuracyCache &cache,
                   const quant::RunControl &control = {});

/// The rows of already planned columns (plans and accuracy filled in): the part of
/// compare() that is pure arithmetic.
QList<CompareRow> comparisonRows(const QList<ComparedColumn> &columns);

/// {"variants": [ per column: "label", planToJson()'s keys (speed included),
/// "weight_sqnr_db", "kv_sqnr_db" (null where lossless or not modelled), "accuracy"
/// (accuracyToJson), "published_results", "options" (the values that differ from
/// the first column) ], "rows": [ {"key", "label", "unit", "better", "values",
/// "deltas", "delta_percents", "best"} ], "notes": [ Comparison::notes ]}.
QJsonObject comparisonToJson(const Comparison &comparison);

} // namespace kvscope
