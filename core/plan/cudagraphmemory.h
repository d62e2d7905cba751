// SPDX-License-Identifier: MIT
// vLLM's estimate of its CUDA-graph pool, which from 0.21 on leaves the budget before the KV cache:
// profile_cudagraph_memory (vllm/v1/worker/gpu_model_runner.py) captures the two largest graphs of
// each mode, takes the first capture's memory once and the second's for every other graph:
//   estimate = max over modes of the first capture + sum over modes of (graphs - 1) x per graph.
// What the graphs are follows vLLM's configuration; what one graph holds is measured (the constants
// in core/engine/runtime.h, fitted on the calibration logs' DEBUG lines).
#pragma once

#include "core/model/modelarch.h"

#include <cstdint>

namespace kvscope {

struct Scenario;

/// The graphs vLLM captures and what its profile measures of them, on one GPU.
struct CudaGraphProfile
{
    std::int64_t largestCaptureTokens = 0; ///< the largest capture size
    /// 2 with LoRA: vLLM captures each size without and with the adapters (cudagraph_specialize_lora, on
    /// by default since vllm-project/vllm#25914, October 2025, well before the estimate's 0.21:
    /// CudagraphDispatcher._get_lora_cases, vllm/v1/cudagraph_dispatcher.py).
    int loraCases = 1;
    std::int64_t piecewiseGraphs = 0; ///< PIECEWISE: every capture size, for each LoRA case
    std::int64_t fullGraphs = 0;      ///< FULL: the uniform-decode sizes, for each LoRA case (0 when refused)
    std::int64_t largestFullTokens = 0; ///< the first FULL capture's tokens
    int layers = 0;                     ///< decoder layers on this GPU (its pipeline stage's)
    std::int64_t splitBuffersBytes = 0; ///< FlashAttention 3's split-KV buffers in the first FULL capture
    std::int64_t firstCaptureBytes = 0; ///< max of the piecewise first capture and the FULL one
    std::int64_t perGraphBytes = 0;     ///< each further graph of either mode

    std::int64_t estimateBytes = 0; ///< first capture + (graphs - 1 of each mode) x per graph
};

/// The sizes vLLM captures graphs for (VllmConfig._set_cudagraph_sizes, vllm/config/vllm.py): 1, 2, 4, then
/// every 8 below 256 and every 16 from 256, up to --max-cudagraph-capture-size -- by default
/// min(max_num_seqs x decode tokens x 2, 512), 1024 for gpt-oss (GptOssForCausalLMConfig,
/// vllm/model_executor/models/config.py) -- and no more than --max-num-batched-tokens, which is added when
/// it falls below that largest size. Counted, not listed: a size may be any count the options allow.
struct CudaGraphSizes
{
    std::int64_t largest = 0;             ///< the largest size captured
    std::int64_t maxNumBatchedTokens = 0; ///< captured as well when at most `largest`

    /// How many sizes lie in [low, high].
    std::int64_t countIn(std::int64_t low, std::int64_t high) const;
    /// The largest size at most `high`; 0 when none.
    std::int64_t largestUpTo(std::int64_t high) const;
};
CudaGraphSizes vllmCudaGraphSizes(const Scenario &scenario, const ModelArch &model, std::int64_t maxNumSeqs,
                                  std::int64_t maxNumBatchedTokens);

/// The profile of `rankModel` (the stage's model under pipeline parallelism) at the plan's limits;
/// `dtypeBytes` is the activations' element size.
CudaGraphProfile vllmCudaGraphProfile(const Scenario &scenario, const ModelArch &rankModel,
                                      int tensorParallelSize, int dtypeBytes, std::int64_t maxNumSeqs,
                                      std::int64_t maxNumBatchedTokens);

} // namespace kvscope
