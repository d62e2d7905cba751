// SPDX-License-Identifier: MIT
// The serving engine a plan follows (--engine) and, for vLLM, the release
// whose start-up accounting it reproduces (--vllm-version): one table of
// version profiles, each row citing where its values come from.
#pragma once

#include "core/common/scenariofield.h"

// moc (Qt 6.4) cannot parse libstdc++'s <concepts>, which <compare> includes;
// the UI headers that moc reads reach this one.
#ifndef Q_MOC_RUN
#include <compare>
#endif
#include <cstdint>
#include <optional>

#include <QList>
#include <QString>

namespace kvscope {

enum class Engine
{
    Vllm,  ///< vllm serve: profiles the start-up run, then sizes the paged KV pool
    Sglang ///< python -m sglang.launch_server: a static share of memory for weights + token pool
};

/// Where vLLM offloads KV blocks with --kv-offloading-size (--kv-offloading-backend).
enum class KvOffloadingBackend
{
    Native, ///< vLLM's OffloadingConnector: CPU blocks of the KV cache's own layout
    Lmcache ///< the LMCache connector: its local CPU cache, split evenly over the ranks
};

/// "native" / "lmcache", as --kv-offloading-backend spells them.
QString kvOffloadingBackendName(KvOffloadingBackend backend);
/// Throws kvscope::Error naming `option` and the text for another name.
KvOffloadingBackend parseKvOffloadingBackend(const QString &text, const QString &option);

/// Whether vLLM's torch.compile cache holds the model when it starts (--compile-cache, a deployment
/// condition, not a vLLM flag): a start with it cold compiles the model during its profiling run.
enum class CompileCache
{
    Cold, ///< a first start, or a container that keeps no cache (VLLM_CACHE_ROOT): it compiles
    Warm  ///< a restart that loads the compiled graphs ("Directly load ... from the cache")
};

/// "cold" / "warm", as --compile-cache spells them.
QString compileCacheName(CompileCache cache);
/// Throws kvscope::Error naming `option` and the text for another name.
CompileCache parseCompileCache(const QString &text, const QString &option);

/// How vLLM's data-parallel ranks exchange a MoE's tokens under expert parallelism (--all2all-backend,
/// ParallelConfig.all2all_backend, vllm/config/parallel.py).
enum class All2AllBackend
{
    AllgatherReducescatter, ///< vLLM's default: NCCL all-gather and reduce-scatter, no buffers of its own
    Naive,                  ///< broadcasts over NCCL, no buffers of its own
    DeepepHighThroughput,   ///< DeepEP's normal kernels: an NVLink buffer per GPU
    DeepepLowLatency,       ///< DeepEP's low-latency kernels: NVSHMEM buffers
    Pplx,
    Mori,
    NixlEp,
    FlashinferAll2allv,
    FlashinferNvlinkTwoSided,
    FlashinferNvlinkOneSided,
};

/// "allgather_reducescatter", "deepep_high_throughput", ... as --all2all-backend spells them.
QString all2allBackendName(All2AllBackend backend);
/// Throws kvscope::Error naming `option` and the text for another name.
All2AllBackend parseAll2AllBackend(const QString &text, const QString &option);

/// "vllm" / "sglang", as --engine spells them.
QString engineName(Engine engine);
/// "vLLM" / "SGLang": the engine as its project writes its name, for notes and labels.
QString engineDisplayName(Engine engine);
/// Parses --engine; throws kvscope::Error naming the option and the value.
Engine parseEngine(const QString &text);

/// `field`'s flag as `engine` spells it: "--max-model-len", SGLang's "--context-length".
QString optionFlag(ScenarioField field, Engine engine);

/// A release number: 0.10.1 from "0.10.1", "v0.10.1.1" or "0.10".
struct EngineVersion
{
    int major = 0;
    int minor = 0;
    int patch = 0;

