// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <QJsonObject>

namespace kvscope {

/// The plan as one JSON object (`kvscope calc --json`, `compare --json`'s columns, GUI "Copy as
/// JSON"). Byte figures are per GPU and exact integers; a server that does not start has null
/// speed and capacity; docs/user-guide.md ("kvscope calc") lists every key.
QJsonObject planToJson(const MemoryPlan &plan);

} // namespace kvscope
