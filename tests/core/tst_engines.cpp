// SPDX-License-Identifier: MIT
// --engine and --vllm-version: the version profiles (core/plan/engine.h), what each
// changes in a plan, SGLang's pool, the option mapping and the launch lines.
// Each expected figure is computed here from the source the profile cites.
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/engine/runtime.h"
#include "core/engine/sglang.h"
#include "core/library/library.h"
#include "core/model/inventory.h"
#include "core/output/planjson.h"
#include "core/plan/cudagraphmemory.h"
#include "core/plan/planner.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"
#include "core/scenario/speculativeconfig.h"
#include "tests/testsupport.h"

#include <functional>

#include <QJsonObject>
#include <QTest>

using namespace kvscope;

namespace {

Scenario scenario(const QString &model, const QString &gpu = QStringLiteral("h100-sxm"),
                  const QString &version = {})
{
    Scenario s;
    s.model = resolveModel(model);
    s.gpu = resolveGpu(gpu);
    s.vllmVersion = version;
    return s;
}

/// `model` under SGLang on one H100 at --mem-fraction-static 0.9.
Scenario sglangAtNinetyPercent(const QString &model, std::int64_t maxModelLen)
{
    Scenario s = scenario(model);
    s.engine = Engine::Sglang;
    s.memFractionStaticPpm = 900'000;
    s.maxModelLen = maxModelLen;
    return s;
}

/// What SGLang's pool gets there (profile_max_num_token): rest = 0.9 x total - weights, where total is
/// what is free after the CUDA context (nvidia-smi's 81,090 MiB less 0.51 GiB).
std::int64_t sglangRestAtNinetyPercent(const MemoryPlan &plan)
{
    const std::int64_t total = 81090 * MiB - GiB * 51 / 100;
    return total * 9 / 10 - plan.weights.bytesPerGpu;
}

QString errorOf(const std::function<void()> &run)
{
    try {
        run();
    } catch (const Error &error) {
        return error.message();
    }
    return {};
}

} // namespace

