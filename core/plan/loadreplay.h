// SPDX-License-Identifier: MIT
// A model's load replayed through PyTorch's caching allocator (core/plan/cachingallocator.h): its
// parameters created one tensor at a time on the GPU, and a buffer built with the first of them (the rotary
// table and the temporaries it is computed from). What an engine logs for the load is one of the allocator's
// figures, not the tensors' bytes.
#pragma once

#include <cstdint>

#include <QList>

namespace kvscope {

/// One step of building a buffer on the GPU: an allocation of `bytes`, or (bytes 0) the release of the
/// allocation made at step `releases` of the same build.
struct AllocationStep
{
    std::int64_t bytes = 0;
    int releases = -1;
};

/// What the allocator holds once the parameters and the buffer are made.
struct LoadAllocation
{
    std::int64_t requested = 0; ///< the bytes of the tensors kept (parameters and the buffer)
    /// torch.cuda.memory_allocated(): the blocks those tensors hold, a block left whole where splitting it
    /// would leave 1 MiB or less (what vLLM logs as "Model loading took")
    std::int64_t allocated = 0;
    /// the segments held from the driver after torch.cuda.empty_cache() (what a load measured by free GPU
    /// memory takes, as SGLang measures it)
    std::int64_t reserved = 0;
};

/// How vLLM and SGLang build a rotary cos/sin table of `rows` positions on the GPU
/// (RotaryEmbedding._compute_cos_sin_cache, vllm/model_executor/layers/rotary_embedding/base.py and
/// python/sglang/srt/layers/rotary_embedding.py): inv_freq, the positions t, freqs = t x inv_freq, their cos
/// and sin and the two concatenated, all float32; the first five are freed on return, then the table is the
/// concatenation cast to `tableElementBytes` a value (the same tensor at 4 B). No steps without rows.
QList<AllocationStep> rotaryTableBuild(std::int64_t rows, int rotaryDim, int tableElementBytes);

/// Creates `parameters` in order, runs `buffer`'s steps after the first parameter, and reports what the
/// allocator holds. The same inputs give the same answer: a slider's plans reuse it (a per-thread cache).
LoadAllocation replayLoad(const QList<std::int64_t> &parameters, const QList<AllocationStep> &buffer);

} // namespace kvscope
