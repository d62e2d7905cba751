// SPDX-License-Identifier: MIT
#include "core/analysis/logexplanation.h"

#include "core/analysis/logexplanationparts.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/engine/runtime.h"
#include "core/library/library.h"
#include "core/plan/enginerules.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/vllmrules.h"
#include "core/precision/dtypes.h"
#include "core/scenario/eplbconfig.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace kvscope {

namespace logexplain {

QString optionKey(ScenarioField field)
{
    return optionFlag(field).mid(2);
}

const ScenarioOption *optionFor(const QString &argument)
{
    QString name = argument;
    name.replace(QLatin1Char('_'), QLatin1Char('-'));
    return findScenarioOption(name);
}

bool isEngineArgument(ScenarioField field)
{
    switch (field) {
    case ScenarioField::Dtype:
    case ScenarioField::Quantization:
    case ScenarioField::KvCacheDtype:
    case ScenarioField::GpuMemoryUtilization:
    case ScenarioField::MemFractionStatic:
    case ScenarioField::SwaFullTokensRatio:
    case ScenarioField::TensorParallelSize:
    case ScenarioField::PipelineParallelSize:
    case ScenarioField::DataParallelSize:
    case ScenarioField::EnableExpertParallel:
    case ScenarioField::EnableDpAttention:
    case ScenarioField::EnableDpLmHead:
    case ScenarioField::MoeDenseTpSize:
    case ScenarioField::ExpertParallelSize:
    case ScenarioField::EnableEplb:
    case ScenarioField::All2AllBackend:
    case ScenarioField::MaxModelLen:
    case ScenarioField::BlockSize:
    case ScenarioField::MambaSsmCacheDtype:
    case ScenarioField::MaxNumSeqs:
    case ScenarioField::MaxNumBatchedTokens:
    case ScenarioField::EnforceEager:
    case ScenarioField::MaxCudagraphCaptureSize:
        return true;
    default:
        return false;
    }
}

QString lineOf(int line)
{
    return LogExplanationWords::tr("line %1").arg(line);
}

namespace {

/// The preset a name is, by its id or names, or by one of its repositories' names (Qwen3-4B is
/// Qwen/Qwen3-4B): what --model then takes; empty when none is.
QString presetNamed(const QString &name)
{
    if (name.isEmpty())
        return {};
    for (const ModelArch &preset : ModelLibrary::builtin().presets())
        for (const QString &repo : preset.hfRepoIds)
            if (repo.section(QLatin1Char('/'), -1).compare(name, Qt::CaseInsensitive) == 0)
                return repo; // the repository, whose own context length the preset then takes
    return ModelLibrary::builtin().find(name) ? name : QString();
}

/// A quantized checkpoint's name without its quantization markers: Qwen3-32B-AWQ,
/// Qwen2.5-7B-Instruct-GPTQ-Int4, Llama-3.3-70B-Instruct-fp8-dynamic and
/// Meta-Llama-3.1-8B-Instruct-quantized.w4a16 name their base model so.
QString withoutQuantizationMarkers(QString name)
{
    static const QRegularExpression marker(
        QStringLiteral(
            R"([-_.](?:quantized\.w\d+a\d+|awq|gptq|int[48]|fp8|dynamic|w\d+a\d+|nvfp4|mxfp4|bnb|[48]bit)$)"),
        QRegularExpression::CaseInsensitiveOption);
    for (QRegularExpressionMatch m = marker.match(name); m.hasMatch(); m = marker.match(name))
        name.chop(m.capturedLength());
    return name;
}

/// The model a log names, as --model takes it, and why when it is not the log's own word.
struct LogModel
{
    QString model;
    QString why;                 ///< translated; empty when the log's word is taken as written
    bool servesLogModel = false; ///< a preset for a folder or checkpoint the launch lines still serve
    bool quantizedCheckpoint = false;
    QString impliedQuantization = {}; ///< the method the name implies, where the log does not state one
};

/// The --quantization a quantized checkpoint's name implies when it ends in one marker that only one method
/// reads (Qwen's -FP8 and RedHat's -fp8-dynamic checkpoints load as FP8 weights, -AWQ as AWQ, -GPTQ and
/// -GPTQ-Int4 as 4-bit GPTQ); empty otherwise.
QString quantizationMarkerMethod(const QString &name)
{
    static const QRegularExpression fp8(QStringLiteral(R"([-_]fp8(?:[-_]dynamic)?$)"),
                                        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression awq(QStringLiteral(R"([-_]awq$)"),
                                        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression gptq(QStringLiteral(R"([-_]gptq(?:[-_]int4)?$)"),
                                         QRegularExpression::CaseInsensitiveOption);
    if (fp8.match(name).hasMatch())
        return QStringLiteral("fp8");
    if (awq.match(name).hasMatch())
        return QStringLiteral("awq");
    if (gptq.match(name).hasMatch())
        return QStringLiteral("gptq");
    return {};
}

LogModel modelFromLog(const StartupLog &log)
{
    const QString &model = log.model;
    // A name with a NUL in it (a damaged log) is no path: asking the file system would only make Qt warn.
    const bool path = !model.contains(QChar(u'\0'));
    if ((path && QFileInfo::exists(model)) || ModelLibrary::builtin().find(model))
        return {model, {}}; // a local folder or config.json the resolver reads, or a preset's repository
    QString named = model;
    QString why;
    // A HuggingFace cache path: .../models--Qwen--Qwen3-8B/snapshots/<hash> is Qwen/Qwen3-8B.
    static const QRegularExpression cache(QStringLiteral("models--([^/]+)--([^/]+)"));
    if (const QRegularExpressionMatch m = cache.match(model); m.hasMatch()) {
        named = m.captured(1) + QLatin1Char('/') + m.captured(2);
        why = LogExplanationWords::tr("model %1: the repository of the HuggingFace cache folder").arg(named);
        if (ModelLibrary::builtin().find(named))
            return {named, why};
    }
    const QString name = named.section(QLatin1Char('/'), -1, -1, QString::SectionSkipEmpty);
    // A model folder of another machine (/opt/models/Qwen3-4B) or another organisation's copy: its name.
    if (const QString preset = presetNamed(name); !preset.isEmpty() && name != named)
        return {preset,
                LogExplanationWords::tr("model %1: the name of the log's model %2, which is not on this "
                                        "machine; give %3 for its config.json")
                    .arg(preset, model, optionFlag(ScenarioField::Model)),
                true};
    // A quantized checkpoint of a preset, where the log says how it is quantized (the engine-config line
    // always does): the preset, quantized as the log says. Not compressed-tensors, whose scheme (FP8, W4A16,
    // W8A8) only the checkpoint's config says.
    // An excerpt without that line: the method the name's marker implies, where one does (-FP8, -AWQ, -GPTQ /
    // -GPTQ-Int4; said among the assumptions).
    const QString stated = log.argument(QStringLiteral("quantization"));
    const bool statesMethod =
        !stated.isEmpty() && stated.compare(QLatin1String("None"), Qt::CaseInsensitive) != 0;
    const QString implied = statesMethod ? QString() : quantizationMarkerMethod(name);
    const QString quantization = statesMethod ? stated : implied;
    const bool namesMethod =
        !quantization.isEmpty() && !quantization.startsWith(QLatin1String("compressed"), Qt::CaseInsensitive);
    if (const QString base = withoutQuantizationMarkers(name); namesMethod && base != name) {
        if (const QString preset = presetNamed(base); !preset.isEmpty()) {
            LogModel out{
                preset,
                LogExplanationWords::tr("model %1: %2 is a %3 checkpoint of it, for which kvscope has "
                                        "no preset: its quantization_config (bits, group size) is "
                                        "taken as kvscope's for %3; give %4 with the checkpoint's "
                                        "config.json for its own")
                    .arg(preset, model, quantization, optionFlag(ScenarioField::Model)),
                true, true};
            out.impliedQuantization = implied;
            return out;
        }
    }
    return {named, why};
}

} // namespace

void takeLogModel(const StartupLog &log, const QString &key, LogExplanation &out)
{
    const LogModel model = modelFromLog(log);
    out.options.insert(optionKey(ScenarioField::Model), model.model);
    if (model.servesLogModel) {
        out.servedModel = log.model;
        out.servedCheckpointQuantized = model.quantizedCheckpoint;
    }
    if (!model.impliedQuantization.isEmpty()) {
        out.options.insert(optionKey(ScenarioField::Quantization), model.impliedQuantization);
        out.assumed << LogExplanationWords::tr(
                           "%1 %2: the method the checkpoint's name implies (the log does "
                           "not state it)")
                           .arg(optionFlag(ScenarioField::Quantization), model.impliedQuantization);
    }
    out.read << LogExplanationWords::tr("%1 = %2 (%3)").arg(key, log.model, lineOf(log.argumentLine(key)));
    if (!model.why.isEmpty())
        out.assumed << model.why;
}

bool takeOverride(ScenarioField field, const QString &given, LogExplanation &out)
{
    if (given.isEmpty())
        return false;
    out.options.insert(optionKey(field), given);
    out.assumed << (field == ScenarioField::Model ? LogExplanationWords::tr("model %1: given with %2")
                                                  : LogExplanationWords::tr("GPU %1: given with %2"))
                       .arg(given, optionFlag(field));
    return true;
}

void takeEngineArgument(const LogReading &reading, LogExplanation &out)
{
    const ScenarioOption *option = optionFor(reading.key);
    if (!option || !isEngineArgument(option->field))
        return;
    out.options.insert(option->name(), reading.value);
    out.read << LogExplanationWords::tr("%1 = %2 (%3)").arg(reading.key, reading.value, lineOf(reading.line));
}

void addLever(LogExplanation &e, const QString &what, ScenarioField field, const QString &value,
              const ScenarioResolvers &resolve)
{
    const ScenarioValues changes{{optionKey(field), value}};
    // A switch is its flag alone, as the launch line writes it.
    const QString flag = optionFlag(field, e.scenario.engine);
    const QString label = value == switchText(true) ? QStringLiteral("%1 (%2)").arg(what, flag)
                                                    : QStringLiteral("%1 (%2 %3)").arg(what, flag, value);
    try {
        const Scenario changed = applyValues(e.scenario, changes, resolve);
        const MemoryPlan plan = planMemory(changed);
        if (!plan.engineStarts || plan.kv.capacityTokens <= e.plan.kv.capacityTokens)
            return;
        e.levers << KvLever{label, changes, plan.kv.capacityTokens, launchLine(changed).text().trimmed()};
    } catch (const Error &) {
        // A change the scenario cannot take is no lever.
    }
}

void addDisagreements(LogExplanation &e, const std::function<QString(const LogComponent &)> &why)
{
    for (const LogComponent &c : std::as_const(e.components)) {
        if (!c.loggedGiB || c.agrees())
            continue;
        if (c.derived) {
            e.explanation
                << LogExplanationWords::tr(
                       "%1: the budget (%2) less the weights and the KV cache the log prints leaves "
                       "%3 GiB, where kvscope plans %4.")
                       .arg(c.label, formatGiB(e.plan.budgetBytes), QString::number(*c.loggedGiB, 'f', 2),
                            formatGiB(c.predictedBytes));
            continue;
        }
        e.explanation << LogExplanationWords::tr(
                             "%1 differs by more than kvscope is validated to (%2 %): the log says %3 GiB, "
                             "kvscope plans %4.")
                                 .arg(c.label)
                                 .arg(c.tolerance * 100, 0, 'f', 0)
                                 .arg(QString::number(*c.loggedGiB, 'f', 2), formatGiB(c.predictedBytes)) +
                             why(c);
    }
}

void addEngineIndependentLevers(LogExplanation &e, const ScenarioResolvers &resolve)
{
    const MemoryPlan &p = e.plan;
    if (!isFp8(p.kvCacheDtype))
        addLever(e, LogExplanationWords::tr("an FP8 KV cache"), ScenarioField::KvCacheDtype,
                 QStringLiteral("fp8"), resolve);
    if (p.quantization.method == QuantMethod::None)
        addLever(e, LogExplanationWords::tr("FP8 weights"), ScenarioField::Quantization,
                 QStringLiteral("fp8"), resolve);
    addLever(e, LogExplanationWords::tr("twice the GPUs"), ScenarioField::TensorParallelSize,
             QString::number(p.tensorParallelSize * 2), resolve);
}

} // namespace logexplain

using namespace logexplain;

namespace {

/// A size as a log prints it, in hundredths of a GiB.
std::int64_t hundredths(double gib)
{
    return std::llround(gib * 100);
}

/// The GPU presets whose memory prints as the log's total_memory (two decimals of GiB).
QList<const GpuSpec *> gpusWithMemory(double totalGiB)
{
    QList<const GpuSpec *> matches;
    for (const GpuSpec &gpu : GpuLibrary::builtin().presets())
        if (hundredths(toGiB(gpu.memoryBytes)) == hundredths(totalGiB))
            matches << &gpu;
    return matches;
}

/// The presets whose total lies within [low, high] GiB, the nearest `target` first (preset order on ties).
QList<const GpuSpec *> presetsNear(double target, double low, double high)
{
    QList<const GpuSpec *> near;
    for (const GpuSpec &gpu : GpuLibrary::builtin().presets())
        if (const double gib = toGiB(gpu.memoryBytes); gib >= low && gib <= high)
            near << &gpu;
    std::stable_sort(near.begin(), near.end(), [&](const GpuSpec *a, const GpuSpec *b) {
        return std::abs(toGiB(a->memoryBytes) - target) < std::abs(toGiB(b->memoryBytes) - target);
    });
    return near;
}

class Inference
{
public:
    Inference(const StartupLog &log, const LogOverrides &overrides, LogExplanation &out)
        : m_log(log), m_overrides(overrides), m_out(out)
    {}

