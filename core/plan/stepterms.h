// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>

#include <QString>

namespace kvscope {

/// Where the time of one forward pass goes: the named terms of the step model
/// (docs/methodology.md, "Speed"). Their seconds add up to the pass.
enum class StepTerm
{
    Weights,          ///< weight and activation bytes at the GPU's achieved bandwidth
    Dequantization,   ///< extra time of a quantized kernel per weight byte it reads
    KvCache,          ///< KV cache and recurrent state at the attention kernel's achieved bandwidth
    KvDequantization, ///< extra time of an FP8 KV cache per byte read
    Compute,          ///< tensor-core time the memory reads do not hide
    VisionEncoder,    ///< the vision tower encoding a new request's images (prefill only)
    AllReduce,        ///< tensor-parallel all-reduces: latency and transfer
    AllToAll,         ///< data-parallel ranks' MoE layers: tokens gathered to the experts and back
    PipelineTransfer, ///< pipeline parallelism: each stage sends its tokens' hidden states to the next
    PipelineWait,     ///< pipeline parallelism: the batches in flight queue at the busiest stage
    MoeOverhead,      ///< per MoE layer: routing, token permutation, grouped-GEMM launches
    StepOverhead,     ///< per step: scheduler, sampler, launches, host work of the engine
    SequenceOverhead, ///< per sequence in the step: the engine's host work for each
    RequestOverhead,  ///< per new request (prefill only): API server, tokenizer, admission
};

inline constexpr std::size_t StepTermCount = std::size_t(StepTerm::RequestOverhead) + 1;

/// Seconds per term, indexed by StepTerm.
struct StepBreakdown
{
    std::array<double, StepTermCount> seconds{};

    double &operator[](StepTerm term) { return seconds[std::size_t(term)]; }
    double operator[](StepTerm term) const { return seconds[std::size_t(term)]; }
    double total() const;
};

/// "weights", "kv_cache", ...: the keys of calc --json's breakdowns.
QString stepTermKey(StepTerm term);
/// "Weights read", "KV cache read", ...: translated by the caller's context (kvscope::StepTerm).
const char *stepTermLabel(StepTerm term);

} // namespace kvscope
