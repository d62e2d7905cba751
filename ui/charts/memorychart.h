// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

class QWidget;

namespace kvscope {

class ChartView;

/// A plan's memory per GPU, drawn once (exports and the report): one stacked bar, or a bar
/// per pipeline stage when the plan has stages.
ChartView *makeMemoryChart(const MemoryPlan &plan, QWidget *parent = nullptr);

} // namespace kvscope