    void run()
    {
        ScenarioValues &values = m_out.options;
        values.insert(optionKey(ScenarioField::Engine), QStringLiteral("vllm"));
        model();
        gpu();
        version();
        compileCache();
        arguments();
        inferFromPrefixes(ScenarioField::TensorParallelSize, m_log.ranksSeen, "tensor_parallel_size",
                          "Worker_TP");
        inferFromPrefixes(ScenarioField::PipelineParallelSize, m_log.stagesSeen, "pipeline_parallel_size",
                          "Worker_PP");
        utilization();
        // One request of the whole context: vLLM's own start-up check ("32K" read as vLLM reads it; a value
        // it refuses is named when the scenario is read).
        if (values.contains(optionKey(ScenarioField::MaxModelLen))) {
            const QString length = values.value(optionKey(ScenarioField::MaxModelLen));
            QString tokens = length;
            try {
                if (const std::int64_t n =
                        parseHumanReadableCount(length, optionFlag(ScenarioField::MaxModelLen)))
                    tokens = QString::number(n);
            } catch (const Error &) {
            }
            values.insert(optionKey(ScenarioField::SeqLen), tokens);
        }
        values.insert(optionKey(ScenarioField::BatchSize), QStringLiteral("1"));
    }

private:
    /// A parallel size the arguments do not state, from the highest worker prefix seen.
    void inferFromPrefixes(ScenarioField field, int seen, const char *argument, const char *prefix)
    {
        ScenarioValues &values = m_out.options;
        if (values.contains(optionKey(field)) || seen <= 1)
            return;
        values.insert(optionKey(field), QString::number(seen));
        m_out.assumed << LogExplanationWords::tr("%1 %2: from the %3%4 to %3%5 prefixes")
                             .arg(QLatin1String(argument))
                             .arg(seen)
                             .arg(QLatin1String(prefix))
                             .arg(0)
                             .arg(seen - 1);
    }

    void model()
    {
        if (takeOverride(ScenarioField::Model, m_overrides.model, m_out))
            return;
        if (m_log.model.isEmpty())
            failAt(m_log.origin, LogExplanationWords::tr(
                                     "the log names no model (no 'non-default args', 'vllm serve' or engine "
                                     "config line); give %1")
                                     .arg(optionFlag(ScenarioField::Model)));
        takeLogModel(m_log, QStringLiteral("model"), m_out);
    }

