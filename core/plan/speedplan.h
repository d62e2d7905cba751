// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QString>
#include <QStringList>

namespace kvscope {

/// Which side of the roofline limits a forward pass.
enum class SpeedBound
{
    Memory,
    Compute
};

/// The number format the decoder's linear layers multiply in: the format of
/// the tensor-core peak that applies (FP8 weights on a GPU without FP8 tensor
/// cores are dequantized and multiply in 16 bits).
enum class ComputeFormat
{
    Float32,
    Float16,
    BFloat16,
    Fp8,
    Int8,
    Fp4
};

/// One forward pass on one GPU: what it moves, what it computes, how long it takes.
struct ForwardCost
{
    // Bytes read or written, per GPU
    std::int64_t weightBytes = 0;     ///< weights the pass reads (MoE: the experts it touches, expected)
    std::int64_t kvBytes = 0;         ///< KV cache read (decode) or written (prefill)
    std::int64_t activationBytes = 0; ///< hidden states in and out of every layer, float32 logits
    std::int64_t bytes() const { return weightBytes + kvBytes + activationBytes; }

    // Floating-point operations, per GPU (multiply-add = 2)
    double quantizedFlops = 0; ///< linear layers stored by the quantization, at the compute format's peak
    double denseFlops = 0;     ///< other linear layers (lm_head, routers...), at the 16-bit peak
    double attentionFlops = 0; ///< QK^T and PV, at the 16-bit peak
    double flops() const { return quantizedFlops + denseFlops + attentionFlops; }

    // Times in seconds
    double memorySeconds = 0;    ///< bytes / bandwidth
    double computeSeconds = 0;   ///< each kind of FLOPs over its peak
    double allReduceSeconds = 0; ///< tensor-parallel all-reduces (not overlapped)
    double seconds = 0; ///< max(memory / bandwidth efficiency, compute / compute efficiency) + all-reduce
    double idealSeconds = 0; ///< the same with both efficiencies 1
    SpeedBound bound = SpeedBound::Memory;
};

/// Speed figures of a plan, a roofline per GPU. Computed by planSpeed().
struct SpeedPlan
{
    bool available = false; ///< false when the GPU lacks a bandwidth or TFLOPS figure the model needs
    QStringList notes;      ///< why figures are missing, which peak applies

    // Inputs as resolved
    std::int64_t batchSize = 0;
    std::int64_t contextLen = 0; ///< tokens per sequence in the decode step (--seq-len)
    std::int64_t promptLen = 0;  ///< tokens of the prefill (--prompt-len, default --seq-len)
    double bandwidthEfficiency = 1;
    double computeEfficiency = 1;

    // Hardware figures used
    ComputeFormat computeFormat = ComputeFormat::BFloat16;
    bool weightOnly = false;    ///< quantized weights dequantized to 16 bits before multiplying
    double peakTflops = 0;      ///< of computeFormat, dense
    double peak16Tflops = 0;    ///< the 16-bit peak (attention, unquantized layers)
    double bandwidthGBs = 0;    ///< memory bandwidth, GB/s = 10^9 B/s
    double interconnectGBs = 0; ///< as the preset lists it (both directions); 0 without TP
    double expectedExperts = 0; ///< MoE: routed experts a decode step touches per MoE layer (expected)

    ForwardCost decode;  ///< one decode step: every sequence of the batch emits one token
    ForwardCost prefill; ///< one sequence's prompt, alone on the GPU(s)

    double decodeTokensPerSecond = 0;            ///< batch / decode step
    double decodeTokensPerSecondPerSequence = 0; ///< 1 / decode step
    double decodeTokensPerSecondIdeal = 0;       ///< batch / ideal decode step
    std::int64_t ridgeBatch = -1;      ///< smallest batch whose decode step is compute-bound; -1 = none
    std::int64_t ridgeBatchIdeal = -1; ///< the same on the ideal roofline
};

} // namespace kvscope
