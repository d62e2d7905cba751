// SPDX-License-Identifier: MIT
#include "tests/core/speedobservations.h"

#include "core/common/error.h"
#include "core/library/library.h"
#include "core/plan/planner.h"
#include "core/plan/speed.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "tests/core/jsondatafile.h"
#include "tests/core/leastsquares.h"

#include <array>

#include <QJsonArray>

namespace kvscope::validation {

namespace {

QString text(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

/// The data file's quantization names (as its sources spell the formats) as kvscope specs.
std::optional<QuantizationSpec> quantizationOf(const QString &name)
{
    const auto spec = [](QuantMethod method, int bits = 4) {
        QuantizationSpec q = defaultSpecFor(method);
        q.bits = bits;
        return q;
    };
    if (name == QLatin1String("none"))
        return spec(QuantMethod::None);
    if (name == QLatin1String("fp8") || name == QLatin1String("fp8 w8a8"))
        return spec(QuantMethod::Fp8, 8);
    if (name == QLatin1String("int8 w8a8"))
        return spec(QuantMethod::Int8, 8);
    if (name == QLatin1String("awq") || name == QLatin1String("awq_marlin"))
        return spec(QuantMethod::Awq);
    if (name == QLatin1String("gptq") || name == QLatin1String("gptq_marlin") ||
        name == QLatin1String("w4a16"))
        return spec(QuantMethod::Gptq);
    // vLLM's RTN method (vllm-project/vllm#23197, removed in #32697) called Marlin itself
    // (apply_rtn_marlin_linear), as AWQ did before vllm-project/vllm#36505: priced as AWQ's 4 bits in
    // groups of 128 under the release the row names (kvscope_vllm_release), which keeps Marlin.
    if (name == QLatin1String("rtn int4"))
        return spec(QuantMethod::Awq);
    if (name == QLatin1String("int8 w8a16") || name == QLatin1String("gptq int8"))
        return spec(QuantMethod::Gptq, 8);
    if (name == QLatin1String("mxfp4"))
        return spec(QuantMethod::Mxfp4);
    return std::nullopt;
}

/// The measured seconds of a decode step, if the row gives one.
std::optional<double> stepSeconds(const QJsonObject &row)
{
    for (const char *key : {"itl_ms", "tpot_ms"})
        if (row.value(QLatin1String(key)).isDouble())
            return row.value(QLatin1String(key)).toDouble() / 1000;
    if (row.value(QLatin1String("decode_step_seconds")).isDouble())
        return row.value(QLatin1String("decode_step_seconds")).toDouble();
    return std::nullopt;
}

/// A steady-state measurement: vllm bench serve (or the like) at a fixed
/// concurrency, whose mean TPOT or ITL (and median TPOT, a per-request mean)
/// averages steps with and without prompt chunks; a median ITL is a step alone.
bool servingStep(const QJsonObject &row)
{
    const bool concurrent = row.value(QLatin1String("concurrency")).isDouble();
    const bool averaged =
        row.value(QLatin1String("tpot_ms")).isDouble() ||
        (row.value(QLatin1String("itl_ms")).isDouble() && text(row, "itl_stat") == QLatin1String("mean"));
    return concurrent && averaged && row.value(QLatin1String("prompt_len")).toInteger(0) > 0 &&
           row.value(QLatin1String("output_len")).toInteger(0) > 1;
}

/// A row's time to first token or isolated prefill pass: an observation of its
/// own, with its own id suffix, milliseconds field and explanation field.
Observation prefillObservation(Observation o, const QJsonObject &row, Measured measured)
{
    const bool firstToken = measured != Measured::PrefillPass;
    o.id += firstToken ? QStringLiteral(" (first token)") : QStringLiteral(" (prefill pass)");
    o.explainedMiss = text(row, firstToken ? "explained_first_token_miss" : "explained_prefill_miss");
    o.measured = measured;
    o.seconds = row.value(QLatin1String(firstToken ? "ttft_ms" : "prefill_ms")).toDouble() / 1000;
    return o;
}

Split splitOf(const QJsonObject &row, const QStringList &heldOutSources)
{
    if (row.contains(QLatin1String("outside_model")))
        return Split::Outside;
    for (const QString &source : heldOutSources)
        if (text(row, "source").startsWith(source))
            return Split::HeldOut;
    return Split::Calibration;
}

Scenario scenarioOf(const QJsonObject &row, std::int64_t sequences, std::int64_t contextLen)
{
    Scenario s;
    s.model = resolveModel(text(row, "model"));
    s.gpu = resolveGpu(text(row, "gpu"));
    s.engine = text(row, "engine") == QLatin1String("sglang") ? Engine::Sglang : Engine::Vllm;
    s.dtype = parseWeightDtype(text(row, "dtype"));
    const QString quantization = text(row, "quantization");
    s.quantization = quantizationOf(quantization);
    if (!s.quantization)
        throw Error(QStringLiteral("quantization '%1' is not one the data file maps").arg(quantization));
    s.kvCacheDtype = parseKvCacheDtype(text(row, "kv_cache_dtype"));
    // The vLLM release a row is planned with, where its kernels depend on it (else the newest).
    s.vllmVersion = text(row, "kvscope_vllm_release");
    s.tensorParallelSize = row.value(QLatin1String("tensor_parallel_size")).toInteger(1);
    s.pipelineParallelSize = row.value(QLatin1String("pipeline_parallel_size")).toInteger(1);
    s.batchSize = sequences;
    s.seqLen = contextLen;
    s.maxModelLen = std::max<std::int64_t>(contextLen, 1);
    // A prefix every prompt of the run shares (vllm bench serve --random-prefix-len), cached after the first.
    s.sharedPrefixLen = row.value(QLatin1String("shared_prefix_len")).toInteger(0);
    s.moeMxfp8Activations = row.value(QLatin1String("moe_mxfp8_activations")).toBool(false);
    return s;
}

/// A benchmark that times the forward passes in-process (sglang.bench_one_batch)
/// sends no request through the engine's API: the passes without their
/// per-request cost. The roofline has none to take out.
double passesWithoutRequests(const ForwardCost &passes, double ForwardCost::*seconds)
{
    return seconds == &ForwardCost::seconds ? passes.seconds - passes.breakdown[StepTerm::RequestOverhead]
                                            : passes.*seconds;
}

/// The observation's seconds from the priced passes: the model's, or the bare
/// roofline's (every efficiency 1, no overhead).
double observedPasses(const Observation &o, const SpeedConstants &constants, double ForwardCost::*seconds)
{
    const SpeedModel model(o.scenario, o.plan, constants);
    switch (o.measured) {
    case Measured::DecodeStep:
        return model.decode(o.sequences).*seconds;
    case Measured::ServingStep:
        // The roofline has no steady state: its bound is the decode step alone.
        return seconds == &ForwardCost::seconds
                   ? model.serving(o.sequences, o.promptLen, o.outputLen).interTokenSeconds
                   : model.decode(o.sequences).*seconds;
    case Measured::EndToEnd:
        return model.prefill(o.promptLen, o.sequences).*seconds +
               double(o.outputLen) * (model.decode(o.sequences).*seconds);
    case Measured::FirstToken:
        return model.prefill(o.promptLen).*seconds;
    case Measured::FirstTokenUnderLoad:
        return seconds == &ForwardCost::seconds
                   ? model.firstTokenSecondsUnderLoad(o.promptLen, o.sequences)
                   : model.prefill(o.promptLen).*seconds + model.decode(o.sequences).*seconds / 2;
    case Measured::PrefillPass:
        return passesWithoutRequests(model.prefill(o.promptLen, o.sequences), seconds);
    case Measured::ServingRequest:
        // The roofline has no steady state: its bound is one prompt and the decode steps.
        return seconds == &ForwardCost::seconds
                   ? model.serving(o.sequences, o.promptLen, o.outputLen).requestSeconds
                   : model.prefill(o.promptLen).*seconds +
                         double(o.outputLen - 1) * (model.decode(o.sequences).*seconds);
    }
    return 0;
}

} // namespace

QList<Observation> readObservations(const QString &path)
{
    const QJsonObject document = readJsonDataFile(path);
    QStringList heldOut;
    for (const QJsonValue &source :
         document.value(QLatin1String("split"))[QLatin1String("held_out_sources")].toArray())
        heldOut << source.toString();

    QList<Observation> out;
    for (const QJsonValue &value : document.value(QLatin1String("measurements")).toArray()) {
        const QJsonObject row = value.toObject();
        // An open-loop run's sequences are the requests in flight (Little's law, from the row).
        const bool openLoop = row.value(QLatin1String("request_rate")).isDouble();
        const std::int64_t sequences =
            openLoop ? std::llround(row.value(QLatin1String("requests_in_flight")).toDouble())
                     : std::max(row.value(QLatin1String("concurrency")).toInteger(0),
                                row.value(QLatin1String("batch_size")).toInteger(0));
        const std::int64_t prompt = row.value(QLatin1String("prompt_len")).toInteger(0);
        const std::int64_t output = row.value(QLatin1String("output_len")).toInteger(0);
        Observation base;
        base.id = text(row, "id");
        base.source = text(row, "source");
        base.split = splitOf(row, heldOut);
        base.outsideReason = text(row, "outside_model");
        base.explainedMiss = text(row, "explained_miss");
        for (const QJsonValue &tag : row.value(QLatin1String("tags")).toArray())
            base.tags << tag.toString();
        base.pair = text(row, "pair");
        base.sequences = std::max<std::int64_t>(sequences, 1);
        base.promptLen = std::max<std::int64_t>(prompt, 1);
        base.outputLen = output;

        QList<Observation> observations;
        if (const std::optional<double> step = stepSeconds(row)) {
            Observation o = base;
            o.measured = servingStep(row) ? Measured::ServingStep : Measured::DecodeStep;
            o.seconds = *step;
            observations << o;
        } else if (row.value(QLatin1String("per_user_tokens_per_second")).isDouble() && output > 0) {
            Observation o = base;
            o.measured = Measured::EndToEnd;
            o.seconds = double(output) / row.value(QLatin1String("per_user_tokens_per_second")).toDouble();
            observations << o;
        } else if (row.value(QLatin1String("output_tokens_per_second")).isDouble() &&
                   row.value(QLatin1String("concurrency")).isDouble() && output > 1 && !openLoop) {
            Observation o = base;
            o.measured = Measured::ServingRequest;
            o.seconds = double(sequences) * double(output) /
                        row.value(QLatin1String("output_tokens_per_second")).toDouble();
            observations << o;
        }
        if (row.value(QLatin1String("ttft_ms")).isDouble() && (sequences == 1 || openLoop) && prompt > 0)
            observations << prefillObservation(
                base, row, openLoop ? Measured::FirstTokenUnderLoad : Measured::FirstToken);
        if (row.value(QLatin1String("prefill_ms")).isDouble() && prompt > 0)
            observations << prefillObservation(base, row, Measured::PrefillPass);
        for (Observation &o : observations) {
            // A step measured under settings kvscope does not model, beside a first token it does.
            if (const QString stepReason = text(row, "step_outside_model");
                !stepReason.isEmpty() && !measuresPrefillOnly(o.measured)) {
                o.split = Split::Outside;
                o.outsideReason = stepReason;
            }
            if (sequences <= 0 && o.split != Split::Outside) {
                o.split = Split::Outside;
                o.outsideReason = QStringLiteral("no batch or concurrency given");
            }
            try {
                o.scenario = scenarioOf(row, o.sequences, std::max<std::int64_t>(1, prompt + output / 2));
                o.plan = planMemory(o.scenario);
                // Faster than the datasheet allows: not the pass kvscope models
                // (a prefix-cache hit, a mislabelled figure).
                const double roofline =
                    observedPasses(o, calibratedSpeedConstants(), &ForwardCost::idealSeconds);
                if (o.seconds < roofline && o.split != Split::Outside) {
                    o.split = Split::Outside;
                    o.outsideReason =
                        QStringLiteral("measured %1 ms, faster than the datasheet roofline's %2 ms: "
                                       "not the full pass kvscope models (a prefix-cache hit?)")
                            .arg(o.seconds * 1000, 0, 'f', 1)
                            .arg(roofline * 1000, 0, 'f', 1);
                }
            } catch (const Error &error) {
                o.split = Split::Outside;
                o.outsideReason = QStringLiteral("cannot be planned: %1").arg(error.message());
            }
            out << o;
        }
    }
    return out;
}

double predictedSeconds(const Observation &o, const SpeedConstants &constants)
{
    return observedPasses(o, constants, &ForwardCost::seconds);
}

namespace {

// The unknowns of the fit: reciprocal efficiencies (seconds per second at full
// bandwidth or peak), costs per second of reads, and seconds per event.
enum Unknown : int
{
    WeightsAmpere,
    WeightsAda,
    WeightsHopper,
    WeightsBlackwell,
    WeightsOther,
    DequantizationFirst, // + WeightKernel
    KvCache = DequantizationFirst + int(WeightKernelCount),
    Fp8Kv,
    Compute,
    AllReduceLatency,
    MoeLayer,
    RoutedToken,
    StepFirst,                                       // + Engine
    SequenceFirst = StepFirst + int(EngineCount),    // + Engine
    RequestFirst = SequenceFirst + int(EngineCount), // + Engine
    UnknownCount = RequestFirst + int(EngineCount),
};

/// The linear features of one priced pass (the offset is the all-reduce
/// transfer, which no constant scales). Memory terms, or compute when the
/// pass was compute-bound under the constants it was priced with.
void addFeatures(std::vector<double> &f, double &offset, const ForwardCost &cost, const SpeedPlan &described,
                 Engine engine, double times)
{
    const StepQuantities &q = cost.quantities;
    if (cost.bound == SpeedBound::Compute) {
        f[Compute] += times * q.computeSeconds;
    } else {
        f[WeightsAmpere + int(described.generation)] += times * q.weightReadSeconds;
        f[DequantizationFirst + int(described.weightKernel)] +=
            times * q.quantizedReadSeconds * described.dequantizationScale;
        f[KvCache] += times * q.kvReadSeconds;
        f[Fp8Kv] += times * q.fp8KvReadSeconds;
    }
    f[AllReduceLatency] += times * q.allReduces;
    offset += times * q.allReduceTransferSeconds;
    f[MoeLayer] += times * q.moeLayers;
    if (pricesRoutedCopies(described.moeKernel))
        f[RoutedToken] += times * q.routedTokenLayers;
    f[StepFirst + int(engine)] += times;
    f[SequenceFirst + int(engine)] += times * double(q.sequences);
    f[RequestFirst + int(engine)] += times * double(q.requests);
}

SpeedConstants constantsFrom(const std::vector<double> &x, const std::vector<bool> &informed,
                             const SpeedConstants &start)
{
    SpeedConstants c;
    for (std::size_t g = 0; g < GpuGenerationCount; ++g)
        if (informed[WeightsAmpere + g])
            c.weightBandwidthEfficiency[g] = 1 / x[WeightsAmpere + g];
    c.dequantizationCost[std::size_t(WeightKernel::SixteenBit)] = 0.0;
    for (std::size_t k = 1; k < WeightKernelCount; ++k)
        if (informed[DequantizationFirst + k])
            c.dequantizationCost[k] = x[DequantizationFirst + k];
    c.kvBandwidthEfficiency = 1 / x[KvCache];
    c.fp8KvCost = x[Fp8Kv];
    c.computeEfficiency = informed[Compute] ? 1 / x[Compute] : start.computeEfficiency;
    c.allReduceLatencySeconds = x[AllReduceLatency];
    c.moeLayerSeconds = x[MoeLayer];
    c.routedTokenSeconds = x[RoutedToken];
    for (std::size_t e = 0; e < EngineCount; ++e) {
        c.stepSeconds[e] = x[StepFirst + e];
        c.sequenceSeconds[e] = x[SequenceFirst + e];
        c.requestSeconds[e] = x[RequestFirst + e];
    }
    return c;
}

/// The unknowns of `c`, and which of them it holds (an uncalibrated
/// generation or kernel holds none).
std::vector<double> unknownsOf(const SpeedConstants &c, std::vector<bool> &held)
{
    std::vector<double> x(UnknownCount, 0.0);
    held.assign(UnknownCount, true);
    for (std::size_t g = 0; g < GpuGenerationCount; ++g) {
        held[WeightsAmpere + g] = c.weightBandwidthEfficiency[g].has_value();
        x[WeightsAmpere + g] = 1 / c.weightBandwidthEfficiency[g].value_or(MaxEfficiency);
    }
    for (std::size_t k = 0; k < WeightKernelCount; ++k) {
        held[DequantizationFirst + k] = c.dequantizationCost[k].has_value();
        x[DequantizationFirst + k] = c.dequantizationCost[k].value_or(0);
    }
    x[KvCache] = 1 / c.kvBandwidthEfficiency;
    x[Fp8Kv] = c.fp8KvCost;
    x[Compute] = 1 / c.computeEfficiency;
    x[AllReduceLatency] = c.allReduceLatencySeconds;
    x[MoeLayer] = c.moeLayerSeconds;
    x[RoutedToken] = c.routedTokenSeconds;
    for (std::size_t e = 0; e < EngineCount; ++e) {
        x[StepFirst + e] = c.stepSeconds[e];
        x[SequenceFirst + e] = c.sequenceSeconds[e];
        x[RequestFirst + e] = c.requestSeconds[e];
    }
    return x;
}

/// The two stages of the fit: decode steps and whole runs fit every constant
/// but the prefill's own (compute efficiency, per-request overhead), which the
/// times to first token and the isolated prefill passes fit with the others held.
enum class Stage
{
    Decode,
    FirstToken,
};

bool freeIn(Stage stage, int unknown, FitHold hold)
{
    if (hold == FitHold::KernelTimings && (unknown == AllReduceLatency || unknown == MoeLayer))
        return false;
    // The cost per routed token is the prompt passes' too: a prompt routes thousands of tokens a
    // layer, where the calibration's decode steps (64 users at most) route a few hundred.
    const bool prefillOwn =
        unknown == Compute || unknown == RoutedToken || (unknown >= RequestFirst && unknown < UnknownCount);
    return stage == Stage::FirstToken ? prefillOwn : !prefillOwn;
}

SpeedConstants fitOnce(const QList<Observation> &observations, const SpeedConstants &start, Stage stage,
                       FitHold hold)
{
    std::vector<bool> held;
    const std::vector<double> fixed = unknownsOf(start, held);
    Matrix a;
    std::vector<double> b;
    std::vector<bool> informed(UnknownCount, false);
    for (const Observation &o : observations) {
        if (o.split != Split::Calibration || measuresPrefillOnly(o.measured) != (stage == Stage::FirstToken))
            continue;
        const SpeedModel model(o.scenario, o.plan, start);
        SpeedPlan described;
        model.describe(described);
        std::vector<double> f(UnknownCount, 0.0);
        double offset = 0;
        const Engine engine = o.scenario.engine;
        switch (o.measured) {
        case Measured::DecodeStep:
            addFeatures(f, offset, model.decode(o.sequences), described, engine, 1);
            break;
        case Measured::ServingStep: {
            const ServingCost serving = model.serving(o.sequences, o.promptLen, o.outputLen);
            const double stepsPerToken = serving.interTokenSeconds / serving.meanStep.total();
            const double share = serving.prefillStepShare;
            addFeatures(f, offset, serving.mixedStep, described, engine, share * stepsPerToken);
            addFeatures(f, offset, serving.decodeStep, described, engine, (1 - share) * stepsPerToken);
            break;
        }
        case Measured::EndToEnd:
            for (const auto &[pass, times] : model.prefillPasses(o.promptLen, o.sequences))
                addFeatures(f, offset, pass, described, engine, double(times));
            addFeatures(f, offset, model.decode(o.sequences), described, engine, double(o.outputLen));
            break;
        case Measured::FirstToken:
            for (const auto &[pass, times] : model.prefillPasses(o.promptLen))
                addFeatures(f, offset, pass, described, engine, double(times));
            break;
        case Measured::FirstTokenUnderLoad:
            for (const auto &[pass, times] : model.prefillPasses(o.promptLen))
                addFeatures(f, offset, pass, described, engine, double(times));
            addFeatures(f, offset, model.decode(o.sequences), described, engine, 0.5);
            break;
        case Measured::PrefillPass:
            for (const auto &[pass, times] : model.prefillPasses(o.promptLen, o.sequences))
                addFeatures(f, offset, pass, described, engine, double(times));
            f[RequestFirst + int(engine)] = 0; // timed in-process: no request handling
            break;
        case Measured::ServingRequest: {
            // SpeedModel::serving: the prompt's k chunks, the steps it waits, then output_len - 1
            // tokens of mean steps, and the request's own handling.
            const ServingCost serving = model.serving(o.sequences, o.promptLen, o.outputLen);
            const double share = serving.prefillStepShare;
            const double k = double(serving.prefillStepsPerRequest);
            const double meanSteps =
                std::max(0.0, double(serving.stepsPerRequest) - double(o.outputLen - 1) - k) +
                double(o.outputLen - 1) * serving.interTokenSeconds / serving.meanStep.total();
            addFeatures(f, offset, serving.mixedStep, described, engine, k + share * meanSteps);
            addFeatures(f, offset, serving.decodeStep, described, engine, (1 - share) * meanSteps);
            f[RequestFirst + int(engine)] += 1;
            break;
        }
        }
        // The held unknowns move to the offset; relative error: each row over its measurement.
        for (std::size_t j = 0; j < f.size(); ++j) {
            if (!freeIn(stage, int(j), hold)) {
                offset += f[j] * fixed[j];
                f[j] = 0;
            }
            informed[j] = informed[j] || f[j] != 0;
            f[j] /= o.seconds;
        }
        a.push_back(f);
        b.push_back(1 - offset / o.seconds);
    }
    std::vector<double> lower(UnknownCount, 0.0);
    for (const int j : {int(WeightsAmpere), int(WeightsAda), int(WeightsHopper), int(WeightsBlackwell),
                        int(WeightsOther), int(KvCache), int(Compute)})
        lower[std::size_t(j)] = 1 / MaxEfficiency;
    std::vector<double> x = boundedLeastSquares(a, b, lower);
    for (int j = 0; j < UnknownCount; ++j)
        if (!freeIn(stage, j, hold)) {
            x[std::size_t(j)] = fixed[std::size_t(j)];
            informed[std::size_t(j)] = held[std::size_t(j)];
        }
    return constantsFrom(x, informed, start);
}

} // namespace

SpeedConstants fitConstants(const QList<Observation> &observations, const SpeedConstants &start, FitHold hold)
{
    // Which passes are compute-bound depends on the constants: refit until it settles.
    SpeedConstants constants = start;
    for (int round = 0; round < 6; ++round) {
        constants = fitOnce(observations, constants, Stage::Decode, hold);
        constants = fitOnce(observations, constants, Stage::FirstToken, hold);
    }
    return constants;
}

} // namespace kvscope::validation
