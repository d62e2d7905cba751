// SPDX-License-Identifier: MIT
// kvscope explain-log's core: reading vLLM and SGLang start-up logs and explaining them.
// The logs are the verbatim lines of tests/data/vllm-logs.json (each entry cites
// its public source); the scenario a log describes must be the one
// tests/core/vllmlogcheck.cpp plans for the same entry from its hand-written
// options, and the figures those of docs/validation.md.
#include "core/analysis/logexplanation.h"
#include "core/analysis/startuplog.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/engine/runtime.h"
#include "core/output/logexplanationjson.h"
#include "core/output/logexplanationtext.h"
#include "core/plan/planner.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "tests/core/vllmlogcheck.h"
#include "tests/sourcetree.h"
#include "tests/testsupport.h"

#include <cmath>

#include <QDate>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace kvscope;

namespace {

QJsonObject logEntry(int id)
{
    for (const QJsonValue &v :
         validation::readLogs(test::sourceTreePath(QStringLiteral("tests/data/vllm-logs.json"))))
        if (v.toObject().value(QLatin1String("id")).toInt() == id)
            return v.toObject();
    return {};
}

/// The entry's GPU comes from its source's other files, not from the log ("GPU: ..." in inferred_fields).
bool gpuNamedOutsideTheLog(const QJsonObject &entry)
{
    for (const QJsonValue &field : entry.value(QLatin1String("inferred_fields")).toArray())
        if (field.toString().startsWith(QLatin1String("GPU: ")))
            return true;
    return false;
}

/// An entry's verbatim lines as one log text.
QString verbatimLog(const QJsonObject &entry)
{
    QStringList lines;
    for (const QJsonValue &line : entry.value(QLatin1String("verbatim")).toArray())
        lines << line.toString();
    return lines.join(QLatin1Char('\n'));
}

/// The explanation's pool holds the validation plan's tokens within `share`.
bool tokensAgree(const LogExplanation &e, const validation::LogCheck &check, double share)
{
    const double tokens = double(check.plan.kv.capacityTokens);
    if (std::abs(double(e.plan.kv.capacityTokens) - tokens) <= share * tokens)
        return true;
    qWarning("%lld tokens explained, %lld planned by the validation", qlonglong(e.plan.kv.capacityTokens),
             qlonglong(check.plan.kv.capacityTokens));
    return false;
}

LogExplanation explain(const QString &text, const LogOverrides &overrides = {})
{
    return explainStartupLog(readStartupLog(text, QStringLiteral("test.log")), overrides, builtinResolvers());
}

// vLLM 0.10's engine config line (vllm/v1/engine/core.py logs the whole VllmConfig), shortened.
const char *engineConfigLog =
    "INFO 08-20 10:00:00 [__init__.py:1] vLLM API server version 0.10.1.1\n"
    "(EngineCore_0 pid=9) INFO 08-20 10:00:05 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) with "
    "config: model='Qwen/Qwen2.5-7B-Instruct', speculative_config=None, "
    "tokenizer='Qwen/Qwen2.5-7B-Instruct', "
    "skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config={}, "
    "trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=16384, download_dir=None, load_format=auto, "
    "tensor_parallel_size=2, pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=None, "
    "enforce_eager=False, kv_cache_dtype=fp8, device_config=cuda, compilation_config={\"level\":3, "
    "\"cudagraph_capture_sizes\": [512, 504, 496]}\n"
    "(Worker_TP0 pid=10) DEBUG 08-20 10:00:09 [gpu_worker.py:230] worker init memory snapshot: "
    "torch_peak=0.0GiB, "
    "free_memory=77.66GiB, total_memory=79.19GiB, cuda_memory=1.53GiB\n"
    "(Worker_TP1 pid=11) INFO 08-20 10:00:20 [gpu_model_runner.py:1] Model loading took 7.11 GiB and 9.3 "
    "seconds\n"
    "(Worker_TP0 pid=10) INFO 08-20 10:00:20 [gpu_model_runner.py:1] Model loading took 7.11 GiB and 9.1 "
    "seconds\n";

} // namespace

