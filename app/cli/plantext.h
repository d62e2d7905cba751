// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <QString>

namespace kvscope::cli {

/// The plan as the readable table `kvscope calc` prints (no arithmetic here:
/// every number is a field of the plan, only formatted).
QString planAsText(const MemoryPlan &plan);

/// One line of output: `text` with every control character escaped (printableText), then a
/// line break. For lines with parts from a file or a folder name, which could otherwise
/// retitle the terminal, clear it or start a forged line.
QString printableLine(const QString &text);

/// Tokens per second: whole numbers with separators from 1,000 up, else one decimal.
QString formatRate(double perSecond);

} // namespace kvscope::cli
