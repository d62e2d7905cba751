// SPDX-License-Identifier: MIT
#include "core/analysis/fit.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/search.h"
#include "core/common/units.h"
#include "core/engine/runtime.h"
#include "core/engine/sglang.h"
#include "core/plan/eplb.h"
#include "core/plan/expertparallel.h"
#include "core/plan/imageworkload.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/plan/speed.h"
#include "core/plan/tensorparallel.h"
#include "core/scenario/launchline.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include <QCoreApplication>
#include <QJsonArray>

namespace kvscope {

namespace {

/// SGLang admits at least this many requests by default (init_memory_pool's floor).
constexpr std::int64_t SglangMinRunningRequests = 2048;

/// How the GPUs are laid out: tensor-parallel groups, pipeline stages, data-parallel ranks and
/// whether the routed experts are divided among all of them.
struct ParallelLayout
{
    int tensorParallelSize = 1;
    int pipelineParallelSize = 1;
    int dataParallelSize = 1;
    bool expertParallel = false;
    bool dpAttention = false; ///< SGLang's attention groups: the ranks divide the TP GPUs

    int gpus() const
    {
        return tensorParallelSize * pipelineParallelSize * (dpAttention ? 1 : dataParallelSize);
    }
};

/// One point of the search: a GPU, a parallel layout and two precisions.
struct Configuration
{
    GpuSpec gpu;
    ParallelLayout layout;
    std::optional<QuantizationSpec> quantization;
    KvCacheDtype kvCacheDtype = KvCacheDtype::Auto;
};

Scenario scenarioOf(const FitQuery &q, const Configuration &c, std::int64_t maxModelLen)
{
    Scenario s = q.base;
    s.gpu = c.gpu;
    s.tensorParallelSize = c.layout.tensorParallelSize;
    s.pipelineParallelSize = c.layout.pipelineParallelSize;
    s.dataParallelSize = c.layout.dataParallelSize;
    s.enableExpertParallel = c.layout.expertParallel;
    s.enableDpAttention = c.layout.dpAttention;
    // vLLM's load balancer and SGLang's --ep-size (the window's scenario may have them) where the
    // layout takes them: a layout they cannot run on is planned without them rather than dropped.
    keepEplbWhereTaken(s);
    keepExpertParallelSizeWhereTaken(s);
    s.quantization = c.quantization;
    s.kvCacheDtype = c.kvCacheDtype;
    s.maxModelLen = maxModelLen;
    // Requests of --max-model-len tokens, their images' among them.
    s.seqLen = std::max<std::int64_t>(1, maxModelLen - imageWorkload(s).promptTokens);
    s.batchSize = q.concurrency;
    if (s.promptLen > s.seqLen)
        s.promptLen = 0;
    // The scheduler has to admit the requests at once, not only the cache hold them: each
    // data-parallel rank its share.
    const std::int64_t admitted = s.engine == Engine::Vllm  ? defaultMaxNumSeqs(c.gpu)
                                  : s.speculative.enabled() ? SglangSpeculativeMaxRunningRequests
                                                            : SglangMinRunningRequests;
    const std::int64_t perRank = dataParallelShare(q.concurrency, c.layout.dataParallelSize);
    if (s.maxNumSeqs <= 0 && perRank > admitted)
        s.maxNumSeqs = perRank;
    return s;
}

/// Requests of --max-model-len the deployment holds at once: the planned rank's (the one with
/// the most experts) on every data-parallel rank, as an even split places them.
std::int64_t wholeRequests(const MemoryPlan &plan)
{
    return plan.kv.blocksPerMaxRequest > 0
               ? plan.kv.numGpuBlocks / plan.kv.blocksPerMaxRequest * plan.dataParallelSize
               : 0;
}

QList<std::optional<QuantizationSpec>> quantizationsOf(const FitQuery &q)
{
    if (!q.quantizations.isEmpty())
        return q.quantizations;
    QList<std::optional<QuantizationSpec>> out = {std::nullopt};
    const ModelArch &m = q.base.model;
    if (m.checkpointQuantization.method == QuantMethod::None && m.format != ModelFormat::Gguf)
        out << defaultSpecFor(QuantMethod::Fp8);
    return out;
}

QList<KvCacheDtype> kvCacheDtypesOf(const FitQuery &q)
{
    return q.kvCacheDtypes.isEmpty() ? QList<KvCacheDtype>{KvCacheDtype::Auto, KvCacheDtype::Fp8}
                                     : q.kvCacheDtypes;
}

/// The largest length in [1, upper] that serves the query at `c`, or 0.
std::int64_t longestServed(const FitQuery &q, const Configuration &c, std::int64_t upper)
{
    return largestSatisfying(upper, [&](std::int64_t len) {
        const std::optional<MemoryPlan> plan = tryPlanMemory(scenarioOf(q, c, len));
        return plan && servesConcurrency(*plan, q.concurrency);
    });
}

double decodeSpeed(const FitRow &row)
{
    return row.plan.speed.available ? emittedTokensPerSecond(row.plan.speed) : 0;
}

/// Fewest GPUs, then the longest context (when searched), the least memory bought,
/// the fastest decode — or the fastest decode first; names settle the rest so
/// the order never depends on the search.
bool better(const FitRow &a, const FitRow &b, bool longest, FitRanking ranking)
{
    const auto key = [&](const FitRow &r) {
        return std::make_tuple(ranking == FitRanking::Speed ? -decodeSpeed(r) : 0.0, r.plan.gpuCount(),
                               r.plan.pipelineParallelSize, r.plan.dataParallelSize,
                               longest ? -r.plan.maxModelLen : 0, r.totalMemoryBytes, -decodeSpeed(r),
                               r.plan.gpuId, quantizationChoiceName(r.scenario.quantization),
                               dtypeName(r.scenario.kvCacheDtype));
    };
    return key(a) < key(b);
}

const EnumSpelling<FitRanking> fitRankingNames[] = {
    {FitRanking::Memory, "memory"},
    {FitRanking::Speed, "speed"},
};

/// `items` with each one kept at its first place, two being the same when `identity`
/// gives equal keys. Quadratic, for the handful of candidates a query names.
template <typename T, typename Identity> QList<T> firstOfEach(const QList<T> &items, Identity identity)
{
    QList<T> out;
    for (const T &item : items)
        if (std::none_of(out.begin(), out.end(),
                         [&](const T &kept) { return identity(kept) == identity(item); }))
            out << item;
    return out;
}

/// The query with each candidate once: a GPU by its id, a weight precision by its
/// spec, a KV cache dtype after vLLM's alias (fp8 is fp8_e4m3). A repeat would
/// repeat its rows and multiply the search time.
FitQuery withoutRepeats(FitQuery q)
{
    q.gpus = firstOfEach(q.gpus, [](const GpuSpec &gpu) { return gpu.id; });
    q.quantizations =
        firstOfEach(q.quantizations, [](const std::optional<QuantizationSpec> &spec) { return spec; });
    q.kvCacheDtypes = firstOfEach(q.kvCacheDtypes, [](KvCacheDtype dtype) {
        return dtype == KvCacheDtype::Fp8E4M3 ? KvCacheDtype::Fp8 : dtype;
    });
    return q;
}

/// More requests held, then more memory left for the KV cache: what comes closest to serving.
bool closerThan(const FitRow &a, const FitRow &b)
{
    return std::make_pair(a.maxConcurrency, a.plan.kv.availableBytes) >
           std::make_pair(b.maxConcurrency, b.plan.kv.availableBytes);
}

/// "4 x H100", "4 x H100 in 2 pipeline stages" or "8 x H100 in 8 data-parallel ranks".
QString layoutText(const MemoryPlan &p)
{
    if (p.pipelineParallelSize > 1)
        return QCoreApplication::translate("kvscope::Fit", "%1 x %2 in %3 pipeline stages")
            .arg(p.gpuCount())
            .arg(p.gpuName)
            .arg(p.pipelineParallelSize);
    if (p.dataParallelSize > 1)
        return QCoreApplication::translate("kvscope::Fit", "%1 x %2 in %3 data-parallel ranks")
            .arg(p.gpuCount())
            .arg(p.gpuName)
            .arg(p.dataParallelSize);
    return QStringLiteral("%1 x %2").arg(p.gpuCount()).arg(p.gpuName);
}

/// "; the most, … hold N" or, where none holds a request, "; the closest, … is X short".
QString closestText(const FitRow &closest)
{
    const MemoryPlan &p = closest.plan;
    if (closest.maxConcurrency > 0)
        return QCoreApplication::translate("kvscope::Fit",
                                           "; the most, %1 with %2 weights and a %3 KV cache, hold %4")
            .arg(layoutText(p), quantMethodName(p.quantization.method), dtypeName(p.kvCacheDtype),
                 formatCount(closest.maxConcurrency));
    if (p.kv.availableBytes < 0)
        return QCoreApplication::translate("kvscope::Fit", "; the closest, %1 with %2 weights and a %3 "
                                                           "KV cache, lacks %4 per GPU before its KV cache")
            .arg(layoutText(p), quantMethodName(p.quantization.method), dtypeName(p.kvCacheDtype),
                 formatBytes(-p.kv.availableBytes));
    return QCoreApplication::translate(
               "kvscope::Fit",
               "; the closest, %1 with %2 weights and a %3 KV cache, has %4 per GPU for its KV cache, "
               "not one request")
        .arg(layoutText(p), quantMethodName(p.quantization.method), dtypeName(p.kvCacheDtype),
             formatBytes(p.kv.availableBytes));
}

/// The planner's refusal of `probe`. A --max-num-seqs the search raised to the
/// concurrency is named as the option the user gave: --concurrency.
QString refusalOf(const FitQuery &q, const Scenario &probe, const Error &error)
{
    const QString raised = optionFlag(ScenarioField::MaxNumSeqs) + QStringLiteral(": ");
    if (q.base.maxNumSeqs <= 0 && probe.maxNumSeqs == q.concurrency && error.message().startsWith(raised))
        return commandFlag(CommandOption::Concurrency) + QStringLiteral(": ") +
               error.message().mid(raised.size());
    return error.message();
}

void validateQuery(const FitQuery &q)
{
    if (q.concurrency <= 0)
        throw Error(QStringLiteral("%1: must be a positive integer, got %2")
                        .arg(commandFlag(CommandOption::Concurrency))
                        .arg(q.concurrency));
    if (q.maxModelLen < 0)
        throw Error(QStringLiteral("%1: must be a positive integer, got %2")
                        .arg(optionFlag(ScenarioField::MaxModelLen))
                        .arg(q.maxModelLen));
    if (q.maxModelLen > q.base.model.maxPositionEmbeddings)
        throw Error(QStringLiteral("%1: %2 exceeds %3's max_position_embeddings %4")
                        .arg(optionFlag(ScenarioField::MaxModelLen))
                        .arg(q.maxModelLen)
                        .arg(q.base.model.name)
                        .arg(q.base.model.maxPositionEmbeddings));
    if (q.maxGpus <= 0)
        throw Error(QStringLiteral("%1: must be a positive integer, got %2")
                        .arg(commandFlag(CommandOption::MaxGpus))
                        .arg(q.maxGpus));
    if (q.maxGpus > MaxFitGpus)
        throw Error(QStringLiteral("%1: %2 is more than %3, the most GPUs a search tries")
                        .arg(commandFlag(CommandOption::MaxGpus))
                        .arg(q.maxGpus)
                        .arg(MaxFitGpus));
    if (q.gpus.isEmpty())
        throw Error(QStringLiteral("%1: no GPU to search").arg(optionFlag(ScenarioField::Gpu)));
}

} // namespace

QString fitRankingName(FitRanking ranking)
{
    return enumName(fitRankingNames, ranking);
}

QStringList fitRankingChoices()
{
    return enumChoices(fitRankingNames);
}

FitRanking parseFitRanking(const QString &text)
{
    if (const std::optional<FitRanking> ranking = enumValue(fitRankingNames, text.trimmed().toLower()))
        return *ranking;
    throw Error(
        QStringLiteral("%1: '%2' is not one of %3")
            .arg(commandFlag(CommandOption::RankBy), text, fitRankingChoices().join(QStringLiteral(", "))));
}

bool servesConcurrency(const MemoryPlan &plan, std::int64_t concurrency)
{
    if (concurrency <= 0)
        return false;
    // Each data-parallel rank admits and holds its share.
    const std::int64_t perRank = dataParallelShare(concurrency, plan.dataParallelSize);
    if (!plan.engineStarts || plan.maxNumSeqs < perRank)
        return false;
    try {
        return plan.kv.numGpuBlocks >= (Checked(perRank) * plan.kv.blocksPerMaxRequest).value();
    } catch (const Error &) {
        return false; // beyond 2^63 blocks cannot be held
    }
}

/// The layouts of at most `maxGpus` GPUs the model splits into: tensor-parallel groups in
/// pipeline stages and, for a MoE, data-parallel ranks — under vLLM with the experts divided among
/// every GPU, under SGLang as attention groups of the tensor-parallel GPUs (each rank its own cache:
/// for MLA, whose latent every tensor-parallel GPU repeats, the way to hold more requests). Fewest
/// GPUs first; for as many GPUs, tensor parallelism alone first (it shortens every step, and speed
/// is modelled for it), then ranks, then stages.
QList<ParallelLayout> parallelLayouts(const FitQuery &q)
{
    const ModelArch &m = q.base.model;
    const int most = int(std::min<std::int64_t>(q.maxGpus, 1024));
    const QList<int> sizes = validTensorParallelSizes(m, most);
    QList<ParallelLayout> layouts;
    for (int stages : validPipelineParallelSizes(m, q.base.engine, most))
        for (int tp : sizes)
            if (qint64(tp) * stages <= q.maxGpus)
                layouts.append({tp, stages, 1, false});
    if (m.moe.enabled() && q.base.engine == Engine::Vllm)
        for (int tp : sizes)
            for (int dp : validDataParallelSizes(m, tp, true, q.base.engine, most / tp))
                if (dp > 1)
                    layouts.append({tp, 1, dp, true});
    if (m.moe.enabled() && q.base.engine == Engine::Sglang)
        for (int tp : sizes)
            for (int dp : validDataParallelSizes(m, tp, false, q.base.engine, tp, true))
                if (dp > 1)
                    layouts.append({tp, 1, dp, false, true});
    std::stable_sort(layouts.begin(), layouts.end(), [](const ParallelLayout &a, const ParallelLayout &b) {
        return std::make_tuple(a.gpus(), a.pipelineParallelSize, a.dataParallelSize) <
               std::make_tuple(b.gpus(), b.pipelineParallelSize, b.dataParallelSize);
    });
    return layouts;
}

FitResult findFits(const FitQuery &query, const std::atomic<bool> *cancel)
{
    validateQuery(query);
    const FitQuery q = withoutRepeats(query);
    const bool longest = q.maxModelLen == 0;
    const std::int64_t upper = q.base.model.maxPositionEmbeddings;
    const QList<ParallelLayout> layouts = parallelLayouts(q);
    FitResult result;
    // The configuration that holds the most requests, for the reason when nothing fits.
    std::optional<FitRow> closest;
    for (const GpuSpec &gpu : q.gpus)
        for (const std::optional<QuantizationSpec> &quantization : quantizationsOf(q))
            for (const KvCacheDtype kv : kvCacheDtypesOf(q))
                for (const ParallelLayout &layout : layouts) {
                    if (cancel && cancel->load(std::memory_order_relaxed)) {
                        result.cancelled = true;
                        return result;
                    }
                    const Configuration c{gpu, layout, quantization, kv};
                    const std::int64_t len = longest ? longestServed(q, c, upper) : q.maxModelLen;
                    const Scenario scenario = scenarioOf(q, c, std::max<std::int64_t>(len, 1));
                    const std::optional<MemoryPlan> plan = tryPlanMemory(scenario);
                    if (!plan)
                        continue;
                    FitRow row;
                    row.scenario = scenario;
                    row.plan = *plan;
                    row.maxConcurrency = wholeRequests(*plan);
                    row.totalMemoryBytes = (Checked(gpu.memoryBytes) * plan->gpuCount()).value();
                    if (len > 0 && servesConcurrency(*plan, q.concurrency)) {
                        row.command = launchLine(row.scenario).command();
                        result.fits << row;
                        break; // a larger layout of the same GPU and precisions takes more GPUs for nothing
                    }
                    if (!closest || closerThan(row, *closest))
                        closest = row;
                }
    std::sort(result.fits.begin(), result.fits.end(),
              [&](const FitRow &a, const FitRow &b) { return better(a, b, longest, query.ranking); });
    if (result.fits.isEmpty()) {
        // Worded in the window's language where a translator is installed (the "What do I need?" dialog).
        const QString what =
            longest
                ? QCoreApplication::translate("kvscope::Fit", "%1 requests").arg(formatCount(q.concurrency))
                : QCoreApplication::translate("kvscope::Fit", "%1 requests of %2 tokens")
                      .arg(formatCount(q.concurrency), formatCount(q.maxModelLen));
        result.reason =
            QCoreApplication::translate("kvscope::Fit", "no configuration of up to %1 GPU(s) serves %2 of %3")
                .arg(q.maxGpus)
                .arg(what, q.base.model.name);
        if (!closest && !layouts.isEmpty()) {
            // No configuration planned at all: the engine refuses the model itself; say why.
            const Scenario probe = scenarioOf(
                q, Configuration{q.gpus.first(), layouts.first(), std::nullopt, KvCacheDtype::Auto}, 1);
            try {
                planMemory(probe);
            } catch (const Error &error) {
                result.reason += QStringLiteral(": ") + refusalOf(q, probe, error);
            }
        }
        if (closest)
            result.reason += closestText(*closest);
    }
    return result;
}

QList<GpuSpec> servingGpus(const QList<GpuSpec> &presets)
{
    QList<GpuSpec> out;
    for (const GpuSpec &gpu : presets)
        if (gpu.vendor == QLatin1String("NVIDIA") || gpu.vendor == QLatin1String("AMD"))
            out << gpu;
    return out;
}

QJsonObject fitToJson(const FitQuery &query, const FitResult &result)
{
    QJsonArray fits;
    for (const FitRow &row : result.fits) {
        const MemoryPlan &p = row.plan;
        QJsonObject o;
        o.insert(QStringLiteral("gpu"), p.gpuId);
        o.insert(QStringLiteral("tensor_parallel_size"), p.tensorParallelSize);
        o.insert(QStringLiteral("pipeline_parallel_size"), p.pipelineParallelSize);
        o.insert(QStringLiteral("data_parallel_size"), p.dataParallelSize);
        o.insert(QStringLiteral("expert_parallel_size"), p.expertParallelSize);
        o.insert(QStringLiteral("quantization"), quantMethodName(p.quantization.method));
        o.insert(QStringLiteral("kv_cache_dtype"), dtypeName(p.kvCacheDtype));
        o.insert(QStringLiteral("max_model_len"), qint64(p.maxModelLen));
        o.insert(QStringLiteral("max_concurrency"), qint64(row.maxConcurrency));
        o.insert(QStringLiteral("kv_capacity_tokens"),
                 qint64(p.deploymentCapacityTokens)); // every data-parallel rank's
        o.insert(QStringLiteral("headroom_bytes"), qint64(p.headroomBytes));
        o.insert(QStringLiteral("total_gpu_memory_bytes"), qint64(row.totalMemoryBytes));
        o.insert(QStringLiteral("decode_tokens_per_second"),
                 p.speed.available ? QJsonValue(std::round(emittedTokensPerSecond(p.speed) * 10) / 10)
                                   : QJsonValue(QJsonValue::Null));
        o.insert(QStringLiteral("command"), row.command);
        fits.append(o);
    }
    QJsonObject o;
    o.insert(QStringLiteral("model"), query.base.model.id);
    o.insert(QStringLiteral("engine"), engineName(query.base.engine));
    o.insert(QStringLiteral("engine_version"),
             query.base.engine == Engine::Vllm
                 ? QJsonValue(resolveVllmVersion(query.base.vllmVersion).profile->since.text())
                 : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("concurrency"), qint64(query.concurrency));
    o.insert(QStringLiteral("max_model_len"),
             query.maxModelLen > 0 ? QJsonValue(qint64(query.maxModelLen)) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("rank_by"), fitRankingName(query.ranking));
    o.insert(QStringLiteral("fits"), fits);
    o.insert(QStringLiteral("reason"),
             result.reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(result.reason));
    return o;
}

} // namespace kvscope
