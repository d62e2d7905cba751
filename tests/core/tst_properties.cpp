// SPDX-License-Identifier: MIT
// Properties of the planning core over random and extreme scenarios: every
// preset, every precision, valid tensor-parallel sizes, batches up to 10^6,
// sequences up to 10^9, every GPU preset and custom GPUs from 1 GiB to 1 PiB.
// Whatever the input, the core answers with a plan whose figures are sane, or
// refuses with a kvscope::Error that says why — never NaN, a negative byte
// count or a silent overflow. Drawn `kvscope fit` questions are answered only
// with configurations that serve them. The draws are seeded: KVSCOPE_PROPERTY_SEED=N
// reproduces a run (the seed is printed), KVSCOPE_PROPERTY_CASES=N sets how many.
#include "core/analysis/fit.h"
#include "core/analysis/fixes.h"
#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/gpu/customgpu.h"
#include "core/library/library.h"
#include "core/output/calcjson.h"
#include "core/plan/imageworkload.h"
#include "core/plan/lora.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speed.h"
#include "core/plan/tensorparallel.h"
#include "tests/core/fitchecks.h"

#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include <QRandomGenerator>
#include <QTest>

using namespace kvscope;

namespace {

constexpr std::int64_t GiB = std::int64_t(1) << 30;
constexpr std::int64_t PiB = std::int64_t(1) << 50;

int environmentNumber(const char *name, int fallback)
{
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok ? value : fallback;
}

/// Log-uniform in [lo, hi]: small and huge values are drawn as often.
std::int64_t logUniform(QRandomGenerator &random, std::int64_t lo, std::int64_t hi)
{
    const double a = std::log(double(lo));
    const double b = std::log(double(hi));
    const double x = std::exp(a + (b - a) * random.generateDouble());
    return std::clamp<std::int64_t>(std::llround(x), lo, hi);
}

template <typename T> const T &pick(QRandomGenerator &random, const QList<T> &list)
{
    return list.at(qsizetype(random.bounded(quint32(list.size()))));
}

/// A scenario drawn from the whole input space the command line accepts.
Scenario drawScenario(QRandomGenerator &random)
{
    static const QList<ModelArch> models = ModelLibrary::builtin().presets();
    static const QList<GpuSpec> gpus = GpuLibrary::builtin().presets();
    Scenario s;
    s.model = pick(random, models);
    if (random.bounded(4) == 0)
        s.gpu = customGpu(QStringLiteral("drawn"), logUniform(random, GiB, PiB), 1000, 100);
    else
        s.gpu = pick(random, gpus);
    s.dtype = pick(random, QList<WeightDtype>{WeightDtype::Auto, WeightDtype::Float32, WeightDtype::Float16,
                                              WeightDtype::BFloat16});
    const QList<KvCacheDtype> kvDtypes =
        s.model.format == ModelFormat::Gguf
            ? QList<KvCacheDtype>{KvCacheDtype::Auto, KvCacheDtype::Float16, KvCacheDtype::Q8_0,
                                  KvCacheDtype::Q4_0}
            : QList<KvCacheDtype>{KvCacheDtype::Auto,  KvCacheDtype::Float16,     KvCacheDtype::BFloat16,
                                  KvCacheDtype::Fp8,   KvCacheDtype::Fp8E4M3,     KvCacheDtype::Fp8E5M2,
                                  KvCacheDtype::Nvfp4, KvCacheDtype::Fp4MxBlock16};
    s.kvCacheDtype = pick(random, kvDtypes);
    if (s.model.format != ModelFormat::Gguf && random.bounded(2) == 0)
        s.quantization = defaultSpecFor(
            pick(random,
                 QList<QuantMethod>{QuantMethod::None, QuantMethod::Fp8, QuantMethod::Int8, QuantMethod::Awq,
                                    QuantMethod::Gptq, QuantMethod::BitsAndBytesNf4, QuantMethod::Mxfp4}));
    s.tensorParallelSize = pick(random, validTensorParallelSizes(s.model, 64));
    // The release's default (0) now and then, else a share of 0.1 to 1.
    s.gpuMemoryUtilizationPpm = random.bounded(3) == 0 ? 0 : 100'000 + random.bounded(900'001);
    s.batchSize = logUniform(random, 1, 1'000'000);
    s.seqLen = logUniform(random, 1, 1'000'000'000);
    if (random.bounded(3) == 0)
        s.maxModelLen = logUniform(random, 1, 1'000'000'000);
    if (random.bounded(4) == 0)
        s.pipelineParallelSize = 1 + random.bounded(8); // refused where vLLM cannot split the model
    // The serving features, each now and then (refused where they do not apply: LoRA on MoE, SGLang).
    if (random.bounded(6) == 0) {
        s.maxLoras = 1 + random.bounded(8);
        s.maxLoraRank = pick(random, loraRanks());
        // vLLM's LoRA dtype (float32 refused) and host-memory adapters (refused below --max-loras).
        if (random.bounded(3) == 0)
            s.loraDtype = pick(random, QList<WeightDtype>{WeightDtype::Float16, WeightDtype::BFloat16,
                                                          WeightDtype::Float32});
        if (random.bounded(3) == 0)
            s.maxCpuLoras = random.bounded(16);
        s.fullyShardedLoras = random.bounded(4) == 0; // refused where the rank does not divide over TP
        if (random.bounded(4) == 0) // a few projections, now and then a name kvscope refuses
            s.loraTargetModules = {
                pick(random, QStringList{QStringLiteral("q_proj"), QStringLiteral("o_proj"),
                                         QStringLiteral("down_proj"), QStringLiteral("experts"),
                                         QStringLiteral("gate"), QStringLiteral("in_proj"),
                                         QStringLiteral("lm_head")})};
    }
    if (random.bounded(6) == 0)
        s.kvOffloadingMilliGiB = logUniform(random, 1, MaxOffloadingMilliGiB);
    if (random.bounded(8) == 0)
        s.kvCacheMemoryBytes = logUniform(random, 1, PiB);
    if (random.bounded(6) == 0 && s.seqLen > 1)
        s.sharedPrefixLen = logUniform(random, 1, s.seqLen - 1);
    // A drafter now and then: one the model takes, with 1 to 8 drafts and now and then a given rate.
    if (random.bounded(6) == 0) {
        const QList<SpeculativeConfig> drafters = speculativeChoices(s, 1 + random.bounded(8));
        if (!drafters.isEmpty())
            s.speculative = pick(random, drafters);
        if (random.bounded(2) == 0)
            s.draftAcceptancePpm = 1 + random.bounded(1'000'000);
    }
    // Data-parallel ranks and expert parallelism now and then (refused with a pipeline, under
    // SGLang, or with more GPUs than experts).
    if (random.bounded(5) == 0)
        s.dataParallelSize = 1 + random.bounded(8);
    if (random.bounded(4) == 0)
        s.enableExpertParallel = true;
    // An all-to-all backend now and then (DeepEP's high-throughput kernels sized, others refused).
    if (random.bounded(8) == 0)
        s.all2allBackend =
            pick(random, QList<All2AllBackend>{All2AllBackend::Naive, All2AllBackend::DeepepHighThroughput,
                                               All2AllBackend::DeepepLowLatency});
    // vLLM's load balancer now and then, with redundant experts and a window of any size it takes
    // (refused without EP, off vLLM, or where the experts do not divide over the GPUs).
    if (random.bounded(6) == 0) {
        s.enableEplb = true;
        s.eplb.numRedundantExperts =
            random.bounded(2) == 0 ? 0 : random.bounded(int(MaxRedundantExperts) + 1);
        if (random.bounded(4) == 0)
            s.eplb.windowSize = logUniform(random, 1, MaxEplbWindowSize);
    }
    // Images of any size on vision models, now and then on others (refused there), past the most
    // kvscope plans now and then.
    if (random.bounded(s.model.vision.enabled() ? 2 : 40) == 0) {
        s.imagesPerRequest = logUniform(random, 1, random.bounded(8) == 0 ? MaxImagesPerRequest + 1 : 64);
        s.imageWidth = logUniform(random, 1, MaxInputImageSide);
        s.imageHeight = logUniform(random, 1, MaxInputImageSide);
    }
    // SGLang now and then, with its own knobs: a static share, expert parallelism, data-parallel
    // attention and its LM head and dense MLP layouts, the window pool's share (refused where kvscope does
    // not plan its pools, or where SGLang refuses them).
    if (random.bounded(5) == 0) {
        s.engine = Engine::Sglang;
        if (random.bounded(2) == 0)
            s.memFractionStaticPpm = 100'000 + random.bounded(900'001);
        if (random.bounded(4) == 0)
            s.expertParallelSize = pick(random, QList<std::int64_t>{1, 2, 4, 8});
        if (random.bounded(4) == 0)
            s.enableDpAttention = true;
        if (random.bounded(4) == 0)
            s.enableDpLmHead = true;
        if (random.bounded(4) == 0)
            s.moeDenseTpSize = pick(random, QList<std::int64_t>{1, 1, 1, 2});
        if (random.bounded(4) == 0)
            s.swaFullTokensRatioPpm = 1 + random.bounded(1'000'000);
    }
    return s;
}

/// A `kvscope fit` question drawn as widely: any preset model and engine, 1 to 10^4
/// requests of 1 to 10^7 tokens or the longest length, one to three candidate GPUs
/// (presets, or custom from 1 GiB to 1 PiB), and --max-gpus 1, 2, 4 or 8.
FitQuery drawFitQuery(QRandomGenerator &random)
{
    static const QList<ModelArch> models = ModelLibrary::builtin().presets();
    static const QList<GpuSpec> gpus = servingGpus(GpuLibrary::builtin().presets());
    FitQuery q;
    q.base.model = pick(random, models);
    q.base.engine = random.bounded(4) == 0 ? Engine::Sglang : Engine::Vllm;
    q.concurrency = logUniform(random, 1, 10'000);
    q.maxModelLen = random.bounded(3) == 0 ? 0 : logUniform(random, 1, 10'000'000);
    for (int i = 0, n = 1 + int(random.bounded(3)); i < n; ++i)
        q.gpus
            << (random.bounded(4) == 0 // as --gpu custom:GIB names one, so the rows replan from their options
                    ? resolveGpu(QStringLiteral("custom:%1:1000:100").arg(logUniform(random, 1, PiB / GiB)))
                    : pick(random, gpus));
    q.maxGpus = pick(random, QList<int>{1, 2, 4, 8});
    return q;
}

/// Plans, or returns nothing when the core refuses with a message; any other
/// way out (another exception type, an empty message) fails the test.
std::optional<MemoryPlan> planOrRefusal(const Scenario &s)
{
    try {
        return planMemory(s);
    } catch (const Error &error) {
        if (error.message().trimmed().isEmpty())
            qFatal("planMemory refused %s on %s with an empty message", qPrintable(s.model.id),
                   qPrintable(s.gpu.id));
        return std::nullopt;
    }
}

/// Every stage of the plan (one for a plan without pipeline parallelism).
QList<PipelineStagePlan> stagesOf(const MemoryPlan &plan)
{
    return plan.pipelineStages.isEmpty() ? QList<PipelineStagePlan>{firstPipelineStage(plan)}
                                         : plan.pipelineStages;
}

/// What a longer sequence may hold less of. A windowed layer keeps the blocks that its last
/// `window` tokens touch: 128 or 129 blocks of 16 for a 2,047-token window, by where the sequence
/// ends in its block (vLLM's SlidingWindowManager frees blocks wholly outside the window). A longer
/// sequence may so hold one block less per windowed layer, and per padding layer of a windowed
/// group (Gemma 3's 52 sliding layers fill 6 groups of 10). A chunked-local layer (Llama 4) keeps
/// only the current chunk, which restarts every attention_chunk_size tokens: it may hold a whole
/// chunk less. Nothing else may shrink.
std::int64_t windowAllowance(const Scenario &s, const MemoryPlan &p)
{
    const std::int64_t chunkBlocks =
        p.kv.attentionChunkSize > 0 ? (p.kv.attentionChunkSize + p.blockSize - 1) / p.blockSize : 0;
    const std::int64_t windowed = p.kv.slidingLayers + p.kv.chunkedLayers * chunkBlocks;
    return windowed > 0 ? s.batchSize * (windowed + p.kv.paddingLayers) * p.kv.pageBytes : 0;
}

QString describe(const Scenario &s)
{
    return QStringLiteral(
               "%15: %1 on %2 x%3 (pp %10, dp %11%12), dtype %4, quantization %5, kv %6, batch %7, seq %8, "
               "max-model-len %9, images %13 of %14")
        .arg(s.model.id, s.gpu.id)
        .arg(s.tensorParallelSize)
        .arg(dtypeName(s.dtype), quantizationChoiceName(s.quantization), dtypeName(s.kvCacheDtype))
        .arg(s.batchSize)
        .arg(s.seqLen)
        .arg(s.maxModelLen)
        .arg(s.pipelineParallelSize)
        .arg(s.dataParallelSize)
        .arg(s.enableExpertParallel
                 ? QStringLiteral(", ep") +
                       QString(s.enableEplb ? QStringLiteral(" eplb+%1").arg(s.eplb.numRedundantExperts)
                                            : QString())
                 : QString())
        .arg(s.imagesPerRequest)
        .arg(formatImageSize(s.imageWidth, s.imageHeight))
        .arg(engineName(s.engine));
}

/// Every byte count of a plan that cannot be negative, by name.
QList<std::pair<const char *, std::int64_t>> unsignedFigures(const MemoryPlan &p)
{
    return {{"weights.bytesPerGpu", p.weights.bytesPerGpu},
            {"weights.checkpointBytes", p.weights.checkpointBytes},
            {"weights.eplbBytes", p.weights.eplbBytes},
            {"all2allBufferBytes", p.all2allBufferBytes},
            {"kv.bytesPerToken", p.kv.bytesPerToken},
            {"kv.cacheBytes", p.kv.cacheBytes},
            {"kv.stateBytesPerSequence", p.kv.stateBytesPerSequence},
            {"kv.numGpuBlocks", p.kv.numGpuBlocks},
            {"kv.capacityTokens", p.kv.capacityTokens},
            {"deploymentCapacityTokens", p.deploymentCapacityTokens},
            {"kv.shortfallBytes", p.kv.shortfallBytes},
            {"gpuMemoryBytes", p.gpuMemoryBytes},
            {"budgetBytes", p.budgetBytes},
            {"activationBytes", p.activationBytes},
            {"overheadBytes", p.overheadBytes},
            {"weightsOverBudgetBytes", p.weightsOverBudgetBytes},
            {"largestBatchThatFits", p.largestBatchThatFits}};
}

} // namespace

class TestProperties : public QObject
{
    Q_OBJECT

