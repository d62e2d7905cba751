// SPDX-License-Identifier: MIT
// The quantization pipeline in one call, as planMemory() is for memory: load
// the tensor (or reuse one already loaded), scan it, bin its values and
// simulate every scheme. The command line and the window's views all run it;
// it touches no widget, so it may run on a worker thread.
#pragma once

#include "core/quantization/activations.h"
#include "core/quantization/histogram.h"
#include "core/quantization/parallel.h"
#include "core/quantization/scheme.h"
#include "core/quantization/simulator.h"
#include "core/quantization/synthetic.h"
#include "core/quantization/tensordata.h"

#include <optional>
#include <variant>

#include <QList>
#include <QString>

namespace kvscope::quant {

/// A tensor in a file: a .safetensors tensor by name, or a .npy file's only one.
struct TensorFile
{
    QString path;
    QString tensor; ///< empty: the file's only tensor

    friend bool operator==(const TensorFile &, const TensorFile &) = default;
};

/// Where the tensor comes from: generated, or read from a file.
using TensorSource = std::variant<SyntheticSpec, TensorFile>;

/// Generates or maps the tensor; throws kvscope::Error naming the option or
/// file at fault, Cancelled when the control's flag is set.
TensorData loadTensor(const TensorSource &source, const RunControl &control = {});

struct QuantRequest
{
    TensorSource source;
    QList<Scheme> schemes;
    SimulationOptions options;  ///< bins of every histogram; whether to bin the relative error
    bool valueHistogram = true; ///< also bin the tensor's values (options.bins over [min, max])
    /// The layer's activations [tokens, cols]: AWQ and GPTQ fit on their
    /// calibration rows, and every scheme gets the output SQNR on their held-out
    /// rows. Unset: synthetic ones when a scheme is AWQ or GPTQ, else none
    /// (no output error: it costs a few matrix products per scheme).
    std::optional<ActivationSource> activations;

    friend bool operator==(const QuantRequest &, const QuantRequest &) = default;
};

/// A loaded tensor with its scan. A caller that keeps it and passes it back
/// as `cached` spares a request for the same source the load and the scan.
struct LoadedTensor
{
    TensorSource source;
    TensorData data;
    TensorStats stats;
};

struct QuantOutcome
{
    LoadedTensor tensor;
    std::optional<Histogram> values;              ///< when the request asked for it
    QList<SchemeResult> results;                  ///< one per scheme, in the request's order
    std::optional<ActivationSummary> activations; ///< what the output error was measured on
};

/// Loads `request.source` (or takes `cached` when it holds an equal source),
/// scans it, bins its values when asked and simulates every scheme (fitting
/// AWQ and GPTQ to the activations, measuring the output error). Progress
/// goes from 0 to 1 over the whole run. Throws kvscope::Error for bad input
/// and Cancelled when the control's flag is set.
QuantOutcome runQuantization(const QuantRequest &request, const std::optional<LoadedTensor> &cached = {},
                             const RunControl &control = {});

} // namespace kvscope::quant
