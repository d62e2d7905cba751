// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelarch.h"
#include "core/precision/dtypes.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace kvscope {

/// KV heads one GPU holds under tensor parallelism: max(1, kv_heads / TP);
/// heads are replicated when TP > kv_heads. MLA holds one latent on every GPU.
int kvHeadsPerGpu(const ModelArch &model, int tensorParallelSize);

/// DeepSeek-V3.2 under an FP8 --kv-cache-dtype: vLLM stores the latent as
/// fp8_ds_mla (FP8 NoPE part, float32 scale per 128 values, bf16 RoPE part).
bool usesFp8DsMla(const ModelArch &model, KvCacheDtype dtype);

/// DeepSeek-V3.2's indexer key per token and layer: head_dim FP8 values plus a
/// float32 scale per 128 (DeepseekV32IndexerCache, 132 B); 0 without an indexer.
std::int64_t indexerKeyBytes(const ModelArch &model);

/// Bytes one token occupies in one layer on one GPU:
/// 2 x heads x head_dim x bytes (K and V), or (kv_lora_rank + qk_rope_head_dim) x bytes for MLA
/// (656 B as fp8_ds_mla), plus DeepSeek-V3.2's indexer key (head_dim + head_dim / 128 x 4 B).
std::int64_t kvBytesPerTokenPerLayer(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize);

/// Layers that hold a per-token cache: all but recurrent layers and Gemma 3n's KV-shared layers.
int kvCacheLayerCount(const ModelArch &model);

/// Bytes one token occupies over every caching layer on one GPU (no window, no blocks).
std::int64_t kvBytesPerToken(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize);

/// Fixed state of one recurrent layer for one sequence on one GPU (vLLM
/// MambaStateShapeCalculator / MambaSpec.page_size_bytes, no speculative tokens).
struct RecurrentState
{
    std::int64_t convBytes = 0; ///< causal-conv window: (kernel - 1) x conv width / TP
    std::int64_t ssmBytes = 0;  ///< recurrent matrix: heads / TP x head_dim x state (GDN: key dim)
    std::int64_t bytes() const { return convBytes + ssmBytes; }
};
RecurrentState recurrentStatePerLayer(const ModelArch &model, int tensorParallelSize, WeightDtype convDtype,
                                      WeightDtype ssmDtype);

/// Blocks of `blockSize` tokens that a layer holds for a sequence of `tokens`
/// tokens. A sliding-window layer (window > 0) keeps the blocks the last
/// `window` tokens touch; a full layer keeps ceil(tokens / blockSize).
std::int64_t blocksHeld(std::int64_t tokens, std::int64_t window, int blockSize);

/// vLLM's KV cache groups (kv_cache_utils.py, _get_kv_cache_groups_uniform_page_size):
/// layers of one kind split into groups of equal size so that a group's layers
/// share one tensor per slot. KV-shared layers hold nothing and join no group.
struct KvGroupLayout
{
    int fullLayers = 0;
    int slidingLayers = 0;
    int chunkedLayers = 0;
    int recurrentLayers = 0;
    int sharedLayers = 0; ///< Gemma 3n: reuse an earlier layer's cache
    int groupSize = 0;
    int fullGroups = 0;
    int slidingGroups = 0;
    int chunkedGroups = 0;
    int recurrentGroups = 0;
    int numGroups() const { return fullGroups + slidingGroups + chunkedGroups + recurrentGroups; }
    /// Layers of more than one kind: vLLM's hybrid grouping.
    bool mixesKinds() const
    {
        return (fullGroups > 0) + (slidingGroups > 0) + (chunkedGroups > 0) + (recurrentGroups > 0) > 1;
    }
    int paddingLayers() const
    {
        return numGroups() * groupSize - fullLayers - slidingLayers - chunkedLayers - recurrentLayers;
    }
};
KvGroupLayout kvGroupLayout(const ModelArch &model);

/// vLLM's groups on one pipeline stage, layers [firstLayer, firstLayer + layers) of `model`
/// (_project_kv_cache_groups_to_worker, vllm/v1/core/kv_cache_utils.py; vllm-project/vllm#23974,
/// v0.11.0): the whole model's groups, each keeping the stage's layers of it (a kind's group i holds
/// its layers i, i + G, i + 2G, ... of G groups). The group counts stay the model's (a request holds
/// blocks in every group); the layer counts are the stage's, and the group size is the stage's
/// fullest group: the pages a block takes (get_kv_cache_config_from_groups).
KvGroupLayout stageKvGroupLayout(const ModelArch &model, int firstLayer, int layers);