    quint32 m_seed = 0;
    int m_cases = 0;

    /// Runs `check` on `m_cases` drawn scenarios that the core plans; counts them.
    int forEachPlanned(const std::function<void(const Scenario &, const MemoryPlan &)> &check, int every = 1)
    {
        QRandomGenerator random(m_seed);
        int planned = 0;
        for (int i = 0; i < m_cases; i += every) {
            const Scenario s = drawScenario(random);
            if (const std::optional<MemoryPlan> plan = planOrRefusal(s)) {
                check(s, *plan);
                if (QTest::currentTestFailed()) {
                    qWarning("case %d of seed %u: %s", i, m_seed, qPrintable(describe(s)));
                    return planned;
                }
                ++planned;
            }
        }
        return planned;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_seed = quint32(environmentNumber("KVSCOPE_PROPERTY_SEED", 20261130));
        m_cases = environmentNumber("KVSCOPE_PROPERTY_CASES", 1500);
        qInfo("seed %u, %d cases (KVSCOPE_PROPERTY_SEED, KVSCOPE_PROPERTY_CASES)", m_seed, m_cases);
    }

    void figuresAreSane()
    {
        const int planned = forEachPlanned([](const Scenario &s, const MemoryPlan &p) {
            for (const auto &[name, value] : unsignedFigures(p))
                QVERIFY2(value >= 0, name);
            for (const double value : {p.weights.bitsPerWeight, p.kv.maxConcurrency, p.kv.bitsPerElement})
                QVERIFY(std::isfinite(value) && value >= 0);
            QVERIFY(p.largestSeqLenThatFits >= -1); // -1: no limit, every layer slides
            // Every data-parallel rank holds at least the planned rank's cache (it holds the most experts).
            QVERIFY(p.deploymentCapacityTokens >=
                    (Checked(p.kv.capacityTokens) * p.dataParallelSize).value());
            QVERIFY(std::isfinite(p.deploymentMaxConcurrency) && p.deploymentMaxConcurrency >= 0);
            QCOMPARE(p.fits, p.headroomBytes >= 0);
            // A sequence is its text and its images' tokens, at least one token each.
            QCOMPARE(p.seqLen, s.seqLen + p.imageTokensPerSequence);
            QVERIFY(p.imageTokensPerSequence >= p.imagesPerRequest);
            // A fixed KV pool (--kv-cache-memory-bytes) past what the GPU holds beside the weights is
            // planned as vLLM would try it: the budget runs over, and the engine does not start.
            QVERIFY(p.budgetBytes <= p.gpuMemoryBytes || (p.kvCacheMemoryBytes > 0 && !p.engineStarts));
            // The capacity is whole blocks of the effective block size (vLLM shares the blocks among
            // the layer groups: fewer blocks than groups hold no token); from vLLM 0.21 the log prints
            // int(max concurrency x max_model_len), which a short --max-model-len keeps below a block.
            if (p.kv.numGpuBlocks >= p.kv.numGroups && p.kv.numGpuBlocks > 0 && p.kv.recurrentLayers == 0 &&
                !p.kv.capacityFromConcurrency)
                QVERIFY(p.kv.capacityTokens >= p.blockSize);
        });
        // Most draws plan: a suite that only saw refusals would test nothing.
        QVERIFY2(planned > m_cases / 3, qPrintable(QString::number(planned)));
    }

