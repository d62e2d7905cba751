// SPDX-License-Identifier: MIT
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/plan/memoryplan.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speedplan.h"

#include <cstdint>

#include <QList>

namespace kvscope {

struct Scenario;

/// Routed experts one MoE layer reads when `tokens` tokens each pick `topK` of
/// `experts` independently and uniformly: E x (1 - (1 - k/E)^tokens) in expectation
/// (k at one token, E for many).
double expectedExpertsTouched(int experts, int topK, std::int64_t tokens);

/// Seconds the bytes of one all-reduce of `messageBytes` among `gpus` GPUs spend on the links,
/// beyond its latency: a ring sends 2(n-1)/n of the message over each GPU's link, one way at a
/// time (`linkGBs` is the preset's figure over both directions).
double allReduceTransferSeconds(int gpus, double messageBytes, double linkGBs);

/// Whether vLLM has FlashInfer's MXFP4 x MXFP8 MoE kernel for a scenario whose weights are `weights`
/// (what --moe-mxfp8-activations asks for): vLLM, MXFP4 experts, a GPU of compute capability 10.x
/// (get_mxfp4_backend, vllm/model_executor/layers/quantization/mxfp4.py). Elsewhere vLLM passes over
/// VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8 to its next backend.
bool offersMoeMxfp8Kernel(const Scenario &s, QuantMethod weights);
/// Whether the experts run that way: under vLLM when --moe-mxfp8-activations asks and
/// offersMoeMxfp8Kernel; under SGLang by its own default for gpt-oss's MXFP4 checkpoint on compute
/// capability 10.x (--moe-runner-backend flashinfer_mxfp4).
bool runsMoeMxfp8Kernel(const Scenario &s, QuantMethod weights);
/// The MoE kernel family a scenario's experts (in `weights`) run on: FlashInfer's TensorRT-LLM MoE for
/// MXFP4 experts on compute capability 10.x where the engine takes it (the TensorRT-LLM FP4 MoE), the
/// fused MoE elsewhere.
MoeKernel moeKernelFor(const Scenario &s, QuantMethod weights);

QString speedBoundName(SpeedBound bound);        ///< "memory", "compute"
QString computeFormatName(ComputeFormat format); ///< "bf16", "fp8", "int8"...

/// The step model of one scenario on its GPU, per GPU, at any batch size: what
/// a pass reads, computes and synchronises (StepQuantities), priced by the
/// calibrated constants into named terms (StepBreakdown). The speed plan, the
/// ridge point and the speed chart all evaluate it.
///
/// Batches and concurrencies are the deployment's. Under vLLM's data parallelism every rank
/// steps its even share of them at once (an even load), so a pass is one rank's, and a MoE
/// layer's experts see every rank's tokens, gathered to them and back (StepTerm::AllToAll).
class SpeedModel
{
public:
    SpeedModel(const Scenario &scenario, const MemoryPlan &plan,
               const SpeedConstants &constants = calibratedSpeedConstants());

    /// Of a `promptLen`-token prompt, the tokens the prefix cache supplies (prefixCacheHitTokens():
    /// the shared prefix's whole blocks); its prefill computes the rest.
    std::int64_t cachedPromptTokens(std::int64_t promptLen) const;

    /// False when the GPU lacks a figure the roofline needs; notes() says which.
    bool available() const { return m_available; }
    const QStringList &notes() const { return m_notes; }

