// SPDX-License-Identifier: MIT
// What real evaluations found: published end-quality results (perplexity,
// benchmark accuracy) for the formats kvscope offers, each with its source,
// from resources/quality/published-results.json. The view shows the entries
// for a scenario's formats beside the simulated SQNR, which is only a proxy.
#pragma once

#include "core/model/modelarch.h"
#include "core/plan/memoryplan.h"

#include <optional>

#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope {

struct Scenario;

/// One published comparison: the same model and benchmark, baseline against quantized.
struct PublishedResult
{
    QString aspect; ///< "weights" or "kv_cache"
    /// The kvscope format it measures: a --quantization method ("awq"), a --dtype cast
    /// of a 16-bit checkpoint ("float16"), a GGUF file type ("gguf:q4_k_m") or a
    /// --kv-cache-dtype ("fp8_e4m3", "q8_0").
    QString format;
    QString model;
    QString engine;
    QString benchmark;
    bool higherIsBetter = true;
    QString baselineLabel;
    double baseline = 0;
    QString quantizedLabel;
    double quantized = 0;
    /// The standard errors the source prints beside the values, in their units; nullopt where it prints none.
    std::optional<double> baselineStderr;
    std::optional<double> quantizedStderr;
    QString note;
    QString source; ///< a public URL
    /// Set by publishedResultsFor(): the model measured is of the scenario's family
    /// (modelFamily() named in it), which the lists put first.
    bool sameFamily = false;
};

/// Every entry of the built-in file, in its order; loaded once. Throws
/// kvscope::Error for an entry without a source URL or values.
const QList<PublishedResult> &publishedResults();

/// Reads a results document {"results": [...]}; `origin` names it in errors.
QList<PublishedResult> publishedResultsFromJson(const QByteArray &json, const QString &origin);

/// The format keys of a planned scenario: its weights ("awq", "gguf:q4_k_m",
/// "float16" for a float16 run of a bfloat16 checkpoint; empty when the weights are
/// the checkpoint's own unquantized dtype) and its KV cache ("fp8_e4m3"; empty for a
/// 16-bit cache of 16-bit activations).
QString weightFormatKey(const Scenario &scenario, const MemoryPlan &plan);
QString kvFormatKey(const MemoryPlan &plan);

/// The family a model's published results name it by ("llama", "qwen", "deepseek", "gpt-oss"),
/// from its model_type; empty for a family the table does not know.
QString modelFamily(const ModelArch &model);

/// The entries that measured this scenario's weight format or KV cache dtype, those of its
/// model family first (each marked sameFamily), in the file's order within each.
QList<PublishedResult> publishedResultsFor(const Scenario &scenario, const MemoryPlan &plan);

/// The scenario's formats (weightFormatKey, kvFormatKey) no published result measured.
QStringList formatsWithoutPublishedResults(const Scenario &scenario, const MemoryPlan &plan);

/// quantized − baseline, in the benchmark's units.
double publishedChange(const PublishedResult &result);
/// The change's standard error, sqrt(se_b² + se_q²) of the two runs' printed
/// errors (independent runs); nullopt unless the source prints both.
std::optional<double> publishedChangeStderr(const PublishedResult &result);
/// "−0.0462 ± 0.0169, worse", "+0.004 ± 0.0156, within twice its standard error", and "+0.13"
/// alone where the source prints no standard errors: to the values' own decimals, worse or better
/// by the benchmark's direction.
QString publishedChangeText(const PublishedResult &result);

QJsonObject publishedResultToJson(const PublishedResult &result);

/// A published figure as its source prints it, in the shortest exact spelling
/// ("6.232196", "68.293", "5.6" for the paper's 5.60).
QString publishedValueText(double value);

} // namespace kvscope
