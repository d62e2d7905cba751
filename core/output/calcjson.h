// SPDX-License-Identifier: MIT
// The `kvscope calc --json` document: the plan, its fixes and the launch line.
#pragma once

#include "core/analysis/fixes.h"
#include "core/plan/memoryplan.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope {

struct Scenario;

/// `kvscope calc --json` key "fixes": [{"change": {"--option": value}, "fits": true,
/// "headroom_bytes": N, "kind": "...", "limit": bool, "weights_bytes": N,
/// "needs_quantized_checkpoint": bool}].
QJsonArray fixesToJson(const QList<Fix> &fixes);

/// The `kvscope calc --json` document: the plan's keys, "fixes", and the command that
/// starts the scenario's engine ("vllm_command" or "sglang_command", shell-quoted;
/// "vllm_command_caveats" / "sglang_command_caveats": what no flag of the engine can say). The window's Copy
/// JSON, Export figures and every scenario chart's JSON are this.
QJsonObject calcJson(const Scenario &scenario, const MemoryPlan &plan, const QList<Fix> &fixes);

/// "batch_size", "quantization"... (the JSON "kind").
QString fixKindName(FixKind kind);

} // namespace kvscope