    void gpu()
    {
        if (takeOverride(ScenarioField::Gpu, m_overrides.gpu, m_out))
            return;
        if (namedGpu())
            return;
        if (!m_log.totalGpuMemoryGiB && graphAdviceGpu())
            return;
        if (!m_log.totalGpuMemoryGiB)
            failAt(m_log.origin, LogExplanationWords::tr(
                                     "the log does not print the GPU's memory (vLLM's 'worker init memory "
                                     "snapshot' is a DEBUG line: VLLM_LOGGING_LEVEL=DEBUG); give %1")
                                     .arg(optionFlag(ScenarioField::Gpu)));
        const double total = *m_log.totalGpuMemoryGiB;
        const QList<const GpuSpec *> matches = gpusWithMemory(total);
        const QString printed = QString::number(total, 'f', 2);
        if (matches.isEmpty()) {
            nearestGpu(total, printed);
            return;
        }
        const GpuSpec &gpu = *matches.first();
        m_out.options.insert(optionKey(ScenarioField::Gpu), gpu.id);
        if (matches.size() == 1) {
            m_out.read << LogExplanationWords::tr("GPU = %1: the one preset with total_memory=%2GiB")
                              .arg(gpu.name, printed);
            return;
        }
        QStringList others;
        for (qsizetype i = 1; i < matches.size(); ++i)
            others << matches.at(i)->id;
        m_out.assumed
            << LogExplanationWords::tr(
                   "GPU %1: the first preset with total_memory=%2GiB (also %3); give %4 for another")
                   .arg(gpu.name, printed, others.join(QStringLiteral(", ")), optionFlag(ScenarioField::Gpu));
    }

    /// The device the log names (a MoE's fused-MoE config lookup, "device_name=NVIDIA_L40S"), when a preset
    /// is that device: planned with the log's total where it prints one. False when the log names none, or
    /// one no preset is (said, and the memory decides).
    bool namedGpu()
    {
        if (m_log.deviceName.isEmpty())
            return false;
        const GpuSpec *gpu = gpuForDeviceName(m_log.deviceName);
        const QString named =
            m_log.deviceNameFromNvidiaSmi
                ? QStringLiteral("nvidia-smi %1 (%2)")
                      .arg(QString(m_log.deviceName).replace(QLatin1Char('_'), QLatin1Char(' ')),
                           lineOf(m_log.deviceNameLine))
                : QStringLiteral("device_name=%1 (%2)").arg(m_log.deviceName, lineOf(m_log.deviceNameLine));
        if (!gpu) {
            m_out.assumed << LogExplanationWords::tr(
                                 "the log's %1 is no GPU preset; the GPU follows from its memory")
                                 .arg(named);
            return false;
        }
        const std::optional<GiBRange> range = totalMemoryFromGraphAdvice(m_log);
        if (!m_log.totalGpuMemoryGiB && range && !range->contains(toGiB(gpu->memoryBytes))) {
            const QString middle = QString::number(range->middle(), 'f', 2);
            m_out.options.insert(optionKey(ScenarioField::Gpu), QStringLiteral("%1:%2").arg(gpu->id, middle));
            m_out.assumed << LogExplanationWords::tr("GPU %1: the log's %2, with %3 GiB, the middle of %4")
                                 .arg(gpu->name, named, middle, graphAdviceRange(*range));
            return true;
        }
        if (!m_log.totalGpuMemoryGiB) {
            m_out.options.insert(optionKey(ScenarioField::Gpu), gpu->id);
            m_out.assumed
                << LogExplanationWords::tr(
                       "GPU %1: the log's %2, with the preset's total memory %3 GiB (the log does not "
                       "print the GPU's)")
                       .arg(gpu->name, named, QString::number(toGiB(gpu->memoryBytes), 'f', 2));
            return true;
        }
        const QString printed = QString::number(*m_log.totalGpuMemoryGiB, 'f', 2);
        const bool samePrint = QString::number(toGiB(gpu->memoryBytes), 'f', 2) == printed;
        m_out.options.insert(optionKey(ScenarioField::Gpu),
                             samePrint ? gpu->id : QStringLiteral("%1:%2").arg(gpu->id, printed));
        m_out.read << LogExplanationWords::tr("GPU = %1: the log's %2, with its total_memory=%3GiB")
                          .arg(gpu->name, named, printed);
        return true;
    }

    /// "the 21.41-21.62 GiB that the CUDA-graph estimate of 1.48 GiB and the utilizations 0.8500 / 0.7812
    /// (line 7) allow"
    QString graphAdviceRange(const GiBRange &range) const
    {
        const GraphUtilizationAdvice &advice = *m_log.graphUtilizationAdvice;
        const double other = advice.without.value_or(advice.toKeep.value_or(0));
        return LogExplanationWords::tr(
                   "the %1-%2 GiB that the CUDA-graph estimate of %3 GiB and the utilizations %4 / %5 (%6) "
                   "allow")
            .arg(QString::number(range.low, 'f', 2), QString::number(range.high, 'f', 2),
                 QString::number(*m_log.cudaGraphEstimateGiB, 'f', 2),
                 QString::number(advice.current, 'f', 4), QString::number(other, 'f', 4),
                 lineOf(advice.line));
    }

    /// Not among the arguments: the current utilization vLLM's advice beside its CUDA-graph estimate names
    /// ("from 0.9000 to 0.9074", "The current --gpu-memory-utilization=0.8500"), else the release's default.
    void utilization()
    {
        const QString key = optionKey(ScenarioField::GpuMemoryUtilization);
        if (m_out.options.contains(key))
            return;
        if (m_log.graphUtilizationAdvice) {
            const GraphUtilizationAdvice &advice = *m_log.graphUtilizationAdvice;
            m_out.options.insert(key, QString::number(advice.current));
            m_out.read << LogExplanationWords::tr("gpu_memory_utilization = %1 (%2: the current one, which "
                                                  "vLLM's advice beside its CUDA-graph estimate names)")
                              .arg(QString::number(advice.current), lineOf(advice.line));
            return;
        }
        m_out.assumed << LogExplanationWords::tr("gpu_memory_utilization: not in the log; the release's "
                                                 "default (0.92 from vLLM 0.21, 0.9 before)");
    }

    /// No total_memory line, but vLLM's advice beside its CUDA-graph estimate: estimate = (X - Y) x total
    /// puts the total in a range. A preset whose total lies in it is planned (the nearest the middle, the
    /// others named); otherwise a custom GPU of the middle. False when the log prints no such advice.
    bool graphAdviceGpu()
    {
        const std::optional<GiBRange> range = totalMemoryFromGraphAdvice(m_log);
        if (!range)
            return false;
        const QList<const GpuSpec *> within = presetsNear(range->middle(), range->low, range->high);
        const QString allowed = graphAdviceRange(*range);
        if (within.isEmpty()) {
            const QString middle = QString::number(range->middle(), 'f', 2);
            m_out.assumed << LogExplanationWords::tr(
                                 "GPU: the log prints no total memory; %1 hold no preset's: planned as a "
                                 "custom GPU of %2 GiB, the middle; give %3 for the card")
                                 .arg(allowed, middle, optionFlag(ScenarioField::Gpu));
            if (m_log.customAllReduceOffLine == 0) {
                m_out.options.insert(optionKey(ScenarioField::Gpu), QStringLiteral("custom:%1").arg(middle));
                return true;
            }
            // Without the custom all-reduce vLLM's GPUs keep what one GPU keeps outside PyTorch (pcieOnly(),
            // core/engine/runtime.h): a custom GPU on PCIe, 4.0 x16's 32 GB/s.
            m_out.options.insert(optionKey(ScenarioField::Gpu),
                                 QStringLiteral("custom:%1:0:0:32").arg(middle));
            m_out.assumed
                << LogExplanationWords::tr(
                       "GPUs on PCIe only (32 GB/s as a custom GPU's link): the log's custom all-reduce "
                       "is disabled (%1)")
                       .arg(lineOf(m_log.customAllReduceOffLine));
            return true;
        }
        const GpuSpec &gpu = *within.first();
        m_out.options.insert(optionKey(ScenarioField::Gpu), gpu.id);
        const QString total = QString::number(toGiB(gpu.memoryBytes), 'f', 2);
        if (within.size() == 1) {
            m_out.read << LogExplanationWords::tr("GPU = %1: the one preset (%2 GiB) within %3")
                              .arg(gpu.name, total, allowed);
            return true;
        }
        QStringList others;
        for (qsizetype i = 1; i < within.size(); ++i)
            others << within.at(i)->id;
        m_out.assumed << LogExplanationWords::tr(
                             "GPU %1 (%2 GiB): the preset nearest the middle of %3 (also %4); give %5 for "
                             "another")
                             .arg(gpu.name, total, allowed, others.join(QStringLiteral(", ")),
                                  optionFlag(ScenarioField::Gpu));
        return true;
    }