    // clang-tidy 14 mistakes the 0 its defaulted <=> compares with for a null pointer.
    friend auto operator<=>(const EngineVersion &,
                            const EngineVersion &) = default; // NOLINT(modernize-use-nullptr)
    /// "0.19" when the patch is 0, else "0.10.1".
    QString text() const;
};

/// "0.19", "0.10.1", "v0.10.1.1" (further parts ignored), with PEP 440's rc, post, dev and local parts
/// ("0.18.0+rhaiv.14" is 0.18.0); nullopt for anything else.
std::optional<EngineVersion> parseEngineVersion(const QString &text);

/// What one vLLM release changes in the start-up accounting. A profile holds
/// from `since` until the next one; values a release did not change are
/// carried over from the profile before it.
/// The models a release runs on Model Runner V2 by default (VllmConfig.use_v2_model_runner,
/// vllm/config/vllm.py), each step adding to the one before.
enum class ModelRunnerV2Default
{
    None,            ///< every model on V1
    Qwen3Dense,      ///< v0.22.0: unquantized dense Qwen3ForCausalLM (vllm-project/vllm#39337)
    LlamaDense,      ///< v0.23.0: and unquantized dense Llama and Mistral (#43458)
    EnabledFamilies, ///< v0.24: and their quantized forms (#44446), the Qwen, DeepSeek-V2 and Granite MoEs
                     ///< (#42667, #45461)
    AllDense,        ///< v0.25.0: and every dense model (#44443)
    AllModels,       ///< v0.29.0: every model (#53183)
};

struct VllmProfile
{
    EngineVersion since;
    /// Bytes per logit of the sampler warm-up in the profiling run (max_num_seqs x vocab).
    std::int64_t samplerBytesPerLogit = 0;
    /// The estimated CUDA-graph memory is taken out of the budget before the KV cache.
    bool subtractsCudaGraphs = false;
    /// Llama 4's chunked-local layers stay in the hybrid KV cache manager (else every layer is full).
    bool chunkedLocalInHybridManager = false;
    /// The profiling run pads each dummy image's encoder outputs to the whole encoder budget
    /// (vllm-project/vllm#25810); otherwise it holds them at the largest image's size.
    bool encoderOutputsPaddedToBudget = false;
    /// An MTP drafter's per-layer head (shared_head.head) is replaced by the target's lm_head
    /// (vllm-project/vllm#34385); before it, DeepSeek-style MTP layers kept a head of their own.
    bool mtpSharesTargetHead = false;
    /// The logged "GPU KV cache size" is int(max concurrency x max_model_len) (vllm-project/vllm#41069),
    /// which counts what a sliding or chunked group holds of a request; before, num_blocks / groups x
    /// block size.
    bool capacityFromConcurrency = false;
    /// EPLB's state is built inside the measurement "Model loading took" reports, so the KV budget
    /// counts it (vllm-project/vllm#25311, merged 2025-11-05), and holds a buffer of one MoE layer's
    /// local experts from start-up (vllm-project/vllm#22179, merged 2025-11-24, in v0.12.0); before,
    /// it was built after that measurement and left out of the budget, and an MTP drafter was not
    /// balanced.
    bool eplbStateInBudget = false;
    /// --gpu-memory-utilization when none is given (CacheConfig.gpu_memory_utilization), in millionths.
    std::int64_t defaultUtilizationPpm = 900'000;
    /// Where each value comes from.
    const char *source = "";
    /// Memory outside PyTorch where one GPU's figure applies (TP 1, or PCIe-only GPUs at any TP); 0:
    /// runtimeOverheadBytes()'s, vLLM 0.19's 0.25 GiB.
    std::int64_t singleGpuNonTorchBytes = 0;
    /// At TP > 1 on compute capability 9.0 and 10.x, -O2 (the default) fuses each all-reduce with the next
    /// RMSNorm through FlashInfer (vllm-project/vllm#34299, merged 2026-02-12, before v0.16.0;
    /// enable_allreduce_rms_fusion in vllm/config/vllm.py). Where it runs, the memory outside PyTorch is
    /// runtimeOverheadBytes()'s NVLink figure; elsewhere, one GPU's.
    bool fusesAllReduceRmsNorm = false;
    /// The models this release runs on Model Runner V2 unless a feature it lacks sends them to V1.
    ModelRunnerV2Default modelRunnerV2 = ModelRunnerV2Default::None;
    /// Model Runner V2 profiles the CUDA graphs' memory and takes it out of the budget as V1 does
    /// (vllm-project/vllm#53306, v0.29.0); before, its profile_cudagraph_memory() returned 0.
    bool modelRunnerV2ReservesCudaGraphs = false;
    /// A Pixtral tower loaded in Mistral's own format is split over the tensor-parallel ranks
    /// (vllm-project/vllm#36963, merged 2026-03-30, after v0.19.0's branch): before, its VisionTransformer
    /// was built of nn.Linear layers and every rank held it whole.
    bool mistralFormatTowerSplit = false;
};

/// Every modelled profile, oldest first.
const QList<VllmProfile> &vllmProfiles();
/// The newest modelled profile (the default).
const VllmProfile &newestVllmProfile();

/// The oldest vLLM release kvscope accepts (the V1 engine's start-up accounting).
inline constexpr EngineVersion OldestVllmVersion{0, 10, 0};

/// A --vllm-version resolved to the profile that plans it.
struct VllmVersionChoice
{
    const VllmProfile *profile = nullptr;
    std::optional<EngineVersion> requested; ///< nullopt: the default (newest modelled)
    bool newerThanModelled = false;         ///< requested beyond the newest profile
};

/// The release `text` names, 0.10 or later. Throws kvscope::Error naming --vllm-version
/// and the value for anything else, empty or blank text included.
EngineVersion parseVllmRelease(const QString &text);

/// The profile for `text`: the newest modelled one when empty; else the
/// nearest modelled at or below it. Throws kvscope::Error naming
/// --vllm-version and the value for junk or releases before 0.10.
VllmVersionChoice resolveVllmVersion(const QString &text);

} // namespace kvscope
