// SPDX-License-Identifier: MIT
// A vLLM or SGLang start-up log explained: the scenario it describes (read from the log,
// with what had to be assumed), kvscope's plan of it, every component of the
// memory logged beside planned, why the KV cache has the size it has, and what
// would make it larger.
#pragma once

#include "core/analysis/startuplog.h"
#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"

#include <cstdint>
#include <optional>

#include <QDate>
#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

/// What the user gives beside the log; each overrides what the log says.
struct LogOverrides
{
    QString model;       ///< --model: a preset, repository id, config.json or model folder
    QString gpu;         ///< --gpu: a preset or custom:...
    QString vllmVersion; ///< --vllm-version: the release, when the log does not print it (x.y)
};

/// One part of the memory, as the log prints it and as kvscope plans it.
struct LogComponent
{
    QString key;   ///< "weights", "activation_peak", "non_torch", "cuda_graphs", "rest_of_budget", "kv_cache"
    QString label; ///< "Weights", translated by the caller's context (kvscope::LogExplanation)
    std::optional<double> loggedGiB; ///< as printed (two decimals); absent when the log does not say
    std::int64_t predictedBytes = 0;

    /// The printed GiB in bytes (2^30 B per GiB, rounded): what the log stands for, ±0.005 GiB.
    std::optional<std::int64_t> loggedBytes() const;
    /// How far kvscope is validated to agree for this part (docs/validation.md: the tolerances for
    /// the modelled vLLM releases): a relative share of the logged figure.
    double tolerance = 0.01;
    /// Within the log's rounding (0.01 GiB) or the tolerance.
    bool agrees() const;
    /// The log does not print it: its figure is what the budget leaves beyond the parts it prints.
    bool derived = false;
};

/// A change that would hold more tokens, planned.
struct KvLever
{
    QString what;            ///< "an FP8 KV cache (--kv-cache-dtype fp8)"
    ScenarioValues changes;  ///< the options it sets, as calc takes them
    std::int64_t tokens = 0; ///< the KV cache's tokens with it
    QString launch;          ///< the engine's command line with it
};

struct LogExplanation
{
    StartupLog log;
    ScenarioValues options; ///< the calc options that reproduce the scenario
    Scenario scenario;
    MemoryPlan plan;
    QStringList read;    ///< "tensor_parallel_size = 2 (line 3)", every argument and figure used
    QStringList assumed; ///< what the log does not say and kvscope took
    QList<LogComponent> components;
    std::optional<std::int64_t> loggedKvTokens;
    std::optional<double> loggedMaxConcurrency;           ///< vLLM's "Maximum concurrency"
    std::optional<std::int64_t> loggedMaxRunningRequests; ///< SGLang's max_running_requests
    QStringList explanation;                              ///< plain sentences, with kvscope's numbers
    QList<KvLever> levers;
    /// The log's own model argument where kvscope plans a preset for it (a model folder of another machine,
    /// a quantized checkpoint of a preset): the launch lines serve it. Empty otherwise.
    QString servedModel;
    bool servedCheckpointQuantized =
        false; ///< that argument is a checkpoint stored as the log's --quantization

    /// The components whose logged figure kvscope does not reproduce.
    QStringList disagreeing() const;
};

/// The memory the log measured for the deployment it ran ("calibrate from this log"): its
/// weights, activation peak, non-torch memory and CUDA-graph estimate, for later plans of that
/// deployment (MeasuredMemory::appliesTo); `source` names the log, its release and `date`. Throws
/// kvscope::Error naming the log when it is SGLang's or a pipeline's (whose ranks differ) or
/// measured none of them.
MeasuredMemory measuredMemory(const LogExplanation &e, const QDate &date);

/// Explains a read log. Throws kvscope::Error "ORIGIN: ..." when the scenario
/// cannot be inferred (no model, a GPU memory no preset has, pipeline parallelism)
/// or planned, naming the log's value and the option that would settle it.
LogExplanation explainStartupLog(const StartupLog &log, const LogOverrides &overrides,
                                 const ScenarioResolvers &resolve);

} // namespace kvscope