    /// A total that prints as a preset's whole memory as nvidia-smi lists it (memory.total), which CUDA
    /// reports on some systems instead of what is left after the driver's share: the RTX 4090's 24,564 MiB
    /// = 23.99 GiB under WSL2 (validation logs 69 to 76), where the preset's 23.64 GiB is Linux's figure.
    bool wholeCard(double total, const QString &printed)
    {
        for (const GpuSpec &gpu : GpuLibrary::builtin().presets()) {
            if (gpu.nvidiaSmiMib <= 0 || hundredths(double(gpu.nvidiaSmiMib) / 1024.0) != hundredths(total))
                continue;
            m_out.options.insert(optionKey(ScenarioField::Gpu), QStringLiteral("%1:%2").arg(gpu.id, printed));
            m_out.assumed
                << LogExplanationWords::tr(
                       "GPU %1 with the log's total_memory=%2GiB: the card's whole %3 MiB, as nvidia-smi "
                       "lists it and as CUDA reports it on some systems (WSL2), where the preset "
                       "holds CUDA's %4 GiB on Linux; give %5 for another")
                       .arg(gpu.name, printed, QString::number(gpu.nvidiaSmiMib),
                            QString::number(toGiB(gpu.memoryBytes), 'f', 2), optionFlag(ScenarioField::Gpu));
            return true;
        }
        return false;
    }

    /// No preset prints as the log's total: the nearest within half a percent (drivers, ECC and MIG move a
    /// card's total by a few tenths of a GiB), planned with the log's total (--gpu PRESET:MEMORY_GIB).
    void nearestGpu(double total, const QString &printed)
    {
        constexpr double Tolerance = 0.005;
        const QList<const GpuSpec *> near =
            presetsNear(total, total - Tolerance * total, total + Tolerance * total);
        if (near.isEmpty() && wholeCard(total, printed))
            return;
        if (near.isEmpty())
            failAt(m_log.origin,
                   LogExplanationWords::tr("total_memory=%1GiB matches no GPU preset; give %2 (a preset, "
                                           "PRESET:%1 for a preset with this memory, or custom:%1)")
                       .arg(printed, optionFlag(ScenarioField::Gpu)));
        const GpuSpec &gpu = *near.first();
        m_out.options.insert(optionKey(ScenarioField::Gpu), QStringLiteral("%1:%2").arg(gpu.id, printed));
        QStringList others;
        for (qsizetype i = 1; i < near.size(); ++i)
            others << QStringLiteral("%1 %2 GiB")
                          .arg(near.at(i)->id, QString::number(toGiB(near.at(i)->memoryBytes), 'f', 2));
        const QString alternatives =
            others.isEmpty()
                ? QString()
                : LogExplanationWords::tr("; also near: %1").arg(others.join(QStringLiteral(", ")));
        m_out.assumed
            << LogExplanationWords::tr(
                   "GPU %1 with the log's total_memory=%2GiB: the nearest preset, %3 GiB%4; give %5 "
                   "for another (PRESET:%2 keeps the log's total)")
                   .arg(gpu.name, printed, QString::number(toGiB(gpu.memoryBytes), 'f', 2), alternatives,
                        optionFlag(ScenarioField::Gpu));
    }

    void version()
    {
        const bool given = !m_overrides.vllmVersion.trimmed().isEmpty();
        if (m_log.vllmVersion.isEmpty() && !given) {
            versionFromCudaGraphLines();
            return;
        }
        const QString text = given ? m_overrides.vllmVersion.trimmed() : m_log.vllmVersion;
        const std::optional<EngineVersion> version = parseEngineVersion(text);
        if (!version && given)
            throw Error(LogExplanationWords::tr("%1: '%2' is not a release number (x.y)")
                            .arg(optionFlag(ScenarioField::VllmVersion), text));
        if (!version)
            failAt(
                m_log.origin,
                LogExplanationWords::tr("vLLM version '%1' is not a release number").arg(m_log.vllmVersion));
        if (*version < OldestVllmVersion)
            failAt(m_log.origin,
                   LogExplanationWords::tr("vLLM %1: kvscope plans the V1 engine's accounting, from %2 on")
                       .arg(text, OldestVllmVersion.text()));
        m_out.options.insert(optionKey(ScenarioField::VllmVersion), version->text());
        if (given)
            m_out.assumed << LogExplanationWords::tr("vLLM %1: given with %2")
                                 .arg(text, optionFlag(ScenarioField::VllmVersion));
        else
            m_out.read << LogExplanationWords::tr("vLLM %1 (%2)").arg(text, lineOf(m_log.vllmVersionLine));
    }

    /// Whether the start found the compiled model in vLLM's compile cache ("Directly load the compiled
    /// graph(s) ... from the cache", "Directly load AOT compilation"): a warm start, whose Model Runner V2
    /// profiling peak is its source's. A start that compiles, or a log that says neither, plans cold.
    void compileCache()
    {
        if (m_log.compiledLine > 0)
            m_out.read << LogExplanationWords::tr("compile cache cold: the start compiled the model (%1)")
                              .arg(lineOf(m_log.compiledLine));
        else if (m_log.compileCacheLine > 0) {
            m_out.options.insert(optionKey(ScenarioField::CompileCache),
                                 compileCacheName(CompileCache::Warm));
            m_out.read << LogExplanationWords::tr(
                              "compile cache warm: the compiled model loaded from it (%1)")
                              .arg(lineOf(m_log.compileCacheLine));
        }
    }

    /// A log without its version line still says how its release treats the CUDA-graph estimate:
    /// from vLLM 0.21 it is taken from the budget and the log says so ("CUDA graph memory profiling is
    /// enabled (default since v0.21.0)", vllm/v1/worker/gpu_worker.py); 0.19 and 0.20 log the estimate
    /// alone and keep it in the KV cache (the 0.19 profile plans both).
    void versionFromCudaGraphLines()
    {
        const QString flag = optionFlag(ScenarioField::VllmVersion);
        // Model Runner V2 kept the graphs in the KV cache from 0.22 (its default for the first models) to
        // 0.28 (vllm-project/vllm#53306 reserves them from 0.29): the newest such release plans it.
        if (m_log.modelRunnerV2Line > 0) {
            const EngineVersion keeps{0, 25, 0};
            m_out.options.insert(optionKey(ScenarioField::VllmVersion), keeps.text());
            m_out.assumed << LogExplanationWords::tr(
                                 "vLLM version: not in the log; it runs the model on Model Runner V2 (%1), "
                                 "which keeps the CUDA graphs in the KV cache from 0.22 to 0.28: planned as "
                                 "%2; give %3 for another")
                                 .arg(lineOf(m_log.modelRunnerV2Line), keeps.text(), flag);
            return;
        }
        int estimateLine = 0;
        for (const LogReading &figure : m_log.figures)
            if (figure.key == QLatin1String("estimated_cuda_graph_memory"))
                estimateLine = figure.line;
        if (m_log.cudaGraphProfilingLine > 0) {
            m_out.assumed << LogExplanationWords::tr("vLLM version: not in the log; it takes the CUDA-graph "
                                                     "estimate from the budget (%1), as releases from 0.21 "
                                                     "do: planned as %2; give %3 for another")
                                 .arg(lineOf(m_log.cudaGraphProfilingLine), newestVllmProfile().since.text(),
                                      flag);
            return;
        }
        if (estimateLine > 0) {
            const EngineVersion keeps{0, 19, 0};
            m_out.options.insert(optionKey(ScenarioField::VllmVersion), keeps.text());
            m_out.assumed << LogExplanationWords::tr(
                                 "vLLM version: not in the log; it logs \"Estimated CUDA graph "
                                 "memory\" (%1) without 0.21's \"CUDA graph memory profiling is "
                                 "enabled\", so a release that keeps the estimate in the KV "
                                 "cache: planned as %2; give %3 for another")
                                 .arg(lineOf(estimateLine), keeps.text(), flag);
            return;
        }
        m_out.assumed << LogExplanationWords::tr("vLLM version: not in the log; planned as the newest "
                                                 "modelled release (%1); give %2 for another")
                             .arg(newestVllmProfile().since.text(), flag);
    }

