// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <cstdint>

#include <QByteArray>
#include <QList>

namespace kvscope {

enum class MemoryPart
{
    Weights,
    Activations,
    Overhead,   ///< non-torch memory: CUDA context, NCCL buffers
    CudaGraphs, ///< the CUDA-graph estimate vLLM subtracts (a part only when counted)
    KvCache,
    RecurrentState, ///< Gated DeltaNet / Mamba-2 state blocks (fixed per sequence)
    Headroom,
    Overflow
};
inline constexpr int MemoryPartCount = 8;

/// One segment of the stacked memory bar of one GPU, drawn true to scale.
struct BreakdownSegment
{
    MemoryPart part = MemoryPart::Weights;
    std::int64_t bytes = 0;             ///< the part's whole size: its length on the bar
    std::int64_t beyondBudgetBytes = 0; ///< the share of it past the budget line
    std::int64_t basisPoints = 0;       ///< bytes as a share of the budget, in 1/10000
};

/// The memory bar: demands stacked in order, then headroom if they fit. When they
/// do not, they run past the budget line; what lies beyond it is the overflow.
struct MemoryBreakdown
{
    QList<BreakdownSegment>
        segments; ///< weights, activations, overhead, [CUDA graphs,] KV cache, [state,] [headroom]
    std::int64_t budgetBytes = 0;
    std::int64_t gpuMemoryBytes = 0;
    std::int64_t demandBytes = 0;   ///< weights + activations + overhead + CUDA graphs + KV cache + state
    std::int64_t overflowBytes = 0; ///< demand beyond the budget (0 when it fits)
    std::int64_t overflowBasisPoints = 0; ///< overflowBytes as a share of the budget

    const BreakdownSegment *segment(MemoryPart part) const;
};

MemoryBreakdown memoryBreakdown(const MemoryPlan &plan);

/// One bar per pipeline stage (their GPUs hold different layers and ends); the plan's own bar
/// when it has one stage.
QList<MemoryBreakdown> stageBreakdowns(const MemoryPlan &plan);

/// A part's key in CSV and JSON: "weights", "kv_cache", "headroom"...
QByteArray memoryPartKey(MemoryPart part);

} // namespace kvscope
