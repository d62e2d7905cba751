// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/engine/engine.h"
#include "core/gpu/gpuspec.h"
#include "core/model/modelarch.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "core/scenario/eplbconfig.h"
#include "core/scenario/measuredmemory.h"
#include "core/scenario/speculativeconfig.h"

#include <cstdint>
#include <optional>

#include <QString>
#include <QStringList>

namespace kvscope {

/// --bandwidth-efficiency and --compute-efficiency by default: 0 ("auto"), the
/// step model's calibrated efficiencies (core/plan/speedconstants.h).
inline constexpr std::int64_t DefaultBandwidthEfficiencyPpm = 0;
inline constexpr std::int64_t DefaultComputeEfficiencyPpm = 0;

/// Bandwidth efficiencies fitted to the user's own measurement on one GPU
/// (core/plan/speedcalibration.h): one scale on both the weight-read and the
/// KV-read efficiency of that GPU. It applies to plans on that GPU only.
struct MeasuredSpeedScale
{
    QString gpuId;             ///< the GPU measured ("h100-sxm")
    std::int64_t scalePpm = 0; ///< millionths; 0 = no calibration
    QString source;            ///< "your measurement: 12.3 ms at concurrency 8, llama-3.1-8b, 2026-12-02"

    bool applies(const QString &gpu) const { return scalePpm > 0 && gpuId == gpu; }
    friend bool operator==(const MeasuredSpeedScale &, const MeasuredSpeedScale &) = default;
};

/// Every input of a memory plan, named after vLLM's engine arguments.
/// A plain value: copy it, change a field, plan again.
struct Scenario
{
    ModelArch model;
    GpuSpec gpu;

    Engine engine = Engine::Vllm; ///< --engine
    QString vllmVersion;          ///< --vllm-version; empty = the newest modelled release
    std::int64_t memFractionStaticPpm =
        0; ///< SGLang --mem-fraction-static in millionths; 0 = SGLang's default
    /// SGLang --swa-full-tokens-ratio in millionths (its hybrid SWA pool); 0 = SGLang's default, 0.8
    std::int64_t swaFullTokensRatioPpm = 0;

