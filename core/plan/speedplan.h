// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/speedconstants.h"
#include "core/plan/stepterms.h"

#include <cstdint>
#include <optional>

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

/// What one pass on one GPU reads, computes and synchronises, before the
/// calibrated constants price it: the step model's inputs (SpeedModel::price).
struct StepQuantities
{
    double weightReadSeconds = 0;        ///< weight and activation bytes / datasheet bandwidth
    double quantizedReadSeconds = 0;     ///< the quantized weights' share of it
    double kvReadSeconds = 0;            ///< KV cache and recurrent state bytes / bandwidth
    double fp8KvReadSeconds = 0;         ///< the same when the cache is FP8, else 0
    double computeSeconds = 0;           ///< FLOPs over their tensor-core peaks
    std::int64_t allReduces = 0;         ///< tensor-parallel all-reduces in the pass
    double allReduceTransferSeconds = 0; ///< their bytes over the links
    /// Data-parallel ranks' MoE layers: the exchanges (a dispatch and a combine a layer) of the
    /// ranks' tokens with the GPUs that hold their experts, and their bytes over the links.
    std::int64_t expertExchanges = 0;
    double expertExchangeTransferSeconds = 0;
    std::int64_t moeLayers = 0; ///< MoE layers the pass runs
    /// Tokens routed to this GPU's experts, summed over the MoE layers: each token's top-k copies
    /// (its share of them on this GPU under expert parallelism), once per MoE layer.
    double routedTokenLayers = 0;
    /// Pipeline parallelism: the handovers between stages (stages - 1), and their bytes over the links
    /// (each token's hidden state and residual, split over the tensor-parallel ranks that send them).
    std::int64_t pipelineTransfers = 0;
    double pipelineTransferSeconds = 0;
    /// Pipeline parallelism: the batches in flight over the stages (vLLM's batch queue), and the share of
    /// a pass's GPU time the busiest stage takes.
    std::int64_t pipelineBatches = 0;
    double busiestStageShare = 0;
    /// The busiest stage's time for one batch: its share of the pass's GPU time, or the engine's host
    /// work for the batch when that is longer.
    double busiestStageSeconds = 0;
    double pipelinePassSeconds = 0;   ///< one batch's pass through every stage, handovers included
    std::int64_t sequences = 0;       ///< sequences of a decode step; 0 for a prefill
    std::int64_t requests = 0;        ///< new requests a prefill admits; 0 for a decode step
    double images = 0;                ///< images the vision tower encodes (a chunk: its prompt's share)
    double encoderComputeSeconds = 0; ///< the tower's FLOPs for those images over the 16-bit peak
};

/// The calibrated constants as they apply to one scenario (its GPU, weight
/// kernel, KV dtype and engine): what SpeedModel::price multiplies the
/// quantities by. The formula sheet shows them.
struct StepPrices
{
    double dequantizationCost = 0;      ///< extra seconds per second of reading the quantized weights
    double fp8KvCost = 0;               ///< extra seconds per second of reading an FP8 cache; 0 otherwise
    double allReduceLatencySeconds = 0; ///< per all-reduce
    double moeLayerSeconds = 0;         ///< per MoE layer and pass
    double routedTokenSeconds = 0;      ///< per token routed to an expert, per MoE layer
    double stepSeconds = 0;             ///< per pass, the scenario's engine
    double sequenceSeconds = 0;         ///< per sequence of a decode step
    double requestSeconds = 0;          ///< per new request of a prefill
    double speculativeStepSeconds = 0;  ///< per step with a drafter (vLLM)
    double draftPassSeconds = 0;        ///< per draft pass beyond its reads (vLLM)
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

    StepQuantities quantities;
    StepBreakdown breakdown; ///< where the time goes; adds up to seconds

    // Times in seconds
    double memorySeconds = 0;    ///< bytes / bandwidth
    double computeSeconds = 0;   ///< each kind of FLOPs over its peak
    double allReduceSeconds = 0; ///< tensor-parallel all-reduces (not overlapped): latency and transfer
    double seconds = 0;          ///< the step model: breakdown.total()
    double idealSeconds = 0;     ///< the roofline alone: max(memory, compute) + all-reduce transfer
    SpeedBound bound = SpeedBound::Memory;
};