    void speedIsFiniteAndPositive()
    {
        forEachPlanned([](const Scenario &s, const MemoryPlan &p) {
            const SpeedPlan speed = planSpeed(s, p);
            if (!speed.available)
                return;
            for (const double value :
                 {speed.decode.seconds, speed.decode.idealSeconds, speed.prefill.seconds})
                QVERIFY(std::isfinite(value) && value > 0);
            QVERIFY(speed.decode.idealSeconds <= speed.decode.seconds);
            // Where the time goes: no term below zero (a pipeline's wait included), and the terms are the
            // step.
            for (const ForwardCost *pass : {&speed.decode, &speed.prefill}) {
                for (const double term : pass->breakdown.seconds)
                    QVERIFY(std::isfinite(term) && term >= 0);
                QVERIFY(std::abs(pass->breakdown.total() - pass->seconds) <= 1e-9 * pass->seconds);
            }
            QVERIFY(std::isfinite(speed.decodeTokensPerSecond) && speed.decodeTokensPerSecond > 0);
            if (speed.speculative) {
                // A step yields its own token and at most every draft; it takes time; the drafter
                // never makes the step cheaper than verifying alone.
                const SpeculativeSpeed &x = *speed.speculative;
                QVERIFY(x.tokensPerStep >= 1 && x.tokensPerStep <= double(x.draftTokens + 1));
                QVERIFY(std::isfinite(x.stepSeconds) && x.stepSeconds >= x.verifyPass.seconds);
                QVERIFY(std::isfinite(x.speedup) && x.speedup > 0);
                QVERIFY(x.verifyPass.seconds >= speed.decode.seconds * (1 - 1e-12));
            }
        });
    }

