// SPDX-License-Identifier: MIT
// vLLM's data and expert parallelism in the plan (core/plan/expertparallel.h): the routed experts
// split over TP x DP GPUs, or divided whole among them with --enable-expert-parallel
// (FusedMoEParallelConfig.make, vllm/model_executor/layers/fused_moe/config.py), the first ranks
// holding one more when they do not divide (determine_expert_map,
// vllm/model_executor/layers/fused_moe/layer.py); each data-parallel rank its own engine with its
// own cache and its share of the batch; the refusals; the options in scenario values, files and
// launch lines. Reference bytes by hand from the models' config.json (Qwen/Qwen3-30B-A3B,
// deepseek-ai/DeepSeek-V2-Lite), as the presets hold them.
#include "core/analysis/fit.h"
#include "core/analysis/fixes.h"
#include "core/analysis/growth.h"
#include "core/common/error.h"
#include "core/model/inventory.h"
#include "core/plan/expertparallel.h"
#include "core/plan/planner.h"
#include "core/plan/speedconstants.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"
#include "tests/core/fitchecks.h"
#include "tests/testsupport.h"

#include <algorithm>

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

namespace {

Scenario on(const QString &model, int tp, int dp, bool ep)
{
    return test::layoutScenario(model, QStringLiteral("h100-sxm"), tp, dp, ep);
}

std::int64_t expertBytes(const MemoryPlan &plan)
{
    return plan.weights.byComponent[int(Component::Experts)];
}

void expectError(const Scenario &s, const QString &fragment)
{
    try {
        planMemory(s);
        QFAIL(qPrintable(QStringLiteral("no error; expected one mentioning '%1'").arg(fragment)));
    } catch (const Error &error) {
        QVERIFY2(error.message().contains(fragment), qPrintable(error.message()));
    }
}

// Qwen3-30B-A3B: 48 layers, every one MoE, 128 routed experts of gate, up and down
// (3 x moe_intermediate_size 768 x hidden_size 2048) in bfloat16: 9,437,184 B an expert.
constexpr std::int64_t qwen3ExpertBytes = 3LL * 768 * 2048 * 2;
constexpr std::int64_t qwen3AllExperts = 48LL * 128 * qwen3ExpertBytes; // 57,982,058,496 B

} // namespace

