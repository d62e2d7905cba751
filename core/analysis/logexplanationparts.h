// SPDX-License-Identifier: MIT
// What explaining a vLLM log and an SGLang log share: the translation context of
// their sentences, the mapping from a log's argument to kvscope calc's option, and
// planning a change that would hold more tokens. Used by logexplanation.cpp and
// sglanglogexplanation.cpp only.
#pragma once

#include "core/analysis/logexplanation.h"
#include "core/scenario/scenariovalues.h"

#include <functional>

#include <QCoreApplication>

namespace kvscope {

/// The context of what an explanation says, in the window's language where a translator is
/// installed (lupdate reads LogExplanationWords::tr; a free tr() it filed under "kvscope").
class LogExplanationWords
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::LogExplanationWords)
};

namespace logexplain {

/// The sentences that say why a vLLM start failed once it had sized the KV cache (the log's error,
/// the allocation that failed, the memory the budget leaves for what comes after), in
/// logstartfailure.cpp; none when the log shows no such failure.
QStringList explainStartFailure(const StartupLog &log, const Scenario &scenario, const MemoryPlan &plan);

/// kvscope calc's option for `field` without its dashes: the key of ScenarioValues.
QString optionKey(ScenarioField field);

/// A log's argument spelled as kvscope calc's option ("tensor_parallel_size" ->
/// "tensor-parallel-size", SGLang's "tp_size" -> "tp-size"): the scenario option table is the
/// one mapping. Null for an argument kvscope has no option for.
const ScenarioOption *optionFor(const QString &argument);

/// Options a start-up log sets; the workload (batch, lengths) and the speed inputs are the user's.
bool isEngineArgument(ScenarioField field);

/// "line 12", translated.
QString lineOf(int line);

/// The model the log names under the argument `key` ("model", SGLang's "model_path"), set as
/// calc takes it and listed as read: a local path as is, a HuggingFace cache folder
/// (".../models--ORG--NAME/snapshots/...") as ORG/NAME (listed as assumed), anything else as
/// written.
void takeLogModel(const StartupLog &log, const QString &key, LogExplanation &out);

/// Plans the explained scenario with one option changed and adds it as a lever when it starts
/// and holds more tokens: "an FP8 KV cache (--kv-cache-dtype fp8)".
/// The user's --model or --gpu (`field`), taken as given and listed as assumed; false when
/// the user gave none and the log decides.
bool takeOverride(ScenarioField field, const QString &given, LogExplanation &out);

/// A log argument kvscope plans (isEngineArgument) set as its calc option and listed as read;
/// any other argument is left alone.
void takeEngineArgument(const LogReading &reading, LogExplanation &out);

/// A sentence for each component whose logged figure kvscope does not reproduce, followed by
/// `why(component)` (empty when there is nothing more to say).
void addDisagreements(LogExplanation &e, const std::function<QString(const LogComponent &)> &why);

void addLever(LogExplanation &e, const QString &what, ScenarioField field, const QString &value,
              const ScenarioResolvers &resolve);

/// The levers both engines take: an FP8 KV cache, FP8 weights, twice the GPUs.
void addEngineIndependentLevers(LogExplanation &e, const ScenarioResolvers &resolve);

} // namespace logexplain

/// The SGLang half of explainStartupLog(): the scenario an SGLang log describes
/// (sglanglogexplanation.cpp).
void inferSglangScenario(const StartupLog &log, const LogOverrides &overrides, LogExplanation &out);
/// Components, explanation and levers of a planned SGLang log.
void explainSglangPlan(LogExplanation &e, const ScenarioResolvers &resolve);

} // namespace kvscope
