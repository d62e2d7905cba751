// SPDX-License-Identifier: MIT
// What a vLLM (V1 engine) start-up log states: the engine's arguments and the
// figures it prints while it sizes the KV cache. Read line by line, each
// value with the line it came from; a log that repeats a figure per rank
// (Worker_TP0, Worker_TP1...) gives the first, and the ranks seen.
#pragma once

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

/// Everything read from a start-up log. Arguments are kept as written (the
/// explanation parses them as `kvscope calc` does); figures in GiB as printed.
struct StartupLog
{
    QString origin; ///< the file (or "pasted text") for messages

    // Engine and arguments
    QString
        vllmVersion; ///< "0.10.1.1" from "vLLM API server version" or "Initializing a V1 LLM engine (v...)"
    int vllmVersionLine = 0; ///< where it was read
    QString model;           ///< the model argument: a repository id or a path
    /// The engine's arguments by vLLM's names (non-default args, the `vllm serve` line, the engine
    /// config line, the scheduler's defaults), first statement of each kept.
    QList<LogReading> arguments;
    int ranksSeen = 0; ///< highest Worker_TPn prefix + 1; 0 when no rank prefix appears

    // Figures, GiB as printed
    std::optional<double> totalGpuMemoryGiB; ///< worker init memory snapshot: total_memory
    std::optional<double> weightsGiB;        ///< "Model loading took X GiB"
    std::optional<double>
        activationPeakGiB;             ///< "torch peak memory increase" / "PyTorch activation peak memory"
    std::optional<double> nonTorchGiB; ///< "non-torch forward increase memory" / non_torch_memory
    std::optional<double> cudaGraphEstimateGiB; ///< "Estimated CUDA graph memory: X GiB total"
    std::optional<double> kvCacheGiB;           ///< "Available KV cache memory: X GiB"
    std::optional<std::int64_t> kvCacheTokens;  ///< "GPU KV cache size: N tokens"
    std::optional<double> maxConcurrency;       ///< "Maximum concurrency for M tokens per request: Xx"
    bool refusedToStart = false;                ///< a ValueError saying the KV cache cannot hold one request
    QString refusal;                            ///< its text

    QList<LogReading> figures; ///< every figure read, as written, for "what was read"

    /// The argument `key` as written; empty when the log does not state it.
    QString argument(const QString &key) const;
    bool hasArgument(const QString &key) const;
};

/// Reads a start-up log's text. Never throws: a line it does not know is skipped.
StartupLog readStartupLog(const QString &text, const QString &origin);

/// Reads the regular file `path` (at most MaxStartupLogBytes); throws kvscope::Error naming it.
StartupLog readStartupLogFile(const QString &path);

/// A start-up log is a few hundred kB; larger files are refused before they are read.
inline constexpr qint64 MaxStartupLogBytes = qint64(64) << 20;

} // namespace kvscope
