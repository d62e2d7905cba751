// SPDX-License-Identifier: MIT
// The JSON `vllm bench serve --save-result` writes: the figures a speed
// calibration needs from it (core/plan/speedcalibration.h).
#pragma once

#include <cstdint>

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace kvscope {

/// Larger files are refused before they are read (a result saved with its
/// per-request details, --save-detailed, is a few MB for thousands of requests).
inline constexpr qint64 MaxBenchResultBytes = qint64(64) << 20;

/// One benchmark run, as its file states it.
struct BenchResult
{
    QString modelId;              ///< "model_id": what the benchmark asked the server for
    std::int64_t concurrency = 0; ///< "max_concurrency", or "num_prompts" when it is null (all at once)
    double medianItlMs = 0;       ///< "median_itl_ms"
    std::int64_t contextLen = 0;  ///< mean input + half the mean output, rounded
    QString origin;               ///< the file
};

/// Parses a result's bytes. Throws kvscope::Error "ORIGIN: FIELD: ..." for a
/// missing field, a field of the wrong type, or no completed request.
BenchResult parseBenchResult(const QByteArray &bytes, const QString &origin);

/// Reads and parses the regular file `path`; throws kvscope::Error naming it.
BenchResult readBenchResult(const QString &path);

/// A warning when the benchmark's model_id is not the scenario's model (its id,
/// name or a HuggingFace repo id of it, case aside); empty when it is.
QString benchModelMismatch(const BenchResult &result, const QString &modelId, const QString &modelName,
                           const QStringList &repoIds);

} // namespace kvscope
