// SPDX-License-Identifier: MIT
#pragma once

#include "plan/memoryplan.h"

#include <QString>

namespace kvscope::cli {

/// The plan as the readable table `kvscope calc` prints (no arithmetic here:
/// every number is a field of the plan, only formatted).
QString planAsText(const MemoryPlan &plan);

} // namespace kvscope::cli
