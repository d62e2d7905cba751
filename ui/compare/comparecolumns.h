// SPDX-License-Identifier: MIT
// The Compare view's columns as they are kept and saved: each a set of
// scenario values on top of the explorer's scenario (what a scenario file's
// "comparison" list holds). A column keeps its precision and serving knobs
// spelled out, so it keeps its precisions when the explorer's change; every
// other option, the layout (TP, PP, DP, EP) among them, follows the explorer
// (model, GPU, batch...) unless the column sets it to something else.
#pragma once

#include "core/common/scenariofield.h"
#include "core/compare/comparison.h"
#include "core/scenario/scenariovalues.h"

#include <QList>

namespace kvscope {

/// The knobs a column shows, in the table's order: dtype, quantization, group size, KV cache dtype,
/// the layout (GPUs of TP, pipeline stages, data-parallel ranks, expert parallelism), the speculative
/// drafter, the LoRA slots and their rank, the shared prefix.
const QList<ScenarioField> &columnKnobs();

/// A knob of the layout: kept only where the column differs from the explorer.
bool isLayoutKnob(ScenarioField knob);

/// Whether the engine takes the knob's option (vLLM's expert switches, SGLang's attention groups and
/// their splits are one engine's): the table shows only the explorer's engine's knobs.
bool knobAppliesTo(ScenarioField knob, Engine engine);

/// The values a column is kept as: differingValues(base, column) with its knobs
/// (as scenarioToValues() spells them) added; applyValues(base, result) is `column`.
ScenarioValues columnValues(const Scenario &base, const Scenario &column);

/// Each column's scenario: its values applied on `base`. Throws kvscope::Error
/// naming the column (1-based) and the option.
QList<Scenario> columnScenarios(const Scenario &base, const QList<ScenarioValues> &columns,
                                const ScenarioResolvers &resolvers);

/// The seed question's columns on `base` (seedQuestionColumns()), as kept.
QList<ScenarioValues> seedColumnValues(const Scenario &base);

/// The serving features' columns on `base` (servingFeatureColumns()), as kept.
QList<ScenarioValues> servingFeatureColumnValues(const Scenario &base);

} // namespace kvscope
