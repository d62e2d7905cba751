// SPDX-License-Identifier: MIT
#include "core/plan/cachingallocator.h"

#include "core/common/checked.h"

namespace kvscope {

namespace {

// c10/cuda/CUDACachingAllocator.cpp (and c10/core/AllocatorConfig.h in newer releases).
constexpr std::int64_t MinBlockSize = 512;                // every size rounds up to a multiple of 512 B
constexpr std::int64_t SmallSize = std::int64_t(1) << 20; // the largest "small" request, 1 MiB
constexpr std::int64_t SmallBuffer = 2 * SmallSize;       // small requests share 2 MiB segments
constexpr std::int64_t LargeBuffer = 20 * SmallSize;      // requests up to MinLargeAlloc share 20 MiB ones
constexpr std::int64_t MinLargeAlloc = 10 * SmallSize;
constexpr std::int64_t RoundLarge = 2 * SmallSize; // larger ones: a segment rounded up to 2 MiB

std::int64_t roundSize(std::int64_t bytes)
{
    return bytes < MinBlockSize ? MinBlockSize
                                : (Checked(ceilDiv(bytes, MinBlockSize)) * MinBlockSize).value();
}

std::int64_t segmentSize(std::int64_t size)
{
    if (size <= SmallSize)
        return SmallBuffer;
    if (size < MinLargeAlloc)
        return LargeBuffer;
    return (Checked(ceilDiv(size, RoundLarge)) * RoundLarge).value();
}

} // namespace

void CudaCachingAllocator::addFree(std::int64_t address)
{
    const Block &b = m_blocks.at(address);
    m_free[{b.small, {b.size, address}}] = true;
}

void CudaCachingAllocator::removeFree(std::int64_t address)
{
    const Block &b = m_blocks.at(address);
    m_free.erase({b.small, {b.size, address}});
}

std::int64_t CudaCachingAllocator::allocate(std::int64_t bytes)
{
    const std::int64_t size = roundSize(bytes);
    const bool small = size <= SmallSize;
    // Best fit: the smallest free block of the pool that holds the request, the lowest address first.
    auto it = m_free.lower_bound({small, {size, 0}});
    std::int64_t address = 0;
    if (it != m_free.end() && it->first.first == small) {
        address = it->first.second.second;
        removeFree(address);
    } else {
        const std::int64_t segment = segmentSize(size);
        address = m_nextAddress;
        m_nextAddress = (Checked(m_nextAddress) + segment).value();
        m_reserved = (Checked(m_reserved) + segment).value();
        m_segments[address] = segment;
        m_blocks[address] = {segment, address, small, false};
    }
    Block &block = m_blocks.at(address);
    const std::int64_t rest = block.size - size;
    if (small ? rest >= MinBlockSize : rest > SmallSize) {
        block.size = size;
        m_blocks[address + size] = {rest, block.segment, small, false};
        addFree(address + size);
    }
    Block &taken = m_blocks.at(address);
    taken.allocated = true;
    m_allocated = (Checked(m_allocated) + taken.size).value();
    return address;
}

void CudaCachingAllocator::release(std::int64_t handle)
{
    auto it = m_blocks.find(handle);
    if (it == m_blocks.end() || !it->second.allocated)
        return;
    it->second.allocated = false;
    m_allocated -= it->second.size;
    // Merge with the free block after it and the free block before it, within the segment.
    auto next = std::next(it);
    if (next != m_blocks.end() && !next->second.allocated && next->second.segment == it->second.segment) {
        removeFree(next->first);
        it->second.size += next->second.size;
        m_blocks.erase(next);
    }
    if (it != m_blocks.begin()) {
        auto previous = std::prev(it);
        if (!previous->second.allocated && previous->second.segment == it->second.segment) {
            removeFree(previous->first);
            previous->second.size += it->second.size;
            m_blocks.erase(it);
            it = previous;
        }
    }
    addFree(it->first);
}

void CudaCachingAllocator::emptyCache()
{
    for (auto segment = m_segments.begin(); segment != m_segments.end();) {
        auto block = m_blocks.find(segment->first);
        if (block != m_blocks.end() && !block->second.allocated && block->second.size == segment->second) {
            removeFree(block->first);
            m_blocks.erase(block);
            m_reserved -= segment->second;
            segment = m_segments.erase(segment);
        } else {
            ++segment;
        }
    }
}

} // namespace kvscope
