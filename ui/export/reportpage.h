// SPDX-License-Identifier: MIT
#pragma once

#include "ui/state/chartsource.h"

class QWidget;

namespace kvscope {

/// The report's page, one slide or handout, all four answers: the model and GPU, the
/// scenario's options as resolved, the fit banner, the figure cards, the memory bar and
/// the growth chart with their legends (memory, capacity); the speed cards as the window
/// shows them (a dash and the reason when the engine would not start) and where the time
/// of a decode step and of the first token goes, as a table of the step model's terms
/// (speed); the weight and KV errors with their caveats when the source has the accuracy
/// (accuracy); and the comparison's table when it has comparison columns. A widget of its
/// own, never shown; the renderer lays it out at the page's size and paints it.
QWidget *newReportPage(const ChartSource &source, QWidget *parent);

/// "Llama-3.1-8B on NVIDIA H100 SXM 80GB × 2".
QString scenarioHeadline(const Scenario &scenario);

} // namespace kvscope
