// SPDX-License-Identifier: MIT
// The vLLM start-up logs of tests/data/vllm-logs.json, each planned with
// planMemory() and compared figure by figure with what vLLM logged.
#pragma once

#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"
#include "tests/core/median.h"

#include <optional>

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope::validation {

/// How closely a log is expected to agree, by how it relates to the constants
/// kvscope was calibrated on (runtime.h: activation and non-torch memory).
enum class LogClass
{
    Calibration,       ///< the vLLM 0.19 logs the constants were fitted to
    CalibrationRepeat, ///< a calibration run again with only --max-model-len or the dtype's name changed
    ModelledVersion,   ///< other vLLM logs from 0.10 on, each planned with its release's profile
    OtherVersion,      ///< vLLM releases before 0.10, whose accounting kvscope does not model
    Sglang             ///< SGLang's max_total_num_tokens
};

/// Relative tolerance per figure; figures logged to two decimals also get an
/// absolute floor of 0.01 (GiB or x), their rounding step.
struct Tolerances
{
    double weights;
    double activation;
    double nonTorch;
    double kvMemory;
    double kvTokens;
    double concurrency;
};

Tolerances tolerancesFor(LogClass logClass);
QString className(LogClass logClass);

/// The ids vLLM's activation and non-torch constants were calibrated on.
const QList<int> &calibrationIds();

/// One compared quantity: what the log says and what kvscope predicts.
struct Figure
{
    QString label;                ///< "KV cache tokens"
    std::optional<double> logged; ///< absent when the log does not give it
    double predicted = 0;
    double tolerance = 0; ///< relative
    double floor = 0;     ///< absolute slack (rounding of the logged figure)
    int decimals = 2;     ///< for the predicted figure in the table

    bool isLogged() const { return logged.has_value(); }
    bool within() const;
    double relativeError() const; ///< (predicted - logged) / logged
};

/// A modelled log: its scenario, the plan and every figure compared.
struct LogCheck
{
    int id = 0;
    QJsonObject entry; ///< the log as stored
    LogClass logClass = LogClass::OtherVersion;
    Scenario scenario;
    MemoryPlan plan;

    Figure weights, activation, nonTorch, kvMemory, kvTokens, concurrency;
    std::optional<bool> loggedStarts; ///< false when the log shows vLLM refusing to start

    QString miss;        ///< the data file's explanation when a figure is out of tolerance
    QString assumptions; ///< inputs the log does not state, as the data file fills them in

    QList<const Figure *> figures() const;
    bool startsAsLogged() const { return !loggedStarts || *loggedStarts == plan.engineStarts; }
    bool withinTolerance() const;
};

/// The log entries as stored; throws kvscope::Error for an unreadable file.
QJsonArray readLogs(const QString &path);

/// The scenario of an entry's "kvscope" object (the engine's arguments as
/// kvscope options) under --vllm-version `vllmVersion`; throws kvscope::Error
/// naming the entry and field.
Scenario scenarioFor(const QJsonObject &options, const QString &vllmVersion, const QString &origin);

/// The --vllm-version an entry is planned with: its logged release, or 0.10
/// (the oldest modelled) for older ones; empty for other engines.
QString plannedVllmVersion(const QJsonObject &entry);

/// Plans one modelled entry and fills in every figure.
LogCheck checkLog(const QJsonObject &entry);

/// The held-out vLLM logs (from 0.10 on, outside the calibration set and its repeats) and how many
/// agree on the KV cache (its tokens, or its memory where a log gives no token count).
struct HeldOutKvAgreement
{
    int logs = 0;
    int withinOnePercent = 0;
    int withinThreePercent = 0;
};
HeldOutKvAgreement heldOutKvAgreement(const QList<LogCheck> &checks);

/// vLLM's CUDA-graph estimate ("Estimated CUDA graph memory: X GiB total", printed from 0.19 on whether
/// or not the release takes it out of the budget) against kvscope's (MemoryPlan::cudaGraphProfile).
struct CudaGraphEstimateCheck
{
    const LogCheck *log = nullptr;
    double loggedGiB = 0;
    double predictedGiB = 0;

    double relativeError() const { return (predictedGiB - loggedGiB) / loggedGiB; }
};
/// Every modelled log that prints the estimate, in the checks' order.
QList<CudaGraphEstimateCheck> cudaGraphEstimateChecks(const QList<LogCheck> &checks);

/// "vLLM 0.19" from "0.19.0", "~0.11.0 (inferred...)"; "SGLang" for SGLang logs.
QString engineVersion(const QJsonObject &entry);

/// The first URL in the entry's "source".
QString sourceUrl(const QJsonObject &entry);

} // namespace kvscope::validation
