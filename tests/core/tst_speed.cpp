// SPDX-License-Identifier: MIT
// The speed roofline: decode and prefill bytes, FLOPs and times against hand
// computation, the format that computes, tensor-parallel all-reduces, the
// efficiency factors, and the public measurements the defaults are calibrated on.
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/output/speedchart.h"
#include "core/plan/kvcache.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speed.h"
#include "core/plan/speedcalibration.h"
#include "core/scenario/scenario.h"
#include "tests/sourcetree.h"
#include "tests/testsupport.h"

#include <algorithm>
#include <cmath>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace kvscope;

namespace {

// Llama-3.1-8B (meta-llama/Llama-3.1-8B config.json): 32 layers, hidden 4096,
// 32 heads and 8 KV heads of 128, MLP 14336, vocabulary 128256, untied, bfloat16.
constexpr std::int64_t Layers = 32, Hidden = 4096, Heads = 32, HeadDim = 128, Mlp = 14336, Vocab = 128256;
constexpr std::int64_t AttentionParams = Layers * (2 * Hidden * Hidden + 2 * Hidden * 1024); // q, o + k, v
constexpr std::int64_t MlpParams = Layers * 3 * Hidden * Mlp;                                // gate, up, down
constexpr std::int64_t TableParams = Vocab * Hidden; // embed_tokens, and again lm_head
constexpr std::int64_t NormParams = (2 * Layers + 1) * Hidden;
constexpr std::int64_t KvBytesPerTokenPerLayer = 2 * 8 * 128 * 2; // K and V, 8 heads x 128, bf16

constexpr double H100Bandwidth = 3350e9; // B/s, gpus.json h100-sxm
constexpr double H100Bf16 = 989.4e12;    // dense FLOP/s
constexpr double H100Fp8 = 1978.9e12;

Scenario scenario(const QString &model, const QString &gpu = QStringLiteral("h100-sxm"))
{
    Scenario s;
    s.model = resolveModel(model);
    s.gpu = resolveGpu(gpu);
    return s;
}

} // namespace

