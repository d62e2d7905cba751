// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <QString>

namespace kvscope::cli {

/// The plan as the readable table `kvscope calc` prints (no arithmetic here:
/// every number is a field of the plan, only formatted).
QString planAsText(const MemoryPlan &plan);

/// Tokens per second: whole numbers with separators from 1,000 up, else one decimal.
QString formatRate(double perSecond);

} // namespace kvscope::cli