    void aDrafterNeverTakesLessMemory()
    {
        forEachPlanned([](const Scenario &s, const MemoryPlan &p) {
            if (!s.speculative.enabled())
                return;
            Scenario without = s;
            without.speculative = {};
            const std::optional<MemoryPlan> q = planOrRefusal(without);
            QVERIFY(q);
            QVERIFY(p.weights.bytesPerGpu >= q->weights.bytesPerGpu);
            QVERIFY(p.kv.bytesPerToken >= q->kv.bytesPerToken);
            // Its slots make each sequence longer: a windowed layer may so hold a block less.
            QVERIFY(p.kv.cacheBytes + windowAllowance(s, p) >= q->kv.cacheBytes);
            // vLLM captures no FULL decode graph below a request's 1 + k tokens, so the graphs' estimate may
            // shrink (core/plan/cudagraphmemory.h): the capacity only compares where it did not.
            if (p.kv.blocksPerSequence >= q->kv.blocksPerSequence && p.cudaGraphBytes >= q->cudaGraphBytes)
                QVERIFY(p.largestBatchThatFits <= q->largestBatchThatFits);
        });
    }

    void moreTokensNeverLessKvMemory()
    {
        forEachPlanned([](const Scenario &s, const MemoryPlan &p) {
            for (const bool longer : {true, false}) {
                Scenario more = s;
                (longer ? more.seqLen : more.batchSize) *= 2;
                const std::optional<MemoryPlan> q = planOrRefusal(more);
                if (!q)
                    continue;
                const std::int64_t allowance = longer ? windowAllowance(s, p) : 0;
                QVERIFY2(q->kv.cacheBytes + allowance >= p.kv.cacheBytes,
                         longer ? "sequence x2" : "batch x2");
            }
        });
    }