    /// One decode step: `batch` sequences at --seq-len tokens each emit one token.
    ForwardCost decode(std::int64_t batch) const;
    /// The target verifying `draftTokens` drafts for each of `batch` sequences (k + 1 tokens each).
    ForwardCost verify(std::int64_t batch, std::int64_t draftTokens) const;
    /// One pass of the drafter over `batch` sequences (zero for a drafter off the GPU).
    ForwardCost draftPass(std::int64_t batch) const;
    /// `sequences` prompts of `promptLen` tokens each, in the passes the engine's
    /// token budget (--max-num-batched-tokens) allows: whole prompts packed into
    /// a pass, or a longer prompt in chunks that attend to the chunks before them.
    /// The passes' costs added up (`bound`: the longest pass's).
    ForwardCost prefill(std::int64_t promptLen, std::int64_t sequences = 1) const;
    /// The distinct passes of prefill() and how often each runs.
    struct RepeatedPass
    {
        ForwardCost cost;
        std::int64_t times = 1;
    };
    QList<RepeatedPass> prefillPasses(std::int64_t promptLen, std::int64_t sequences = 1) const;
    /// Time to first token of a request that arrives, unannounced (open-loop arrivals, vllm
    /// bench serve --request-rate), at a server decoding `decoding` sequences: it waits for
    /// the step in flight, half a decode step on average, then its prompt's passes and the
    /// request handling run (prefill()). Under vLLM those passes also carry the running
    /// decodes (chunked prefill), which this leaves out; SGLang runs them alone.
    double firstTokenSecondsUnderLoad(std::int64_t promptLen, std::int64_t decoding) const;
    /// Steady-state serving of `concurrency` users, each sending a `promptLen`
    /// prompt and reading `outputLen` tokens (outputLen >= 1); see ServingCost.
    ServingCost serving(std::int64_t concurrency, std::int64_t promptLen, std::int64_t outputLen) const;
    /// Smallest batch whose decode step is compute-bound (with the efficiencies,
    /// or on the ideal roofline); -1 when the step stays memory-bound (long
    /// contexts: the KV cache grows as fast as the FLOPs).
    std::int64_t ridgeBatch(bool ideal) const;

    /// The vision tower's FLOPs for one of the request's images on one GPU; 0 without images.
    double encoderFlopsPerImage() const { return m_encoderFlopsPerImage; }

    /// Fills the resolved inputs and hardware figures of a speed plan.
    void describe(SpeedPlan &speed) const;

private:
    void readHardware(const GpuSpec &gpu, const MemoryPlan &plan);
    void readConstants(const Scenario &scenario, const MemoryPlan &plan, const SpeedConstants &constants);
    void applyMeasuredScale(const Scenario &scenario); ///< the user's calibration of this GPU, if any
    /// Bandwidth over the GPU's FP32 vector rate; for a GPU without the rate a stand-in, with a note.
    double vectorSecondsPerReadSecond(const GpuSpec &gpu);
    void readWeights(const ModelArch &model, const MemoryPlan &plan);
    void readPipeline(const ModelArch &model, const MemoryPlan &plan); ///< the stages' shares of a pass
    void countFlops(const ModelArch &model, const MemoryPlan &plan);
    void readDraft(const Scenario &scenario, const MemoryPlan &plan);
    void readImages(const Scenario &scenario, const MemoryPlan &plan);
    ForwardCost finish(ForwardCost cost, std::int64_t tokens, std::int64_t sequences,
                       std::int64_t requests) const;
    void price(ForwardCost &cost) const;
    /// Adds `sequences` decoding at `contextLen` tokens each to a pass.
    void addDecode(ForwardCost &cost, std::int64_t sequences, std::int64_t contextLen) const;
    /// Adds the vision tower's work for `prompts` prompts' images (a chunk: its share of one).
    void addImages(ForwardCost &cost, double prompts) const;
    /// A pass of one prompt's tokens [start, end), attending to the ones before; the last chunk samples.
    ForwardCost promptChunk(std::int64_t start, std::int64_t end, std::int64_t promptLen) const;
    /// Adds `tokens` of prompts `promptLen` long to a pass, `finishing` of which end in it: each
    /// prompt's tokens after the ones the prefix cache supplies, attending to all before them.
    void addPrefill(ForwardCost &cost, std::int64_t tokens, std::int64_t promptLen,
                    std::int64_t finishing) const;
    /// A rank's share of the deployment's `sequences` (all of them without data parallelism).
    std::int64_t rankShare(std::int64_t sequences) const;
    /// The batches a pipeline keeps in flight over `sequences`: one per stage while there are sequences
    /// enough (vLLM's batch queue, EngineCore.step_with_batch_queue); one without a pipeline.
    std::int64_t pipelineBatches(std::int64_t sequences) const;
    /// A pass of one of `batches` batches in flight through a pipeline: each batch's next step starts
    /// when its last one has passed every stage, and no sooner than the busiest stage (and the
    /// engine's host work) has run all the batches' passes; the difference is StepTerm::PipelineWait.
    ForwardCost inFlight(ForwardCost cost, std::int64_t batches) const;
    /// serving() for one rank's `concurrency` (one of a pipeline's `batches` in flight).
    ServingCost servingOnRank(std::int64_t concurrency, std::int64_t promptLen, std::int64_t outputLen,
                              std::int64_t batches = 1) const;
    /// Adds data-parallel ranks' MoE exchanges of a pass of `tokens` a rank to its quantities.
    void addExpertExchanges(StepQuantities &q, std::int64_t tokens) const;
    std::int64_t
    expertBytesTouched(std::int64_t tokens) const; ///< routed experts' bytes `tokens` touch, expected
    std::int64_t weightBytesRead(std::int64_t tokens) const;
    std::int64_t quantizedWeightBytes(std::int64_t tokens) const;
    std::int64_t kvTokenLayers(std::int64_t contextLen) const;

