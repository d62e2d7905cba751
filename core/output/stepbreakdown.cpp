// SPDX-License-Identifier: MIT
#include "core/output/stepbreakdown.h"

#include "core/common/enumtable.h"

namespace kvscope {

namespace {

const EnumSpelling<StepPass> stepPassKeys[] = {
    {StepPass::Decode, "decode"},
    {StepPass::Prefill, "prefill"},
};

StepBar barOf(StepPass pass, const ForwardCost &cost)
{
    StepBar bar{pass, cost.seconds, {}};
    for (std::size_t i = 0; i < StepTermCount; ++i) {
        const double seconds = cost.breakdown.seconds[i];
        if (seconds > 0)
            bar.segments.append({StepTerm(i), seconds, seconds / cost.seconds});
    }
    return bar;
}

} // namespace

const StepSegment *StepBar::segment(StepTerm term) const
{
    for (const StepSegment &s : segments)
        if (s.term == term)
            return &s;
    return nullptr;
}

StepBreakdownChartData stepBreakdownChartData(const SpeedPlan &speed)
{
    StepBreakdownChartData data;
    // A server that never starts takes no step: the reason stands in for the bars.
    data.available = speed.priced();
    data.notes = speed.priced() ? speed.notes : speed.whyNotPriced();
    data.batchSize = speed.batchSize;
    data.promptLen = speed.promptLen;
    if (!data.available)
        return data;
    data.decode = barOf(StepPass::Decode, speed.decode);
    data.prefill = barOf(StepPass::Prefill, speed.prefill);
    return data;
}

QString stepPassKey(StepPass pass)
{
    return enumName(stepPassKeys, pass);
}

} // namespace kvscope
