// SPDX-License-Identifier: MIT
// An SGLang start-up log explained. SGLang sizes its token pool in
// profile_max_num_token (python/sglang/srt/model_executor/model_runner.py): the
// memory free once the weights are in, less (1 - --mem-fraction-static) of the
// memory free before they loaded. It never prints the GPU's size, so the GPU is
// the preset whose memory, less what kvscope takes for the CUDA context and NCCL
// (core/engine/sglang.cpp), is nearest to that free memory.
#include "core/analysis/logexplanationparts.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/engine/sglang.h"
#include "core/library/library.h"
#include "core/precision/dtypes.h"
#include "core/scenario/speculativeconfig.h"

#include <algorithm>
#include <cmath>

#include <QJsonDocument>
#include <QJsonObject>

namespace kvscope {

using namespace logexplain;

namespace {

/// What SGLang had free on each GPU when the weights began to load: logged, or the free memory
/// after the load plus what the load took.
std::optional<double> freeBeforeWeights(const StartupLog &log)
{
    if (log.freeBeforeWeightsGiB)
        return log.freeBeforeWeightsGiB;
    if (log.freeAfterWeightsGiB && log.weightsGiB)
        return *log.freeAfterWeightsGiB + *log.weightsGiB;
    return std::nullopt;
}

/// What the weights took: logged ("mem usage"), or the free memory before less after.
std::optional<double> weightsTaken(const StartupLog &log)
{
    if (log.weightsGiB)
        return log.weightsGiB;
    if (log.freeBeforeWeightsGiB && log.freeAfterWeightsGiB)
        return *log.freeBeforeWeightsGiB - *log.freeAfterWeightsGiB;
    return std::nullopt;
}

class SglangInference
{
public:
    SglangInference(const StartupLog &log, const LogOverrides &overrides, LogExplanation &out)
        : m_log(log), m_overrides(overrides), m_out(out)
    {}

    void run()
    {
        m_out.options.insert(optionKey(ScenarioField::Engine), engineName(Engine::Sglang));
        model();
        arguments();
        tensorParallel();
        gpu();
        m_out.assumed << LogExplanationWords::tr(
            "SGLang version: kvscope plans the token pool as profile_max_num_token computes it in current "
            "releases (python/sglang/srt/model_executor/model_runner.py)");
        if (m_log.argument(QStringLiteral("mem_fraction_static")).isEmpty())
            m_out.assumed << LogExplanationWords::tr(
                "mem_fraction_static: not in the log; SGLang's default for this GPU and tp_size "
                "(python/sglang/srt/server_args.py)");
        const QString context = m_log.argument(QStringLiteral("context_length"));
        if (!context.isEmpty())
            m_out.options.insert(optionKey(ScenarioField::SeqLen), context);
        else
            m_out.assumed << LogExplanationWords::tr(
                "context_length: not in the log; the model's own (max_position_embeddings)");
        m_out.options.insert(optionKey(ScenarioField::BatchSize), QStringLiteral("1"));
    }

private:
    void model()
    {
        if (takeOverride(ScenarioField::Model, m_overrides.model, m_out))
            return;
        if (m_log.model.isEmpty())
            failAt(m_log.origin, LogExplanationWords::tr("the log names no model (no server_args or "
                                                         "launch_server line with %2); give %1")
                                     .arg(optionFlag(ScenarioField::Model),
                                          optionFlag(ScenarioField::Model, Engine::Sglang)));
        takeLogModel(m_log, QStringLiteral("model_path"), m_out);
    }

    void arguments()
    {
        for (const LogReading &reading : m_log.arguments) {
            if (reading.key == QLatin1String("pp_size") && reading.value != QLatin1String("1"))
                failAt(m_log.origin, LogExplanationWords::tr(
                                         "%1 %2 (%3): kvscope does not plan SGLang's pipeline parallelism "
                                         "yet")
                                         .arg(reading.key, reading.value, lineOf(reading.line)));
            if (reading.key == QLatin1String("speculative_algorithm")) {
                drafter(reading);
                continue;
            }
            takeEngineArgument(reading, m_out);
        }
    }