    bool m_available = false;
    QStringList m_notes;

    // Hardware, in bytes and FLOPs per second
    double m_bandwidth = 0;
    double m_peak = 0;
    double m_peak16 = 0;
    double m_linkPerDirection = 0;
    ComputeFormat m_format = ComputeFormat::BFloat16;
    bool m_weightOnly = false;
    bool m_moeMxfp8 = false; ///< MXFP4 experts multiply MXFP8 activations (runsMoeMxfp8Kernel)
    double m_peakTflops = 0, m_peak16Tflops = 0, m_bandwidthGBs = 0, m_interconnectGBs = 0;

    // Calibrated constants as they apply to this GPU, weight kernel and engine
    GpuGeneration m_generation = GpuGeneration::Other;
    WeightKernel m_kernel = WeightKernel::SixteenBit;
    MoeKernel m_moeKernel = MoeKernel::FusedMoe;
    double m_bandwidthEfficiency = 1;
    double m_kvBandwidthEfficiency = 1;
    double m_computeEfficiency = 1;
    QString m_calibrationSource; ///< the user's calibration, when it applies
    double m_dequantizationCost = 0;
    /// Weight-only kernels: seconds the vector units take for one operation on each byte read, per second
    /// of reading those bytes (the fitted operations per byte times it is the price); 1 for the rest, whose
    /// fitted cost is itself a share of the read.
    double m_dequantizationScale = 1;
    double m_fp8KvCost = 0;
    double m_allReduceLatency = 0;
    double m_moeLayerSeconds = 0;
    double m_routedTokenSeconds = 0;
    double m_stepSeconds = 0;
    double m_sequenceSeconds = 0;
    double m_requestSeconds = 0;
    double m_speculativeStepSeconds = 0; ///< per step with a drafter
    double m_draftPassSeconds = 0;       ///< per draft pass beyond its reads
    bool m_fp8Kv = false;
    bool m_prefillMixesWithDecode =
        true; ///< vLLM: prompt chunks ride in decode steps; SGLang: steps of their own