/// What the cache is laid out for: vLLM's cache config, resolved.
struct KvCacheOptions
{
    KvCacheDtype dtype = KvCacheDtype::BFloat16;
    int tensorParallelSize = 1;
    int blockSize = 16;                                 ///< --block-size as requested
    WeightDtype convStateDtype = WeightDtype::BFloat16; ///< --mamba-cache-dtype (auto: --dtype)
    WeightDtype ssmStateDtype = WeightDtype::BFloat16;  ///< --mamba-ssm-cache-dtype (auto: conv dtype)
    /// Recurrent-state blocks a request holds beyond its own under speculative decoding (vLLM's
    /// MambaSpec.num_speculative_blocks: num_speculative_tokens)
    int speculativeStateBlocks = 0;
    /// Bytes the pool adds per token beyond its layers' pages (EngineRules::kvWorkspaceBytesPerToken)
    std::int64_t workspaceBytesPerToken = 0;
    /// SGLang's hybrid SWA pool (EngineRules::swaPoolRatioPpm): the sliding-window and chunked layers
    /// keep a pool of their own, this many millionths of the full layers' tokens; 0 = one pool.
    int swaPoolRatioPpm = 0;
    /// The recurrent states keep a pool of their own (SGLang's state pool), not blocks of this one.
    bool statesInOwnPool = false;
    /// A pipeline stage's groups (stageKvGroupLayout); nullopt: the model's own (kvGroupLayout).
    std::optional<KvGroupLayout> stageGroups = std::nullopt;
};

/// SGLang's split of a hybrid sliding-window model's cache (HybridSWAPoolConfigurator,
/// python/sglang/srt/model_executor/pool_configurator.py): a pool of full-attention tokens and one
/// of window tokens, swa_full_tokens_ratio of them, allocated together. kvscope counts a pool
/// "block" as one full-pool token with its ratio's share of a window token.
struct SwaPoolSplit
{
    int ratioPpm = 0;                  ///< --swa-full-tokens-ratio in millionths; 0 = no split
    std::int64_t window = 0;           ///< tokens a window layer keeps (sliding window or chunk)
    std::int64_t fullTokenBytes = 0;   ///< one token over the full layers
    std::int64_t windowTokenBytes = 0; ///< one token over the window layers
    bool enabled() const { return ratioPpm > 0; }
    /// cell_size = full + ratio x window bytes, in millionths of a byte
    std::int64_t cellMicroBytes() const;
    /// Window tokens a sequence of `tokens` keeps: the last `window`.
    std::int64_t windowTokens(std::int64_t tokens) const { return std::min(tokens, window); }
    /// Full-pool tokens a sequence of `tokens` takes up: its tokens, or its window tokens over
    /// the ratio when the window pool binds first.
    std::int64_t blocks(std::int64_t tokens) const;
    /// The window pool beside `fullTokens` full-pool tokens: int(full x ratio).
    std::int64_t windowPoolTokens(std::int64_t fullTokens) const;
};

/// The pool vLLM allocates: groups, the block size it settles on and the page
/// every layer slot shares.
struct KvCacheLayout
{
    KvGroupLayout groups;
    std::int64_t bytesPerTokenPerLayer = 0; ///< attention page of one token
    std::int64_t stateBytesPerLayer = 0;    ///< one recurrent layer, one sequence, before padding
    int requestedBlockSize = 16;
    int blockSize = 16;            ///< effective: raised for recurrent state pages, 64 for sparse MLA
    std::int64_t pageBytes = 0;    ///< one block of one layer slot (a state page padded to it)
    int stateBlocksPerRequest = 1; ///< blocks of each recurrent group a running request holds
    std::int64_t workspaceBytesPerToken = 0; ///< per token beyond the layers' pages (SGLang's FP4 cache)
    SwaPoolSplit swaSplit;                   ///< SGLang's hybrid SWA pool; disabled for one pool
    /// One block of the pool: a page in every slot of a group, and the block's tokens' workspace.
    std::int64_t poolBlockBytes() const;
    /// Whole pool blocks `bytes` hold (SGLang's split: int(available // cell_size)).
    std::int64_t blocksIn(std::int64_t bytes) const;
    /// Bytes `blocks` pool blocks take, rounded up.
    std::int64_t bytesOf(std::int64_t blocks) const;
};

