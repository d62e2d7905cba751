// SPDX-License-Identifier: MIT
// vLLM's expert-parallel load balancer (core/plan/eplb.h): --eplb-config's redundant experts placed
// over the EP GPUs (FusedMoE.global_num_experts = num_experts + num_redundant_experts,
// vllm/model_executor/layers/fused_moe/layer.py), the state EplbState.add_model builds with the model
// (vllm/distributed/eplb/eplb_state.py), the release that started keeping the expert buffer
// (vllm-project/vllm#22179, v0.12.0), vLLM's refusals, and the options read and spelled back.
// Reference bytes by hand from deepseek-ai/DeepSeek-V3's config.json (hidden_size 7168,
// moe_intermediate_size 2048, 256 routed experts, first_k_dense_replace 3 of 61 layers, FP8 weights
// with one float32 scale per 128 x 128 block), as the preset holds it.
#include "core/analysis/fit.h"
#include "core/common/error.h"
#include "core/plan/eplb.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"
#include "tests/testsupport.h"

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

namespace {

// One DeepSeek-V3 routed expert on one GPU under EP: gate, up and down, 3 x 2048 x 7168 FP8 bytes,
// and their block scales: gate and up (2048/128) x (7168/128) = 896 each, down 56 x 16 = 896, 4 B each.
constexpr std::int64_t expertBytes = 3LL * 2048 * 7168 + 3LL * 896 * 4; // 44,050,944 B
constexpr int moeLayers = 61 - 3;                                       // first_k_dense_replace 3

/// DeepSeek-V3 on 8 H200s with --enable-expert-parallel, vLLM's newest release.
Scenario deepSeekOnEight()
{
    return test::layoutScenario(QStringLiteral("deepseek-v3"), QStringLiteral("h200"), 8, 1, true);
}

Scenario withEplb(std::int64_t redundant)
{
    Scenario s = deepSeekOnEight();
    s.enableEplb = true;
    s.eplb.numRedundantExperts = redundant;
    return s;
}

void expectError(const Scenario &s, const QString &fragment)
{
    test::expectErrorFrom([&] { planMemory(s); }, fragment);
}

void expectParseError(const QString &json, const QString &fragment)
{
    test::expectErrorFrom([&] { parseEplbConfig(json, QStringLiteral("--eplb-config")); }, fragment);
}

} // namespace