    void fp8KvNeverMoreThanBf16()
    {
        forEachPlanned([](const Scenario &s, const MemoryPlan &) {
            if (s.model.format == ModelFormat::Gguf)
                return;
            Scenario bf16 = s;
            bf16.kvCacheDtype = KvCacheDtype::BFloat16;
            Scenario fp8 = s;
            fp8.kvCacheDtype = KvCacheDtype::Fp8;
            const std::optional<MemoryPlan> wide = planOrRefusal(bf16);
            const std::optional<MemoryPlan> narrow = planOrRefusal(fp8);
            if (!wide || !narrow)
                return;
            QVERIFY(narrow->kv.bytesPerToken <= wide->kv.bytesPerToken);
            QVERIFY(narrow->kv.cacheBytes <= wide->kv.cacheBytes);
            QVERIFY(narrow->kv.capacityTokens >= wide->kv.capacityTokens);
        });
    }

    void moreGpusNeverLessRoomPerRequest()
    {
        forEachPlanned([](const Scenario &s, const MemoryPlan &p) {
            const QList<int> sizes = validTensorParallelSizes(s.model, 64);
            const qsizetype next = sizes.indexOf(s.tensorParallelSize) + 1;
            if (next >= sizes.size())
                return;
            Scenario wider = s;
            wider.tensorParallelSize = sizes.at(next);
            if (const std::optional<MemoryPlan> q = planOrRefusal(wider)) {
                // Stage by stage under pipeline parallelism: the binding stage may change.
                const QList<PipelineStagePlan> before = stagesOf(p), after = stagesOf(*q);
                std::int64_t saved = std::numeric_limits<std::int64_t>::max();
                std::int64_t added = std::numeric_limits<std::int64_t>::min();
                for (qsizetype i = 0; i < before.size(); ++i) {
                    QVERIFY(after.at(i).weightBytes <= before.at(i).weightBytes);
                    QVERIFY(after.at(i).kvBytesPerToken <= before.at(i).kvBytesPerToken);
                    saved = std::min(saved, before.at(i).weightBytes - after.at(i).weightBytes);
                    // Tensor parallelism adds per-GPU buffers (NCCL and custom all-reduce, about
                    // 2 GiB): for a small model they outweigh the weights it saves — Gemma-3-1B
                    // holds fewer requests on two A10s than on one, as vLLM would. The room per
                    // request grows whenever the weights saved cover the buffers added.
                    added = std::max(added, (after.at(i).overheadBytes - before.at(i).overheadBytes) +
                                                (after.at(i).activationBytes - before.at(i).activationBytes));
                }
                // SGLang's default static share also keeps more for a wider group (ServerArgs reserves
                // tp_size / 8 x 1 GiB more, core/engine/sglang.h), and more is in use before the weights:
                // a budget lost counts as a buffer added.
                added += std::max<std::int64_t>(0, p.budgetBytes - q->budgetBytes);
                if (saved < added)
                    return;
                // A hybrid model's block size follows its recurrent state's size per GPU (vLLM aligns
                // the attention page to it): a request's whole blocks round differently at each size.
                if (q->blockSize != p.blockSize)
                    return;
                QVERIFY2(q->kv.maxConcurrency >= p.kv.maxConcurrency,
                         qPrintable(describe(s) + QStringLiteral(" TP %1: %2, TP %3: %4")
                                                      .arg(s.tensorParallelSize)
                                                      .arg(p.kv.maxConcurrency)
                                                      .arg(wider.tensorParallelSize)
                                                      .arg(q->kv.maxConcurrency)));
            }
        });
    }