/// Steady-state serving, as `vllm bench serve --max-concurrency N` measures it:
/// `concurrency` requests always in flight, each a `promptLen`-token prompt and
/// `outputLen` tokens out, a new one admitted as one finishes. Every step runs
/// the decoding sequences; some steps also carry a chunk of a new prompt
/// (chunked prefill within --max-num-batched-tokens), and those steps are longer:
/// the inter-token latency is the average step.
struct ServingCost
{
    std::int64_t concurrency = 0;
    std::int64_t promptLen = 0;
    std::int64_t outputLen = 0;
    std::int64_t tokenBudget = 0;        ///< --max-num-batched-tokens (SGLang: --chunked-prefill-size)
    std::int64_t cachedPromptTokens = 0; ///< of the prompt, the shared prefix's cached blocks (not computed)
    std::int64_t prefillStepsPerRequest =
        0;                               ///< steps one prompt's prefill takes: ceil(computed / budget left)
    std::int64_t stepsPerRequest = 0;    ///< its prefill steps and decode steps, or more when prefill limits
    std::int64_t decodingSequences = 0;  ///< sequences decoding in a step (average, rounded)
    std::int64_t prefillChunkTokens = 0; ///< prompt tokens a step with prefill work carries
    double prefillStepShare = 0;         ///< share of steps that carry prefill work
    ForwardCost decodeStep;              ///< a step of decodes alone
    ForwardCost mixedStep;               ///< a step that also carries a prompt chunk
    StepBreakdown meanStep;              ///< the average step: the two, weighted by their share
    double interTokenSeconds = 0;        ///< mean inter-token latency (TPOT): meanStep.total()
    double timeToFirstTokenSeconds = 0;  ///< the prompt's steps, the wait for budget, request handling
    double requestSeconds = 0;           ///< end to end: first token, then outputLen - 1 steps
    double outputTokensPerSecond = 0;    ///< all requests: concurrency x outputLen / requestSeconds

    // Open loop (--request-rate): requests arrive at a rate, and `concurrency` is the whole
    // number of requests in flight that rate keeps busy (Little's law: in flight = rate x
    // requestSeconds, the smallest count the rate does not outgrow).
    double requestRate = 0;      ///< requests a second; 0 for a closed loop of `concurrency` users
    double requestsInFlight = 0; ///< rate x requestSeconds (may be below 1: the server idles between)
    bool saturated = false;      ///< the rate outgrows every count the KV cache holds: requests queue
    double maxRequestRate = 0;   ///< saturated: the most requests a second it completes (at `concurrency`)
};

/// Decoding with a drafter (--speculative-config): each step the drafter proposes k tokens in k
/// passes of its own, and the target verifies them all in one pass of k + 1 tokens a sequence,
/// keeping the accepted ones and one of its own.
struct SpeculativeSpeed
{
    std::int64_t draftTokens = 0; ///< num_speculative_tokens: k
    double acceptanceRate = 0;    ///< the chance each drafted token is accepted
    QString acceptanceSource;     ///< --draft-acceptance-rate, or the publication the default is fitted to
    double tokensPerStep = 0;     ///< 1 + rate + ... + rate^k, a sequence's tokens a step
    ForwardCost verifyPass;       ///< the target over the batch's k + 1 tokens a sequence
    ForwardCost draftPass;        ///< one drafter pass over the batch (none for n-gram)
    double stepSeconds = 0;       ///< the verify pass and k draft passes
    double tokensPerSecondPerSequence = 0; ///< tokensPerStep / stepSeconds
    double tokensPerSecond = 0;            ///< the batch's
    double speedup = 0;                    ///< over decoding without the drafter, at the same batch
    /// Smallest batch at which speculation stops paying (speedup below 1); -1: it pays at every
    /// batch the search reaches.
    std::int64_t breakEvenBatch = -1;
};

/// Speed figures of a plan, a roofline per GPU. Computed by planSpeed().
struct SpeedPlan
{
    bool available = false; ///< false when the GPU lacks a bandwidth or TFLOPS figure the model needs
    QStringList notes;      ///< why figures are missing, which peak applies

