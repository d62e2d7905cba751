// SPDX-License-Identifier: MIT
// Published timings of one all-reduce kernel (tests/data/allreduce-latency-measurements.json),
// set against the all-reduce latency the speed model's fit gives.
#pragma once

#include "core/gpu/gpuspec.h"

#include <QList>
#include <QString>

namespace kvscope::validation {

struct AllReduceTiming
{
    QString id;
    QString source;
    QString gpu; ///< a preset id, empty where the source does not name the GPU
    int gpus = 0;
    double messageBytes = 0;
    double seconds = 0; ///< measured, per all-reduce
};

/// Every row of the data file. Throws kvscope::Error naming the file and the row for a row
/// without a positive GPU count, message size or latency.
QList<AllReduceTiming> readAllReduceTimings(const QString &path);

/// What of the timing is left once kvscope's transfer time for its message over `links`'s
/// NVLink figure is taken out (allReduceTransferSeconds): the latency the step model prices.
double latencyBeyondTransfer(const AllReduceTiming &timing, const GpuSpec &links);

} // namespace kvscope::validation