class TestExpertParallel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void expertMapGivesTheRemainderToTheFirstRanks()
    {
        // determine_expert_map: base = num_experts // ep_size, ranks below the remainder one more.
        QCOMPARE(localExpertCount(64, 3, 0), 22);
        QCOMPARE(localExpertCount(64, 3, 1), 21);
        QCOMPARE(localExpertCount(64, 3, 2), 21);
        QCOMPARE(localExpertCount(128, 8, 7), 16);
        QCOMPARE(localExpertCount(256, 1, 0), 256);
    }

    void placementFollowsFusedMoeParallelConfig()
    {
        const ModelArch &qwen = preset(QStringLiteral("qwen3-30b-a3b"));
        // Without EP the experts are split over every GPU of every rank (the flattened TP).
        QCOMPARE(expertPlacement(qwen, 2, 1, false), (ExpertPlacement{2, 1, 0}));
        QCOMPARE(expertPlacement(qwen, 2, 4, false), (ExpertPlacement{8, 1, 0}));
        // With it they are divided whole: EP = TP x DP, expert TP 1.
        QCOMPARE(expertPlacement(qwen, 2, 4, true), (ExpertPlacement{1, 8, 16}));
        // use_ep needs dp_size * tp_size > 1: one GPU keeps every expert.
        QCOMPARE(expertPlacement(qwen, 1, 1, true), (ExpertPlacement{1, 1, 0}));
        // A dense model has nothing to place.
        QCOMPARE(expertPlacement(preset(QStringLiteral("llama-3.1-8b")), 2, 2, true),
                 (ExpertPlacement{4, 1, 0}));
        // Data-parallel ranks with an extra expert: rank d holds EP ranks d x TP ... d x TP + TP - 1.
        const ModelArch &lite = preset(QStringLiteral("deepseek-v2-lite"));
        QCOMPARE(heavierDataParallelRanks(lite, 1, 3, true), 1); // 64 = 3 x 21 + 1
        QCOMPARE(heavierDataParallelRanks(lite, 1, 3, false), 0);
        QCOMPARE(heavierDataParallelRanks(qwen, 2, 4, true), 0); // 128 = 8 x 16
    }

    void expertsPerGpuUnderEveryLayout()
    {
        // Each GPU holds half of Qwen3-30B-A3B's expert bytes on two GPUs, whichever way they are
        // laid: split (TP 2), divided (TP 2 + EP, 64 experts each) or over two ranks (DP 2, with
        // or without EP).
        const std::int64_t half = qwen3AllExperts / 2;
        QCOMPARE(half, Q_INT64_C(28'991'029'248));
        const MemoryPlan tp2 = planMemory(on(QStringLiteral("qwen3-30b-a3b"), 2, 1, false));
        const MemoryPlan tp2ep = planMemory(on(QStringLiteral("qwen3-30b-a3b"), 2, 1, true));
        const MemoryPlan dp2 = planMemory(on(QStringLiteral("qwen3-30b-a3b"), 1, 2, false));
        const MemoryPlan dp2ep = planMemory(on(QStringLiteral("qwen3-30b-a3b"), 1, 2, true));
        for (const MemoryPlan *plan : {&tp2, &tp2ep, &dp2, &dp2ep})
            QCOMPARE(expertBytes(*plan), half);
        QCOMPARE(tp2.localExperts, 128);
        QCOMPARE(tp2.expertParallelSize, 1);
        QCOMPARE(tp2ep.localExperts, 64);
        QCOMPARE(tp2ep.expertParallelSize, 2);
        QCOMPARE(tp2ep.expertTensorParallelSize, 1);
        QCOMPARE(dp2.expertTensorParallelSize, 2);
        QCOMPARE(dp2ep.localExperts, 64);
        // The rest of the model is each rank's whole under DP and halved under TP: the attention
        // (q 4096 x 2048, k and v 512 x 2048, o 2048 x 4096 a layer, 48 layers, bfloat16).
        const std::int64_t attention = 48LL * (2 * 4096 * 2048 + 2 * 512 * 2048) * 2;
        QCOMPARE(dp2ep.weights.byComponent[int(Component::Attention)] -
                     tp2ep.weights.byComponent[int(Component::Attention)],
                 attention / 2);
        QCOMPARE(dp2ep.gpuCount(), 2);
    }

    void unevenExpertsLeaveTheLastRanksMoreRoom()
    {
        // DeepSeek-V2-Lite: 26 MoE layers (first_k_dense_replace 1 of 27) of 64 routed experts
        // (3 x 1408 x 2048 in bfloat16: 17,301,504 B); over three ranks rank 0 holds 22, the
        // others 21.
        constexpr std::int64_t expert = 3LL * 1408 * 2048 * 2;
        Scenario s = on(QStringLiteral("deepseek-v2-lite"), 1, 3, true);
        s.maxModelLen = 4096;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.localExperts, 22);
        QCOMPARE(expertBytes(plan), 26 * 22 * expert);
        QVERIFY(plan.works());
        // vLLM counts the caching allocator's whole blocks in the load (core/plan/loadreplay.h): on the
        // heavier rank each MoE layer's w2 (22 x 2048 x 1408 x 2 B = 121 MiB) and shared experts' down_proj
        // (11 MiB) hold 122 and 12 MiB, and the dense layer's gate_up_proj (85.5 MiB) 86: 52.5 MiB. A lighter
        // rank's w13 (21 x 2 x 1408 x 2048 x 2 B = 231 MiB) holds 232 and its w2 (115.5 MiB) 116: 65.5 MiB.
        constexpr std::int64_t MiB = std::int64_t(1) << 20;
        QCOMPARE(plan.weights.loadSlackBytes, 105 * MiB / 2);
        // A lighter rank's pool is 26 experts' bytes larger, less its 13 MiB more of whole blocks: its
        // blocks, from the heavier rank's available memory (MLA: 27 layers x (512 + 64) x 2 B a token, 16
        // tokens a block).
        const std::int64_t blockBytes = 27LL * (512 + 64) * 2 * 16;
        QCOMPARE(plan.kv.pageBytes * 27, blockBytes);
        const std::int64_t lighterBlocks = (plan.kv.availableBytes + 26 * expert - 13 * MiB) / blockBytes;
        QCOMPARE(plan.kv.numGpuBlocks, plan.kv.availableBytes / blockBytes);
        QCOMPARE(plan.deploymentCapacityTokens, plan.kv.capacityTokens + 2 * lighterBlocks * 16);
        QVERIFY(plan.notes.join(QLatin1Char('\n')).contains(QStringLiteral("21 on the last ranks")));
    }

    void dataParallelRanksShareTheBatch()
    {
        // A dense model's ranks are copies: every per-GPU figure is one GPU's plan, the batch is
        // split evenly and the deployment holds each rank's cache.
        Scenario one = on(QStringLiteral("llama-3.1-8b"), 1, 1, false);
        one.batchSize = 16;
        Scenario two = one;
        two.dataParallelSize = 2;
        const MemoryPlan single = planMemory(one);
        const MemoryPlan ranks = planMemory(two);
        QCOMPARE(ranks.weights.bytesPerGpu, single.weights.bytesPerGpu);
        QCOMPARE(ranks.overheadBytes, single.overheadBytes); // dense ranks share nothing on the GPU
        QCOMPARE(ranks.kv.capacityTokens, single.kv.capacityTokens);
        QCOMPARE(ranks.deploymentCapacityTokens, 2 * single.kv.capacityTokens);
        QCOMPARE(ranks.deploymentMaxConcurrency, 2 * single.kv.maxConcurrency);
        QCOMPARE(ranks.batchSize, 16);
        // Eight sequences a rank: 8 x 512 blocks of 16 tokens x 32 layers x 2 x 8 heads x 128 x 2 B.
        QCOMPARE(ranks.kv.cacheBytes, 8LL * 512 * 16 * 131'072);
        QCOMPARE(ranks.kv.cacheBytes * 2, single.kv.cacheBytes);
        QCOMPARE(ranks.largestBatchThatFits, 2 * single.largestBatchThatFits);
        QCOMPARE(ranks.gpuCount(), 2);
        // Speed: each rank steps its 8 sequences as one GPU serving 8 would, and nothing joins the
        // ranks of a dense model; the deployment emits both ranks' tokens. Not validated on a
        // measurement of data-parallel ranks, and the plan says so.
        Scenario eight = one;
        eight.batchSize = 8;
        const MemoryPlan copy = planMemory(eight);
        QVERIFY(ranks.speed.available);
        QCOMPARE(ranks.speed.batchSize, 16);
        QCOMPARE(ranks.speed.decode.seconds, copy.speed.decode.seconds);
        QCOMPARE(ranks.speed.decode.breakdown[StepTerm::AllToAll], 0.0);
        QCOMPARE(ranks.speed.decodeTokensPerSecond, 16 / copy.speed.decode.seconds);
        QCOMPARE(ranks.speed.decodeTokensPerSecond, 2 * copy.speed.decodeTokensPerSecond);
        QVERIFY(ranks.speed.notes.join(QLatin1Char('\n')).contains(QStringLiteral("not validated")));
    }

    void dataParallelRanksExchangeTheirMoeTokens()
    {
        // DeepSeek-V2-Lite on two H100s as two ranks with EP, 16 sequences: 8 a rank. Each of its 26
        // MoE layers gathers the other rank's tokens to this GPU's experts and back (vLLM's default
        // allgather_reducescatter): 2 x 26 exchanges of 8 x (2 - 1) x 2048 x 2 B = 32,768 B each over
        // 450 GB/s a direction (900 GB/s NVLink), each after the fitted all-reduce latency.
        Scenario s = on(QStringLiteral("deepseek-v2-lite"), 1, 2, true);
        s.batchSize = 16;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.speed.available);
        const StepQuantities &q = plan.speed.decode.quantities;
        QCOMPARE(q.expertExchanges, 52);
        QCOMPARE(q.expertExchangeTransferSeconds, 52 * 32'768 / 450e9);
        QCOMPARE(plan.speed.decode.breakdown[StepTerm::AllToAll],
                 52 * calibratedSpeedConstants().allReduceLatencySeconds + 52 * 32'768 / 450e9);
        // The experts see both ranks' 16 tokens: the routed experts touched are 16 tokens' (of 64,
        // top-6), as on one GPU decoding all 16, spread over the two GPUs' 32 each.
        Scenario whole = on(QStringLiteral("deepseek-v2-lite"), 1, 1, false);
        whole.batchSize = 16;
        QCOMPARE(plan.speed.expectedExperts, planMemory(whole).speed.expectedExperts);
        // DeepEP's high-throughput kernels send a token only to the other GPU when one of its six
        // experts is there: 2 x (1 - (1/2)^6) GPUs touched, half of them remote, 0.984375 x 4,096 B.
        s.all2allBackend = All2AllBackend::DeepepHighThroughput;
        const MemoryPlan deepep = planMemory(s);
        QCOMPARE(deepep.speed.decode.quantities.expertExchangeTransferSeconds,
                 52 * 8 * 0.984375 * 4096 / 450e9);
        // Each rank's --max-num-seqs caps what it runs: two ranks of 3 run 6 of the 16, and a cap above the
        // batch leaves it whole.
        Scenario capped = on(QStringLiteral("deepseek-v2-lite"), 1, 2, true);
        capped.batchSize = 16;
        capped.maxNumSeqs = 3;
        QCOMPARE(planMemory(capped).speed.batchSize, 6);
        capped.maxNumSeqs = 1'000'000;
        QCOMPARE(planMemory(capped).speed.batchSize, 16);
        // A dense model's ranks exchange nothing (above); one rank, nothing either.
        QCOMPARE(planMemory(whole).speed.decode.quantities.expertExchanges, 0);
    }

    void growthCurvesPassThroughTheRanksPoint()
    {
        // The chart is a GPU's: its curve at the current point is the plan's total, the rank's
        // share of the batch, on both axes (the batch axis counts the deployment's sequences).
        Scenario s = on(QStringLiteral("deepseek-v2-lite"), 1, 3, true);
        s.maxModelLen = 4096;
        s.seqLen = 4096;
        const MemoryPlan plan = planMemory(s);
        for (const GrowthAxis axis : {GrowthAxis::SequenceLength, GrowthAxis::BatchSize}) {
            const GrowthChartData d = growthChartData(s, plan, axis);
            const GrowthCurve &curve = d.curves.at(d.currentCurve);
            const qsizetype at = curve.x.indexOf(d.currentX);
            QVERIFY(at >= 0);
            QCOMPARE(curve.totalBytes.at(at), d.currentTotalBytes);
        }
        QCOMPARE(growthChartData(s, plan, GrowthAxis::SequenceLength).batchSize, 6);
    }

    void expertParallelOnTensorParallelKeepsTheReads()
    {
        // TP + EP: the same all-reduce, and each GPU reads the experts the batch touches among its
        // own, the same bytes in expectation as its shares of every expert.
        const MemoryPlan split = planMemory(on(QStringLiteral("qwen3-30b-a3b"), 2, 1, false));
        const MemoryPlan divided = planMemory(on(QStringLiteral("qwen3-30b-a3b"), 2, 1, true));
        const ForwardCost &tp = split.speed.decode;
        const ForwardCost &ep = divided.speed.decode;
        QVERIFY(tp.seconds > 0);
        QCOMPARE(ep.breakdown[StepTerm::Weights], tp.breakdown[StepTerm::Weights]);
        QCOMPARE(ep.breakdown[StepTerm::AllReduce], tp.breakdown[StepTerm::AllReduce]);
        // But a GPU's fused MoE runs only the copies routed to its own experts (half of the
        // batch's top-8 copies on each of two GPUs), where TP runs every copy on its slice of
        // each expert: 48 layers x 8 copies a token, halved.
        const double tokens = double(split.speed.batchSize);
        QCOMPARE(tp.quantities.routedTokenLayers, tokens * 8 * 48);
        QCOMPARE(ep.quantities.routedTokenLayers, tokens * 8 * 48 / 2);
        const double perCopy = calibratedSpeedConstants().routedTokenSeconds;
        QVERIFY(perCopy > 0);
        QCOMPARE(ep.seconds, tp.seconds - tokens * 8 * 48 / 2 * perCopy);
    }

    void refusals()
    {
        expectError(on(QStringLiteral("qwen3-30b-a3b"), 1, 0, false), QStringLiteral("--data-parallel-size"));
        // 256 GPUs for 128 experts.
        expectError(on(QStringLiteral("qwen3-30b-a3b"), 4, 64, true), QStringLiteral("some would hold none"));
        // Without EP every expert is split over TP x DP GPUs: DeepSeek-V2-Lite's 1408 over 2 x 3.
        expectError(on(QStringLiteral("deepseek-v2-lite"), 2, 3, false),
                    QStringLiteral("moe_intermediate_size"));
        Scenario pipeline = on(QStringLiteral("qwen3-30b-a3b"), 1, 2, true);
        pipeline.pipelineParallelSize = 2;
        expectError(pipeline, QStringLiteral("--pipeline-parallel-size"));
        Scenario sglang = on(QStringLiteral("qwen3-30b-a3b"), 1, 2, true);
        sglang.engine = Engine::Sglang;
        expectError(sglang, QStringLiteral("SGLang"));
        // A dense model takes the flag as vLLM does, and the plan says it changes nothing.
        const MemoryPlan dense = planMemory(on(QStringLiteral("llama-3.1-8b"), 2, 1, true));
        QVERIFY(dense.notes.join(QLatin1Char('\n')).contains(QStringLiteral("no routed experts")));
    }

    void fitTriesDataParallelRanksForAMoe()
    {
        // DeepSeek-V2-Lite's MLA latent is repeated on every tensor-parallel GPU; data-parallel
        // ranks each hold their own requests. 512 requests of 32,768 tokens on up to 8 H100s:
        // among the answers, ranks with the experts divided, each holding its share.
        FitQuery q;
        q.base.model = preset(QStringLiteral("deepseek-v2-lite"));
        q.gpus = {resolveGpu(QStringLiteral("h100-sxm"))};
        q.concurrency = 512;
        q.maxModelLen = 32768;
        q.maxGpus = 8;
        const FitResult result = findFits(q);
        const auto ranks = std::find_if(result.fits.cbegin(), result.fits.cend(),
                                        [](const FitRow &row) { return row.plan.dataParallelSize > 1; });
        QVERIFY(ranks != result.fits.cend());
        const MemoryPlan &plan = ranks->plan;
        // README: four ranks with FP8 weights and an FP8 cache (at vLLM 0.21's default 0.92 of each GPU).
        QCOMPARE(plan.dataParallelSize, 4);
        QCOMPARE(plan.quantization.method, QuantMethod::Fp8);
        QCOMPARE(plan.expertParallelSize, plan.gpuCount());
        QCOMPARE(plan.rankBatchSize, (512 + plan.dataParallelSize - 1) / plan.dataParallelSize);
        QVERIFY(plan.kv.numGpuBlocks >= plan.rankBatchSize * plan.kv.blocksPerMaxRequest);
        QCOMPARE(ranks->maxConcurrency,
                 plan.kv.numGpuBlocks / plan.kv.blocksPerMaxRequest * plan.dataParallelSize);
        QVERIFY2(ranks->command.contains(QStringLiteral("--data-parallel-size %1 --enable-expert-parallel")
                                             .arg(plan.dataParallelSize)),
                 qPrintable(ranks->command));
        test::verifyFitRows(q, result);
    }

    void fitTriesSglangsAttentionGroups()
    {
        // Under SGLang the ranks are attention groups of the tensor-parallel GPUs: 256 requests of
        // 32,768 tokens of DeepSeek-V2-Lite on up to 8 H100s. Tensor parallelism alone repeats the
        // latent on every GPU and holds them on none of the layouts; groups each hold their share.
        FitQuery q;
        q.base.model = preset(QStringLiteral("deepseek-v2-lite"));
        q.base.engine = Engine::Sglang;
        q.gpus = {resolveGpu(QStringLiteral("h100-sxm"))};
        q.concurrency = 256;
        q.maxModelLen = 32768;
        q.maxGpus = 8;
        const FitResult result = findFits(q);
        QVERIFY(!result.fits.isEmpty());
        for (const FitRow &row : result.fits) {
            QVERIFY(row.plan.attentionDataParallel);
            const int gpus = row.plan.gpuCount();
            QCOMPARE(row.plan.tensorParallelSize * row.plan.dataParallelSize, gpus); // the groups divide them
            QVERIFY(gpus <= 8);
            QCOMPARE(row.maxConcurrency,
                     row.plan.kv.numGpuBlocks / row.plan.kv.blocksPerMaxRequest * row.plan.dataParallelSize);
            QVERIFY2(row.command.contains(QStringLiteral("--tp-size %1 --dp-size %2 --enable-dp-attention")
                                              .arg(gpus)
                                              .arg(row.plan.dataParallelSize)),
                     qPrintable(row.command));
        }
        test::verifyFitRows(q, result);
    }

    void fitFromAnSglangExpertLayoutKeepsTheLayoutsThatTakeIt()
    {
        // The window's fit starts from the explorer's scenario; SGLang's --ep-size 4 there does not
        // divide one GPU, and a one-GPU layout is planned without it rather than dropped: Qwen3-30B-A3B
        // for 8 requests of 8,192 tokens fits on one H200 as it does without --ep-size.
        FitQuery q;
        q.base.model = preset(QStringLiteral("qwen3-30b-a3b"));
        q.base.engine = Engine::Sglang;
        q.gpus = {resolveGpu(QStringLiteral("h200"))};
        q.concurrency = 8;
        q.maxModelLen = 8192;
        q.maxGpus = 4;
        const FitResult plain = findFits(q);
        QVERIFY2(!plain.fits.isEmpty(), qPrintable(plain.reason));
        q.base.tensorParallelSize = 4;
        q.base.expertParallelSize = 4;
        const FitResult result = findFits(q);
        QVERIFY2(!result.fits.isEmpty(), qPrintable(result.reason));
        QCOMPARE(result.fits.constFirst().plan.gpuCount(), plain.fits.constFirst().plan.gpuCount());
        test::verifyFitRows(q, result);
    }

    void dataParallelRanksAreProposedWhenTheCacheIsShort()
    {
        // DeepSeek-V2-Lite, 256 requests of 32,768 tokens on one H100: 8.4 M tokens of MLA latent,
        // which tensor parallelism would repeat on every GPU. The fewest ranks that hold the batch
        // as it is, each its share, are proposed; one rank fewer does not hold it.
        Scenario s = on(QStringLiteral("deepseek-v2-lite"), 1, 1, false);
        s.batchSize = 256;
        s.seqLen = s.maxModelLen = 32768;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(!plan.works());
        const QList<Fix> fixes = proposeFixes(s, plan, {});
        const auto ranks = std::find_if(fixes.cbegin(), fixes.cend(),
                                        [](const Fix &fix) { return fix.kind == FixKind::DataParallel; });
        QVERIFY(ranks != fixes.cend());
        QVERIFY(ranks->plan.works());
        QCOMPARE(ranks->scenario.batchSize, 256);
        QVERIFY(ranks->scenario.enableExpertParallel);
        QCOMPARE(ranks->scenario.dataParallelSize, 5); // README
        Scenario fewer = ranks->scenario;
        fewer.dataParallelSize -= 1;
        QVERIFY(!planMemory(fewer).works());
    }

    void sglangAttentionGroupsByHand()
    {
        // SGLang's --tp-size 4 --dp-size 2 --enable-dp-attention on Qwen3-30B-A3B (config.json: hidden
        // 2,048, 48 layers, 32 query and 4 KV heads of 128, 128 experts of 768, vocabulary 151,936,
        // untied): attention over each group's 2 GPUs, the embedding whole, the LM head and experts
        // over all 4 (sgl-project/sglang v0.5.6: compute_dp_attention_world_info, VocabParallelEmbedding
        // enable_tp=not is_dp_attention_enabled(), ParallelLMHead, FusedMoE over moe_tp 4).
        Scenario s = on(QStringLiteral("qwen3-30b-a3b"), 4, 2, false);
        s.engine = Engine::Sglang;
        s.enableDpAttention = true;
        s.maxModelLen = 0;
        s.batchSize = 64;
        s.seqLen = 4096;
        const MemoryPlan plan = planMemory(s);
        constexpr std::int64_t Bf16 = 2;
        const std::int64_t embedding = 151'936LL * 2048 * Bf16;
        const std::int64_t lmHead = embedding / 4;
        // q 4,096 x h and o h x 4,096 halved, k and v 2 of the 4 KV heads each, q/k norms 128 each.
        const std::int64_t attention = 48LL * (4096 * 2048 / 2 * 2 + 2 * 256 * 2048 + 256) * Bf16;
        const std::int64_t experts = 48LL * 128 * 3 * 768 * 2048 / 4 * Bf16;
        const std::int64_t router = 48LL * 128 * 2048 * Bf16;       // replicated
        const std::int64_t norms = (2LL * 2048 * 48 + 2048) * Bf16; // replicated
        const std::int64_t rotary = 40'960LL * 128 * 4;             // cos/sin cache, float32 under SGLang
        // What SGLang measures of the load adds the caching allocator's unfilled segments (loadSlackBytes,
        // core/plan/cachingallocator.h, checked against SGLang's logged loads in docs/validation.md).
        QCOMPARE(plan.weights.buffersBytes, rotary);
        QCOMPARE(plan.weights.bytesPerGpu - plan.weights.loadSlackBytes,
                 embedding + lmHead + attention + experts + router + norms + rotary);
        QVERIFY(plan.weights.loadSlackBytes > 0);
        QCOMPARE(plan.tensorParallelSize, 2); // one attention group's
        QVERIFY(plan.attentionDataParallel);
        // KV: max(1, 4 // 2) = 2 heads a GPU (profile_max_num_token, get_num_kv_heads(attn_tp_size)).
        QCOMPARE(plan.kv.bytesPerToken, 2LL * 128 * 2 * 48 * Bf16);
        // Default --mem-fraction-static (MiB, nvidia-smi's 81,559 for an H100): 512 + 8,192 x 1.5 +
        // 512 x 2 + 4 / 8 x 1,024 = 14,336, with the groups' graphs 512 x 2 x 3 and, past 300,
        // 512 x 2 x 1.5: 18,944; round((81,559 - 18,944) / 81,559, 3) = 0.768.
        QCOMPARE(plan.memFractionStaticPpm, 768'000);
        QCOMPARE(plan.maxNumBatchedTokens, 8192 / 2); // chunked_prefill_size //= dp_size
        QCOMPARE(plan.rankBatchSize, 32);
        QCOMPARE(plan.deploymentCapacityTokens, 2 * plan.kv.capacityTokens);
        const QString line = launchLine(s).command();
        QVERIFY2(line.contains(QStringLiteral("--tp-size 4 --dp-size 2 --enable-dp-attention")),
                 qPrintable(line));
        // Speed: each group steps its 32 sequences at once; every layer gathers the other group's 32
        // tokens to the MLPs and experts split over all four GPUs and scatters their outputs back
        // (SGLang's DP attention: dp_gather / dp_scatter around each MLP): 2 x 48 exchanges of
        // 32 x (2 - 1) x 2,048 x 2 B over 450 GB/s a direction; inside a group of two, the attention's
        // all-reduce, one a layer.
        QVERIFY(plan.speed.available);
        QCOMPARE(plan.speed.batchSize, 64);
        const StepQuantities &q = plan.speed.decode.quantities;
        QCOMPARE(q.expertExchanges, 96);
        QCOMPARE(q.expertExchangeTransferSeconds, 96 * 32.0 * 2048 * 2 / 450e9);
        QCOMPARE(q.allReduces, 48);
        QCOMPARE(q.sequences, 32);

        // The same GPUs without the groups: attention over all 4 and one pool.
        s.enableDpAttention = false;
        s.dataParallelSize = 1;
        const MemoryPlan plain = planMemory(s);
        QCOMPARE(plain.kv.bytesPerToken, 1LL * 128 * 2 * 48 * Bf16);
        QVERIFY(plain.weights.bytesPerGpu < plan.weights.bytesPerGpu);

        // What SGLang refuses or runs otherwise, each named.
        Scenario copies = on(QStringLiteral("qwen3-30b-a3b"), 4, 2, false);
        copies.engine = Engine::Sglang;
        expectError(copies, QStringLiteral("--enable-dp-attention"));
        Scenario uneven = copies;
        uneven.enableDpAttention = true;
        uneven.dataParallelSize = 3;
        expectError(uneven, QStringLiteral("does not divide 4"));
    }

    void sglangDenseMlpsAndLmHeadOfTheGroups()
    {
        // SGLang's --moe-dense-tp-size 1 runs a DeepSeek model's dense layers' MLPs whole on every GPU
        // (enable_moe_dense_fully_dp in python/sglang/srt/layers/communicator.py; DeepseekV2DecoderLayer's
        // mlp_tp_size 1 in python/sglang/srt/models/deepseek_v2.py; shared experts stay split), and
        // --enable-dp-lm-head splits the LM head over one attention group's GPUs (ParallelLMHead
        // use_attn_tp_group; sgl-project/sglang v0.5.6). DeepSeek-V2-Lite on four H100s in two groups:
        //   dense layer 0: 3 x 10,944 x 2,048 x 2 B whole instead of over 4: +100,859,904 B
        //   LM head: 102,400 x 2,048 x 2 B over 2 instead of over 4:       +104,857,600 B
        Scenario s = on(QStringLiteral("deepseek-v2-lite"), 4, 2, false);
        s.engine = Engine::Sglang;
        s.enableDpAttention = true;
        s.maxModelLen = 0;
        const MemoryPlan split = planMemory(s);
        s.moeDenseTpSize = 1;
        const MemoryPlan denseWhole = planMemory(s);
        QCOMPARE(denseWhole.weights.byComponent[int(Component::Mlp)] -
                     split.weights.byComponent[int(Component::Mlp)],
                 std::int64_t(100'859'904));
        s.enableDpLmHead = true;
        const MemoryPlan both = planMemory(s);
        QCOMPARE(both.weights.byComponent[int(Component::LmHead)] -
                     split.weights.byComponent[int(Component::LmHead)],
                 std::int64_t(104'857'600));
        const auto parameters = [](const MemoryPlan &p) {
            return p.weights.bytesPerGpu - p.weights.loadSlackBytes; // the allocator's rounding apart
        };
        QCOMPARE(parameters(both) - parameters(split), std::int64_t(100'859'904 + 104'857'600));
        QVERIFY(both.lmHeadByAttentionGroup && both.denseLayerMlpsWhole && !split.denseLayerMlpsWhole);
        // Speed: a dense layer's MLP then runs on the group's own tokens (its MLP mode SCATTERED,
        // LayerScatterModes._compute_mlp_mode in python/sglang/srt/layers/communicator.py): 26 layers
        // gather the groups' tokens and scatter them back, not 27.
        QCOMPARE(split.speed.decode.quantities.expertExchanges, std::int64_t(2 * 27));
        QCOMPARE(both.speed.decode.quantities.expertExchanges, std::int64_t(2 * 26));
        // The pool gives up what the load takes: the two tensors and the allocator's rounding of them.
        QCOMPARE(both.kv.availableBytes,
                 split.kv.availableBytes - (both.weights.bytesPerGpu - split.weights.bytesPerGpu));
        const QString line = launchLine(s).command();
        QVERIFY2(line.contains(QStringLiteral("--enable-dp-lm-head")) &&
                     line.contains(QStringLiteral("--moe-dense-tp-size 1")),
                 qPrintable(line));
        // Qwen3-30B-A3B has no dense layers: --moe-dense-tp-size 1 changes nothing, and the plan says so.
        Scenario qwen = on(QStringLiteral("qwen3-30b-a3b"), 4, 2, false);
        qwen.engine = Engine::Sglang;
        qwen.enableDpAttention = true;
        qwen.maxModelLen = 0;
        const std::int64_t qwenBytes = planMemory(qwen).weights.bytesPerGpu;
        qwen.moeDenseTpSize = 1;
        const MemoryPlan qwenDense = planMemory(qwen);
        QCOMPARE(qwenDense.weights.bytesPerGpu, qwenBytes);
        QVERIFY(qwenDense.notes.join(QLatin1Char('\n')).contains(QStringLiteral("--moe-dense-tp-size")));
        // What SGLang refuses: another dense TP size ("moe_dense_tp_size only support 1 and None
        // currently"), the LM head by group without the groups ("Please enable dp attention when setting
        // enable_dp_lm_head"), and either under vLLM, whose flags they are not.
        Scenario two = s;
        two.moeDenseTpSize = 2;
        expectError(two, QStringLiteral("--moe-dense-tp-size"));
        Scenario noGroups = s;
        noGroups.enableDpAttention = false;
        noGroups.moeDenseTpSize = 0;
        expectError(noGroups, QStringLiteral("--enable-dp-attention"));
        Scenario vllm = on(QStringLiteral("deepseek-v2-lite"), 4, 1, false);
        vllm.moeDenseTpSize = 1;
        expectError(vllm, QStringLiteral("--moe-dense-tp-size"));
    }

    void sglangExpertParallelByHand()
    {
        // SGLang's --tp-size 4 --ep-size E on Qwen3-30B-A3B (python/sglang/srt/distributed/parallel_state.py:
        // moe_tp_size = tp_size // moe_ep_size; fused_moe_triton/layer.py: num_experts // moe_ep_size
        // experts a rank, moe_intermediate_size // moe_tp_size each): E 4 puts 32 whole experts on each
        // GPU, E 2 64 experts halved. Either way a GPU holds a quarter of the expert bytes, as the
        // plain split does; what changes is which GPU computes which expert.
        Scenario s = on(QStringLiteral("qwen3-30b-a3b"), 4, 1, false);
        s.engine = Engine::Sglang;
        const MemoryPlan split = planMemory(s);
        s.expertParallelSize = 4;
        const MemoryPlan whole = planMemory(s);
        QCOMPARE(whole.expertParallelSize, 4);
        QCOMPARE(whole.localExperts, 32);
        QCOMPARE(whole.expertTensorParallelSize, 1);
        QCOMPARE(expertBytes(whole), 48LL * 32 * qwen3ExpertBytes);
        QCOMPARE(expertBytes(whole), qwen3AllExperts / 4);
        QCOMPARE(expertBytes(whole), expertBytes(split));
        QCOMPARE(whole.weights.bytesPerGpu, split.weights.bytesPerGpu);
        QVERIFY(whole.notes.join(QLatin1Char('\n')).contains(QStringLiteral("--ep-size 4")));
        QVERIFY2(launchLine(s).command().contains(QStringLiteral("--tp-size 4 --ep-size 4")),
                 qPrintable(launchLine(s).command()));
        s.expertParallelSize = 2;
        const MemoryPlan halves = planMemory(s);
        QCOMPARE(halves.localExperts, 64);
        QCOMPARE(halves.expertTensorParallelSize, 2);
        QCOMPARE(expertBytes(halves), 48LL * 64 * qwen3ExpertBytes / 2);
        QCOMPARE(validExpertParallelSizes(s), QList<int>({1, 2, 4}));

        // Under data-parallel attention the experts lie over all 4 GPUs of --tp-size, not a group's 2.
        s.enableDpAttention = true;
        s.dataParallelSize = 2;
        s.expertParallelSize = 4;
        const MemoryPlan groups = planMemory(s);
        QCOMPARE(groups.tensorParallelSize, 2);
        QCOMPARE(groups.localExperts, 32);
        QCOMPARE(expertBytes(groups), qwen3AllExperts / 4);
        QCOMPARE(validExpertParallelSizes(s), QList<int>({1, 2, 4}));
        QVERIFY2(launchLine(s).command().contains(
                     QStringLiteral("--tp-size 4 --dp-size 2 --enable-dp-attention --ep-size 4")),
                 qPrintable(launchLine(s).command()));

        // What SGLang asserts, and what is not SGLang's, each named.
        Scenario odd = on(QStringLiteral("qwen3-30b-a3b"), 4, 1, false);
        odd.engine = Engine::Sglang;
        odd.expertParallelSize = 3;
        expectError(odd, QStringLiteral("--ep-size 3: does not divide the --tp-size 4 GPUs"));
        Scenario mixtral = on(QStringLiteral("mixtral-8x7b"), 16, 1, false);
        mixtral.engine = Engine::Sglang;
        mixtral.expertParallelSize = 16;
        expectError(mixtral, QStringLiteral("does not divide Mixtral-8x7B-v0.1's 8 routed experts"));
        Scenario dense = on(QStringLiteral("llama-3.1-8b"), 2, 1, false);
        dense.engine = Engine::Sglang;
        dense.expertParallelSize = 2;
        expectError(dense, QStringLiteral("--ep-size 2: Llama-3.1-8B has no routed experts"));
        QCOMPARE(validExpertParallelSizes(dense), QList<int>({1}));
        Scenario vllm = on(QStringLiteral("qwen3-30b-a3b"), 4, 1, false);
        vllm.expertParallelSize = 4;
        expectError(vllm, QStringLiteral("--ep-size 4: SGLang's; vLLM divides the experts with "
                                         "--enable-expert-parallel"));
        Scenario vllmFlag = on(QStringLiteral("qwen3-30b-a3b"), 4, 1, true);
        vllmFlag.engine = Engine::Sglang;
        expectError(vllmFlag, QStringLiteral("SGLang divides a MoE's experts with --ep-size"));

        // Read as SGLang spells it and written back.
        const ScenarioValues values{{QStringLiteral("engine"), QStringLiteral("sglang")},
                                    {QStringLiteral("model"), QStringLiteral("qwen3-30b-a3b")},
                                    {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                                    {QStringLiteral("tp-size"), QStringLiteral("4")},
                                    {QStringLiteral("ep-size"), QStringLiteral("4")}};
        const Scenario read = scenarioFromValues(values, builtinResolvers());
        QCOMPARE(read.expertParallelSize, 4);
        QCOMPARE(scenarioToValues(read).value(QStringLiteral("ep-size")), QStringLiteral("4"));
    }

    void mtpDrafterExpertsFollowTheTargetsPlacement()
    {
        // DeepSeek-V3's MTP layer builds its FusedMoE with the target's parallel config
        // (deepseek_mtp.py): under --data-parallel-size 2 with EP its 256 experts are divided among all
        // 16 GPUs as the target's are, 16 a GPU, not split over one rank's 8.
        Scenario s = test::layoutScenario(QStringLiteral("deepseek-v3"), QStringLiteral("h200"), 8, 1, true);
        s.speculative.method = SpeculativeMethod::Mtp;
        s.speculative.numSpeculativeTokens = 1;
        const MemoryPlan one = planMemory(s);
        s.dataParallelSize = 2;
        const MemoryPlan two = planMemory(s);
        QCOMPARE(two.localExperts, 16);
        // An FP8 expert on one GPU: 3 x 2048 x 7168 B and 3 x 896 float32 block scales.
        constexpr std::int64_t expertBytes = 3LL * 2048 * 7168 + 3LL * 896 * 4; // 44,050,944 B
        QCOMPARE(one.weights.draftBytes - two.weights.draftBytes, 16 * expertBytes);
    }

    void optionsReadAndSpellBack()
    {
        ScenarioValues values{{QStringLiteral("model"), QStringLiteral("qwen3-30b-a3b")},
                              {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                              {QStringLiteral("data-parallel-size"), QStringLiteral("4")},
                              {QStringLiteral("enable-expert-parallel"), QStringLiteral("true")}};
        const Scenario s = scenarioFromValues(values, builtinResolvers());
        QCOMPARE(s.dataParallelSize, 4);
        QVERIFY(s.enableExpertParallel);
        const ScenarioValues back = scenarioToValues(s);
        QCOMPARE(back.value(QStringLiteral("data-parallel-size")), QStringLiteral("4"));
        QCOMPARE(back.value(QStringLiteral("enable-expert-parallel")), QStringLiteral("true"));
        // The switch is a flag without a value.
        const QStringList arguments = calcArguments(back);
        const qsizetype at = arguments.indexOf(QStringLiteral("--enable-expert-parallel"));
        QVERIFY(at >= 0);
        QVERIFY(at + 1 == arguments.size() || arguments.at(at + 1).startsWith(QStringLiteral("--")));
        // Off by default: left out.
        QVERIFY(!scenarioToValues(on(QStringLiteral("qwen3-30b-a3b"), 1, 1, false))
                     .contains(QStringLiteral("enable-expert-parallel")));
        values.insert(QStringLiteral("enable-expert-parallel"), QStringLiteral("yes"));
        try {
            scenarioFromValues(values, builtinResolvers());
            QFAIL("'yes' accepted");
        } catch (const Error &error) {
            QVERIFY2(
                error.message().contains(QStringLiteral("--enable-expert-parallel: must be true or false")),
                qPrintable(error.message()));
        }
        const QString line = launchLine(s).command();
        QVERIFY2(line.contains(QStringLiteral("--data-parallel-size 4 --enable-expert-parallel")),
                 qPrintable(line));

        // SGLang's spellings: --dp-size and the attention switch, written back under the shared name.
        const ScenarioValues sglangValues{{QStringLiteral("engine"), QStringLiteral("sglang")},
                                          {QStringLiteral("model"), QStringLiteral("qwen3-30b-a3b")},
                                          {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                                          {QStringLiteral("tp-size"), QStringLiteral("4")},
                                          {QStringLiteral("dp-size"), QStringLiteral("2")},
                                          {QStringLiteral("enable-dp-attention"), QStringLiteral("true")}};
        const Scenario groups = scenarioFromValues(sglangValues, builtinResolvers());
        QCOMPARE(groups.dataParallelSize, 2);
        QVERIFY(groups.enableDpAttention);
        const ScenarioValues groupsBack = scenarioToValues(groups);
        QCOMPARE(groupsBack.value(QStringLiteral("data-parallel-size")), QStringLiteral("2"));
        QCOMPARE(groupsBack.value(QStringLiteral("enable-dp-attention")), QStringLiteral("true"));
        // vLLM takes no such switch.
        ScenarioValues vllmValues = values;
        vllmValues.insert(QStringLiteral("enable-dp-attention"), QStringLiteral("true"));
        try {
            scenarioFromValues(vllmValues, builtinResolvers());
            QFAIL("--enable-dp-attention taken under vLLM");
        } catch (const Error &error) {
            QVERIFY2(error.message().contains(QStringLiteral("SGLang option")), qPrintable(error.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestExpertParallel)
#include "tst_expertparallel.moc"