    WeightDtype dtype = WeightDtype::Auto;          ///< --dtype
    std::optional<QuantizationSpec> quantization;   ///< --quantization; nullopt = checkpoint's (vLLM default)
    KvCacheDtype kvCacheDtype = KvCacheDtype::Auto; ///< --kv-cache-dtype
    /// --gpu-memory-utilization in millionths; 0: the release's default (VllmProfile::defaultUtilizationPpm)
    std::int64_t gpuMemoryUtilizationPpm = 0;
    std::int64_t tensorParallelSize = 1; ///< --tensor-parallel-size (held as given, checked by the planner)
    std::int64_t pipelineParallelSize =
        1; ///< --pipeline-parallel-size: stages of layers, each on its own GPUs
    /// --data-parallel-size: copies of the deployment that each serve their own requests with their
    /// own KV cache (a MoE's experts are still split over all of them, core/plan/expertparallel.h).
    std::int64_t dataParallelSize = 1;
    /// --enable-expert-parallel: a MoE's routed experts divided whole among the TP x DP GPUs
    /// instead of each expert split over them.
    bool enableExpertParallel = false;
    /// SGLang's --enable-dp-attention: the --tp-size GPUs split into --dp-size groups that each run
    /// attention (and hold a KV pool) for their own requests, the MLPs and experts over all of them.
    bool enableDpAttention = false;
    /// SGLang's --enable-dp-lm-head: the LM head split over one attention group's GPUs, not all of
    /// them (ParallelLMHead use_attn_tp_group); SGLang turns it off without data-parallel groups.
    bool enableDpLmHead = false;
    /// SGLang's --moe-dense-tp-size: 1 runs a DeepSeek-style model's dense layers' MLPs whole on every
    /// GPU (enable_moe_dense_fully_dp); 0 = unset (split as the other MLPs). SGLang takes only 1.
    std::int64_t moeDenseTpSize = 0;
    /// SGLang's --ep-size: the GPUs of --tp-size a MoE's routed experts are divided among (each
    /// expert split over the --tp-size / --ep-size GPUs of its group).
    std::int64_t expertParallelSize = 1;
    /// vLLM's --enable-eplb: the expert-parallel load balancer, which moves (and with --eplb-config's
    /// num_redundant_experts replicates) routed experts among the EP GPUs (core/plan/eplb.h).
    bool enableEplb = false;
    EplbConfig eplb; ///< --eplb-config: the redundant experts and the load window
    /// vLLM's --all2all-backend: how data-parallel ranks exchange a MoE's tokens under expert
    /// parallelism (DeepEP's high-throughput kernels keep a buffer on every GPU, core/plan/all2all.h).
    All2AllBackend all2allBackend = All2AllBackend::AllgatherReducescatter;
    std::int64_t maxModelLen = 0; ///< --max-model-len; 0 = model's max_position_embeddings
    std::int64_t blockSize = 16;  ///< --block-size (vLLM may raise it, see KvCacheLayout)
    WeightDtype mambaSsmCacheDtype = WeightDtype::Auto; ///< --mamba-ssm-cache-dtype; auto = --dtype
    std::int64_t maxNumSeqs = 0;                        ///< --max-num-seqs; 0 = vLLM's default for the GPU
    std::int64_t maxNumBatchedTokens = 0;               ///< --max-num-batched-tokens; 0 = vLLM's default
    /// --kv-cache-memory-bytes: the KV cache's bytes per GPU, used as given in place of the
    /// profiled budget; 0 = profiled from --gpu-memory-utilization (vLLM's default).
    std::int64_t kvCacheMemoryBytes = 0;
    /// vLLM's --enforce-eager: no CUDA graphs (cudagraph_mode NONE), so none is profiled or captured.
    bool enforceEager = false;
    /// --compile-cache: whether vLLM's torch.compile cache holds the model when it starts (Model Runner
    /// V2's profiling peak differs, core/engine/runtime.h); cold by default, a first start.
    CompileCache compileCache = CompileCache::Cold;
    /// --moe-mxfp8-activations (vLLM's VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1): an MXFP4 MoE's experts
    /// on compute capability 10.x run FlashInfer's TRT-LLM kernel with their activations quantized to
    /// MXFP8, multiplying on the FP8 tensor cores instead of dequantizing the weights to 16 bits.
    bool moeMxfp8Activations = false;
    /// vLLM's --max-cudagraph-capture-size: the largest batch (in tokens) a CUDA graph is captured for;
    /// 0 = vLLM's default, min(2 x max_num_seqs, 512) (core/plan/cudagraphmemory.h).
    std::int64_t maxCudagraphCaptureSize = 0;
    /// --max-loras with --enable-lora: adapters held on the GPU at once; 0 = LoRA off (no --enable-lora).
    std::int64_t maxLoras = 0;
    std::int64_t maxLoraRank = 16; ///< --max-lora-rank (vLLM's default 16)
    /// vLLM's --lora-dtype: the slots' dtype (auto = the model's; vLLM takes float16 or bfloat16 otherwise).
    WeightDtype loraDtype = WeightDtype::Auto;
    /// vLLM's --max-cpu-loras: adapters kept in host memory (nothing on the GPU); 0 = vLLM's default,
    /// --max-loras. Must be at least --max-loras.
    std::int64_t maxCpuLoras = 0;
    /// vLLM's --fully-sharded-loras: column-parallel layers' A and row-parallel layers' B split over the GPUs
    /// too (the rank must divide over them).
    bool fullyShardedLoras = false;
    /// --lora-target-modules (vLLM's and SGLang's): the projections that get LoRA slots (q_proj, k_proj,
    /// v_proj, o_proj, gate_proj, up_proj, down_proj, or the packed qkv_proj and gate_up_proj); empty = every
    /// projection kvscope sizes.
    QStringList loraTargetModules;
    /// --kv-offloading-size in thousandths of a GiB: the CPU buffer vLLM offloads KV blocks to,
    /// summed over the tensor-parallel ranks; 0 = no offloading.
    std::int64_t kvOffloadingMilliGiB = 0;
    KvOffloadingBackend kvOffloadingBackend = KvOffloadingBackend::Native; ///< --kv-offloading-backend
    SpeculativeConfig speculative; ///< --speculative-config: off by default
    /// --draft-acceptance-rate in millionths: the chance the target accepts each drafted token
    /// (a workload input); 0 = the method's published figure (core/plan/speculativedecoding.h).
    std::int64_t draftAcceptancePpm = 0;

    std::int64_t batchSize = 16; ///< concurrent sequences to hold
    std::int64_t seqLen = 8192;  ///< tokens per sequence (prompt + output)