    /// vLLM's drafter as a log spells it: the engine line's SpeculativeConfig(method='eagle3',
    /// model='…', num_spec_tokens=3), the non-default args' {'method': 'eagle3', …} or the launch
    /// line's JSON. Planned where kvscope plans the drafter; otherwise said, and left out.
    void drafter(const LogReading &reading)
    {
        const auto captured = [&](const char *expression) {
            const QRegularExpressionMatch match =
                QRegularExpression(QLatin1String(expression)).match(reading.value);
            return match.hasMatch() ? match.captured(1) : QString();
        };
        const QString method = captured(R"(method['"]?\s*[=:]\s*['"]?([A-Za-z0-9_]+))");
        const QString model = captured(R"(model['"]?\s*[=:]\s*['"]([^'"]+))");
        const QString tokens = captured(R"((?:num_spec_tokens|num_speculative_tokens)['"]?\s*[=:]\s*(\d+))");
        QJsonObject config{{QStringLiteral("method"), method},
                           {QStringLiteral("num_speculative_tokens"), tokens.toLongLong()}};
        // An MTP drafter's logged model is the target itself.
        if (method.startsWith(QLatin1String("eagle")))
            config.insert(QStringLiteral("model"), model);
        const QString json = QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact));
        try {
            parseSpeculativeConfig(json, optionFlag(ScenarioField::SpeculativeConfig), resolveDraftModel);
        } catch (const Error &error) {
            m_out.assumed << LogExplanationWords::tr(
                                 "speculative_config (%1): %2; the drafter's weights and KV "
                                 "layers are not planned")
                                 .arg(lineOf(reading.line), error.message());
            return;
        }
        m_out.options.insert(optionKey(ScenarioField::SpeculativeConfig), json);
        m_out.read << LogExplanationWords::tr("speculative_config = %1 (%2)").arg(json, lineOf(reading.line));
    }

    /// vLLM's load-balancer settings as a log spells them: the non-default args' eplb_config dict
    /// ({'num_redundant_experts': 32, 'log_balancedness': False}), the launch line's JSON, or before
    /// vLLM 0.11 the flags --num-redundant-experts and --eplb-window-size. Planned where vLLM would
    /// take them; otherwise said, and left out.
    void eplbSettings(const QList<LogReading> &readings)
    {
        if (readings.isEmpty())
            return;
        QJsonObject settings;
        for (const LogReading &reading : readings) {
            if (reading.key == QLatin1String("eplb_config")) {
                QString json = reading.value;
                json.replace(QLatin1Char('\''), QLatin1Char('"'));
                json.replace(QLatin1String("True"), QLatin1String("true"));
                json.replace(QLatin1String("False"), QLatin1String("false"));
                json.replace(QLatin1String("None"), QLatin1String("null"));
                const QJsonDocument given = QJsonDocument::fromJson(json.toUtf8());
                if (!given.isObject()) {
                    m_out.assumed << LogExplanationWords::tr(
                                         "eplb_config (%1): '%2' is not a settings object kvscope reads; "
                                         "planned with vLLM's defaults")
                                         .arg(lineOf(reading.line), reading.value);
                    continue;
                }
                const QJsonObject object = given.object();
                for (auto it = object.begin(); it != object.end(); ++it)
                    settings.insert(it.key(), it.value());
            } else {
                const QString key = reading.key == QLatin1String("eplb_window_size")
                                        ? QStringLiteral("window_size")
                                        : reading.key;
                settings.insert(key, reading.value.toLongLong());
            }
        }
        const int line = readings.constFirst().line;
        const QString json = QString::fromUtf8(QJsonDocument(settings).toJson(QJsonDocument::Compact));
        try {
            const QString text = eplbConfigText(parseEplbConfig(json, optionFlag(ScenarioField::EplbConfig)));
            if (text.isEmpty())
                return;
            m_out.options.insert(optionKey(ScenarioField::EplbConfig), text);
            m_out.read << LogExplanationWords::tr("eplb_config = %1 (%2)").arg(text, lineOf(line));
        } catch (const Error &error) {
            m_out.assumed << LogExplanationWords::tr("eplb_config (%1): %2; planned with vLLM's defaults")
                                 .arg(lineOf(line), error.message());
        }
    }

    void arguments()
    {
        QList<LogReading> eplb;
        for (const LogReading &reading : m_log.arguments) {
            if (reading.key == QLatin1String("speculative_config")) {
                drafter(reading);
                continue;
            }
            if (reading.key == QLatin1String("eplb_config") ||
                reading.key == QLatin1String("num_redundant_experts") ||
                reading.key == QLatin1String("eplb_window_size")) {
                eplb << reading;
                continue;
            }
            takeEngineArgument(reading, m_out);
        }
        eplbSettings(eplb);
    }