    /// SGLang's drafter as its arguments state it (--speculative-algorithm, -draft-model-path,
    /// -num-steps, -eagle-topk, -num-draft-tokens), as kvscope's chain of k drafts: the EAGLE
    /// family's k steps, n-gram's draft tokens less the one it verifies anyway. Planned where kvscope
    /// plans the drafter; otherwise said, and left out.
    void drafter(const LogReading &reading)
    {
        const std::optional<SpeculativeMethod> method = sglangSpeculativeMethod(reading.value);
        const auto notPlanned = [&](const QString &why) {
            m_out.assumed << LogExplanationWords::tr(
                                 "speculative_algorithm %1 (%2): %3; the drafter is not planned")
                                 .arg(reading.value, lineOf(reading.line), why);
        };
        if (!method) {
            notPlanned(LogExplanationWords::tr("an algorithm kvscope does not plan"));
            return;
        }
        const bool ngram = *method == SpeculativeMethod::Ngram;
        const QString stepsKey =
            ngram ? QStringLiteral("speculative_num_draft_tokens") : QStringLiteral("speculative_num_steps");
        bool ok = false;
        const std::int64_t steps = m_log.argument(stepsKey).toLongLong(&ok);
        if (!ok || steps < (ngram ? 2 : 1)) {
            notPlanned(LogExplanationWords::tr("the log gives no %1").arg(stepsKey));
            return;
        }
        const QString topk = m_log.argument(QStringLiteral("speculative_eagle_topk"));
        if (!ngram && !topk.isEmpty() && topk != QLatin1String("1") && topk != QLatin1String("None"))
            m_out.assumed << LogExplanationWords::tr(
                                 "speculative_eagle_topk %1: SGLang drafts a tree; kvscope "
                                 "plans a chain of %2 drafts")
                                 .arg(topk)
                                 .arg(steps);
        QJsonObject config{{QStringLiteral("method"), speculativeMethodName(*method)},
                           {QStringLiteral("num_speculative_tokens"), qint64(ngram ? steps - 1 : steps)}};
        const QString draft = m_log.argument(QStringLiteral("speculative_draft_model_path"));
        if (!draft.isEmpty() && draft != QLatin1String("None"))
            config.insert(QStringLiteral("model"), draft);
        const QString json = QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact));
        try {
            parseSpeculativeConfig(json, optionFlag(ScenarioField::SpeculativeConfig), resolveDraftModel);
        } catch (const Error &error) {
            notPlanned(error.message());
            return;
        }
        m_out.options.insert(optionKey(ScenarioField::SpeculativeConfig), json);
        m_out.read << LogExplanationWords::tr("speculative_algorithm %1 (%2): %3 %4")
                          .arg(reading.value, lineOf(reading.line),
                               optionFlag(ScenarioField::SpeculativeConfig), json);
    }

    void tensorParallel()
    {
        if (!m_log.argument(QStringLiteral("tp_size")).isEmpty() || m_log.ranksSeen <= 1)
            return;
        m_out.options.insert(optionKey(ScenarioField::TensorParallelSize), QString::number(m_log.ranksSeen));
        m_out.assumed << LogExplanationWords::tr("tp_size %1: from the TP0 to TP%2 prefixes")
                             .arg(m_log.ranksSeen)
                             .arg(m_log.ranksSeen - 1);
    }

    int tensorParallelSize() const
    {
        bool ok = false;
        const int logged = m_log.argument(QStringLiteral("tp_size")).toInt(&ok);
        return ok && logged > 0 ? logged : std::max(1, m_log.ranksSeen);
    }

