// SPDX-License-Identifier: MIT
#include "core/compare/accuracy.h"

#include "core/common/error.h"
#include "core/compare/kvhead.h"
#include "core/model/checkpointscan.h"
#include "core/quantization/schemecatalogue.h"
#include "core/quantization/tensorsource.h"
#include "core/scenario/scenario.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutexLocker>

namespace kvscope {

namespace {

using quant::ElementType;
using quant::Scheme;
using quant::SchemeKind;
using quant::SyntheticKind;
using quant::SyntheticSpec;
using quant::TensorSource;

// The synthetic tensors (docs/methodology.md, "Accuracy"): weights like a trained linear
// layer, keys and values like one KV head over a prompt.
constexpr double WeightStd = 0.02;    // LlamaConfig.initializer_range
constexpr double ChannelScale = 10.0; // four channels 2.5x, 5x, 7.5x, 10x
/// A synthetic weight tensor is at most this wide and tall. The error per
/// element does not depend on the layer's size, and 4096 x 4096 draws 16.8 M
/// of them; a 70B model's 8192 x 8192 layer (16384 for 405B) took four times
/// as long to generate, fit and multiply in every Compare, report and
/// accuracy card for no change in its figures beyond their second decimal.
constexpr std::int64_t WeightSampleDimension = 4096;
constexpr std::uint64_t WeightSeed = 1;
constexpr int TensorsKept = 3; // weights, keys, values of the last run

/// Bits of mantissa and exponent a 16/32-bit float type holds; a cast to a
/// type that holds both at least as wide is exact.
bool castIsExact(WeightDtype from, WeightDtype to)
{
    return from == to || to == WeightDtype::Float32;
}

Scheme castScheme(WeightDtype to)
{
    Scheme s;
    s.kind = to == WeightDtype::Float16 ? SchemeKind::Fp16 : SchemeKind::Bf16;
    return s;
}

QString storageName(ElementType type)
{
    return quant::elementTypeName(type).toLower();
}

QString syntheticDescription(const SyntheticSpec &spec)
{
    QString distribution =
        spec.kind == SyntheticKind::StudentT
            ? QCoreApplication::translate("kvscope::Accuracy", "Student-t (5 degrees of freedom)")
            : QCoreApplication::translate("kvscope::Accuracy", "Gaussian");
    QString text = QCoreApplication::translate("kvscope::Accuracy", "synthetic %1, std %2")
                       .arg(distribution)
                       .arg(spec.effectiveStd());
    if (spec.channelScale > 0)
        text += QCoreApplication::translate("kvscope::Accuracy", ", 4 %1 channels %2x, %3x, %4x, %5x larger")
                    .arg(spec.kind == SyntheticKind::StudentT
                             ? QCoreApplication::translate("kvscope::Accuracy", "input")
                             : QCoreApplication::translate("kvscope::Accuracy", "key"))
                    .arg(spec.channelScale * 0.25)
                    .arg(spec.channelScale * 0.5)
                    .arg(spec.channelScale * 0.75)
                    .arg(spec.channelScale);
    text += QCoreApplication::translate("kvscope::Accuracy", ", seed %1, stored as %2")
                .arg(spec.seed)
                .arg(storageName(spec.storedAs));
    return text;
}

AccuracyTensor syntheticTensor(const SyntheticSpec &spec, const QString &stands, std::int64_t rows,
                               std::int64_t cols)
{
    AccuracyTensor t;
    t.source = spec;
    t.stands = stands;
    t.description = syntheticDescription(spec);
    t.rows = spec.rows;
    t.cols = spec.cols;
    if (rows != spec.rows || cols != spec.cols)
        t.clipping = QCoreApplication::translate(
                         "kvscope::Accuracy", "[%1, %2] simulated as a [%3, %4] sample of its distribution")
                         .arg(rows)
                         .arg(cols)
                         .arg(spec.rows)
                         .arg(spec.cols);
    return t;
}

/// The linear layer whose shape the weight tensor takes, as a checkpoint names it.
struct LinearLayer
{
    QString name; ///< "model.layers.0.self_attn.o_proj.weight"
    std::int64_t rows = 0;
    std::int64_t cols = 0;
};

LinearLayer weightLayer(const ModelArch &m, const QuantizationSpec &quantization)
{
    int layer = 0;
    if (quantization.method == QuantMethod::Mxfp4 && m.moe.enabled()) {
        while (layer + 1 < m.numLayers && !m.isMoeLayer(layer))
            ++layer;
        return {QStringLiteral("model.layers.%1.mlp.experts.0.down_proj.weight").arg(layer), m.hiddenSize,
                m.moe.expertIntermediateSize};
    }
    while (layer + 1 < m.numLayers && m.isRecurrentLayer(layer))
        ++layer;
    const int valueDim = m.usesMla() ? m.mla.vHeadDim : (m.vHeadDim > 0 ? m.vHeadDim : m.headDim);
    return {QStringLiteral("model.layers.%1.self_attn.o_proj.weight").arg(layer), m.hiddenSize,
            std::int64_t(m.numHeads) * valueDim};
}

/// The shard of a model folder that holds a tensor whose name ends with
/// `suffix` (multimodal checkpoints prefix "language_model."), or nothing.
std::optional<quant::TensorFile> findCheckpointTensor(const QString &folder, const QString &suffix,
                                                      QStringList &notes)
{
    const QDir dir(folder);
    const auto matches = [&](const QString &name) {
        return name == suffix || name.endsWith(QLatin1Char('.') + suffix);
    };
    QStringList shards;
    const QString indexPath = dir.filePath(QStringLiteral("model.safetensors.index.json"));
    if (QFileInfo::exists(indexPath)) {
        // Checked at import; read again, as checked, in case the folder changed since.
        try {
            const QHash<QString, QStringList> tensorsByShard = readSafetensorsIndex(indexPath);
            for (auto it = tensorsByShard.begin(); it != tensorsByShard.end(); ++it)
                if (std::any_of(it.value().begin(), it.value().end(), matches))
                    shards << it.key();
        } catch (const Error &error) {
            notes << QCoreApplication::translate("kvscope::Accuracy",
                                                 "%1: simulated on a synthetic tensor instead")
                         .arg(error.message());
            return std::nullopt;
        }
    }
    if (shards.isEmpty())
        shards = dir.entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name);
    for (const QString &shard : std::as_const(shards)) {
        const QString path = dir.filePath(shard);
        for (const quant::TensorInfo &info : quant::listTensors(path)) {
            if (!matches(info.name))
                continue;
            if (!info.unusableReason.isEmpty()) {
                notes << QCoreApplication::translate(
                             "kvscope::Accuracy",
                             "%1 in %2 is %3 %4 (%5): simulated on a synthetic tensor instead")
                             .arg(info.name, shard, info.dtype, info.shapeText(), info.unusableReason);
                return std::nullopt;
            }
            return quant::TensorFile{path, info.name};
        }
    }
    notes << QCoreApplication::translate("kvscope::Accuracy",
                                         "no tensor named *%1 in %2: simulated on a synthetic tensor instead")
                 .arg(suffix, folder);
    return std::nullopt;
}

/// The activations Compare fits AWQ and GPTQ on: the quantization view's 2,048
/// calibration rows, but 64 held-out rows instead of 256. The output SQNR then
/// rests on 64 x 4,096 outputs of a 4096-wide layer (enough for two decimals)
/// and costs a quarter of the products: every Compare, report and explorer
/// accuracy card with an AWQ or GPTQ column runs it.
quant::SyntheticActivations comparisonActivations()
{
    quant::SyntheticActivations activations;
    activations.heldOutRows = 64;
    return activations;
}

/// What Compare's activations are, as its notes name them.
QString syntheticActivationsDescription()
{
    return QCoreApplication::translate("kvscope::Accuracy",
                                       "synthetic activations with %1 % outlier channels %2x to %3x larger")
        .arg(quant::OutlierChannelShare * 100)
        .arg(quant::SmallestOutlierMultiplier)
        .arg(quant::LargestOutlierMultiplier);
}

/// The simulator scheme that models a weight quantization, or nothing (with a note).
std::optional<Scheme> weightScheme(const QuantizationSpec &spec, QStringList &notes)
{
    Scheme s;
    switch (spec.method) {
    case QuantMethod::None:
        return std::nullopt;
    case QuantMethod::Awq:
    case QuantMethod::Gptq:
        if (spec.bits < 2 || spec.bits > 4) {
            notes << QCoreApplication::translate(
                         "kvscope::Accuracy", "%1-bit groups are not modelled by the simulator (2 to 4 bits)")
                         .arg(spec.bits);
            return std::nullopt;
        }
        s.kind = SchemeKind::Int;
        s.bits = spec.bits;
        s.method = spec.method == QuantMethod::Awq ? quant::IntMethod::Awq : quant::IntMethod::Gptq;
        s.symmetric = spec.method == QuantMethod::Gptq; // AutoGPTQ's default sym=True; AWQ zero points
        s.groupSize = spec.groupSize;
        notes << QCoreApplication::translate(
                     "kvscope::Accuracy",
                     "simulated with %1, fitted on %2 rows of %3; the output SQNR is on %4 held-out rows")
                     .arg(spec.method == QuantMethod::Awq
                              ? QCoreApplication::translate(
                                    "kvscope::Accuracy",
                                    "AWQ's activation-aware scale search (Lin et al. 2023)")
                              : QCoreApplication::translate(
                                    "kvscope::Accuracy",
                                    "GPTQ's error-compensating rounding (Frantar et al. 2022)"))
                     .arg(comparisonActivations().calibrationRows)
                     .arg(syntheticActivationsDescription())
                     .arg(comparisonActivations().heldOutRows);
        return s;
    case QuantMethod::Fp8:
        s.kind = SchemeKind::Fp8E4M3;
        if (spec.blockRows > 0 || spec.perChannelScales)
            notes << QCoreApplication::translate(
                         "kvscope::Accuracy",
                         "the checkpoint's %1 FP8 scales are simulated as one per-tensor scale (an "
                         "upper bound on the error)")
                         .arg(spec.blockRows > 0
                                  ? QCoreApplication::translate("kvscope::Accuracy", "%1 x %2 block")
                                        .arg(spec.blockRows)
                                        .arg(spec.blockCols)
                                  : QCoreApplication::translate("kvscope::Accuracy", "per-channel"));
        return s;
    case QuantMethod::Int8:
        s.kind = SchemeKind::Int8;
        return s;
    case QuantMethod::BitsAndBytesNf4:
        s.kind = SchemeKind::Nf4;
        notes << QCoreApplication::translate(
            "kvscope::Accuracy",
            "NF4 simulated with fp32 absmax per 64 (double quantization of the absmax not "
            "simulated)");
        return s;
    case QuantMethod::Mxfp4:
        s.kind = SchemeKind::Mxfp4;
        return s;
    case QuantMethod::CompressedTensors:
        if (!spec.floatWeights && spec.bits >= 2 && spec.bits <= 4 && spec.groupSize != 0) {
            s.kind = SchemeKind::Int;
            s.bits = spec.bits;
            s.symmetric = spec.symmetric;
            s.groupSize = spec.groupSize;
            return s;
        }
        if (!spec.floatWeights && spec.bits == 8 && spec.groupSize == -1) {
            s.kind = SchemeKind::Int8;
            return s;
        }
        if (spec.floatWeights && spec.bits == 8) {
            s.kind = SchemeKind::Fp8E4M3;
            if (spec.groupSize != 0)
                notes << QCoreApplication::translate(
                    "kvscope::Accuracy",
                    "the checkpoint's per-channel FP8 scales are simulated as one per-tensor "
                    "scale (an upper bound on the error)");
            return s;
        }
        notes << QCoreApplication::translate("kvscope::Accuracy",
                                             "compressed-tensors scheme %1 is not modelled by the simulator")
                     .arg(spec.scheme.isEmpty() ? describe(spec) : spec.scheme);
        return std::nullopt;
    }
    return std::nullopt;
}

QString key(const TensorSource &source)
{
    if (const auto *spec = std::get_if<SyntheticSpec>(&source))
        return QStringLiteral("synthetic %1 %2x%3 seed %4 std %5 channels %6 as %7")
            .arg(int(spec->kind))
            .arg(spec->rows)
            .arg(spec->cols)
            .arg(spec->seed)
            .arg(spec->standardDeviation, 0, 'g', 17)
            .arg(spec->channelScale, 0, 'g', 17)
            .arg(int(spec->storedAs));
    const auto &file = std::get<quant::TensorFile>(source);
    return QStringLiteral("file %1 %2").arg(file.path, file.tensor);
}

SimulatedError toError(const quant::SchemeResult &result, const quant::TensorStats &stats)
{
    SimulatedError e;
    e.scheme = result.scheme.id();
    e.signalSquares = stats.sumSquares;
    e.errorSquares = result.metrics.mse * double(result.metrics.elements);
    e.sqnrDb = result.metrics.sqnrDb;
    e.relativeError = e.signalSquares > 0 ? std::sqrt(e.errorSquares / e.signalSquares) : 0.0;
    e.clippedShare = result.metrics.clippedShare();
    e.flushedShare = result.metrics.flushedShare();
    e.fp8Scale = result.tensorScale;
    e.outputSqnrDb = result.outputSqnrDb;
    return e;
}

/// Every scheme on one tensor: taken from the cache, the rest simulated in one run.
/// `layerOutput`: also the error of the layer output on Compare's activations
/// (weights; a KV cache has no layer of its own to multiply).
QList<SimulatedError> simulate(const TensorSource &source, const QList<Scheme> &schemes, AccuracyCache &cache,
                               const quant::RunControl &control, bool layerOutput = false)
{
    QList<Scheme> missing;
    for (const Scheme &scheme : schemes)
        if (!cache.result(source, scheme))
            missing << scheme;
    if (!missing.isEmpty()) {
        quant::QuantRequest request;
        request.source = source;
        request.schemes = missing;
        request.options.bins = 16; // the histograms are not shown here
        request.options.relativeHistogram = false;
        request.valueHistogram = false;
        if (layerOutput ||
            std::any_of(missing.cbegin(), missing.cend(), [](const Scheme &s) { return s.isCalibrated(); }))
            request.activations = comparisonActivations();
        const quant::QuantOutcome outcome = quant::runQuantization(request, cache.tensor(source), control);
        cache.keepTensor(outcome.tensor);
        for (qsizetype i = 0; i < missing.size(); ++i)
            cache.keepResult(source, missing.at(i), toError(outcome.results.at(i), outcome.tensor.stats));
    }
    control.report(1.0);
    QList<SimulatedError> errors;
    for (const Scheme &scheme : schemes)
        errors << *cache.result(source, scheme);
    return errors;
}

/// nullopt for an exact result (no error on this tensor: lossless).
std::optional<SimulatedError> nonZero(const SimulatedError &error)
{
    if (error.errorSquares == 0)
        return std::nullopt;
    return error;
}

/// The SQNR of keys and values together (sums of both); nullopt when both are exact.
std::optional<double> combinedSqnr(const QList<SimulatedError> &errors)
{
    double signal = 0;
    double error = 0;
    for (const SimulatedError &e : errors) {
        signal += e.signalSquares;
        error += e.errorSquares;
    }
    if (error == 0)
        return std::nullopt;
    return 10.0 * std::log10(signal / error);
}

/// The weight format and the scheme that models it, without simulating: nullopt
/// when lossless (w.lossless) or not modelled (a note says why).
std::optional<Scheme> weightFormat(const Scenario &s, const MemoryPlan &plan, WeightAccuracy &w)
{
    const WeightDtype checkpoint =
        s.model.checkpointDtype == WeightDtype::Auto ? WeightDtype::BFloat16 : s.model.checkpointDtype;
    if (plan.modelFormat == ModelFormat::Gguf) {
        const QString type = plan.modelFileType.isEmpty()
                                 ? QCoreApplication::translate("kvscope::Accuracy", "GGUF blocks")
                                 : plan.modelFileType;
        w.format = QStringLiteral("%1 (GGUF)").arg(type);
        const QString upper = type.toUpper();
        if (upper == QLatin1String("F32") || upper == QLatin1String("F16") ||
            upper == QLatin1String("BF16")) {
            w.lossless = true;
            w.notes << QCoreApplication::translate("kvscope::Accuracy",
                                                   "the file's weights are stored unquantized");
        } else {
            w.notes << QCoreApplication::translate(
                           "kvscope::Accuracy",
                           "llama.cpp's %1 blocks are not modelled by the simulator; see the published "
                           "results")
                           .arg(type);
        }
        return std::nullopt;
    }
    if (plan.quantization.method == QuantMethod::None) {
        w.format = QCoreApplication::translate("kvscope::Accuracy", "%1 of a %2 checkpoint")
                       .arg(dtypeName(plan.dtype), dtypeName(checkpoint));
        if (castIsExact(checkpoint, plan.dtype)) {
            w.lossless = true;
            return std::nullopt;
        }
        return castScheme(plan.dtype);
    }
    w.format = describe(plan.quantization);
    std::optional<Scheme> scheme = weightScheme(plan.quantization, w.notes);
    if (scheme && plan.quantizationFromCheckpoint)
        w.notes << QCoreApplication::translate(
            "kvscope::Accuracy",
            "the checkpoint stores its weights quantized; the error is estimated against "
            "unquantized weights");
    return scheme;
}

/// The tensor a weight format is simulated on: the checkpoint's own linear
/// layer from a model folder with unquantized .safetensors, else a synthetic
/// one of its shape.
AccuracyTensor weightTensor(const Scenario &s, const MemoryPlan &plan, QStringList &notes)
{
    const ModelArch &m = s.model;
    const WeightDtype checkpoint =
        m.checkpointDtype == WeightDtype::Auto ? WeightDtype::BFloat16 : m.checkpointDtype;
    const LinearLayer layer = weightLayer(m, plan.quantization);
    std::optional<quant::TensorFile> file;
    if (m.measured.format == QLatin1String("safetensors") && QFileInfo(m.source).isDir() &&
        !plan.quantizationFromCheckpoint)
        file = findCheckpointTensor(m.source, layer.name.mid(layer.name.indexOf(QLatin1String("layers."))),
                                    notes);
    if (!file) {
        SyntheticSpec spec;
        spec.kind = SyntheticKind::StudentT;
        spec.rows = std::min(layer.rows, WeightSampleDimension);
        spec.cols = std::min(layer.cols, WeightSampleDimension);
        spec.seed = WeightSeed;
        spec.standardDeviation = WeightStd;
        spec.channelScale = ChannelScale;
        spec.storedAs = elementType(checkpoint);
        return syntheticTensor(spec, layer.name, layer.rows, layer.cols);
    }
    AccuracyTensor t;
    t.source = *file;
    t.stands = layer.name;
    t.fromCheckpoint = true;
    const quant::TensorData data = quant::openTensor(file->path, file->tensor);
    t.rows = data.rows();
    t.cols = data.cols();
    t.description = QCoreApplication::translate("kvscope::Accuracy", "%1 of %2 (%3)")
                        .arg(file->tensor, file->path, quant::elementTypeName(data.type()));
    return t;
}

/// How the engine's kernel quantizes the activations of the scenario's weight
/// format on its GPU (plan.speed: W8A8 where the GPU has the tensor cores, else
/// weight-only), with a note on what is simulated.
quant::ActivationQuantization activationQuantization(const MemoryPlan &plan, QStringList &notes)
{
    using quant::ActivationQuantization;
    if (plan.speed.weightOnly || plan.quantization.method == QuantMethod::None)
        return ActivationQuantization::None;
    switch (plan.speed.computeFormat) {
    case ComputeFormat::Fp8: {
        if (plan.quantization.method == QuantMethod::Mxfp4) {
            // FlashInfer's MXFP4 x MXFP8 MoE kernel (plan.speed's computePath puts it on the FP8 peak).
            notes << QCoreApplication::translate(
                "kvscope::Accuracy",
                "the layer output's error includes the activations' own MXFP8 rounding, one power-of-two "
                "scale per 32 values, as FlashInfer's mxfp8_quantize quantizes the experts' inputs for the "
                "MXFP4 x MXFP8 MoE kernel");
            return ActivationQuantization::Mxfp8;
        }
        const ActivationQuantization how = plan.quantization.blockRows > 0
                                               ? ActivationQuantization::Fp8PerTokenGroup128
                                               : ActivationQuantization::Fp8PerToken;
        notes << QCoreApplication::translate("kvscope::Accuracy",
                                             "the layer output's error includes the activations' own FP8 "
                                             "rounding, %1 as vLLM's W8A8 kernel quantizes them (fp8.py)")
                     .arg(
                         how == ActivationQuantization::Fp8PerToken
                             ? QCoreApplication::translate("kvscope::Accuracy", "one dynamic scale per token")
                             : QCoreApplication::translate("kvscope::Accuracy",
                                                           "one dynamic scale per 128 values of a token"));
        return how;
    }
    case ComputeFormat::Int8:
        notes << QCoreApplication::translate(
            "kvscope::Accuracy", "the layer output's error includes the activations' own INT8 "
                                 "rounding, one dynamic symmetric scale per token as "
                                 "compressed-tensors' W8A8 scheme quantizes them; INT8 checkpoints "
                                 "are usually made with SmoothQuant, which first moves the "
                                 "activations' outliers into the weights (not simulated: this is "
                                 "round-to-nearest)");
        return ActivationQuantization::Int8PerToken;
    case ComputeFormat::Fp4:
        notes << QCoreApplication::translate(
            "kvscope::Accuracy", "NVFP4's 4-bit activations are not simulated: the layer output's "
                                 "error is the weights' alone");
        return ActivationQuantization::None;
    case ComputeFormat::Float32:
    case ComputeFormat::Float16:
    case ComputeFormat::BFloat16:
        break;
    }
    return ActivationQuantization::None;
}

WeightAccuracy weightAccuracy(const Scenario &s, const MemoryPlan &plan, AccuracyCache &cache,
                              const quant::RunControl &control)
{
    WeightAccuracy w;
    const std::optional<Scheme> scheme = weightFormat(s, plan, w);
    if (!scheme)
        return w;
    w.tensor = weightTensor(s, plan, w.notes);
    Scheme simulated = *scheme;
    if (!scheme->isCalibrated()) // AWQ's and GPTQ's own note says where their output error comes from
        w.notes << QCoreApplication::translate("kvscope::Accuracy",
                                               "the layer output's SQNR is on %1 rows of %2")
                       .arg(comparisonActivations().heldOutRows)
                       .arg(syntheticActivationsDescription());
    simulated.activations = activationQuantization(plan, w.notes);
    w.error = nonZero(simulate(w.tensor.source, {simulated}, cache, control, true).constFirst());
    w.lossless = !w.error;
    return w;
}

/// The name the Quantization tab's scheme picker gives `scheme` (its group size
/// is the picker's own setting), or empty when it offers none such.
QString pickerName(Scheme scheme)
{
    scheme.activations = quant::ActivationQuantization::None; // the picker offers weight formats
    QString name = scheme.id();
    if (scheme.kind == SchemeKind::Int) // the id without its group suffix
        name = name.left(name.lastIndexOf(QLatin1Char('-')));
    for (const quant::SchemeEntry &entry : quant::schemeEntries())
        if (name == QLatin1String(entry.name))
            return name;
    return {};
}

/// The attention error of `scheme` on the cache `keys` and `values` describe
/// (MLA: no values; its latent is both, as absorbed MLA attends), for diffuse
/// queries and for queries on the keys' outlier channels.
QList<AttentionRun> attentionRuns(const SyntheticSpec &keys, const std::optional<SyntheticSpec> &values,
                                  const Scheme &scheme, bool calibratedScale, double logitScale,
                                  AccuracyCache &cache, const quant::RunControl &control)
{
    const QList<quant::QueryModel> models{quant::QueryModel::Diffuse, quant::QueryModel::KeyOutliers};
    QList<AttentionRun> runs;
    for (const quant::QueryModel model : models)
        if (const auto kept = cache.attention(keys, scheme, model))
            runs.append({model, calibratedScale, *kept});
    if (runs.size() == models.size())
        return runs;
    runs.clear();
    const ExtendedCache k = extendedCache(keys, scheme, control.slice(0.0, 0.3));
    const std::optional<ExtendedCache> v =
        values ? std::optional<ExtendedCache>(extendedCache(*values, scheme, control.slice(0.3, 0.6)))
               : std::nullopt;
    const ExtendedCache &vc = v ? *v : k;
    for (qsizetype i = 0; i < models.size(); ++i) {
        const std::vector<float> queries =
            quant::syntheticQueries(keys, models.at(i), AttentionQueries, QuerySeed);
        const double from = 0.6 + 0.2 * double(i);
        const QList<quant::AttentionErrorAt> errors = quant::attentionErrors(
            {queries.data(), AttentionQueries, keys.cols, keys.cols}, attentionCache(k, vc),
            attentionContexts(), logitScale, control.slice(from, from + 0.2));
        cache.keepAttention(keys, scheme, models.at(i), errors);
        runs.append({models.at(i), calibratedScale, errors});
    }
    return runs;
}

KvAccuracy kvAccuracy(const Scenario &s, const MemoryPlan &plan, AccuracyCache &cache,
                      const quant::RunControl &control)
{
    const ModelArch &m = s.model;
    KvAccuracy kv;
    kv.dtype = plan.kvCacheDtype;
    const WeightDtype activations = plan.dtype;
    std::optional<Scheme> engine;
    std::optional<Scheme> calibrated;
    switch (plan.kvCacheDtype) {
    case KvCacheDtype::Auto:
    case KvCacheDtype::Float32:
        kv.lossless = true;
        return kv;
    case KvCacheDtype::Float16:
    case KvCacheDtype::BFloat16: {
        const WeightDtype cache16 =
            plan.kvCacheDtype == KvCacheDtype::Float16 ? WeightDtype::Float16 : WeightDtype::BFloat16;
        if (castIsExact(activations, cache16)) {
            kv.lossless = true;
            return kv;
        }
        engine = castScheme(cache16);
        break;
    }
    case KvCacheDtype::Fp8:
    case KvCacheDtype::Fp8E4M3:
    case KvCacheDtype::Fp8E5M2:
    case KvCacheDtype::Nvfp4: {
        // vLLM's NVFP4 cache multiplies each block's E4M3 scale by the layer's k/v scale, 1.0
        // unless the checkpoint has one (tests/kernels/quantization/nvfp4_utils.py,
        // dequant_nvfp4_kv_cache: "global_scale: checkpoint dequant scale (k_scale or v_scale)").
        engine = kvCacheScheme(plan.kvCacheDtype, false);
        calibrated = kvCacheScheme(plan.kvCacheDtype, true);
        // Each engine's own statement of its default, quoted as its source words it.
        const QString defaultScaleSource =
            s.engine == Engine::Sglang
                ? QStringLiteral("sglang python/sglang/srt/layers/quantization/kv_cache.py: \"If no scales "
                                 "were loaded ... use the default value of 1.0\"")
                : QStringLiteral("docs.vllm.ai, Quantized KV Cache: \"No calibration (default scales): all "
                                 "quantization scales are set to 1.0\"");
        kv.engineScale =
            QCoreApplication::translate(
                "kvscope::Accuracy",
                "per-tensor 1.0: %1's k/v scale without calibrated scales (%2); a checkpoint with "
                "calibrated k/v scales runs near the calibrated figure (kvscope does not read them)")
                .arg(engineDisplayName(s.engine), defaultScaleSource);
        if (plan.kv.fp8DsMla)
            kv.notes << QCoreApplication::translate(
                "kvscope::Accuracy",
                "fp8_ds_mla keeps a float32 scale per 128 latent values; simulated with one "
                "per-tensor scale");
        break;
    }
    case KvCacheDtype::Fp4MxBlock16:
        // Each block's power-of-two scale follows its own values: no per-tensor scale to calibrate.
        engine = kvCacheScheme(plan.kvCacheDtype, true);
        kv.engineScale = QCoreApplication::translate(
            "kvscope::Accuracy", "a power-of-two scale per 16 values from the block's own maximum (SGLang's "
                                 "FP4MXBlock16KVQuantizeUtil); no per-tensor scale, so none to calibrate");
        break;
    case KvCacheDtype::Q8_0:
    case KvCacheDtype::Q4_0:
        kv.notes << QCoreApplication::translate(
                        "kvscope::Accuracy",
                        "llama.cpp's %1 KV blocks are not modelled by the simulator; see the published "
                        "results")
                        .arg(dtypeName(plan.kvCacheDtype));
        return kv;
    }

    const KvHead kvHeadTensors = kvHead(m, activations);
    const bool latent = kvHeadTensors.latent;
    const SyntheticSpec &keys = kvHeadTensors.keys;
    const QString head =
        latent ? QCoreApplication::translate(
                     "kvscope::Accuracy",
                     "the MLA latent (c_KV, %1 values, and the RoPE key, %2) of one layer over %3 tokens")
                     .arg(m.mla.kvLoraRank)
                     .arg(m.mla.qkRopeHeadDim)
                     .arg(KvTokens)
               : QCoreApplication::translate("kvscope::Accuracy",
                                             "the keys of one KV head of one layer over %1 tokens")
                     .arg(KvTokens);
    kv.keyTensor = syntheticTensor(keys, head, keys.rows, keys.cols);
    kv.latent = latent;

    QList<Scheme> schemes{*engine};
    if (calibrated)
        schemes << *calibrated;
    const double split = latent ? 1.0 : 0.5;
    const QList<SimulatedError> keyErrors = simulate(keys, schemes, cache, control.slice(0.0, split / 2));
    kv.keys = nonZero(keyErrors.at(0));
    if (calibrated)
        kv.calibratedKeys = nonZero(keyErrors.at(1));
    QList<SimulatedError> engineErrors{keyErrors.at(0)};
    QList<SimulatedError> calibratedErrors;
    if (calibrated)
        calibratedErrors << keyErrors.at(1);
    if (!latent) {
        const SyntheticSpec &values = *kvHeadTensors.values;
        kv.valueTensor =
            syntheticTensor(values,
                            QCoreApplication::translate(
                                "kvscope::Accuracy", "the values of one KV head of one layer over %1 tokens")
                                .arg(KvTokens),
                            values.rows, values.cols);
        const QList<SimulatedError> valueErrors =
            simulate(values, schemes, cache, control.slice(split / 2, 0.5));
        kv.values = nonZero(valueErrors.at(0));
        engineErrors << valueErrors.at(0);
        if (calibrated) {
            kv.calibratedValues = nonZero(valueErrors.at(1));
            calibratedErrors << valueErrors.at(1);
        }
    }
    kv.combinedSqnrDb = combinedSqnr(engineErrors);
    kv.calibratedCombinedSqnrDb = combinedSqnr(calibratedErrors);
    kv.lossless = !kv.keys && !kv.values;
    if (!kv.lossless) {
        const double logitScale = kvHeadTensors.logitScale;
        const std::optional<SyntheticSpec> &values = kvHeadTensors.values;
        kv.attention =
            attentionRuns(keys, values, *engine, false, logitScale, cache, control.slice(0.5, 0.75));
        if (calibrated)
            kv.attention +=
                attentionRuns(keys, values, *calibrated, true, logitScale, cache, control.slice(0.75, 1.0));
    }
    return kv;
}

QJsonValue optionalNumber(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonValue errorToJson(const std::optional<SimulatedError> &error)
{
    if (!error)
        return QJsonValue::Null;
    QJsonObject o;
    o.insert(u"scheme", error->scheme);
    o.insert(u"sqnr_db", error->sqnrDb);
    o.insert(u"relative_error", error->relativeError);
    o.insert(u"clipped_share", error->clippedShare);
    o.insert(u"flushed_share", error->flushedShare);
    if (error->fp8Scale > 0)
        o.insert(u"fp8_scale", error->fp8Scale);
    if (error->outputSqnrDb)
        o.insert(u"output_sqnr_db", *error->outputSqnrDb);
    return o;
}

/// null when nothing was simulated; an exact output (+inf dB) as null, which JSON cannot hold.
QJsonValue attentionToJson(const QList<AttentionRun> &runs)
{
    if (runs.isEmpty())
        return QJsonValue::Null;
    QJsonArray out;
    for (const AttentionRun &run : runs) {
        QJsonArray at;
        for (const quant::AttentionErrorAt &e : run.errors)
            at << quant::attentionErrorToJson(e);
        QJsonObject o;
        o.insert(u"queries", quant::queryModelName(run.queries));
        o.insert(u"query_count", qint64(AttentionQueries));
        o.insert(u"scale", kvScaleName(run.calibratedScale));
        o.insert(u"contexts", at);
        out << o;
    }
    return out;
}

QJsonValue tensorToJson(const AccuracyTensor &t)
{
    if (t.rows == 0)
        return QJsonValue::Null;
    QJsonObject o;
    o.insert(u"stands_for", t.stands);
    o.insert(u"source", std::holds_alternative<SyntheticSpec>(t.source)
                            ? std::get<SyntheticSpec>(t.source).origin()
                            : std::get<quant::TensorFile>(t.source).path);
    o.insert(u"description", t.description);
    o.insert(u"from_checkpoint", t.fromCheckpoint);
    o.insert(u"shape", QJsonArray{qint64(t.rows), qint64(t.cols)});
    o.insert(u"clipping", t.clipping.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(t.clipping));
    return o;
}

} // namespace

std::optional<quant::LoadedTensor> AccuracyCache::tensor(const quant::TensorSource &source) const
{
    const QMutexLocker lock(&m_mutex);
    for (const quant::LoadedTensor &t : m_tensors)
        if (t.source == source)
            return t;
    return std::nullopt;
}

void AccuracyCache::keepTensor(const quant::LoadedTensor &tensor)
{
    const QMutexLocker lock(&m_mutex);
    m_tensors.removeIf([&](const quant::LoadedTensor &t) { return t.source == tensor.source; });
    m_tensors << tensor;
    while (m_tensors.size() > TensorsKept)
        m_tensors.removeFirst();
}

std::optional<SimulatedError> AccuracyCache::result(const quant::TensorSource &source,
                                                    const quant::Scheme &scheme) const
{
    const QMutexLocker lock(&m_mutex);
    const auto it = m_results.constFind(key(source, scheme));
    if (it == m_results.cend())
        return std::nullopt;
    return *it;
}

void AccuracyCache::keepResult(const quant::TensorSource &source, const quant::Scheme &scheme,
                               const SimulatedError &error)
{
    const QMutexLocker lock(&m_mutex);
    m_results.insert(key(source, scheme), error);
}

std::optional<QList<quant::AttentionErrorAt>> AccuracyCache::attention(const quant::TensorSource &keys,
                                                                       const quant::Scheme &scheme,
                                                                       quant::QueryModel queries) const
{
    const QMutexLocker lock(&m_mutex);
    const auto it = m_attention.constFind(key(keys, scheme) + QString::number(int(queries)));
    if (it == m_attention.cend())
        return std::nullopt;
    return *it;
}

void AccuracyCache::keepAttention(const quant::TensorSource &keys, const quant::Scheme &scheme,
                                  quant::QueryModel queries, const QList<quant::AttentionErrorAt> &errors)
{
    const QMutexLocker lock(&m_mutex);
    m_attention.insert(key(keys, scheme) + QString::number(int(queries)), errors);
}

int AccuracyCache::simulatedCount() const
{
    const QMutexLocker lock(&m_mutex);
    return int(m_results.size() + m_attention.size());
}

QString AccuracyCache::key(const quant::TensorSource &source, const quant::Scheme &scheme)
{
    return QStringLiteral("%1 | %2 unit %3 saturate %4")
        .arg(kvscope::key(source), scheme.id())
        .arg(scheme.unitScale)
        .arg(scheme.saturate);
}

ScenarioTensorChoice scenarioTensorChoice(const Scenario &scenario, const MemoryPlan &plan,
                                          const QuantizationChoices &base)
{
    ScenarioTensorChoice c;
    WeightAccuracy w;
    std::optional<Scheme> scheme = weightFormat(scenario, plan, w);
    c.format = w.format;
    c.notes = w.notes;
    if (!scheme && w.lossless && plan.modelFormat != ModelFormat::Gguf) {
        scheme = castScheme(plan.dtype); // the weights' own dtype: shows that there is no error
        c.lossless = true;
    }
    if (!scheme)
        throw Error(QStringLiteral("the scenario's weights (%1) have no scheme in the simulator: %2")
                        .arg(w.format, w.notes.join(QStringLiteral("; "))));
    const QString name = pickerName(*scheme);
    if (name.isEmpty() ||
        (scheme->kind == SchemeKind::Int && !quant::groupSizeStops().contains(scheme->groupSize)))
        throw Error(QStringLiteral("the scenario's weights (%1) are simulated as %2, which the Quantization "
                                   "view does not offer")
                        .arg(w.format, scheme->id()));
    c.tensor = weightTensor(scenario, plan, c.notes);
    c.choices = base;
    c.choices.schemes = {name};
    if (scheme->kind == SchemeKind::Int)
        c.choices.groupSize = scheme->groupSize;
    if (const auto *file = std::get_if<quant::TensorFile>(&c.tensor.source)) {
        c.choices.input = file->path;
        c.choices.tensor = file->tensor;
    } else {
        const SyntheticSpec &spec = std::get<SyntheticSpec>(c.tensor.source);
        c.choices.input = spec.origin();
        c.choices.tensor.clear();
        c.choices.rows = spec.rows;
        c.choices.cols = spec.cols;
        c.choices.seed = spec.seed;
        c.choices.standardDeviation = spec.standardDeviation;
        c.notes << QCoreApplication::translate(
            "kvscope::Accuracy",
            "the view's synthetic tensors have no outlier channels and are not rounded to the checkpoint's "
            "dtype: its SQNR can differ from the Compare view's, which adds both");
    }
    return c;
}

Accuracy estimateAccuracy(const Scenario &scenario, const MemoryPlan &plan, AccuracyCache &cache,
                          const quant::RunControl &control)
{
    // The simulator checks the flag before every chunk; these checks cover the cached parts.
    const auto checkCancelled = [&control] {
        if (control.cancelled())
            throw quant::Cancelled();
    };
    Accuracy a;
    checkCancelled();
    a.weights = weightAccuracy(scenario, plan, cache, control.slice(0.0, 0.8));
    checkCancelled();
    a.kv = kvAccuracy(scenario, plan, cache, control.slice(0.8, 1.0));
    control.report(1.0);
    return a;
}

QList<std::int64_t> attentionContexts()
{
    return {1024, KvTokens, 8192};
}

std::optional<double> attentionOutputSqnrDb(const KvAccuracy &kv, quant::QueryModel queries)
{
    for (const AttentionRun &run : kv.attention) {
        if (run.calibratedScale || run.queries != queries)
            continue;
        for (const quant::AttentionErrorAt &at : run.errors)
            if (at.contextTokens == KvTokens && std::isfinite(at.outputSqnrDb))
                return at.outputSqnrDb;
    }
    return std::nullopt;
}

QJsonObject accuracyToJson(const Accuracy &a)
{
    QJsonObject weights;
    weights.insert(u"format", a.weights.format);
    weights.insert(u"lossless", a.weights.lossless);
    weights.insert(u"sqnr_db",
                   optionalNumber(a.weights.error ? std::optional(a.weights.error->sqnrDb) : std::nullopt));
    weights.insert(u"output_sqnr_db",
                   optionalNumber(a.weights.error ? a.weights.error->outputSqnrDb : std::nullopt));
    weights.insert(
        u"relative_error",
        optionalNumber(a.weights.error ? std::optional(a.weights.error->relativeError) : std::nullopt));
    weights.insert(u"error", errorToJson(a.weights.error));
    weights.insert(u"tensor", tensorToJson(a.weights.tensor));
    weights.insert(u"notes", QJsonArray::fromStringList(a.weights.notes));

    QJsonObject kv;
    kv.insert(u"dtype", dtypeName(a.kv.dtype));
    kv.insert(u"lossless", a.kv.lossless);
    kv.insert(u"sqnr_db", optionalNumber(a.kv.combinedSqnrDb));
    kv.insert(u"key_sqnr_db", optionalNumber(a.kv.keys ? std::optional(a.kv.keys->sqnrDb) : std::nullopt));
    kv.insert(u"value_sqnr_db",
              optionalNumber(a.kv.values ? std::optional(a.kv.values->sqnrDb) : std::nullopt));
    kv.insert(u"scale",
              a.kv.engineScale.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(a.kv.engineScale));
    kv.insert(u"keys", errorToJson(a.kv.keys));
    kv.insert(u"values", errorToJson(a.kv.values));
    kv.insert(u"calibrated_sqnr_db", optionalNumber(a.kv.calibratedCombinedSqnrDb));
    kv.insert(u"calibrated_keys", errorToJson(a.kv.calibratedKeys));
    kv.insert(u"calibrated_values", errorToJson(a.kv.calibratedValues));
    kv.insert(u"key_tensor", tensorToJson(a.kv.keyTensor));
    kv.insert(u"value_tensor", tensorToJson(a.kv.valueTensor));
    kv.insert(u"attention_output_sqnr_db",
              optionalNumber(attentionOutputSqnrDb(a.kv, quant::QueryModel::Diffuse)));
    kv.insert(u"attention_output_sqnr_db_key_outliers",
              optionalNumber(attentionOutputSqnrDb(a.kv, quant::QueryModel::KeyOutliers)));
    kv.insert(u"attention", attentionToJson(a.kv.attention));
    kv.insert(u"notes", QJsonArray::fromStringList(a.kv.notes));

    QJsonObject o;
    o.insert(u"weights", weights);
    o.insert(u"kv_cache", kv);
    return o;
}

} // namespace kvscope
