// SPDX-License-Identifier: MIT
// What a vLLM (V1 engine) or SGLang start-up log states: the engine's arguments
// and the figures it prints while it sizes the KV cache. Read line by line, each
// value with the line it came from; a log that repeats a figure per rank
// (vLLM's Worker_TP0, SGLang's [... TP0]) gives the first, and the ranks seen.
#pragma once

#include "core/engine/engine.h"

#include <cstdint>
#include <optional>

#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

/// One value the log states, and where.
struct LogReading
{
    QString key;   ///< the engine's name for it: "tensor_parallel_size", "kv_cache_memory"
    QString value; ///< as written
    int line = 0;  ///< 1-based line number
};

/// The utilizations vLLM prints beside its CUDA-graph estimate (StartupLog::graphUtilizationAdvice).
struct GraphUtilizationAdvice
{
    double current = 0;            ///< X, the budget's utilization (%.4f)
    std::optional<double> without; ///< Y, the same budget without the estimate (%.4f)
    std::optional<double> toKeep;  ///< Z, the utilization that keeps the KV cache (%.4f, at most 1)
    int line = 0;                  ///< where it was read
};

/// A GPU total the log implies but does not print, in GiB.
struct GiBRange
{
    double low = 0;
    double high = 0;
    double middle() const { return (low + high) / 2; }
    bool contains(double gib) const { return gib >= low && gib <= high; }
};

/// Everything read from a start-up log. Arguments are kept as written (the
/// explanation parses them as `kvscope calc` does); figures in GiB as printed.
struct StartupLog
{
    QString origin; ///< the file (or "pasted text") for messages

    // Engine and arguments
    /// SGLang once a line only SGLang prints is read (its server_args, "Load weight begin", its
    /// token pool); vLLM otherwise.
    Engine engine = Engine::Vllm;
    QString
        vllmVersion; ///< "0.10.1.1" from "vLLM API server version" or "Initializing a V1 LLM engine (v...)"
    int vllmVersionLine = 0; ///< where it was read
    QString model;           ///< the model argument: a repository id or a path
    /// The engine's arguments by the engine's own names (vLLM: non-default args, the `vllm serve`
    /// line, the engine config line, the scheduler's defaults; SGLang: server_args and the
    /// launch_server line, with --tp and --model read as tp_size and model_path), first statement
    /// of each kept.
    QList<LogReading> arguments;
    int ranksSeen = 0;  ///< highest Worker_TPn (vLLM) or TPn (SGLang) prefix + 1; 0 when none appears
    int stagesSeen = 0; ///< highest Worker_PPn prefix (vLLM's pipeline stages) + 1; 0 when none appears

    // Figures, GiB as printed
    std::optional<double> totalGpuMemoryGiB; ///< worker init memory snapshot: total_memory
    /// The device a MoE's fused-MoE config file is looked up for ("device_name=NVIDIA_L40S", fused_moe.py),
    /// and its line; empty and 0 when the log does not name it.
    QString deviceName;
    int deviceNameLine = 0;
    /// The device was read from an `nvidia-smi` table pasted into the log ("|   0  NVIDIA L40S   On  |"),
    /// written with underscores as the fused-MoE config names it.
    bool deviceNameFromNvidiaSmi = false;
    std::optional<double>
        weightsGiB; ///< "Model loading took X GiB"; SGLang's "Load weight end ... mem usage"
    std::optional<double>
        activationPeakGiB;             ///< "torch peak memory increase" / "PyTorch activation peak memory"
    std::optional<double> nonTorchGiB; ///< "non-torch forward increase memory" / non_torch_memory
    std::optional<double> cudaGraphEstimateGiB; ///< "Estimated CUDA graph memory: X GiB total"
    /// What capturing the graphs took once the KV cache was sized: "Graph capturing finished in N secs, took
    /// X GiB" (gpu_model_runner.py, model_runner.py).
    std::optional<double> cudaGraphCapturedGiB;
    /// The graphs vLLM (0.21 on) estimates that memory over: "Profiling CUDA graph memory: PIECEWISE=51
    /// (largest=512), FULL=35 (largest=256)" (gpu_model_runner.py); 0 when the log does not say.
    int piecewiseGraphs = 0, largestPiecewiseGraph = 0;
    int fullGraphs = 0, largestFullGraph = 0;
    /// Where vLLM says it takes that estimate from the budget ("CUDA graph memory profiling is
    /// enabled (default since v0.21.0)", gpu_worker.py); 0 when the log does not say it.
    int cudaGraphProfilingLine = 0;
    /// Where vLLM says it runs the model on Model Runner V2 ("Using V2 Model Runner", gpu_worker.py); 0 when
    /// the log does not say it.
    int modelRunnerV2Line = 0;
    /// Where vLLM says its custom all-reduce is off ("Custom allreduce is disabled because your platform
    /// lacks GPU P2P capability", "... spans across nodes": custom_all_reduce.py); 0 when the log does not
    /// say it.
    int customAllReduceOffLine = 0;
    /// Where the start compiled the model ("Compiling a graph for compile range ... takes X s",
    /// vllm/compilation/backends.py) or loaded it compiled from vLLM's cache ("Directly load the compiled
    /// graph(s) ... from the cache", "Directly load AOT compilation from path"); 0 when the log does not say.
    int compiledLine = 0;
    int compileCacheLine = 0;
    /// Whether vLLM fused each all-reduce with the next RMSNorm, as its engine config's pass_config prints it
    /// ("'fuse_allreduce_rms': True") or vLLM 0.19 on lists the fusions it enables ("Enabled custom fusions:
    /// allreduce_rms", vllm/config/compilation.py), and where; nullopt and 0 when the log does not say.
    std::optional<bool> allReduceRmsFusion;
    int allReduceRmsFusionLine = 0;
    /// vLLM's own advice beside its worker memory line: "`--kv-cache-memory=N` ... to fully utilize gpu
    /// memory" (gpu_worker.py), the fixed pool that fills the GPU; absent when the log does not give it.
    std::optional<std::int64_t> kvCacheMemoryToFillGpu;
    /// The GPU's free memory when vLLM started ("Free memory on device (F/T GiB) on startup", the worker's
    /// init snapshot's free_memory): other processes hold the rest.
    std::optional<double> freeAtStartupGiB;
    /// The hosts a Ray-launched engine's workers report ("(RayWorkerWrapper pid=345, ip=10.42.11.243)"), in
    /// the order first seen; more than one means the GPUs span nodes.
    QStringList workerHosts;
    /// vLLM's advice beside its CUDA-graph estimate (v0.21 on, gpu_worker.py), as printed: "The current
    /// --gpu-memory-utilization=X is equivalent to --gpu-memory-utilization=Y without CUDA graph memory
    /// profiling ... increase --gpu-memory-utilization to Z", where Y = round(X - estimate / total, 4) and
    /// Z = min(round(X + estimate / total, 4), 1); with the estimate switched off, "... from X to Z" alone.
    std::optional<GraphUtilizationAdvice> graphUtilizationAdvice;
    std::optional<double>
        kvCacheGiB; ///< "Available KV cache memory: X GiB"; SGLang's K size + V size (or MLA's KV size)
    std::optional<std::int64_t>
        kvCacheTokens; ///< "GPU KV cache size: N tokens"; SGLang's #tokens or max_total_num_tokens
    std::optional<double> maxConcurrency; ///< "Maximum concurrency for M tokens per request: Xx"
    /// "Encoder cache will be initialized with a budget of N tokens, and profiled with M image items of
    /// the maximum feature size" (a multimodal model's profiling run, GPUModelRunner.profile_run).
    std::optional<std::int64_t> encoderBudget;
    std::optional<std::int64_t> encoderProfileItems;

