// SPDX-License-Identifier: MIT
// The `kvscope calc --json` document: the plan, its fixes and the launch line.
#pragma once

#include "core/analysis/fixes.h"
#include "core/plan/memoryplan.h"
#include "core/plan/speedcalibration.h"

#include <optional>

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
/// "speed_calibration": the calibration the plan used (scale, weight_bandwidth_efficiency,
/// kv_bandwidth_efficiency, measured_itl_ms, predicted_itl_ms_before, source; the two
/// measured figures null unless `calibration` is what this run fitted), or null.
QJsonObject calcJson(const Scenario &scenario, const MemoryPlan &plan, const QList<Fix> &fixes,
                     const std::optional<SpeedCalibration> &calibration = std::nullopt);

/// "batch_size", "quantization"... (the JSON "kind").
QString fixKindName(FixKind kind);

} // namespace kvscope