class TestLogExplanation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // "Calibrate from this log": the components the log measured, planned as measured for later
    // plans of the same deployment (core/scenario/measuredmemory.h), whatever their utilization,
    // lengths or batch; another deployment keeps kvscope's estimates.
    void aLogCalibratesItsDeployment()
    {
        const LogExplanation e = explain(QLatin1String(engineConfigLog));
        const MeasuredMemory m = measuredMemory(e, QDate(2026, 12, 3));
        // "Model loading took 7.11 GiB": 7.11 x 2^30 B, rounded; the log prints no activation peak,
        // non-torch memory or CUDA-graph estimate.
        QCOMPARE(m.weightsBytes, std::llround(7.11 * double(GiB)));
        QCOMPARE(m.activationBytes, std::int64_t(-1));
        QCOMPARE(m.nonTorchBytes, std::int64_t(-1));
        QCOMPARE(m.source, QStringLiteral("test.log (vLLM 0.10.1.1, 2026-12-03)"));
        QCOMPARE(m.deployment.value(QStringLiteral("tensor-parallel-size")), QStringLiteral("2"));

        Scenario s = e.scenario;
        s.measuredMemory = m;
        s.gpuMemoryUtilizationPpm = 800'000; // another utilization: the same deployment
        s.batchSize = 3;
        QVERIFY(m.appliesTo(s));
        const MemoryPlan estimated = planMemory(e.scenario);
        const MemoryPlan measured = planMemory(s);
        QCOMPARE(measured.weights.bytesPerGpu, m.weightsBytes);
        QCOMPARE(measured.memoryMeasuredFrom, m.source);
        QCOMPARE(measured.activationBytes, estimated.activationBytes); // not logged: still the estimate
        QCOMPARE(measured.kv.availableBytes, measured.budgetBytes - m.weightsBytes -
                                                 measured.activationBytes - measured.overheadBytes -
                                                 measured.cudaGraphBytes);
        QVERIFY(measured.notes.join(u' ').contains(QStringLiteral("measured in test.log")));

        // Four GPUs are another deployment: the estimates, and the option that differs is named.
        s.tensorParallelSize = 4;
        QCOMPARE(*m.mismatch(s), QStringLiteral("--tensor-parallel-size 2 (the scenario: 4)"));
        QVERIFY(planMemory(s).memoryMeasuredFrom.isEmpty());
        s.tensorParallelSize = 2;
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        QVERIFY(!m.appliesTo(s));
        QVERIFY(planMemory(s).weights.bytesPerGpu < m.weightsBytes);
    }

    // An SGLang log calibrates its deployment too: SGLang's own documentation's Llama-3.1-8B start
    // (tests/data/vllm-logs.json, id 45) loads at "avail mem=78.81 GB" and takes 15.09 GB of
    // weights, where kvscope estimates 78.68 and 14.99 GiB (0.51 GiB in use before). SGLang keeps
    // F x the memory free at load for the weights and the pool (profile_max_num_token), so the pool
    // is 0.88 x 78.81 GiB - 15.09 GiB, in tokens of 131,072 B: 444,520 where the log allocates
    // 444,500 (-0.005 %; the log's two decimals) and the estimates give 444,141 (-0.08 %: 78.68 GiB free and
    // a load of 15.02 GiB, the parameters, SGLang's float32 rotary table and the caching allocator's
    // rounding).
    void anSglangLogCalibratesItsDeployment()
    {
        const LogExplanation e = explain(verbatimLog(logEntry(45)));
        const MeasuredMemory m = measuredMemory(e, QDate(2026, 12, 4));
        QCOMPARE(m.weightsBytes, std::llround(15.09 * double(GiB)));
        QCOMPARE(m.freeAtLoadBytes, std::llround(78.81 * double(GiB)));
        QCOMPARE(m.activationBytes, std::int64_t(-1));
        QCOMPARE(m.source, QStringLiteral("test.log (SGLang, 2026-12-04)"));
        Scenario s = e.scenario;
        s.measuredMemory = m;
        const MemoryPlan measured = planMemory(s);
        const std::int64_t budget = std::llround(78.81 * double(GiB)) * 88 / 100;
        QCOMPARE(measured.budgetBytes, budget);
        QCOMPARE(measured.kv.capacityTokens, (budget - m.weightsBytes) / 131'072);
        QCOMPARE(measured.kv.capacityTokens, std::int64_t(444'520));
        QCOMPARE(planMemory(e.scenario).kv.capacityTokens, std::int64_t(444'141));
        QVERIFY(measured.notes.join(u' ').contains(
            QStringLiteral("memory free when the weights load 78.81 GiB")));
    }

    // The figures of the Llama-3.1-8B log (id 1) as its entry lists them.
    void readsEveryFigureAndArgument()
    {
        const QJsonObject entry = logEntry(1);
        const StartupLog log = readStartupLog(verbatimLog(entry), QStringLiteral("id1.log"));
        const QJsonObject logged = entry.value(QLatin1String("logged")).toObject();
        QCOMPARE(log.model, QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(*log.totalGpuMemoryGiB, logged.value(QLatin1String("total_gpu_memory_gib")).toDouble());
        QCOMPARE(*log.weightsGiB, logged.value(QLatin1String("weights_gib")).toDouble());
        QCOMPARE(*log.activationPeakGiB, logged.value(QLatin1String("activation_peak_gib")).toDouble());
        QCOMPARE(*log.nonTorchGiB, logged.value(QLatin1String("non_torch_gib")).toDouble());
        QCOMPARE(*log.cudaGraphEstimateGiB,
                 logged.value(QLatin1String("cudagraph_estimated_gib")).toDouble());
        QCOMPARE(*log.kvCacheGiB, logged.value(QLatin1String("kv_cache_gib")).toDouble());
        QCOMPARE(*log.kvCacheTokens,
                 std::int64_t(logged.value(QLatin1String("kv_cache_tokens")).toInteger()));
        QCOMPARE(*log.maxConcurrency, logged.value(QLatin1String("max_concurrency")).toDouble());
        QCOMPARE(log.argument(QStringLiteral("max_model_len")), QStringLiteral("8192"));
        QCOMPARE(log.argument(QStringLiteral("gpu_memory_utilization")), QStringLiteral("0.95"));
        QCOMPARE(log.argument(QStringLiteral("max_num_seqs")), QStringLiteral("1024"));
        QCOMPARE(log.argument(QStringLiteral("max_num_batched_tokens")), QStringLiteral("8192"));
        QVERIFY(!log.hasArgument(QStringLiteral("model_tag"))); // the same model, said twice
        QVERIFY(!log.refusedToStart);
    }

    void readsAndExplainsTheEncoderBudget()
    {
        // The line as vLLM prints it (vllm-project/vllm#27706, Qwen3-VL on a 16 GB GPU).
        const StartupLog log = readStartupLog(
            QStringLiteral(
                "(EngineCore_DP0 pid=29) INFO 01-03 12:00:00 [gpu_model_runner.py:4669] Encoder cache "
                "will be initialized with a budget of 16384 tokens, and profiled with 1 image items of "
                "the maximum feature size."),
            QStringLiteral("qwen3-vl.log"));
        QCOMPARE(log.encoderBudget, std::optional<std::int64_t>(16384));
        QCOMPARE(log.encoderProfileItems, std::optional<std::int64_t>(1));
        // Mistral-Small-3.1 under vLLM 0.19 (log 10) with such a line: 3,025 outputs a largest image,
        // max(8,192, 3,025) = 8,192 of budget, two images profiled (tst_imageworkload by hand).
        const QString mistral = verbatimLog(logEntry(10));
        const auto explained = [&](const QString &line) {
            return explain(mistral +
                           QStringLiteral("\n(EngineCore pid=243) INFO 04-22 00:55:00 "
                                          "[v1/worker/gpu_model_runner.py:4800] ") +
                           line);
        };
        const LogExplanation same = explained(QStringLiteral(
            "Encoder cache will be initialized with a budget of 8192 tokens, and profiled with 2 image items "
            "of the maximum feature size."));
        QCOMPARE(same.plan.encoder.budget, 8192);
        QCOMPARE(same.plan.encoder.items, 2);
        QVERIFY(same.explanation.join(QLatin1Char(' ')).contains(QStringLiteral("The log says the same")));
        const QJsonObject json = logExplanationJson(same);
        QCOMPARE(json.value(u"encoder_cache_size").toObject().value(u"logged").toInteger(), 8192);
        QCOMPARE(json.value(u"encoder_profile_items").toObject().value(u"predicted").toInteger(), 2);
        const LogExplanation other =
            explained(QStringLiteral("Encoder cache will be initialized with a budget of 16384 tokens, and "
                                     "profiled with 5 image items "
                                     "of the maximum feature size."));
        QVERIFY(other.explanation.join(QLatin1Char(' ')).contains(QStringLiteral("The log says otherwise")));
    }

    void readsTheEngineConfigLineAndRanks()
    {
        const StartupLog log = readStartupLog(QLatin1String(engineConfigLog), QStringLiteral("config.log"));
        QCOMPARE(log.vllmVersion, QStringLiteral("0.10.1.1"));
        QCOMPARE(log.model, QStringLiteral("Qwen/Qwen2.5-7B-Instruct"));
        QCOMPARE(log.argument(QStringLiteral("dtype")), QStringLiteral("bfloat16"));
        QCOMPARE(log.argument(QStringLiteral("max_model_len")), QStringLiteral("16384"));
        QCOMPARE(log.argument(QStringLiteral("tensor_parallel_size")), QStringLiteral("2"));
        QCOMPARE(log.argument(QStringLiteral("kv_cache_dtype")), QStringLiteral("fp8"));
        QVERIFY(!log.hasArgument(QStringLiteral("quantization")));                // None: not stated
        QVERIFY(!log.hasArgument(QStringLiteral("\"cudagraph_capture_sizes\""))); // inside the braces
        QCOMPARE(log.ranksSeen, 2);
        QCOMPARE(*log.weightsGiB, 7.11); // the first rank's line
    }

    void readsTheServeCommandLine()
    {
        const StartupLog log = readStartupLog(
            QStringLiteral("$ vllm serve openai/gpt-oss-120b --gpu-memory-utilization 0.95 "
                           "--max-num-batched-tokens=1024 --enforce-eager --tensor-parallel-size 2\n"),
            QStringLiteral("serve.log"));
        QCOMPARE(log.model, QStringLiteral("openai/gpt-oss-120b"));
        QCOMPARE(log.argument(QStringLiteral("gpu_memory_utilization")), QStringLiteral("0.95"));
        QCOMPARE(log.argument(QStringLiteral("max_num_batched_tokens")), QStringLiteral("1024"));
        QCOMPARE(log.argument(QStringLiteral("enforce_eager")), QStringLiteral("True"));
        QCOMPARE(log.argument(QStringLiteral("tensor_parallel_size")), QStringLiteral("2"));
    }

    // Every log that names a preset's model and prints the GPU's memory describes the scenario
    // its entry's hand-written options describe: the same plan, figure for figure.
    void infersTheScenarioTheValidationPlans()
    {
        int explained = 0;
        for (const QJsonValue &value :
             validation::readLogs(test::sourceTreePath(QStringLiteral("tests/data/vllm-logs.json")))) {
            const QJsonObject entry = value.toObject();
            const int id = entry.value(QLatin1String("id")).toInt();
            if (entry.value(QLatin1String("engine")).toString() == QLatin1String("SGLang"))
                continue;
            QString text = verbatimLog(entry);
            const StartupLog log = readStartupLog(text, QStringLiteral("id%1.log").arg(id));
            if (log.model.isEmpty() || !log.totalGpuMemoryGiB)
                continue;
            const validation::LogCheck check = validation::checkLog(entry);
            if (log.vllmVersion.isEmpty()) // these lines do not print it: the entry's release
                text += QStringLiteral("\nvLLM API server version ") + check.scenario.vllmVersion;
            LogExplanation e;
            try {
                e = explain(text);
            } catch (const Error &) {
                continue; // a model without a preset (its entry says which config stands for it)
            }
            QCOMPARE(e.plan.modelId, check.plan.modelId);
            // The log gives the GPU's total, not its name: explain-log takes the preset nearest that total.
            // Where the entry knows the card from elsewhere (its inferred_fields say so), another preset
            // with the log's total plans the same memory.
            QCOMPARE(e.scenario.gpu.memoryBytes, check.scenario.gpu.memoryBytes);
            if (!gpuNamedOutsideTheLog(entry))
                QCOMPARE(e.plan.gpuId, check.plan.gpuId);
            QCOMPARE(e.plan.tensorParallelSize, check.plan.tensorParallelSize);
            QCOMPARE(e.plan.gpuMemoryUtilizationPpm, check.plan.gpuMemoryUtilizationPpm);
            QCOMPARE(e.plan.maxModelLen, check.plan.maxModelLen);
            QCOMPARE(e.plan.dtype, check.plan.dtype);
            QCOMPARE(e.plan.kvCacheDtype, check.plan.kvCacheDtype);
            QCOMPARE(e.plan.maxNumSeqs, check.plan.maxNumSeqs);
            QCOMPARE(e.plan.maxNumBatchedTokens, check.plan.maxNumBatchedTokens);
            // A warm compile cache the log does not show (log 69: its source says so, its trimmed lines
            // keep no compile line) is the entry's input alone: explain-log, reading the log, plans cold.
            if (e.scenario.compileCache != check.scenario.compileCache) {
                QCOMPARE(e.scenario.compileCache, CompileCache::Cold);
                QCOMPARE(log.compileCacheLine, 0);
                continue;
            }
            // The repository id may name the instruct model's config where the entry names the
            // preset (Qwen2.5-7B-Instruct: 32,768 positions, so smaller rotary tables): within 0.1 %.
            QVERIFY2(tokensAgree(e, check, 0.001), qPrintable(QString::number(id)));
            ++explained;
        }
        QVERIFY2(explained >= 6, qPrintable(QString::number(explained)));
    }

    // The calibration logs (docs/validation.md): every part that decides the KV cache within its
    // tolerance. vLLM 0.19 prints its CUDA-graph estimate (per model) but does not subtract it;
    // kvscope's estimate is per GPU and tensor-parallel size, and may differ.
    void calibrationLogsAgreeComponentByComponent()
    {
        for (const int id : validation::calibrationIds()) {
            const QJsonObject entry = logEntry(id);
            const LogExplanation e =
                explain(verbatimLog(entry) + QStringLiteral("\nvLLM API server version 0.19.0"));
            QStringList disagreeing = e.disagreeing();
            disagreeing.removeAll(QStringLiteral("cuda_graphs"));
            QVERIFY2(
                disagreeing.isEmpty(),
                qPrintable(QStringLiteral("id %1: %2").arg(id).arg(disagreeing.join(QStringLiteral(", ")))));
            const double tokens = double(*e.loggedKvTokens);
            QVERIFY2(
                std::abs(double(e.plan.kv.capacityTokens) - tokens) <= 0.005 * tokens,
                qPrintable(
                    QStringLiteral("id %1: %2 vs %3").arg(id).arg(e.plan.kv.capacityTokens).arg(tokens)));
        }
    }

    void saysWhatWasReadAndAssumed()
    {
        const LogExplanation e = explain(verbatimLog(logEntry(1)));
        QVERIFY(e.read.contains(QStringLiteral("model = meta-llama/Llama-3.1-8B-Instruct (line 1)")));
        QVERIFY2(e.read.contains(QStringLiteral("GPU = %1: the one preset with total_memory=79.19GiB")
                                     .arg(e.scenario.gpu.name)),
                 qPrintable(e.read.join(QLatin1Char('\n'))));
        QVERIFY(e.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("vLLM version: not in the log")));
        QVERIFY(
            e.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("give --vllm-version for another")));
        // The budget sentence uses the plan's own figures.
        QVERIFY(e.explanation.first().contains(formatGiB(e.plan.budgetBytes)));
        QVERIFY(e.explanation.first().contains(formatGiB(e.plan.kv.availableBytes)));
    }

    void aVersionTheLogDoesNotPrintIsReadFromItsCudaGraphLines()
    {
        // Log 1 (tests/data/vllm-logs.json) is an excerpt of a vLLM 0.19.0 start without the version
        // line. It logs "Estimated CUDA graph memory" without the line vLLM 0.21 adds when it takes the
        // estimate from the budget ("CUDA graph memory profiling is enabled (default since v0.21.0)",
        // gpu_worker.py; logs 51 and 52 print it): a release that estimates and keeps the estimate in
        // the KV cache, planned as 0.19 — the validation's 58.09 GiB and 475,904 tokens against the
        // 58.11 GiB and 476,016 logged (docs/validation.md). Planned as 0.21 the 0.84 GiB estimate
        // would leave the budget: 1.5 % short, past the 1 % kvscope is validated to.
        const QString log = verbatimLog(logEntry(1));
        const LogExplanation inferred = explain(log);
        QCOMPARE(inferred.plan.kv.capacityTokens, std::int64_t(475'904));
        QCOMPARE(inferred.options.value(QStringLiteral("vllm-version")), QStringLiteral("0.19"));
        const QString assumed = inferred.assumed.join(QLatin1Char('\n'));
        QVERIFY2(assumed.contains(QStringLiteral("Estimated CUDA graph memory")) &&
                     assumed.contains(QStringLiteral("planned as 0.19")),
                 qPrintable(assumed));
        // With 0.21's line and no version line: the newest release, said so.
        const QString newer =
            log + QStringLiteral("\n(EngineCore pid=242) INFO 06-21 00:24:48 [gpu_worker.py:477] CUDA graph "
                                 "memory profiling is enabled (default since v0.21.0).");
        const LogExplanation enabled = explain(newer);
        QVERIFY(enabled.plan.kv.capacityTokens < inferred.plan.kv.capacityTokens);
        QVERIFY2(enabled.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("0.21")),
                 qPrintable(enabled.assumed.join(QLatin1Char('\n'))));
        // Neither line (an excerpt without them, or graphs off): the newest modelled release.
        QStringList lines = log.split(QLatin1Char('\n'));
        lines.removeIf([](const QString &line) { return line.contains(QLatin1String("CUDA graph")); });
        QVERIFY(explain(lines.join(QLatin1Char('\n')))
                    .assumed.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("planned as the newest modelled release")));
    }

    void aLogWithoutItsTotalGivesItByItsCudaGraphAdvice()
    {
        // vLLM 0.21 on prints beside its CUDA-graph estimate "The current --gpu-memory-utilization=0.8500 is
        // equivalent to --gpu-memory-utilization=0.7812 without CUDA graph memory profiling ... increase
        // --gpu-memory-utilization to 0.9188" (gpu_worker.py: Y = round(X - estimate / total, 4)). Log 66
        // (tests/data/vllm-logs.json: Qwen3-4B on a 22 GB RTX 2080 Ti, from /opt/models/Qwen3-4B, no
        // total_memory line): 1.48 +- 0.005 GiB over 0.0688 +- 0.0001 puts the total at
        // 1.475 / 0.0689 = 21.41 to 1.485 / 0.0687 = 21.62 GiB (by hand), a range holding no preset's total.
        const QJsonObject entry = logEntry(66);
        const StartupLog log = readStartupLog(verbatimLog(entry), QStringLiteral("id66.log"));
        QVERIFY(!log.totalGpuMemoryGiB);
        // Its estimate is over the graphs the log lists ("PIECEWISE=51 (largest=512), FULL=35
        // (largest=256)"), which the explanation of the differing estimate names with the GPU's 36 layers,
        // beside the graphs kvscope counts at vLLM's 256 sequences and 2,048 batched tokens on this card: the
        // same 51 and 35 (core/plan/cudagraphmemory.h), so the difference is what each graph holds.
        QCOMPARE(log.piecewiseGraphs, 51);
        QCOMPARE(log.largestPiecewiseGraph, 512);
        QCOMPARE(log.fullGraphs, 35);
        QCOMPARE(log.largestFullGraph, 256);
        QVERIFY2(explain(verbatimLog(entry))
                     .explanation.join(QLatin1Char(' '))
                     .contains(QStringLiteral(
                         "86 graphs (51 piecewise up to 512 tokens, 35 full up to 256) over 36 "
                         "layers a GPU. kvscope counts the graphs the same way (51 piecewise, 35 full)")),
                 "the estimate's graphs");
        const std::optional<GiBRange> range = totalMemoryFromGraphAdvice(log);
        QVERIFY(range);
        QCOMPARE(qRound(range->low * 100), 2141);
        QCOMPARE(qRound(range->high * 100), 2162);
        const LogExplanation e = explain(verbatimLog(entry));
        QCOMPARE(e.options.value(QStringLiteral("gpu")), QStringLiteral("custom:21.51"));
        QCOMPARE(e.options.value(QStringLiteral("model")), QStringLiteral("Qwen/Qwen3-4B"));
        const QString assumed = e.assumed.join(QLatin1Char('\n'));
        QVERIFY2(assumed.contains(QStringLiteral("21.41-21.62 GiB")) &&
                     assumed.contains(QStringLiteral("line 8")) &&
                     assumed.contains(QStringLiteral("not on this machine")),
                 qPrintable(assumed));
        // The validation plans it with custom:21.46, which the same machine's other logs narrow the total to:
        // 0.05 GiB x 0.85 apart, within half a percent of its pool.
        QVERIFY(tokensAgree(e, validation::checkLog(entry), 0.005));
        // Log 67, TP 2 on the same machine, says "Custom allreduce is disabled because your platform lacks
        // GPU P2P capability": its custom GPU is planned on PCIe only, as the validation plans it.
        const LogExplanation tp2 = explain(verbatimLog(logEntry(67)));
        QVERIFY2(tp2.options.value(QStringLiteral("gpu")).endsWith(QLatin1String(":0:0:32")),
                 qPrintable(tp2.options.value(QStringLiteral("gpu"))));
        QVERIFY(pcieOnly(tp2.scenario.gpu));
        QCOMPARE(tp2.plan.overheadBytes, validation::checkLog(logEntry(67)).plan.overheadBytes);

        // A preset whose total lies in the range is planned: 0.84 GiB on an 80 GB H100's 79.19 GiB at 0.9
        // prints 0.9000, round(0.9 - 0.010607, 4) = 0.8894 and 0.9106: 78.04 to 80.48 GiB.
        const QString h100 = QStringLiteral(
            "vllm serve meta-llama/Llama-3.1-8B-Instruct\n"
            "INFO [gpu_model_runner.py:6142] Estimated CUDA graph memory: 0.84 GiB total\n"
            "INFO [gpu_worker.py:477] CUDA graph memory profiling is enabled (default since v0.21.0). The "
            "current "
            "--gpu-memory-utilization=0.9000 is equivalent to --gpu-memory-utilization=0.8894 without CUDA "
            "graph "
            "memory profiling. To maintain the same effective KV cache size as before, increase "
            "--gpu-memory-utilization to 0.9106. To disable, set "
            "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0.");
        const LogExplanation onPreset = explain(h100);
        QVERIFY(totalMemoryFromGraphAdvice(readStartupLog(h100, {}))
                    ->contains(toGiB(onPreset.scenario.gpu.memoryBytes)));
        QVERIFY2(onPreset.scenario.gpu.id.startsWith(QLatin1String("h100")),
                 qPrintable(onPreset.scenario.gpu.id));
        // With the estimate switched off vLLM still advises "from 0.9000 to 0.9106": the same range from Z
        // alone.
        QString disabled = h100;
        disabled.replace(
            QRegularExpression(QStringLiteral("CUDA graph memory profiling is enabled.*$")),
            QStringLiteral("CUDA graph memory profiling is disabled (VLLM_MEMORY_PROFILER_ESTIMATE_"
                           "CUDAGRAPHS=0). ... increasing --gpu-memory-utilization from 0.9000 to "
                           "0.9106."));
        const std::optional<GiBRange> fromZ = totalMemoryFromGraphAdvice(readStartupLog(disabled, {}));
        QVERIFY(fromZ);
        QCOMPARE(qRound(fromZ->low), 78);
        // A utilization capped at 1 bounds nothing; nor does an advice without its estimate.
        QVERIFY(!totalMemoryFromGraphAdvice(readStartupLog(
            QString(disabled).replace(QStringLiteral("0.9106"), QStringLiteral("1.0000")), {})));
        QVERIFY(!totalMemoryFromGraphAdvice(readStartupLog(
            QString(h100).remove(QRegularExpression(QStringLiteral("INFO [^\\n]*Estimated[^\\n]*\\n"))),
            {})));
        // vLLM 0.18 words the same advice ahead of the switch (log 131, tests/data/vllm-logs.json: "In v0.19,
        // CUDA graph memory profiling will be enabled by default ... increase --gpu-memory-utilization from
        // 0.9000 to 0.9074"): 1.03 GiB over 0.0074, each within its printed rounding, is 136.7 to 141.8 GiB,
        // an H200's 139.80 within it, so the log that names no GPU plans on the h200 preset.
        const QString redHat = verbatimLog(logEntry(131));
        const std::optional<GiBRange> fromAdvice = totalMemoryFromGraphAdvice(readStartupLog(redHat, {}));
        QVERIFY(fromAdvice);
        QVERIFY(fromAdvice->contains(139.80));
        QCOMPARE(qRound(fromAdvice->low * 10), 1367);
        const LogExplanation h200 = explain(redHat);
        QCOMPARE(h200.scenario.gpu.id, QStringLiteral("h200"));
        // The advice names the utilization too, which the log's arguments do not print.
        QCOMPARE(h200.options.value(QStringLiteral("gpu-memory-utilization")), QStringLiteral("0.9"));
        QVERIFY2(h200.read.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("gpu_memory_utilization = 0.9 (line 7")),
                 qPrintable(h200.read.join(QLatin1Char('\n'))));
        QVERIFY(tokensAgree(h200, validation::checkLog(logEntry(131)), 0.001));
    }

    void workersOnSeveralHostsAreSaid()
    {
        // Log 30 (tests/data/vllm-logs.json): gpt-oss-120b at TP 4 over Ray workers on three hosts
        // (ip=10.42.11.243, 10.42.9.225, 10.42.9.224): kvscope says the GPUs span nodes, which it does not
        // plan.
        const QString text = verbatimLog(logEntry(30));
        const StartupLog log = readStartupLog(text, QStringLiteral("id30.log"));
        QCOMPARE(log.workerHosts, QStringList({QStringLiteral("10.42.11.243"), QStringLiteral("10.42.9.225"),
                                               QStringLiteral("10.42.9.224")}));
        const LogExplanation e = explain(
            text, {QStringLiteral("gpt-oss-120b"), QStringLiteral("a100-80gb"), QStringLiteral("0.10")});
        QVERIFY2(e.explanation.join(QLatin1Char(' ')).contains(QStringLiteral("run on 3 hosts")),
                 qPrintable(e.explanation.join(QLatin1Char('\n'))));
        // One host: nothing said.
        QVERIFY(!explain(verbatimLog(logEntry(1)))
                     .explanation.join(QLatin1Char(' '))
                     .contains(QStringLiteral("hosts")));
    }

    void aQuantizedCheckpointOfAPresetIsThePresetQuantizedAsTheLogSays()
    {
        // Log 51 (tests/data/vllm-logs.json) serves /opt/models/Qwen3-32B-AWQ with quantization=awq_marlin:
        // the qwen3-32b preset with AWQ weights, as the validation plans it by hand, to the token.
        const QJsonObject entry = logEntry(51);
        const LogExplanation e = explain(verbatimLog(entry));
        QCOMPARE(e.options.value(QStringLiteral("model")), QStringLiteral("Qwen/Qwen3-32B"));
        QCOMPARE(e.plan.kv.capacityTokens, validation::checkLog(entry).plan.kv.capacityTokens);
        QVERIFY2(e.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("awq_marlin checkpoint of it")),
                 qPrintable(e.assumed.join(QLatin1Char('\n'))));
        // Its launch lines serve the log's own checkpoint, stored as AWQ: no placeholder for one.
        QVERIFY(!e.levers.isEmpty());
        for (const KvLever &lever : e.levers)
            QVERIFY2(lever.launch.startsWith(QLatin1String("vllm serve /opt/models/Qwen3-32B-AWQ ")) &&
                         !lever.launch.contains(QLatin1Char('<')),
                     qPrintable(lever.launch));
        const auto model = [](const QString &log) {
            return explain(log, {{}, QStringLiteral("h100-sxm"), {}}).options.value(QStringLiteral("model"));
        };
        QCOMPARE(
            model(QStringLiteral("vllm serve RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic --quantization fp8 "
                                 "--tensor-parallel-size 2")),
            QStringLiteral("meta-llama/Llama-3.3-70B-Instruct"));
        QCOMPARE(
            model(QStringLiteral("vllm serve Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4 --quantization gptq_marlin")),
            QStringLiteral("Qwen/Qwen2.5-7B-Instruct"));
        // A copy of a preset's repository under another name is the preset.
        QCOMPARE(model(QStringLiteral("vllm serve /data/hub/Qwen2.5-7B-Instruct")),
                 QStringLiteral("Qwen/Qwen2.5-7B-Instruct"));
        // A log that does not state the method (an excerpt without the engine-config line): the one the
        // name's marker implies, said so. Log 58's serve line (Qwen's FP8 checkpoint of the 2507 release,
        // whose model card gives 262,144 positions) with vLLM's human-readable --max-model-len 32K (32,768).
        const LogExplanation implied =
            explain(QStringLiteral("vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507-FP8 --tensor-parallel-size 2 "
                                   "--max-model-len 32K"),
                    {{}, QStringLiteral("l40s"), {}});
        QCOMPARE(implied.options.value(QStringLiteral("model")),
                 QStringLiteral("Qwen/Qwen3-30B-A3B-Instruct-2507"));
        QCOMPARE(implied.options.value(QStringLiteral("quantization")), QStringLiteral("fp8"));
        // Log 58 as posted, with the nvidia-smi table the post pasted under it: its rows name the card.
        const LogExplanation posted = explain(verbatimLog(logEntry(58)));
        QCOMPARE(posted.scenario.gpu.id, QStringLiteral("l40s"));
        QVERIFY2(posted.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("nvidia-smi NVIDIA L40S")),
                 qPrintable(posted.assumed.join(QLatin1Char('\n'))));
        QCOMPARE(posted.plan.modelId, validation::checkLog(logEntry(58)).plan.modelId);
        // A pasted `pip list` row or `pip show vllm` answer names the release as well (the software a post
        // pins).
        QCOMPARE(readStartupLog(QStringLiteral("vllm 0.27.1\ntorch 2.13.0+cu130 cuda 13.0"), {}).vllmVersion,
                 QStringLiteral("0.27.1"));
        QCOMPARE(
            readStartupLog(QStringLiteral("Name: vllm\nVersion: 0.11.0\nSummary: A high-throughput..."), {})
                .vllmVersion,
            QStringLiteral("0.11.0"));
        QVERIFY(readStartupLog(QStringLiteral("Name: torch\nVersion: 2.9.0"), {}).vllmVersion.isEmpty());
        // Its `vllm --version` answer, 0.10.2, names the release: planned as the validation plans it.
        QCOMPARE(posted.log.vllmVersion, QStringLiteral("0.10.2"));
        QCOMPARE(posted.plan.kv.capacityTokens, validation::checkLog(logEntry(58)).plan.kv.capacityTokens);
        QCOMPARE(implied.plan.maxModelLen, std::int64_t(32'768));
        QCOMPARE(implied.plan.quantization.method, QuantMethod::Fp8);
        QVERIFY(implied.assumed.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("the checkpoint's name implies")));
        QCOMPARE(model(QStringLiteral("vllm serve Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4")),
                 QStringLiteral("Qwen/Qwen2.5-7B-Instruct"));
        // Not for compressed-tensors, whose scheme only the checkpoint's config says, nor a marker no one
        // method reads.
        const auto refused = [](const QString &log) {
            try {
                explain(log, {{}, QStringLiteral("h100-sxm"), {}});
            } catch (const Error &error) {
                return error.message().contains(QLatin1String("unknown model"));
            }
            return false;
        };
        QVERIFY(refused(QStringLiteral("vllm serve RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16 "
                                       "--quantization compressed-tensors")));
        QVERIFY(refused(QStringLiteral("vllm serve RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16")));
    }

    void aLogsLargestCudaGraphBatchIsPlanned()
    {
        // vLLM's --max-cudagraph-capture-size among the non-default args (a Llama-3.1-8B start on an H100;
        // lines shortened, the figures hand-made): the plan captures graphs up to 64 tokens, 1, 2, 4 and
        // every 8 to 64, 11 of each mode (core/plan/cudagraphmemory.h).
        const QString text = QStringLiteral(
            "(APIServer pid=1) INFO [utils.py:253] vLLM API server version 0.21.0\n"
            "(APIServer pid=1) INFO [utils.py:189] non-default args: {'model': "
            "'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, 'max_cudagraph_capture_size': 64}\n"
            "(EngineCore pid=7) INFO [gpu_model_runner.py:4959] Model loading took 14.99 GiB memory and 5.0 "
            "seconds\n");
        const LogExplanation e = explain(text, {QString(), QStringLiteral("h100-sxm"), QString()});
        QCOMPARE(e.options.value(QStringLiteral("max-cudagraph-capture-size")), QStringLiteral("64"));
        QCOMPARE(e.plan.cudaGraphProfile.piecewiseGraphs, std::int64_t(11));
        QCOMPARE(e.plan.cudaGraphProfile.fullGraphs, std::int64_t(11));
    }

    void anEagerStartTakesNoCudaGraphEstimate()
    {
        // vLLM 0.21 with --enforce-eager captures no graphs and so profiles none (gpu_worker.py:
        // cudagraph_mode != CUDAGraphMode.NONE): the budget holds no estimate. An excerpt of a Llama-3.1-8B
        // start on an H100 (lines shortened; the figures hand-made).
        const QString eager = QStringLiteral(
            "(APIServer pid=1) INFO [utils.py:253] vLLM API server version 0.21.0\n"
            "(APIServer pid=1) INFO [utils.py:189] non-default args: {'model': "
            "'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, 'enforce_eager': True}\n"
            "(EngineCore pid=7) INFO [gpu_model_runner.py:4959] Model loading took 14.99 GiB memory and 5.0 "
            "seconds\n");
        const LogExplanation e = explain(eager, {QString(), QStringLiteral("h100-sxm"), QString()});
        QCOMPARE(e.options.value(QStringLiteral("enforce-eager")).toLower(),
                 QStringLiteral("true")); // as logged
        QCOMPARE(e.plan.cudaGraphBytes, std::int64_t(0));
        QVERIFY2(e.read.join(QLatin1Char('\n')).contains(QStringLiteral("enforce_eager")),
                 qPrintable(e.read.join(QLatin1Char('\n'))));
        QVERIFY2(!e.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("enforce_eager")),
                 qPrintable(e.assumed.join(QLatin1Char('\n'))));
        const QString why = e.explanation.join(QLatin1Char('\n'));
        QVERIFY2(why.contains(QStringLiteral("Under --enforce-eager")) &&
                     !why.contains(QStringLiteral("0.21 on")),
                 qPrintable(why));
        // The same start with graphs: turning them off is a way to a larger cache, the eager start's.
        QString graphs = eager;
        graphs.replace(QStringLiteral(", 'enforce_eager': True"), QString());
        const LogExplanation g = explain(graphs, {QString(), QStringLiteral("h100-sxm"), QString()});
        QCOMPARE(g.plan.cudaGraphBytes, test::Llama8bH100CudaGraphEstimateBytes);
        const auto lever = std::find_if(g.levers.cbegin(), g.levers.cend(), [](const KvLever &l) {
            return l.what.contains(QStringLiteral("(--enforce-eager)"));
        });
        QVERIFY(lever != g.levers.cend());
        QCOMPARE(lever->tokens, e.plan.kv.capacityTokens);
        QVERIFY2(lever->launch.contains(QStringLiteral("--enforce-eager")), qPrintable(lever->launch));
        // Fewer graphs keep them for small batches, as vLLM's memory guide shows (capture sizes up to 16:
        // docs/configuration/conserving_memory.md): 5 + 5 graphs, 144,703,488 + 8 x 6 MiB = 195,035,136 B
        // where the default's 51 + 51 take 903,872,512 B, so 708,837,376 B more for the cache, between the
        // start with graphs and the eager one.
        const auto fewer = std::find_if(g.levers.cbegin(), g.levers.cend(), [](const KvLever &l) {
            return l.what.contains(QStringLiteral("(--max-cudagraph-capture-size 16)"));
        });
        QVERIFY(fewer != g.levers.cend());
        QVERIFY(fewer->tokens > g.plan.kv.capacityTokens && fewer->tokens < lever->tokens);
        QVERIFY2(fewer->launch.contains(QStringLiteral("--max-cudagraph-capture-size 16")),
                 qPrintable(fewer->launch));
    }

    void aModelRunnerV2LogKeepsTheGraphsInTheKvCache()
    {
        // vLLM 0.22 to 0.28 run some models on Model Runner V2 ("Using V2 Model Runner", gpu_worker.py),
        // which takes no CUDA-graph estimate out of the budget (vllm/v1/worker/gpu/model_runner.py
        // profile_cudagraph_memory returns 0). An excerpt of a Qwen3-8B start in the form vLLM 0.27.1 prints
        // (lines shortened; the figures hand-made) without its version line: planned as the newest release
        // whose V2 keeps the graphs in the KV cache, 0.25, and said so; the explanation says why nothing was
        // taken for the graphs.
        const QString v2 = QStringLiteral(
            "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n"
            "(EngineCore pid=7) DEBUG [gpu_worker.py:303] worker init memory snapshot: torch_peak=0.0GiB, "
            "free_memory=78.5GiB, total_memory=79.19GiB, cuda_memory=0.6GiB\n"
            "(EngineCore pid=7) INFO [gpu_worker.py:385] Using V2 Model Runner\n"
            "(EngineCore pid=7) INFO [model_runner.py:329] Model loading took 15.27 GiB and 36.382166 "
            "seconds\n");
        const LogExplanation e = explain(v2);
        QCOMPARE(e.plan.engineVersion, QStringLiteral("0.25"));
        QVERIFY(e.plan.modelRunnerV2);
        QCOMPARE(e.plan.cudaGraphBytes, std::int64_t(0));
        // V2 profiles no graphs, so it prints no estimate to set beside one.
        for (const LogComponent &c : e.components)
            if (c.key == QLatin1String("cuda_graphs"))
                QCOMPARE(c.predictedBytes, std::int64_t(0));
        const QString assumed = e.assumed.join(QLatin1Char('\n'));
        QVERIFY2(assumed.contains(QStringLiteral("Model Runner V2")) &&
                     assumed.contains(QStringLiteral("line 3")),
                 qPrintable(assumed));
        QVERIFY2(e.explanation.join(QLatin1Char('\n')).contains(QStringLiteral("Model Runner V2")),
                 qPrintable(e.explanation.join(QLatin1Char('\n'))));
        // Its weights are read from V2's "Model loading took X GiB and ..." line.
        QCOMPARE(e.log.weightsGiB.value_or(0), 15.27);
    }

    void aVersionTheLogDoesNotPrintCanBeGiven()
    {
        // Log 1 given 0.19 explicitly: the same plan as the one its CUDA-graph lines infer.
        const QString log = verbatimLog(logEntry(1));
        LogOverrides overrides;
        overrides.vllmVersion = QStringLiteral("0.19");
        const LogExplanation given = explain(log, overrides);
        QCOMPARE(given.plan.kv.capacityTokens, std::int64_t(475'904));
        QVERIFY(given.assumed.contains(QStringLiteral("vLLM 0.19: given with --vllm-version")));
        QVERIFY(given.options.value(QStringLiteral("vllm-version")) == QStringLiteral("0.19"));
        // Not a release, or an SGLang log: one message naming the option.
        overrides.vllmVersion = QStringLiteral("nineteen");
        QCOMPARE(test::errorFrom([&] { explain(log, overrides); }),
                 QStringLiteral("--vllm-version: 'nineteen' is not a release number (x.y)"));
        overrides.vllmVersion = QStringLiteral("0.19");
        QVERIFY(test::errorFrom([&] {
                    explain(verbatimLog(logEntry(45)), overrides);
                }).startsWith(QStringLiteral("--vllm-version 0.19: test.log is an SGLang start-up log")));
    }

    void plansAStartThatLoadsItsCompiledGraphsWarm()
    {
        // Validation log 136 loads Qwen3-8B's compiled graphs from vLLM's compile cache ("Directly load AOT
        // compilation"); log 135, the same container's first start, compiles. explain-log plans each as its
        // lines say: the warm one with Model Runner V2's own profiling peak, within 1 % of its 43,040 tokens.
        const LogExplanation warm = explain(verbatimLog(logEntry(136)));
        QCOMPARE(warm.options.value(QStringLiteral("compile-cache")), QStringLiteral("warm"));
        QVERIFY(warm.plan.warmCompileCache);
        QVERIFY(warm.read.join(QLatin1Char('\n')).contains(QStringLiteral("compile cache warm")));
        QVERIFY(std::abs(double(warm.plan.kv.capacityTokens) / 43'040 - 1) < 0.01);
        const LogExplanation cold = explain(verbatimLog(logEntry(135)));
        QVERIFY(!cold.options.contains(QStringLiteral("compile-cache")));
        QVERIFY(!cold.plan.warmCompileCache);
        QVERIFY(cold.read.join(QLatin1Char('\n')).contains(QStringLiteral("compile cache cold")));
        QVERIFY(cold.explanation.join(QLatin1Char('\n')).contains(QStringLiteral("--compile-cache warm")));
        // Keeping the cache is a way to a larger one: the warm start's plan, its launch line the same.
        const auto kept = std::find_if(cold.levers.cbegin(), cold.levers.cend(), [](const KvLever &l) {
            return l.what.contains(QStringLiteral("(--compile-cache warm)"));
        });
        QVERIFY(kept != cold.levers.cend());
        QCOMPARE(kept->tokens, warm.plan.kv.capacityTokens);
        QVERIFY(!kept->launch.contains(QStringLiteral("compile")));
        QVERIFY(std::none_of(warm.levers.cbegin(), warm.levers.cend(), [](const KvLever &l) {
            return l.what.contains(QStringLiteral("compile cache"));
        }));
    }

    void saysWhenTheLogSetsTheAllReduceFusionOtherwise()
    {
        // Log 131 (vLLM 0.18 on two H200s) prints 'fuse_allreduce_rms': True in its engine config, as the
        // release does by default there: kvscope plans NVLink's figure and says nothing. Log 122 (vLLM
        // 0.12 on two H100s) prints False, as 0.12 does: one GPU's figure, nothing said.
        const auto fusionLine = [](const LogExplanation &e) {
            for (const QString &line : e.explanation)
                if (line.contains(QStringLiteral("all-reduce + RMSNorm fusion")))
                    return line;
            return QString();
        };
        const QString fused = verbatimLog(logEntry(131));
        const LogExplanation asLogged = explain(fused);
        QCOMPARE(asLogged.log.allReduceRmsFusion, std::optional<bool>(true));
        QVERIFY(asLogged.plan.allReduceRmsNormFused);
        QCOMPARE(asLogged.plan.overheadBytes, 2120 * MiB);
        QVERIFY2(fusionLine(asLogged).isEmpty(), qPrintable(fusionLine(asLogged)));
        const LogExplanation unfused = explain(verbatimLog(logEntry(122)));
        QCOMPARE(unfused.log.allReduceRmsFusion, std::optional<bool>(false));
        QVERIFY(!unfused.plan.allReduceRmsNormFused);
        QVERIFY(fusionLine(unfused).isEmpty());
        // The same logs with the setting turned: the explanation names the line and the figure planned.
        // It names what the other setting holds, the figure kvscope plans for it (NonTorchBefore019's
        // 0.13 GiB for one GPU before 0.19, runtimeOverheadBytes' 2,120 MiB on NVLink).
        const auto turned = [&](int id, const char *from, const char *to, const char *says, const char *plans,
                                const char *otherwise) {
            const LogExplanation e =
                explain(verbatimLog(logEntry(id))
                            .replace(QStringLiteral("'fuse_allreduce_rms': %1").arg(QLatin1String(from)),
                                     QStringLiteral("'fuse_allreduce_rms': %1").arg(QLatin1String(to))));
            const QString line = fusionLine(e);
            QVERIFY2(line.contains(QStringLiteral("turns vLLM's all-reduce + RMSNorm fusion %1 (line ")
                                       .arg(QLatin1String(says))) &&
                         line.contains(QLatin1String(plans)) && line.contains(QLatin1String(otherwise)),
                     qPrintable(line));
        };
        turned(131, "True", "False", "off", "plans the 2.07 GiB outside PyTorch",
               "hold about one GPU's figure, 0.13 GiB,");
        turned(122, "False", "True", "on", "kvscope plans 0.13 GiB outside PyTorch",
               "with the fusion on NVLink hold about 2.07 GiB,");
        // vLLM 0.19 on also lists the fusions it enables (log 3's own line 42, jgchn/llm-d-planner @
        // d3121e0): read as the fusion on; a list without allreduce_rms as off.
        const QString listed =
            QStringLiteral("(APIServer pid=1) INFO 04-22 01:35:32 [config/compilation.py:290] "
                           "Enabled custom fusions: allreduce_rms\n") +
            verbatimLog(logEntry(3));
        QCOMPARE(explain(listed).log.allReduceRmsFusion, std::optional<bool>(true));
        QCOMPARE(explain(listed).log.allReduceRmsFusionLine, 1);
        QVERIFY(fusionLine(explain(listed)).isEmpty()); // 0.19 fuses on two H100s
        const QString others = QString(listed).replace(QStringLiteral("fusions: allreduce_rms"),
                                                       QStringLiteral("fusions: norm_quant, act_quant"));
        QCOMPARE(explain(others).log.allReduceRmsFusion, std::optional<bool>(false));
        QVERIFY(fusionLine(explain(others)).contains(QStringLiteral("fusion off (line 1)")));
        QCOMPARE(explain(verbatimLog(logEntry(3))).log.allReduceRmsFusion, std::nullopt);
        // --json: what the log printed beside what the plan does.
        const QJsonObject json = logExplanationJson(explain(QString(fused).replace(
            QStringLiteral("'fuse_allreduce_rms': True"), QStringLiteral("'fuse_allreduce_rms': False"))));
        QCOMPARE(json.value(QLatin1String("logged_fuse_allreduce_rms")), QJsonValue(false));
        QCOMPARE(json.value(QLatin1String("inferred"))[QLatin1String("all_reduce_rms_norm_fused")],
                 QJsonValue(true));
        // Log 1's excerpt prints no pass_config.
        QVERIFY(logExplanationJson(explain(verbatimLog(logEntry(1))))
                    .value(QLatin1String("logged_fuse_allreduce_rms"))
                    .isNull());
    }

    void saysWhichCacheSizeTheReleaseLogs()
    {
        // Log 9 (tests/data/vllm-logs.json: gemma-3-12b on vLLM 0.19.0, an excerpt without the version
        // line) prints "GPU KV cache size: 130,304 tokens" beside "Maximum concurrency for 8,192 tokens
        // per request: 15.88x": the blocks per group x 16, not 15.88 x 8,192. From 0.21 vLLM logs the
        // latter (vllm-project/vllm#41069).
        const QString log = verbatimLog(logEntry(9));
        // Planned as `version` (the excerpt prints none), the explanation names the form with the plan's
        // own figure.
        for (const auto &[version, form] : {std::pair{"0.19", "the blocks per group × the block size"},
                                            std::pair{"0.21", "the maximum concurrency × --max-model-len"}}) {
            LogOverrides overrides;
            overrides.vllmVersion = QLatin1String(version);
            const LogExplanation e = explain(log, overrides);
            const QString text = e.explanation.join(QLatin1Char('\n'));
            QVERIFY2(text.contains(QStringLiteral("vLLM %1 logs \"GPU KV cache size\" as %2: %3 tokens")
                                       .arg(QLatin1String(version), QString::fromUtf8(form),
                                            formatCount(e.plan.kv.capacityTokens))),
                     qPrintable(text));
            QCOMPARE(e.plan.kv.numGroups, 6);
            QCOMPARE(e.plan.kv.capacityFromConcurrency, qstrcmp(version, "0.21") == 0);
            if (e.plan.kv.capacityFromConcurrency)
                QCOMPARE(e.plan.kv.capacityTokens,
                         std::int64_t(double(e.plan.kv.numGpuBlocks) / double(e.plan.kv.blocksPerMaxRequest) *
                                      8192.0));
        }
        // A model whose layers all keep every token gets no such sentence.
        QVERIFY(!explain(verbatimLog(logEntry(1)))
                     .explanation.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("KV cache groups")));
    }

    void plansTheDrafterTheLogNames()
    {
        // The engine config line as vLLM logs a drafter (SpeculativeConfig.__repr__,
        // vllm/config/speculative.py): Llama-3.1-8B with its EAGLE-3 draft is planned with it.
        QString text = QLatin1String(engineConfigLog);
        text.replace(QStringLiteral("model='Qwen/Qwen2.5-7B-Instruct', speculative_config=None"),
                     QStringLiteral("model='meta-llama/Llama-3.1-8B-Instruct', "
                                    "speculative_config=SpeculativeConfig(method='eagle3', "
                                    "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3)"));
        text.replace(QStringLiteral("tensor_parallel_size=2"), QStringLiteral("tensor_parallel_size=1"));
        const LogExplanation e = explain(text);
        QCOMPARE(e.scenario.speculative.method, SpeculativeMethod::Eagle3);
        QCOMPARE(e.scenario.speculative.numSpeculativeTokens, std::int64_t(3));
        QCOMPARE(e.plan.weights.draftBytes, std::int64_t(850'159'616));
        QVERIFY(e.read.join(QLatin1Char('\n')).contains(QStringLiteral("speculative_config = ")));
        // A drafter kvscope does not plan for the model (MTP on a model without MTP layers) is said,
        // and the rest is explained without it.
        text.replace(QStringLiteral("method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B'"),
                     QStringLiteral("method='mtp', model='meta-llama/Llama-3.1-8B-Instruct'"));
        const LogExplanation mtp = explain(text);
        QVERIFY(!mtp.scenario.speculative.enabled());
        QVERIFY2(mtp.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("not planned")),
                 qPrintable(mtp.assumed.join(QLatin1Char('\n'))));
    }

    void ranksGiveTheTensorParallelSize()
    {
        const LogExplanation e = explain(QLatin1String(engineConfigLog));
        QCOMPARE(e.plan.tensorParallelSize, 2);
        QVERIFY(isFp8(e.plan.kvCacheDtype));
        QCOMPARE(e.plan.engineVersion, QStringLiteral("0.10.1"));
    }

    // An FP8 cache halves each token's bytes: about twice the tokens in the same memory.
    void leversHoldMoreTokens()
    {
        const LogExplanation e = explain(verbatimLog(logEntry(1)));
        const KvLever *fp8 = nullptr;
        for (const KvLever &l : e.levers)
            if (l.changes.value(QStringLiteral("kv-cache-dtype")) == QLatin1String("fp8"))
                fp8 = &l;
        QVERIFY(fp8);
        const double ratio = double(fp8->tokens) / double(e.plan.kv.capacityTokens);
        QVERIFY2(ratio > 1.99 && ratio < 2.01, qPrintable(QString::number(ratio)));
        QVERIFY(fp8->launch.contains(QStringLiteral("--kv-cache-dtype fp8")));
        for (const KvLever &l : e.levers)
            QVERIFY(l.tokens > e.plan.kv.capacityTokens);
    }

    // An INFO-level log prints the weights and the KV cache but not what the profiling measured in
    // between: the rest of the budget is their difference, so a pool that differs is put where it
    // differs. Validation log 123 (vLLM 0.10.0, Qwen3-235B-A22B-FP8 on eight H100s,
    // tests/data/vllm-logs.json): 0.9 x 79.19 GiB - 27.6656 - 35.74 = 7.86 GiB, where kvscope plans the
    // activation peak (2.92 GiB) and 0.13 GiB outside PyTorch.
    void anInfoLogPutsTheDifferenceInTheRestOfTheBudget()
    {
        const LogExplanation e = explain(verbatimLog(logEntry(123)));
        const auto rest = std::find_if(e.components.cbegin(), e.components.cend(), [](const LogComponent &c) {
            return c.key == QLatin1String("rest_of_budget");
        });
        QVERIFY(rest != e.components.cend());
        QVERIFY(rest->loggedGiB.has_value());
        QCOMPARE(*rest->loggedGiB, 7.86); // 71.271 - 27.6656 - 35.74, to two decimals
        QCOMPARE(rest->predictedBytes, e.plan.activationBytes + e.plan.overheadBytes);
        QVERIFY(!rest->agrees());
        QVERIFY(e.explanation.join(QLatin1Char('\n')).contains(QStringLiteral("7.86 GiB")));
        // Where the log prints the parts (the calibration logs' DEBUG lines), no rest is derived.
        const LogExplanation debug = explain(verbatimLog(logEntry(1)));
        QVERIFY(std::none_of(debug.components.cbegin(), debug.components.cend(),
                             [](const LogComponent &c) { return c.key == QLatin1String("rest_of_budget"); }));
    }

    void jsonCarriesLoggedAndPredicted()
    {
        const LogExplanation e = explain(verbatimLog(logEntry(1)));
        const QJsonObject json = logExplanationJson(e);
        QCOMPARE(json.value(QLatin1String("kv_capacity_tokens"))[QLatin1String("logged")].toInteger(),
                 476016);
        QCOMPARE(json.value(QLatin1String("kv_capacity_tokens"))[QLatin1String("predicted")].toInteger(),
                 e.plan.kv.capacityTokens);
        const QJsonObject weights = json.value(QLatin1String("components")).toArray().first().toObject();
        QCOMPARE(weights.value(QLatin1String("name")).toString(), QStringLiteral("weights"));
        // 14.99 GiB as printed, in bytes.
        QCOMPARE(weights.value(QLatin1String("logged_bytes")).toInteger(),
                 std::llround(14.99 * 1073741824.0));
        QCOMPARE(json.value(QLatin1String("inferred"))[QLatin1String("gpu")].toString(),
                 QStringLiteral("h100-sxm"));
        // vLLM's share as the log gives it; SGLang's is null.
        QCOMPARE(json.value(QLatin1String("inferred"))[QLatin1String("gpu_memory_utilization")].toDouble(),
                 0.95);
        QVERIFY(json.value(QLatin1String("inferred"))[QLatin1String("mem_fraction_static")].isNull());
        QVERIFY(json.value(QLatin1String("options")).toArray().contains(QStringLiteral("--max-model-len")));
    }

    // SGLang's lines as its current releases print them (tests/data/vllm-logs.json, entry 46: a
    // public Qwen3-30B-A3B-FP8 start on an 80 GB card; the formats are model_runner.py's,
    // memory_pool.py's and scheduler.py's, cited in core/analysis/startuplog.cpp).
    void readsAnSglangLog()
    {
        const StartupLog log = readStartupLog(verbatimLog(logEntry(46)), QStringLiteral("id46.log"));
        QCOMPARE(log.engine, Engine::Sglang);
        QVERIFY(log.model.contains(QStringLiteral("models--Qwen--Qwen3-30B-A3B-FP8")));
        QCOMPARE(log.argument(QStringLiteral("mem_fraction_static")), QStringLiteral("0.83"));
        QCOMPARE(log.argument(QStringLiteral("context_length")), QStringLiteral("40960"));
        QCOMPARE(*log.freeBeforeWeightsGiB, 78.48);
        QCOMPARE(*log.freeAfterWeightsGiB, 49.33);
        QCOMPARE(*log.weightsGiB, 29.15);
        QCOMPARE(*log.kvCacheGiB, 17.99 + 17.99);
        QCOMPARE(*log.kvCacheTokens, std::int64_t(392920));
        QCOMPARE(*log.maxRunningRequests, std::int64_t(4096));
        QCOMPARE(log.argument(QStringLiteral("quantization")), QStringLiteral("fp8")); // "quant=fp8"
    }

    // A HuggingFace cache folder (".../models--Qwen--Qwen3-14B/snapshots/<hash>", entry 48) names
    // its repository, and so the preset.
    void readsTheModelFromACacheFolder()
    {
        const LogExplanation e = explain(verbatimLog(logEntry(48)));
        QCOMPARE(e.plan.modelId, QStringLiteral("qwen3-14b"));
        QVERIFY(e.assumed.contains(
            QStringLiteral("model Qwen/Qwen3-14B: the repository of the HuggingFace cache folder")));
        QCOMPARE(e.plan.tensorParallelSize, 4);
    }

    // Older and other spellings: MLA's one "KV size", "KV Cache allocated" without "is", rank
    // prefixes, --tp for --tp-size, `sglang serve`, and an excerpt's "..." between arguments.
    void readsSglangVariants()
    {
        const StartupLog mla = readStartupLog(
            QStringLiteral(
                "[2025-11-04 05:27:13 DP0 TP0 EP0] Load weight end. type=DeepseekV3ForCausalLM, "
                "dtype=torch.bfloat16, avail mem=75.11 GB, mem usage=107.07 GB.\n"
                "[2025-11-04 05:27:13 DP0 TP7 EP7] KV Cache is allocated. #tokens: 524288, KV size: "
                "17.16 GB\n"),
            QStringLiteral("mla.log"));
        QCOMPARE(mla.engine, Engine::Sglang);
        QCOMPARE(*mla.kvCacheGiB, 17.16);
        QCOMPARE(*mla.kvCacheTokens, std::int64_t(524288));
        QCOMPARE(*mla.weightsGiB, 107.07);
        QCOMPARE(mla.ranksSeen, 8);

        const StartupLog old = readStartupLog(
            QStringLiteral(
                "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2 --mem-fraction-static "
                "0.8\n"
                "[08:29:52] KV Cache allocated. #tokens: 1178703, K size: 15.74 GB, V size: 15.74 GB\n"),
            QStringLiteral("old.log"));
        QCOMPARE(old.model, QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(old.argument(QStringLiteral("tp_size")), QStringLiteral("2"));
        QCOMPARE(*old.kvCacheTokens, std::int64_t(1178703));

        const StartupLog serve = readStartupLog(
            QStringLiteral("$ sglang serve --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4\n"
                           "[2025-01-23 19:34:55] server_args=ServerArgs(model_path='ignored/second', ... "
                           "dtype='auto', kv_cache_dtype='fp8_e4m3', ... mem_fraction_static=0.88, "
                           "max_running_requests=None, tp_size=4, ...)\n"),
            QStringLiteral("serve.log"));
        QCOMPARE(serve.engine, Engine::Sglang);
        QCOMPARE(serve.model, QStringLiteral("meta-llama/Llama-3.1-8B-Instruct")); // the first statement
        QCOMPARE(serve.argument(QStringLiteral("dtype")), QStringLiteral("auto"));
        QCOMPARE(serve.argument(QStringLiteral("kv_cache_dtype")), QStringLiteral("fp8_e4m3"));
        QVERIFY(!serve.hasArgument(QStringLiteral("max_running_requests"))); // None
    }

    // SGLang's docs page (entry 45): every part within its tolerance, the pool's tokens within
    // 0.1 % (docs/validation.md: -0.02 %), SGLang's own flags in the sentences and levers.
    void explainsAnSglangLog()
    {
        const LogExplanation e = explain(verbatimLog(logEntry(45)));
        QCOMPARE(e.plan.engine, Engine::Sglang);
        QCOMPARE(e.plan.modelId, QStringLiteral("llama-3.1-8b"));
        QCOMPARE(e.plan.tensorParallelSize, 1);
        QCOMPARE(e.plan.memFractionStaticPpm, std::int64_t(880'000));
        QCOMPARE(e.plan.maxModelLen, std::int64_t(131072));
        QVERIFY2(e.disagreeing().isEmpty(), qPrintable(e.disagreeing().join(QLatin1Char(','))));
        QCOMPARE(e.components.size(), 3);
        // The weights as the two free-memory lines give them: 78.81 - 63.72 GiB.
        QCOMPARE(*e.components.at(1).loggedGiB, 78.81 - 63.72);
        QVERIFY(std::abs(double(e.plan.kv.capacityTokens) / 444500.0 - 1) < 0.001);
        QCOMPARE(*e.loggedMaxRunningRequests, std::int64_t(2049));
        QVERIFY(e.explanation.first().contains(QStringLiteral("--mem-fraction-static 0.88")));
        QVERIFY(e.explanation.first().contains(formatGiB(e.plan.kv.availableBytes)));
        QVERIFY(e.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("SGLang does not print the GPU")));
        bool fp8 = false;
        for (const KvLever &l : e.levers) {
            QVERIFY(l.tokens > e.plan.kv.capacityTokens);
            QVERIFY2(l.launch.startsWith(QStringLiteral("python -m sglang.launch_server")),
                     qPrintable(l.launch));
            if (l.changes.value(QStringLiteral("kv-cache-dtype")) == QLatin1String("fp8")) {
                fp8 = true;
                QVERIFY(l.launch.contains(QStringLiteral("--kv-cache-dtype fp8_e4m3")));
            }
        }
        QVERIFY(fp8);
        const QJsonObject json = logExplanationJson(e);
        QCOMPARE(json.value(QLatin1String("engine")).toString(), QStringLiteral("sglang"));
        QCOMPARE(json.value(QLatin1String("max_running_requests"))[QLatin1String("logged")].toInteger(),
                 2049);
        QCOMPARE(json.value(QLatin1String("inferred"))[QLatin1String("mem_fraction_static")].toDouble(),
                 0.88);
        QVERIFY(json.value(QLatin1String("inferred"))[QLatin1String("gpu_memory_utilization")].isNull());
        QVERIFY(
            json.value(QLatin1String("options")).toArray().contains(QStringLiteral("--mem-fraction-static")));
    }

    // Every SGLang log of the validation data that states the free memory plans like the
    // validation's hand-written scenario (model given where the log's is not a preset): the same
    // tensor-parallel size and fraction, and tokens within 1 % (the GPU is inferred from the free
    // memory, where the entry names it; cards of one memory size differ by under 1 %).
    void sglangPoolsOfTheirOwnAreReadAndExplained()
    {
        // SGLang logs its hybrid SWA pool (ModelRunner: "Use sliding window memory pool.
        // full_layer_tokens=F, swa_layer_tokens=S") and a recurrent model's state pool (MambaPool:
        // "Mamba Cache is allocated. max_mamba_cache_size: N, ..."); both figures are read, and the
        // explanation sets kvscope's beside them.
        const QString swa = QStringLiteral(
            "[2026-02-01 10:00:00] server_args=ServerArgs(model_path='openai/gpt-oss-120b', tp_size=4, "
            "mem_fraction_static=0.85, swa_full_tokens_ratio=0.5)\n"
            "[2026-02-01 10:00:31 TP0] Use sliding window memory pool. full_layer_tokens=2000000, "
            "swa_layer_tokens=1000000\n");
        const LogExplanation split = explain(swa, {{}, QStringLiteral("b200"), {}});
        QCOMPARE(split.log.swaPoolTokens, std::optional<std::int64_t>(1'000'000));
        QCOMPARE(split.plan.kv.swaPoolRatioPpm, 500'000);
        QVERIFY2(split.explanation.join(QLatin1Char('\n'))
                     .contains(QLatin1String("swa_layer_tokens is 1,000,000")),
                 qPrintable(split.explanation.join(QLatin1Char('\n'))));
        const QString mamba = QStringLiteral(
            "[2026-02-01 10:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-Next-80B-A3B-Instruct', "
            "tp_size=4, mem_fraction_static=0.85)\n"
            "[2026-02-01 10:00:31 TP0] Mamba Cache is allocated. max_mamba_cache_size: 705, conv_state size: "
            "0.01GB, ssm_state size: 12.67GB\n");
        const LogExplanation states = explain(mamba, {{}, QStringLiteral("h100-sxm"), {}});
        QCOMPARE(states.log.statePoolSlots, std::optional<std::int64_t>(705));
        QVERIFY(states.plan.kv.statePoolSlots > 0);
        QVERIFY2(
            states.explanation.join(QLatin1Char('\n')).contains(QLatin1String("max_mamba_cache_size is 705")),
            qPrintable(states.explanation.join(QLatin1Char('\n'))));
    }

    void sglangLogsPlanAsTheValidationDoes()
    {
        int explained = 0;
        for (const QJsonValue &value :
             validation::readLogs(test::sourceTreePath(QStringLiteral("tests/data/vllm-logs.json")))) {
            const QJsonObject entry = value.toObject();
            if (entry.value(QLatin1String("engine")).toString() != QLatin1String("SGLang"))
                continue;
            const int id = entry.value(QLatin1String("id")).toInt();
            const QString text = verbatimLog(entry);
            const StartupLog log = readStartupLog(text, QStringLiteral("id%1.log").arg(id));
            const QJsonObject kvscope = entry.value(QLatin1String("kvscope")).toObject();
            const QString preset = kvscope.value(QLatin1String("model")).toString();
            if (preset.isEmpty() || (!log.freeBeforeWeightsGiB && !log.freeAfterWeightsGiB) ||
                !log.hasArgument(QStringLiteral("mem_fraction_static")))
                continue;
            const validation::LogCheck check = validation::checkLog(entry);
            LogOverrides overrides{preset, {}, {}};
            LogExplanation e;
            try {
                e = explain(text, overrides);
            } catch (const Error &error) {
                // A context the preset does not have (QwQ-32B's 131,072 on qwen2.5-32b's 32,768):
                // the entry sets its own.
                QVERIFY2(error.message().contains(QStringLiteral("max_position_embeddings")),
                         qPrintable(error.message()));
                continue;
            }
            QCOMPARE(e.plan.tensorParallelSize, check.plan.tensorParallelSize);
            QCOMPARE(e.plan.memFractionStaticPpm, check.plan.memFractionStaticPpm);
            QVERIFY2(tokensAgree(e, check, 0.01), qPrintable(QString::number(id)));
            ++explained;
        }
        QVERIFY2(explained >= 4, qPrintable(QString::number(explained)));
    }

    // SGLang's data-parallel attention as its server arguments state it: the groups planned, the
    // logged pool one group's (max_total_num_tokens is the same on every rank).
    void explainsAnSglangLogWithAttentionGroups()
    {
        const QString text =
            QStringLiteral("python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp 4 --dp 2 "
                           "--enable-dp-attention --mem-fraction-static 0.8\n"
                           "[DP0 TP0] Load weight begin. avail mem=77.66 GB\n");
        const LogExplanation e = explain(text);
        QCOMPARE(e.plan.engine, Engine::Sglang);
        QVERIFY(e.plan.attentionDataParallel);
        QCOMPARE(e.plan.tensorParallelSize, 2); // one group's
        QCOMPARE(e.plan.dataParallelSize, 2);
        QCOMPARE(e.plan.kv.bytesPerToken, std::int64_t(49'152)); // 2 of the 4 KV heads a GPU
        QVERIFY(e.read.join(QLatin1Char('\n')).contains(QStringLiteral("enable_dp_attention = True")));
        QVERIFY(e.options.contains(QStringLiteral("enable-dp-attention")));
        // --ep (SGLang's alias of --ep-size) divides the experts over the 4 GPUs.
        const LogExplanation experts =
            explain(QString(text).replace(QStringLiteral("--dp 2 "), QStringLiteral("--dp 2 --ep 4 ")));
        QCOMPARE(experts.plan.expertParallelSize, 4);
        QCOMPARE(experts.plan.localExperts, 32);
        QCOMPARE(experts.options.value(QStringLiteral("ep-size")), QStringLiteral("4"));
        // DeepSeek's two layout flags, read from the launch line and planned.
        const LogExplanation layout = explain(QStringLiteral(
            "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V2-Lite --tp 4 --dp 2 "
            "--enable-dp-attention --enable-dp-lm-head --moe-dense-tp-size 1\n"
            "[DP0 TP0] Load weight begin. avail mem=77.66 GB\n"));
        QVERIFY(layout.plan.lmHeadByAttentionGroup);
        QVERIFY(layout.plan.denseLayerMlpsWhole);
        QCOMPARE(layout.options.value(QStringLiteral("moe-dense-tp-size")), QStringLiteral("1"));
    }

    // SGLang's drafter as its launch line states it: planned as kvscope's --speculative-config (the
    // drafter's weights and pool, the 48 running requests SGLang then defaults to), or said when not.
    void explainsAnSglangLogWithADrafter()
    {
        const QString text = QStringLiteral(
            "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
            "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
            "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
            "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 "
            "--mem-fraction-static 0.81\n"
            "[TP0] Load weight begin. avail mem=78.81 GB\n");
        const LogExplanation e = explain(text);
        QCOMPARE(e.options.value(QStringLiteral("speculative-config")),
                 QStringLiteral(R"({"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",)"
                                R"("num_speculative_tokens":3})"));
        QCOMPARE(e.plan.speculativeMethod, SpeculativeMethod::Eagle3);
        QCOMPARE(e.plan.numSpeculativeTokens, std::int64_t(3));
        QVERIFY(e.plan.kv.draftPoolBytes > 0);
        QCOMPARE(e.plan.maxNumSeqs, std::int64_t(48));
        QVERIFY(e.read.join(u'\n').contains(QStringLiteral("speculative_algorithm EAGLE3")));
        // n-gram: 4 draft tokens verified, 3 drafts; nothing on the GPU.
        const LogExplanation ngram = explain(
            QStringLiteral("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
                           "--speculative-algorithm NGRAM --speculative-num-draft-tokens 4\n"
                           "[TP0] Load weight begin. avail mem=78.81 GB\n"));
        QCOMPARE(ngram.plan.speculativeMethod, SpeculativeMethod::Ngram);
        QCOMPARE(ngram.plan.numSpeculativeTokens, std::int64_t(3));
        QCOMPARE(ngram.plan.weights.draftBytes, std::int64_t(0));
        // A draft kvscope has no config for: said, and the target planned alone.
        const LogExplanation unknown = explain(QString(text).replace(
            QStringLiteral("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"), QStringLiteral("me/my-draft")));
        QVERIFY(!unknown.options.contains(QStringLiteral("speculative-config")));
        QVERIFY2(unknown.assumed.join(u'\n').contains(QStringLiteral("the drafter is not planned")),
                 qPrintable(unknown.assumed.join(u'\n')));
    }

    void refusesWhatItCannotInferFromAnSglangLog()
    {
        const auto message = [](const QString &text, const LogOverrides &overrides = {}) {
            try {
                explain(text, overrides);
            } catch (const Error &error) {
                return error.message();
            }
            return QString();
        };
        const QString noMemory = message(
            QStringLiteral("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct\n"
                           "KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB"));
        QVERIFY2(noMemory.contains(QStringLiteral("'Load weight begin. avail mem' line); give --gpu")),
                 qPrintable(noMemory));
        QVERIFY(message(QStringLiteral("python -m sglang.launch_server --model-path "
                                       "meta-llama/Llama-3.1-8B-Instruct --pp-size 2\n"
                                       "Load weight begin. avail mem=78.81 GB"))
                    .contains(QStringLiteral("pp_size 2 (line 1)")));
        // --dp-size without the attention groups: SGLang's copies behind its router, named.
        QVERIFY(
            message(QStringLiteral("python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp 4 "
                                   "--dp 2\nLoad weight begin. avail mem=77.66 GB"))
                .contains(QStringLiteral("--enable-dp-attention")));
        QVERIFY(message(QStringLiteral("Load weight begin. avail mem=78.81 GB"))
                    .contains(QStringLiteral("give --model")));
        QVERIFY(
            message(QStringLiteral("python -m sglang.launch_server --model-path "
                                   "meta-llama/Llama-3.1-8B-Instruct\nLoad weight begin. avail mem=5.00 GB"))
                .contains(QStringLiteral("5.00 GiB free when the weights load matches no GPU preset")));
        // SGLang prints no GPU, but a MoE's start names the device in the Triton MoE config it looks for
        // (get_config_file_name,
        // python/sglang/srt/layers/moe/moe_runner/triton_utils/fused_moe_triton_config.py): that settles the
        // card even where the memory free at load would not.
        const LogExplanation named = explain(QStringLiteral(
            "python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B\n"
            "Load weight begin. avail mem=78.68 GB\n"
            "Using default MoE kernel config. Performance might be sub-optimal! Config file not found at "
            "/x/configs/triton_3_4_0/E=128,N=768,device_name=NVIDIA_H100_80GB_HBM3.json"));
        QCOMPARE(named.scenario.gpu.id, QStringLiteral("h100-sxm"));
        QVERIFY2(
            named.read.join(QLatin1Char('\n')).contains(QStringLiteral("device_name=NVIDIA_H100_80GB_HBM3")),
            qPrintable(named.read.join(QLatin1Char('\n'))));
    }

    // A start vLLM refused (vllm/v1/core/kv_cache_utils.py's ValueError) still explains what was
    // known: the KV cache memory the refusal states is the logged KV cache.
    void aRefusedStartStatesItsKvCache()
    {
        const QString text = QStringLiteral(
            "vllm serve meta-llama/Llama-3.1-8B-Instruct\n"
            "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV "
            "cache is needed, which is larger than the available KV cache memory (3.10 GiB). Based on the "
            "available memory, the estimated maximum model length is 25392.");
        const StartupLog log = readStartupLog(text, QStringLiteral("refused.log"));
        QVERIFY(log.refusedToStart);
        QVERIFY(log.kvCacheGiB.has_value());
        QCOMPARE(*log.kvCacheGiB, 3.10);
        const LogExplanation e = explain(text, {{}, QStringLiteral("l4"), {}});
        QVERIFY(!e.plan.engineStarts);
        QCOMPARE(*e.components.last().loggedGiB, 3.10);
        QVERIFY(e.explanation.join(QLatin1Char(' ')).contains(QStringLiteral("The log shows vLLM refusing")));
    }

    void aStartThatFailsAfterSizingTheCacheSaysWhy()
    {
        // jgchn/llm-d-planner's accuracy sweep (commit d3121e0, accuracy/results/v0.19.0/logs/
        // openai-gpt-oss-20b--h100-80gb--tp1pp1dp1--8192.FAILED.log; the sweep of logs 78 to 117 in
        // tests/data/vllm-logs.json), its lines quoted verbatim: gpt-oss-20b on one H100 at
        // --gpu-memory-utilization 0.95 under vLLM 0.19.0 sizes its KV cache, captures its CUDA graphs (1.84
        // GiB) and runs out of memory warming up the sampler with 1,024 dummy requests (gpu_model_runner.py:
        // "CUDA out of memory occurred when warming up sampler"). The allocation that failed, 786 MiB, is the
        // float32 logits of 1,024 requests of gpt-oss's 201,088-token vocabulary: 1,024 x 201,088 x 4 B =
        // 785.5 MiB, rounded up to PyTorch's 2 MiB. The same sweep's run at 0.90 started (log 98).
        const QString text = QStringLiteral(
            R"LOG((APIServer pid=1) INFO 04-22 00:58:25 [entrypoints/utils.py:233] non-default args: {'model_tag': 'openai/gpt-oss-20b', 'model': 'openai/gpt-oss-20b', 'max_model_len': 8192, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}
(APIServer pid=1) DEBUG 04-22 00:58:26 [engine/arg_utils.py:2232] Defaulting max_num_batched_tokens to 8192 for OPENAI_API_SERVER usage context.
(APIServer pid=1) DEBUG 04-22 00:58:26 [engine/arg_utils.py:2242] Defaulting max_num_seqs to 1024 for OPENAI_API_SERVER usage context.
(EngineCore pid=248) INFO 04-22 00:58:37 [v1/engine/core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='openai/gpt-oss-20b', speculative_config=None, tokenizer='openai/gpt-oss-20b', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=8192, download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, data_parallel_size=1, decode_context_parallel_size=1, dcp_comm_backend=ag_rs, disable_custom_all_reduce=False, quantization=mxfp4, enforce_eager=False, enable_return_routed_experts=False, kv_cache_dtype=auto, device_config=cuda, structured_outputs_config=StructuredOutputsConfig(backend='auto', disable_any_whitespace=False, disable_additional_properties=False, reasoning_parser='openai_gptoss', reasoning_parser_plugin='', enable_in_reasoning=False), observability_config=ObservabilityConfig(show_hidden_metrics_for_version=None, otlp_traces_endpoint=None, collect_detailed_traces=None, kv_cache_metrics=False, kv_cache_metrics_sample=0.01, cudagraph_metrics=False, enable_layerwise_nvtx_tracing=False, enable_mfu_metrics=False, enable_mm_processor_stats=False, enable_logging_iteration_details=False), seed=0, served_model_name=openai/gpt-oss-20b, enable_prefix_caching=False, enable_chunked_prefill=True, pooler_config=None, compilation_config={'mode': <CompilationMode.VLLM_COMPILE: 3>, 'debug_dump_path': None, 'cache_dir': '', 'compile_cache_save_format': 'binary', 'backend': 'inductor', 'custom_ops': ['none'], 'splitting_ops': ['vllm::unified_attention', 'vllm::unified_attention_with_output', 'vllm::unified_mla_attention', 'vllm::unified_mla_attention_with_output', 'vllm::mamba_mixer2', 'vllm::mamba_mixer', 'vllm::short_conv', 'vllm::linear_attention', 'vllm::plamo2_mamba_mixer', 'vllm::gdn_attention_core', 'vllm::olmo_hybrid_gdn_full_forward', 'vllm::kda_attention', 'vllm::sparse_attn_indexer', 'vllm::rocm_aiter_sparse_attn_indexer', 'vllm::unified_kv_cache_update', 'vllm::unified_mla_kv_cache_update'], 'compile_mm_encoder': False, 'cudagraph_mm_encoder': False, 'encoder_cudagraph_token_budgets': [], 'encoder_cudagraph_max_images_per_batch': 0, 'compile_sizes': [], 'compile_ranges_endpoints': [8192], 'inductor_compile_config': {'enable_auto_functionalized_v2': False, 'size_asserts': True, 'alignment_asserts': True, 'scalar_asserts': True, 'combo_kernels': True, 'benchmark_combo_kernel': True}, 'inductor_passes': {}, 'cudagraph_mode': <CUDAGraphMode.FULL_AND_PIECEWISE: (2, 1)>, 'cudagraph_num_of_warmups': 1, 'cudagraph_capture_sizes': [1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 256, 272, 288, 304, 320, 336, 352, 368, 384, 400, 416, 432, 448, 464, 480, 496, 512, 528, 544, 560, 576, 592, 608, 624, 640, 656, 672, 688, 704, 720, 736, 752, 768, 784, 800, 816, 832, 848, 864, 880, 896, 912, 928, 944, 960, 976, 992, 1008, 1024], 'cudagraph_copy_inputs': False, 'cudagraph_specialize_lora': True, 'use_inductor_graph_partition': False, 'pass_config': {'fuse_norm_quant': False, 'fuse_act_quant': False, 'fuse_attn_quant': False, 'enable_sp': False, 'fuse_gemm_comms': False, 'fuse_allreduce_rms': False}, 'max_cudagraph_capture_size': 1024, 'dynamic_shapes_config': {'type': <DynamicShapesType.BACKED: 'backed'>, 'evaluate_guards': False, 'assume_32_bit_indexing': False}, 'local_cache_dir': None, 'fast_moe_cold_start': True, 'static_all_moe_layers': []}
(EngineCore pid=248) DEBUG 04-22 00:58:38 [v1/worker/gpu_worker.py:284] worker init memory snapshot: torch_peak=0.0GiB, free_memory=78.68GiB, total_memory=79.19GiB, cuda_memory=0.51GiB, torch_memory=0.0GiB, non_torch_memory=0.51GiB, timestamp=1776819518.7695065, auto_measure=True
(EngineCore pid=248) INFO 04-22 00:58:54 [v1/worker/gpu_model_runner.py:4820] Model loading took 13.64 GiB memory and 14.749265 seconds
(EngineCore pid=248) DEBUG 04-22 00:59:16 [v1/worker/gpu_worker.py:435] Memory profiling takes 21.74 seconds. Total non KV cache memory: 16.76GiB; torch peak memory increase: 2.87GiB; non-torch forward increase memory: 0.25GiB; weights memory: 13.64GiB.
(EngineCore pid=248) INFO 04-22 00:59:16 [v1/worker/gpu_worker.py:436] Available KV cache memory: 58.47 GiB
(EngineCore pid=248) INFO 04-22 00:59:16 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 1,277,184 tokens
(EngineCore pid=248) INFO 04-22 00:59:16 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 tokens per request: 155.75x
(EngineCore pid=248) INFO 04-22 00:59:56 [v1/worker/gpu_model_runner.py:6046] Graph capturing finished in 40 secs, took 1.84 GiB
(EngineCore pid=248) DEBUG 04-22 00:59:56 [v1/worker/gpu_worker.py:661] Free memory on device (78.68/79.19 GiB) on startup. Desired GPU memory utilization is (0.95, 75.23 GiB). Actual usage is 13.64 GiB for weight, 2.87 GiB for peak activation, 0.25 GiB for non-torch memory, and 1.84 GiB for CUDAGraph memory. Replace gpu_memory_utilization config with `--kv-cache-memory=60645701632` (56.48 GiB) to fit into requested memory, or `--kv-cache-memory=64346748928` (59.93 GiB) to fully utilize gpu memory. Current kv cache memory in use is 58.47 GiB.
(EngineCore pid=248) ERROR 04-22 00:59:56 [v1/engine/core.py:1108] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 786.00 MiB. GPU 0 has a total capacity of 79.19 GiB of which 552.50 MiB is free. Including non-PyTorch memory, this process has 78.64 GiB memory in use. Of the allocated memory 74.91 GiB is allocated by PyTorch, with 626.00 MiB allocated in private pools (e.g., CUDA Graphs), and 1.78 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)
(EngineCore pid=248) ERROR 04-22 00:59:56 [v1/engine/core.py:1108] RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
)LOG");
        const StartupLog log = readStartupLog(text, QStringLiteral("failed.log"));
        QVERIFY(!log.refusedToStart);
        QVERIFY2(log.startFailure.contains(QStringLiteral("warming up sampler with 1024 dummy requests")),
                 qPrintable(log.startFailure));
        QCOMPARE(log.startFailureLine, 14);
        QCOMPARE(log.samplerWarmupRequests.value_or(0), 1024);
        QCOMPARE(log.oomRequestedMiB.value_or(0), 786.0);
        QCOMPARE(log.oomFreeMiB.value_or(0), 552.5);
        const LogExplanation e = explain(text);
        const QString why = e.explanation.join(QLatin1Char('\n'));
        QVERIFY2(why.contains(QStringLiteral("failing to start after it sized the KV cache")),
                 qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("1,024 × 201,088 × 4 B = 785.5 MiB")), qPrintable(why));
        // What the budget leaves outside it: 79.19 x (1 - 0.95); 0.51 GiB of it in use at the start.
        QVERIFY2(why.contains(QStringLiteral("3.96 GiB")) && why.contains(QStringLiteral("0.51 GiB")),
                 qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("1.84 GiB")), qPrintable(why));
        QCOMPARE(logExplanationJson(e)[QLatin1String("engine_starts")][QLatin1String("logged")].toBool(true),
                 false);
        // The table says it beside the components: the log's start failed, kvscope's plan starts.
        QStringList startsRow;
        for (const QStringList &row : logExplanationLayout(e).table)
            if (row.value(0) == QStringLiteral("Engine starts"))
                startsRow = row;
        QCOMPARE(startsRow.mid(0, 3),
                 (QStringList{QStringLiteral("Engine starts"), QStringLiteral("no"), QStringLiteral("yes")}));
        // What would hold more keeps within the memory the failed start had: neither a larger share of
        // the GPU nor the whole GPU's fixed pool, which leave even less for what comes after the cache.
        for (const KvLever &l : e.levers)
            QVERIFY2(!l.changes.contains(QStringLiteral("gpu-memory-utilization")) &&
                         !l.changes.contains(QStringLiteral("kv-cache-memory-bytes")),
                     qPrintable(l.what));
        QVERIFY(!e.levers.isEmpty());
        // A start that succeeded says no failure.
        const StartupLog started = readStartupLog(verbatimLog(logEntry(98)), QStringLiteral("ok.log"));
        QVERIFY(started.startFailure.isEmpty());
        QVERIFY(!explain(verbatimLog(logEntry(98)))
                     .explanation.join(u' ')
                     .contains(QStringLiteral("failing to start")));
    }

    void aStartWithoutRoomForTheCacheIsReadFromItsDockerLine()
    {
        // Log 68 (tests/data/vllm-logs.json): a blog's Qwen3-32B on one 95.01 GiB RTX PRO 6000 at
        // --gpu-memory-utilization 0.426 (vLLM 0.27.1; the source of logs 53 and 59): the weights alone
        // outgrow the 40.47 GiB budget, vLLM logs a negative KV memory and refuses ("No available memory for
        // the cache blocks", _check_enough_kv_cache_memory in vllm/v1/core/kv_cache_utils.py). The command is
        // the docker line whose image runs `vllm serve`, continued over two lines.
        const QString text = verbatimLog(logEntry(68));
        const StartupLog log = readStartupLog(text, QStringLiteral("refused.log"));
        QCOMPARE(log.model, QStringLiteral("Qwen/Qwen3-32B"));
        QCOMPARE(log.argument(QStringLiteral("gpu_memory_utilization")), QStringLiteral("0.426"));
        QCOMPARE(log.argument(QStringLiteral("max_model_len")), QStringLiteral("32768"));
        QVERIFY(log.refusedToStart);
        QCOMPARE(*log.kvCacheGiB, -24.42);
        const LogExplanation e = explain(text, {{}, QStringLiteral("custom:95.01"), QStringLiteral("0.27")});
        QVERIFY(!e.plan.engineStarts);
        // As the validation plans it: -23.06 GiB, 1.36 GiB above the logged -24.42 (Model Runner V2's
        // profiling peak, explained under log 68 in docs/validation.md).
        QCOMPARE(e.plan.kv.availableBytes, validation::checkLog(logEntry(68)).plan.kv.availableBytes);
        QVERIFY(e.disagreeing().contains(QStringLiteral("kv_cache")));
        QVERIFY(e.explanation.join(QLatin1Char(' ')).contains(QStringLiteral("The log shows vLLM refusing")));
    }

    void explainsAPipelineLog()
    {
        // vLLM 0.21.0 serving Qwen3-32B-GPTQ over three RTX 2080 Ti (log 52 of
        // tests/data/vllm-logs.json, public source there): Worker_PP1's CUDA-graph line comes
        // before the first stage's, and only the first stage prints its available memory.
        const QString log = QStringLiteral(
            "(APIServer pid=4567) INFO 06-27 12:29:39 [utils.py:240] non-default args: {'model_tag': "
            "'/opt/models/Qwen3-32B-GPTQ', 'model': '/opt/models/Qwen3-32B-GPTQ', 'dtype': 'float16', "
            "'max_model_len': 16384, 'quantization': 'gptq_marlin', 'pipeline_parallel_size': 3, "
            "'gpu_memory_utilization': 0.9, 'max_num_seqs': 64}\n"
            "(Worker_PP2 pid=4619) INFO 06-27 12:29:56 [utils.py:130] Hidden layers were unevenly "
            "partitioned: "
            "[21,22,21].\n"
            "(Worker_PP0 pid=4617) INFO 06-27 12:30:08 [gpu_model_runner.py:4959] Model loading took 6.45 "
            "GiB "
            "memory and 11.637010 seconds\n"
            "(Worker_PP1 pid=4618) INFO 06-27 12:30:38 [gpu_model_runner.py:6142] Estimated CUDA graph "
            "memory: "
            "0.61 GiB total\n"
            "(Worker_PP0 pid=4617) INFO 06-27 12:30:38 [gpu_model_runner.py:6142] Estimated CUDA graph "
            "memory: "
            "0.50 GiB total\n"
            "(Worker_PP0 pid=4617) INFO 06-27 12:30:39 [gpu_worker.py:462] Available KV cache memory: 10.89 "
            "GiB\n"
            "(EngineCore pid=4594) INFO 06-27 12:30:47 [kv_cache_utils.py:1710] GPU KV cache size: 135,904 "
            "tokens\n");
        const StartupLog read = readStartupLog(log, QStringLiteral("test.log"));
        QCOMPARE(read.stagesSeen, 3);
        // The first stage's figure, not Worker_PP1's earlier one (changed here to 0.61 to tell them apart).
        QCOMPARE(read.cudaGraphEstimateGiB.value_or(0), 0.50);
        const LogExplanation e =
            explain(log, {QStringLiteral("qwen3-32b"), QStringLiteral("custom:21.46"), {}});
        QCOMPARE(e.plan.pipelineParallelSize, 3);
        QCOMPARE(e.plan.pipelineStages.size(), 3);
        // The components compare the first stage's figures: its weights (6.45 GiB logged) agree.
        const auto weights =
            std::find_if(e.components.cbegin(), e.components.cend(),
                         [](const LogComponent &c) { return c.key == QLatin1String("weights"); });
        QVERIFY(weights != e.components.cend());
        QCOMPARE(weights->predictedBytes, e.plan.pipelineStages.constFirst().weightBytes);
        QVERIFY(weights->agrees());
        QVERIFY(
            e.explanation.join(QLatin1Char(' ')).contains(QStringLiteral("Each of the 3 pipeline stages")));
        QVERIFY(e.options.value(QStringLiteral("pipeline-parallel-size")) == QLatin1String("3"));
    }

    void countsTensorParallelRanksOfExpertParallelWorkers()
    {
        // Under --enable-expert-parallel vLLM's workers are Worker_TP<n>_EP<n> (a public Qwen3-235B
        // deployment at TP 8 with EP, vLLM 0.11, printed these two lines among eight).
        const StartupLog log = readStartupLog(
            QStringLiteral(
                "(Worker_TP0_EP0 pid=8092) INFO 09-29 11:34:04 [gpu_worker.py:298] Available KV cache "
                "memory: 11.55 GiB\n"
                "(Worker_TP1_EP1 pid=8093) INFO 09-29 11:34:04 [gpu_worker.py:298] Available KV cache "
                "memory: 11.51 GiB\n"),
            QStringLiteral("ep.log"));
        QCOMPARE(log.ranksSeen, 2);
        QCOMPARE(log.kvCacheGiB.value_or(0), 11.55); // the first rank's
    }

    void readsDataAndExpertParallelism()
    {
        // vLLM prints its non-default args as a Python dict (vllm/entrypoints/utils.py): a switch
        // as True. Each data-parallel rank's lines carry an EngineCore_DP<n> prefix.
        const QString log = QStringLiteral(
            "(APIServer pid=1) INFO 09-29 11:30:00 [utils.py:233] non-default args: {'model': "
            "'Qwen/Qwen3-30B-A3B', 'max_model_len': 32768, 'data_parallel_size': 2, "
            "'enable_expert_parallel': True}\n"
            "(EngineCore_DP0 pid=2) INFO 09-29 11:34:06 [kv_cache_utils.py:864] GPU KV cache size: "
            "257,664 tokens\n");
        const LogExplanation e = explain(log, {{}, QStringLiteral("h100-sxm"), {}});
        QCOMPARE(e.plan.dataParallelSize, 2);
        QCOMPARE(e.plan.expertParallelSize, 2);
        QCOMPARE(e.plan.localExperts, 64);
        QCOMPARE(e.options.value(QStringLiteral("data-parallel-size")), QStringLiteral("2"));
        QCOMPARE(e.options.value(QStringLiteral("enable-expert-parallel")).toLower(), QStringLiteral("true"));
    }

    void readsTheMemoryLineOfTenTwoAndLater()
    {
        // vLLM 0.10.2 (vllm-project/vllm#21489) prints the worker's memory at INFO once the graphs are
        // captured: the GPU's total and the weights, profiling peak, non-torch and CUDA-graph memory
        // (vllm/v1/worker/gpu_worker.py). Log 56 of the validation data (tests/data/vllm-logs.json): its
        // GPU total is read from that line, so no --gpu is needed.
        const QString line = QStringLiteral(
            "(Worker_TP0_EP0 pid=2078) INFO 09-24 20:54:36 [gpu_worker.py:391] Free memory on device "
            "(43.93/44.42 GiB) on startup. Desired GPU memory utilization is (0.9, 39.98 GiB). Actual usage "
            "is "
            "27.72 GiB for weight, 1.4 GiB for peak activation, 0.18 GiB for non-torch memory, and 3.45 GiB "
            "for CUDAGraph memory. Replace gpu_memory_utilization config with `--kv-cache-memory=7606321868` "
            "to "
            "fit into requested memory, or `--kv-cache-memory=11851036160` to fully utilize gpu memory. "
            "Current "
            "kv cache memory in use is 11465081548 bytes.\n");
        const StartupLog log = readStartupLog(line, QStringLiteral("free.log"));
        QCOMPARE(log.totalGpuMemoryGiB.value_or(0), 44.42);
        QCOMPARE(log.activationPeakGiB.value_or(0), 1.4);
        QCOMPARE(log.nonTorchGiB.value_or(0), 0.18);
        // The whole log, with the preset for its FP8 refresh of Qwen3-235B-A22B: 44.42 GiB is no preset's
        // total. Drivers and ECC move a card's total by a few tenths of a GiB, so the nearest preset within
        // half a percent is planned with the log's total and named, with the others that near: the RTX 6000
        // Ada's 44.43 GiB, then the L40S's 44.52 (the card this log ran on, which --gpu l40s:44.42 names).
        for (const QJsonValue &value :
             validation::readLogs(test::sourceTreePath(QStringLiteral("tests/data/vllm-logs.json")))) {
            const QJsonObject entry = value.toObject();
            if (entry.value(QLatin1String("id")).toInt() != 56)
                continue;
            // The post pasted an nvidia-smi table under it, whose row names the card: that settles it.
            const QString posted = verbatimLog(entry);
            const LogExplanation bySmi = explain(posted, {QStringLiteral("qwen3-235b-a22b"), {}, {}});
            QCOMPARE(bySmi.scenario.gpu.id, QStringLiteral("l40s:44.42"));
            QVERIFY2(bySmi.read.join(QLatin1Char('\n')).contains(QStringLiteral("nvidia-smi NVIDIA L40S")),
                     qPrintable(bySmi.read.join(QLatin1Char('\n'))));
            // Without the table, the memory alone.
            QStringList lines = posted.split(QLatin1Char('\n'));
            lines.removeIf([](const QString &line) { return line.contains(QLatin1String("NVIDIA L40S")); });
            const QString text = lines.join(QLatin1Char('\n'));
            const LogExplanation nearest = explain(text, {QStringLiteral("qwen3-235b-a22b"), {}, {}});
            QCOMPARE(nearest.scenario.gpu.id, QStringLiteral("rtx-6000-ada:44.42"));
            QCOMPARE(nearest.plan.gpuMemoryBytes, std::int64_t(44'420'000) * GiB / 1'000'000);
            const QString assumed = nearest.assumed.join(QLatin1Char('\n'));
            QVERIFY2(assumed.contains(QStringLiteral("44.43")) && assumed.contains(QStringLiteral("l40s")),
                     qPrintable(assumed));
            // A MoE's start names the device in the fused-MoE config file it looks for
            // (get_config_file_name, vllm/model_executor/layers/fused_moe/fused_moe.py: the device name with
            // underscores for spaces): that settles the card, here the L40S the log ran on.
            const QString named =
                text +
                QStringLiteral("\n(Worker_TP0_EP0 pid=2078) WARNING 09-24 20:53:10 [fused_moe.py:727] Using "
                               "default MoE config. Performance might be sub-optimal! Config file not found "
                               "at ['/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/"
                               "fused_moe/configs/E=16,N=1536,device_name=NVIDIA_L40S,dtype=fp8_w8a8,"
                               "block_shape=[128,128].json']");
            const LogExplanation byName = explain(named, {QStringLiteral("qwen3-235b-a22b"), {}, {}});
            QCOMPARE(byName.scenario.gpu.id, QStringLiteral("l40s:44.42"));
            QVERIFY2(byName.read.join(QLatin1Char('\n')).contains(QStringLiteral("device_name=NVIDIA_L40S")),
                     qPrintable(byName.read.join(QLatin1Char('\n'))));
            const LogExplanation e =
                explain(text, {QStringLiteral("qwen3-235b-a22b"), QStringLiteral("l40s:44.42"), {}});
            // Calibrating from it measures the L40S: later plans on the l40s preset take its figures.
            Scenario onPreset = e.scenario;
            onPreset.gpu = resolveGpu(QStringLiteral("l40s"));
            QVERIFY(measuredMemory(e, QDate(2026, 12, 5)).appliesTo(onPreset));
            QCOMPARE(e.plan.expertParallelSize, 8);
            QCOMPARE(e.plan.tensorParallelSize, 8);
            QHash<QString, double> logged;
            for (const LogComponent &c : e.components)
                logged.insert(c.key, c.loggedGiB.value_or(-1));
            QCOMPARE(logged.value(QStringLiteral("activation_peak")), 1.4);
            QCOMPARE(logged.value(QStringLiteral("non_torch")), 0.18);
            return;
        }
        QFAIL("log 56 is not in the validation data");
    }

    void readsTheBannerAndMemoryLineOfLaterReleases()
    {
        // vLLM 0.27.1 names its release in the API server's banner (api_utils.py, "version 0.27.1" beside the
        // block-letter logo) and prints the worker's memory at INFO with weights and non-torch memory as one
        // figure ("consumed memory (weights + non-torch)", gpu_worker.py:789). Lines of a start of
        // Qwen2.5-0.5B-Instruct on an RTX 4090 under WSL2 (github.com/enginrect/llmso,
        // labs/environment-setup.md, attempt 7; tests/data/vllm-logs.json log 69).
        const QString text = QStringLiteral(
            "(APIServer pid=14678) INFO 08-22 20:24:59 [api_utils.py:345]  ▄▄ ▄█ █     █     █ ▀▄▀ █  "
            "version 0.27.1\n"
            "(APIServer pid=14678) INFO 08-22 20:24:59 [api_utils.py:273] non-default args: {'model_tag': "
            "'Qwen/Qwen2.5-0.5B-Instruct', 'model': 'Qwen/Qwen2.5-0.5B-Instruct', 'max_model_len': 2048, "
            "'gpu_memory_utilization': 0.85}\n"
            "(EngineCore pid=14790) INFO 08-22 20:25:12 [model_runner.py:329] Model loading took 0.93 GiB "
            "and "
            "2.060686 seconds\n"
            "(EngineCore pid=14790) INFO 08-22 20:25:13 [gpu_worker.py:563] Available KV cache memory: 19.06 "
            "GiB\n"
            "(EngineCore pid=14790) INFO 08-22 20:25:13 [kv_cache_utils.py:2235] GPU KV cache size: "
            "1,665,392 "
            "tokens\n"
            "(EngineCore pid=14790) INFO 08-22 20:25:15 [gpu_worker.py:789] Free memory on device "
            "(22.45/23.99 GiB) on startup. Desired GPU memory utilization is (0.85, 20.39 GiB). Actual usage "
            "is 1.25 GiB for consumed memory (weights + non-torch), 0.08 GiB for peak activation, and 0.28 "
            "GiB "
            "for CUDAGraph memory. Replace gpu_memory_utilization config with "
            "`--kv-cache-memory=20002824090` "
            "(18.63 GiB) to fit into requested memory, or `--kv-cache-memory=22214297088` (20.69 GiB) to "
            "fully "
            "utilize gpu memory. Current kv cache memory in use is 19.06 GiB.\n");
        const StartupLog log = readStartupLog(text, QStringLiteral("banner.log"));
        QCOMPARE(log.vllmVersion, QStringLiteral("0.27.1"));
        QCOMPARE(log.totalGpuMemoryGiB.value_or(0), 23.99);
        QCOMPARE(log.activationPeakGiB.value_or(0), 0.08);
        // 1.25 - 0.93: the weights' two decimals leave the non-torch memory within 0.01.
        QVERIFY(std::abs(log.nonTorchGiB.value_or(0) - 0.32) < 1e-9);
        // The card's total under WSL2 is its whole 24,564 MiB (the rtx-4090 preset's 23.64 GiB is what CUDA
        // reports on Linux): the preset whose nvidia-smi total prints as the log's, with the log's total.
        const LogExplanation e = explain(text);
        QCOMPARE(e.scenario.gpu.id, QStringLiteral("rtx-4090:23.99"));
        QVERIFY2(e.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("24564 MiB")),
                 qPrintable(e.assumed.join(QLatin1Char('\n'))));
        QCOMPARE(e.plan.engineVersion, QStringLiteral("0.25"));
        QCOMPARE(e.plan.gpuMemoryBytes, std::int64_t(23'990'000) * GiB / 1'000'000);
        // The logged 0.08 GiB peak is a warm start's on Model Runner V2; these lines do not say whether the
        // compile cache was warm, so kvscope plans a cold start (V1's sampler term) and names V2's own peak
        // beside it: the larger of Qwen2.5-0.5B's forward pass over 2,048 tokens, 2,048 x (896 + 3 x 4,864)
        // x 2 B = 63,438,848 B, and the sampler's 256 rows of 151,936 logits in bfloat16 with their float32
        // copy and the hidden states, 256 x 151,936 x 6 + 2,048 x 896 x 2 = 237,043,712 B.
        const std::int64_t warm = std::int64_t(256) * 151'936 * 6 + std::int64_t(2048) * 896 * 2;
        QVERIFY(!e.plan.warmCompileCache);
        const QString peak = e.explanation.filter(QStringLiteral("Activation peak")).join(QLatin1Char('\n'));
        QVERIFY2(
            peak.contains(QStringLiteral("Model Runner V2")) &&
                peak.contains(QStringLiteral("V2's own peak, %1 here (--compile-cache warm: the KV cache "
                                             "would be %2 larger)")
                                  .arg(formatGiB(warm), formatGiB(e.plan.activationBytes - warm))),
            qPrintable(peak));
        // The line's own advice, a fixed pool that fills the GPU, is a way to a larger cache: 22,214,297,088
        // B of 12,288 B tokens in whole blocks of 16, 1,807,792 tokens.
        const auto whole = std::find_if(e.levers.cbegin(), e.levers.cend(), [](const KvLever &l) {
            return l.what.contains(QStringLiteral("--kv-cache-memory-bytes 22214297088"));
        });
        QVERIFY2(whole != e.levers.cend(),
                 qPrintable(e.levers.isEmpty() ? QString() : e.levers.first().what));
        QCOMPARE(whole->tokens, std::int64_t(22'214'297'088) / (12'288 * 16) * 16);
        // Other processes held 1.54 GiB when vLLM started (22.45 of 23.99 GiB free), and vLLM refuses a
        // budget beyond the free memory (request_memory, vllm/v1/worker/utils.py): the larger share it offers
        // is the most that fits, 0.93, not 0.95.
        QCOMPARE(log.freeAtStartupGiB.value_or(0), 22.45);
        QStringList utilizations;
        for (const KvLever &l : e.levers)
            if (l.changes.contains(QStringLiteral("gpu-memory-utilization")))
                utilizations << l.changes.value(QStringLiteral("gpu-memory-utilization"));
        QCOMPARE(utilizations, QStringList{QStringLiteral("0.93")});
        // The graphs captured after the cache was sized ("Graph capturing finished in 2 secs, took 0.28 GiB",
        // model_runner.py) lie beyond the budget on Model Runner V2 before 0.29, which reserves none for
        // them.
        const QString captured =
            text + QStringLiteral("(EngineCore pid=14790) INFO 08-22 20:25:15 "
                                  "[model_runner.py:791] Graph capturing finished in 2 secs, "
                                  "took 0.28 GiB\n");
        const LogExplanation g = explain(captured, {QString(), QStringLiteral("rtx-4090:23.99"), QString()});
        const QString why = g.explanation.join(QLatin1Char('\n'));
        QVERIFY2(why.contains(QStringLiteral("0.28 GiB")) && why.contains(QStringLiteral("beyond")),
                 qPrintable(why));
    }

    void aTokenBudgetPastTheForwardPassesRangeStillExplains()
    {
        // Qwen2.5-0.5B on Model Runner V2 with 3 x 10^14 batched tokens: the plan's activation term (the
        // hidden states, 896 x 2 B a token) fits in 2^63 bytes, the forward pass's (with the MLP's 3 x 4,864
        // more) does not. The V2 peak beside the forward pass is left out; the rest is explained, not
        // refused.
        const QString text = QStringLiteral(
            "(APIServer pid=1) INFO 08-22 20:24:59 [api_utils.py:273] non-default args: {'model': "
            "'Qwen/Qwen2.5-0.5B-Instruct', 'max_model_len': 2048, 'gpu_memory_utilization': 0.85, "
            "'max_num_batched_tokens': 300000000000000}\n"
            "(EngineCore pid=2) INFO 08-22 20:25:12 [model_runner.py:329] Model loading took 0.93 GiB and "
            "2.06 seconds\n"
            "(EngineCore pid=2) INFO 08-22 20:25:13 [gpu_worker.py:563] Available KV cache memory: 19.06 "
            "GiB\n"
            "(EngineCore pid=2) INFO 08-22 20:25:15 [gpu_worker.py:789] Free memory on device (22.45/23.99 "
            "GiB) "
            "on startup. Desired GPU memory utilization is (0.85, 20.39 GiB). Actual usage is 1.25 GiB for "
            "consumed memory (weights + non-torch), 0.08 GiB for peak activation, and 0.28 GiB for CUDAGraph "
            "memory. Current kv cache memory in use is 19.06 GiB.\n");
        LogExplanation e;
        QString failure;
        try {
            e = explain(text, {QString(), QStringLiteral("rtx-4090:23.99"), QStringLiteral("0.27.1")});
        } catch (const Error &error) {
            failure = error.message();
        }
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(e.plan.modelRunnerV2);
        QVERIFY(!e.explanation.filter(QStringLiteral("Activation peak")).isEmpty());
        QVERIFY(!e.explanation.isEmpty());
    }

    void aStartRefusedForOtherProcessesSaysHowMuchFits()
    {
        // vLLM refuses a budget beyond the memory free at start-up (request_memory, vllm/v1/worker/utils.py:
        // "Free memory on device {device} ({free}/{total} GiB) on startup is less than desired GPU memory
        // utilization ({util}, {requested} GiB). Decrease GPU memory utilization or reduce GPU memory used by
        // other processes."). A hand-made excerpt of that refusal on an RTX 4090 under WSL2 at 0.95.
        const QString text = QStringLiteral(
            "(APIServer pid=1) INFO [api_utils.py:273] non-default args: {'model': "
            "'Qwen/Qwen2.5-0.5B-Instruct', "
            "'max_model_len': 2048, 'gpu_memory_utilization': 0.95}\n"
            "(EngineCore pid=7) ERROR [core.py:1349] ValueError: Free memory on device cuda:0 (22.45/23.99 "
            "GiB) "
            "on startup is less than desired GPU memory utilization (0.95, 22.79 GiB). Decrease GPU memory "
            "utilization or reduce GPU memory used by other processes.\n");
        const StartupLog log = readStartupLog(text, QStringLiteral("refused.log"));
        QVERIFY(log.refusedToStart);
        QCOMPARE(log.freeAtStartupGiB.value_or(0), 22.45);
        QCOMPARE(log.totalGpuMemoryGiB.value_or(0), 23.99);
        const LogExplanation e = explain(text);
        const QString why = e.explanation.join(QLatin1Char('\n'));
        QVERIFY2(why.contains(QStringLiteral("1.54 GiB")) && why.contains(QStringLiteral("0.93")),
                 qPrintable(why));
        QStringList utilizations;
        for (const KvLever &l : e.levers)
            if (l.changes.contains(QStringLiteral("gpu-memory-utilization")))
                utilizations << l.changes.value(QStringLiteral("gpu-memory-utilization"));
        QVERIFY2(!utilizations.contains(QStringLiteral("0.95")), qPrintable(utilizations.join(u' ')));
    }

    void aFreeMemoryBeyondTheTotalIsNotUsed()
    {
        // A damaged snapshot line (found by the start-up log fuzzer): 3 x 10^102 GiB free of a 79.09 GiB
        // card. The explanation said that much was free, "-3 x 10^102 GiB were in use" and that vLLM could
        // take a share of 0.00, and cast the share to an integer out of range. Free memory beyond the total
        // says nothing about this card: it is set aside, and the explanation says so.
        const QString text =
            QStringLiteral("(APIServer pid=1) INFO [api_utils.py:273] non-default args: {'model': "
                           "'Qwen/Qwen2.5-0.5B-Instruct', 'max_model_len': 2048}\n"
                           "(EngineCore pid=7) DEBUG [gpu_worker.py:284] worker init memory snapshot: "
                           "torch_peak=0.0GiB, "
                           "free_memory=3%1GiB, total_memory=79.09GiB\n")
                .arg(QString(100, QLatin1Char('0')));
        const LogExplanation e = explain(text);
        const QString why = e.explanation.join(QLatin1Char('\n'));
        QVERIFY2(!why.contains(QStringLiteral("were free")), qPrintable(why));
        QVERIFY2(e.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("free_memory")),
                 qPrintable(e.assumed.join(QLatin1Char('\n'))));
        for (const KvLever &l : e.levers)
            QVERIFY2(l.changes.value(QStringLiteral("gpu-memory-utilization")) != QStringLiteral("0.00"),
                     qPrintable(l.what));
    }

    void saysWhetherTheStartCompiledTheModel()
    {
        // A first start compiles the model during the profiling run and holds more memory there than a start
        // that loads the compiled graphs from vLLM's cache (logs 69 and 70: 0.41 GiB on Qwen2.5-0.5B). vLLM
        // says which (vllm/compilation/backends.py: "Compiling a graph for compile range %s takes %.2f s",
        // "Directly load the compiled graph(s) for compile range %s from the cache, took %.3f s";
        // decorators.py: "Directly load AOT compilation from path %s").
        const QString head = QStringLiteral(
            "(APIServer pid=1) INFO [api_utils.py:273] non-default args: {'model': "
            "'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192}\n"
            "(EngineCore pid=7) INFO [gpu_model_runner.py:4959] Model loading took 14.99 GiB memory and 5.0 "
            "seconds\n");
        const QString compiled =
            head + QStringLiteral("(EngineCore pid=7) INFO [backends.py:393] Compiling a "
                                  "graph for compile range (1, 8192) takes 21.35 s\n");
        const QString cached =
            head +
            QStringLiteral("(EngineCore pid=7) INFO [backends.py:292] Directly load the compiled graph(s) "
                           "for compile range (1, 8192) from the cache, took 2.113 s\n");
        const LogOverrides h100{QString(), QStringLiteral("h100-sxm"), QStringLiteral("0.21")};
        const QString first = explain(compiled, h100).explanation.join(QLatin1Char('\n'));
        QVERIFY2(first.contains(QStringLiteral("compiled the model (line 3)")) &&
                     first.contains(QStringLiteral("69 and 70")),
                 qPrintable(first));
        const QString warm = explain(cached, h100).explanation.join(QLatin1Char('\n'));
        QVERIFY2(warm.contains(QStringLiteral("from vLLM's compile cache (line 3)")), qPrintable(warm));
        QVERIFY(!explain(head, h100).explanation.join(QLatin1Char('\n')).contains(QStringLiteral("compile")));
    }

    void readsTheExpertLoadBalancer()
    {
        // vLLM's non-default args print --eplb-config as the dict it parsed; releases before 0.11 took
        // --num-redundant-experts and --eplb-window-size as flags of their own.
        const QString log = QStringLiteral(
            "(APIServer pid=1) INFO 11-02 10:00:00 [utils.py:233] non-default args: {'model': "
            "'Qwen/Qwen3-30B-A3B', 'max_model_len': 32768, 'tensor_parallel_size': 4, "
            "'enable_expert_parallel': True, 'enable_eplb': True, 'eplb_config': {'window_size': 100, "
            "'num_redundant_experts': 8, 'log_balancedness': False}}\n");
        const LogExplanation e = explain(log, {{}, QStringLiteral("h100-sxm"), {}});
        QVERIFY(e.scenario.enableEplb);
        QCOMPARE(e.scenario.eplb.numRedundantExperts, std::int64_t(8));
        QCOMPARE(e.scenario.eplb.windowSize, std::int64_t(100));
        QCOMPARE(e.plan.localExperts, (128 + 8) / 4);
        QCOMPARE(e.options.value(QStringLiteral("eplb-config")),
                 QStringLiteral(R"({"window_size": 100, "num_redundant_experts": 8})"));

        const LogExplanation older = explain(
            QStringLiteral("vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 4 --enable-expert-parallel "
                           "--enable-eplb --num-redundant-experts 4\n"),
            {{}, QStringLiteral("h100-sxm"), {}});
        QCOMPARE(older.scenario.eplb.numRedundantExperts, std::int64_t(4));
        QCOMPARE(older.plan.localExperts, (128 + 4) / 4);

        // A value vLLM itself would refuse is said, and the balancer planned without it.
        const LogExplanation odd = explain(
            QStringLiteral("vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 4 --enable-expert-parallel "
                           "--enable-eplb --eplb-config '{\"num_redundant_experts\": -2}'\n"),
            {{}, QStringLiteral("h100-sxm"), {}});
        QCOMPARE(odd.scenario.eplb.numRedundantExperts, std::int64_t(0));
        QVERIFY2(odd.assumed.join(QLatin1Char('\n')).contains(QStringLiteral("num_redundant_experts")),
                 qPrintable(odd.assumed.join(QLatin1Char('\n'))));
    }

    void refusesWhatItCannotInfer()
    {
        const auto message = [](const QString &text, const LogOverrides &overrides = {}) {
            try {
                explain(text, overrides);
            } catch (const Error &error) {
                return error.message();
            }
            return QString();
        };
        QVERIFY(message(QStringLiteral("Available KV cache memory: 3.00 GiB"))
                    .startsWith(QStringLiteral("test.log: the log names no model")));
        const QString oddMemory =
            message(QStringLiteral("vllm serve meta-llama/Llama-3.1-8B-Instruct\nworker init memory "
                                   "snapshot: total_memory=12.34GiB"));
        QVERIFY2(
            oddMemory.contains(QStringLiteral("total_memory=12.34GiB matches no GPU preset; give --gpu")),
            qPrintable(oddMemory));
        QVERIFY(message(QStringLiteral("vllm serve meta-llama/Llama-3.1-8B-Instruct"))
                    .contains(QStringLiteral("give --gpu")));
        // A log that names its device needs no memory line: the preset's total, said among the assumptions.
        const LogExplanation named =
            explain(QStringLiteral("vllm serve Qwen/Qwen3-30B-A3B\nWARNING [fused_moe.py:888] Using default "
                                   "MoE config. Performance might "
                                   "be sub-optimal! Config file not found at "
                                   "/x/configs/E=128,N=768,device_name=NVIDIA_H100_80GB_HBM3.json"));
        QCOMPARE(named.scenario.gpu.id, QStringLiteral("h100-sxm"));
        QVERIFY2(named.assumed.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("device_name=NVIDIA_H100_80GB_HBM3")),
                 qPrintable(named.assumed.join(QLatin1Char('\n'))));
        // A device no preset is: the memory decides, as before.
        QVERIFY(
            message(QStringLiteral(
                        "vllm serve meta-llama/Llama-3.1-8B-Instruct\n/x/E=8,device_name=NVIDIA_H20.json"))
                .contains(QStringLiteral("give --gpu")));
        // A pipeline the planner cannot lay out is refused as calc refuses it.
        QVERIFY(
            message(QStringLiteral("vllm serve meta-llama/Llama-3.1-8B-Instruct --pipeline-parallel-size 64"),
                    {{}, QStringLiteral("h100-sxm"), {}})
                .contains(QStringLiteral("--pipeline-parallel-size 64: more stages than")));
        // A value the planner refuses is named as calc would name it, after the log.
        QVERIFY(message(QStringLiteral("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len -5"),
                        {{}, QStringLiteral("h100-sxm"), {}})
                    .startsWith(QStringLiteral("test.log: --max-model-len")));
        // The user's --gpu settles a memory no preset has.
        QCOMPARE(message(QStringLiteral("vllm serve meta-llama/Llama-3.1-8B-Instruct\nworker init memory "
                                        "snapshot: total_memory=12.34GiB"),
                         {{}, QStringLiteral("custom:12.34"), {}}),
                 QString());
    }
};

QTEST_GUILESS_MAIN(TestLogExplanation)
#include "tst_logexplanation.moc"
