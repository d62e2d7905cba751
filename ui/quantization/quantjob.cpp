// SPDX-License-Identifier: MIT
#include "quantization/quantjob.h"

#include "quantization/tensorsource.h"

namespace kvscope {

QuantOutcome runQuantJob(const QuantRequest &request, const std::optional<LoadedTensor> &cached,
                         const quant::RunControl &control)
{
    QuantOutcome outcome;
    // Progress: loading and scanning a new tensor take the first 30 %.
    const bool reuse = cached && cached->source == request.source;
    const double loaded = reuse ? 0.0 : 0.3;
    if (reuse) {
        outcome.tensor = *cached;
    } else {
        outcome.tensor.source = request.source;
        outcome.tensor.data = request.source.synthetic
                                  ? quant::generateSynthetic(request.source.spec, control.slice(0.0, 0.2))
                                  : quant::openTensor(request.source.path, request.source.tensor);
        outcome.tensor.stats = quant::scanTensor(outcome.tensor.data, control.slice(0.2, loaded));
    }
    const double perPass = (1.0 - loaded) / double(request.schemes.size() + 1);
    outcome.values = quant::valueHistogram(outcome.tensor.data, outcome.tensor.stats, request.bins,
                                           control.slice(loaded, loaded + perPass));
    quant::SimulationOptions options;
    options.bins = request.bins;
    for (int i = 0; i < request.schemes.size(); ++i) {
        const double from = loaded + perPass * (i + 1);
        outcome.results << quant::simulateScheme(outcome.tensor.data, outcome.tensor.stats,
                                                 request.schemes[i], options,
                                                 control.slice(from, from + perPass));
    }
    return outcome;
}

} // namespace kvscope
