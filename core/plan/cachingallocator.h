// SPDX-License-Identifier: MIT
// PyTorch's CUDA caching allocator, as far as what it reserves from the driver: the memory an engine that
// measures free GPU memory (SGLang's get_available_gpu_memory, torch.cuda.mem_get_info) sees a load take.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

namespace kvscope {

/// The rules of c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch), default configuration: sizes round up
/// to 512 B; requests up to 1 MiB share 2 MiB segments, requests up to 10 MiB share 20 MiB segments, larger
/// ones get a segment of their own rounded up to 2 MiB; a request takes the smallest free cached block that
/// holds it (best fit), split when the rest is over 1 MiB (512 B in the small pool), else whole; freed
/// blocks merge with free neighbours of their segment; empty_cache() returns wholly free segments.
class CudaCachingAllocator
{
public:
    /// Allocates `bytes`; returns a handle for release().
    std::int64_t allocate(std::int64_t bytes);
    void release(std::int64_t handle);
    /// torch.cuda.empty_cache(): the wholly free segments go back to the driver.
    void emptyCache();
    /// Bytes of the segments held from the driver.
    std::int64_t reservedBytes() const { return m_reserved; }
    /// Bytes of the blocks in use, each counted whole (torch.cuda.memory_allocated()).
    std::int64_t allocatedBytes() const { return m_allocated; }

private:
    struct Block
    {
        std::int64_t size = 0;
        std::int64_t segment = 0; ///< address of the segment's first byte
        bool small = false;
        bool allocated = false;
    };
    /// Blocks by address; free ones also in m_free, by (pool, size, address).
    std::map<std::int64_t, Block> m_blocks;
    std::map<std::pair<bool, std::pair<std::int64_t, std::int64_t>>, bool> m_free;
    std::map<std::int64_t, std::int64_t> m_segments; ///< address -> size
    std::int64_t m_reserved = 0;
    std::int64_t m_allocated = 0;
    std::int64_t m_nextAddress = 0;

    void addFree(std::int64_t address);
    void removeFree(std::int64_t address);
};

} // namespace kvscope
