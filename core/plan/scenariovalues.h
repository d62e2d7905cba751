// SPDX-License-Identifier: MIT
// A Scenario as kvscope calc's option names and values ("dtype" = "bfloat16"):
// the one mapping that the command line (--dtype bfloat16) and scenario files
// (plan/scenariofile.h) both read.
#pragma once

#include "plan/scenario.h"

#include <functional>

#include <QList>
#include <QMap>
#include <QString>

namespace kvscope {

/// How an option's value is spelled in a scenario file (JSON).
enum class OptionKind
{
    Text,  ///< a string: "llama-3.1-8b", "bfloat16"
    Count, ///< an integer: 16
    Ratio  ///< a number in (0, 1]: 0.9
};

/// The engine an option belongs to: a vLLM-only option under --engine sglang
/// (or the reverse) is an error naming both.
enum class OptionEngine
{
    Any,
    Vllm,
    Sglang
};

struct ScenarioOption
{
    const char *name; ///< kvscope calc's option without the dashes: "batch-size"
    OptionKind kind;
    OptionEngine engine = OptionEngine::Any;
    const char *sameAs = nullptr; ///< SGLang's spelling of a shared option: the option it stands for
};

/// Every option that describes a Scenario, in kvscope calc's order.
const QList<ScenarioOption> &scenarioOptions();
/// The option of that name, or null.
const ScenarioOption *findScenarioOption(const QString &name);

/// Option values by name, as text ("batch-size" = "16"); an option not
/// present takes its default.
using ScenarioValues = QMap<QString, QString>;

/// How the "model" and "gpu" values become a model and a GPU.
struct ScenarioResolvers
{
    std::function<ModelArch(const QString &)> model;
    std::function<GpuSpec(const QString &)> gpu;
};

/// Presets, HuggingFace repo ids and paths (resolveModel); GPU presets and
/// custom:MEMORY_GIB... (resolveGpu).
ScenarioResolvers builtinResolvers();

/// Parses a strictly positive integer option ("--batch-size 16"); throws
/// kvscope::Error naming `option` and the text.
std::int64_t parsePositive(const QString &text, const QString &option);

/// The Scenario the values describe. "model" and "gpu" must be present;
/// any other option absent takes Scenario's default. SGLang's spellings
/// (tp-size, context-length, max-running-requests) stand for the shared
/// options; an option of the other engine than "engine" says is an error.
/// Throws kvscope::Error naming the option ("--batch-size") and the value.
Scenario scenarioFromValues(const ScenarioValues &values, const ScenarioResolvers &resolve);

/// The values that describe `scenario` (model and GPU by their ids): every
/// option of its engine, except those whose value means "the default"
/// (max-model-len 0 is the model's context, prompt-len 0 is seq-len...) and a
/// group size where the quantization takes none.
ScenarioValues scenarioToValues(const Scenario &scenario);

} // namespace kvscope