    const StartupLog &m_log;
    const LogOverrides &m_overrides;
    LogExplanation &m_out;
};

void addComponents(LogExplanation &e)
{
    const StartupLog &log = e.log;
    const MemoryPlan &p = e.plan;
    // The estimate vLLM prints whether or not its release takes it out of the budget (from 0.21 on); none
    // where it profiles no graphs (--enforce-eager, off CUDA) or Model Runner V2 profiles none (0.22 to
    // 0.28).
    const bool printsEstimate = profilesCudaGraphs(e.scenario) && !(p.modelRunnerV2 && p.cudaGraphBytes == 0);
    const std::int64_t graphEstimate = printsEstimate ? p.cudaGraphProfile.estimateBytes : 0;
    // A pipeline's log prints its per-GPU lines from the first stage's workers (startuplog.h).
    const PipelineStagePlan firstStage = firstPipelineStage(p);
    // Tolerances: docs/validation.md, "modelled versions" (weights 3 %, activation and non-torch
    // 5 %, KV cache 1 %); the CUDA-graph estimate is held to the activation's.
    e.components = {
        {QStringLiteral("weights"), LogExplanationWords::tr("Weights"), log.weightsGiB,
         firstStage.weightBytes, 0.03},
        {QStringLiteral("activation_peak"), LogExplanationWords::tr("Activation peak of the profiling run"),
         log.activationPeakGiB, firstStage.activationBytes, 0.05},
        {QStringLiteral("non_torch"), LogExplanationWords::tr("Memory outside PyTorch (CUDA context, NCCL)"),
         log.nonTorchGiB, p.overheadBytes, 0.05},
        {QStringLiteral("cuda_graphs"), LogExplanationWords::tr("CUDA-graph estimate"),
         log.cudaGraphEstimateGiB, graphEstimate, 0.05},
        {QStringLiteral("kv_cache"), LogExplanationWords::tr("KV cache"), log.kvCacheGiB,
         firstStage.availableBytes, 0.01},
    };
    // An INFO-level log prints the weights and the KV cache but not the profiling's parts between them:
    // what the budget leaves beyond the two is theirs, so a pool that differs is put where it differs. Not
    // for a pipeline (its stages' budgets hold different parts) or a start that failed.
    if (log.weightsGiB && log.kvCacheGiB && !log.activationPeakGiB && !log.nonTorchGiB &&
        p.pipelineParallelSize == 1 && log.startFailure.isEmpty()) {
        const bool graphsInRest = p.cudaGraphBytes > 0 && !log.cudaGraphEstimateGiB;
        double rest = toGiB(p.budgetBytes) - *log.weightsGiB - *log.kvCacheGiB;
        if (p.cudaGraphBytes > 0 && log.cudaGraphEstimateGiB)
            rest -= *log.cudaGraphEstimateGiB;
        LogComponent c{QStringLiteral("rest_of_budget"),
                       graphsInRest ? LogExplanationWords::tr("Peak + outside PyTorch + graphs (derived)")
                                    : LogExplanationWords::tr("Activation peak + outside PyTorch (derived)"),
                       std::round(rest * 100) / 100,
                       p.activationBytes + p.overheadBytes + (graphsInRest ? p.cudaGraphBytes : 0), 0.05};
        c.derived = true;
        e.components.insert(e.components.size() - 1, c);
    }
    e.loggedKvTokens = log.kvCacheTokens;
    e.loggedMaxConcurrency = log.maxConcurrency;
}

/// The share of --gpu-memory-utilization a lever offers unless the free memory says less.
constexpr std::int64_t RecommendedUtilizationPpm = 950'000;

/// The largest --gpu-memory-utilization, in whole hundredths, whose budget fits the memory free at start-up:
/// vLLM refuses a larger one (request_memory, vllm/v1/worker/utils.py).
std::int64_t utilizationFittingPpm(double freeGiB, double totalGiB)
{
    if (!(totalGiB > 0))
        return 0;
    // A share, whatever the figures: more free than the total is all of it.
    return std::int64_t(std::floor(std::clamp(freeGiB / totalGiB, 0.0, 1.0) * 100)) * 10'000;
}

/// Why a Model Runner V2 start's profiling peak differs. A warm start (--compile-cache warm) is planned
/// with V2's source peak, which the warm logs agree with in sum: the logged split puts less in the peak and
/// more outside PyTorch. A cold start is planned with V1's sampler term as a stand-in for what compiling
/// the model adds (docs/validation.md, Model Runner V2).
QString modelRunnerV2Peak(const LogExplanation &e, const LogComponent &c)
{
    const MemoryPlan &p = e.plan;
    if (!p.modelRunnerV2)
        return QString();
    if (p.warmCompileCache)
        return LogExplanationWords::
            tr(" On Model Runner V2 with the compile cache warm kvscope plans V2's own peak: the larger of "
               "the forward pass over %1 tokens and the sampler's logits with their float32 copy. The warm "
               "logs "
               "measured agree with it and the memory outside PyTorch together, not one by one (validation "
               "logs 136 and 138).")
                .arg(formatCount(p.maxNumBatchedTokens));
    std::int64_t warm = 0;
    try {
        warm = modelRunnerV2WarmPeakBytes(e.scenario.model, bytesPerElement(p.dtype), p.tensorParallelSize,
                                          p.expertTensorParallelSize, p.maxNumSeqs, p.maxNumBatchedTokens);
    } catch (const Error &) {
        return QString(); // a token budget whose forward pass outgrows 2^63 bytes: nothing to set beside it
    }
    if (c.predictedBytes <= warm)
        return QString();
    return LogExplanationWords::tr(
               " On Model Runner V2 a start that compiles the model during the profiling run holds what the "
               "compilation allocates, which kvscope does not size: it keeps V1's profiling peak, the "
               "sampler's warm-up over %1 sequences of logits, for it. A start with vLLM's compile cache "
               "warm holds V2's own peak, %2 here (%3 warm: the KV cache would be %4 larger).")
        .arg(p.maxNumSeqs)
        .arg(formatGiB(warm), optionFlag(ScenarioField::CompileCache), formatGiB(c.predictedBytes - warm));
}

void addExplanation(LogExplanation &e)
{
    const MemoryPlan &p = e.plan;
    // A start that failed: why first, what the log's figures mean after.
    e.explanation << logexplain::explainStartFailure(e.log, e.scenario, p);
    QString graphs;
    if (p.cudaGraphBytes > 0)
        graphs =
            LogExplanationWords::tr(" and the CUDA-graph estimate (%1)").arg(formatGiB(p.cudaGraphBytes));
    e.explanation
        << LogExplanationWords::tr(
               "vLLM gives the engine %1 × %2 = %3 of each GPU (%9) and sizes the KV cache from what the "
               "weights (%4), the profiling run's activation peak (%5), memory outside PyTorch (%6)%7 leave: "
               "%8.")
               .arg(formatGiB(p.gpuMemoryBytes), formatUtilization(p.gpuMemoryUtilizationPpm),
                    formatGiB(p.budgetBytes), formatGiB(p.weights.bytesPerGpu), formatGiB(p.activationBytes),
                    formatGiB(p.overheadBytes), graphs, formatGiB(p.kv.availableBytes),
                    optionFlag(ScenarioField::GpuMemoryUtilization));
    if (p.kv.numGpuBlocks > 0) {
        // Windowed, chunked and recurrent layers keep less than a token's full bytes: the
        // per-token figure is meaningful for layers that all keep every token.
        const bool uniform =
            p.kv.slidingLayers == 0 && p.kv.chunkedLayers == 0 && p.kv.stateBytesPerLayer == 0;
        const QString holds =
            LogExplanationWords::tr("%1 blocks of %2 tokens: %3 tokens, %4 requests of %6 %5 at once")
                .arg(formatCount(p.kv.numGpuBlocks))
                .arg(p.blockSize)
                .arg(formatCount(p.kv.capacityTokens))
                .arg(p.kv.maxConcurrency, 0, 'f', 2)
                .arg(formatCount(p.maxModelLen), optionFlag(ScenarioField::MaxModelLen));
        e.explanation
            << (uniform ? LogExplanationWords::tr(
                              "A token of context takes %1 of KV cache on each GPU, so that memory holds %2.")
                              .arg(formatBytes(p.kv.bytesPerToken), holds)
                        : LogExplanationWords::tr("That memory holds %1.").arg(holds));
        // Which of vLLM's two "GPU KV cache size" figures this release logs, where they differ.
        if (p.engine == Engine::Vllm && p.kv.numGroups > 1) {
            const std::int64_t perGroup = blocksPerGroupTokens(p.kv, p.blockSize);
            const std::int64_t fromConcurrency = concurrencyTimesLengthTokens(p.kv, p.maxModelLen);
            e.explanation
                << (p.kv.capacityFromConcurrency
                        ? LogExplanationWords::tr(
                              "vLLM %1 logs \"GPU KV cache size\" as the maximum concurrency × %2: %3 "
                              "tokens, which counts what each of the %4 KV cache groups holds of a "
                              "request; releases before 0.21 logged the blocks per group × the block "
                              "size, %5 tokens.")
                        : LogExplanationWords::tr(
                              "vLLM %1 logs \"GPU KV cache size\" as the blocks per group × the block "
                              "size: %5 tokens over %4 KV cache groups; from 0.21 on it logs the maximum "
                              "concurrency × %2, %3 tokens, which counts what a windowed group holds of "
                              "a request."))
                       .arg(p.engineVersion, optionFlag(ScenarioField::MaxModelLen),
                            formatCount(fromConcurrency))
                       .arg(p.kv.numGroups)
                       .arg(formatCount(perGroup));
        }
    }
    if (p.encoder.items > 0) {
        QString logged;
        if (e.log.encoderBudget && e.log.encoderProfileItems)
            logged =
                (*e.log.encoderBudget == p.encoder.budget && *e.log.encoderProfileItems == p.encoder.items)
                    ? LogExplanationWords::tr(" The log says the same: a budget of %1, %2 image(s).")
                          .arg(formatCount(*e.log.encoderBudget), formatCount(*e.log.encoderProfileItems))
                    : LogExplanationWords::tr(" The log says otherwise: a budget of %1, %2 image(s).")
                          .arg(formatCount(*e.log.encoderBudget), formatCount(*e.log.encoderProfileItems));
        e.explanation << LogExplanationWords::tr(
                             "The profiling run first encodes %1 image(s) of the largest size (the encoder "
                             "cache's budget: %2 outputs) and holds their %3 of outputs in the activation "
                             "peak.%4")
                             .arg(formatCount(p.encoder.items), formatCount(p.encoder.budget),
                                  formatGiB(p.encoder.heldBytes), logged);
    }
    if (!p.pipelineStages.isEmpty()) {
        QStringList blocks;
        for (const PipelineStagePlan &stage : p.pipelineStages)
            blocks << formatCount(stage.ownBlocks);
        e.explanation << LogExplanationWords::tr(
                             "Each of the %1 pipeline stages sizes a cache for its own layers (blocks: %2); "
                             "vLLM gives every stage the fewest, stage %3's. The log's per-GPU lines are "
                             "the first stage's.")
                             .arg(p.pipelineParallelSize)
                             .arg(blocks.join(QStringLiteral(", ")))
                             .arg(p.bindingStage + 1);
    }
    const std::int64_t graphEstimate = profilesCudaGraphs(e.scenario) ? p.cudaGraphProfile.estimateBytes : 0;
    // The release the log names (0.27.1), which kvscope plans with the profile of the last change before it.
    const QString release = e.log.vllmVersion.isEmpty() ? p.engineVersion : e.log.vllmVersion;
    if (e.scenario.enforceEager)
        e.explanation
            << LogExplanationWords::tr(
                   "Under %1 vLLM captures no CUDA graphs, so nothing is taken out of the budget for "
                   "them.")
                   .arg(optionFlag(ScenarioField::EnforceEager));
    else if (p.cudaGraphBytes == 0 && p.modelRunnerV2 && profilesCudaGraphs(e.scenario)) {
        QString captured;
        if (e.log.cudaGraphCapturedGiB)
            captured =
                LogExplanationWords::tr(" This log's capture took %1 GiB after the cache was sized, held "
                                        "beyond the budget.")
                    .arg(*e.log.cudaGraphCapturedGiB, 0, 'f', 2);
        e.explanation << LogExplanationWords::tr(
                             "vLLM %1 runs this model on its Model Runner V2, which does not take the CUDA "
                             "graphs' memory (estimated %2 under the V1 runner) out of the budget; from vLLM "
                             "0.29 on it does, and the KV cache is smaller by that much.")
                                 .arg(release, formatGiB(p.cudaGraphProfile.estimateBytes)) +
                             captured;
    } else if (p.cudaGraphBytes == 0 && graphEstimate > 0)
        e.explanation
            << LogExplanationWords::tr(
                   "vLLM %1 does not take the CUDA graphs' memory (estimated %2) out of the budget; "
                   "from vLLM 0.21 on it does, and the KV cache is smaller by that much.")
                   .arg(release, formatGiB(graphEstimate));
    if (!p.startFailure.isEmpty())
        e.explanation << LogExplanationWords::tr("vLLM does not start: %1").arg(p.startFailure);
    // Memory already in use at start-up: vLLM's budget is a share of the whole card, which must be free then.
    // Said where it keeps vLLM below the share the levers offer.
    if (e.log.freeAtStartupGiB && e.log.totalGpuMemoryGiB && *e.log.totalGpuMemoryGiB > 0 &&
        utilizationFittingPpm(*e.log.freeAtStartupGiB, *e.log.totalGpuMemoryGiB) <
            RecommendedUtilizationPpm) {
        const double held = *e.log.totalGpuMemoryGiB - *e.log.freeAtStartupGiB;
        const double fits =
            double(utilizationFittingPpm(*e.log.freeAtStartupGiB, *e.log.totalGpuMemoryGiB)) / 1'000'000;
        e.explanation << LogExplanationWords::tr(
                             "When vLLM started, %1 GiB of the GPU's %2 GiB were free: %3 GiB were in use "
                             "already (vLLM's own CUDA context and other processes: a desktop, another "
                             "server). vLLM's budget is a share of the whole card and must fit in the free "
                             "memory, so %4 %5 is the most it takes here.")
                             .arg(*e.log.freeAtStartupGiB, 0, 'f', 2)
                             .arg(*e.log.totalGpuMemoryGiB, 0, 'f', 2)
                             .arg(held, 0, 'f', 2)
                             .arg(optionFlag(ScenarioField::GpuMemoryUtilization))
                             .arg(fits, 0, 'f', 2);
    }
    if (e.log.refusedToStart)
        e.explanation
            << LogExplanationWords::tr("The log shows vLLM refusing to start: %1").arg(e.log.refusal);
    // Ray workers on several hosts: tensor parallelism across nodes, where vLLM turns its custom all-reduce
    // off (custom_all_reduce.py: "this process group spans across nodes") and NCCL talks over the network.
    if (e.log.workerHosts.size() > 1 && p.tensorParallelSize > 1)
        e.explanation
            << LogExplanationWords::tr(
                   "The log's workers run on %1 hosts (%2): the GPUs span nodes. kvscope plans one node's: "
                   "its memory outside PyTorch at TP > 1 is that of GPUs on one node, where vLLM's custom "
                   "all-reduce and NCCL's links within the node differ from the network's.")
                   .arg(e.log.workerHosts.size())
                   .arg(e.log.workerHosts.join(QStringLiteral(", ")));
    // torch.compile during the profiling run: its allocations count in the peak and outside PyTorch.
    if (e.log.compiledLine > 0)
        e.explanation
            << LogExplanationWords::tr(
                   "This start compiled the model (%1), during the profiling run, whose memory then "
                   "holds the compilation's allocations too: later starts that load the compiled "
                   "graphs from vLLM's compile cache leave a larger KV cache (on RTX 4090s under "
                   "vLLM 0.27.1, 0.4 to 1.1 GiB more: validation logs 69 and 70, 135 to 138). To keep the "
                   "larger cache, keep vLLM's compile cache between starts (VLLM_CACHE_ROOT, ~/.cache/vllm "
                   "by default; in a container, mount it as the model cache is mounted) and plan with %2 "
                   "warm.")
                   .arg(lineOf(e.log.compiledLine), optionFlag(ScenarioField::CompileCache));
    else if (e.log.compileCacheLine > 0)
        e.explanation
            << LogExplanationWords::tr(
                   "This start loaded the compiled model from vLLM's compile cache (%1), and kvscope plans "
                   "it so (%2 warm): a first start, which compiles it during the profiling run, leaves a "
                   "smaller KV cache (on RTX 4090s under vLLM 0.27.1, 0.4 to 1.1 GiB less: validation "
                   "logs 69 and 70, 135 to 138).")
                   .arg(lineOf(e.log.compileCacheLine), optionFlag(ScenarioField::CompileCache));
    // vLLM's all-reduce + RMSNorm fusion brings NVLink's multi-GPU memory outside PyTorch with it
    // (VllmRules::applyBudget): a log whose engine config sets it otherwise than the release's default
    // holds another figure there.
    if (e.log.allReduceRmsFusion && p.tensorParallelSize > 1 &&
        *e.log.allReduceRmsFusion != p.allReduceRmsNormFused) {
        // What the log's setting holds, as kvscope plans it with that setting.
        const std::int64_t logged =
            vllmNonTorchBytes(e.scenario.gpu, p.tensorParallelSize, *e.log.allReduceRmsFusion,
                              *resolveVllmVersion(e.scenario.vllmVersion).profile);
        e.explanation
            << (*e.log.allReduceRmsFusion
                    ? LogExplanationWords::tr(
                          "The log's engine config turns vLLM's all-reduce + RMSNorm fusion on (%1), "
                          "which this release does not do by default on this GPU (vLLM does from 0.16, "
                          "at TP > 1 on compute capability 9.0 and 10.x): kvscope plans %2 outside "
                          "PyTorch, one GPU's figure, where starts with the fusion on NVLink hold "
                          "about %3, so the logged KV cache is likely smaller than planned.")
                    : LogExplanationWords::tr(
                          "The log's engine config turns vLLM's all-reduce + RMSNorm fusion off (%1), "
                          "which this release turns on by default at TP > 1 on this GPU: kvscope plans "
                          "the %2 outside PyTorch that comes with the fusion, where starts without it "
                          "hold about one GPU's figure, %3, so the logged KV cache is likely larger "
                          "than planned."))
                   .arg(lineOf(e.log.allReduceRmsFusionLine), formatGiB(p.overheadBytes), formatGiB(logged));
    }
    addDisagreements(e, [&](const LogComponent &c) {
        if (c.key == QLatin1String("activation_peak"))
            return modelRunnerV2Peak(e, c);
        if (c.key != QLatin1String("cuda_graphs"))
            return QString();
        if (p.cudaGraphBytes == 0)
            return LogExplanationWords::tr(
                " This release does not subtract it, so the KV cache does not depend on it.");
        const StartupLog &log = e.log;
        if (log.piecewiseGraphs + log.fullGraphs == 0)
            return QString();
        // vLLM captures the first two graphs of each mode and prices the rest as the second
        // (profile_cudagraph_memory, vllm/v1/worker/gpu_model_runner.py): the count and the layers decide it,
        // and kvscope counts them as vLLM's configuration does (core/plan/cudagraphmemory.h).
        return LogExplanationWords::
            tr(" vLLM measures it by capturing graphs: the first graph's memory plus the second's times the "
               "others, here %1 graphs (%2 piecewise up to %3 tokens, %4 full up to %5) over %6 layers a "
               "GPU. kvscope counts the graphs the same way (%7 piecewise, %8 full) and prices each by the "
               "layers it holds, as fitted on H100 logs (%9 in all): where the counts differ, the log ran "
               "other settings than the plan; where they agree, this GPU's graphs hold more or less than an "
               "H100's (Calibrate from this log keeps the logged estimate).")
                .arg(log.piecewiseGraphs + log.fullGraphs)
                .arg(log.piecewiseGraphs)
                .arg(log.largestPiecewiseGraph)
                .arg(log.fullGraphs)
                .arg(log.largestFullGraph)
                .arg(firstPipelineStage(p).layers)
                .arg(p.cudaGraphProfile.piecewiseGraphs)
                .arg(p.cudaGraphProfile.fullGraphs)
                .arg(formatGiB(p.cudaGraphBytes));
    });
}

void addLevers(LogExplanation &e, const ScenarioResolvers &resolve)
{
    const MemoryPlan &p = e.plan;
    // Where other processes hold some of the GPU, the larger share offered is the most that fits.
    std::int64_t targetPpm = RecommendedUtilizationPpm;
    QString what = LogExplanationWords::tr("more of the GPU for vLLM");
    if (e.log.freeAtStartupGiB && p.gpuMemoryBytes > 0) {
        const std::int64_t fitsPpm = utilizationFittingPpm(*e.log.freeAtStartupGiB, toGiB(p.gpuMemoryBytes));
        if (fitsPpm < targetPpm) {
            targetPpm = fitsPpm;
            what = LogExplanationWords::tr("the most of the GPU free at start-up, %1 GiB")
                       .arg(*e.log.freeAtStartupGiB, 0, 'f', 2);
        }
    }
    // A start that failed after sizing the cache needs more room beside it, not a larger cache: no lever
    // gives vLLM more of the GPU then (the explanation names the ones that help).
    const bool failedAfterSizing = !e.log.startFailure.isEmpty();
    if (p.gpuMemoryUtilizationPpm < targetPpm && !failedAfterSizing)
        addLever(e, what, ScenarioField::GpuMemoryUtilization, formatUtilization(targetPpm), resolve);
    // Fewer graphs, as vLLM's memory guide shows them (cudagraph_capture_sizes [1, 2, 4, 8, 16]:
    // docs/configuration/conserving_memory.md, "Reduce CUDA Graphs"); larger batches then run without.
    constexpr std::int64_t FewGraphsTokens = 16;
    if (p.cudaGraphsEstimated() && p.cudaGraphProfile.largestCaptureTokens > FewGraphsTokens)
        addLever(e,
                 LogExplanationWords::tr("CUDA graphs for batches up to %1 tokens only, larger ones slower")
                     .arg(FewGraphsTokens),
                 ScenarioField::MaxCudagraphCaptureSize, QString::number(FewGraphsTokens), resolve);
    if (p.cudaGraphBytes > 0)
        addLever(e, LogExplanationWords::tr("no CUDA graphs, slower steps"), ScenarioField::EnforceEager,
                 switchText(true), resolve);
    // A start that compiled holds more while profiling on Model Runner V2: a restart that finds the compiled
    // graphs in vLLM's compile cache holds V2's own peak. The launch line is the same; the cache is kept.
    if (p.modelRunnerV2 && p.holdsSampler && !p.warmCompileCache)
        addLever(e, LogExplanationWords::tr("a restart that keeps vLLM's compile cache"),
                 ScenarioField::CompileCache, compileCacheName(CompileCache::Warm), resolve);
    // The fixed pool the log's own memory line advises: the memory free at start-up less vLLM's other
    // memory and a 150 MiB margin (Worker.compile_or_warm_up_model, vllm/v1/worker/gpu_worker.py).
    if (e.log.kvCacheMemoryToFillGpu && e.scenario.kvCacheMemoryBytes == 0 && !failedAfterSizing)
        addLever(e, LogExplanationWords::tr("the whole GPU, as the log advises"),
                 ScenarioField::KvCacheMemoryBytes, QString::number(*e.log.kvCacheMemoryToFillGpu), resolve);
    addEngineIndependentLevers(e, resolve);
}

} // namespace

