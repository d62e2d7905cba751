// SPDX-License-Identifier: MIT
// kvscope fit: the inverse question. Which GPUs, tensor-parallel sizes and
// precisions serve N concurrent requests of L tokens, best first.
#pragma once

#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"

#include <atomic>
#include <cstdint>
#include <optional>

#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope {

/// The most GPUs (the largest tensor-parallel size) a fit search tries.
inline constexpr int MaxFitGpus = 64;

/// The order fit lists configurations in.
enum class FitRanking
{
    Memory, ///< fewest GPUs, [longest context,] least GPU memory bought, then the fastest decode
    Speed,  ///< the fastest decode at the query's concurrency (the step model), then as Memory
};

/// "memory", "speed": fit's --rank-by values.
QString fitRankingName(FitRanking ranking);
QStringList fitRankingChoices();
/// Parses --rank-by; throws kvscope::Error naming the option and the value.
FitRanking parseFitRanking(const QString &text);

struct FitQuery
{
    /// The model, engine, release and every option not searched; the GPU,
    /// --tensor-parallel-size, --quantization and --kv-cache-dtype are searched.
    Scenario base;
    std::int64_t concurrency = 1; ///< --concurrency: requests served at once
    std::int64_t maxModelLen = 0; ///< --max-model-len; 0 = the longest each configuration allows
    QList<GpuSpec> gpus;          ///< candidate GPUs
    std::int64_t maxGpus = 8;     ///< the largest tensor-parallel size tried, 1 to MaxFitGpus
    /// Weight precisions tried; empty = the checkpoint's and fp8 (both engines quantize a
    /// 16-bit checkpoint to fp8 while loading it).
    QList<std::optional<QuantizationSpec>> quantizations;
    QList<KvCacheDtype> kvCacheDtypes;       ///< KV cache dtypes tried; empty = auto and fp8
    FitRanking ranking = FitRanking::Memory; ///< --rank-by
};

/// One configuration that serves the query, with its plan.
struct FitRow
{
    Scenario scenario;                 ///< plans as `plan` again: the options of the launch line
    MemoryPlan plan;                   ///< planMemory(scenario)
    std::int64_t maxConcurrency = 0;   ///< whole requests of max_model_len the cache holds at once
    std::int64_t totalMemoryBytes = 0; ///< GPU memory bought: GPUs x memory per GPU
    QString command; ///< launchLine(scenario).command(): vllm serve / python -m sglang.launch_server
};

struct FitResult
{
    QList<FitRow> fits;     ///< best first, in the query's ranking
    QString reason;         ///< one line saying why nothing fits; empty when something does
    bool cancelled = false; ///< the search stopped early: `fits` holds what it had found
};

/// Searches query.gpus x tensor-parallel sizes 1..maxGpus that vLLM accepts x
/// precisions, keeping for each GPU and precision pair the smallest
/// tensor-parallel size that serves the query. Throws kvscope::Error for an
/// invalid query (naming the option). `cancel`, when given, is read before each
/// configuration: once set, the search stops (the window supersedes a search
/// this way).
FitResult findFits(const FitQuery &query, const std::atomic<bool> *cancel = nullptr);

/// The GPUs of `presets` the engines run on (NVIDIA and AMD): fit's candidates by default.
QList<GpuSpec> servingGpus(const QList<GpuSpec> &presets);

/// {"fits": [{"gpu", "tensor_parallel_size", "quantization", "kv_cache_dtype", "max_model_len",
/// "max_concurrency", "kv_capacity_tokens", "headroom_bytes", "total_gpu_memory_bytes",
/// "decode_tokens_per_second", "command"}...], "reason"} with the query, best first.
QJsonObject fitToJson(const FitQuery &query, const FitResult &result);

/// Whether `plan` holds `concurrency` requests of its max_model_len at once:
/// vLLM's pool has the blocks for them and its scheduler admits that many
/// (--max-num-seqs); SGLang's pool has the tokens and --max-running-requests allows them.
bool servesConcurrency(const MemoryPlan &plan, std::int64_t concurrency);

} // namespace kvscope
