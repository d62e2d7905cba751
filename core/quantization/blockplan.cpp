// SPDX-License-Identifier: MIT
#include "core/quantization/blockplan.h"

#include <algorithm>

namespace kvscope::quant {

BlockPlan::BlockPlan(const UnitLayout &layout, std::int64_t targetElements, int blocksPerChunk)
    : m_layout(layout), m_blocksPerChunk(blocksPerChunk)
{
    m_unitsPerBlock = std::max<std::int64_t>(1, targetElements / std::max<std::int64_t>(1, layout.length));
    const std::int64_t units = layout.unitCount();
    m_blockCount = (units + m_unitsPerBlock - 1) / m_unitsPerBlock;
}

Block BlockPlan::block(std::int64_t index) const
{
    Block b;
    b.firstUnit = index * m_unitsPerBlock;
    b.unitCount = std::min(m_unitsPerBlock, m_layout.unitCount() - b.firstUnit);
    b.begin = m_layout.unitStart(b.firstUnit);
    const std::int64_t last = b.firstUnit + b.unitCount - 1;
    b.length = m_layout.unitStart(last) + m_layout.unitLength(last) - b.begin;
    return b;
}

std::int64_t BlockPlan::endBlockOf(std::int64_t chunk) const
{
    return std::min(m_blockCount, (chunk + 1) * m_blocksPerChunk);
}

void BlockPlan::unitLengths(const Block &block, std::int32_t *lengths) const
{
    if (!m_layout.rowAligned) {
        for (std::int64_t i = 0; i < block.unitCount; ++i)
            lengths[i] = std::int32_t(m_layout.unitLength(block.firstUnit + i));
        return;
    }
    // Walk the columns instead of dividing per unit.
    std::int64_t column = block.begin % m_layout.cols;
    for (std::int64_t i = 0; i < block.unitCount; ++i) {
        const std::int64_t length = std::min(m_layout.length, m_layout.cols - column);
        lengths[i] = std::int32_t(length);
        column += length;
        if (column == m_layout.cols)
            column = 0;
    }
}

} // namespace kvscope::quant