std::optional<std::int64_t> LogComponent::loggedBytes() const
{
    if (!loggedGiB)
        return std::nullopt;
    return std::llround(*loggedGiB * double(GiB));
}

bool LogComponent::agrees() const
{
    if (!loggedGiB)
        return true;
    const double predicted = toGiB(predictedBytes);
    // The epsilon keeps a difference of exactly one rounding step inside.
    return std::abs(predicted - *loggedGiB) <= std::max(0.01, tolerance * std::abs(*loggedGiB)) + 1e-9;
}

QStringList LogExplanation::disagreeing() const
{
    QStringList keys;
    for (const LogComponent &c : components)
        if (!c.agrees())
            keys << c.key;
    return keys;
}

MeasuredMemory measuredMemory(const LogExplanation &e, const QDate &date)
{
    const QString origin = e.log.origin;
    if (e.scenario.pipelineParallelSize > 1)
        failAt(origin, LogExplanationWords::tr("a pipeline's stages hold different memory; its log cannot "
                                               "calibrate one figure per GPU"));
    MeasuredMemory m;
    m.deployment = deploymentValues(e.scenario);
    for (const LogComponent &c : e.components) {
        const std::optional<std::int64_t> bytes = c.loggedBytes();
        if (!bytes)
            continue;
        if (c.key == QLatin1String("weights"))
            m.weightsBytes = *bytes;
        else if (c.key == QLatin1String("activation_peak"))
            m.activationBytes = *bytes;
        else if (c.key == QLatin1String("non_torch"))
            m.nonTorchBytes = *bytes;
        else if (c.key == QLatin1String("cuda_graphs"))
            m.cudaGraphBytes = *bytes;
        else if (c.key == QLatin1String("free_before_weights"))
            m.freeAtLoadBytes = *bytes;
    }
    if (!m.measured())
        failAt(origin, LogExplanationWords::tr("the log prints none of the weights, the activation peak, the "
                                               "non-torch memory, the CUDA-graph estimate or the memory free "
                                               "when the weights load"));
    // The release as the log prints it, else as --vllm-version gave it.
    const QString version = e.log.vllmVersion.isEmpty()
                                ? e.options.value(optionKey(ScenarioField::VllmVersion))
                                : e.log.vllmVersion;
    const QString release =
        e.log.engine == Engine::Sglang ? QStringLiteral("SGLang") : QStringLiteral("vLLM %1").arg(version);
    m.source = LogExplanationWords::tr("%1 (%2, %3)")
                   .arg(QFileInfo(origin).fileName(), release, date.toString(Qt::ISODate));
    return m;
}

