// SPDX-License-Identifier: MIT
// What the Quantization view asks the simulator for, and what comes back.
// Plain values: the job runs on a worker thread (QtConcurrent) and touches
// no widget; the view applies the outcome on the GUI thread.
#pragma once

#include "quantization/histogram.h"
#include "quantization/parallel.h"
#include "quantization/scheme.h"
#include "quantization/simulator.h"
#include "quantization/synthetic.h"

#include <optional>

#include <QList>
#include <QString>

namespace kvscope {

/// Where the tensor comes from.
struct QuantSource
{
    bool synthetic = true;
    quant::SyntheticSpec spec;
    QString path;
    QString tensor;

    friend bool operator==(const QuantSource &a, const QuantSource &b)
    {
        if (a.synthetic != b.synthetic)
            return false;
        if (a.synthetic)
            return a.spec.kind == b.spec.kind && a.spec.rows == b.spec.rows && a.spec.cols == b.spec.cols &&
                   a.spec.seed == b.spec.seed && a.spec.standardDeviation == b.spec.standardDeviation;
        return a.path == b.path && a.tensor == b.tensor;
    }
};

struct QuantRequest
{
    QuantSource source;
    QList<quant::Scheme> schemes;
    int bins = 256;
};

/// A loaded tensor with its scan, kept by the view so a new request for the
/// same source skips loading and scanning.
struct LoadedTensor
{
    QuantSource source;
    quant::TensorData data;
    quant::TensorStats stats;
};

struct QuantOutcome
{
    LoadedTensor tensor;
    quant::Histogram values;
    QList<quant::SchemeResult> results;
};

/// Loads (or reuses `cached` when it holds the same source), scans, bins the
/// values and simulates every scheme. Throws kvscope::Error for bad input
/// and quant::Cancelled when the control's flag is set.
QuantOutcome runQuantJob(const QuantRequest &request, const std::optional<LoadedTensor> &cached,
                         const quant::RunControl &control);

} // namespace kvscope
