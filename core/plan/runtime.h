// SPDX-License-Identifier: MIT
#pragma once

#include "gpu/gpuspec.h"
#include "model/modelarch.h"

#include <cstdint>

namespace kvscope {

/// vLLM's scheduler defaults for the OpenAI server: 1024 sequences and 8192
/// batched tokens on GPUs with >= 70 GiB that are not A100s, else 256 and 2048
/// (vllm/engine/arg_utils.py).
std::int64_t defaultMaxNumSeqs(const GpuSpec &gpu);
std::int64_t defaultMaxNumBatchedTokens(const GpuSpec &gpu);

/// Peak activation memory of vLLM's start-up profiling run on one GPU:
///   sampler   = max_num_seqs x vocab x 15 B   (logits, float32 copies, probabilities)
///   hidden    = max_num_batched_tokens x hidden x dtype bytes
///   MoE       = tokens x top-k x (max(2 x I/TP, hidden) + I/TP) x dtype bytes (fused-MoE workspace)
/// Calibrated on vLLM 0.19 start-up logs (H100; tests/data/vllm-logs.json, compared in docs/validation.md);
/// within about 3%. Throws kvscope::Error naming --max-num-seqs or --max-num-batched-tokens
/// and its value when its buffers pass 2^63 bytes.
std::int64_t activationBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                             std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens);

/// Memory outside PyTorch's allocator that vLLM subtracts: CUDA context and,
/// with tensor parallelism, NCCL buffers (0.25 GiB at TP=1, 2.07 GiB at TP>1 in vLLM 0.19 logs).
std::int64_t runtimeOverheadBytes(int tensorParallelSize);

/// Bytes per sampler logit element in the activation estimate.
inline constexpr std::int64_t SamplerBytesPerLogit = 15;

} // namespace kvscope