LogExplanation explainStartupLog(const StartupLog &log, const LogOverrides &overrides,
                                 const ScenarioResolvers &resolve)
{
    LogExplanation e;
    e.log = log;
    // Memory free at start-up beyond the card's total (or below zero) is a damaged figure: it says nothing of
    // this start, so nothing is inferred from it.
    if (const std::optional<double> free = log.freeAtStartupGiB;
        free && log.totalGpuMemoryGiB && !(*free >= 0 && *free <= *log.totalGpuMemoryGiB)) {
        e.assumed << LogExplanationWords::tr("free_memory %1 GiB: outside the GPU's %2 GiB, not used")
                         .arg(QString::number(*free, 'g', 4),
                              QString::number(*log.totalGpuMemoryGiB, 'f', 2));
        e.log.freeAtStartupGiB.reset();
    }
    const bool sglang = e.log.engine == Engine::Sglang;
    if (sglang)
        inferSglangScenario(e.log, overrides, e);
    else
        Inference(e.log, overrides, e).run();
    for (const LogReading &figure : log.figures)
        e.read << LogExplanationWords::tr("%1 %2 (%3)").arg(figure.key, figure.value, lineOf(figure.line));
    const QString drafterKey = optionKey(ScenarioField::SpeculativeConfig);
    if (e.options.contains(drafterKey)) {
        // A drafter kvscope does not plan for this model (MTP layers it does not size, a draft for
        // another model) is said and left out, as the figures without it are still worth explaining.
        try {
            validateSpeculative(scenarioFromValues(e.options, resolve));
        } catch (const Error &error) {
            e.assumed << LogExplanationWords::tr("%1; the drafter's weights and KV layers are not planned")
                             .arg(error.message());
            e.options.remove(drafterKey);
        }
    }
    try {
        e.scenario = scenarioFromValues(e.options, resolve);
        if (!e.servedModel.isEmpty()) {
            // The launch lines serve what the log served: its folder, stored as the log's method.
            e.scenario.model.hfRepoIds.prepend(e.servedModel);
            if (e.servedCheckpointQuantized && e.scenario.quantization)
                e.scenario.model.checkpointQuantization = *e.scenario.quantization;
        }
        e.plan = planMemory(e.scenario);
    } catch (const Error &error) {
        failAt(log.origin, error.message());
    }
    if (sglang) {
        explainSglangPlan(e, resolve);
        return e;
    }
    addComponents(e);
    addExplanation(e);
    addLevers(e, resolve);
    return e;
}

} // namespace kvscope
