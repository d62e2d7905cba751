// SPDX-License-Identifier: MIT
#pragma once

#include "plan/memoryplan.h"

#include <cstdint>

#include <QList>

namespace kvscope {

enum class MemoryPart
{
    Weights,
    Activations,
    Overhead,
    KvCache,
    RecurrentState, ///< Gated DeltaNet / Mamba-2 state blocks (fixed per sequence)
    Headroom,
    Overflow
};
inline constexpr int MemoryPartCount = 7;

/// One segment of the stacked memory bar of one GPU.
struct BreakdownSegment
{
    MemoryPart part = MemoryPart::Weights;
    std::int64_t bytes = 0;       ///< drawn inside the budget (or, for Overflow, beyond it)
    std::int64_t fullBytes = 0;   ///< the part's whole size (the KV cache may be partly overflow)
    std::int64_t basisPoints = 0; ///< fullBytes as a share of the budget, in 1/10000
};

/// The memory bar: demands stacked in order up to the budget, then headroom
/// (if they fit) or the overflow beyond the budget line (if they do not).
struct MemoryBreakdown
{
    QList<BreakdownSegment>
        segments; ///< weights, activations, overhead, KV cache, [state,] headroom|overflow
    std::int64_t budgetBytes = 0;
    std::int64_t gpuMemoryBytes = 0;
    std::int64_t demandBytes = 0;   ///< weights + activations + overhead + KV cache + recurrent state
    std::int64_t overflowBytes = 0; ///< demand beyond the budget (0 when it fits)

    const BreakdownSegment *segment(MemoryPart part) const;
};

MemoryBreakdown memoryBreakdown(const MemoryPlan &plan);

} // namespace kvscope
