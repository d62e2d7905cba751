// SPDX-License-Identifier: MIT
#pragma once

#include "plan/fixes.h"
#include "plan/memoryplan.h"
#include "plan/scenario.h"

#include <QJsonObject>

namespace kvscope {

/// The plan as one JSON object (`kvscope calc --json`, GUI "Copy as JSON").
/// Byte figures are per GPU and exact integers; see docs/cli.md for every key.
QJsonObject planToJson(const MemoryPlan &plan);

/// `kvscope calc --json`: planToJson(plan) with the changes that would make it fit
/// ("fixes") and the command that starts vLLM on the scenario ("vllm_command", shell-quoted,
/// and "vllm_command_caveats": what no vLLM flag can say).
QJsonObject calcJson(const Scenario &scenario, const MemoryPlan &plan, const QList<Fix> &fixes);

} // namespace kvscope