class TestSpeed : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void llamaDecodeIsMemoryBoundOnH100()
    {
        // The usual count is 16.06 GB of bf16 weights + 0.54 GB of KV cache = 16.6 GB per
        // step; the input embedding table (1.05 GB) is a lookup, of which one row is read.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.batchSize = 1;
        s.seqLen = 4096;
        const SpeedPlan speed = planMemory(s).speed;
        QVERIFY(speed.available);

        const std::int64_t weights = 2 * (AttentionParams + MlpParams + NormParams + TableParams) // lm_head
                                     + Hidden * 2; // one embedding row
        QCOMPARE(weights, 15'009'857'536LL);
        QCOMPARE(speed.decode.weightBytes, weights);
        const std::int64_t kv = 4096 * Layers * KvBytesPerTokenPerLayer; // every token of the sequence
        QCOMPARE(kv, 536'870'912LL);
        QCOMPARE(speed.decode.kvBytes, kv);
        // Hidden states in and out of attention and MLP per layer, float32 logits.
        const std::int64_t activations = 4 * Layers * Hidden * 2 + Vocab * 4;
        QCOMPARE(speed.decode.activationBytes, activations);
        QCOMPARE(speed.decode.bytes(), 15'548'290'048LL); // 15.55 GB

        // 2 FLOPs per weight of every linear layer incl. lm_head, plus QK^T and PV over 4096 tokens.
        const double linear = 2.0 * double(AttentionParams + MlpParams + TableParams);
        const double attention = 2.0 * Heads * (HeadDim + HeadDim) * 4096.0 * Layers;
        QCOMPARE(speed.decode.flops(), linear + attention);

        const double memory = 15'548'290'048.0 / H100Bandwidth; // 4.641 ms
        const double compute = (linear + attention) / H100Bf16; // 17 us
        QVERIFY(std::abs(speed.decode.memorySeconds - memory) < 1e-12);
        QVERIFY(std::abs(speed.decode.computeSeconds - compute) < 1e-12);
        QCOMPARE(speed.decode.bound, SpeedBound::Memory);
        QVERIFY(std::abs(speed.decode.idealSeconds - memory) < 1e-12);
        QVERIFY(std::abs(speed.decodeTokensPerSecondIdeal - 215.458) < 0.001);

        // The step model's terms: weights and activations at Hopper's calibrated weight-read
        // efficiency, the KV cache at the attention kernels', no compute beyond the reads,
        // vLLM's cost per step and per sequence; they add up to the step.
        const SpeedConstants &k = calibratedSpeedConstants();
        const StepBreakdown &t = speed.decode.breakdown;
        const double hopper = *k.weightBandwidthEfficiency[std::size_t(GpuGeneration::Hopper)];
        QCOMPARE(speed.bandwidthEfficiency, hopper);
        QVERIFY(std::abs(t[StepTerm::Weights] - double(weights + activations) / H100Bandwidth / hopper) <
                1e-12);
        QVERIFY(std::abs(t[StepTerm::KvCache] - double(kv) / H100Bandwidth / k.kvBandwidthEfficiency) <
                1e-12);
        QCOMPARE(t[StepTerm::Dequantization], 0.0); // bf16 weights
        QCOMPARE(t[StepTerm::KvDequantization], 0.0);
        QCOMPARE(t[StepTerm::Compute], 0.0);
        QCOMPARE(t[StepTerm::AllReduce], 0.0);
        QCOMPARE(t[StepTerm::MoeOverhead], 0.0);
        QCOMPARE(t[StepTerm::StepOverhead], k.stepSeconds[std::size_t(Engine::Vllm)]);
        QCOMPARE(t[StepTerm::SequenceOverhead], k.sequenceSeconds[std::size_t(Engine::Vllm)]);
        QCOMPARE(t[StepTerm::RequestOverhead], 0.0); // a decode step admits no request
        QCOMPARE(speed.decode.seconds, t.total());
        QCOMPARE(speed.decodeTokensPerSecond, 1 / speed.decode.seconds);
        QCOMPARE(speed.decodeTokensPerSecondPerSequence, speed.decodeTokensPerSecond); // batch 1
    }

    void eagerModeIsOutsideTheSpeedModel()
    {
        // --enforce-eager launches every kernel from the host; every calibration measurement captures CUDA
        // graphs (docs/speed-validation.md lists eager runs as outside the model): no speed figure.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.enforceEager = true;
        const SpeedPlan speed = planMemory(s).speed;
        QVERIFY(!speed.available);
        QVERIFY2(speed.notes.join(QLatin1Char('\n')).contains(QLatin1String("--enforce-eager")),
                 qPrintable(speed.notes.join(QLatin1Char('\n'))));
        s.enforceEager = false;
        QVERIFY(planMemory(s).speed.available);
    }

    void batchMultipliesTokensUntilTheRidge()
    {
        // Batch 64 at 1024 tokens: weights once, KV and FLOPs 64 times.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.seqLen = 1024;
        s.batchSize = 1;
        const SpeedPlan one = planMemory(s).speed;
        s.batchSize = 64;
        const SpeedPlan many = planMemory(s).speed;
        QCOMPARE(many.decode.kvBytes, 64 * one.decode.kvBytes);
        QCOMPARE(many.decode.weightBytes - one.decode.weightBytes, 63 * Hidden * 2); // embedding rows
        QCOMPARE(many.decode.bound, SpeedBound::Memory);
        QVERIFY(many.decodeTokensPerSecond > 10 * one.decodeTokensPerSecond);
        QCOMPARE(many.decodeTokensPerSecondPerSequence * 64, many.decodeTokensPerSecond);
        // At 1024 tokens a sequence's KV cache (134 MB per step) costs more time than its
        // FLOPs (17.2 GFLOP = 58 MB at 3.35 TB/s per 989.4 TFLOPS): never compute-bound.
        QCOMPARE(many.ridgeBatchIdeal, -1);

        // At 128 tokens: weights W bytes, per sequence k bytes and f FLOPs; on the ideal
        // roofline B f / peak > (W + B k) / bandwidth  <=>  B > W / (f x bandwidth / peak - k).
        s.seqLen = 128;
        s.batchSize = 1;
        const SpeedPlan shortContext = planMemory(s).speed;
        const ForwardCost &c = shortContext.decode;
        const double perSequenceBytes = double(c.kvBytes + c.activationBytes + Hidden * 2);
        const double fixedBytes = double(c.weightBytes - Hidden * 2);
        const double ridge = fixedBytes / (c.flops() * H100Bandwidth / H100Bf16 - perSequenceBytes);
        QCOMPARE(shortContext.ridgeBatchIdeal, std::int64_t(std::floor(ridge)) + 1);
        QVERIFY(shortContext.ridgeBatchIdeal > 400 && shortContext.ridgeBatchIdeal < 500);
        // With the default efficiencies compute slows more (x 0.53) than memory (x 0.73): sooner.
        QVERIFY(shortContext.ridgeBatch < shortContext.ridgeBatchIdeal);
        s.bandwidthEfficiencyPpm = s.computeEfficiencyPpm = 1'000'000;
        s.batchSize = shortContext.ridgeBatchIdeal;
        QCOMPARE(planMemory(s).speed.decode.bound, SpeedBound::Compute);
        s.batchSize = shortContext.ridgeBatchIdeal - 1;
        QCOMPARE(planMemory(s).speed.decode.bound, SpeedBound::Memory);
    }

    void prefillIsComputeBoundWithTheQuadraticTerm()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.seqLen = 8192;
        s.promptLen = 8192;
        const SpeedPlan speed = planMemory(s).speed;
        // Linear layers for every prompt token, lm_head for the last one only (the first output).
        const double linear = 2.0 * double(AttentionParams + MlpParams) * 8192 + 2.0 * double(TableParams);
        // Causal attention: position i attends to i tokens; sum 8192 x 8193 / 2 = 33,558,528.
        const double attention = 2.0 * Heads * (HeadDim + HeadDim) * Layers * (8192.0 * 8193.0 / 2);
        QCOMPARE(attention, 17'594'333'528'064.0);
        QCOMPARE(speed.prefill.flops(), linear + attention);
        QCOMPARE(speed.prefill.bound, SpeedBound::Compute);
        const double compute = (linear + attention) / H100Bf16; // 133.4 ms
        QVERIFY(std::abs(speed.prefill.idealSeconds - compute) < 1e-12);
        // Compute-bound: the reads hide under it; then the engine's cost per pass and per request.
        const SpeedConstants &k = calibratedSpeedConstants();
        const StepBreakdown &t = speed.prefill.breakdown;
        const double reads = t[StepTerm::Weights] + t[StepTerm::KvCache];
        QVERIFY(std::abs(t[StepTerm::Compute] - (compute / k.computeEfficiency - reads)) < 1e-12);
        QCOMPARE(t[StepTerm::RequestOverhead], k.requestSeconds[std::size_t(Engine::Vllm)]);
        QCOMPARE(t[StepTerm::SequenceOverhead], 0.0);
        QVERIFY(std::abs(speed.prefill.seconds -
                         (compute / k.computeEfficiency + k.stepSeconds[0] + k.requestSeconds[0])) < 1e-12);
        // The KV cache of the whole prompt is written once.
        QCOMPARE(speed.prefill.kvBytes, 8192 * Layers * KvBytesPerTokenPerLayer);

        // --prompt-len picks the prompt; it defaults to --seq-len.
        s.promptLen = 0;
        QCOMPARE(planMemory(s).speed.promptLen, 8192);
        s.promptLen = 512;
        const SpeedPlan shortPrompt = planMemory(s).speed;
        QCOMPARE(shortPrompt.promptLen, 512);
        // Beyond the engine's fixed costs a pass and a request, 16 times fewer tokens take
        // more than 10 times less time (the attention term is quadratic).
        const double fixed = k.stepSeconds[0] + k.requestSeconds[0];
        QVERIFY(shortPrompt.prefill.seconds - fixed < (speed.prefill.seconds - fixed) / 10);
        QCOMPARE(shortPrompt.decode.seconds, speed.decode.seconds); // decode follows --seq-len
    }

    void theVisionTowerEncodesEachImage()
    {
        // Qwen2.5-VL-7B's tower (Qwen/Qwen2.5-VL-7B-Instruct config.json: 32 blocks of hidden 1280,
        // gated MLP 3420, patches 14 x 14 x 2 frames, merge 2, windows of 112 pixels but in blocks 7,
        // 15, 23, 31) on a 1024 x 1024 image: 5,476 patches, 1,369 merged outputs (tst_imagetokens).
        constexpr std::int64_t Patches = 5476, Outputs = 1369;
        constexpr std::int64_t BlockParams = 32 * (3 * 1280 * 1280 + 1280 * 1280 + 3 * 3420 * 1280);
        constexpr std::int64_t PatchEmbed = 1280 * 3 * 2 * 14 * 14;
        constexpr std::int64_t Merger = 5120 * 5120 + 3584 * 5120;
        // Scores and weighted values, 4 x 1280 a pair: 4 full layers over the image, 28 windowed.
        constexpr std::int64_t AttentionPairs = 4 * Patches * Patches + 28 * 16 * 145 * 145;
        const double flops = 2.0 * double(BlockParams + PatchEmbed) * Patches +
                             2.0 * double(Merger) * Outputs + 4.0 * 1280 * double(AttentionPairs);
        QCOMPARE(flops, 7'700'229'242'880.0);

        Scenario s = scenario(QStringLiteral("qwen2.5-vl-7b"));
        s.seqLen = 2048;
        s.promptLen = 1000;
        s.imagesPerRequest = 2;
        s.imageWidth = s.imageHeight = 1024;
        const SpeedPlan speed = planMemory(s).speed;
        QCOMPARE(speed.encoderFlopsPerImage, flops);
        const SpeedConstants &k = calibratedSpeedConstants();
        const StepBreakdown &t = speed.prefill.breakdown;
        QVERIFY(std::abs(t[StepTerm::VisionEncoder] - 2 * flops / H100Bf16 / k.computeEfficiency) < 1e-12);
        QCOMPARE(speed.prefill.quantities.images, 2.0);
        QVERIFY(std::abs(speed.prefill.seconds - t.total()) < 1e-12);
        QCOMPARE(speed.decode.breakdown[StepTerm::VisionEncoder], 0.0); // a decode step encodes nothing

        // Without images the term is not there.
        Scenario text = s;
        text.imagesPerRequest = 0;
        QCOMPARE(planMemory(text).speed.prefill.breakdown[StepTerm::VisionEncoder], 0.0);

        // Over two GPUs each computes half of what is split: all but the patch embedding's
        // replicated linear, and half the heads' attention.
        s.tensorParallelSize = 2;
        const double replicated = 2.0 * double(PatchEmbed) * Patches;
        QCOMPARE(planMemory(s).speed.encoderFlopsPerImage, (flops - replicated) / 2 + replicated);

        // Serving: the steps that carry prompt chunks carry their share of the prompts' images.
        s.tensorParallelSize = 1;
        s.batchSize = 8;
        const SpeedPlan served = planMemory(s).speed;
        QVERIFY(served.serving);
        const ForwardCost &mixed = served.serving->mixedStep;
        const double prompts = double(served.serving->prefillChunkTokens) / double(served.promptLen);
        QVERIFY(std::abs(mixed.quantities.images - 2 * prompts) < 1e-12);
        QVERIFY(mixed.breakdown[StepTerm::VisionEncoder] > 0);
    }

    void longPromptsArePrefilledInChunksOfTheTokenBudget()
    {
        // On an A100 vLLM's API server batches 2,048 tokens a step (arg_utils.py):
        // a 3,072-token prompt takes a pass of 2,048 and one of 1,024 that
        // attends to the first chunk and reads its KV cache.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("a100-80gb"));
        s.seqLen = 3072;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.maxNumBatchedTokens, 2048);
        const SpeedModel model(s, plan);
        const auto passes = model.prefillPasses(3072);
        QCOMPARE(passes.size(), 2);
        const ForwardCost &first = passes.at(0).cost, &second = passes.at(1).cost;
        QCOMPARE(first.kvBytes, 2048 * Layers * KvBytesPerTokenPerLayer);
        QCOMPARE(second.kvBytes,
                 (1024 + 2048) * Layers * KvBytesPerTokenPerLayer); // writes its own, reads the first's
        // Causal attention: positions 2,049..3,072 attend to 2,049..3,072 tokens each.
        const double attended = (3072.0 * 3073.0 - 2048.0 * 2049.0) / 2;
        QCOMPARE(second.attentionFlops, 2.0 * Heads * (HeadDim + HeadDim) * Layers * attended);
        // Only the last chunk samples: lm_head once; the request is admitted once.
        QCOMPARE(first.quantities.requests, 0);
        QCOMPARE(second.quantities.requests, 1);
        const double linear =
            first.quantizedFlops + first.denseFlops + second.quantizedFlops + second.denseFlops;
        QCOMPARE(linear, 2.0 * double(AttentionParams + MlpParams) * 3072 + 2.0 * double(TableParams));
        const ForwardCost whole = model.prefill(3072);
        QVERIFY(std::abs(whole.seconds - (first.seconds + second.seconds)) < 1e-15);
        const SpeedConstants &k = calibratedSpeedConstants();
        QCOMPARE(whole.breakdown[StepTerm::StepOverhead], 2 * k.stepSeconds[0]);
        QCOMPARE(whole.breakdown[StepTerm::RequestOverhead], k.requestSeconds[0]);
        QCOMPARE(plan.speed.prefill.seconds, whole.seconds);

        // A 100,000-token prompt is 49 chunks: 48 whole ones in 16 bands and the last,
        // 17 passes to price; their linear FLOPs are the prompt's exactly and their
        // attention the causal sum within a thousandth.
        Scenario longPrompt = s;
        longPrompt.seqLen = 100'000;
        longPrompt.maxModelLen = 100'000;
        const SpeedModel longModel(longPrompt, planMemory(longPrompt));
        const auto bands = longModel.prefillPasses(100'000);
        QCOMPARE(bands.size(), 17);
        std::int64_t chunks = 0;
        for (const auto &band : bands)
            chunks += band.times;
        QCOMPARE(chunks, 49);
        const ForwardCost all = longModel.prefill(100'000);
        QCOMPARE(all.quantizedFlops + all.denseFlops,
                 2.0 * double(AttentionParams + MlpParams) * 100'000 + 2.0 * double(TableParams));
        const double causal = 2.0 * Heads * (HeadDim + HeadDim) * Layers * (100'000.0 * 100'001.0 / 2);
        QVERIFY(std::abs(all.attentionFlops / causal - 1) < 1e-3);
        QCOMPARE(all.quantities.requests, 1);

        // On an H100 (8,192 tokens a step) it is one pass; 16 prompts of 1,024 on
        // the A100 go two to a pass: eight passes.
        Scenario h100 = s;
        h100.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        QCOMPARE(SpeedModel(h100, planMemory(h100)).prefillPasses(3072).size(), 1);
        const auto packed = model.prefillPasses(1024, 16);
        QCOMPARE(packed.size(), 1);
        QCOMPARE(packed.first().times, 8);
        QCOMPARE(packed.first().cost.quantities.requests, 2);
    }

    // A shared prefix is in the prefix cache: a prompt computes its tokens after the prefix's whole
    // blocks, never its last one (vLLM's max_cache_hit_length = num_tokens - 1, SGLang's
    // max_prefix_len = input_len - 1; core/plan/kvcache.h), and attends to all of them.
    void aSharedPrefixIsNotPrefilledAgain()
    {
        QCOMPARE(prefixCacheHitTokens(4096, 8192, 16), 4096);
        QCOMPARE(prefixCacheHitTokens(4100, 8192, 16), 4096); // whole blocks only
        QCOMPARE(prefixCacheHitTokens(4096, 4096, 16), 4080); // the last token runs: its block does
        QCOMPARE(prefixCacheHitTokens(4096, 4096, 1), 4095);  // SGLang's pages of one token
        QCOMPARE(prefixCacheHitTokens(0, 8192, 16), 0);

        // Llama-3.1-8B on an A100 (2,048 tokens a step), a 6,144-token prompt whose first 4,096 are
        // the shared prefix: its 2,048 computed tokens are one pass where the whole prompt takes three.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("a100-80gb"));
        s.seqLen = 8192;
        s.promptLen = 6144;
        const MemoryPlan plain = planMemory(s);
        s.sharedPrefixLen = 4096;
        const MemoryPlan shared = planMemory(s);
        QCOMPARE(shared.maxNumBatchedTokens, 2048);
        const SpeedModel model(s, shared);
        QCOMPARE(model.cachedPromptTokens(6144), 4096);
        Scenario unshared = s;
        unshared.sharedPrefixLen = 0;
        QCOMPARE(SpeedModel(unshared, plain).prefillPasses(6144).size(), 3);
        const auto passes = model.prefillPasses(6144);
        QCOMPARE(passes.size(), 1);
        const ForwardCost &pass = passes.first().cost;
        // It writes its 2,048 tokens' KV and reads the prefix's 4,096.
        QCOMPARE(pass.kvBytes, (2048 + 4096) * Layers * KvBytesPerTokenPerLayer);
        // Positions 4,097..6,144 attend to 4,097..6,144 tokens each.
        const double attended = (6144.0 * 6145.0 - 4096.0 * 4097.0) / 2;
        QCOMPARE(pass.attentionFlops, 2.0 * Heads * (HeadDim + HeadDim) * Layers * attended);
        QCOMPARE(pass.quantizedFlops + pass.denseFlops,
                 2.0 * double(AttentionParams + MlpParams) * 2048 + 2.0 * double(TableParams));
        QCOMPARE(pass.quantities.requests, 1);
        // The plan says so, and its time to first token is that pass's.
        QCOMPARE(shared.speed.cachedPromptTokens, 4096);
        QCOMPARE(plain.speed.cachedPromptTokens, 0);
        QCOMPARE(shared.speed.prefill.seconds, pass.seconds);
        QVERIFY(shared.speed.prefill.seconds < plain.speed.prefill.seconds / 2);
        QVERIFY(shared.speed.notes.join(u' ').contains(QStringLiteral("first 4,096 tokens")));

        // Serving: each step's budget less the running decodes carries prompt chunks (vLLM's
        // scheduler), so a request's prompt takes fewer steps, its first token comes sooner
        // and the users' throughput rises; decoding is unchanged (every sequence still reads its
        // whole context).
        QVERIFY(shared.speed.serving && plain.speed.serving);
        const std::int64_t left = 2048 - plain.speed.serving->concurrency;
        QCOMPARE(plain.speed.serving->prefillStepsPerRequest, (6144 + left - 1) / left);
        QCOMPARE(shared.speed.serving->prefillStepsPerRequest, (2048 + left - 1) / left);
        QCOMPARE(shared.speed.serving->cachedPromptTokens, 4096);
        QVERIFY(shared.speed.serving->timeToFirstTokenSeconds < plain.speed.serving->timeToFirstTokenSeconds);
        QVERIFY(shared.speed.serving->outputTokensPerSecond > plain.speed.serving->outputTokensPerSecond);
        QCOMPARE(shared.speed.decode.seconds, plain.speed.decode.seconds);
    }

    void servingMixesPromptChunksIntoDecodeSteps()
    {
        // vllm bench serve at --max-concurrency 64, 1024-token prompts, 1024 out,
        // on an H100 (--max-num-batched-tokens 8192 by default there).
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.batchSize = 64;
        s.seqLen = 2048;
        s.promptLen = 1024;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.maxNumBatchedTokens, 8192);
        QVERIFY(plan.speed.serving.has_value());
        const ServingCost &v = *plan.speed.serving;
        QCOMPARE(v.outputLen, 1024); // --seq-len minus the prompt
        // The decodes take 64 of the 8,192 tokens; a 1,024-token prompt fits the
        // other 8,128 in one step; a request's life: that step and 1,023 decodes.
        QCOMPARE(v.prefillStepsPerRequest, 1);
        QCOMPARE(v.stepsPerRequest, 1024);
        QCOMPARE(v.prefillChunkTokens, 1024);
        QCOMPARE(v.decodingSequences, 64); // 64 x 1023 / 1024 = 63.94
        // The other 63 users' prompts land in 63 of this request's 1,023 token steps.
        QCOMPARE(v.prefillStepShare, 63.0 / 1023.0);
        const double itl = 63.0 / 1023.0 * v.mixedStep.seconds + 960.0 / 1023.0 * v.decodeStep.seconds;
        QVERIFY(std::abs(v.interTokenSeconds - itl) < 1e-12);
        QVERIFY(std::abs(v.meanStep.total() - itl) < 1e-12);
        // The step with a chunk carries the decodes and 1,024 prompt tokens' KV writes.
        const std::int64_t decodeKv = 64 * (1024 + 512) * Layers * KvBytesPerTokenPerLayer; // context 1,536
        QCOMPARE(v.decodeStep.kvBytes, decodeKv);
        QCOMPARE(v.mixedStep.kvBytes, decodeKv + 1024 * Layers * KvBytesPerTokenPerLayer);
        // First token: its own step (with the others' decodes) and the request handling.
        const SpeedConstants &k = calibratedSpeedConstants();
        QVERIFY(std::abs(v.timeToFirstTokenSeconds - (v.mixedStep.seconds + k.requestSeconds[0])) < 1e-12);
        QVERIFY(std::abs(v.requestSeconds - (v.timeToFirstTokenSeconds + 1023 * itl)) < 1e-12);
        QVERIFY(std::abs(v.outputTokensPerSecond - 64 * 1024 / v.requestSeconds) < 1e-9);

        // One user: no other prompt interrupts; the step is the decode at the
        // average context, as --seq-len 1,536 plans it.
        s.batchSize = 1;
        const ServingCost alone = *planMemory(s).speed.serving;
        QCOMPARE(alone.prefillStepShare, 0.0);
        Scenario decodeOnly = s;
        decodeOnly.seqLen = 1536;
        decodeOnly.promptLen = 0;
        QVERIFY(std::abs(alone.interTokenSeconds - planMemory(decodeOnly).speed.decode.seconds) < 1e-12);

        // Long prompts, short answers: 32 prompts of 8,192 tokens need
        // ceil(262,144 / 8,160) = 33 steps a request's life, more than its own
        // 2 prefill and 15 decode steps: prefill sets the pace, every step carries
        // 262,144 / 33 = 7,944 prompt tokens, 32 x 15 / 33 = 14.5 sequences decode,
        // and a new request waits 33 - 17 = 16 steps for its turn.
        s.batchSize = 32;
        s.seqLen = 8192 + 16;
        s.promptLen = 8192;
        const ServingCost limited = *planMemory(s).speed.serving;
        QCOMPARE(limited.concurrency, 32);
        QCOMPARE(limited.prefillStepsPerRequest, 2);
        QCOMPARE(limited.stepsPerRequest, 33);
        QCOMPARE(limited.prefillChunkTokens, 7944);
        QCOMPARE(limited.decodingSequences, 15);
        QCOMPARE(limited.prefillStepShare, 1.0);
        QVERIFY(std::abs(limited.timeToFirstTokenSeconds -
                         (2 * limited.mixedStep.seconds + 16 * limited.meanStep.total() +
                          k.requestSeconds[0])) < 1e-12);

        s.batchSize = 64;
        // SGLang runs prompts as steps of their own: a decoding request waits
        // through the others' (63 of 1 step each) over its 1,023 decode steps.
        s.engine = Engine::Sglang;
        s.seqLen = 2048;
        s.promptLen = 1024;
        const ServingCost sglang = *planMemory(s).speed.serving;
        QCOMPARE(sglang.mixedStep.quantities.sequences, 0);
        const double sglangItl = (1023 * sglang.decodeStep.seconds +
                                  63 * sglang.prefillStepsPerRequest * sglang.mixedStep.seconds) /
                                 1023;
        QVERIFY(std::abs(sglang.interTokenSeconds - sglangItl) < 1e-12);

        // No output beyond the prompt: no serving figures.
        s.promptLen = 0;
        QVERIFY(!planMemory(s).speed.serving);
    }

    // Open loop (vllm bench serve --request-rate): the server holds the smallest whole number n
    // of requests in flight that the rate keeps busy, rate x request time(n) <= n (Little's law).
    void requestRateSetsTheRequestsInFlight()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.seqLen = 2048;
        s.promptLen = 1024;
        s.requestRateMilli = 2000; // 2 requests a second
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.speed.serving.has_value());
        const ServingCost &v = *plan.speed.serving;
        const SpeedModel model(s, plan);
        const std::int64_t n = v.concurrency;
        QVERIFY(n > 1);
        QVERIFY(2.0 * model.serving(n, 1024, 1024).requestSeconds <= double(n));
        QVERIFY(2.0 * model.serving(n - 1, 1024, 1024).requestSeconds > double(n - 1));
        // By hand: with about 16 in flight a step reads the 15 GiB of weights (5.2 ms) and
        // some KV cache, with the engine's 1.5 ms, about 7.5 ms; 1,024 tokens out take about
        // 7.7 s, so 2 a second keep about 16 in flight.
        QVERIFY2(n >= 14 && n <= 20, qPrintable(QString::number(n)));
        QCOMPARE(v.requestRate, 2.0);
        QVERIFY(std::abs(v.requestsInFlight - 2.0 * v.requestSeconds) < 1e-12);
        QVERIFY(!v.saturated);
        // The figures are serving's at that count; the batch size plays no part.
        QCOMPARE(v.interTokenSeconds, model.serving(n, 1024, 1024).interTokenSeconds);
        s.batchSize = 1;
        QCOMPARE(planMemory(s).speed.serving->concurrency, n);

        // A hundredth of a request a second: one at a time, and the server mostly idle.
        s.requestRateMilli = 10;
        const ServingCost idle = *planMemory(s).speed.serving;
        QCOMPARE(idle.concurrency, 1);
        QVERIFY(idle.requestsInFlight < 1);

        // More than the server completes with every request the KV cache holds in flight:
        // it saturates, and says how many a second it does complete.
        s.requestRateMilli = MaxRequestRateMilli;
        const MemoryPlan flooded = planMemory(s);
        const ServingCost &full = *flooded.speed.serving;
        const std::int64_t held = std::min(flooded.kv.capacityTokens / 2048, flooded.maxNumSeqs);
        QVERIFY(full.saturated);
        QCOMPARE(full.concurrency, held);
        QVERIFY(std::abs(full.maxRequestRate - double(held) / full.requestSeconds) < 1e-9);
        QVERIFY(flooded.speed.notes.join(QLatin1Char(' '))
                    .contains(QStringLiteral("requests queue without end")));
    }

    void servingHoldsWhatTheCacheHolds()
    {
        // An RTX 4090 with Llama-3.1-8B: its KV cache holds a few 8,192-token
        // requests; serving 16 users runs as many as it holds and says so.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("rtx-4090"));
        s.batchSize = 16;
        s.seqLen = 8192;
        s.promptLen = 4096;
        const MemoryPlan plan = planMemory(s);
        const std::int64_t held = plan.kv.capacityTokens / 8192;
        QVERIFY(held >= 1 && held < 16);
        QCOMPARE(plan.speed.serving->concurrency, held);
        QVERIFY(plan.speed.notes.join(QLatin1Char(' '))
                    .contains(QStringLiteral("holds %1 requests of 8192 tokens at once").arg(held)));
    }

    void theEngineRunsAtMostMaxNumSeqsAtOnce()
    {
        // vLLM's scheduler runs at most --max-num-seqs requests at once (Scheduler.schedule,
        // vllm/v1/core/sched/scheduler.py: "if len(self.running) == self.max_num_running_reqs: break"),
        // SGLang at most --max-running-requests: 300 users of Llama-3.1-8B on an H100 with a cap of 128
        // decode 128 a step however many the cache would hold; the others wait.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.batchSize = 300;
        s.seqLen = 1024;
        s.promptLen = 512;
        s.maxNumSeqs = 128;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.largestBatchThatFits >= 300);
        QCOMPARE(plan.speed.batchSize, std::int64_t(128));
        QCOMPARE(plan.speed.serving->concurrency, std::int64_t(128));
        const QString notes = plan.speed.notes.join(QLatin1Char(' '));
        QVERIFY2(notes.contains(QStringLiteral("--max-num-seqs 128")), qPrintable(notes));
        // The same under SGLang, whose speculative decoding caps it at 48 unless told otherwise
        // (_handle_eagle_family, python/sglang/srt/arg_groups/speculative_hook.py: "Max running requests
        // is reset to 48 for speculative decoding").
        s.engine = Engine::Sglang;
        s.maxNumSeqs = 0;
        s.batchSize = 64;
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", )"
                           R"("num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan sglang = planMemory(s);
        QCOMPARE(sglang.maxNumSeqs, std::int64_t(48));
        QCOMPARE(sglang.speed.batchSize, std::int64_t(48));
        QVERIFY2(
            sglang.speed.notes.join(QLatin1Char(' ')).contains(QStringLiteral("--max-running-requests 48")),
            qPrintable(sglang.speed.notes.join(QLatin1Char(' '))));
    }

    void slidingWindowsAndMlaAttendAsTheyCache()
    {
        // gemma-2-9b: 21 sliding layers hold 4096 tokens, 21 full layers all of them.
        Scenario gemma = scenario(QStringLiteral("gemma-2-9b"));
        gemma.batchSize = 1;
        gemma.seqLen = 8192;
        const MemoryPlan g = planMemory(gemma);
        QCOMPARE(g.kv.slidingLayers, 21);
        QCOMPARE(g.speed.decode.kvBytes, (21 * 8192 + 21 * 4096) * g.kv.bytesPerTokenPerLayer);

        // DeepSeek-V3 decodes on the 576-wide latent: QK^T over kv_lora + rope = 576, PV over 512.
        Scenario deepseek = scenario(QStringLiteral("deepseek-v3"));
        deepseek.tensorParallelSize = 8;
        deepseek.batchSize = 1;
        deepseek.seqLen = 1000;
        const MemoryPlan d = planMemory(deepseek);
        QCOMPARE(d.speed.decode.kvBytes, 1000LL * 61 * 576 * 2); // latent replicated on every GPU
        const double heads = 128 / 8;
        QCOMPARE(d.speed.decode.attentionFlops, 2 * heads * (576 + 512) * 1000.0 * 61);
    }

    void aDraftModelReadsItsOwnWeightsAndCache()
    {
        // Llama-3.1-8B drafting for Llama-3.3-70B on 4 H100s (vLLM's draft_model): each draft pass
        // reads the draft's weights but not its untied embedding (a token looks up one row; its
        // lm_head is a matrix of its own): 8B's quarter of 128,256 x 4,096 x 2 B = 262,668,288 B less.
        // Its rotary table is the target's (same positions, rope_theta and scaling). It reads its
        // 32 layers' KV cache (8 KV heads of 128 over 4 GPUs: 1,024 B a token and layer).
        Scenario s = scenario(QStringLiteral("llama-3.3-70b"));
        s.tensorParallelSize = 4;
        s.seqLen = 2048;
        s.batchSize = 1;
        s.draftAcceptancePpm = 700'000;
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "draft_model", "model": "meta-llama/Llama-3.1-8B-Instruct", )"
                           R"("num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.speed.speculative);
        const SpeculativeSpeed &x = *plan.speed.speculative;
        QCOMPARE(x.draftPass.weightBytes, plan.weights.draftBytes - std::int64_t(128'256) / 4 * 4096 * 2);
        QCOMPARE(x.draftPass.kvBytes, std::int64_t(2048) * 32 * 1024);
        QVERIFY(x.tokensPerStep > 1);
    }

    void speculativeDecodingYieldsTokensPerStep()
    {
        // Leviathan et al. 2023, eq. 1: 1 + a + ... + a^k tokens a step.
        QCOMPARE(tokensPerStep(0.5, 3), 1.875);
        QCOMPARE(tokensPerStep(1.0, 3), 4.0);
        // The EAGLE-3 default is the rate whose 7-draft length is vLLM issue 26191's 3.53.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.batchSize = 1;
        s.seqLen = 2048;
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(
                R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const std::optional<DraftAcceptance> acceptance = draftAcceptance(s);
        QVERIFY(acceptance);
        QVERIFY(std::abs(tokensPerStep(acceptance->rate, 7) - 3.53) < 1e-9);

        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.speed.speculative);
        const SpeculativeSpeed &x = *plan.speed.speculative;
        QCOMPARE(x.tokensPerStep, tokensPerStep(acceptance->rate, 3));
        // A step is the verify pass and k draft passes; the speed-up is tokens a step over that,
        // against one plain decode step.
        QCOMPARE(x.stepSeconds, x.verifyPass.seconds + 3 * x.draftPass.seconds);
        QVERIFY(std::abs(x.speedup - x.tokensPerStep * plan.speed.decode.seconds / x.stepSeconds) < 1e-12);
        // Verifying 4 tokens a sequence reads the same weights and KV cache as decoding one, with
        // 4 times the linear-layer FLOPs: a memory-bound step barely grows.
        QCOMPARE(x.verifyPass.weightBytes,
                 plan.speed.decode.weightBytes + 3 * Hidden * 2); // 3 more embedding rows
        QCOMPARE(x.verifyPass.kvBytes, plan.speed.decode.kvBytes);
        QVERIFY(std::abs(x.verifyPass.quantizedFlops + x.verifyPass.denseFlops -
                         4 * (plan.speed.decode.quantizedFlops + plan.speed.decode.denseFlops)) < 1);
        // The draft pass reads the drafter's 850,159,616 B less its rotary table (524,288 B), and its
        // one layer's KV cache: 2,048 tokens x 4,096 B.
        QCOMPARE(x.draftPass.weightBytes, std::int64_t(850'159'616 - 524'288));
        QCOMPARE(x.draftPass.kvBytes, std::int64_t(2048) * KvBytesPerTokenPerLayer);
        QVERIFY(x.speedup > 1);
        // The decode chart's drafter line passes through the plan's figure at the current batch.
        const SpeedChartData chart = speedChartData(s, plan);
        const SpeedCurve &curve = chart.curves.at(chart.currentCurve);
        const qsizetype at = curve.batch.indexOf(plan.speed.batchSize);
        QVERIFY(at >= 0 && at < curve.tokensPerSecondSpeculative.size());
        QCOMPARE(curve.tokensPerSecondSpeculative.at(at), x.tokensPerSecond);
        QCOMPARE(chart.draftTokens, std::int64_t(3));

        // Llama-3.3-70B on 4 H100s: verification's k + 1 tokens a sequence turn the step compute-bound
        // at large batches, where speculation stops paying; it pays one sequence below.
        Scenario big = scenario(QStringLiteral("llama-3.3-70b"));
        big.tensorParallelSize = 4;
        big.seqLen = 2048;
        big.batchSize = 1;
        big.speculative = parseSpeculativeConfig(
            QStringLiteral(
                R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.3-Instruct-70B", "num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const std::int64_t breakEven = planMemory(big).speed.speculative->breakEvenBatch;
        QVERIFY2(breakEven > 1, qPrintable(QString::number(breakEven)));
        big.batchSize = breakEven;
        big.gpu.memoryBytes *= 64; // room for the batch: the question is speed
        QVERIFY(planMemory(big).speed.speculative->speedup < 1);
        big.batchSize = breakEven - 1;
        QVERIFY(planMemory(big).speed.speculative->speedup >= 1);

        // MTP's default follows the measurement on the target's own layers where one is published:
        // Qwen3-Next's 2.25 tokens a step at 2 drafts (vLLM issue 25368) is p with 1 + p + p^2 = 2.25,
        // p = (sqrt(6) - 1) / 2; DeepSeek-V3's technical report's 85 % elsewhere.
        Scenario next = scenario(QStringLiteral("qwen3-next-80b-a3b"), QStringLiteral("h200"));
        next.speculative.method = SpeculativeMethod::Mtp;
        next.speculative.numSpeculativeTokens = 2;
        const std::optional<DraftAcceptance> nextRate = draftAcceptance(next);
        QVERIFY(nextRate);
        QVERIFY(std::abs(nextRate->rate - (std::sqrt(6.0) - 1) / 2) < 1e-9);
        QVERIFY(nextRate->source.contains(QStringLiteral("25368")));
        Scenario deepseek = scenario(QStringLiteral("deepseek-v3"), QStringLiteral("h200"));
        deepseek.speculative = next.speculative;
        QVERIFY(std::abs(draftAcceptance(deepseek)->rate - 0.85) < 1e-9);

        // n-gram: no published acceptance, no figure, a note naming the option; with a rate, no draft pass.
        s.speculative =
            parseSpeculativeConfig(QStringLiteral(R"({"method": "ngram", "num_speculative_tokens": 4})"),
                                   QStringLiteral("--speculative-config"), resolveDraftModel);
        const SpeedPlan ngram = planMemory(s).speed;
        QVERIFY(!ngram.speculative);
        QVERIFY(ngram.notes.join(QLatin1Char('\n')).contains(QStringLiteral("--draft-acceptance-rate")));
        s.draftAcceptancePpm = 500'000;
        const SpeculativeSpeed given = *planMemory(s).speed.speculative;
        QCOMPARE(given.tokensPerStep, 1.9375);
        QCOMPARE(given.draftPass.seconds, 0.0);
        QCOMPARE(given.acceptanceSource, QStringLiteral("--draft-acceptance-rate"));
    }

    void speculativeConstantsAreFittedOnPublicMeasurements()
    {
        // tests/data/speculative-speed-measurements.json: vLLM issue 20780's Llama-3.1-8B-Instruct at
        // batch 1 with EAGLE-3 and EAGLE-1 drafts, each k with its measured acceptance length and time
        // per output token. What a step takes beyond the step model's passes, TPOT x AL - verify -
        // k x draft pass, is fitted as c0 + k x c1 on the calibration rows: c0 the step's own work with
        // a drafter, c1 each draft pass's. The held-out rows are predicted within 25 %.
        QFile file(test::sourceTreePath(QStringLiteral("tests/data/speculative-speed-measurements.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray rows =
            QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("rows")).toArray();
        QVERIFY(rows.size() >= 6);
        SpeedConstants unfitted = calibratedSpeedConstants();
        unfitted.speculativeStepSeconds = 0;
        unfitted.draftPassSeconds = 0;
        const ModelArch eagle3 = resolveDraftModel(QStringLiteral("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"));
        const auto scenarioOf = [&](const QJsonObject &row) {
            Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
            s.batchSize = 1;
            s.seqLen = 512; // MT-Bench: short questions and answers
            s.promptLen = 128;
            s.speculative.numSpeculativeTokens = row.value(QLatin1String("k")).toInteger();
            s.speculative.model = row.value(QLatin1String("draft")).toString();
            s.speculative.draft = eagle3;
            if (row.value(QLatin1String("method")).toString() == QLatin1String("eagle")) {
                // EAGLE-1: one decoder layer of the same shape, the target's lm_head (llama_eagle.py).
                s.speculative.method = SpeculativeMethod::Eagle;
                s.speculative.draft.draftVocabSize = 0;
            } else {
                s.speculative.method = SpeculativeMethod::Eagle3;
            }
            return s;
        };
        // Least squares of y = c0 + c1 k.
        double n = 0, sk = 0, sy = 0, skk = 0, sky = 0;
        for (const QJsonValue value : rows) {
            const QJsonObject row = value.toObject();
            if (row.value(QLatin1String("role")).toString() != QLatin1String("calibration"))
                continue;
            const Scenario s = scenarioOf(row);
            const SpeedModel model(s, planMemory(s), unfitted);
            const double k = double(s.speculative.numSpeculativeTokens);
            const double step = row.value(QLatin1String("tpot_ms")).toDouble() / 1000 *
                                row.value(QLatin1String("acceptance_length")).toDouble();
            const double y = step - model.verify(1, std::int64_t(k)).seconds - k * model.draftPass(1).seconds;
            n += 1;
            sk += k;
            sy += y;
            skk += k * k;
            sky += k * y;
        }
        const double c1 = (n * sky - sk * sy) / (n * skk - sk * sk);
        const double c0 = (sy - c1 * sk) / n;
        qInfo("fitted: speculativeStepSeconds %.4g, draftPassSeconds %.4g", c0, c1);
        QVERIFY(std::abs(c0 - calibratedSpeedConstants().speculativeStepSeconds) < 0.5e-6);
        QVERIFY(std::abs(c1 - calibratedSpeedConstants().draftPassSeconds) < 0.5e-6);

        for (const QJsonValue value : rows) {
            const QJsonObject row = value.toObject();
            const Scenario s = scenarioOf(row);
            const double acceptanceLength = row.value(QLatin1String("acceptance_length")).toDouble();
            const SpeedModel model(s, planMemory(s));
            const std::int64_t k = s.speculative.numSpeculativeTokens;
            const double predicted =
                (model.verify(1, k).seconds + double(k) * model.draftPass(1).seconds) / acceptanceLength;
            const double measured = row.value(QLatin1String("tpot_ms")).toDouble() / 1000;
            qInfo("%s %s k=%lld: TPOT %.2f ms predicted, %.2f measured (%+.1f %%)",
                  qPrintable(row.value(QLatin1String("role")).toString()),
                  qPrintable(row.value(QLatin1String("method")).toString()), qlonglong(k), predicted * 1000,
                  measured * 1000, (predicted / measured - 1) * 100);
            // EAGLE-1 is predicted slower than measured: the per-pass cost is fitted on EAGLE-3, whose
            // passes cost more in that release (the issue's subject: measured 1.08 ms a pass against
            // EAGLE-1's 0.73, though EAGLE-1 reads the target's 128k-token head). The miss is pinned as
            // docs/methodology.md states it.
            const double error = predicted / measured - 1;
            if (s.speculative.method == SpeculativeMethod::Eagle3)
                QVERIFY(std::abs(error) < 0.25);
            else
                QVERIFY(error > 0.15 && error < 0.40);
        }
    }

    void expectedExpertsFormula()
    {
        // One token touches exactly its top-k; many tokens touch every expert.
        QCOMPARE(expectedExpertsTouched(128, 8, 1), 8.0);
        QVERIFY(std::abs(expectedExpertsTouched(128, 8, 4096) - 128) < 1e-9);
        // 16 tokens: 128 x (1 - (120/128)^16) = 128 x (1 - 0.356074) = 82.42
        QVERIFY(std::abs(expectedExpertsTouched(128, 8, 16) - 82.4226) < 1e-3);
        QCOMPARE(expectedExpertsTouched(8, 8, 3), 8.0); // top-k = all
        QCOMPARE(expectedExpertsTouched(0, 0, 5), 0.0); // dense
    }

    void moeDecodeReadsTheExpertsItTouches()
    {
        // Qwen3-30B-A3B: 48 MoE layers of 128 experts, top-8, hidden 2048.
        Scenario s = scenario(QStringLiteral("qwen3-30b-a3b"));
        // Sequences of one 16-token block (48 layers x 4 KV heads x 128 x 2 x 2 B = 96 KiB a token,
        // 1.5 MiB a sequence): 2048 of them (3 GiB) fit the KV cache, and with --max-num-seqs 2048 all of
        // them decode at once.
        constexpr std::int64_t batch = 2048;
        s.seqLen = 16;
        s.batchSize = 1;
        s.maxNumSeqs = batch;
        const MemoryPlan one = planMemory(s);
        QCOMPARE(one.speed.expectedExperts, 8.0);
        s.batchSize = batch;
        const MemoryPlan many = planMemory(s);
        QCOMPARE(many.speed.batchSize, batch);
        QVERIFY(std::abs(many.speed.expectedExperts - 128) < 1e-6);
        // One token reads 8/128 of the routed experts, 2048 tokens all of them; the
        // shared and dense weights once either way, plus one embedding row per token.
        const std::int64_t experts = one.weights.byComponent[int(Component::Experts)];
        QCOMPARE(experts % 16, 0);
        QCOMPARE(many.speed.decode.weightBytes - one.speed.decode.weightBytes,
                 experts - experts / 16 + (batch - 1) * 2048 * 2);
        // FLOPs follow the top-8 whatever the batch: exactly 2048 times batch 1's linear FLOPs.
        QCOMPARE(many.speed.decode.quantizedFlops + many.speed.decode.denseFlops,
                 double(batch) * (one.speed.decode.quantizedFlops + one.speed.decode.denseFlops));
    }

    void moeLayersPayForEveryRoutedCopy()
    {
        // Qwen3-30B-A3B: 48 MoE layers, each token routed to its top 8 experts. The fused MoE sorts,
        // gathers and sums every routed copy (fused_experts_impl, vllm/.../fused_moe/fused_moe.py): a
        // decode step of 4 sequences routes 4 x 8 copies through each of the 48 layers.
        Scenario s = scenario(QStringLiteral("qwen3-30b-a3b"));
        s.batchSize = 4;
        const MemoryPlan plan = planMemory(s);
        const ForwardCost &step = plan.speed.decode;
        QCOMPARE(step.quantities.routedTokenLayers, 4.0 * 8 * 48);
        const SpeedConstants &c = calibratedSpeedConstants();
        QVERIFY(c.routedTokenSeconds > 0);
        QCOMPARE(step.breakdown[StepTerm::MoeOverhead],
                 48 * c.moeLayerSeconds + 4.0 * 8 * 48 * c.routedTokenSeconds);
        // A prompt pass routes every prompt token: the single pass of a 1,024-token prompt 1,024 x 8 x 48.
        const SpeedModel model(s, plan, c);
        const ForwardCost prompt = model.prefill(1024);
        QCOMPARE(prompt.quantities.routedTokenLayers, 1024.0 * 8 * 48);
        // A dense model routes nothing.
        Scenario dense = scenario(QStringLiteral("qwen3-8b"));
        dense.batchSize = 4;
        QCOMPARE(planMemory(dense).speed.decode.quantities.routedTokenLayers, 0.0);
        QCOMPARE(planMemory(dense).speed.decode.breakdown[StepTerm::MoeOverhead], 0.0);
    }

    void flashInferMoeCopiesCostOnlyTheirFlops()
    {
        // MXFP4 experts on compute capability 10.x run FlashInfer's TensorRT-LLM FP4 MoE
        // (trtllm_fp4_block_scale_moe; vLLM's get_mxfp4_backend, SGLang's flashinfer_mxfp4), which routes,
        // permutes and finalizes inside its grouped GEMMs: its routed copies cost their FLOPs, which the
        // compute term prices, and none of the Triton fused MoE's sorting per copy: FlashInfer's own timings
        // of that kernel add per copy what its FLOPs take, where the Triton kernel adds 45 ns a copy
        // (tests/data/moe-kernel-timings.json; docs/speed-validation.md, 'Routed copies').
        // gpt-oss-120b: 36 MoE layers, top-4 of 128 experts.
        for (const bool mxfp8 : {false, true}) {
            Scenario s = scenario(QStringLiteral("gpt-oss-120b"), QStringLiteral("b200"));
            s.moeMxfp8Activations = mxfp8;
            s.batchSize = 64;
            const MemoryPlan plan = planMemory(s);
            QCOMPARE(plan.speed.moeKernel, MoeKernel::TrtllmFp4);
            QCOMPARE(plan.speed.prices.routedTokenSeconds, 0.0);
            // The plan says so under the speed figures.
            QVERIFY(plan.speed.notes.join(QLatin1Char('\n')).contains(QLatin1String("TensorRT-LLM FP4 MoE")));
            const ForwardCost &step = plan.speed.decode;
            QCOMPARE(step.quantities.routedTokenLayers, 64.0 * 4 * 36);
            const double moeLayer = calibratedSpeedConstants().moeLayerSeconds;
            QCOMPARE(step.breakdown[StepTerm::MoeOverhead], 36 * moeLayer);
            // An 8,192-token prompt pays the 36 layers' own cost, not 8,192 x 4 x 36 copies.
            const ForwardCost prompt = SpeedModel(s, plan, calibratedSpeedConstants()).prefill(8192);
            QCOMPARE(prompt.breakdown[StepTerm::MoeOverhead], 36 * moeLayer);
        }
        // The same experts on an H100 run Marlin's MXFP4 kernel through the fused MoE, which sorts the
        // copies apart and pays for each.
        Scenario h100 = scenario(QStringLiteral("gpt-oss-120b"), QStringLiteral("h100-sxm"));
        h100.batchSize = 64;
        const MemoryPlan onH100 = planMemory(h100);
        QCOMPARE(onH100.speed.moeKernel, MoeKernel::FusedMoe);
        QVERIFY(!onH100.speed.notes.join(QLatin1Char('\n')).contains(QLatin1String("TensorRT-LLM FP4 MoE")));
        const SpeedConstants &c = calibratedSpeedConstants();
        QCOMPARE(onH100.speed.decode.breakdown[StepTerm::MoeOverhead],
                 36 * c.moeLayerSeconds + 64.0 * 4 * 36 * c.routedTokenSeconds);
    }

    void fp8OnAmpereIsWeightOnly()
    {
        Scenario h100 = scenario(QStringLiteral("llama-3.1-8b"));
        h100.quantization = defaultSpecFor(QuantMethod::Fp8);
        Scenario a100 = h100;
        a100.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        const SpeedPlan onHopper = planMemory(h100).speed;
        const SpeedPlan onAmpere = planMemory(a100).speed;

        QCOMPARE(onHopper.computeFormat, ComputeFormat::Fp8);
        QVERIFY(!onHopper.weightOnly);
        QCOMPARE(onHopper.peakTflops, 1978.9);
        QCOMPARE(onAmpere.computeFormat, ComputeFormat::BFloat16);
        QVERIFY(onAmpere.weightOnly);
        QCOMPARE(onAmpere.peakTflops, 312.0);
        QVERIFY(!onAmpere.notes.filter(QStringLiteral("weight-only")).isEmpty());
        // Same FP8 bytes on both: one byte per quantized weight.
        QCOMPARE(onAmpere.decode.weightBytes, onHopper.decode.weightBytes);

        // The decoder's linear layers run at the format's peak; lm_head and attention at 16 bits.
        const ForwardCost &p = onHopper.prefill;
        QVERIFY(std::abs(p.computeSeconds - (p.quantizedFlops / H100Fp8 +
                                             (p.denseFlops + p.attentionFlops) / H100Bf16)) < 1e-12);
        const ForwardCost &q = onAmpere.prefill;
        QVERIFY(std::abs(q.computeSeconds - q.flops() / 312e12) < 1e-12);
        QCOMPARE(q.quantizedFlops, p.quantizedFlops);
    }

    void weightOnlyDequantizationIsVectorWork()
    {
        // Marlin unpacks and scales each 4-bit weight on the vector units (IST-DASLab/marlin README):
        // its cost is vector operations per weight byte, so its share of the read is the fitted count
        // times bandwidth over the FP32 vector rate (resources/presets/gpus.json: A100 80GB 2,039 GB/s
        // and 19.5 TFLOPS; RTX 4090 1,008 GB/s and 82.6 TFLOPS).
        const SpeedConstants &k = calibratedSpeedConstants();
        const double opsPerByte = *k.dequantizationCost[std::size_t(WeightKernel::FourBitWeightOnly)];
        const auto plan = [](const QString &gpu) {
            Scenario s = scenario(QStringLiteral("qwen2.5-7b"), gpu);
            s.quantization = defaultSpecFor(QuantMethod::Awq);
            return planMemory(s).speed;
        };
        const SpeedPlan ampere = plan(QStringLiteral("a100-80gb"));
        const SpeedPlan ada = plan(QStringLiteral("rtx-4090"));
        for (const auto &[speed, share] :
             {std::pair{&ampere, 2039e9 / 19.5e12}, std::pair{&ada, 1008e9 / 82.6e12}}) {
            QVERIFY(std::abs(speed->prices.dequantizationCost - opsPerByte * share) < 1e-12);
            const ForwardCost &step = speed->decode;
            QVERIFY(std::abs(step.breakdown[StepTerm::Dequantization] -
                             step.quantities.quantizedReadSeconds * opsPerByte * share) < 1e-15);
        }
        const double onAmpere = ampere.prices.dequantizationCost;
        // The 4090 has 8.6 times the A100's vector operations per byte it reads.
        QVERIFY(std::abs(onAmpere / ada.prices.dequantizationCost - (2039 / 19.5) / (1008 / 82.6)) < 1e-9);

        // W8A8 FP8 multiplies on the tensor cores: its cost stays a share of the read.
        Scenario fp8 = scenario(QStringLiteral("llama-3.1-8b"));
        fp8.quantization = defaultSpecFor(QuantMethod::Fp8);
        QCOMPARE(planMemory(fp8).speed.prices.dequantizationCost,
                 *k.dequantizationCost[std::size_t(WeightKernel::Fp8)]);

        // A GPU that lists no vector rate is priced at the A100's ratio, and the plan says so.
        Scenario custom = scenario(QStringLiteral("qwen2.5-7b"), QStringLiteral("custom:24:1008:165"));
        custom.quantization = defaultSpecFor(QuantMethod::Awq);
        const SpeedPlan standIn = planMemory(custom).speed;
        QVERIFY(std::abs(standIn.prices.dequantizationCost - onAmpere) < 1e-12);
        QVERIFY(!standIn.notes.filter(QStringLiteral("no FP32 vector rate")).isEmpty());
    }

    void macheteOnHopperUnderVllm()
    {
        // vLLM's choose_mp_linear_kernel takes Machete before Marlin at compute capability 9.0 for GPTQ
        // and compressed-tensors W4A16 layers (vllm-project/vllm#7701, v0.6.2), and for AWQ since
        // vllm-project/vllm#36505 (a vLLM 0.18.0 build logs "Using MacheteLinearKernel for
        // AWQMarlinLinearMethod": tests/data/serving-speed-measurements.json, the
        // pytorch-quantization-demo rows). SGLang, other GPUs and a MoE's fused experts keep Marlin.
        const auto kernel = [](const QString &model, const QString &gpu, QuantMethod method, Engine engine,
                               const QString &release = {}) {
            Scenario s = scenario(model, gpu);
            s.engine = engine;
            s.vllmVersion = release;
            s.quantization = defaultSpecFor(method);
            SpeedPlan described;
            SpeedModel(s, planMemory(s)).describe(described);
            return described.weightKernel;
        };
        const QString dense = QStringLiteral("llama-3.1-8b"), h100 = QStringLiteral("h100-sxm");
        QCOMPARE(kernel(dense, h100, QuantMethod::Gptq, Engine::Vllm), WeightKernel::Machete);
        QCOMPARE(kernel(dense, QStringLiteral("h200"), QuantMethod::Gptq, Engine::Vllm),
                 WeightKernel::Machete);
        QCOMPARE(kernel(dense, h100, QuantMethod::Gptq, Engine::Vllm, QStringLiteral("0.10")),
                 WeightKernel::Machete);
        QCOMPARE(kernel(dense, h100, QuantMethod::Awq, Engine::Vllm), WeightKernel::Machete);
        QCOMPARE(kernel(dense, h100, QuantMethod::Awq, Engine::Vllm, QStringLiteral("0.18")),
                 WeightKernel::Machete);
        QCOMPARE(kernel(dense, h100, QuantMethod::Awq, Engine::Vllm, QStringLiteral("0.17")),
                 WeightKernel::FourBitWeightOnly);
        QCOMPARE(kernel(dense, QStringLiteral("a100-80gb"), QuantMethod::Gptq, Engine::Vllm),
                 WeightKernel::FourBitWeightOnly);
        QCOMPARE(kernel(dense, QStringLiteral("b200"), QuantMethod::Gptq, Engine::Vllm),
                 WeightKernel::FourBitWeightOnly);
        QCOMPARE(kernel(dense, h100, QuantMethod::Gptq, Engine::Sglang), WeightKernel::FourBitWeightOnly);
        QCOMPARE(kernel(QStringLiteral("qwen3-30b-a3b"), h100, QuantMethod::Gptq, Engine::Vllm),
                 WeightKernel::FourBitWeightOnly);
    }

    void mxfp4ExpertsWithMxfp8ActivationsMultiplyAtTheFp8Peak()
    {
        // VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 on compute capability 10.x (get_mxfp4_backend,
        // vllm/model_executor/layers/quantization/mxfp4.py): the experts' activations are quantized to MXFP8
        // and multiplied by the MXFP4 weights on the FP8 tensor cores, with no 16-bit copy of the weights.
        const SpeedConstants &k = calibratedSpeedConstants();
        Scenario bf16 = scenario(QStringLiteral("gpt-oss-120b"), QStringLiteral("b200"));
        bf16.batchSize = 8;
        bf16.seqLen = 8192;
        bf16.promptLen = 4096;
        Scenario mxfp8 = bf16;
        mxfp8.moeMxfp8Activations = true;
        const SpeedPlan before = planMemory(bf16).speed;
        const SpeedPlan after = planMemory(mxfp8).speed;
        QCOMPARE(before.weightKernel, WeightKernel::Fp4);
        QCOMPARE(after.weightKernel, WeightKernel::Mxfp4Mxfp8);
        QCOMPARE(after.computeFormat, ComputeFormat::Fp8);
        QVERIFY(!after.weightOnly);
        // No calibration row runs the kernel: its reads cost what the FP8 W8A8 kernels' do, and the plan
        // says so.
        QVERIFY(!k.dequantizationCost[std::size_t(WeightKernel::Mxfp4Mxfp8)]);
        QCOMPARE(after.prices.dequantizationCost, *k.dequantizationCost[std::size_t(WeightKernel::Fp8)]);
        QVERIFY(!after.notes.filter(QStringLiteral("mxfp4 x mxfp8 kernels; priced as fp8 w8a8")).isEmpty());
        // The same bytes and FLOPs; the experts' FLOPs at the B200's 4,500 dense FP8 TFLOPS instead of its
        // 2,250 BF16 (gpus.json b200).
        const StepQuantities &was = before.prefill.quantities;
        const StepQuantities &is = after.prefill.quantities;
        QCOMPARE(is.quantizedReadSeconds, was.quantizedReadSeconds);
        QVERIFY(after.prefill.quantizedFlops > 0);
        QCOMPARE(after.prefill.quantizedFlops, before.prefill.quantizedFlops);
        const double saved = after.prefill.quantizedFlops * (1 / 2250e12 - 1 / 4500e12);
        QVERIFY(std::abs((was.computeSeconds - is.computeSeconds) - saved) < 1e-9 * saved);
        QVERIFY(after.decode.breakdown[StepTerm::Dequantization] <
                before.decode.breakdown[StepTerm::Dequantization]);
        QVERIFY(after.decode.seconds < before.decode.seconds);
    }

    void sglangRunsGptOssExpertsWithMxfp8ActivationsOnBlackwell()
    {
        // SGLang takes --moe-runner-backend flashinfer_mxfp4 for GptOssForCausalLM's MXFP4 checkpoint on
        // SM100 (python/sglang/srt/server_args.py), and its default --flashinfer-mxfp4-moe-precision
        // quantizes the experts' input to MXFP8 (Mxfp4MoEMethod.apply,
        // python/sglang/srt/layers/quantization/mxfp4.py): no flag.
        Scenario s = scenario(QStringLiteral("gpt-oss-120b"), QStringLiteral("b200"));
        s.engine = Engine::Sglang;
        s.tensorParallelSize = 4;
        const SpeedPlan blackwell = planMemory(s).speed;
        QCOMPARE(blackwell.weightKernel, WeightKernel::Mxfp4Mxfp8);
        QCOMPARE(blackwell.computeFormat, ComputeFormat::Fp8);
        QVERIFY(!blackwell.notes.filter(QStringLiteral("SGLang runs gpt-oss's MXFP4 experts")).isEmpty());
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        const SpeedPlan hopper = planMemory(s).speed;
        QCOMPARE(hopper.weightKernel, WeightKernel::FourBitWeightOnly);
        QVERIFY(hopper.weightOnly);
    }

    void mxfp4OffBlackwellUnpacksTheWeightsOnTheVectorUnits()
    {
        // Off compute capability 10.x vLLM runs MXFP4 experts through Marlin's MXFP4 kernel
        // (VLLM_MXFP4_USE_MARLIN, or no triton_kernels) or Triton's matmul_ogs (get_mxfp4_backend,
        // vllm/model_executor/layers/quantization/mxfp4.py, v0.13): no FP4 tensor-core path, the weights
        // unpacked to 16 bits in registers as the 4-bit Marlin kernels unpack theirs. Their unpacking is
        // vector work, so an H100 and an H200, which share the SMs and clocks (67 FP32 vector TFLOPS each,
        // gpus.json) but not the bandwidth, take the same time for it; on a B200 FlashInfer's TRT-LLM
        // kernel runs them, priced as the FP4 kernels.
        const auto plan = [](const char *gpu) {
            Scenario s = scenario(QStringLiteral("gpt-oss-20b"), QLatin1String(gpu));
            s.batchSize = 8;
            s.seqLen = 4096;
            return planMemory(s).speed;
        };
        const SpeedPlan h100 = plan("h100-sxm");
        const SpeedPlan h200 = plan("h200");
        const SpeedPlan b200 = plan("b200");
        QCOMPARE(h100.weightKernel, WeightKernel::FourBitWeightOnly);
        QCOMPARE(h200.weightKernel, WeightKernel::FourBitWeightOnly);
        QCOMPARE(b200.weightKernel, WeightKernel::Fp4);
        QVERIFY(h100.weightOnly && h200.weightOnly);
        const double onH100 = h100.decode.breakdown[StepTerm::Dequantization];
        const double onH200 = h200.decode.breakdown[StepTerm::Dequantization];
        QVERIFY(onH100 > 0);
        QVERIFY(std::abs(onH100 - onH200) < 1e-9 * onH100);
        // The weights' read itself still follows the bandwidth: 4.8 against 3.35 TB/s.
        QVERIFY(h200.decode.breakdown[StepTerm::Weights] < h100.decode.breakdown[StepTerm::Weights]);
    }

    void mxfp8ActivationsAreIgnoredWhereVllmPassesOverThem()
    {
        // Off compute capability 10.x vLLM takes its next MXFP4 backend (Marlin or Triton on Hopper), and
        // a model without MXFP4 experts has nothing to run on the kernel: the plan says it is ignored.
        for (const auto &[model, gpu] :
             {std::pair{"gpt-oss-120b", "h100-sxm"}, std::pair{"llama-3.1-8b", "b200"}}) {
            Scenario s = scenario(QLatin1String(model), QLatin1String(gpu));
            const SpeedPlan plain = planMemory(s).speed;
            s.moeMxfp8Activations = true;
            const SpeedPlan set = planMemory(s).speed;
            QCOMPARE(set.weightKernel, plain.weightKernel);
            QCOMPARE(set.decode.seconds, plain.decode.seconds);
            QVERIFY2(!set.notes.filter(QStringLiteral("--moe-mxfp8-activations is set")).isEmpty(), model);
        }
    }

    void machetePricedAsAShareOfItsReads()
    {
        // Machete's cost is fitted per second of reading the 4-bit weights (docs/speed-validation.md, the
        // pytorch-quantization-demo's H200 runs), not in vector operations as Marlin's: the same checkpoint
        // on an H100 reads the same bytes under both kernels, and Machete's step is the longer by its cost.
        const SpeedConstants &k = calibratedSpeedConstants();
        QVERIFY(k.dequantizationCost[std::size_t(WeightKernel::Machete)].has_value());
        QVERIFY(!dequantizesOnVectorUnits(WeightKernel::Machete));
        Scenario vllm = scenario(QStringLiteral("llama-3.1-8b"));
        vllm.quantization = defaultSpecFor(QuantMethod::Gptq);
        Scenario sglang = vllm;
        sglang.engine = Engine::Sglang;
        const SpeedPlan machete = planMemory(vllm).speed;
        const SpeedPlan marlin = planMemory(sglang).speed;
        QCOMPARE(machete.weightKernel, WeightKernel::Machete);
        QCOMPARE(marlin.weightKernel, WeightKernel::FourBitWeightOnly);
        QCOMPARE(machete.prices.dequantizationCost,
                 *k.dequantizationCost[std::size_t(WeightKernel::Machete)]);
        const ForwardCost &step = machete.decode;
        QVERIFY(std::abs(step.breakdown[StepTerm::Dequantization] -
                         step.quantities.quantizedReadSeconds * machete.prices.dequantizationCost) < 1e-15);
        QCOMPARE(step.quantities.quantizedReadSeconds, marlin.decode.quantities.quantizedReadSeconds);
        QVERIFY(step.breakdown[StepTerm::Dequantization] > marlin.decode.breakdown[StepTerm::Dequantization]);
    }

    void int8PeakForW8A8()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("a100-80gb"));
        s.quantization = defaultSpecFor(QuantMethod::Int8);
        const SpeedPlan a100 = planMemory(s).speed;
        QCOMPARE(a100.computeFormat, ComputeFormat::Int8);
        QCOMPARE(a100.peakTflops, 624.0);
        // AWQ is weight-only everywhere: 16-bit peak (float16 for AWQ checkpoints).
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        const SpeedPlan awq = planMemory(s).speed;
        QCOMPARE(awq.computeFormat, ComputeFormat::Float16);
        QVERIFY(awq.weightOnly);
    }

    void tensorParallelAddsAllReduces()
    {
        // Llama-3.1-70B on 4 H100s (NVLink 900 GB/s, 450 GB/s each way), batch 16:
        // 2 all-reduces per layer x 80 layers of 16 x 8192 x 2 bytes.
        Scenario s = scenario(QStringLiteral("llama-3.1-70b"));
        s.tensorParallelSize = 4;
        s.batchSize = 16;
        const SpeedPlan speed = planMemory(s).speed;
        const double message = 16.0 * 8192 * 2;
        const double alpha = calibratedSpeedConstants().allReduceLatencySeconds;
        const double transfer = 2 * 80 * (2.0 * 3 / 4 * message / 450e9); // 0.14 ms
        QVERIFY(std::abs(transfer - 0.1398e-3) < 1e-7);
        QVERIFY(std::abs(speed.decode.allReduceSeconds - (2 * 80 * alpha + transfer)) < 1e-12);
        QCOMPARE(speed.decode.quantities.allReduces, 160);
        QCOMPARE(speed.decode.breakdown[StepTerm::AllReduce], speed.decode.allReduceSeconds);
        // Each GPU reads a quarter of the weights (vocabulary padded to a multiple of 64).
        s.tensorParallelSize = 1;
        const SpeedPlan single = planMemory(s).speed;
        QCOMPARE(single.decode.allReduceSeconds, 0.0);
        QVERIFY(std::abs(double(speed.decode.weightBytes) / double(single.decode.weightBytes) - 0.25) < 0.01);

        // A PCIe card uses its PCIe figure: L40S, PCIe Gen4 x16, 64 GB/s both ways.
        Scenario l40s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("l40s"));
        l40s.tensorParallelSize = 2;
        l40s.batchSize = 16;
        const double pcie = 2 * 32 * (alpha + 2.0 * 1 / 2 * (16.0 * 4096 * 2) / 32e9);
        QVERIFY(std::abs(planMemory(l40s).speed.decode.allReduceSeconds - pcie) < 1e-12);
    }

    void theAllReduceLatencyIsMeasuredOverNvlinkOnly()
    {
        // The latency is vLLM's custom all-reduce timed over NVLink (tests/data/allreduce-latency-
        // measurements.json): a plan on PCIe-only GPUs says no timing stands behind it there.
        const auto saysSo = [](const SpeedPlan &speed) {
            return std::any_of(speed.notes.begin(), speed.notes.end(), [](const QString &note) {
                return note.contains(QLatin1String("all-reduce")) && note.contains(QLatin1String("PCIe"));
            });
        };
        Scenario l40s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("l40s"));
        l40s.tensorParallelSize = 2;
        QVERIFY(saysSo(planMemory(l40s).speed));
        l40s.tensorParallelSize = 1; // no all-reduce, nothing to say
        QVERIFY(!saysSo(planMemory(l40s).speed));
        Scenario h100 = scenario(QStringLiteral("llama-3.1-8b"));
        h100.tensorParallelSize = 2;
        QVERIFY(!saysSo(planMemory(h100).speed));
        // Nor is it timed between another vendor's GPUs: eight MI300X joined by Infinity Fabric.
        Scenario mi300x = scenario(QStringLiteral("llama-3.1-70b"), QStringLiteral("mi300x"));
        mi300x.tensorParallelSize = 8;
        const QStringList notes = planMemory(mi300x).speed.notes;
        QVERIFY2(std::any_of(notes.begin(), notes.end(),
                             [](const QString &note) {
                                 return note.contains(QLatin1String("all-reduce")) &&
                                        note.contains(QLatin1String("AMD Instinct MI300X"));
                             }),
                 qPrintable(notes.join(QLatin1Char('\n'))));
    }

    void aPipelinePassesItsStagesInTurnWithBatchesInFlight()
    {
        // Llama-3.1-8B on two pipeline stages of one H100 each (16 layers a stage): a token's pass reads
        // every stage's weights, each at one H100's bandwidth, so at one sequence the step is the whole
        // model's on one GPU plus one handover of the token's hidden state and residual (2 x 4,096
        // bfloat16 = 16,384 B over NVLink's 450 GB/s a direction, after the collective latency).
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.batchSize = 1;
        s.seqLen = 4096;
        Scenario pipeline = s;
        pipeline.pipelineParallelSize = 2;
        const MemoryPlan plan = planMemory(pipeline);
        QVERIFY(plan.speed.available);
        const SpeedPlan single = planMemory(s).speed;
        const ForwardCost &step = plan.speed.decode;
        QCOMPARE(step.weightBytes, single.decode.weightBytes);
        const double alpha = calibratedSpeedConstants().allReduceLatencySeconds;
        const double handover = alpha + 2.0 * Hidden * 2 / 450e9;
        QVERIFY(std::abs(step.breakdown[StepTerm::PipelineTransfer] - handover) < 1e-15);
        QVERIFY(std::abs(step.seconds - (single.decode.seconds + handover)) < 1e-12);
        QCOMPARE(step.breakdown[StepTerm::PipelineWait], 0.0); // one batch: nothing queues

        // 32 sequences run as two batches of 16 in flight, one a stage (vLLM's batch queue). A batch's
        // next step waits for its pass through both stages, and for the busiest stage to run both
        // batches: the last stage, which reads its 16 layers and the LM head (the first stage's input
        // embedding is a lookup).
        pipeline.batchSize = 32;
        const MemoryPlan busy = planMemory(pipeline);
        Scenario half = s;
        half.batchSize = 16;
        const ForwardCost pass = planMemory(half).speed.decode;
        const PipelineStagePlan &first = busy.pipelineStages.at(0), &last = busy.pipelineStages.at(1);
        const double embedding = 2.0 * TableParams; // one bfloat16 table on the first stage
        const double share =
            double(last.weightBytes) / (double(first.weightBytes) - embedding + double(last.weightBytes));
        QVERIFY(share > 0.5);
        const StepBreakdown &t = pass.breakdown;
        const double host = t[StepTerm::StepOverhead] + t[StepTerm::SequenceOverhead];
        const double traverse = pass.seconds + alpha + 16.0 * 2 * Hidden * 2 / 450e9;
        const double cycle = std::max({traverse, 2 * share * (pass.seconds - host), 2 * host});
        QVERIFY2(std::abs(busy.speed.decode.seconds - cycle) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(busy.speed.decode.seconds).arg(cycle)));
        QVERIFY(std::abs(busy.speed.decode.breakdown[StepTerm::PipelineWait] - (cycle - traverse)) < 1e-9);
        QVERIFY(std::abs(busy.speed.decodeTokensPerSecond - 32 / cycle) < 1e-6);
        QVERIFY2(busy.speed.notes.join(QLatin1Char('\n')).contains(QLatin1String("batches are in flight")),
                 qPrintable(busy.speed.notes.join(QLatin1Char('\n'))));

        // Without a link figure the handover cannot be priced.
        Scenario unlinked = pipeline;
        unlinked.gpu = resolveGpu(QStringLiteral("custom:80:2000:300"));
        const SpeedPlan none = planMemory(unlinked).speed;
        QVERIFY(!none.available);
        QVERIFY(none.notes.join(QLatin1Char('\n')).contains(QLatin1String("--pipeline-parallel-size 2")));
    }

    void efficienciesScaleTheirSideOnly()
    {
        // --bandwidth-efficiency and --compute-efficiency replace the calibrated ones; the
        // engine's costs per step, sequence and request stay.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.bandwidthEfficiencyPpm = 1'000'000;
        s.computeEfficiencyPpm = 1'000'000;
        const SpeedPlan ideal = planMemory(s).speed;
        const auto overheads = [](const ForwardCost &c) {
            return c.breakdown[StepTerm::StepOverhead] + c.breakdown[StepTerm::SequenceOverhead] +
                   c.breakdown[StepTerm::RequestOverhead];
        };
        const auto pass = [&](const ForwardCost &c) { return c.seconds - overheads(c); };
        QVERIFY(std::abs(pass(ideal.decode) - ideal.decode.idealSeconds) < 1e-15);
        QVERIFY(std::abs(pass(ideal.prefill) - ideal.prefill.idealSeconds) < 1e-15);
        s.bandwidthEfficiencyPpm = 500'000;
        const SpeedPlan half = planMemory(s).speed;
        QCOMPARE(pass(half.decode), 2 * pass(ideal.decode));   // memory-bound decode
        QCOMPARE(half.prefill.seconds, ideal.prefill.seconds); // compute-bound prefill
        QCOMPARE(half.decodeTokensPerSecondIdeal, ideal.decodeTokensPerSecondIdeal);
        s.computeEfficiencyPpm = 250'000;
        QCOMPARE(pass(planMemory(s).speed.prefill), 4 * pass(ideal.prefill));
        // auto (0): the calibrated efficiencies.
        s.bandwidthEfficiencyPpm = s.computeEfficiencyPpm = 0;
        const SpeedPlan calibrated = planMemory(s).speed;
        QCOMPARE(calibrated.bandwidthEfficiency,
                 *calibratedSpeedConstants().weightBandwidthEfficiency[std::size_t(GpuGeneration::Hopper)]);
        QCOMPARE(calibrated.computeEfficiency, calibratedSpeedConstants().computeEfficiency);
    }

    void invalidSpeedInputs()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.bandwidthEfficiencyPpm = 1'000'001;
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--bandwidth-efficiency"),
                             QStringLiteral("got 1.000001"));
        s.bandwidthEfficiencyPpm = DefaultBandwidthEfficiencyPpm;
        s.computeEfficiencyPpm = 1'500'000;
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--compute-efficiency"),
                             QStringLiteral("got 1.5"));
        s.computeEfficiencyPpm = DefaultComputeEfficiencyPpm;
        s.promptLen = 9000;
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--prompt-len"),
                             QStringLiteral("9000 exceeds --seq-len 8192"));
        s.promptLen = -1;
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--prompt-len"), QStringLiteral("got -1"));
    }

    void gpuWithoutFiguresHasNoSpeed()
    {
        // A custom GPU given only its memory: the memory plan stands, speed does not.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("custom:80"));
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.fits);
        QVERIFY(!plan.speed.available);
        QVERIFY(!plan.speed.notes.filter(QStringLiteral("memory bandwidth")).isEmpty());
        QCOMPARE(plan.speed.decodeTokensPerSecond, 0.0);
        // Bandwidth alone is not enough either: the roofline needs a peak.
        s.gpu = resolveGpu(QStringLiteral("custom:80:2000"));
        const SpeedPlan noPeak = planMemory(s).speed;
        QVERIFY(!noPeak.available);
        QVERIFY(!noPeak.notes.filter(QStringLiteral("bf16 TFLOPS")).isEmpty());
        s.gpu = resolveGpu(QStringLiteral("custom:80:2000:300"));
        QVERIFY(planMemory(s).speed.available);
        // Apple presets list no TFLOPS.
        QVERIFY(!planMemory(scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("apple-m2-ultra-192gb")))
                     .speed.available);
        // Float32 has no tensor-core peak in the presets.
        Scenario fp32 = scenario(QStringLiteral("llama-3.2-1b"));
        fp32.dtype = WeightDtype::Float32;
        QVERIFY(!planMemory(fp32).speed.notes.filter(QStringLiteral("fp32")).isEmpty());
    }

    void calibrationReproducesTheMeasurement()
    {
        // Llama-3.1-8B on an H100 measured at 9.0 ms per token with 8 sequences of 2048
        // tokens: the calibrated plan of that very scenario steps in 9.0 ms.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.batchSize = 8;
        s.seqLen = 2048;
        const MemoryPlan plan = planMemory(s);
        const SpeedMeasurement measured{0.009, 8, 2048, QStringLiteral("--measured-itl-ms")};
        const SpeedCalibration c = calibrateSpeed(s, plan, measured);
        QVERIFY(c.scale < 1); // slower than the public calibration predicts
        QCOMPARE(c.stepSecondsBefore, plan.speed.decode.seconds);
        QVERIFY(std::abs(c.stepSecondsAfter - 0.009) < 1e-8);
        QCOMPARE(c.publicWeightBandwidthEfficiency, plan.speed.bandwidthEfficiency);
        QVERIFY(std::abs(c.weightBandwidthEfficiency - c.publicWeightBandwidthEfficiency * c.scale) < 1e-12);
        QVERIFY(std::abs(c.kvBandwidthEfficiency - c.publicKvBandwidthEfficiency * c.scale) < 1e-12);

        s.speedCalibration = measuredSpeedScale(c, s, QDate(2026, 12, 2));
        QCOMPARE(s.speedCalibration.source,
                 QStringLiteral("your measurement: 9.00 ms at concurrency 8, llama-3.1-8b, 2026-12-02"));
        const SpeedPlan calibrated = planMemory(s).speed;
        QVERIFY(std::abs(calibrated.decode.seconds - 0.009) < 1e-8);
        QCOMPARE(calibrated.bandwidthEfficiency, c.weightBandwidthEfficiency);
        QCOMPARE(calibrated.calibrationSource, s.speedCalibration.source);
        QVERIFY2(!calibrated.notes.filter(QStringLiteral("calibrated from your measurement")).isEmpty(),
                 qPrintable(calibrated.notes.join(QLatin1Char('\n'))));

        // Another GPU keeps its public calibration.
        Scenario a100 = s;
        a100.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        const SpeedPlan other = planMemory(a100).speed;
        QCOMPARE(other.bandwidthEfficiency,
                 *calibratedSpeedConstants().weightBandwidthEfficiency[std::size_t(GpuGeneration::Ampere)]);
        QVERIFY(other.calibrationSource.isEmpty());
        QVERIFY(!other.notes.filter(QStringLiteral("not applied")).isEmpty());
        // An explicit --bandwidth-efficiency wins over the calibration.
        s.bandwidthEfficiencyPpm = 500'000;
        QCOMPARE(planMemory(s).speed.bandwidthEfficiency, 0.5);
    }

    void calibrationByHand()
    {
        // A made-up GPU: 1000 GB/s, a peak so high that compute hides behind the reads,
        // and no generation (the public weight efficiency is the median of the fitted
        // ones). Llama-3.1-8B, one sequence of 4096 tokens measured at 20 ms per token:
        //   step = W / (B e_w s) + K / (B e_kv s) + vLLM's cost per step and per sequence,
        // so s = (W / (B e_w) + K / (B e_kv)) / (20 ms - overheads).
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("custom:80:1000:100000"));
        s.batchSize = 1;
        s.seqLen = 4096;
        const std::int64_t weights = 15'009'857'536LL + 4 * Layers * Hidden * 2 + Vocab * 4; // + activations
        const std::int64_t kv = 4096 * Layers * KvBytesPerTokenPerLayer;
        const SpeedConstants &k = calibratedSpeedConstants();
        const double ew = standInEfficiency(k), ekv = k.kvBandwidthEfficiency;
        const double overheads =
            k.stepSeconds[std::size_t(Engine::Vllm)] + k.sequenceSeconds[std::size_t(Engine::Vllm)];
        const double reads = double(weights) / 1e12 / ew + double(kv) / 1e12 / ekv;
        const double scale = reads / (0.020 - overheads); // 1.00922 with the constants of 2026-12
        const auto stepMs = [&](double scaled) { return (reads / scaled + overheads) * 1e3; };
        const auto measuredAt = [](double seconds, const char *origin) {
            return SpeedMeasurement{seconds, 1, 4096, QLatin1String(origin)};
        };
        const MemoryPlan plan = planMemory(s);
        const SpeedCalibration c = calibrateSpeed(s, plan, measuredAt(0.020, "--measured-itl-ms"));
        QVERIFY2(std::abs(double(c.scalePpm) - scale * 1e6) <= 1, qPrintable(QString::number(c.scalePpm)));
        QVERIFY(std::abs(c.stepSecondsBefore - (reads + overheads)) < 1e-12);

        // The fastest the datasheet allows: the higher efficiency at 1 (17.7 ms). The
        // slowest: the lower one at 5 %, in whole millionths of the scale (312.0 ms).
        KVSCOPE_VERIFY_ERROR(
            calibrateSpeed(s, plan, measuredAt(0.015, "--measured-itl-ms")),
            QStringLiteral("--measured-itl-ms: 15.0 ms at concurrency 1 is faster than Custom GPU "
                           "80 GiB's 1,000 GB/s allows for this model (%1 ms at 100 % of the "
                           "bandwidth)")
                .arg(stepMs(1 / std::max(ew, ekv)), 0, 'f', 1),
            QStringLiteral("check the GPU, precision and concurrency"));
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, plan, measuredAt(0.4, "bench.json")),
                             QStringLiteral("bench.json: 400.0 ms at concurrency 1 is slower than this model "
                                            "explains on Custom GPU 80 GiB (%1 ms at 5 % of its 1,000 GB/s)")
                                 .arg(stepMs(std::ceil(0.05e6 / std::min(ew, ekv)) / 1e6), 0, 'f', 1),
                             QStringLiteral("check the GPU"));
    }

    void calibrationRefusals()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        const MemoryPlan plan = planMemory(s);
        const QString flag = QStringLiteral("--measured-itl-ms");
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, plan, {0, 16, 8192, flag}), flag,
                             QStringLiteral("must be a positive number of milliseconds, got 0"));
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, plan, {-0.005, 16, 8192, flag}), flag,
                             QStringLiteral("got -5"));
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, plan, {std::nan(""), 16, 8192, flag}), flag,
                             QStringLiteral("got nan"));
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, plan, {0.01, 0, 8192, flag}), flag,
                             QStringLiteral("concurrency must be at least 1, got 0"));
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, plan, {0.01, 16, 0, flag}), flag,
                             QStringLiteral("context must be at least 1 token, got 0"));
        // A context whose KV bytes cannot be counted: refused, naming where it came from.
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, plan, {0.01, 16, std::int64_t(1) << 60, flag}), flag,
                             QStringLiteral("2^63"));
        // Faster than the H100's 3,350 GB/s can read 15 GB of weights.
        KVSCOPE_VERIFY_ERROR(
            calibrateSpeed(s, plan, {0.002, 16, 8192, flag}), flag,
            QStringLiteral("2.00 ms at concurrency 16 is faster than NVIDIA H100 SXM 80GB's 3,350 GB/s"));
        // No bandwidth, nothing to scale.
        Scenario noBandwidth = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("custom:80"));
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(noBandwidth, planMemory(noBandwidth), {0.01, 16, 8192, flag}),
                             flag, QStringLiteral("Custom GPU 80 GiB lists no memory bandwidth"));
        // An explicit efficiency overrides any calibration: calibrating under it would mislead.
        s.bandwidthEfficiencyPpm = 800'000;
        KVSCOPE_VERIFY_ERROR(calibrateSpeed(s, planMemory(s), {0.01, 16, 8192, flag}), flag,
                             QStringLiteral("--bandwidth-efficiency 0.8 is given"));
        // A saved scale that would put a read above the datasheet bandwidth: no speed, a note.
        s.bandwidthEfficiencyPpm = 0;
        s.speedCalibration = {s.gpu.id, 1'300'000, QStringLiteral("your measurement: old")};
        const SpeedPlan tooFast = planMemory(s).speed;
        QVERIFY(!tooFast.available);
        QVERIFY2(!tooFast.notes.filter(QStringLiteral("scale 1.3000")).isEmpty(),
                 qPrintable(tooFast.notes.join(QLatin1Char('\n'))));
    }

    void everyPresetGpuHasAnInterconnect()
    {
        // Tensor parallelism needs a link figure: NVLink where there is one, else PCIe.
        for (const GpuSpec &gpu : GpuLibrary::builtin().presets()) {
            if (gpu.vendor == QLatin1String("Apple"))
                continue; // one machine: vLLM has no tensor parallelism across Macs
            QVERIFY2(gpu.interconnectGBs.value_or(0) > 0, qPrintable(gpu.id));
        }
    }

    void chartAgainstBatch()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.seqLen = 128;
        const MemoryPlan plan = planMemory(s);
        const SpeedChartData d = speedChartData(s, plan);
        QVERIFY(d.available);
        QCOMPARE(d.curves.size(), 3); // fp32, bf16, fp8 KV
        QCOMPARE(d.curves.at(d.currentCurve).kvCacheDtype, KvCacheDtype::BFloat16);
        const SpeedCurve &bf16 = d.curves.at(d.currentCurve);
        QCOMPARE(bf16.ridgeBatch, plan.speed.ridgeBatch);
        QVERIFY(bf16.batch.contains(s.batchSize));
        QVERIFY(bf16.batch.contains(bf16.ridgeBatch));
        const qsizetype at = bf16.batch.indexOf(s.batchSize);
        QCOMPARE(bf16.tokensPerSecond.at(at), plan.speed.decodeTokensPerSecond);
        // Tokens/s grow with the batch while memory-bound, then stay flat at the compute roof.
        for (qsizetype i = 1; i < bf16.batch.size(); ++i)
            QVERIFY(bf16.tokensPerSecond.at(i) >= bf16.tokensPerSecond.at(i - 1) * (1 - 1e-12));
        // A smaller KV cache reads fewer bytes per sequence: faster, and compute-bound sooner.
        const SpeedCurve &fp8 = d.curves.last();
        QCOMPARE(fp8.kvCacheDtype, KvCacheDtype::Fp8E4M3);
        QVERIFY(fp8.tokensPerSecond.at(at) > bf16.tokensPerSecond.at(at));
        QVERIFY(fp8.ridgeBatch < bf16.ridgeBatch);
        QCOMPARE(fp8.fitsUpTo, planMemory([&] {
                                   Scenario v = s;
                                   v.kvCacheDtype = KvCacheDtype::Fp8E4M3;
                                   return v;
                               }())
                                   .largestBatchThatFits);
        // Without a prompt shorter than --seq-len there is no serving line.
        QCOMPARE(d.servingPromptLen, 0);
        for (const SpeedCurve &curve : d.curves)
            QVERIFY(curve.tokensPerSecondServing.isEmpty());
        // With one, the plan's curve has it, up to the batch whose KV cache fits,
        // and it bends over sooner than decode alone: prompts take a share of the steps.
        Scenario served = s;
        served.seqLen = 2048;
        served.promptLen = 1024;
        const MemoryPlan servedPlan = planMemory(served);
        const SpeedChartData withServing = speedChartData(served, servedPlan);
        QCOMPARE(withServing.servingPromptLen, 1024);
        QCOMPARE(withServing.servingOutputLen, 1024);
        const SpeedCurve &current = withServing.curves.at(withServing.currentCurve);
        qsizetype held = 0;
        while (held < current.batch.size() && current.batch.at(held) <= current.fitsUpTo)
            ++held;
        QCOMPARE(current.tokensPerSecondServing.size(), held);
        const SpeedModel model(served, servedPlan);
        for (qsizetype i = 0; i < held; ++i) {
            const ServingCost v = model.serving(current.batch.at(i), 1024, 1024);
            QCOMPARE(current.tokensPerSecondServing.at(i), current.batch.at(i) * 1024 / v.requestSeconds);
        }
        const qsizetype users = current.batch.indexOf(served.batchSize);
        QCOMPARE(current.tokensPerSecondServing.at(users), servedPlan.speed.serving->outputTokensPerSecond);
        for (qsizetype i = 0; i < withServing.curves.size(); ++i)
            QVERIFY(i == withServing.currentCurve ||
                    withServing.curves.at(i).tokensPerSecondServing.isEmpty());

        // No speed, no chart.
        s.gpu = resolveGpu(QStringLiteral("custom:80"));
        const SpeedChartData none = speedChartData(s, planMemory(s));
        QVERIFY(!none.available);
        QVERIFY(none.curves.isEmpty());
    }

    void noSpeedChartForAServerThatDoesNotStart()
    {
        // Llama-3.1-70B in bfloat16 on one H100: its weights exceed the budget, vLLM never starts. The speed
        // cards show no figure; the decode chart drew every precision's curve and "batch 16: 259.2
        // tokens/s" at the current point. It draws nothing now, and says why: the planner's own words.
        Scenario s = scenario(QStringLiteral("llama-3.1-70b"));
        const MemoryPlan plan = planMemory(s);
        QVERIFY(!plan.engineStarts);
        QVERIFY(!plan.startFailure.isEmpty());
        const SpeedChartData d = speedChartData(s, plan);
        QVERIFY(!d.available);
        QVERIFY(d.curves.isEmpty());
        QCOMPARE(d.notes, QStringList{plan.startFailure});
    }
};

QTEST_GUILESS_MAIN(TestSpeed)
#include "tst_speed.moc"