    void gpu()
    {
        if (takeOverride(ScenarioField::Gpu, m_overrides.gpu, m_out))
            return;
        // A MoE's start names the device in the Triton MoE config it looks for (fused_moe_triton_config.py).
        if (const GpuSpec *named =
                m_log.deviceName.isEmpty() ? nullptr : gpuForDeviceName(m_log.deviceName)) {
            m_out.options.insert(optionKey(ScenarioField::Gpu), named->id);
            m_out.read << LogExplanationWords::tr("GPU = %1: the log's device_name=%2 (%3)")
                              .arg(named->name, m_log.deviceName, lineOf(m_log.deviceNameLine));
            return;
        }
        const std::optional<double> free = freeBeforeWeights(m_log);
        if (!free)
            failAt(m_log.origin, LogExplanationWords::tr("the log does not print the memory free when the "
                                                         "weights load (SGLang's 'Load weight begin. avail "
                                                         "mem' line); give %1")
                                     .arg(optionFlag(ScenarioField::Gpu)));
        const int tp = tensorParallelSize();
        struct Candidate
        {
            const GpuSpec *gpu;
            double distanceGiB;
        };
        QList<Candidate> candidates;
        for (const GpuSpec &gpu : GpuLibrary::builtin().presets())
            candidates << Candidate{&gpu,
                                    std::abs(toGiB(gpu.memoryBytes - sglangPreloadBytes(gpu, tp)) - *free)};
        std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
            return a.distanceGiB < b.distanceGiB;
        });
        const QString printed = QString::number(*free, 'f', 2);
        // Within what the context and NCCL are seen to take beyond kvscope's figure (docs/validation.md:
        // up to 0.8 GiB on a desktop that shares the card).
        constexpr double CloseEnoughGiB = 1.0;
        if (candidates.isEmpty() || candidates.first().distanceGiB > CloseEnoughGiB)
            failAt(m_log.origin, LogExplanationWords::tr(
                                     "%1 GiB free when the weights load matches no GPU preset; give %2 (a "
                                     "preset, or custom:<GiB> for this memory)")
                                     .arg(printed, optionFlag(ScenarioField::Gpu)));
        const GpuSpec &gpu = *candidates.first().gpu;
        m_out.options.insert(optionKey(ScenarioField::Gpu), gpu.id);
        QStringList others;
        for (qsizetype i = 1; i < candidates.size(); ++i)
            if (candidates.at(i).distanceGiB <= candidates.first().distanceGiB + 0.5)
                others << candidates.at(i).gpu->id;
        const QString memory =
            LogExplanationWords::tr(
                "GPU %1: SGLang does not print the GPU; the preset whose memory less the "
                "%2 in use before the weights is nearest to the %3 GiB free when they load")
                .arg(gpu.name, formatGiB(sglangPreloadBytes(gpu, tp)), printed);
        m_out.assumed << (others.isEmpty() ? memory
                                           : LogExplanationWords::tr("%1 (also %2); give %3 for another")
                                                 .arg(memory, others.join(QStringLiteral(", ")),
                                                      optionFlag(ScenarioField::Gpu)));
    }

    const StartupLog &m_log;
    const LogOverrides &m_overrides;
    LogExplanation &m_out;
};

void addSglangComponents(LogExplanation &e)
{
    const StartupLog &log = e.log;
    const MemoryPlan &p = e.plan;
    // Tolerances: docs/validation.md, SGLang (the token pool within 3 %; weights as for vLLM, 3 %).
    e.components = {
        {QStringLiteral("free_before_weights"),
         LogExplanationWords::tr("Free when the weights load (SGLang's total)"), log.freeBeforeWeightsGiB,
         p.gpuMemoryBytes - p.preloadBytes, 0.01},
        {QStringLiteral("weights"), LogExplanationWords::tr("Weights"), weightsTaken(log),
         p.weights.bytesPerGpu, 0.03},
        {QStringLiteral("kv_cache"), LogExplanationWords::tr("KV cache (token pool)"), log.kvCacheGiB,
         p.kv.availableBytes, 0.03},
    };
    e.loggedKvTokens = log.kvCacheTokens;
    e.loggedMaxRunningRequests = log.maxRunningRequests;
}

