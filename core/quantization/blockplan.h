// SPDX-License-Identifier: MIT
// How a pass walks a tensor: blocks of whole scale units (a few thousand
// elements, so a block's scratch stays in cache), grouped into chunks that
// threads take one at a time. Internal to core/quant.
#pragma once

#include "core/quantization/scheme.h"

#include <cstdint>

namespace kvscope::quant {

struct Block
{
    std::int64_t begin = 0;  ///< flat index of the first element
    std::int64_t length = 0; ///< elements
    std::int64_t firstUnit = 0;
    std::int64_t unitCount = 0;
};

class BlockPlan
{
public:
    /// Blocks hold about `targetElements` elements (at least one unit).
    explicit BlockPlan(const UnitLayout &layout, std::int64_t targetElements = 4096, int blocksPerChunk = 16);

    const UnitLayout &layout() const { return m_layout; }
    std::int64_t chunkCount() const { return (m_blockCount + m_blocksPerChunk - 1) / m_blocksPerChunk; }
    std::int64_t maxBlockLength() const { return m_unitsPerBlock * m_layout.length; }

    Block block(std::int64_t index) const;
    /// Blocks [first, end) of a chunk.
    std::int64_t firstBlockOf(std::int64_t chunk) const { return chunk * m_blocksPerChunk; }
    std::int64_t endBlockOf(std::int64_t chunk) const;

    /// The lengths of a block's units, in order, into `lengths` (unitCount entries).
    void unitLengths(const Block &block, std::int32_t *lengths) const;

private:
    UnitLayout m_layout;
    std::int64_t m_unitsPerBlock = 1;
    std::int64_t m_blockCount = 0;
    int m_blocksPerChunk = 16;
};

} // namespace kvscope::quant