class TestEplb : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void redundantExpertsAndStateByHand()
    {
        const MemoryPlan plain = planMemory(deepSeekOnEight());
        QCOMPARE(plain.localExperts, 32); // 256 / 8
        QCOMPARE(plain.weights.eplbBytes, 0);

        const MemoryPlan balanced = planMemory(withEplb(32));
        // vLLM's docs (EPLB glossary, vllm/distributed/eplb/eplb_state.py): 256 + 32 = 288 physical
        // experts; over 8 EP ranks 36 a GPU.
        QCOMPARE(balanced.localExperts, 36);
        QCOMPARE(balanced.redundantExperts, 32);
        QCOMPARE(balanced.weights.byComponent[int(Component::Experts)] -
                     plain.weights.byComponent[int(Component::Experts)],
                 4LL * moeLayers * expertBytes); // 10,219,819,008 B: four experts more in each MoE layer
        // expert_buffer: one MoE layer's 36 local experts (empty_like of model.expert_weights[0]).
        QCOMPARE(balanced.eplbState.expertBufferBytes, 36 * expertBytes); // 1,585,833,984 B
        // expert_load_window (1,000 x 58 x 288) and expert_load_pass (58 x 288), int32.
        QCOMPARE(balanced.eplbState.loadCounterBytes, (1000LL + 1) * moeLayers * 288 * 4); // 66,882,816 B
        // physical_to_logical_map 58 x 288, logical_to_physical_map 58 x 256 x 1,024 slots,
        // logical_replica_count 58 x 256: int64.
        QCOMPARE(balanced.eplbState.mapBytes,
                 moeLayers * 288LL * 8 + moeLayers * 256LL * 1024 * 8 +
                     moeLayers * 256LL * 8); // 121,887,232 B
        QCOMPARE(balanced.weights.eplbBytes, 1'774'604'032);
        // All of it counts in the weights, as "Model loading took" does, and the cache gives it up.
        QCOMPARE(balanced.weights.bytesPerGpu - plain.weights.bytesPerGpu,
                 4LL * moeLayers * expertBytes + 1'774'604'032);
        QVERIFY(balanced.kv.availableBytes < plain.kv.availableBytes);
        QCOMPARE(plain.kv.availableBytes - balanced.kv.availableBytes,
                 balanced.weights.bytesPerGpu - plain.weights.bytesPerGpu);
        QCOMPARE(balanced.weights.parameterBytesPerGpu() - plain.weights.parameterBytesPerGpu(),
                 4LL * moeLayers * expertBytes);
    }

    void withoutRedundantExpertsOnlyTheState()
    {
        const MemoryPlan plain = planMemory(deepSeekOnEight());
        const MemoryPlan balanced = planMemory(withEplb(0));
        QCOMPARE(balanced.localExperts, 32);
        QCOMPARE(balanced.eplbState.expertBufferBytes, 32 * expertBytes);
        QCOMPARE(balanced.eplbState.loadCounterBytes, 1001LL * moeLayers * 256 * 4);
        QCOMPARE(balanced.weights.bytesPerGpu - plain.weights.bytesPerGpu, balanced.weights.eplbBytes);
    }

    void theWindowSizesTheCounters()
    {
        Scenario s = withEplb(32);
        s.eplb.windowSize = 100;
        QCOMPARE(planMemory(s).eplbState.loadCounterBytes, 101LL * moeLayers * 288 * 4);
    }

    void releasesBeforeTwelveLeaveTheStateOutOfTheBudget()
    {
        // Before vllm-project/vllm#25311 (v0.11.2's API reference has its EplbModelState; v0.12.0 on
        // in kvscope's profiles) GPUModelRunner.load_model built EplbState after "Model loading took"
        // was measured, and the profiling run's baseline already held it: the KV budget never saw it.
        // The permanent expert buffer came with vllm-project/vllm#22179 (v0.12.0).
        Scenario s = withEplb(32);
        s.vllmVersion = QStringLiteral("0.11.0");
        const MemoryPlan old = planMemory(s);
        QVERIFY(!old.eplbState.inBudget);
        QCOMPARE(old.eplbState.expertBufferBytes, 0);
        QCOMPARE(old.eplbState.total(), 66'882'816 + 121'887'232);
        QCOMPARE(old.weights.eplbBytes, 0);
        Scenario plain = deepSeekOnEight();
        plain.vllmVersion = QStringLiteral("0.11.0");
        QCOMPARE(old.weights.bytesPerGpu - planMemory(plain).weights.bytesPerGpu,
                 4LL * moeLayers * expertBytes);
        QVERIFY2(old.notes.join(QLatin1Char('\n')).contains(QStringLiteral("outside the KV budget")),
                 qPrintable(old.notes.join(QLatin1Char('\n'))));
        s.vllmVersion = QStringLiteral("0.12.0");
        const MemoryPlan twelve = planMemory(s);
        QVERIFY(twelve.eplbState.inBudget);
        QCOMPARE(twelve.eplbState.expertBufferBytes, 36 * expertBytes);
        QCOMPARE(twelve.weights.eplbBytes, twelve.eplbState.total());
    }

    void anMtpDrafterIsBalancedToo()
    {
        // vLLM 0.12 on: load_model adds the MTP drafter's model to the same EplbState (add_model), with
        // its own maps, counters and buffer over its one MoE layer, its experts as redundant as the
        // target's (DeepSeekMTP is a DeepseekV2MixtureOfExperts).
        Scenario s = withEplb(32);
        s.speculative.method = SpeculativeMethod::Mtp;
        s.speculative.numSpeculativeTokens = 1;
        const MemoryPlan both = planMemory(s);
        Scenario target = s;
        target.speculative = {};
        const MemoryPlan alone = planMemory(target);
        const std::int64_t drafterState =
            36 * expertBytes + 1001LL * 288 * 4 + 288LL * 8 + 256LL * 1024 * 8 + 256LL * 8; // one MoE layer
        QCOMPARE(both.eplbState.total() - alone.eplbState.total(), drafterState);
        QCOMPARE(both.weights.eplbBytes, both.eplbState.total());
        Scenario unbalanced = s;
        unbalanced.eplb.numRedundantExperts = 0;
        QCOMPARE(both.weights.draftBytes - planMemory(unbalanced).weights.draftBytes, 4 * expertBytes);
        // Before vllm-project/vllm#25311 vLLM did not run EPLB with an MTP drafter.
        s.vllmVersion = QStringLiteral("0.11.0");
        expectError(s, QStringLiteral("vllm-project/vllm#25311"));
    }

    void fitKeepsTheBalancerWhereALayoutTakesIt()
    {
        // The window's fit starts from the explorer's scenario. With EPLB on there, a layout that
        // vLLM refuses EPLB on (one GPU, no expert parallelism) is planned without it rather than
        // dropped: Qwen3-30B-A3B for 8 requests of 8,192 tokens still fits on one H200, as it does
        // without the balancer.
        Scenario base;
        base.model = preset(QStringLiteral("qwen3-30b-a3b"));
        base.gpu = resolveGpu(QStringLiteral("h200"));
        FitQuery q;
        q.base = base;
        q.concurrency = 8;
        q.maxModelLen = 8192;
        q.gpus = {base.gpu};
        q.maxGpus = 4;
        const FitResult plain = findFits(q);
        QVERIFY2(!plain.fits.isEmpty(), qPrintable(plain.reason));
        q.base.enableExpertParallel = true;
        q.base.enableEplb = true;
        q.base.eplb.numRedundantExperts = 4;
        const FitResult result = findFits(q);
        QVERIFY2(!result.fits.isEmpty(), qPrintable(result.reason));
        QCOMPARE(result.fits.constFirst().plan.gpuCount(), plain.fits.constFirst().plan.gpuCount());
        for (const FitRow &row : result.fits) {
            QCOMPARE(row.plan.eplbState.total() > 0, row.scenario.enableEplb);
            QVERIFY(!row.scenario.enableEplb || row.plan.gpuCount() > 1);
            QCOMPARE(planMemory(row.scenario).weights.bytesPerGpu, row.plan.weights.bytesPerGpu);
        }
    }

    void vllmsRefusals()
    {
        Scenario s = withEplb(32);
        s.enableExpertParallel = false;
        expectError(s, QStringLiteral("enable_expert_parallel must be True to use EPLB"));

        s = withEplb(1); // 257 experts over 8 GPUs
        expectError(s, QStringLiteral("257 experts do not divide over the 8 EP GPUs"));

        s = withEplb(0);
        s.tensorParallelSize = 1;
        expectError(s, QStringLiteral("EPLB requires tensor_parallel_size or data_parallel_size"));

        s = deepSeekOnEight();
        s.eplb.numRedundantExperts = 32; // without --enable-eplb
        expectError(s, QStringLiteral("num_redundant_experts 32 needs --enable-eplb"));

        s = withEplb(0);
        s.model = preset(QStringLiteral("gpt-oss-120b")); // GptOssForCausalLM: not MixtureOfExperts
        expectError(s, QStringLiteral("does not implement the MixtureOfExperts interface"));

        s = withEplb(0);
        s.model = preset(QStringLiteral("llama-3.1-8b"));
        s.enableExpertParallel = true;
        expectError(s, QStringLiteral("has no routed experts"));

        s = withEplb(0);
        s.engine = Engine::Sglang;
        s.enableExpertParallel = false;
        expectError(s, QStringLiteral("--enable-eplb: vLLM's"));
    }

    void theConfigIsReadAsVllmReadsIt()
    {
        const QString option = QStringLiteral("--eplb-config");
        QCOMPARE(parseEplbConfig(QString(), option), EplbConfig{});
        const EplbConfig config = parseEplbConfig(
            QStringLiteral(R"({"num_redundant_experts": 32, "window_size": 100, "step_interval": 3000,
                               "use_async": true, "policy": "default"})"),
            option);
        QCOMPARE(config.numRedundantExperts, 32);
        QCOMPARE(config.windowSize, 100);
        QCOMPARE(eplbConfigText(config),
                 QStringLiteral(R"({"window_size": 100, "num_redundant_experts": 32})"));
        QCOMPARE(eplbConfigText(EplbConfig{}), QString());
        QCOMPARE(parseEplbConfig(eplbConfigText(config), option), config);

        expectParseError(
            QStringLiteral(R"({"num_redundant_experts": -1})"),
            QStringLiteral("\"num_redundant_experts\" must be a whole number from 0 to 1023, got -1"));
        expectParseError(QStringLiteral(R"({"num_redundant_experts": 1024})"), QStringLiteral("got 1024"));
        expectParseError(QStringLiteral(R"({"num_redundant_experts": 2.5})"), QStringLiteral("got 2.5"));
        expectParseError(QStringLiteral(R"({"num_redundant_experts": "32"})"), QStringLiteral("got \"32\""));
        expectParseError(QStringLiteral(R"({"window_size": 0})"),
                         QStringLiteral("\"window_size\" must be a whole number from 1"));
        expectParseError(QStringLiteral(R"({"window_size": 1e300})"), QStringLiteral("window_size"));
        expectParseError(QStringLiteral(R"({"redundant": 32})"), QStringLiteral("key 'redundant'"));
        expectParseError(QStringLiteral("[32]"), QStringLiteral("--eplb-config: not a JSON object"));
        expectParseError(QStringLiteral("{"), QStringLiteral("--eplb-config: not a JSON object"));
    }

    void optionsReadAndSpellBack()
    {
        const ScenarioValues values{
            {QStringLiteral("model"), QStringLiteral("deepseek-v3")},
            {QStringLiteral("gpu"), QStringLiteral("h200")},
            {QStringLiteral("tensor-parallel-size"), QStringLiteral("8")},
            {QStringLiteral("enable-expert-parallel"), QStringLiteral("true")},
            {QStringLiteral("enable-eplb"), QStringLiteral("true")},
            {QStringLiteral("eplb-config"), QStringLiteral(R"({"num_redundant_experts": 32})")}};
        const Scenario s = scenarioFromValues(values, builtinResolvers());
        QVERIFY(s.enableEplb);
        QCOMPARE(s.eplb.numRedundantExperts, 32);
        const ScenarioValues back = scenarioToValues(s);
        QCOMPARE(back.value(QStringLiteral("enable-eplb")), QStringLiteral("true"));
        QCOMPARE(back.value(QStringLiteral("eplb-config")),
                 QStringLiteral(R"({"num_redundant_experts": 32})"));
        QCOMPARE(scenarioFromValues(back, builtinResolvers()), s);
        // Off and default: left out.
        const ScenarioValues plain = scenarioToValues(deepSeekOnEight());
        QVERIFY(!plain.contains(QStringLiteral("enable-eplb")));
        QVERIFY(!plain.contains(QStringLiteral("eplb-config")));
        const QString line = launchLine(s).command();
        QVERIFY2(
            line.contains(QStringLiteral(
                R"(--enable-expert-parallel --enable-eplb --eplb-config '{"num_redundant_experts": 32}')")),
            qPrintable(line));
    }

    void theNoteSaysWhereTheBytesWent()
    {
        const MemoryPlan plan = planMemory(withEplb(32));
        const QString notes = plan.notes.join(QLatin1Char('\n'));
        QVERIFY2(
            notes.contains(QStringLiteral("DeepSeek-V3's 256 + 32 redundant = 288 routed experts a layer "
                                          "divided among 8 GPUs, 36 on this GPU")),
            qPrintable(notes));
        QVERIFY2(notes.contains(QStringLiteral("the balancer's state takes 1.65 GiB a GPU")),
                 qPrintable(notes));
    }
};

QTEST_GUILESS_MAIN(TestEplb)
#include "tst_eplb.moc"
