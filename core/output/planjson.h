// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <QJsonObject>

namespace kvscope {

/// The plan as one JSON object (`kvscope calc --json`, GUI "Copy as JSON").
/// Byte figures are per GPU and exact integers; docs/user-guide.md ("kvscope calc") lists every key.
QJsonObject planToJson(const MemoryPlan &plan);

} // namespace kvscope
