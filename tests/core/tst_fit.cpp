// SPDX-License-Identifier: MIT
// kvscope fit (core/plan/fit.h): every proposed configuration, planned again
// from its options, serves the requests; no smaller tensor-parallel size of the
// same GPU and precisions would; the order; and the two questions the README asks.
#include "core/analysis/fit.h"
#include "core/common/error.h"
#include "core/library/library.h"
#include "core/plan/planner.h"
#include "core/plan/tensorparallel.h"
#include "tests/core/fitchecks.h"

#include <QJsonArray>
#include <QSet>
#include <QTest>

using namespace kvscope;

namespace {

FitQuery query(const QString &model, std::int64_t concurrency, std::int64_t maxModelLen,
               const QStringList &gpus = {})
{
    FitQuery q;
    q.base.model = resolveModel(model);
    q.concurrency = concurrency;
    q.maxModelLen = maxModelLen;
    for (const QString &gpu : gpus)
        q.gpus << resolveGpu(gpu);
    if (q.gpus.isEmpty())
        q.gpus = servingGpus(GpuLibrary::builtin().presets());
    return q;
}

} // namespace

class TestFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyProposalServesAndNoSmallerTensorParallelSizeDoes()
    {
        const FitQuery q = query(QStringLiteral("llama-3.1-70b"), 16, 32768);
        const FitResult result = findFits(q);
        QVERIFY(!result.fits.isEmpty());
        QVERIFY(result.reason.isEmpty());
        test::verifyFitRows(q, result);
    }

    void rankedByGpusThenMemoryThenSpeed()
    {
        const FitResult result = findFits(query(QStringLiteral("llama-3.1-70b"), 16, 32768));
        for (qsizetype i = 1; i < result.fits.size(); ++i) {
            const FitRow &a = result.fits.at(i - 1), &b = result.fits.at(i);
            // Fewest GPUs, and for as many GPUs fewer pipeline stages.
            QVERIFY(a.plan.gpuCount() <= b.plan.gpuCount());
            if (a.plan.gpuCount() == b.plan.gpuCount())
                QVERIFY(a.plan.pipelineParallelSize <= b.plan.pipelineParallelSize);
            if (a.plan.gpuCount() == b.plan.gpuCount() &&
                a.plan.pipelineParallelSize == b.plan.pipelineParallelSize)
                QVERIFY(a.totalMemoryBytes <= b.totalMemoryBytes);
            if (a.plan.gpuCount() == b.plan.gpuCount() &&
                a.plan.pipelineParallelSize == b.plan.pipelineParallelSize &&
                a.totalMemoryBytes == b.totalMemoryBytes && a.plan.speed.available && b.plan.speed.available)
                QVERIFY(a.plan.speed.decodeTokensPerSecond >= b.plan.speed.decodeTokensPerSecond);
        }
        // One row per GPU and pair of precisions.
        QSet<QString> seen;
        for (const FitRow &row : result.fits) {
            const QString key = row.plan.gpuId + QLatin1Char('/') +
                                quantMethodName(row.plan.quantization.method) + QLatin1Char('/') +
                                dtypeName(row.plan.kvCacheDtype);
            QVERIFY2(!seen.contains(key), qPrintable(key));
            seen.insert(key);
        }
    }

    void rankedBySpeedPutsTheFastestDecodeFirst()
    {
        // Llama-3.1-8B for 16 users of 8,192 tokens on four GPUs: each serves on one.
        // By memory the A100 (80 GB bought) leads; by speed the B200, whose
        // 8 TB/s read the weights and KV cache fastest (gpus.json).
        FitQuery q = query(QStringLiteral("llama-3.1-8b"), 16, 8192,
                           {QStringLiteral("h100-sxm"), QStringLiteral("h200"), QStringLiteral("b200"),
                            QStringLiteral("a100-80gb")});
        const FitResult byMemory = findFits(q);
        QCOMPARE(byMemory.fits.first().plan.gpuId, QStringLiteral("a100-80gb"));
        q.ranking = FitRanking::Speed;
        const FitResult bySpeed = findFits(q);
        QCOMPARE(bySpeed.fits.size(), byMemory.fits.size());
        QCOMPARE(bySpeed.fits.first().plan.gpuId, QStringLiteral("b200"));
        for (qsizetype i = 1; i < bySpeed.fits.size(); ++i)
            QVERIFY(bySpeed.fits.at(i - 1).plan.speed.decodeTokensPerSecond >=
                    bySpeed.fits.at(i).plan.speed.decodeTokensPerSecond);
        // The speed is the step model's at the query: 16 sequences of 8,192 tokens.
        const FitRow &first = bySpeed.fits.first();
        QCOMPARE(first.plan.batchSize, 16);
        QCOMPARE(first.plan.seqLen, 8192);
        QCOMPARE(first.plan.speed.decodeTokensPerSecond,
                 planMemory(first.scenario).speed.decodeTokensPerSecond);
        QCOMPARE(fitToJson(q, bySpeed).value(QLatin1String("rank_by")).toString(), QStringLiteral("speed"));

        QCOMPARE(parseFitRanking(QStringLiteral(" Speed ")), FitRanking::Speed);
        try {
            parseFitRanking(QStringLiteral("fast"));
            QFAIL("no error");
        } catch (const Error &error) {
            QCOMPARE(error.message(), QStringLiteral("--rank-by: 'fast' is not one of memory, speed"));
        }
    }

    void longestContextFor32UsersOnOneH100()
    {
        // README: "the longest context I can serve 32 users with on one H100 for Llama-3.1-8B in FP8 KV".
        FitQuery q = query(QStringLiteral("llama-3.1-8b"), 32, 0, {QStringLiteral("h100-sxm")});
        q.maxGpus = 1;
        q.kvCacheDtypes = {KvCacheDtype::Fp8};
        const FitResult result = findFits(q);
        QCOMPARE(result.fits.size(), 2); // the checkpoint's BF16 weights and FP8 weights
        for (const FitRow &row : result.fits) {
            // A request of L tokens holds cdiv(L, 16) blocks, so the longest L for 32 of them is
            // 16 x floor(blocks / 32), at most the model's 131,072.
            const std::int64_t longest = std::min<std::int64_t>(16 * (row.plan.kv.numGpuBlocks / 32), 131072);
            QCOMPARE(row.plan.maxModelLen, longest);
            QCOMPARE(row.plan.tensorParallelSize, 1);
            QCOMPARE(row.scenario.kvCacheDtype, KvCacheDtype::Fp8);
            Scenario longer = row.scenario;
            longer.maxModelLen = longer.seqLen = longest + 1;
            if (longest < 131072)
                QVERIFY(!servesConcurrency(planMemory(longer), 32));
        }
        for (const FitRow &row : result.fits)
            qInfo("%s: %lld tokens x 32, %lld KV tokens", qPrintable(row.command),
                  qint64(row.plan.maxModelLen), qint64(row.plan.kv.capacityTokens));
        // FP8 weights leave more room: the longest context first.
        QCOMPARE(result.fits.first().plan.quantization.method, QuantMethod::Fp8);
        QVERIFY(result.fits.first().plan.maxModelLen > result.fits.last().plan.maxModelLen);
        test::verifyFitRows(q, result);
    }

    void fewestH100sFor64UsersOf32kTokensOfQwen3Next()
    {
        // README: "the fewest H100s for 64 users x 32k tokens of Qwen3-Next-80B-A3B".
        const FitQuery q =
            query(QStringLiteral("qwen3-next-80b-a3b"), 64, 32768, {QStringLiteral("h100-sxm")});
        const FitResult result = findFits(q);
        QVERIFY(!result.fits.isEmpty());
        const FitRow &best = result.fits.first();
        for (const FitRow &row : result.fits)
            QVERIFY(row.plan.gpuCount() >= best.plan.gpuCount());
        test::verifyFitRows(q, result);
        // No precision at all serves on fewer GPUs.
        for (const int tp : validTensorParallelSizes(q.base.model, best.plan.tensorParallelSize - 1))
            for (const bool fp8Weights : {false, true})
                for (const KvCacheDtype kv : {KvCacheDtype::Auto, KvCacheDtype::Fp8}) {
                    Scenario s = best.scenario;
                    s.tensorParallelSize = tp;
                    s.quantization =
                        fp8Weights ? std::optional(defaultSpecFor(QuantMethod::Fp8)) : std::nullopt;
                    s.kvCacheDtype = kv;
                    QVERIFY(!servesConcurrency(planMemory(s), 64));
                }
        qInfo("%s: %lld requests of 32,768, %lld KV tokens", qPrintable(best.command),
              qint64(best.maxConcurrency), qint64(best.plan.kv.capacityTokens));
        QCOMPARE(best.plan.tensorParallelSize, 2);
    }

    void sglangRowsLaunchSglang()
    {
        FitQuery q = query(QStringLiteral("llama-3.1-8b"), 8, 8192, {QStringLiteral("h100-sxm")});
        q.base.engine = Engine::Sglang;
        const FitResult result = findFits(q);
        QVERIFY(!result.fits.isEmpty());
        for (const FitRow &row : result.fits)
            QVERIFY(row.command.startsWith(QLatin1String("python -m sglang.launch_server --model-path ")));
        test::verifyFitRows(q, result);
    }

    void neverProposesWhatTheEngineRefusesOnTheGpu()
    {
        // A V100 (compute capability 7.0): vLLM's Fp8Config needs 8.0 and no attention backend
        // takes an FP8 KV cache below 7.5 (core/engine/gpusupport.cpp has the sources); the
        // 16-bit checkpoint runs in float16. A T4 (7.5) takes an FP8 KV cache, not FP8 weights.
        for (const QString &gpu : {QStringLiteral("v100-32gb"), QStringLiteral("t4")}) {
            const FitQuery q = query(QStringLiteral("llama-3.1-8b"), 4, 0, {gpu});
            const FitResult result = findFits(q);
            QVERIFY2(!result.fits.isEmpty(), qPrintable(result.reason));
            bool fp8Kv = false;
            for (const FitRow &row : result.fits) {
                QVERIFY2(row.plan.quantization.method != QuantMethod::Fp8, qPrintable(row.command));
                QVERIFY2(row.plan.engineRefusal.isEmpty(), qPrintable(row.plan.engineRefusal));
                fp8Kv = fp8Kv || isFp8(row.plan.kvCacheDtype);
                if (gpu == QLatin1String("v100-32gb")) {
                    QVERIFY2(!isFp8(row.plan.kvCacheDtype), qPrintable(row.command));
                    QCOMPARE(row.plan.dtype, WeightDtype::Float16);
                }
            }
            QCOMPARE(fp8Kv, gpu == QLatin1String("t4"));
            test::verifyFitRows(q, result);
        }
    }

    void nothingFitsGivesAnEmptyListAndAReason()
    {
        FitQuery q = query(QStringLiteral("deepseek-v3"), 4, 8192, {QStringLiteral("rtx-4090")});
        q.maxGpus = 2;
        const FitResult result = findFits(q);
        QVERIFY(result.fits.isEmpty());
        QVERIFY2(result.reason.contains(q.base.model.name) && result.reason.contains(QLatin1String("2 GPU")),
                 qPrintable(result.reason));
        const QJsonObject json = fitToJson(q, result);
        QVERIFY(json.value(QLatin1String("fits")).toArray().isEmpty());
        QCOMPARE(json.value(QLatin1String("reason")).toString(), result.reason);
    }

    void aModelTheEngineRefusesSaysWhy()
    {
        // SGLang's LoRA pool for Mixtral's experts is not modelled (kvscope sizes Qwen3-MoE's): every
        // configuration is refused, and the reason says so.
        FitQuery q = query(QStringLiteral("mixtral-8x7b"), 4, 8192, {QStringLiteral("h100-sxm")});
        q.base.engine = Engine::Sglang;
        q.base.maxLoras = 4;
        const FitResult result = findFits(q);
        QVERIFY(result.fits.isEmpty());
        QVERIFY2(result.reason.contains(QLatin1String("SGLang's LoRA pool")), qPrintable(result.reason));
    }

    void aSetCancelFlagStopsTheSearch()
    {
        const FitQuery q = query(QStringLiteral("llama-3.1-8b"), 4, 4096, {QStringLiteral("l40s")});
        std::atomic<bool> cancel = false;
        const FitResult running = findFits(q, &cancel);
        QVERIFY(!running.cancelled);
        QCOMPARE(running.fits.size(), findFits(q).fits.size());
        QVERIFY(!running.fits.isEmpty());
        cancel = true;
        const FitResult stopped = findFits(q, &cancel);
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.fits.isEmpty()); // read before the first configuration
        QVERIFY(stopped.reason.isEmpty());
    }

    void aPipelineServesWhereTensorParallelismCannotSplitTheModel()
    {
        // Qwen2.5-72B in bfloat16 (about 136 GiB) does not fit two H100s at --gpu-memory-utilization
        // 0.9, and its 64 attention heads do not split three ways; three pipeline stages of 26, 27 and
        // 27 layers do, so the fewest GPUs are three, in stages, before four in tensor parallel.
        FitQuery q = query(QStringLiteral("qwen2.5-72b"), 1, 8192, {QStringLiteral("h100-sxm")});
        q.base.gpuMemoryUtilizationPpm = 900'000;
        q.quantizations = {std::nullopt};
        q.kvCacheDtypes = {KvCacheDtype::Auto};
        const FitResult result = findFits(q);
        QCOMPARE(result.fits.size(), 1); // one row a GPU and precision pair: its fewest GPUs
        const FitRow &first = result.fits.first();
        QCOMPARE(first.plan.gpuCount(), 3);
        QCOMPARE(first.plan.pipelineParallelSize, 3);
        QVERIFY(first.command.contains(QStringLiteral("--pipeline-parallel-size 3")));
        test::verifyFitRows(q, result);
        // Two GPUs in tensor parallel hold no request; four would.
        Scenario two = first.scenario, four = first.scenario;
        two.pipelineParallelSize = 1;
        two.tensorParallelSize = 2;
        four.pipelineParallelSize = 1;
        four.tensorParallelSize = 4;
        QVERIFY(!planMemory(two).works());
        QVERIFY(planMemory(four).works());
    }

    void jsonRowsCarryTheAgreedKeys()
    {
        const FitQuery q = query(QStringLiteral("llama-3.1-8b"), 4, 4096, {QStringLiteral("l40s")});
        const FitResult result = findFits(q);
        const QJsonArray fits = fitToJson(q, result).value(QLatin1String("fits")).toArray();
        QCOMPARE(fits.size(), result.fits.size());
        for (qsizetype i = 0; i < fits.size(); ++i) {
            const QJsonObject o = fits.at(i).toObject();
            for (const char *key : {"gpu", "tensor_parallel_size", "pipeline_parallel_size", "quantization",
                                    "kv_cache_dtype", "max_concurrency", "kv_capacity_tokens", "command"})
                QVERIFY2(o.contains(QLatin1String(key)), key);
            QCOMPARE(o.value(QLatin1String("command")).toString(), result.fits.at(i).command);
            QCOMPARE(o.value(QLatin1String("max_concurrency")).toInteger(), result.fits.at(i).maxConcurrency);
        }
    }

    void badQueriesNameTheOption()
    {
        FitQuery q = query(QStringLiteral("llama-3.1-8b"), 0, 4096);
        try {
            findFits(q);
            QFAIL("no error");
        } catch (const Error &error) {
            QVERIFY(error.message().startsWith(QLatin1String("--concurrency:")));
        }
        q.concurrency = 1;
        q.maxModelLen = 10'000'000;
        try {
            findFits(q);
            QFAIL("no error");
        } catch (const Error &error) {
            QVERIFY(error.message().startsWith(QLatin1String("--max-model-len:")));
        }
    }
};

QTEST_GUILESS_MAIN(TestFit)
#include "tst_fit.moc"
