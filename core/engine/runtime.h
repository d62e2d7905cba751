// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/units.h"
#include "core/gpu/gpuspec.h"
#include "core/model/modelarch.h"

#include <cstdint>

namespace kvscope {

/// vLLM's scheduler defaults for the OpenAI server: 1024 sequences and 8192
/// batched tokens on GPUs with >= 70 GiB that are not A100s, else 256 and 2048
/// (vllm/engine/arg_utils.py).
std::int64_t defaultMaxNumSeqs(const GpuSpec &gpu);
std::int64_t defaultMaxNumBatchedTokens(const GpuSpec &gpu);

/// The images a prompt may carry when --limit-mm-per-prompt does not say: 999 for each modality
/// (MultiModalConfig.get_limit_per_prompt, vllm/config/multimodal.py: V1's default from 0.10 on).
inline constexpr std::int64_t VllmDefaultImagesPerPrompt = 999;

/// Peak activation memory of vLLM's start-up profiling run on one GPU:
///   sampler   = max_num_seqs x vocab x samplerBytesPerLogit (logits, float32 copies, probabilities;
///               15 B in vLLM 0.19, per release in core/engine/engine.h)
///   hidden    = max_num_batched_tokens x hidden x dtype bytes
///   MoE       = tokens x top-k x (max(2 x I/TP, hidden) + I/TP) x dtype bytes (fused-MoE workspace),
///               TP being the GPUs each expert is split over (`tensorParallelSize` here: TP x DP
///               without expert parallelism, 1 with it; core/plan/expertparallel.h)
/// Calibrated on vLLM 0.19 start-up logs (H100; tests/data/vllm-logs.json, compared in docs/validation.md);
/// within about 3%. Throws kvscope::Error naming --max-num-seqs or --max-num-batched-tokens
/// and its value when its buffers pass 2^63 bytes.
std::int64_t activationBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                             std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens,
                             std::int64_t samplerBytesPerLogit);

/// What vLLM's profiling run does for a multimodal model's encoder (GPUModelRunner.profile_run,
/// vllm/v1/worker/gpu_model_runner.py, with MultiModalBudget): it encodes dummy images of the
/// largest size and keeps their outputs in the encoder cache through the language model's dummy
/// forward and sampler run, so they add to the activation peak. All zero for a text model.
struct EncoderProfile
{
    std::int64_t itemEmbeddings = 0; ///< the largest image's encoder outputs (max tokens per item)
    /// encoder_cache_size = max(--max-num-batched-tokens, itemEmbeddings) (compute_mm_encoder_budget,
    /// vllm/v1/core/encoder_cache_manager.py): "Encoder cache will be initialized with a budget of ...".
    std::int64_t budget = 0;
    /// max(1, min(budget / itemEmbeddings, max_num_seqs x max(1, min(999, max_model_len /
    /// itemEmbeddings)))): "... and profiled with N image items of the maximum feature size".
    std::int64_t items = 0;
    /// items x (budget if padded, else itemEmbeddings) x the text hidden size (x 1 + its DeepStack
    /// mergers for Qwen3-VL, whose outputs carry their features) x dtype bytes.
    std::int64_t heldBytes = 0;
    /// The dummy images' pixel values, a local of profile_run alive through the whole run
    /// (visionPixelBytes, core/model/visiontower.h).
    std::int64_t pixelBytes = 0;
    /// The tower's activations at the peak of encoding the items in one batch (visionTowerPeakBytes).
    std::int64_t towerPeakBytes = 0;

    /// The profiling run's peak given the language model's (its dummy forward and sampler): the
    /// tower's forward comes first, then the language model's with the outputs held, the pixels
    /// throughout: pixels + max(tower, language model + held outputs).
    std::int64_t peakBytes(std::int64_t languageModelPeak) const;
};

/// The encoder profile of `model` (largestImage() sizes its largest item) with the tower split over
/// `tensorParallelSize` GPUs; throws kvscope::Error naming --max-num-batched-tokens past 2^63 bytes.
EncoderProfile encoderProfile(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                              std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens,
                              std::int64_t maxModelLen, bool paddedToBudget);

/// Peak activation memory of the profiling run on a pipeline stage before the last, which
/// computes no logits and runs no sampler (GPUModelRunner.profile_run samples on the last rank
/// only, vllm/v1/worker/gpu_model_runner.py): its forward pass's largest buffers, the hidden
/// and MoE terms above (experts split over `expertTensorParallelSize` GPUs) plus a dense MLP's
/// gate/up output and activation over max_num_batched_tokens (tokens x 3 x I/TP x dtype bytes).
/// On the stages with the sampler the calibrated sampler term is the peak, and the MLP's buffers
/// (freed before sampling) are within it. Throws as activationBytes() does.
std::int64_t forwardPeakBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                              int expertTensorParallelSize, std::int64_t maxNumBatchedTokens);

/// Model Runner V2's profiling peak on a start that loads its compiled graphs from vLLM's compile cache
/// (profile_run, vllm/v1/worker/gpu/model_runner.py): the forward pass over max_num_batched_tokens
/// (forwardPeakBytes), then, with its hidden states still held, the sampler on one row of logits per
/// dummy request (min(max_num_batched_tokens, max_num_seqs) rows of the full vocabulary in the model's
/// dtype) and Sampler.sample's float32 copy of them (vllm/v1/worker/gpu/sample/sampler.py): the larger
/// of the two. A start that compiles holds more, which no rule here sizes (docs/validation.md, Model
/// Runner V2). Throws as activationBytes() does.
std::int64_t modelRunnerV2WarmPeakBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                                        int expertTensorParallelSize, std::int64_t maxNumSeqs,
                                        std::int64_t maxNumBatchedTokens);

/// GPUs whose only GPU-to-GPU path is PCIe (an interconnect of at most PCIe 5.0 x16's 128 GB/s):
/// vLLM's custom all-reduce allocates no peer buffers there beyond two GPUs.
bool pcieOnly(const GpuSpec &gpu);

/// Memory outside PyTorch's allocator that vLLM subtracts: CUDA context and,
/// with tensor parallelism over NVLink, NCCL and custom all-reduce buffers
/// (0.25 GiB at TP=1, 2.07 GiB at TP>1 in vLLM 0.19 H100 logs, which run the all-reduce + RMSNorm
/// fusion: vLLM's rules ask for the TP=1 figure where it does not run). PCIe-only GPUs keep
/// the TP=1 figure at any TP: 0.25 GiB on 2 x RTX 4090 (vllm-project/vllm#13061) and
/// 0.20 GiB on a multi-GPU RTX 3090 rig (vllm-project/vllm#14447).
std::int64_t runtimeOverheadBytes(const GpuSpec &gpu, int tensorParallelSize);

/// What one CUDA graph holds in vLLM's profile of its graph pool (core/plan/cudagraphmemory.h), fitted on
/// the "Estimated PIECEWISE/FULL CUDA graph memory: X MiB first-capture + (n-1) x Y MiB per-graph" DEBUG
/// lines of the vLLM 0.19 calibration logs (tests/data/vllm-logs.json, `cudagraph_profile_mib`): the median
/// piecewise first capture (84-160 MiB over the five logs) and the median of each mode's memory per
/// further graph over its decoder layers (4-8 MiB a graph for 28-42 layers; one 26 MiB outlier at TP 2).
/// docs/validation.md compares the estimate with every log that prints it.
inline constexpr std::int64_t VllmPiecewiseFirstCaptureBytes = 138 * MiB;
inline constexpr std::int64_t VllmCudaGraphBytesPerLayer = 192 * KiB;

} // namespace kvscope