    // SGLang's figures, its "GB" being 2^30 B (GB = 1 << 30 in python/sglang/srt/utils)
    std::optional<double> freeBeforeWeightsGiB;     ///< "Load weight begin. avail mem=X GB"
    std::optional<double> freeAfterWeightsGiB;      ///< "Load weight end. ... avail mem=X GB"
    std::optional<std::int64_t> maxRunningRequests; ///< "max_total_num_tokens=..., max_running_requests=N"
    std::optional<double> cudaGraphGiB;             ///< "Capture cuda graph end. ... mem usage=X GB"
    /// "Use sliding window memory pool. full_layer_tokens=F, swa_layer_tokens=S" (a hybrid SWA pool)
    std::optional<std::int64_t> swaPoolTokens;
    /// "Mamba Cache is allocated. max_mamba_cache_size: N" (the state pool of a recurrent model)
    std::optional<std::int64_t> statePoolSlots;

    bool refusedToStart = false; ///< a ValueError saying the KV cache cannot hold one request
    QString refusal;             ///< its text

    /// An error that stopped the start once the KV cache was being set up or after (gpu_model_runner.py's
    /// "CUDA out of memory occurred when warming up sampler with N dummy requests", torch's
    /// OutOfMemoryError), as written, and its line; empty and 0 when the log shows none.
    QString startFailure;
    int startFailureLine = 0;
    std::optional<std::int64_t> samplerWarmupRequests; ///< "... warming up sampler with N dummy requests"
    /// torch.OutOfMemoryError: "Tried to allocate X MiB. GPU 0 has a total capacity of T GiB of which Y MiB
    /// is free. ... and Z MiB is reserved by PyTorch but unallocated" (MiB, as converted)
    std::optional<double> oomRequestedMiB, oomFreeMiB, oomReservedUnallocatedMiB;

    QList<LogReading> figures; ///< every figure read, as written, for "what was read"

    /// The argument `key` as written; empty when the log does not state it.
    QString argument(const QString &key) const;
    bool hasArgument(const QString &key) const;
    /// The line the argument `key` was read from; 0 when the log does not state it.
    int argumentLine(const QString &key) const;
};

/// The GPU's total memory that the CUDA-graph estimate and the utilization advice printed with it allow
/// (total = estimate / (X - Y), or (Z - X), each figure within half its last printed digit): the range
/// holding every total that prints those lines. None when the log lacks either line.
std::optional<GiBRange> totalMemoryFromGraphAdvice(const StartupLog &log);

/// Reads a vLLM or SGLang start-up log's text. Never throws: a line it does not know is skipped.
StartupLog readStartupLog(const QString &text, const QString &origin);

/// Reads the regular file `path` (at most MaxStartupLogBytes); throws kvscope::Error naming it.
StartupLog readStartupLogFile(const QString &path);

/// A start-up log is a few hundred kB; larger files are refused before they are read.
inline constexpr qint64 MaxStartupLogBytes = qint64(64) << 20;

} // namespace kvscope
