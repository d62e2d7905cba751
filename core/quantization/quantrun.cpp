// SPDX-License-Identifier: MIT
#include "core/quantization/quantrun.h"

#include "core/quantization/activationquant.h"
#include "core/quantization/awq.h"
#include "core/quantization/gptq.h"
#include "core/quantization/outputerror.h"
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

namespace {

/// The activations a request measures with, if any.
std::optional<ActivationSource> activationSource(const QuantRequest &request)
{
    if (request.activations)
        return request.activations;
    // AWQ and GPTQ fit on activations; a W8A8 scheme's output error quantizes them.
    const bool calibrated =
        std::any_of(request.schemes.cbegin(), request.schemes.cend(), [](const Scheme &s) {
            return s.isCalibrated() || s.activations != ActivationQuantization::None;
        });
    return calibrated ? std::optional<ActivationSource>(SyntheticActivations{}) : std::nullopt;
}

/// The tensor as row-major float32: its own buffer when it is one, else decoded into `buffer`.
dense::ConstMatrixRef denseWeights(const TensorData &data, std::vector<float> &buffer)
{
    buffer.resize(size_t(data.elements()));
    const float *values = data.floats(0, data.elements(), buffer.data());
    if (values != buffer.data())
        buffer = {};
    return {values, data.rows(), data.cols(), data.cols()};
}

} // namespace

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
    const std::optional<ActivationSource> source = activationSource(request);
    if (!source) {
        for (const Scheme &scheme : request.schemes)
            outcome.results << simulateScheme(data, stats, scheme, request.options, nextSlice());
        return outcome;
    }
    std::vector<float> buffer;
    const dense::ConstMatrixRef weights = denseWeights(data, buffer);
    const Activations activations = loadActivations(*source, data.cols(), control);
    outcome.activations = activations.summary();
    const double energy = outputEnergy(activations.heldOut(), weights, control);
    for (const Scheme &scheme : request.schemes) {
        const RunControl slice = nextSlice();
        FittedWeights fitted;
        if (scheme.isCalibrated())
            fitted = scheme.method == IntMethod::Awq
                         ? awqQuantize(weights, activations.calibration(), scheme, slice.slice(0.0, 0.7))
                         : gptqQuantize(weights, activations.calibration(), scheme, slice.slice(0.0, 0.7));
        else
            fitted.values = dequantizeTensor(data, stats, scheme, slice.slice(0.0, 0.7));
        SchemeResult result = simulateScheme(data, stats, scheme, request.options, slice.slice(0.7, 0.85),
                                             scheme.isCalibrated() ? &fitted : nullptr);
        if (scheme.activations == ActivationQuantization::None) {
            result.outputSqnrDb = outputSqnrDb(activations.heldOut(), weights, fitted.values.data(), energy,
                                               slice.slice(0.85, 1.0));
        } else {
            const std::vector<float> quantized =
                quantizeActivations(activations.heldOut(), scheme.activations);
            result.outputSqnrDb = outputSqnrDb(activations.heldOut(), quantized.data(), weights,
                                               fitted.values.data(), energy, slice.slice(0.85, 1.0));
        }
        outcome.results << result;
    }
    return outcome;
}

} // namespace kvscope::quant