    // Model, per GPU
    int m_tensorParallelSize = 1;
    int m_pipelineStages = 1;       ///< --pipeline-parallel-size: a pass runs the stages in turn
    double m_busiestStageShare = 1; ///< the share of a pass's weight reads on the busiest stage
    int m_dataParallelSize = 1; ///< vLLM's ranks or SGLang's attention groups, each its share of the batch
    int m_expertGpus = 1;       ///< the GPUs a MoE layer's experts are spread over (TP x DP)
    bool m_deepEpExchange =
        false; ///< --all2all-backend deepep_high_throughput: tokens go to their experts only
    bool m_attentionGroups = false; ///< SGLang's DP attention: every layer's MLP over all the GPUs
    bool m_denseMlpsScattered =
        false; ///< --moe-dense-tp-size 1: the dense layers' MLPs on the group's tokens
    int m_layers = 0;
    std::int64_t m_hidden = 0;
    int m_activationBytes = 2;
    std::int64_t m_contextLen = 0;
    std::int64_t m_tokenBudget = 0;  ///< tokens one step may carry (--max-num-batched-tokens)
    std::int64_t m_sharedPrefix = 0; ///< --shared-prefix-len: every prompt starts with it, cached
    std::int64_t m_cacheBlock = 1;   ///< the prefix cache's unit: the pool's block (SGLang's page)
    std::int64_t m_fullLayers = 0, m_slidingLayers = 0, m_window = 0;
    std::int64_t m_chunkedLayers = 0, m_chunk = 0; ///< Llama 4 chunked local attention
    std::int64_t m_stateBytesPerSequence = 0;      ///< recurrent state, read and written each step
    std::int64_t m_kvBytesPerTokenPerLayer = 0;
    std::int64_t m_denseWeightBytes = 0; ///< read every pass: all weights but routed experts and tables
    std::int64_t m_quantizedDenseBytes =
        0; ///< the attention and MLP share of it (what a quantization stores)
    int m_moeLayers = 0;
    double m_routedCopiesPerToken = 0;    ///< top-k, times this GPU's share of the experts
    std::int64_t m_expertWeightBytes = 0; ///< every routed expert's share on this GPU
    std::int64_t m_embeddingRowBytes = 0; ///< one token's row of an untied input embedding
    double m_measuredScale = 1;           ///< GGUF: measured / estimated weight bytes
    int m_experts = 0, m_topK = 0;
    std::int64_t m_hiddenBytesPerToken = 0; ///< activation traffic of one token through every layer

    // A request's images (none: zero)
    std::int64_t m_imagesPerRequest = 0;
    double m_encoderFlopsPerImage = 0; ///< the vision tower's, on this GPU

    // The speculative drafter, per GPU (none: all zero)
    std::int64_t m_draftDenseBytes = 0;  ///< read every draft pass: all but its routed experts
    std::int64_t m_draftExpertBytes = 0; ///< its routed experts (MTP layers of a MoE model)
    std::int64_t m_draftLayers = 0;      ///< its attention layers, reading the sequence's KV cache
    int m_draftMoeLayers = 0;
    double m_draftFlopsPerToken = 0;
    std::int64_t m_draftHidden = 0;   ///< the drafter's hidden width (a draft model's own)
    double m_draftAttentionFlops = 0; ///< per drafted token, layer and attended token
    std::int64_t m_logitBytes = 0;    ///< one token's float32 logits on this GPU
    double m_quantizedFlopsPerToken = 0, m_denseFlopsPerToken = 0, m_lmHeadFlopsPerToken = 0;
    double m_decodeAttentionFlops = 0;  ///< per token, layer and context token
    double m_prefillAttentionFlops = 0; ///< the same for prefill (MLA decompresses K and V there)
};

/// The sequences of --batch-size that decode at once: all of them, or as many as
/// the KV cache holds at --seq-len (at least one) when the engine starts but the
/// batch does not fit, and never more than the engine runs at once (--max-num-seqs;
/// SGLang's --max-running-requests).
std::int64_t sequencesAtOnce(const MemoryPlan &plan);

/// Decoding `batch` sequences with a drafter of `draftTokens` drafts a step, each accepted as
/// `acceptance` says: the verify pass, k draft passes, tokens a step and the speed-up over `model`'s
/// plain decode step (breakEvenBatch left -1: planSpeed() searches it).
SpeculativeSpeed speculativeDecode(const SpeedModel &model, std::int64_t batch, std::int64_t draftTokens,
                                   const DraftAcceptance &acceptance);

/// Decode tokens a second the batch receives: with the drafter's tokens a step under
/// --speculative-config, else the plain decode's.
double emittedTokensPerSecond(const SpeedPlan &speed);

/// Speed of the scenario's decode step and prefill on its GPU (see docs/methodology.md,
/// "Speed"). Pure; the plan supplies weights, KV bytes and the resolved dtypes.
SpeedPlan planSpeed(const Scenario &scenario, const MemoryPlan &plan);

} // namespace kvscope