    /// Why the engine would not start (MemoryPlan::startFailure; empty when it starts): the
    /// figures below then describe a server that never runs, and views show none.
    QString startFailure;
    /// The step is priced for a server that runs: the GPU has every figure and the engine starts. Every view
    /// that draws a speed figure asks this, and shows whyNotPriced() instead when it is false.
    bool priced() const { return available && startFailure.isEmpty(); }
    /// Why no figure: the engine's start failure, else the missing GPU figures' notes.
    QStringList whyNotPriced() const { return startFailure.isEmpty() ? notes : QStringList{startFailure}; }

    // Inputs as resolved
    std::int64_t requestedBatchSize = 0; ///< --batch-size
    /// Sequences decoding at once: --batch-size, or as many of them as the KV cache holds at
    /// --seq-len when fewer (the engine queues the rest). The decode figures are for these.
    std::int64_t batchSize = 0;
    /// vLLM's data-parallel ranks or SGLang's attention groups stepping at once, each its share of
    /// batchSize (rankBatchSize); 1 without them.
    int ranks = 1;
    std::int64_t rankBatchSize = 0;
    std::int64_t contextLen = 0; ///< tokens per sequence in the decode step (--seq-len)
    std::int64_t promptLen = 0;  ///< tokens of the prefill (--prompt-len, default --seq-len)
    /// Of those, the ones the prefix cache supplies (--shared-prefix-len's whole blocks, never the
    /// last token): the prefill computes the rest, attending to all of them.
    std::int64_t cachedPromptTokens = 0;
    double bandwidthEfficiency =
        1; ///< of the weight reads: calibrated for the GPU's generation, or --bandwidth-efficiency
    double kvBandwidthEfficiency = 1; ///< of the KV reads (the same override)
    double computeEfficiency = 1;
    StepPrices prices;
    QString
        calibrationSource; ///< the user's measurement the bandwidth efficiencies are fitted to; empty = none

    // Hardware figures used
    GpuGeneration generation = GpuGeneration::Other;
    WeightKernel weightKernel = WeightKernel::SixteenBit;
    MoeKernel moeKernel = MoeKernel::FusedMoe; ///< MoE: what a routed copy costs beyond its FLOPs
    ComputeFormat computeFormat = ComputeFormat::BFloat16;
    bool weightOnly = false; ///< quantized weights dequantized to 16 bits before multiplying
    /// Weight-only kernels (dequantizesOnVectorUnits): bandwidth over the FP32 vector rate, which turns
    /// the fitted vector operations per weight byte into prices.dequantizationCost; 1 for the rest.
    double dequantizationScale = 1;
    double peakTflops = 0;           ///< of computeFormat, dense
    double peak16Tflops = 0;         ///< the 16-bit peak (attention, unquantized layers)
    double bandwidthGBs = 0;         ///< memory bandwidth, GB/s = 10^9 B/s
    double interconnectGBs = 0;      ///< as the preset lists it (both directions); 0 without TP
    double expectedExperts = 0;      ///< MoE: routed experts a decode step touches per MoE layer (expected)
    double encoderFlopsPerImage = 0; ///< the vision tower's FLOPs for one request image, one GPU; 0 = none

    ForwardCost decode;  ///< one decode step: every sequence of the batch emits one token
    ForwardCost prefill; ///< one sequence's prompt, alone on the GPU(s)
    /// Steady-state serving of --batch-size users with --prompt-len prompts and
    /// --seq-len minus that many output tokens; none without a prompt shorter than --seq-len.
    std::optional<ServingCost> serving;
    /// With --speculative-config: the decode step with the drafter, at `batchSize`; none without
    /// a published or given acceptance rate (n-gram).
    std::optional<SpeculativeSpeed> speculative;

    double decodeTokensPerSecond = 0;            ///< batch / decode step
    double decodeTokensPerSecondPerSequence = 0; ///< 1 / decode step
    double decodeTokensPerSecondIdeal = 0;       ///< batch / ideal decode step
    std::int64_t ridgeBatch = -1;      ///< smallest batch whose decode step is compute-bound; -1 = none
    std::int64_t ridgeBatchIdeal = -1; ///< the same on the ideal roofline
};

} // namespace kvscope
