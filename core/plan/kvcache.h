// SPDX-License-Identifier: MIT
#pragma once

#include "model/modelarch.h"
#include "precision/dtypes.h"

#include <cstdint>

namespace kvscope {

/// KV heads one GPU holds under tensor parallelism: max(1, kv_heads / TP);
/// heads are replicated when TP > kv_heads. MLA holds one latent on every GPU.
int kvHeadsPerGpu(const ModelArch &model, int tensorParallelSize);

/// Bytes one token occupies in one layer on one GPU:
/// 2 x heads x head_dim x bytes (K and V), or (kv_lora_rank + qk_rope_head_dim) x bytes for MLA.
std::int64_t kvBytesPerTokenPerLayer(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize);

/// Bytes one token occupies over every layer on one GPU (no window, no blocks).
std::int64_t kvBytesPerToken(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize);

/// Blocks of `blockSize` tokens that a layer holds for a sequence of `tokens`
/// tokens. A sliding-window layer (window > 0) keeps the blocks the last
/// `window` tokens touch; a full layer keeps ceil(tokens / blockSize).
std::int64_t blocksHeld(std::int64_t tokens, std::int64_t window, int blockSize);

/// vLLM's KV cache groups: layers of one attention type split into groups of
/// equal size so that a group's layers share one tensor per slot.
struct KvGroupLayout
{
    int fullLayers = 0;
    int slidingLayers = 0;
    int groupSize = 0;
    int fullGroups = 0;
    int slidingGroups = 0;
    int numGroups() const { return fullGroups + slidingGroups; }
    int paddingLayers() const { return numGroups() * groupSize - fullLayers - slidingLayers; }
};
KvGroupLayout kvGroupLayout(const ModelArch &model);

/// Blocks from vLLM's pool that one sequence of `tokens` tokens holds. One
/// block spans a page in each of the group's `groupSize` layer slots.
std::int64_t blocksPerSequence(const ModelArch &model, const KvGroupLayout &layout, std::int64_t tokens,
                               int blockSize);

/// Bytes of one pool block on one GPU: blockSize x per-layer token bytes x group size.
std::int64_t bytesPerPoolBlock(const ModelArch &model, const KvGroupLayout &layout, KvCacheDtype dtype,
                               int tensorParallelSize, int blockSize);

/// KV bytes for `batch` sequences of `tokens` tokens on one GPU, with
/// windows, whole blocks and vLLM's group padding applied.
std::int64_t kvCacheBytes(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize, int blockSize,
                          std::int64_t batch, std::int64_t tokens);

/// Blocks one request of `maxModelLen` tokens reserves at admission
/// (vLLM: full groups cdiv(len, block); sliding groups cdiv(min(W - 1 + max_num_batched_tokens, len), block)
/// + 1).
std::int64_t blocksPerRequest(const ModelArch &model, const KvGroupLayout &layout, std::int64_t maxModelLen,
                              std::int64_t maxNumBatchedTokens, int blockSize);

} // namespace kvscope
