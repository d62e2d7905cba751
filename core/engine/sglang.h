// SPDX-License-Identifier: MIT
// SGLang's memory pool: a static share of the GPU for weights and a
// token-level KV pool, the rest left to activations and CUDA graphs.
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/model/modelarch.h"

#include <cstdint>

#include <QString>

namespace kvscope {

/// SGLang's defaults for one GPU (ServerArgs._handle_gpu_memory_settings in
/// python/sglang/srt/server_args.py, the heuristic of sgl-project/sglang#10975).
/// gpu_mem is nvidia-smi's memory.total in MiB (get_nvgpu_memory_capacity in
/// python/sglang/srt/utils/common.py), the preset's memory_mib_nvidia_smi; GPUs without that figure
/// (custom ones) use their own total. Then
///   reserved = 512 + max(chunked_prefill_size, 2048) x 1.5 + cuda_graph_max_bs x 2 + tp / 8 x 1024 MiB,
///   with --enable-dp-attention + cuda_graph_max_bs x dp x 3 (and x 1.5 more above 300),
///   at least 10,240 MiB above 60 GiB, and --mem-fraction-static = round((gpu_mem - reserved) / gpu_mem, 3).
/// `tensorParallelSize` is --tp-size, every GPU; `attentionGroups` --dp-size under --enable-dp-attention.
struct SglangDefaults
{
    std::int64_t chunkedPrefillSize = 0;   ///< --chunked-prefill-size by GPU memory
    std::int64_t cudaGraphMaxBs = 0;       ///< --cuda-graph-max-bs by GPU memory and TP
    std::int64_t reservedMib = 0;          ///< what the default keeps for activations and CUDA graphs
    std::int64_t memFractionStaticPpm = 0; ///< the default --mem-fraction-static, in millionths
};
/// `drafterReserveMib` is what a speculative drafter adds to the reserve after the floor (2,048 MiB
/// for EAGLE and MTP drafts, 6,144 for a standalone draft model: sglangDrafterReserveMib()).
SglangDefaults sglangDefaults(const GpuSpec &gpu, int tensorParallelSize, std::int64_t drafterReserveMib = 0,
                              int attentionGroups = 1);

/// GPU memory in use before SGLang loads the weights: the CUDA context and, with
/// tensor parallelism, the NCCL communicators. SGLang measures its "total" after
/// them (init_torch_distributed returns the free memory). kvscope takes the
/// figures vLLM's worker logs at the same point on an H100 (worker init memory
/// snapshot of the vLLM 0.19 logs in tests/data/vllm-logs.json): 0.51 GiB at TP=1
/// (id 1) and 1.53 GiB at TP>1 (id 3); PCIe-only GPUs keep the TP=1 figure.
std::int64_t sglangPreloadBytes(const GpuSpec &gpu, int tensorParallelSize);

/// SGLang gives these architectures a full-attention pool and a sliding-window pool of their own
/// (is_hybrid_swa_model); every other one keeps every token in every layer of one pool.
bool sglangSplitsSlidingWindowPool(const ModelArch &model);

/// Why SGLang's pool cannot be planned for `model` (its hybrid pools are not
/// modelled), or empty when it can.
QString sglangUnsupportedReason(const ModelArch &model);

/// SGLang's default --max-running-requests for a pool of `maxTotalTokens` and
/// --context-length `contextLength` (ModelRunnerKVCacheMixin.init_memory_pool):
/// min(max(int(tokens / context x 512), 2048), 4096).
std::int64_t sglangDefaultMaxRunningRequests(std::int64_t maxTotalTokens, std::int64_t contextLength);

/// SGLang's --max-running-requests under speculative decoding when none is given: "Max running requests
/// is reset to 48 for speculative decoding" (_handle_eagle_family and _handle_ngram,
/// python/sglang/srt/arg_groups/speculative_hook.py; in ServerArgs since 2025).
inline constexpr std::int64_t SglangSpeculativeMaxRunningRequests = 48;

/// ServerArgs.mamba_full_memory_ratio's default, 0.9 (python/sglang/srt/server_args.py), in millionths: the
/// state pool's memory for every unit the KV pool gets.
inline constexpr std::int64_t SglangMambaFullMemoryRatioPpm = 900'000;

/// State-pool slots a running request stands for (MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO,
/// python/sglang/srt/model_executor/model_runner.py): max_running_requests is at most a third of them.
inline constexpr std::int64_t SglangStateSlotsPerRunningRequest = 3;

/// ServerArgs.swa_full_tokens_ratio's default, 0.8 (python/sglang/srt/server_args.py), in millionths.
inline constexpr int SglangDefaultSwaFullTokensRatioPpm = 800'000;

/// SGLang's page size: 64 for DeepSeek sparse attention (NSA backends), else 1.
int sglangPageSize(const ModelArch &model);

} // namespace kvscope