void addSglangExplanation(LogExplanation &e)
{
    const MemoryPlan &p = e.plan;
    const Engine sglang = Engine::Sglang;
    e.explanation << LogExplanationWords::tr(
                         "SGLang keeps %1 × %2 = %3 of the memory free when the weights load (%4 %5) for the "
                         "weights and its token pool, and leaves the rest for activations and CUDA graphs. "
                         "The weights take %6, which leaves %7 for the pool.")
                         .arg(formatUtilization(p.memFractionStaticPpm),
                              formatGiB(p.gpuMemoryBytes - p.preloadBytes), formatGiB(p.budgetBytes),
                              optionFlag(ScenarioField::MemFractionStatic, sglang),
                              formatUtilization(p.memFractionStaticPpm), formatGiB(p.weights.bytesPerGpu),
                              formatGiB(p.kv.availableBytes));
    if (p.kv.statePoolSlots > 0)
        e.explanation
            << LogExplanationWords::tr(
                   "Before the token pool SGLang sets aside %1 for %2 requests' recurrent states (its "
                   "state pool: 0.9 of the memory for every 1 the tokens get, %3 a request)%4.")
                   .arg(formatGiB(p.kv.statePoolBytes), formatCount(p.kv.statePoolSlots),
                        formatBytes(p.kv.stateBytesPerSequence),
                        e.log.statePoolSlots
                            ? LogExplanationWords::tr("; the log's max_mamba_cache_size is %1")
                                  .arg(formatCount(*e.log.statePoolSlots))
                            : QString());
    if (p.kv.swaPoolRatioPpm > 0)
        e.explanation << LogExplanationWords::tr(
                             "The window layers keep a pool of their own, %1 tokens for every full one (%2): "
                             "%3 tokens beside the full pool's %4%5.")
                             .arg(formatUtilization(p.kv.swaPoolRatioPpm),
                                  sglangFlag(ScenarioField::SwaFullTokensRatio),
                                  formatCount(p.kv.swaPoolTokens), formatCount(p.kv.capacityTokens),
                                  e.log.swaPoolTokens
                                      ? LogExplanationWords::tr("; the log's swa_layer_tokens is %1")
                                            .arg(formatCount(*e.log.swaPoolTokens))
                                      : QString());
    if (p.kv.capacityTokens > 0 && p.kv.bytesPerToken > 0 && p.kv.swaPoolRatioPpm == 0)
        e.explanation
            << LogExplanationWords::tr(
                   "A token of context takes %1 of the pool on each GPU, so it holds %2 tokens; with "
                   "%3 %4 SGLang runs at most %5 requests at once (%6).")
                   .arg(formatBytes(p.kv.bytesPerToken), formatCount(p.kv.capacityTokens),
                        optionFlag(ScenarioField::MaxModelLen, sglang), formatCount(p.maxModelLen),
                        formatCount(p.maxNumSeqs), optionFlag(ScenarioField::MaxNumSeqs, sglang));
    if (e.log.cudaGraphGiB)
        e.explanation
            << LogExplanationWords::tr(
                   "Its CUDA graphs took %1 GiB of the rest (logged); raising %2 leaves less for them "
                   "and for the activations of a prefill chunk.")
                   .arg(QString::number(*e.log.cudaGraphGiB, 'f', 2),
                        optionFlag(ScenarioField::MemFractionStatic, sglang));
    if (!p.engineStarts)
        e.explanation << LogExplanationWords::tr("SGLang does not start: %1").arg(p.startFailure);
    addDisagreements(e, [](const LogComponent &) { return QString(); });
}

void addSglangLevers(LogExplanation &e, const ScenarioResolvers &resolve)
{
    const MemoryPlan &p = e.plan;
    // Five hundredths more of the free memory, at most 0.95: what is left must still hold the
    // activations and CUDA graphs (the explanation says how much those took).
    constexpr std::int64_t StepPpm = 50'000;
    constexpr std::int64_t HighestPpm = 950'000;
    if (p.memFractionStaticPpm + StepPpm <= HighestPpm)
        addLever(e, LogExplanationWords::tr("a larger static share for SGLang"),
                 ScenarioField::MemFractionStatic, formatUtilization(p.memFractionStaticPpm + StepPpm),
                 resolve);
    addEngineIndependentLevers(e, resolve);
}

} // namespace

void inferSglangScenario(const StartupLog &log, const LogOverrides &overrides, LogExplanation &out)
{
    if (!overrides.vllmVersion.trimmed().isEmpty())
        throw Error(
            LogExplanationWords::tr("%1 %2: %3 is an SGLang start-up log, and the option names a "
                                    "vLLM release")
                .arg(optionFlag(ScenarioField::VllmVersion), overrides.vllmVersion.trimmed(), log.origin));
    SglangInference(log, overrides, out).run();
}

void explainSglangPlan(LogExplanation &e, const ScenarioResolvers &resolve)
{
    addSglangComponents(e);
    addSglangExplanation(e);
    addSglangLevers(e, resolve);
}

} // namespace kvscope
