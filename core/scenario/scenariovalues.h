// SPDX-License-Identifier: MIT
// A Scenario as kvscope calc's option names and values ("dtype" = "bfloat16"):
// the one mapping between options and Scenario fields, both ways. The command
// line (--dtype bfloat16), the variants of `kvscope compare`, scenario files
// (core/document/scenariofile.h) and the comparison's columns all read and spell a
// scenario through it.
#pragma once

#include "core/common/scenariofield.h"

#include <functional>

#include <QList>
#include <QMap>
#include <QString>

namespace kvscope {

struct GpuSpec;
struct ModelArch;
struct Scenario;

/// How an option's value is spelled in a scenario file (JSON).
enum class OptionKind
{
    Text,   ///< a string: "llama-3.1-8b", "bfloat16"
    Count,  ///< an integer: 16 (the optional counts also read "auto": their default)
    Ratio,  ///< a number in (0, 1]: 0.9
    Number, ///< a number of a unit the option names, at least 0: 2.5 (requests a second)
    Switch  ///< on or off: a flag without a value on the command line, true/false in a file
};

/// The engine an option belongs to: a vLLM-only option under --engine sglang
/// (or the reverse) is an error naming both.
enum class OptionEngine
{
    Any,
    Vllm,
    Sglang
};

/// One option of kvscope calc: a field in one spelling. A field has one
/// option, or two where SGLang names it its own way (tp-size beside
/// tensor-parallel-size, max-running-requests beside max-num-seqs).
struct ScenarioOption
{
    ScenarioField field;
    OptionKind kind;
    /// The engine whose scenarios take the option; an SGLang-only option is
    /// spelled the SGLang way (sglangKey()).
    OptionEngine engine = OptionEngine::Any;

    /// kvscope calc's option without the dashes: "batch-size", "tp-size".
    QString name() const;
    /// The option as the command line and errors spell it: "--batch-size", "--tp-size".
    QString flag() const;
    /// SGLang's spelling of a field whose own option is spelled otherwise: the
    /// two stand for the same setting.
    bool isSglangSpelling() const { return name() != fileKey(field); }
};

/// Every option that describes a Scenario, in kvscope calc's order (also the
/// order they apply in: the model before the quantization, which keeps the
/// checkpoint's own spec when it names the same method, before the group size).
const QList<ScenarioOption> &scenarioOptions();
/// The option of that name, or null.
const ScenarioOption *findScenarioOption(const QString &name);

/// Option values by name, as text ("batch-size" = "16"); an option not
/// present takes its default (or, for applyValues(), the base's value).
using ScenarioValues = QMap<QString, QString>;

/// Most columns a comparison takes (each a list of values over one scenario);
/// a comparison has at least two.
inline constexpr int MaxComparisonColumns = 4;

/// How the "model" and "gpu" values become a model and a GPU.
struct ScenarioResolvers
{
    std::function<ModelArch(const QString &)> model;
    std::function<GpuSpec(const QString &)> gpu;
    /// The "model" of --speculative-config; empty: resolveDraftModel (draft presets, config paths).
    std::function<ModelArch(const QString &)> draft;
};

/// Presets, HuggingFace repo ids and paths (resolveModel); GPU presets and
/// custom:MEMORY_GIB... (resolveGpu).
ScenarioResolvers builtinResolvers();

/// How errors name an option: by default as the command line spells it
/// ("--batch-size"); a scenario file names its field ("scenario.batch-size").
using OptionLabel = std::function<QString(const ScenarioOption &)>;

/// The Scenario the values describe. "model" and "gpu" must be present;
/// any other option absent takes Scenario's default. SGLang's spellings
/// (tp-size, context-length, max-running-requests) stand for the shared
/// options; an option of the other engine than "engine" says is an error.
/// Throws kvscope::Error naming the option ("--batch-size") and the value.
Scenario scenarioFromValues(const ScenarioValues &values, const ScenarioResolvers &resolve,
                            const OptionLabel &label = {});

/// `base` with every given value parsed onto its field; an option left out
/// keeps the base's value. Throws kvscope::Error naming the option and the
/// value ("--kv-cache-dtype: unknown ... 'fp9'"), "--name: unknown option"
/// for a name that sets no field, or an option of the other engine than the
/// one the values (or the base) name.
Scenario applyValues(const Scenario &base, const ScenarioValues &values,
                     const ScenarioResolvers &resolve = builtinResolvers(), const OptionLabel &label = {});

/// The values that describe `scenario` (model and GPU by their ids): every
/// option of its engine, except those whose value means "the default"
/// (max-model-len 0 is the model's context, prompt-len 0 is seq-len...) and a
/// group size where the quantization takes none.
ScenarioValues scenarioToValues(const Scenario &scenario);

/// A switch's value among the values: "true" or "false".
QString switchText(bool on);

/// The values as `kvscope calc` arguments, in the option table's order:
/// {"--model", "llama-3.1-8b", "--gpu", "h100-sxm", ...}; a name the table lacks is left out.
QStringList calcArguments(const ScenarioValues &values);

/// The values in which `changed` differs from `base`, spelled so that
/// applyValues(base, result) gives `changed` back field for field (model and
/// GPU by their ids; an optional count back at its default as "auto").
ScenarioValues differingValues(const Scenario &base, const Scenario &changed);

} // namespace kvscope
