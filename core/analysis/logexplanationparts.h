// SPDX-License-Identifier: MIT
// The parts of explaining a start-up log that do not depend on the engine: the
// translation context of its sentences, the mapping from a log's argument to
// kvscope calc's option, and planning a change that would hold more tokens. Used
// by logexplanation.cpp only.
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

bool isTrue(const QString &value);

/// A sentence for each component whose logged figure kvscope does not reproduce, followed by
/// `why(component)` (empty when there is nothing more to say).
void addDisagreements(LogExplanation &e, const std::function<QString(const LogComponent &)> &why);

void addLever(LogExplanation &e, const QString &what, ScenarioField field, const QString &value,
              const ScenarioResolvers &resolve);

/// The levers both engines take: an FP8 KV cache, FP8 weights, twice the GPUs.
void addEngineIndependentLevers(LogExplanation &e, const ScenarioResolvers &resolve);

} // namespace logexplain

} // namespace kvscope
