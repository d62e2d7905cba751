// SPDX-License-Identifier: MIT
// The public serving-speed measurements (tests/data/serving-speed-measurements.json)
// as observations of the step model: each row's scenario, what was measured
// (a decode step, a whole static batch, a time to first token) and the model's
// prediction of it under given constants, with the linear features the
// constants are fitted on.
#pragma once

#include "core/plan/memoryplan.h"
#include "core/plan/speedconstants.h"
#include "core/scenario/scenario.h"

#include <vector>

#include <QJsonObject>
#include <QList>
#include <QString>

namespace kvscope::validation {

enum class Measured
{
    DecodeStep,  ///< median inter-token latency, one decode step at the batch
    ServingStep, ///< vllm bench serve's mean TPOT / ITL at a concurrency: the average step, prompt chunks
                 ///< included
    EndToEnd,    ///< a static batch: prefill of every prompt, then output_len decode steps
    FirstToken,  ///< time to first token of a lone request: one prefill
    /// time to first token under open-loop arrivals (a request rate): half a decode step of the
    /// requests in flight, then one prefill (SpeedModel::firstTokenSecondsUnderLoad)
    FirstTokenUnderLoad,
    PrefillPass, ///< a static batch's prefill passes timed in-process: no request handling
    /// vllm bench serve's output throughput at a concurrency, and nothing else: N users x output_len
    /// over it is a request's mean time (a closed loop, Little's law), SpeedModel::serving's requestSeconds
    ServingRequest,
};

/// Times to first token and isolated prefill passes: what prices a prompt
/// alone, fitted apart from decode steps and runs.
inline bool measuresPrefillOnly(Measured m)
{
    return m == Measured::FirstToken || m == Measured::FirstTokenUnderLoad || m == Measured::PrefillPass;
}

enum class Split
{
    Calibration,
    HeldOut,
    Outside, ///< kvscope does not model what was measured (the row says why)
};

struct Observation
{
    QString id;
    QString source;
    Measured measured = Measured::DecodeStep;
    Split split = Split::Calibration;
    QString outsideReason; ///< Split::Outside: why; also a row that cannot be planned
    QString explainedMiss; ///< the data file's explanation of a prediction outside ±25 %
    QStringList tags;
    QString pair;
    Scenario scenario;
    MemoryPlan plan;
    std::int64_t sequences = 1;
    std::int64_t promptLen = 0;
    std::int64_t outputLen = 0;
    double seconds = 0; ///< measured
};

/// Every observation of the data file; rows no observation can be read from
/// (no batch, no metric the model predicts) are left out.
QList<Observation> readObservations(const QString &path);

/// The model's seconds for the observation under `constants`.
double predictedSeconds(const Observation &o, const SpeedConstants &constants);

/// What a fit keeps at `start`'s value instead of fitting it.
enum class FitHold
{
    Nothing,
    /// The all-reduce latency and the cost per MoE layer: taken from the engines' kernel timings
    /// (docs/speed-validation.md), not from the serving measurements.
    KernelTimings,
};

/// The constants refitted on the calibration observations (Lawson-Hanson with
/// efficiencies at most MaxEfficiency), starting from `start` for which passes
/// are compute-bound.
SpeedConstants fitConstants(const QList<Observation> &observations, const SpeedConstants &start,
                            FitHold hold = FitHold::Nothing);

/// No kernel reaches the whole datasheet bandwidth or peak.
inline constexpr double MaxEfficiency = 0.95;

} // namespace kvscope::validation