/// vLLM's block size: DeepSeek-V3.2's sparse MLA backend supports 64 only; a
/// hybrid recurrent model raises it to 16 x ceil(state page / (16 x attention
/// token page)) so one attention page holds one state page
/// (HybridAttentionMambaModelConfig.verify_and_update_config, kernel alignment 16).
KvCacheLayout kvCacheLayout(const ModelArch &model, const KvCacheOptions &options);

/// Blocks one KV cache group of each kind holds (a group spans groupSize layer
/// slots; one block covers a page in each).
struct GroupBlocks
{
    std::int64_t full = 0;
    std::int64_t sliding = 0;
    std::int64_t chunked = 0;
    std::int64_t recurrent = 0;
    /// Over every group of `groups`: groups of each kind x their blocks.
    std::int64_t total(const KvGroupLayout &groups) const;
};

/// Per group, for one sequence of `tokens` tokens: full layers ceil(tokens / block),
/// windows and chunks the blocks they touch, recurrent layers one state block.
GroupBlocks sequenceBlocksPerGroup(const ModelArch &model, const KvCacheLayout &layout, std::int64_t tokens);

/// Blocks from vLLM's pool that one sequence of `tokens` tokens holds, over every group.
std::int64_t blocksPerSequence(const ModelArch &model, const KvCacheLayout &layout, std::int64_t tokens);

/// The blocks of a prefix of `sharedPrefix` tokens that requests of `tokens` tokens share:
/// vLLM's prefix cache hashes full blocks only (hash_block_tokens, vllm/v1/core/kv_cache_utils.py),
/// so each full block of the prefix is held once and a partial last block by every request. For
/// layouts of one full-attention group (validateSharedPrefix); 0 without a prefix.
std::int64_t sharedPrefixBlocks(const KvCacheLayout &layout, std::int64_t sharedPrefix, std::int64_t tokens);

/// Tokens of a `promptLen`-token prompt whose first `sharedPrefix` tokens are already in the
/// prefix cache that the engine takes from it instead of computing them: whole blocks of
/// `blockSize` (SGLang's pages) within the prefix, and never the prompt's last token, which must
/// run to give the first token's logits (vLLM: max_cache_hit_length = request.num_tokens - 1,
/// KVCacheManager.get_computed_blocks in vllm/v1/core/kv_cache_manager.py; SGLang: max_prefix_len
/// = input_len - 1, Req.init_next_round_input in python/sglang/srt/managers/schedule_batch.py).
std::int64_t prefixCacheHitTokens(std::int64_t sharedPrefix, std::int64_t promptLen, std::int64_t blockSize);

/// Pool blocks `batch` sequences of `tokens` tokens hold when they share their first
/// `sharedPrefix` tokens: the shared blocks once, the rest per sequence.
std::int64_t batchBlocks(const ModelArch &model, const KvCacheLayout &layout, std::int64_t batch,
                         std::int64_t tokens, std::int64_t sharedPrefix = 0);

/// KV cache and state bytes for `batch` sequences of `tokens` tokens on one
/// GPU, with windows, whole blocks, padded state pages and group padding applied,
/// and the blocks of a shared prefix held once.
std::int64_t kvCacheBytes(const ModelArch &model, const KvCacheLayout &layout, std::int64_t batch,
                          std::int64_t tokens, std::int64_t sharedPrefix = 0);

/// Per group, the blocks one request of `maxModelLen` tokens reserves at admission
/// (vLLM max_memory_usage_bytes: full groups cdiv(len, block); sliding groups
/// cdiv(min(W - 1 + max_num_batched_tokens, len), block) + 1; chunked groups
/// cdiv(min(chunk + max_num_batched_tokens, len), block); recurrent groups 1).
GroupBlocks requestBlocksPerGroup(const ModelArch &model, const KvCacheLayout &layout,
                                  std::int64_t maxModelLen, std::int64_t maxNumBatchedTokens);

/// Blocks one request of `maxModelLen` tokens reserves at admission, over every group.
std::int64_t blocksPerRequest(const ModelArch &model, const KvCacheLayout &layout, std::int64_t maxModelLen,
                              std::int64_t maxNumBatchedTokens);

} // namespace kvscope
