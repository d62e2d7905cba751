// SPDX-License-Identifier: MIT
#include "core/quantization/quantrun.h"

#include "core/quantization/tensorsource.h"

#include <algorithm>

namespace kvscope::quant {

TensorData loadTensor(const TensorSource &source, const RunControl &control)
{
    if (const auto *spec = std::get_if<SyntheticSpec>(&source))
        return generateSynthetic(*spec, control);
    const auto &file = std::get<TensorFile>(source);
    return openTensor(file.path, file.tensor);
}

QuantOutcome runQuantization(const QuantRequest &request, const std::optional<LoadedTensor> &cached,
                             const RunControl &control)
{
    QuantOutcome outcome;
    // Progress: loading and scanning a new tensor take the first 30 %.
    const bool reuse = cached && cached->source == request.source;
    const double loaded = reuse ? 0.0 : 0.3;
    if (reuse) {
        outcome.tensor = *cached;
    } else {
        outcome.tensor.source = request.source;
        outcome.tensor.data = loadTensor(request.source, control.slice(0.0, 0.2));
        outcome.tensor.stats = scanTensor(outcome.tensor.data, control.slice(0.2, loaded));
    }
    const TensorData &data = outcome.tensor.data;
    const TensorStats &stats = outcome.tensor.stats;
    // Then one equal share for every pass over the tensor.
    const int passes = int(request.schemes.size()) + (request.valueHistogram ? 1 : 0);
    const double perPass = (1.0 - loaded) / double(std::max(passes, 1));
    int pass = 0;
    const auto nextSlice = [&] {
        const double from = loaded + perPass * pass++;
        return control.slice(from, from + perPass);
    };
    if (request.valueHistogram)
        outcome.values = valueHistogram(data, stats, request.options.bins, nextSlice());
    for (const Scheme &scheme : request.schemes)
        outcome.results << simulateScheme(data, stats, scheme, request.options, nextSlice());
    return outcome;
}

} // namespace kvscope::quant