    // Speed (roofline)
    std::int64_t promptLen = 0; ///< --prompt-len: tokens of the prefill; 0 = --seq-len
    /// --shared-prefix-len: tokens at the start of every sequence that are the same for all (a
    /// system prompt), which the prefix cache holds once; 0 = none. A workload input, not a flag.
    std::int64_t sharedPrefixLen = 0;
    /// --images-per-request: images each request sends (a workload input); each becomes the tokens
    /// its model's processor writes for it (core/model/imagetokens.h), held in the KV cache beside
    /// --seq-len's text tokens. 0 = text only.
    std::int64_t imagesPerRequest = 0;
    std::int64_t imageWidth = 1024;  ///< --image-size's width in pixels, before the processor resizes
    std::int64_t imageHeight = 1024; ///< --image-size's height in pixels
    /// --request-rate in thousandths of a request a second: requests arrive at this rate
    /// (open loop) and serving runs with as many in flight as that keeps busy; 0 = a closed
    /// loop of --batch-size users, each sending a request when the last one ends.
    std::int64_t requestRateMilli = 0;
    std::int64_t bandwidthEfficiencyPpm =
        DefaultBandwidthEfficiencyPpm; ///< --bandwidth-efficiency; 0 = calibrated
    std::int64_t computeEfficiencyPpm = DefaultComputeEfficiencyPpm; ///< --compute-efficiency; 0 = calibrated
    MeasuredSpeedScale speedCalibration; ///< from the user's measurement; --bandwidth-efficiency wins
    /// Components a start-up log of this deployment measured; planned where it applies (appliesTo()).
    MeasuredMemory measuredMemory;

    /// Every GPU the deployment takes: each data-parallel rank's pipeline stages' tensor-parallel
    /// groups (as planned: the sizes validated; a product past 2^63 is refused with kvscope::Error).
    std::int64_t gpuCount() const;

    friend bool operator==(const Scenario &, const Scenario &) = default;
};

/// Parses a utilization such as "0.9" exactly into millionths; throws
/// kvscope::Error naming `option` unless 0 < value <= 1.
std::int64_t parseUtilization(const QString &text,
                              const QString &option = optionFlag(ScenarioField::GpuMemoryUtilization));

/// Parses a strictly positive integer ("--batch-size 16", up to 18 digits);
/// throws kvscope::Error naming `option` and the text otherwise.
std::int64_t parsePositive(const QString &text, const QString &option);

/// A count whose 0 means "the default": a positive integer, or "auto" (any case) for 0.
std::int64_t parseOptionalCount(const QString &text, const QString &option);

/// parseOptionalCount(), or a count as vLLM reads --max-model-len, --max-num-batched-tokens and
/// --kv-cache-memory-bytes: with a decimal (k, m, g, t: 10^3...) or binary (K, M, G, T: 2^10...) suffix,
/// "25.6k" = 25,600, "32K" = 32,768 (human_readable_int, vllm/utils/argparse_utils.py). Throws
/// kvscope::Error naming `option` and the text for what vLLM refuses (decimals with a binary suffix) or
/// past 2^63.
std::int64_t parseHumanReadableCount(const QString &text, const QString &option);

/// "0.9" from 900000, without float noise.
QString formatUtilization(std::int64_t ppm);

/// The largest --request-rate kvscope plans: a million requests a second.
inline constexpr std::int64_t MaxRequestRateMilli = std::int64_t(1'000'000) * 1000;

/// Parses --request-rate ("2.5" requests a second) exactly into thousandths; "auto" or 0 is
/// 0 (a closed loop). Throws kvscope::Error naming `option` and the text for anything else:
/// a negative or malformed number, one finer than 0.001, or one above a million.
std::int64_t parseRequestRate(const QString &text, const QString &option);

/// Parses --image-size "1024x1024" (width x height in pixels, each 1 to MaxInputImageSide; "X" and
/// spaces around it are taken too). Throws kvscope::Error naming `option` and the text otherwise.
void parseImageSize(const QString &text, const QString &option, std::int64_t &width, std::int64_t &height);

/// "1024x1024".
QString formatImageSize(std::int64_t width, std::int64_t height);

/// "2.5" from 2500; "0.001" from 1.
QString formatThousandths(std::int64_t milli);
/// A --request-rate in thousandths as the option spells it: formatThousandths().
QString formatRequestRate(std::int64_t milli);

/// The largest --kv-offloading-size kvscope plans: a pebibyte, in thousandths of a GiB.
inline constexpr std::int64_t MaxOffloadingMilliGiB = std::int64_t(1'048'576) * 1000;

/// Parses --kv-offloading-size ("64" GiB, "0.5") exactly into thousandths of a GiB; "auto" or 0 is
/// 0 (no offloading). Throws kvscope::Error naming `option` and the text otherwise.
std::int64_t parseOffloadingSize(const QString &text, const QString &option);

} // namespace kvscope
