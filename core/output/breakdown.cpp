// SPDX-License-Identifier: MIT
#include "core/output/breakdown.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"

#include <algorithm>
#include <limits>

namespace kvscope {

namespace {

/// `bytes` in basis points of `budget`, floored. The product is taken in 128 bits:
/// 1 PiB x 10,000 is 2^63.3, past what 64 bits hold, though the share is at most
/// 10,000 times the demand over the budget.
std::int64_t basisPoints(std::int64_t bytes, std::int64_t budget)
{
    __extension__ using Wide = __int128;
    const Wide points = Wide(bytes) * 10'000 / budget;
    if (points > std::numeric_limits<std::int64_t>::max())
        Checked::overflow();
    return std::int64_t(points);
}

} // namespace

const BreakdownSegment *MemoryBreakdown::segment(MemoryPart part) const
{
    for (const BreakdownSegment &s : segments)
        if (s.part == part)
            return &s;
    return nullptr;
}

namespace {

/// The bar of one GPU: `demands` stacked in order against the plan's budget.
MemoryBreakdown breakdownOf(const MemoryPlan &plan, const QList<std::pair<MemoryPart, std::int64_t>> &demands)
{
    MemoryBreakdown b;
    b.budgetBytes = plan.budgetBytes;
    b.gpuMemoryBytes = plan.gpuMemoryBytes;
    const auto share = [&](std::int64_t bytes) {
        return b.budgetBytes > 0 ? basisPoints(bytes, b.budgetBytes) : 0;
    };
    Checked used = 0;
    for (const auto &[part, bytes] : demands) {
        const std::int64_t start = used.value();
        used += bytes;
        const std::int64_t beyond =
            std::min(bytes, std::max<std::int64_t>(0, used.value() - std::max(start, b.budgetBytes)));
        b.segments.append({part, bytes, beyond, share(bytes)});
    }
    b.demandBytes = used.value();
    if (b.demandBytes <= b.budgetBytes) {
        const std::int64_t headroom = b.budgetBytes - b.demandBytes;
        b.segments.append({MemoryPart::Headroom, headroom, 0, share(headroom)});
    } else {
        b.overflowBytes = b.demandBytes - b.budgetBytes;
        b.overflowBasisPoints = share(b.overflowBytes);
    }
    return b;
}

/// The runtime's parts, the same on every GPU: the CUDA graphs only for engines that subtract them.
QList<std::pair<MemoryPart, std::int64_t>> runtimeParts(const MemoryPlan &plan)
{
    QList<std::pair<MemoryPart, std::int64_t>> parts{{MemoryPart::Overhead, plan.overheadBytes}};
    if (plan.cudaGraphBytes > 0)
        parts.append({MemoryPart::CudaGraphs, plan.cudaGraphBytes});
    return parts;
}

} // namespace

MemoryBreakdown memoryBreakdown(const MemoryPlan &plan)
{
    // The pool holds both; the state is its own part only for models that have one.
    QList<std::pair<MemoryPart, std::int64_t>> demands{{MemoryPart::Weights, plan.weights.bytesPerGpu},
                                                       {MemoryPart::Activations, plan.activationBytes}};
    demands += runtimeParts(plan);
    demands.append({MemoryPart::KvCache, plan.kv.cacheBytes - plan.kv.stateCacheBytes});
    // vLLM's state blocks are the batch's; SGLang's state pool is allocated whole, before its KV pool.
    if (plan.kv.recurrentLayers > 0)
        demands.append({MemoryPart::RecurrentState,
                        plan.kv.statePoolSlots > 0 ? plan.kv.statePoolBytes : plan.kv.stateCacheBytes});
    return breakdownOf(plan, demands);
}

QList<MemoryBreakdown> stageBreakdowns(const MemoryPlan &plan)
{
    if (plan.pipelineStages.isEmpty())
        return {memoryBreakdown(plan)};
    QList<MemoryBreakdown> bars;
    for (const PipelineStagePlan &stage : plan.pipelineStages) {
        QList<std::pair<MemoryPart, std::int64_t>> demands{{MemoryPart::Weights, stage.weightBytes},
                                                           {MemoryPart::Activations, stage.activationBytes}};
        demands += runtimeParts(plan);
        demands.append({MemoryPart::KvCache, stage.cacheBytes});
        bars << breakdownOf(plan, demands);
    }
    return bars;
}

namespace {

const EnumSpelling<MemoryPart> memoryPartKeys[] = {
    {MemoryPart::Weights, "weights"},   {MemoryPart::Activations, "activations"},
    {MemoryPart::Overhead, "overhead"}, {MemoryPart::CudaGraphs, "cuda_graphs"},
    {MemoryPart::KvCache, "kv_cache"},  {MemoryPart::RecurrentState, "recurrent_state"},
    {MemoryPart::Headroom, "headroom"}, {MemoryPart::Overflow, "overflow"},
};

} // namespace

QByteArray memoryPartKey(MemoryPart part)
{
    return enumName(memoryPartKeys, part).toLatin1();
}

} // namespace kvscope
