// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <QJsonObject>

namespace kvscope {

/// Whether a plan's speed keys hold figures when its engine does not start.
enum class SpeedOfRefusedPlan
{
    Shown, ///< `kvscope calc --json`: the roofline's figures all the same
    Null   ///< `kvscope compare --json`: null, as nothing runs
};

/// The plan as one JSON object (`kvscope calc --json`, GUI "Copy as JSON").
/// Byte figures are per GPU and exact integers; docs/user-guide.md ("kvscope calc") lists every key.
QJsonObject planToJson(const MemoryPlan &plan, SpeedOfRefusedPlan refused = SpeedOfRefusedPlan::Shown);

} // namespace kvscope