    void largestBatchAndLengthReallyFitAndOneMoreDoesNot()
    {
        forEachPlanned([](const Scenario &s, const MemoryPlan &p) {
            if (p.largestBatchThatFits > 0) {
                Scenario at = s;
                at.batchSize = p.largestBatchThatFits;
                QVERIFY2(planMemory(at).fits, "the largest batch");
                at.batchSize += 1;
                if (const std::optional<MemoryPlan> q = planOrRefusal(at))
                    QVERIFY2(!q->fits, "the largest batch + 1");
            }
            // The longest sequence counts its images' tokens: --seq-len is the text beside them.
            if (p.largestSeqLenThatFits > p.imageTokensPerSequence) {
                Scenario at = s;
                at.seqLen = p.largestSeqLenThatFits - p.imageTokensPerSequence;
                QVERIFY2(planMemory(at).fits, "the longest sequence");
                at.seqLen += 1;
                if (const std::optional<MemoryPlan> q = planOrRefusal(at))
                    QVERIFY2(!q->fits, "the longest sequence + 1");
            }
        });
    }

    void everyFitAnswerServesItsLoad()
    {
        // A search plans dozens of configurations: one query per twenty draws.
        QRandomGenerator random(m_seed);
        int answered = 0, rows = 0;
        for (int i = 0; i < m_cases; i += 20) {
            const FitQuery q = drawFitQuery(random);
            FitResult result;
            try {
                result = findFits(q);
            } catch (const Error &error) {
                QVERIFY2(!error.message().trimmed().isEmpty(), "fit refused without a message");
                continue; // e.g. SGLang refusing a hybrid model, by name
            }
            QVERIFY2(result.fits.isEmpty() != result.reason.isEmpty(), "rows or a reason, never both");
            test::verifyFitRows(q, result);
            if (QTest::currentTestFailed()) {
                qWarning("query %d of seed %u: %s, %lld requests of %lld tokens, %s", i, m_seed,
                         qPrintable(q.base.model.id), static_cast<long long>(q.concurrency),
                         static_cast<long long>(q.maxModelLen), qPrintable(q.gpus.first().id));
                return;
            }
            ++answered;
            rows += int(result.fits.size());
        }
        qInfo("%d fit queries answered, %d configurations checked", answered, rows);
        QVERIFY(answered > 0 && rows > 0);
    }

    void everyProposedFixWorks()
    {
        // Proposals plan dozens of variants each: one draw in ten.
        forEachPlanned(
            [](const Scenario &s, const MemoryPlan &p) {
                static const QList<GpuSpec> gpus = GpuLibrary::builtin().presets();
                for (const Fix &fix : proposeFixes(s, p, gpus)) {
                    const MemoryPlan again = planMemory(fix.scenario);
                    QVERIFY2(again.fits && again.engineStarts, qPrintable(fixKindName(fix.kind)));
                }
            },
            10);
    }
};

QTEST_GUILESS_MAIN(TestProperties)
#include "tst_properties.moc"