class TestEngines : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void versionsResolveToTheNearestProfileAtOrBelow_data()
    {
        QTest::addColumn<QString>("requested");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<bool>("newer");
        QTest::newRow("default") << QString() << QStringLiteral("0.29") << false;
        QTest::newRow("0.10") << QStringLiteral("0.10") << QStringLiteral("0.10") << false;
        QTest::newRow("0.10.1.1") << QStringLiteral("0.10.1.1") << QStringLiteral("0.10.1") << false;
        QTest::newRow("0.10.2") << QStringLiteral("0.10.2") << QStringLiteral("0.10.2") << false;
        QTest::newRow("0.11.2") << QStringLiteral("0.11.2") << QStringLiteral("0.11") << false;
        QTest::newRow("0.12") << QStringLiteral("0.12") << QStringLiteral("0.12") << false;
        QTest::newRow("0.14") << QStringLiteral("0.14") << QStringLiteral("0.12") << false;
        QTest::newRow("0.16.2") << QStringLiteral("0.16.2") << QStringLiteral("0.16") << false;
        QTest::newRow("v0.17.1") << QStringLiteral("v0.17.1") << QStringLiteral("0.17") << false;
        QTest::newRow("0.19.0") << QStringLiteral("0.19.0") << QStringLiteral("0.19") << false;
        QTest::newRow("0.18.1") << QStringLiteral("0.18.1") << QStringLiteral("0.17") << false;
        QTest::newRow("0.20.2") << QStringLiteral("0.20.2") << QStringLiteral("0.20") << false;
        QTest::newRow("0.21.3") << QStringLiteral("0.21.3") << QStringLiteral("0.21") << false;
        QTest::newRow("0.22.1") << QStringLiteral("0.22.1") << QStringLiteral("0.22") << false;
        QTest::newRow("0.27.1") << QStringLiteral("0.27.1") << QStringLiteral("0.25") << false;
        QTest::newRow("0.29.2") << QStringLiteral("0.29.2") << QStringLiteral("0.29") << false;
        QTest::newRow("1.0") << QStringLiteral("1.0") << QStringLiteral("0.29") << true;
        // PEP 440's suffixes as vLLM builds print them: a vendor's local build (Red Hat's
        // "Initializing a V1 LLM engine (v0.18.0+rhaiv.14)"), a CUDA-tagged wheel, a nightly.
        QTest::newRow("local build") << QStringLiteral("0.18.0+rhaiv.14") << QStringLiteral("0.17") << false;
        QTest::newRow("cuda wheel") << QStringLiteral("0.19.1+cu128") << QStringLiteral("0.19") << false;
        QTest::newRow("nightly") << QStringLiteral("0.11.1rc2.dev45+g7d5f2a1") << QStringLiteral("0.11")
                                 << false;
        QTest::newRow("post release") << QStringLiteral("0.10.1.post1") << QStringLiteral("0.10.1") << false;
    }

    void versionsResolveToTheNearestProfileAtOrBelow()
    {
        QFETCH(QString, requested);
        QFETCH(QString, profile);
        QFETCH(bool, newer);
        const VllmVersionChoice choice = resolveVllmVersion(requested);
        QCOMPARE(choice.profile->since.text(), profile);
        QCOMPARE(choice.newerThanModelled, newer);
    }

    void profilesAreOrderedAndTheDefaultIsTheNewest()
    {
        const QList<VllmProfile> &profiles = vllmProfiles();
        QCOMPARE(profiles.constFirst().since, OldestVllmVersion);
        for (qsizetype i = 1; i < profiles.size(); ++i)
            QVERIFY(profiles.at(i - 1).since < profiles.at(i).since);
        QCOMPARE(&newestVllmProfile(), &profiles.constLast());
        for (const VllmProfile &p : profiles)
            QVERIFY2(qstrlen(p.source) > 20, "every profile names where its values come from");
    }

    void badVersionsNameTheOptionAndValue_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("before V1 accounting") << QStringLiteral("0.9");
        QTest::newRow("0.9.2") << QStringLiteral("0.9.2");
        QTest::newRow("junk") << QStringLiteral("latest");
        QTest::newRow("one number") << QStringLiteral("1");
        QTest::newRow("trailing words") << QStringLiteral("0.19 nightly");
        QTest::newRow("empty local part") << QStringLiteral("0.19+");
    }

    void badVersionsNameTheOptionAndValue()
    {
        QFETCH(QString, text);
        const QString message = errorOf([&] { resolveVllmVersion(text); });
        QVERIFY2(message.startsWith(QLatin1String("--vllm-version:")), qPrintable(message));
        QVERIFY2(message.contains(text), qPrintable(message));
        // The same through the option mapping, and planMemory refuses it too.
        ScenarioValues values{{QStringLiteral("model"), QStringLiteral("llama-3.1-8b")},
                              {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                              {QStringLiteral("vllm-version"), text}};
        const QString mapped = errorOf([&] { scenarioFromValues(values, builtinResolvers()); });
        QVERIFY2(mapped.startsWith(QLatin1String("--vllm-version:")) && mapped.contains(text),
                 qPrintable(mapped));
        QVERIFY(!errorOf([&] {
                     planMemory(scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), text));
                 }).isEmpty());
    }

    void newerReleasesPlanAsTheNewestWithANote()
    {
        const MemoryPlan plan = planMemory(
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.30")));
        QCOMPARE(plan.engineVersion, QStringLiteral("0.29"));
        QVERIFY(plan.notes.join(QLatin1Char('\n')).contains(QLatin1String("vLLM 0.30 is newer")));
        const MemoryPlan exact = planMemory(
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.29")));
        QVERIFY(!exact.notes.join(QLatin1Char('\n')).contains(QLatin1String("is newer")));
        QCOMPARE(exact.kv.capacityTokens, plan.kv.capacityTokens);
    }

    void samplerWarmUpFollowsTheRelease()
    {
        // Llama-3.1-8B on an H100 with vLLM's H100 defaults (1,024 sequences, 8,192 batched tokens):
        // sampler = 1,024 x 128,256 vocab x bytes per logit, plus 8,192 x 4,096 x 2 B of hidden states.
        const std::int64_t hidden = std::int64_t(8192) * 4096 * 2;
        const std::int64_t logits = std::int64_t(1024) * 128256;
        const MemoryPlan v011 = planMemory(
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.11")));
        const MemoryPlan v019 = planMemory(
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.19")));
        QCOMPARE(v011.activationBytes, logits * 38 + hidden); // fitted to vLLM 0.11's 4.76 GiB peak
        QCOMPARE(v019.activationBytes, logits * 15 + hidden); // the 0.19 calibration
        // vllm-project/vllm#33538 (merged 2026-02-17) masks top-k and top-p with a Triton kernel
        // instead of sorting the logits: 0.17 on warms up at 0.19's 15 B a logit, 0.16 as 0.11.
        const MemoryPlan v016 = planMemory(
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.16")));
        const MemoryPlan v017 = planMemory(
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.17")));
        QCOMPARE(v016.activationBytes, logits * 38 + hidden);
        QCOMPARE(v017.activationBytes, logits * 15 + hidden);
    }

    void cudaGraphEstimateIsSubtractedFromVersion021()
    {
        for (const int tp : {1, 2}) {
            Scenario s =
                scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.19"));
            s.tensorParallelSize = tp;
            s.gpuMemoryUtilizationPpm = 900'000; // one budget for both releases (their defaults differ)
            const MemoryPlan before = planMemory(s);
            s.vllmVersion = QStringLiteral("0.21");
            const MemoryPlan after = planMemory(s);
            // vLLM's estimate (core/plan/cudagraphmemory.h): at TP 1 tests/testsupport.h's hand computation;
            // at TP 2 each GPU's 16 heads make split buffers of 512 x 16 x 128 x 130 B + 512 x 16 x 32 x 4 B
            // = 137,363,456 B, under the piecewise first capture's 138 MiB, and the layers stay 32 a GPU:
            // 144,703,488 + 100 x 6 MiB = 773,849,088 B (the calibration logs print 0.84 and 1.69 GiB: one
            // 26 MiB piecewise graph at TP 2, docs/validation.md).
            const std::int64_t graphs = tp == 1 ? test::Llama8bH100CudaGraphEstimateBytes : 773'849'088;
            QCOMPARE(before.cudaGraphBytes, std::int64_t(0));
            QCOMPARE(after.cudaGraphBytes, graphs);
            QCOMPARE(after.kv.availableBytes, before.kv.availableBytes - graphs);
            QCOMPARE(after.overheadWithGraphsBytes(), after.overheadBytes + graphs);
        }
        // An Ada card has no FlashAttention 3 and vLLM's defaults there are 256 sequences and 2,048 batched
        // tokens: 51 piecewise graphs and the 35 FULL ones up to 256, the first capture the piecewise 138
        // MiB: 144,703,488 + (50 + 34) x 32 x 192 KiB = 673,185,792 B.
        QCOMPARE(planMemory(scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("l40s"))).cudaGraphBytes,
                 std::int64_t(673'185'792));
    }

    void cudaGraphEstimateFollowsTheGraphsVllmCaptures()
    {
        // Llama-3.1-8B on an H100 at --max-num-seqs 16 (vLLM 0.21): capture sizes up to min(16 x 2, 512) = 32
        // (1, 2, 4, 8, 16, 24, 32: seven PIECEWISE graphs) and FULL ones up to 16 (five); the largest FULL
        // graph's split buffers, 16 x 32 x 128 x 130 B + 16 x 32 x 32 x 4 B = 8,585,216 B, fall under the
        // piecewise first capture's 138 MiB: 144,703,488 + (6 + 4) x 32 x 192 KiB = 207,618,048 B.
        Scenario s =
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.21"));
        s.maxNumSeqs = 16;
        const MemoryPlan few = planMemory(s);
        QCOMPARE(few.cudaGraphProfile.piecewiseGraphs, std::int64_t(7));
        QCOMPARE(few.cudaGraphProfile.fullGraphs, std::int64_t(5));
        QCOMPARE(few.cudaGraphProfile.splitBuffersBytes, std::int64_t(8'585'216));
        QCOMPARE(few.cudaGraphBytes, std::int64_t(207'618'048));
        // The plan says what the estimate is made of.
        QVERIFY2(few.notes.join(QLatin1Char('\n'))
                     .contains(QLatin1String("0.19 GiB for 7 piecewise and 5 full graphs of 32 layers")),
                 qPrintable(few.notes.join(QLatin1Char('\n'))));
        // --max-num-batched-tokens below the largest size caps the sizes and is captured itself: 100 tokens
        // at 1,024 sequences, sizes 1, 2, 4, 8 ... 96 and 100 (16 graphs of each mode).
        const CudaGraphSizes capped = vllmCudaGraphSizes(s, s.model, 1024, 100);
        QCOMPARE(capped.countIn(1, capped.largest), std::int64_t(16));
        QCOMPARE(capped.largestUpTo(1024), std::int64_t(100));
        QCOMPARE(capped.largestUpTo(99), std::int64_t(96));
        QCOMPARE(capped.countIn(4, 16), std::int64_t(3)); // 4, 8, 16: a drafter's FULL graphs start higher
        // --max-cudagraph-capture-size sets the largest size (vLLM's flag): at 64, 3 + 8 sizes a mode, so
        // 144,703,488 + (10 + 10) x 6 MiB = 270,532,608 B where vLLM's default 512 takes 903,872,512.
        s.maxNumSeqs = 0;
        s.maxCudagraphCaptureSize = 64;
        const MemoryPlan smaller = planMemory(s);
        QCOMPARE(smaller.cudaGraphProfile.piecewiseGraphs, std::int64_t(11));
        QCOMPARE(smaller.cudaGraphProfile.fullGraphs, std::int64_t(11));
        QCOMPARE(smaller.cudaGraphBytes, std::int64_t(270'532'608));
        QVERIFY(launchLine(s).command().contains(QLatin1String("--max-cudagraph-capture-size 64")));
        // LoRA captures every size twice, without and with the adapters (cudagraph_specialize_lora, on by
        // default: CudagraphDispatcher._get_lora_cases, vllm/v1/cudagraph_dispatcher.py, returns [0,
        // max_loras + 1]): 22 graphs of each mode, 144,703,488 + (21 + 21) x 6 MiB = 408,944,640 B.
        s.maxLoras = 2;
        const MemoryPlan withLora = planMemory(s);
        QCOMPARE(withLora.cudaGraphProfile.piecewiseGraphs, std::int64_t(22));
        QCOMPARE(withLora.cudaGraphProfile.fullGraphs, std::int64_t(22));
        QCOMPARE(withLora.cudaGraphBytes, std::int64_t(408'944'640));
        QVERIFY2(withLora.notes.join(QLatin1Char('\n')).contains(QLatin1String("without and with LoRA")),
                 qPrintable(withLora.notes.join(QLatin1Char('\n'))));
        s.maxLoras = 0;
        // Huge options are refused with the options named, never wrapped.
        s.maxCudagraphCaptureSize = std::int64_t(1) << 62;
        s.maxNumBatchedTokens = std::int64_t(1) << 62;
        const QString refusal = test::errorFrom([&] { planMemory(s); });
        QVERIFY2(refusal.contains(QLatin1String("--max-")), qPrintable(refusal));
        s.maxCudagraphCaptureSize = 0;
        s.maxNumBatchedTokens = 0;
        // gpt-oss captures up to 1,024 tokens (GptOssForCausalLMConfig): 83 sizes, as its logs print; its
        // FULL capture keeps no split buffers (log 98's 8 MiB).
        const MemoryPlan oss = planMemory(
            scenario(QStringLiteral("gpt-oss-20b"), QStringLiteral("h100-sxm"), QStringLiteral("0.21")));
        QCOMPARE(oss.cudaGraphProfile.piecewiseGraphs, std::int64_t(83));
        QCOMPARE(oss.cudaGraphProfile.splitBuffersBytes, std::int64_t(0));
        // Gemma 3 attends bidirectionally over images: Triton, no split buffers (the sweep's Gemma 3 logs);
        // Gemma 2 runs on FlashAttention 3 and has them.
        QCOMPARE(planMemory(scenario(QStringLiteral("gemma-3-12b"), QStringLiteral("h100-sxm"),
                                     QStringLiteral("0.21")))
                     .cudaGraphProfile.splitBuffersBytes,
                 std::int64_t(0));
        QVERIFY(planMemory(scenario(QStringLiteral("gemma-2-9b"), QStringLiteral("h100-sxm"),
                                    QStringLiteral("0.21")))
                    .cudaGraphProfile.splitBuffersBytes > 0);
        // Chunked local attention captures no FULL graph (Llama 4's log 93: "setting
        // cudagraph_mode=PIECEWISE").
        Scenario scout = scenario(QStringLiteral("llama-4-scout-17b-16e"), QStringLiteral("h100-sxm"),
                                  QStringLiteral("0.21"));
        scout.tensorParallelSize = 4;
        QCOMPARE(planMemory(scout).cudaGraphProfile.fullGraphs, std::int64_t(0));
        // A pipeline stage's graphs hold its own layers: 16 of Llama-3.1-8B's 32 at PP 2.
        Scenario staged =
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.21"));
        staged.pipelineParallelSize = 2;
        QCOMPARE(planMemory(staged).cudaGraphProfile.layers, 16);
    }

    void noCudaGraphEstimateWithoutGraphsOrOffCuda()
    {
        // Worker.determine_available_memory profiles the graphs only on CUDA and only when graphs will be
        // captured (`current_platform.is_cuda() and cudagraph_mode != CUDAGraphMode.NONE`,
        // vllm/v1/worker/gpu_worker.py; ROCm skipped since vllm-project/vllm#36720, before 0.21 made the
        // estimate the default, #38284; XPU since #41344), and --enforce-eager sets cudagraph_mode to NONE
        // (VllmConfig.__post_init__, vllm/config/vllm.py).
        Scenario s =
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.21"));
        const MemoryPlan graphs = planMemory(s);
        QCOMPARE(graphs.cudaGraphBytes, test::Llama8bH100CudaGraphEstimateBytes);
        s.enforceEager = true;
        const MemoryPlan eager = planMemory(s);
        QCOMPARE(eager.cudaGraphBytes, std::int64_t(0));
        QCOMPARE(eager.kv.availableBytes, graphs.kv.availableBytes + test::Llama8bH100CudaGraphEstimateBytes);
        QVERIFY2(eager.notes.join(QLatin1Char('\n')).contains(QLatin1String("--enforce-eager")),
                 qPrintable(eager.notes.join(QLatin1Char('\n'))));
        // Before 0.21 the graphs were captured after the KV cache was sized: eager changes nothing here.
        s.vllmVersion = QStringLiteral("0.19");
        const MemoryPlan older = planMemory(s);
        s.enforceEager = false;
        QCOMPARE(older.kv.availableBytes, planMemory(s).kv.availableBytes);
        // An AMD GPU: no estimate at any release.
        for (const char *gpu : {"mi300x", "mi325x"}) {
            const Scenario amd =
                scenario(QStringLiteral("llama-3.1-8b"), QLatin1String(gpu), QStringLiteral("0.21"));
            QCOMPARE(planMemory(amd).cudaGraphBytes, std::int64_t(0));
        }
    }

    void modelRunnerV2TakesNoCudaGraphEstimateUntil029()
    {
        // From v0.22.0 vLLM runs some models on its Model Runner V2 by default (use_v2_model_runner,
        // vllm/config/vllm.py), whose profile_cudagraph_memory() returns 0 (vllm/v1/worker/gpu/
        // model_runner.py): nothing is taken out of the budget for the graphs. The release notes name the
        // models: v0.22.0 unquantized dense Qwen3 (vllm-project/vllm#39337), v0.23.0 Llama and Mistral dense
        // (#43458), v0.24 their quantized forms (#44446) and the Qwen, DeepSeek-V2 and Granite MoEs (#42667,
        // #45461), v0.25.0 every dense model (#44443), v0.29.0 every model, with the graphs' memory
        // profiled and reserved again (#53306, #53183). Models V2 does not run yet stay on V1 (recurrent
        // layers, n-gram and draft-model drafters: _get_v2_model_runner_unsupported_features).
        // Whether the plan takes the model's V1 estimate out of the budget (nothing otherwise).
        const auto takesGraphs = [](const QString &model, const QString &version,
                                    QuantMethod method = QuantMethod::None) {
            Scenario s = scenario(model, QStringLiteral("h100-sxm"), version);
            if (method != QuantMethod::None)
                s.quantization = defaultSpecFor(method);
            const MemoryPlan plan = planMemory(s);
            const std::int64_t estimate = plan.cudaGraphProfile.estimateBytes;
            if (estimate <= 0 || (plan.cudaGraphBytes != 0 && plan.cudaGraphBytes != estimate))
                qFatal("unexpected CUDA-graph bytes for %s", qPrintable(model));
            return plan.cudaGraphBytes == estimate;
        };
        QVERIFY(takesGraphs(QStringLiteral("qwen3-8b"), QStringLiteral("0.21")));
        QVERIFY(!takesGraphs(QStringLiteral("qwen3-8b"), QStringLiteral("0.22")));
        QVERIFY(takesGraphs(QStringLiteral("llama-3.1-8b"), QStringLiteral("0.22")));
        QVERIFY(!takesGraphs(QStringLiteral("llama-3.1-8b"), QStringLiteral("0.23")));
        QVERIFY(takesGraphs(QStringLiteral("llama-3.1-8b"), QStringLiteral("0.23"), QuantMethod::Fp8));
        QVERIFY(!takesGraphs(QStringLiteral("llama-3.1-8b"), QStringLiteral("0.24"), QuantMethod::Fp8));
        QVERIFY(takesGraphs(QStringLiteral("qwen3-30b-a3b"), QStringLiteral("0.23")));
        QVERIFY(!takesGraphs(QStringLiteral("qwen3-30b-a3b"), QStringLiteral("0.24")));
        QVERIFY(takesGraphs(QStringLiteral("qwen2.5-7b"), QStringLiteral("0.24")));
        QVERIFY(!takesGraphs(QStringLiteral("qwen2.5-7b"), QStringLiteral("0.27.1")));
        QVERIFY(takesGraphs(QStringLiteral("mixtral-8x7b"), QStringLiteral("0.27.1")));
        QVERIFY(takesGraphs(QStringLiteral("granite-4.0-h-tiny"), QStringLiteral("0.27.1")));
        QVERIFY(takesGraphs(QStringLiteral("qwen3-8b"), QStringLiteral("0.29")));
        QVERIFY(takesGraphs(QStringLiteral("mixtral-8x7b"), QStringLiteral("0.29")));
        // An n-gram drafter keeps Qwen3 on V1.
        Scenario ngram =
            scenario(QStringLiteral("qwen3-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.22"));
        ngram.speculative =
            parseSpeculativeConfig(QStringLiteral(R"({"method": "ngram", "num_speculative_tokens": 3})"),
                                   QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan withDrafts = planMemory(ngram);
        QVERIFY(withDrafts.cudaGraphBytes > 0);
        QCOMPARE(withDrafts.cudaGraphBytes, withDrafts.cudaGraphProfile.estimateBytes);
        // The plan says why.
        const MemoryPlan v2 = planMemory(
            scenario(QStringLiteral("qwen3-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.22")));
        QVERIFY2(v2.notes.join(QLatin1Char('\n')).contains(QLatin1String("Model Runner V2")),
                 qPrintable(v2.notes.join(QLatin1Char('\n'))));
    }

    void modelRunnerV2WarmStartHoldsItsSourcesPeak()
    {
        // A Model Runner V2 start that loads its compiled graphs from vLLM's compile cache profiles the
        // forward pass over max_num_batched_tokens, then the sampler on one row of logits per dummy request
        // with the hidden states held: the logits in the model's dtype and Sampler.sample's float32 copy
        // (profile_run, vllm/v1/worker/gpu/model_runner.py; vllm/v1/worker/gpu/sample/sampler.py).
        // Qwen3-8B on an RTX 4090 under vLLM 0.27.1 (V2; max_num_seqs 256 and max_num_batched_tokens 2,048,
        // vLLM's defaults under 70 GiB), by hand:
        //   forward = 2,048 x 4,096 x 2 + 2,048 x 3 x 12,288 x 2            = 167,772,160 B
        //   sampler = 2,048 x 4,096 x 2 + 256 x 151,936 x (2 + 4)            = 250,150,912 B
        // A cold start (the default) keeps V1's calibrated term: 256 x 151,936 x 15 + 2,048 x 4,096 x 2.
        Scenario s =
            scenario(QStringLiteral("qwen3-8b"), QStringLiteral("rtx-4090"), QStringLiteral("0.27.1"));
        const MemoryPlan cold = planMemory(s);
        QVERIFY(cold.modelRunnerV2);
        QVERIFY(!cold.warmCompileCache);
        QCOMPARE(cold.activationBytes, std::int64_t(256) * 151'936 * 15 + std::int64_t(2'048) * 4'096 * 2);
        s.compileCache = CompileCache::Warm;
        const MemoryPlan warm = planMemory(s);
        QVERIFY(warm.warmCompileCache);
        QCOMPARE(warm.activationBytes, std::int64_t(250'150'912));
        QCOMPARE(warm.kv.availableBytes - cold.kv.availableBytes,
                 cold.activationBytes - warm.activationBytes);
        // On V1 (vLLM 0.21 runs Qwen3 there) a warm start profiles as a cold one: the calibration logs hold
        // both kinds (tests/data/vllm-logs.json id 6 loads its graphs from the cache, ids 1, 3, 8 and 11
        // compile) and agree under one term.
        s.vllmVersion = QStringLiteral("0.21");
        const MemoryPlan v1Warm = planMemory(s);
        QVERIFY(!v1Warm.modelRunnerV2);
        s.compileCache = CompileCache::Cold;
        QCOMPARE(v1Warm.activationBytes, planMemory(s).activationBytes);
        // A deployment condition, not a vLLM flag: the launch line does not spell it.
        s.vllmVersion = QStringLiteral("0.27.1");
        s.compileCache = CompileCache::Warm;
        QVERIFY(!launchLine(s).command().contains(QLatin1String("compile")));
        QCOMPARE(test::errorFrom(
                     [] { parseCompileCache(QStringLiteral("hot"), QStringLiteral("--compile-cache")); }),
                 QStringLiteral("--compile-cache: must be cold or warm, got 'hot'"));
    }

    void defaultUtilizationFollowsTheRelease()
    {
        // vllm-project/vllm#38284 (merged 2026-04-21, in v0.21.0) turned CUDA-graph memory profiling on
        // and raised CacheConfig.gpu_memory_utilization's default from 0.9 to 0.92 (vllm/config/cache.py:
        // "If unspecified, will use the default value of 0.92"); the v0.21.0 logs of tests/data/
        // vllm-logs.json ids 51 and 52 list 'gpu_memory_utilization': 0.9 among their non-default args.
        Scenario s =
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), QStringLiteral("0.21"));
        const MemoryPlan newest = planMemory(s);
        QCOMPARE(newest.gpuMemoryUtilizationPpm, std::int64_t(920'000));
        QCOMPARE(newest.budgetBytes, s.gpu.memoryBytes * 92 / 100);
        QVERIFY(!launchLine(s).command().contains(QLatin1String("--gpu-memory-utilization")));
        s.vllmVersion = QStringLiteral("0.19");
        QCOMPARE(planMemory(s).gpuMemoryUtilizationPpm, std::int64_t(900'000));
        // Given, it holds in any release and is said on the launch line, 0.9 included.
        s.vllmVersion = QStringLiteral("0.21");
        s.gpuMemoryUtilizationPpm = 900'000;
        QCOMPARE(planMemory(s).gpuMemoryUtilizationPpm, std::int64_t(900'000));
        QVERIFY(launchLine(s).command().contains(QLatin1String("--gpu-memory-utilization 0.9")));
    }

    void loggedCacheSizeFollowsTheRelease()
    {
        // Gemma-3-12B (48 layers: 40 sliding over 1,024 tokens, 8 full; 8 KV heads x 256) with a fixed
        // 10 GiB pool on an H100: pages of 16 tokens x 8,192 B, groups of 8 layer slots, so 1 MiB a
        // block and 10,240 blocks in 6 groups. A 32,768-token request holds 2,048 full blocks and, in
        // each of 5 sliding groups, cdiv(min(1,023 + 8,192, 32,768), 16) + 1 = 577: 4,933 blocks.
        Scenario s =
            scenario(QStringLiteral("gemma-3-12b"), QStringLiteral("h100-sxm"), QStringLiteral("0.19"));
        s.maxModelLen = 32768;
        s.kvCacheMemoryBytes = 10 * GiB;
        const MemoryPlan before = planMemory(s);
        QCOMPARE(before.kv.numGpuBlocks, std::int64_t(10'240));
        QCOMPARE(before.kv.blocksPerMaxRequest, std::int64_t(4'933));
        // Up to 0.20 vLLM logged blocks / groups x block size: 10,240 / 6 = 1,706 x 16.
        QCOMPARE(before.kv.capacityTokens, std::int64_t(27'296));
        // From 0.21 (vllm-project/vllm#41069) int(max concurrency x max_model_len):
        // int(10,240 / 4,933 x 32,768) = 68,020, what a sliding group's capped share lets the pool hold.
        s.vllmVersion = QStringLiteral("0.21");
        const MemoryPlan after = planMemory(s);
        QCOMPARE(after.kv.numGpuBlocks, before.kv.numGpuBlocks);
        QCOMPARE(after.kv.maxConcurrency, before.kv.maxConcurrency);
        QCOMPARE(after.kv.capacityTokens, std::int64_t(68'020));
    }

    void chunkedLocalAttentionFollowsTheHybridManagerDefault()
    {
        // Llama 4 Scout: 48 layers, 12 global (NoPE) and 36 chunked-local with an 8,192-token chunk.
        // With the hybrid manager (0.10.0, 0.16 on) one request of 131,072 tokens holds 8,192 blocks in
        // the global group plus 3 x cdiv(min(8,192 + 8,192, 131,072), 16) = 3 x 1,024 in the local groups,
        // each block 16 tokens x 12 layers; without it (0.10.1 to 0.15) all 48 layers keep the whole context.
        Scenario s = scenario(QStringLiteral("llama-4-scout-17b-16e"), QStringLiteral("h200"));
        s.tensorParallelSize = 4;
        s.maxModelLen = 131072;
        s.maxNumBatchedTokens = 8192;
        for (const QString &version :
             {QStringLiteral("0.10"), QStringLiteral("0.16"), QStringLiteral("0.21")}) {
            s.vllmVersion = version;
            const MemoryPlan plan = planMemory(s);
            QCOMPARE(plan.kv.chunkedLayers, 36);
            QCOMPARE(plan.kv.blocksPerMaxRequest, std::int64_t(8192 + 3 * 1024));
        }
        const MemoryPlan hybrid = planMemory(s);
        for (const QString &version :
             {QStringLiteral("0.10.1"), QStringLiteral("0.11"), QStringLiteral("0.15")}) {
            s.vllmVersion = version;
            const MemoryPlan plan = planMemory(s);
            QCOMPARE(plan.kv.chunkedLayers, 0);
            QCOMPARE(plan.kv.fullLayers, 48);
            // One group of 48 layers: 8,192 blocks four times the size of the hybrid layout's.
            QCOMPARE(plan.kv.blocksPerMaxRequest, std::int64_t(8192));
            QCOMPARE(plan.kv.pageBytes * plan.kv.groupSize, 4 * hybrid.kv.pageBytes * hybrid.kv.groupSize);
            QVERIFY(
                plan.notes.join(QLatin1Char('\n')).contains(QLatin1String("VLLM_ALLOW_CHUNKED_LOCAL_ATTN")));
        }
    }

    void mxfp4ExpertsArePaddedAsTheBackendAllocatesThem()
    {
        // gpt-oss-120b: 36 layers x 128 experts, hidden 2880, expert intermediate 2880, bf16 biases.
        // On an A100 (Marlin) at TP 4 the per-GPU intermediate 720 rounds to 768 and the hidden size 2880
        // to 3072 (Mxfp4MoEMethod.create_weights). One 768 x 3072 matrix in MXFP4: 4-bit values and one
        // E8M0 byte per 32 along the input dimension.
        const auto matrix = [](std::int64_t rows, std::int64_t cols) {
            return rows * cols / 2 + rows * (cols / 32);
        };
        const std::int64_t perExpert = matrix(768, 3072) * 2 + matrix(3072, 768) + (768 + 768 + 3072) * 2;
        Scenario s = scenario(QStringLiteral("gpt-oss-120b"), QStringLiteral("a100-80gb"));
        s.tensorParallelSize = 4;
        MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.weights.byComponent[int(Component::Experts)], 36 * 128 * perExpert);
        // 16.18 GiB of experts: with the non-expert weights the 17.22 GiB vLLM 0.10.1.1 logged.
        QVERIFY(qAbs(toGiB(plan.weights.bytesPerGpu) - 17.2217) < 0.05);
        // Hopper's Triton path rounds the intermediate size to 64: 2880 is one already, 1440 (TP 2) becomes
        // 1472.
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.tensorParallelSize = 1;
        const std::int64_t unpadded = matrix(2880, 2880) * 3 + (2880 * 3) * 2;
        QCOMPARE(planMemory(s).weights.byComponent[int(Component::Experts)], 36 * 128 * unpadded);
        s.tensorParallelSize = 2;
        const std::int64_t tp2 = matrix(1472, 2880) * 2 + matrix(2880, 1472) + (1472 * 2 + 2880) * 2;
        QCOMPARE(planMemory(s).weights.byComponent[int(Component::Experts)], 36 * 128 * tp2);
        // The checkpoint as stored stays unpadded.
        QCOMPARE(planMemory(s).weights.checkpointBytes, plan.weights.checkpointBytes);
    }

    void hoppersTritonMxfp4PathHoldsTheScalesTwice()
    {
        // vLLM's Triton MXFP4 MoE path (Hopper) swizzles each layer's expert scales into a new tensor and
        // keeps the checkpoint's scale parameters beside it (only w13_weight and w2_weight are deleted,
        // convert_gpt_oss_weight_to_mxfp4_moe_kernel_format; Mxfp4MoEMethod.process_weights_after_loading
        // stores the copies in its precision configs), and replaces the expert biases with float32 ones.
        // HopperMXScaleLayout pads the copy's rows to 2 x num_warps(8) x 2 x 8 = 256 and its scale columns
        // to 2 (triton_kernels/tensor_details/layout_details/hopper_scale.py). gpt-oss-120b at TP 1: w13
        // scales 5760 x 90 (rows to 5888), w2 scales 2880 x 90 (rows to 3072), 128 experts x 36 layers;
        // biases 5760 + 2880 a expert, 2 more bytes each.
        Scenario s = scenario(QStringLiteral("gpt-oss-120b"), QStringLiteral("h100-sxm"));
        const std::int64_t scaleCopy = std::int64_t{36} * 128 * (5888 * 90 + 3072 * 90);
        const std::int64_t biasGrowth = std::int64_t{36} * 128 * (5760 + 2880) * 2;
        QCOMPARE(planMemory(s).weights.mxfp4ScaleCopyBytes, scaleCopy + biasGrowth);
        // vLLM 0.11 logged 64.38 GiB for it on an H100 (tests/data/vllm-logs.json, log 18): within 0.1 %.
        QVERIFY2(qAbs(toGiB(planMemory(s).weights.bytesPerGpu) - 64.38) < 0.07,
                 qPrintable(QString::number(toGiB(planMemory(s).weights.bytesPerGpu))));
        // At TP 2 the w13 scales are 2 x 1472 = 2944 rows (to 3072), w2's 2880 x 46.
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).weights.mxfp4ScaleCopyBytes, std::int64_t{36} * 128 * (3072 * 90 + 3072 * 46) +
                                                                std::int64_t{36} * 128 * (2944 + 2880) * 2);
        // Marlin (an A100) replaces its tensors; SGLang is not this path.
        s.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        QCOMPARE(planMemory(s).weights.mxfp4ScaleCopyBytes, 0);
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.engine = Engine::Sglang;
        QCOMPARE(planMemory(s).weights.mxfp4ScaleCopyBytes, 0);
    }

    void pcieOnlyGpusKeepTheSingleGpuOverhead()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("l40s"));
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).overheadBytes, 256 * MiB); // PCIe Gen4 x16 only: no NVLink buffers
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        QCOMPARE(planMemory(s).overheadBytes, 2120 * MiB); // NVLink, vLLM 0.19 logs at TP 2
        s.tensorParallelSize = 1;
        QCOMPARE(planMemory(s).overheadBytes, 256 * MiB);
    }

    void nvlinkOverheadComesWithTheAllReduceRmsNormFusion()
    {
        // From v0.16.0 vLLM fuses the all-reduce with the next RMSNorm through FlashInfer at TP > 1 on
        // compute capability 9.0 and 10.x (vllm-project/vllm#34299; enable_allreduce_rms_fusion in
        // vllm/config/vllm.py). The 2.07 GiB outside PyTorch at TP 2 of the 0.19 logs comes with it: the
        // logs whose engine config shows 'fuse_allreduce_rms': False (tests/data/vllm-logs.json ids 122
        // and 129, vLLM 0.12 and 0.15.1 on Hopper) hold about one GPU's figure there.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"));
        s.tensorParallelSize = 2;
        s.vllmVersion = QStringLiteral("0.16");
        QCOMPARE(planMemory(s).overheadBytes, 2120 * MiB);
        s.gpu = resolveGpu(QStringLiteral("b200"));
        QCOMPARE(planMemory(s).overheadBytes, 2120 * MiB);
        // Before the fusion was on by default: 0.12's figure for one GPU (133 MiB) at TP 2 as well.
        s.vllmVersion = QStringLiteral("0.12");
        const std::int64_t oneGpuBefore016 = [&] {
            Scenario one = s;
            one.tensorParallelSize = 1;
            return planMemory(one).overheadBytes;
        }();
        QCOMPARE(oneGpuBefore016, 133 * MiB);
        QCOMPARE(planMemory(s).overheadBytes, oneGpuBefore016);
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        QCOMPARE(planMemory(s).overheadBytes, oneGpuBefore016);
        // An A100 (8.0) or an L40S-class Ada GPU is outside the fusion at any release: one GPU's figure.
        s.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        s.vllmVersion = QStringLiteral("0.19");
        QCOMPARE(planMemory(s).overheadBytes, 256 * MiB);
        s.vllmVersion = QStringLiteral("0.12");
        QCOMPARE(planMemory(s).overheadBytes, oneGpuBefore016);
    }

    void sglangDefaultsFollowItsHeuristic_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("tp");
        QTest::addColumn<qint64>("chunked");
        QTest::addColumn<qint64>("graphBs");
        QTest::addColumn<qint64>("reserved");
        QTest::addColumn<qint64>("fraction");
        // reserved = 512 + max(chunked, 2048) x 1.5 + graph bs x 2 + tp / 8 x 1024 MiB, at least 10,240
        // above 60 GiB; fraction = round((gpu_mem - reserved) / gpu_mem, 3), where gpu_mem is nvidia-smi's
        // memory.total in MiB (ServerArgs._handle_gpu_memory_settings reads get_nvgpu_memory_capacity,
        // python/sglang/srt/utils/common.py: `nvidia-smi --query-gpu=memory.total`), not the smaller total
        // CUDA reports, which the pool is sized from.
        // H100: 81,559 MiB -> 512 + 12,288 + 512 + 128 = 13,440 -> 0.835.
        QTest::newRow("h100 tp1") << "h100-sxm" << 1 << qint64(8192) << qint64(256) << qint64(13440)
                                  << qint64(835000);
        // TP 8: 512 + 12,288 + 1,024 + 1,024 = 14,848 -> (81,559 - 14,848) / 81,559 = 0.818.
        QTest::newRow("h100 tp8") << "h100-sxm" << 8 << qint64(8192) << qint64(512) << qint64(14848)
                                  << qint64(818000);
        // RTX 4090, 24,564 MiB: 512 + 3,072 + 48 + 128 = 3,760 -> 0.847.
        QTest::newRow("rtx-4090") << "rtx-4090" << 1 << qint64(2048) << qint64(24) << qint64(3760)
                                  << qint64(847000);
        // L40S, 46,068 MiB: 512 + 6,144 + 64 + 128 = 6,848 -> 0.851.
        QTest::newRow("l40s") << "l40s" << 1 << qint64(4096) << qint64(32) << qint64(6848) << qint64(851000);
        // B200, 183,359 MiB: 512 + 24,576 + 1,024 + 128 = 26,240 -> 0.857.
        QTest::newRow("b200") << "b200" << 1 << qint64(16384) << qint64(512) << qint64(26240)
                              << qint64(857000);
        // A custom GPU has no nvidia-smi figure: its own total, 40 GiB = 40,960 MiB: 512 + 6,144 + 64 +
        // 128 = 6,848 -> 0.833.
        QTest::newRow("custom 40 GiB")
            << "custom:40" << 1 << qint64(4096) << qint64(32) << qint64(6848) << qint64(833000);
    }

    void sglangDefaultsFollowItsHeuristic()
    {
        QFETCH(QString, gpu);
        QFETCH(int, tp);
        QFETCH(qint64, chunked);
        QFETCH(qint64, graphBs);
        QFETCH(qint64, reserved);
        QFETCH(qint64, fraction);
        const SglangDefaults d = sglangDefaults(resolveGpu(gpu), tp);
        QCOMPARE(d.chunkedPrefillSize, chunked);
        QCOMPARE(d.cudaGraphMaxBs, graphBs);
        QCOMPARE(d.reservedMib, reserved);
        QCOMPARE(d.memFractionStaticPpm, fraction);
    }

    void sglangPoolIsTheStaticShareLessTheWeights()
    {
        // profile_max_num_token: rest = F x total - weights, where "total" is what is free after the
        // CUDA context (0.51 GiB at TP 1); tokens = rest // cell, cell = 32 layers x 8 KV heads x
        // (128 + 128) x 2 B = 131,072 B for Llama-3.1-8B in bf16.
        Scenario s = sglangAtNinetyPercent(QStringLiteral("llama-3.1-8b"), 8192);
        const MemoryPlan plan = planMemory(s);
        const std::int64_t rest = sglangRestAtNinetyPercent(plan);
        QCOMPARE(plan.preloadBytes, GiB * 51 / 100);
        QCOMPARE(plan.kv.capacityTokens, rest / 131072);
        QCOMPARE(plan.activationBytes, std::int64_t(0));
        QCOMPARE(plan.cudaGraphBytes, std::int64_t(0));
        QCOMPARE(plan.blockSize, 1);
        // max_running_requests = min(max(int(tokens / context x 512), 2048), 4096).
        QCOMPARE(
            plan.maxNumSeqs,
            std::min<std::int64_t>(std::max<std::int64_t>(plan.kv.capacityTokens * 512 / 8192, 2048), 4096));
        const QJsonObject json = planToJson(plan);
        QCOMPARE(json.value(QLatin1String("engine")).toString(), QStringLiteral("sglang"));
        QVERIFY(json.value(QLatin1String("engine_version")).isNull());
        QCOMPARE(json.value(QLatin1String("mem_fraction_static")).toDouble(), 0.9);
        QCOMPARE(json.value(QLatin1String("kv_capacity_tokens")).toInteger(), plan.kv.capacityTokens);
        // Without --mem-fraction-static SGLang's default for the GPU applies and is noted.
        s.memFractionStaticPpm = 0;
        const MemoryPlan byDefault = planMemory(s);
        QCOMPARE(byDefault.memFractionStaticPpm, sglangDefaults(s.gpu, 1).memFractionStaticPpm);
        QVERIFY(
            byDefault.notes.join(QLatin1Char('\n')).contains(QLatin1String("default --mem-fraction-static")));
    }

    void gpuChecksFollowTheEnginesOwnRules_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("quantization");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("kvCacheDtype");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("refusal"); // empty: the engine starts
        const QString none;
        // Minimum capabilities are each quantization config's get_min_capability (vLLM:
        // fp8.py 80, awq.py 75 "The AWQ kernel only supports Turing or newer GPUs", gptq.py 60;
        // SGLang: fp8.py 80). The V100 has compute capability 7.0, the T4 7.5, the A100 8.0.
        QTest::newRow("v100 fp8")
            << "vllm"
            << "v100-32gb"
            << "fp8"
            << "auto"
            << "auto" << none
            << "vLLM refuses --quantization fp8 on the NVIDIA V100 SXM2 32GB: its loader "
               "needs compute capability 8.0 or later, the NVIDIA V100 SXM2 32GB has 7.0";
        QTest::newRow("v100 awq")
            << "vllm"
            << "v100-32gb"
            << "awq"
            << "auto"
            << "auto" << none << "needs compute capability 7.5 or later, the NVIDIA V100 SXM2 32GB has 7.0";
        QTest::newRow("t4 awq") << "vllm"
                                << "t4"
                                << "awq"
                                << "auto"
                                << "auto" << none << none;
        QTest::newRow("t4 fp8") << "vllm"
                                << "t4"
                                << "fp8"
                                << "auto"
                                << "auto" << none
                                << "needs compute capability 8.0 or later, the NVIDIA T4 16GB has 7.5";
        QTest::newRow("a100 fp8") << "vllm"
                                  << "a100-80gb"
                                  << "fp8"
                                  << "auto"
                                  << "auto" << none << none;
        QTest::newRow("v100 gptq") << "vllm"
                                   << "v100-32gb"
                                   << "gptq"
                                   << "auto"
                                   << "auto" << none << none;
        // CudaPlatformBase.check_if_supports_dtype: bfloat16 needs 8.0.
        QTest::newRow("v100 bf16") << "vllm"
                                   << "v100-32gb"
                                   << "none"
                                   << "bfloat16"
                                   << "auto" << none
                                   << "vLLM refuses --dtype bfloat16 on the NVIDIA V100 SXM2 32GB";
        QTest::newRow("v100 auto") << "vllm"
                                   << "v100-32gb"
                                   << "none"
                                   << "auto"
                                   << "auto" << none << none;
        // FP8 KV: FlashInfer from 7.5 (8.0 from vLLM 0.24), Triton from 8.9 (vllm-project/vllm#47549).
        QTest::newRow("v100 fp8 kv")
            << "vllm"
            << "v100-32gb"
            << "none"
            << "auto"
            << "fp8" << none
            << "vLLM refuses --kv-cache-dtype fp8_e4m3 on the NVIDIA V100 SXM2 32GB: "
               "no attention backend takes an FP8 KV cache below compute capability "
               "7.5, the NVIDIA V100 SXM2 32GB has 7.0";
        QTest::newRow("t4 fp8 kv") << "vllm"
                                   << "t4"
                                   << "none"
                                   << "auto"
                                   << "fp8" << none << none;
        QTest::newRow("t4 fp8 kv 0.24") << "vllm"
                                        << "t4"
                                        << "none"
                                        << "auto"
                                        << "fp8"
                                        << "0.24"
                                        << "below compute capability 8.0, the NVIDIA T4 16GB has 7.5";
        QTest::newRow("sglang v100 fp8")
            << "sglang"
            << "v100-32gb"
            << "fp8"
            << "auto"
            << "auto" << none << "SGLang refuses --quantization fp8 on the NVIDIA V100 SXM2 32GB";
        QTest::newRow("mi300x fp8") << "vllm"
                                    << "mi300x"
                                    << "fp8"
                                    << "auto"
                                    << "auto" << none << none;
        // NVFP4 KV: vLLM's cache kernels are built for SM100 and SM120 only (csrc/cache_kernels.cu,
        // ENABLE_NVFP4_SM100 / ENABLE_NVFP4_SM120); an AMD GPU has none of them.
        const QString blackwellOnly = QStringLiteral("its NVFP4 cache kernels are built for Blackwell GPUs "
                                                     "(compute capability 10.x and 12.x) only");
        QTest::newRow("b200 nvfp4 kv") << "vllm"
                                       << "b200"
                                       << "none"
                                       << "auto"
                                       << "nvfp4" << none << none;
        QTest::newRow("rtx-5090 nvfp4 kv") << "vllm"
                                           << "rtx-5090"
                                           << "none"
                                           << "auto"
                                           << "nvfp4" << none << none;
        QTest::newRow("h100 nvfp4 kv")
            << "vllm"
            << "h100-sxm"
            << "none"
            << "auto"
            << "nvfp4" << none
            << QStringLiteral("vLLM refuses --kv-cache-dtype nvfp4 on the NVIDIA H100 SXM 80GB: ") +
                   blackwellOnly;
        QTest::newRow("mi300x nvfp4 kv") << "vllm"
                                         << "mi300x"
                                         << "none"
                                         << "auto"
                                         << "nvfp4" << none << blackwellOnly;
        // SGLang's FP4 caches (ServerArgs._handle_kv4_compatibility, python/sglang/srt/server_args.py):
        // nvfp4 on SM100 and SM120 only, fp4_mx_block16 on any NVIDIA GPU, neither off CUDA.
        QTest::newRow("sglang b200 nvfp4 kv") << "sglang"
                                              << "b200"
                                              << "none"
                                              << "auto"
                                              << "nvfp4" << none << none;
        QTest::newRow("sglang h100 nvfp4 kv")
            << "sglang"
            << "h100-sxm"
            << "none"
            << "auto"
            << "nvfp4" << none
            << QStringLiteral(
                   "SGLang refuses --kv-cache-dtype nvfp4 on the NVIDIA H100 SXM 80GB: it requires "
                   "Blackwell SM100 or SM120");
        QTest::newRow("sglang h100 fp4_mx_block16 kv") << "sglang"
                                                       << "h100-sxm"
                                                       << "none"
                                                       << "auto"
                                                       << "fp4_mx_block16" << none << none;
        QTest::newRow("sglang mi300x fp4_mx_block16 kv")
            << "sglang"
            << "mi300x"
            << "none"
            << "auto"
            << "fp4_mx_block16" << none
            << QStringLiteral("its FP4 caches run on NVIDIA GPUs only (\"KV4 is not tested on non-CUDA "
                              "platforms\")");
    }

    void nvfp4KvCache()
    {
        // vllm/utils/torch_utils.py nvfp4_kv_cache_full_dim: a head of D values in D/2 + D/16
        // bytes. Llama-3.1-8B: 32 layers x (K, V) x 8 heads x (64 + 8) = 36,864 B a token, a
        // quarter of BF16's 131,072 plus the scales (0.5625 B a value).
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("b200"), {});
        s.kvCacheDtype = KvCacheDtype::Nvfp4;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.kv.bytesPerToken, 32LL * 2 * 8 * (64 + 8));
        QCOMPARE(plan.kv.bytesPerToken, 36'864LL);
        QCOMPARE(kvBitsPerElement(KvCacheDtype::Nvfp4), 4.5);
        QVERIFY2(plan.engineStarts, qPrintable(plan.engineRefusal));
        QVERIFY(launchLine(s).command().contains(QLatin1String("--kv-cache-dtype nvfp4")));

        // Heads that are not whole groups of 16: vLLM's TORCH_CHECK(head_size % 16 == 0).
        Scenario odd = s;
        odd.model.headDim = 72;
        const MemoryPlan oddPlan = planMemory(odd);
        QVERIFY(!oddPlan.engineStarts);
        QVERIFY2(oddPlan.engineRefusal.contains(QLatin1String("heads of 72 values")),
                 qPrintable(oddPlan.engineRefusal));

        // An MLA latent's NVFP4 layout is DeepSeek-V4's own (nvfp4_ds_mla): refused, named.
        Scenario mla = scenario(QStringLiteral("deepseek-v2-lite"), QStringLiteral("b200"), {});
        mla.kvCacheDtype = KvCacheDtype::Nvfp4;
        const QString mlaError = errorOf([&] { planMemory(mla); });
        QVERIFY2(mlaError.contains(QLatin1String("caches an MLA latent")), qPrintable(mlaError));
        // fp4_mx_block16 is SGLang's spelling alone.
        Scenario mx = s;
        mx.kvCacheDtype = KvCacheDtype::Fp4MxBlock16;
        const QString mxError = errorOf([&] { planMemory(mx); });
        QVERIFY2(mxError.contains(QLatin1String("fp4_mx_block16 is SGLang's FP4 cache")),
                 qPrintable(mxError));
    }

    void sglangFp4KvCache()
    {
        // SGLang's cell size (PoolConfigurator._compute_cell_size,
        // python/sglang/srt/model_executor/pool_configurator.py, sgl-project/sglang#21601) for an FP4
        // cache, kv_size = 1 (torch.float4_e2m1fn_x2): n x (k + v) x L // 2 values and n x k x L x 2 // 16
        // scale bytes, plus "one shared FP8 dequant workspace across layers", n x k x 2. Llama-3.1-8B,
        // 8 KV heads of 128 over 32 layers: 32,768 + 4,096 + 2,048 = 38,912 B a token, and
        // max_total_num_tokens = available // cell_size.
        for (const KvCacheDtype dtype : {KvCacheDtype::Nvfp4, KvCacheDtype::Fp4MxBlock16}) {
            Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("b200"), {});
            s.engine = Engine::Sglang;
            s.kvCacheDtype = dtype;
            const MemoryPlan plan = planMemory(s);
            QVERIFY2(plan.engineStarts, qPrintable(plan.engineRefusal));
            QCOMPARE(plan.kv.bytesPerToken, 8LL * 256 * 32 / 2 + 8LL * 128 * 32 * 2 / 16);
            QCOMPARE(plan.kv.workspaceBytesPerToken, 8LL * 128 * 2);
            QCOMPARE(plan.kv.bytesPerToken + plan.kv.workspaceBytesPerToken, 38'912LL);
            QCOMPARE(plan.kv.capacityTokens, plan.kv.availableBytes / 38'912);
            QCOMPARE(planToJson(plan).value(QStringLiteral("kv_workspace_bytes_per_token")).toInteger(),
                     2'048);
            QVERIFY(launchLine(s).command().contains(QLatin1String("--kv-cache-dtype ") + dtypeName(dtype)));
        }
        // The MLA pool keeps no workspace: (512 + 64) x 27 // 2 + (576 // 16) x 27 = 8,748 B a token
        // for DeepSeek-V2-Lite's 27 layers.
        Scenario mla = scenario(QStringLiteral("deepseek-v2-lite"), QStringLiteral("b200"), {});
        mla.engine = Engine::Sglang;
        mla.kvCacheDtype = KvCacheDtype::Nvfp4;
        const MemoryPlan mlaPlan = planMemory(mla);
        QCOMPARE(mlaPlan.kv.bytesPerToken, 576LL * 27 / 2 + 576LL / 16 * 27);
        QCOMPARE(mlaPlan.kv.workspaceBytesPerToken, 0LL);
        QCOMPARE(mlaPlan.kv.capacityTokens, mlaPlan.kv.availableBytes / 8'748);
        // DeepSeek sparse attention builds its DSA pool, which has no FP4 path.
        Scenario dsa = scenario(QStringLiteral("deepseek-v3.2-exp"), QStringLiteral("b200"), {});
        dsa.engine = Engine::Sglang;
        dsa.tensorParallelSize = 8;
        dsa.kvCacheDtype = KvCacheDtype::Fp4MxBlock16;
        const QString dsaError = errorOf([&] { planMemory(dsa); });
        QVERIFY2(dsaError.contains(QLatin1String("no FP4 path")), qPrintable(dsaError));
    }

    void gpuChecksFollowTheEnginesOwnRules()
    {
        QFETCH(QString, engine);
        QFETCH(QString, gpu);
        QFETCH(QString, quantization);
        QFETCH(QString, dtype);
        QFETCH(QString, kvCacheDtype);
        QFETCH(QString, version);
        QFETCH(QString, refusal);
        Scenario s = scenario(QStringLiteral("llama-3.2-3b"), gpu, version); // fits a 16 GB T4 in 16 bits
        s.engine = parseEngine(engine);
        s.quantization = defaultSpecFor(parseQuantMethod(quantization));
        s.dtype = parseWeightDtype(dtype);
        s.kvCacheDtype = parseKvCacheDtype(kvCacheDtype);
        s.batchSize = 1;
        s.seqLen = 2048;
        s.maxModelLen = 4096;
        const MemoryPlan plan = planMemory(s);
        const QJsonObject json = planToJson(plan);
        if (refusal.isEmpty()) {
            QVERIFY2(plan.engineRefusal.isEmpty(), qPrintable(plan.engineRefusal));
            QVERIFY(plan.engineStarts);
            QVERIFY(json.value(QStringLiteral("engine_refusal")).isNull());
        } else {
            QVERIFY2(plan.engineRefusal.contains(refusal), qPrintable(plan.engineRefusal));
            QVERIFY(!plan.engineStarts);
            QVERIFY(!plan.works());
            QVERIFY(plan.notes.contains(plan.engineRefusal));
            // It stops before loading anything: the first reason it does not start.
            QCOMPARE(plan.startFailure, plan.engineRefusal);
            QCOMPARE(json.value(QStringLiteral("engine_refusal")).toString(), plan.engineRefusal);
            QCOMPARE(json.value(QStringLiteral("engine_starts")).toBool(), false);
            // A server that does not start holds nothing: no capacity, as no speed.
            for (const char *key : {"kv_capacity_tokens", "kv_attention_tokens_held", "max_concurrency",
                                    "decode_tokens_per_second"})
                QVERIFY2(json.value(QLatin1String(key)).isNull(), key);
        }
    }

    void vllmRunsABfloat16CheckpointInFloat16WithoutBfloat16()
    {
        // vLLM's --dtype auto takes the first dtype the GPU supports (_resolve_auto_dtype in
        // vllm/config/model.py): float16 on a V100, bfloat16 (the checkpoint's) on an A100.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("v100-32gb"));
        MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.dtype, WeightDtype::Float16);
        QVERIFY(plan.notes.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("runs the bfloat16 checkpoint in float16")));
        s.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        QCOMPARE(planMemory(s).dtype, WeightDtype::BFloat16);
        s.gpu = resolveGpu(QStringLiteral("v100-32gb"));
        s.engine = Engine::Sglang; // SGLang's fallback is not modelled: the note says what to pass
        plan = planMemory(s);
        QCOMPARE(plan.dtype, WeightDtype::BFloat16);
        QVERIFY(plan.notes.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("has no bfloat16; pass --dtype float16")));
    }

    void sglangOnAGpuSmallerThanItsPreload()
    {
        // A custom 1 GiB GPU at TP 2: less memory than SGLang finds in use before the weights (the CUDA
        // context and NCCL, sglangPreloadBytes: 1.53 GiB at TP > 1). Its static share of what is free is
        // then nothing, never a negative budget, and SGLang does not start.
        Scenario s = scenario(QStringLiteral("llama-3.2-1b"), QStringLiteral("custom:1"));
        s.engine = Engine::Sglang;
        s.tensorParallelSize = 2;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.budgetBytes, std::int64_t(0));
        QVERIFY(!plan.engineStarts);
        QVERIFY(!plan.works());
    }

    void sglangPlansNameSglangNotVllm()
    {
        // The planner's shared notes and refusals name the scenario's engine (the engine
        // table's display name), never vLLM for an SGLang plan.
        QCOMPARE(engineDisplayName(Engine::Vllm), QStringLiteral("vLLM"));
        QCOMPARE(engineDisplayName(Engine::Sglang), QStringLiteral("SGLang"));
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("a100-80gb"));
        s.engine = Engine::Sglang;
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        s.dtype = WeightDtype::BFloat16;
        s.maxModelLen = 4096;
        s.seqLen = 8192;
        QString notes = planMemory(s).notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("SGLang runs awq with float16 activations")),
                 qPrintable(notes));
        QVERIFY2(notes.contains(QLatin1String("SGLang would reject such requests")), qPrintable(notes));
        QVERIFY2(!notes.contains(QLatin1String("vLLM")), qPrintable(notes));
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        s.dtype = WeightDtype::Auto;
        notes = planMemory(s).notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("SGLang keeps FP8 weights")), qPrintable(notes));
        QVERIFY2(!notes.contains(QLatin1String("vLLM")), qPrintable(notes));
        s.maxModelLen = s.model.maxPositionEmbeddings * 2;
        const QString refusal = errorOf([&] { planMemory(s); });
        QVERIFY2(refusal.contains(QLatin1String("(SGLang refuses it)")), qPrintable(refusal));
        s.engine = Engine::Vllm; // vLLM's own words are unchanged
        QVERIFY(errorOf([&] { planMemory(s); }).contains(QLatin1String("(vLLM refuses it)")));
    }

    void sglangGivesSharedKvLayersSlotsOfTheirOwn()
    {
        // Gemma 3n's last 15 layers read an earlier layer's cache (Gemma3nAttention passes that layer's id
        // to RadixAttention and does not save, python/sglang/srt/models/gemma3n_causal.py), yet SGLang's
        // pool allocates every layer (num_effective_layers, layer_setup.py): 35 layers x 2 KV heads x
        // (256 + 256) x 2 B = 71,680 B a token, where vLLM keeps 20 layers' caches and frees what leaves
        // the windows.
        Scenario s = sglangAtNinetyPercent(QStringLiteral("gemma-3n-e4b"), 32768);
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.kv.bytesPerToken, std::int64_t(71680));
        QCOMPARE(plan.kv.capacityTokens, sglangRestAtNinetyPercent(plan) / 71680);
    }

    void sglangSplitsAHybridSlidingWindowPool()
    {
        // gpt-oss is on SGLang's list of hybrid SWA architectures (is_hybrid_swa_model,
        // python/sglang/srt/configs/model_config.py, since sgl-project/sglang#17261): its 18 full layers
        // keep every token, its 18 sliding-window layers (128 tokens) a pool of their own,
        // swa_full_tokens_ratio (0.8 by default) of the full pool's tokens
        // (HybridSWAPoolConfigurator, python/sglang/srt/model_executor/pool_configurator.py):
        // cell_size = 18 x 2,048 + 0.8 x 18 x 2,048 = 66,355.2 B (8 KV heads x (64 + 64) x 2 B a layer),
        // full tokens = int(rest // cell_size), window tokens = int(full x 0.8).
        Scenario s = sglangAtNinetyPercent(QStringLiteral("gpt-oss-120b"), 32768);
        s.batchSize = 4;
        s.seqLen = 8192;
        const MemoryPlan plan = planMemory(s);
        const std::int64_t total = 81090 * MiB - GiB * 51 / 100;
        const std::int64_t rest = sglangRestAtNinetyPercent(plan);
        const std::int64_t full = rest * 5 / 331776; // rest / 66,355.2
        QCOMPARE(plan.kv.availableBytes, rest);
        QCOMPARE(plan.kv.capacityTokens, full);
        QCOMPARE(plan.kv.swaPoolTokens, full * 4 / 5);
        QCOMPARE(plan.kv.swaWindowTokens, std::int64_t(128));
        QCOMPARE(plan.kv.swaPoolRatioPpm, 800'000);
        // A request of 32,768 tokens takes 32,768 full-pool tokens and 128 window tokens: the full pool
        // binds.
        QCOMPARE(plan.kv.maxConcurrency, double(full) / 32768);
        // Four sequences of 8,192 tokens: 32,768 cells of 66,355.2 B, rounded up.
        QCOMPARE(plan.kv.cacheBytes, std::int64_t(2'174'327'194));
        const QJsonObject json = planToJson(plan);
        QCOMPARE(json.value(QLatin1String("swa_pool_tokens")).toInteger(), full * 4 / 5);
        QCOMPARE(json.value(QLatin1String("swa_full_tokens_ratio")).toDouble(), 0.8);
        QVERIFY2(plan.notes.join(QLatin1Char('\n')).contains(QLatin1String("a pool of their own")),
                 qPrintable(plan.notes.join(QLatin1Char('\n'))));

        // Short sequences fill the window pool first: 100 tokens hold 100 window tokens, 125 full-pool
        // tokens' worth of it at 0.8.
        s.seqLen = 100;
        s.batchSize = 1;
        const MemoryPlan shortPlan = planMemory(s);
        QCOMPARE(shortPlan.kv.blocksPerSequence, std::int64_t(125));
        QCOMPARE(shortPlan.largestBatchThatFits, full / 125);

        // --swa-full-tokens-ratio 0.5: cells of 36,864 + 0.5 x 36,864 = 55,296 B, a window pool of half the
        // full one's tokens; the launch line passes it on.
        Scenario half = s;
        half.swaFullTokensRatioPpm = 500'000;
        const MemoryPlan halfPlan = planMemory(half);
        QCOMPARE(halfPlan.kv.capacityTokens, rest / 55296);
        QCOMPARE(halfPlan.kv.swaPoolTokens, rest / 55296 / 2);
        const QString launch = launchLine(half).command();
        QVERIFY2(launch.contains(QLatin1String("--swa-full-tokens-ratio 0.5")), qPrintable(launch));

        // A pool whose window share cannot hold one window and a page: SGLang refuses to start ("SWA pool
        // (...) cannot hold even one request"). 150 cells leave 120 window tokens, fewer than 128 + 1.
        s.memFractionStaticPpm =
            int((plan.weights.bytesPerGpu + 150 * 66356) * std::int64_t(1'000'000) / total);
        const MemoryPlan tight = planMemory(s);
        QVERIFY2(tight.kv.swaPoolTokens <= 129 && tight.kv.swaPoolTokens > 0,
                 qPrintable(QString::number(tight.kv.swaPoolTokens)));
        QVERIFY(!tight.engineStarts);
        QVERIFY2(tight.engineRefusal.contains(QLatin1String("--swa-full-tokens-ratio")),
                 qPrintable(tight.engineRefusal));
    }

    void theLongestSequenceOfASplitPoolFitsAndOneMoreDoesNot()
    {
        // gpt-oss-20b at TP 2 (12 full and 12 window layers of 1,536 B) with --swa-full-tokens-ratio
        // 0.000055: a cell of 18,432 + 0.000055 x 18,432 = 18,433.01376 B, and a B200 holds millions of
        // tokens of it. Bounding the search by whole bytes a token (18,434) would stop it hundreds of
        // tokens short of the answer.
        Scenario s = scenario(QStringLiteral("gpt-oss-20b"), QStringLiteral("b200"));
        s.engine = Engine::Sglang;
        s.tensorParallelSize = 2;
        s.swaFullTokensRatioPpm = 55;
        s.batchSize = 1;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.largestSeqLenThatFits > 1'000'000);
        Scenario at = s;
        at.seqLen = plan.largestSeqLenThatFits;
        QVERIFY(planMemory(at).fits);
        at.seqLen += 1;
        QVERIFY(!planMemory(at).fits);
    }

    void sglangSplitsLlama4ChunkedLayersAsAWindow()
    {
        // Llama 4's chunked-attention layers (three in four, attention_chunk_size 8,192) are SGLang's
        // window layers (get_hybrid_layer_ids: (i + 1) % 4 != 0), each keeping a request's last 8,192.
        Scenario s = scenario(QStringLiteral("llama-4-scout-17b-16e"));
        s.engine = Engine::Sglang;
        s.tensorParallelSize = 4;
        s.maxModelLen = 65536;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.kv.swaWindowTokens, std::int64_t(8192));
        QCOMPARE(plan.kv.chunkedLayers, 36);
        QCOMPARE(plan.kv.fullLayers, 12);
        QCOMPARE(plan.kv.swaPoolTokens, plan.kv.capacityTokens * 4 / 5);
        // A request of 65,536 tokens: 65,536 full-pool tokens, and 8,192 window tokens (10,240 at 0.8).
        QCOMPARE(plan.kv.blocksPerMaxRequest, std::int64_t(65536));
    }

    void sglangKeepsRecurrentStatesInAPoolOfTheirOwn()
    {
        // SGLang sizes a hybrid linear-attention model's state pool first (handle_max_mamba_cache,
        // python/sglang/srt/model_executor/model_runner.py at v0.5.6; _handle_max_mamba_cache in
        // python/sglang/srt/mem_cache/kv_cache_configurator.py since): mamba_full_memory_ratio (0.9) of
        // the rest goes to states for every 1 to the KV pool, int(rest x 0.9 / 1.9 // per-request state)
        // slots, and the KV pool's tokens over the full-attention layers come from what is left.
        // Qwen3-Next-80B-A3B at TP 4: a Gated DeltaNet layer's state is its conv window, (2 x 16 x 128 +
        // 32 x 128) / 4 x 3 values in bfloat16 = 12,288 B, and its recurrent matrices, 32 / 4 x 128 x 128
        // values in float32 = 524,288 B (mamba2_state_dtype, python/sglang/srt/configs/mamba_utils.py:
        // conv bfloat16, temporal float32 by default); 36 such layers: 19,316,736 B a request. A token:
        // 12 full layers x 1 KV head (2 replicated over 4 GPUs) x (256 + 256) x 2 B = 12,288 B.
        Scenario s = scenario(QStringLiteral("qwen3-next-80b-a3b"));
        s.engine = Engine::Sglang;
        s.tensorParallelSize = 4;
        s.memFractionStaticPpm = 900'000;
        s.maxModelLen = 32768;
        const MemoryPlan plan = planMemory(s);
        const std::int64_t total = 81090 * MiB - GiB * 153 / 100;
        const std::int64_t rest = total * 9 / 10 - plan.weights.bytesPerGpu;
        constexpr std::int64_t perRequest = 19'316'736;
        const std::int64_t slots = rest * 9 / 19 / perRequest;
        QCOMPARE(plan.kv.stateBytesPerSequence, perRequest);
        QCOMPARE(plan.kv.statePoolSlots, slots);
        QCOMPARE(plan.kv.statePoolBytes, slots * perRequest);
        QCOMPARE(plan.kv.bytesPerToken, std::int64_t(12288));
        QCOMPARE(plan.kv.capacityTokens, (rest - slots * perRequest) / 12288);
        // max_running_requests: the pool's default, and at most a third of the slots
        // (MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO = 3).
        QCOMPARE(plan.maxNumSeqs,
                 std::min(sglangDefaultMaxRunningRequests(plan.kv.capacityTokens, 32768), slots / 3));
        const QJsonObject json = planToJson(plan);
        QCOMPARE(json.value(QLatin1String("state_pool_slots")).toInteger(), slots);
        QVERIFY2(plan.notes.join(QLatin1Char('\n')).contains(QLatin1String("state pool")),
                 qPrintable(plan.notes.join(QLatin1Char('\n'))));
    }

    void sglangKeepsEveryTokenInSlidingWindowLayers()
    {
        // An architecture SGLang does not list as hybrid SWA gets its one token pool over every layer
        // (DefaultPoolConfigurator._compute_cell_size over num_effective_layers,
        // python/sglang/srt/model_executor/pool_configurator.py): Gemma-3-27B's 52 sliding-window
        // layers (1,024 tokens) keep every token as its 10 full layers do. Cell = 62 layers x 16 KV
        // heads x (128 + 128) x 2 B = 507,904 B a token.
        Scenario s = sglangAtNinetyPercent(QStringLiteral("gemma-3-27b"), 32768);
        s.batchSize = 1;
        s.seqLen = 32768;
        const MemoryPlan plan = planMemory(s);
        const std::int64_t rest = sglangRestAtNinetyPercent(plan);
        QCOMPARE(plan.kv.bytesPerToken, std::int64_t(507904));
        QCOMPARE(plan.kv.capacityTokens, rest / 507904);
        QCOMPARE(plan.kv.slidingLayers, 0);
        QCOMPARE(plan.kv.cacheBytes, std::int64_t(32768) * 507904);
        // Its attention still reads the window: a decode step at 32,768 tokens reads 10 full layers'
        // tokens and 52 layers' last 1,024, 8,192 B a token and layer (16 heads x 256 x 2 B).
        QCOMPARE(plan.speed.decode.kvBytes, (std::int64_t(10) * 32768 + std::int64_t(52) * 1024) * 8192);
        QVERIFY2(plan.notes.join(QLatin1Char('\n')).contains(QLatin1String("every token")),
                 qPrintable(plan.notes.join(QLatin1Char('\n'))));
    }

    void optionsBelongToTheirEngine()
    {
        const ScenarioValues base{{QStringLiteral("model"), QStringLiteral("llama-3.1-8b")},
                                  {QStringLiteral("gpu"), QStringLiteral("h100-sxm")}};
        // SGLang's names stand for the shared options.
        ScenarioValues values = base;
        values.insert(QStringLiteral("engine"), QStringLiteral("sglang"));
        values.insert(QStringLiteral("tp-size"), QStringLiteral("2"));
        values.insert(QStringLiteral("context-length"), QStringLiteral("4096"));
        values.insert(QStringLiteral("max-running-requests"), QStringLiteral("64"));
        values.insert(QStringLiteral("mem-fraction-static"), QStringLiteral("0.85"));
        values.insert(QStringLiteral("kv-cache-dtype"), QStringLiteral("fp8"));
        const Scenario s = scenarioFromValues(values, builtinResolvers());
        QCOMPARE(s.engine, Engine::Sglang);
        QCOMPARE(s.tensorParallelSize, 2);
        QCOMPARE(s.maxModelLen, std::int64_t(4096));
        QCOMPARE(s.maxNumSeqs, std::int64_t(64));
        QCOMPARE(s.memFractionStaticPpm, std::int64_t(850000));
        // It saves and reads back as the same scenario.
        const Scenario again = scenarioFromValues(scenarioToValues(s), builtinResolvers());
        QCOMPARE(scenarioToValues(again), scenarioToValues(s));

        const auto refused = [&](ScenarioValues v, const char *option, const char *engine) {
            const QString message = errorOf([&] { scenarioFromValues(v, builtinResolvers()); });
            QVERIFY2(message.startsWith(QStringLiteral("--%1:").arg(QLatin1String(option))) &&
                         message.contains(QLatin1String(engine)),
                     qPrintable(message));
        };
        ScenarioValues vllmOnly = base;
        vllmOnly.insert(QStringLiteral("engine"), QStringLiteral("sglang"));
        vllmOnly.insert(QStringLiteral("block-size"), QStringLiteral("32"));
        refused(vllmOnly, "block-size", "vLLM option");
        vllmOnly.remove(QStringLiteral("block-size"));
        vllmOnly.insert(QStringLiteral("gpu-memory-utilization"), QStringLiteral("0.9"));
        refused(vllmOnly, "gpu-memory-utilization", "vLLM option");
        ScenarioValues sglangOnly = base;
        sglangOnly.insert(QStringLiteral("mem-fraction-static"), QStringLiteral("0.8"));
        refused(sglangOnly, "mem-fraction-static", "SGLang option");
        sglangOnly = base;
        sglangOnly.insert(QStringLiteral("tp-size"), QStringLiteral("2"));
        refused(sglangOnly, "tp-size", "SGLang option");
        ScenarioValues both = values;
        both.insert(QStringLiteral("tensor-parallel-size"), QStringLiteral("4"));
        refused(both, "tp-size", "contradicts");
        ScenarioValues engine = base;
        engine.insert(QStringLiteral("engine"), QStringLiteral("trt"));
        refused(engine, "engine", "'trt'");
    }

    void launchLinesUseEachEnginesFlags()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.tensorParallelSize = 2;
        s.kvCacheDtype = KvCacheDtype::Fp8;
        s.maxModelLen = 32768;
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        QCOMPARE(launchLine(s).command(), QStringLiteral("vllm serve meta-llama/Llama-3.1-8B "
                                                         "--tensor-parallel-size 2 --quantization fp8 "
                                                         "--kv-cache-dtype fp8 --max-model-len 32768"));
        s.engine = Engine::Sglang;
        s.maxNumSeqs = 64;
        s.memFractionStaticPpm = 850'000;
        QCOMPARE(launchLine(s).command(),
                 QStringLiteral("python -m sglang.launch_server --model-path "
                                "meta-llama/Llama-3.1-8B --tp-size 2 --quantization fp8 "
                                "--kv-cache-dtype fp8_e4m3 --context-length 32768 "
                                "--max-running-requests 64 --mem-fraction-static 0.85"));
    }
};

QTEST_GUILESS_MAIN(TestEngines)
#include "tst_engines.moc"
