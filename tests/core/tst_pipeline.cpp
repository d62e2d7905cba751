// SPDX-License-Identifier: MIT
// vLLM's pipeline parallelism in the plan: the layer split of get_pp_indices, what
// each stage holds (embedding first, norm, head and sampler last, a tied head's copy of
// the embedding on the last), every stage's own cache and the fewest blocks for all,
// the refusals, and the option in scenario values and launch lines.
#include "core/engine/runtime.h"
#include "core/plan/kvcache.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"
#include "tests/testsupport.h"

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

namespace {

QList<int> layerCounts(int layers, int pp)
{
    QList<int> counts;
    for (const PipelineStageLayers &stage : pipelineStages(layers, pp))
        counts << stage.layers;
    return counts;
}

Scenario llama8b(int pp)
{
    Scenario s;
    s.model = preset(QStringLiteral("llama-3.1-8b"));
    s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
    s.pipelineParallelSize = pp;
    s.maxModelLen = 8192;
    return s;
}

std::int64_t parameters(const QList<TensorGroup> &groups)
{
    return countParameters(groups).total;
}

} // namespace

class TestPipeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void layersSplitAsVllmSplitsThem_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("pp");
        QTest::addColumn<QList<int>>("expected");
        // vLLM's own log of Qwen3-32B at --pipeline-parallel-size 3 (tests/data/vllm-logs.json,
        // log 51): "Hidden layers were unevenly partitioned: [21,22,21]".
        QTest::newRow("64 over 3 (logged)") << 64 << 3 << QList<int>{21, 22, 21};
        // get_pp_indices (vllm/distributed/utils.py): the remainder goes to partitions[-2],
        // partitions[-3], ... never to the last.
        QTest::newRow("94 over 4") << 94 << 4 << QList<int>{23, 24, 24, 23};
        QTest::newRow("61 over 4") << 61 << 4 << QList<int>{15, 15, 16, 15};
        QTest::newRow("80 over 3") << 80 << 3 << QList<int>{27, 27, 26};
        QTest::newRow("32 over 2") << 32 << 2 << QList<int>{16, 16};
        QTest::newRow("one layer a stage") << 4 << 4 << QList<int>{1, 1, 1, 1};
        QTest::newRow("7 over 4") << 7 << 4 << QList<int>{2, 2, 2, 1};
    }

    void layersSplitAsVllmSplitsThem()
    {
        QFETCH(int, layers);
        QFETCH(int, pp);
        QFETCH(QList<int>, expected);
        QCOMPARE(layerCounts(layers, pp), expected);
        const QList<PipelineStageLayers> stages = pipelineStages(layers, pp);
        QVERIFY(stages.constFirst().first && !stages.constFirst().last);
        QVERIFY(stages.constLast().last);
        int next = 0;
        for (const PipelineStageLayers &stage : stages) {
            QCOMPARE(stage.firstLayer, next);
            next += stage.layers;
        }
        QCOMPARE(next, layers);
    }

    void eachStageHoldsItsLayersAndItsEnds()
    {
        // Llama-3.1-8B (untied): a layer is q 4096x4096 + k, v 1024x4096 + o 4096x4096
        // + gate, up, down 3 x 4096x14336 + two norms of 4096 = 218,112,000 parameters;
        // the embedding and lm_head are 128,256 x 4096 = 525,336,576 each, the final norm 4,096.
        const ModelArch &m = preset(QStringLiteral("llama-3.1-8b"));
        const QList<PipelineStageLayers> stages = pipelineStages(m.numLayers, 2);
        const std::int64_t layer = 218'112'000, vocab = 525'336'576;
        const ModelArch first = pipelineStageModel(m, stages.at(0));
        const ModelArch last = pipelineStageModel(m, stages.at(1));
        QCOMPARE(parameters(pipelineStageInventory(first, stages.at(0))), vocab + 16 * layer);
        QCOMPARE(parameters(pipelineStageInventory(last, stages.at(1))), 16 * layer + 4096 + vocab);
        QCOMPARE(parameters(pipelineStageInventory(first, stages.at(0))) +
                     parameters(pipelineStageInventory(last, stages.at(1))),
                 countParameters(m).total);
    }

    void aTiedHeadKeepsACopyOfTheEmbeddingOnTheLastStage()
    {
        // Llama-3.2-1B ties lm_head to embed_tokens; vLLM builds embed_tokens on the last rank too
        // (`is_first_rank or (tie_word_embeddings and is_last_rank)`, models/llama.py), so the
        // pipeline holds the 128,256 x 2,048 embedding twice.
        const ModelArch &m = preset(QStringLiteral("llama-3.2-1b"));
        QVERIFY(m.tiedEmbeddings);
        std::int64_t total = 0;
        for (const PipelineStageLayers &stage : pipelineStages(m.numLayers, 2))
            total += parameters(pipelineStageInventory(pipelineStageModel(m, stage), stage));
        QCOMPARE(total, countParameters(m).total + std::int64_t(128'256) * 2048);
    }

    void denseFirstLayersStayOnTheFirstStage()
    {
        // DeepSeek-V3's first three layers are dense (first_k_dense_replace 3): over 4 stages of
        // 15, 15, 16 and 15 layers the first holds them, the others only MoE layers.
        const ModelArch &m = preset(QStringLiteral("deepseek-v3"));
        const QList<PipelineStageLayers> stages = pipelineStages(m.numLayers, 4);
        const ModelArch first = pipelineStageModel(m, stages.at(0));
        const ModelArch third = pipelineStageModel(m, stages.at(2));
        QVERIFY(!first.isMoeLayer(0) && !first.isMoeLayer(2) && first.isMoeLayer(3));
        QVERIFY(third.isMoeLayer(0));
        QCOMPARE(third.numLayers, 16);
    }

    void everyStageTakesTheFewestBlocks()
    {
        const MemoryPlan plan = planMemory(llama8b(2));
        QCOMPARE(plan.pipelineParallelSize, 2);
        QCOMPARE(plan.gpuCount(), 2);
        QCOMPARE(plan.pipelineStages.size(), 2);
        std::int64_t fewest = plan.pipelineStages.constFirst().ownBlocks;
        for (const PipelineStagePlan &stage : plan.pipelineStages) {
            // 16 layers x 8 KV heads x 128 x (K + V) x 2 bytes.
            QCOMPARE(stage.kvBytesPerToken, std::int64_t(65'536));
            // Each stage's own pool: its budget less its own weights, peak and overhead.
            QCOMPARE(stage.availableBytes,
                     plan.budgetBytes - stage.weightBytes - stage.activationBytes - stage.overheadBytes);
            QCOMPARE(stage.ownBlocks, stage.availableBytes / (65'536 * 16));
            fewest = std::min(fewest, stage.ownBlocks);
        }
        QCOMPARE(plan.kv.numGpuBlocks, fewest);
        QCOMPARE(plan.kv.capacityTokens, fewest * 16);
        QCOMPARE(plan.pipelineStages.at(plan.bindingStage).ownBlocks, fewest);
        QCOMPARE(plan.kv.bytesPerToken, std::int64_t(65'536));
        // The model's parameters and checkpoint stay whole.
        QCOMPARE(plan.params.total, countParameters(preset(QStringLiteral("llama-3.1-8b"))).total);
        QCOMPARE(plan.weights.checkpointBytes, planMemory(llama8b(1)).weights.checkpointBytes);
    }

    void slidingWindowStagesKeepTheWholeModelsGroups()
    {
        // Gemma 3 1B: 26 layers, every sixth full (5, 11, 17, 23), the other 22 sliding. vLLM groups the
        // whole model's layers (_get_kv_cache_groups_uniform_page_size, vllm/v1/core/kv_cache_utils.py):
        // the smallest kind's 4 layers a group, the 22 sliding ones s0..s21 in ceil(22 / 4) = 6 groups,
        // group i keeping s[i::6], the 4 full ones in one group: 7 groups. Each stage keeps the groups with
        // its own layers in them (_project_kv_cache_groups_to_worker, vllm-project/vllm#23974), and a block
        // takes a page in as many slots as its fullest group keeps (get_kv_cache_config_from_groups).
        const ModelArch gemma = preset(QStringLiteral("gemma-3-1b"));
        const QList<PipelineStageLayers> stages = pipelineStages(gemma.numLayers, 3);
        QCOMPARE(layerCounts(gemma.numLayers, 3), QList<int>({9, 9, 8}));
        // Stage 0, layers 0-8: full 5; sliding s0..s7, two in groups 0 and 1 (s0, s6; s1, s7). Grouped
        // alone its 1 full and 8 sliding layers would make groups of one layer: one slot, not two.
        // Stage 1, layers 9-17: full 11 and 17; sliding s8..s14, two in group 2 (s8, s14).
        // Stage 2, layers 18-25: full 23; sliding s15..s21, two in group 3 (s15, s21).
        const QList<std::pair<int, int>> fullAndSliding = {{1, 8}, {2, 7}, {1, 7}};
        for (const PipelineStageLayers &stage : stages) {
            const KvGroupLayout groups = stageKvGroupLayout(gemma, stage.firstLayer, stage.layers);
            QCOMPARE(groups.fullGroups, 1);
            QCOMPARE(groups.slidingGroups, 6);
            QCOMPARE(groups.fullLayers, fullAndSliding.at(stage.index).first);
            QCOMPARE(groups.slidingLayers, fullAndSliding.at(stage.index).second);
            QCOMPARE(groups.groupSize, 2);
        }

        Scenario s = llama8b(3);
        s.model = gemma;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.kv.numGroups, 7);
        QCOMPARE(plan.kv.groupSize, 2);
        // One block of one layer: 16 tokens x 1 KV head x 256 x (K + V) x 2 bytes.
        QCOMPARE(plan.kv.pageBytes, std::int64_t(16'384));
        for (const PipelineStagePlan &stage : plan.pipelineStages)
            QCOMPARE(stage.ownBlocks, stage.availableBytes / (2 * 16'384));

        // Mistral 7B v0.1 slides on every layer: one kind, one group a stage, as a model of full layers.
        s = llama8b(2);
        s.model = preset(QStringLiteral("mistral-7b-v0.1"));
        const MemoryPlan mistral = planMemory(s);
        QCOMPARE(mistral.kv.numGroups, 1);
        QCOMPARE(mistral.kv.groupSize, 16);
        for (const PipelineStagePlan &stage : mistral.pipelineStages)
            QCOMPARE(stage.ownBlocks, stage.availableBytes / (16 * mistral.kv.pageBytes));
    }

    void recurrentStagesKeepTheWholeModelsGroups()
    {
        // Qwen3-Next-80B-A3B: 48 layers, every fourth full attention (3, 7, ...), the other 36 Gated
        // DeltaNet. The whole model's groups: 12 layers a group (the full layers' count), the recurrent ones
        // in 3 groups, the full ones in 1. Two stages of 24 layers keep 6 layers of each group: a block takes
        // six pages, and a request still holds blocks in all four groups.
        Scenario s = llama8b(2);
        s.model = preset(QStringLiteral("qwen3-next-80b-a3b"));
        s.tensorParallelSize = 2;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.kv.numGroups, 4);
        QCOMPARE(plan.kv.recurrentGroups, 3);
        QCOMPARE(plan.kv.groupSize, 6);
        QCOMPARE(plan.kv.recurrentLayers, 18);
        QCOMPARE(plan.kv.fullLayers, 6);
        // The block size is the one-stage plan's on the same GPUs a stage has: raised until one attention
        // page holds a layer's state (hybridBlockSize), a per-layer figure that no layer count changes.
        s.pipelineParallelSize = 1;
        QCOMPARE(plan.blockSize, planMemory(s).blockSize);
        QCOMPARE(plan.kv.pageBytes, planMemory(s).kv.pageBytes);
        for (const PipelineStagePlan &stage : plan.pipelineStages)
            QCOMPARE(stage.ownBlocks, stage.availableBytes / (6 * plan.kv.pageBytes));
    }

    void aVisionTowerIsWholeOnEveryStage()
    {
        // vLLM builds a vision-language model's tower on every pipeline rank
        // (Qwen2_5_VLForConditionalGeneration builds self.visual with no rank check,
        // vllm/model_executor/models/qwen2_5_vl.py), and every rank's profiling run encodes the dummy images
        // before its forward pass (GPUModelRunner.profile_run, vllm/v1/worker/gpu_model_runner.py: no
        // first-rank check there).
        Scenario s = llama8b(2);
        s.model = preset(QStringLiteral("qwen2.5-vl-7b"));
        const MemoryPlan plan = planMemory(s);
        s.pipelineParallelSize = 1;
        const MemoryPlan one = planMemory(s);
        const std::int64_t tower = one.weights.byComponent[int(Component::Vision)];
        QVERIFY(tower > 0);
        QCOMPARE(plan.weights.byComponent[int(Component::Vision)], tower);
        // Every stage's tensors hold the whole tower; its layers' parameters add up to the model's once.
        const ModelArch &m = s.model;
        const std::int64_t towerParameters = countParameters(m).of(Component::Vision);
        std::int64_t layerParameters = 0;
        for (const PipelineStageLayers &layers : pipelineStages(m.numLayers, 2)) {
            const ParameterCounts stage =
                countParameters(pipelineStageInventory(pipelineStageModel(m, layers), layers));
            QCOMPARE(stage.of(Component::Vision), towerParameters);
            layerParameters += stage.of(Component::Attention) + stage.of(Component::Mlp);
        }
        QCOMPARE(layerParameters,
                 countParameters(m).of(Component::Attention) + countParameters(m).of(Component::Mlp));
        // Each stage's peak holds the encoder's profile as the one-GPU plan's does: the pixels, then the
        // larger of the tower's own peak and the forward pass with the outputs held (EncoderProfile).
        QCOMPARE(plan.encoder.towerPeakBytes, one.encoder.towerPeakBytes);
        const PipelineStagePlan &first = plan.pipelineStages.constFirst();
        const std::int64_t forward =
            forwardPeakBytes(pipelineStageModel(m, pipelineStages(m.numLayers, 2).constFirst()), 2, 1, 1,
                             plan.maxNumBatchedTokens);
        QCOMPARE(first.activationBytes, one.encoder.peakBytes(forward));
        QVERIFY(first.activationBytes >= one.encoder.pixelBytes + one.encoder.towerPeakBytes);
    }

    void slidingWindowStagesNeedVllm011()
    {
        // Before vllm-project/vllm#23974 (merged 2025-09-14, in v0.11.0) each stage grouped its own layers.
        Scenario s = llama8b(2);
        s.model = preset(QStringLiteral("gpt-oss-20b"));
        // gpt-oss-20b's 24 layers alternate sliding and full: two groups of 12, six of each on a stage.
        const MemoryPlan newest = planMemory(s);
        QCOMPARE(newest.kv.numGroups, 2);
        QCOMPARE(newest.kv.groupSize, 6);
        s.vllmVersion = QStringLiteral("0.10.2");
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--pipeline-parallel-size 2"),
                             QStringLiteral("0.11"));
        // Layers of one kind make one group on any release: Mistral 7B v0.1 slides on every layer.
        s.model = preset(QStringLiteral("mistral-7b-v0.1"));
        QCOMPARE(planMemory(s).kv.numGroups, 1);
    }

    void onlyTheLastStageSamples()
    {
        // H100 defaults: 1,024 sequences, 8,192 batched tokens. The first stage's peak is its
        // forward pass: hidden 8,192 x 4,096 x 2 B and the MLP's gate/up and activation
        // outputs 8,192 x 3 x 14,336 x 2 B = 67,108,864 + 704,643,072.
        const MemoryPlan plan = planMemory(llama8b(2));
        QCOMPARE(plan.pipelineStages.at(0).activationBytes, std::int64_t(771'751'936));
        // The last stage's is the single-GPU peak with the sampler (core/engine/runtime.h).
        QCOMPARE(plan.pipelineStages.at(1).activationBytes, planMemory(llama8b(1)).activationBytes);
        QVERIFY(plan.pipelineStages.at(1).holdsHead && !plan.pipelineStages.at(0).holdsHead);
        QVERIFY(plan.pipelineStages.at(0).holdsEmbedding && !plan.pipelineStages.at(1).holdsEmbedding);
    }

    void speedPassesTheStagesInTurn()
    {
        // tests/core/tst_speed.cpp checks the step by hand; here, that a pipeline has one and says how.
        const MemoryPlan plan = planMemory(llama8b(2));
        QVERIFY(plan.speed.available);
        QVERIFY(plan.speed.decode.breakdown[StepTerm::PipelineTransfer] > 0);
        QVERIFY(
            plan.speed.notes.join(QLatin1Char(' ')).contains(QStringLiteral("--pipeline-parallel-size 2")));
    }

    void refusesWhatItCannotPlan()
    {
        Scenario s = llama8b(33);
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--pipeline-parallel-size 33"),
                             QStringLiteral("32 layers"));
        s = llama8b(0);
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--pipeline-parallel-size 0"),
                             QStringLiteral("positive"));
        s = llama8b(2);
        s.maxModelLen = 0;
        s.model = preset(QStringLiteral("gemma-3n-e4b"));
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--pipeline-parallel-size 2"),
                             QStringLiteral("KV-sharing"));
        s = llama8b(2);
        s.engine = Engine::Sglang;
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--pipeline-parallel-size 2"),
                             QStringLiteral("vLLM only"));
        // A huge value read from a file or the command line is refused, never wrapped.
        s = llama8b(1);
        s.pipelineParallelSize = std::int64_t(1) << 62;
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--pipeline-parallel-size 4611686018427387904"),
                             QStringLiteral("more stages"));
    }

    void theOptionRoundTripsAndLaunches()
    {
        const Scenario two =
            applyValues(llama8b(1), {{QStringLiteral("pipeline-parallel-size"), QStringLiteral("2")}});
        QCOMPARE(two.pipelineParallelSize, std::int64_t(2));
        QCOMPARE(scenarioToValues(two).value(QStringLiteral("pipeline-parallel-size")), QStringLiteral("2"));
        // One stage is vLLM's default: left out of the values, written back when a scenario returns to it.
        QVERIFY(!scenarioToValues(llama8b(1)).contains(QStringLiteral("pipeline-parallel-size")));
        QCOMPARE(differingValues(two, llama8b(1)).value(QStringLiteral("pipeline-parallel-size")),
                 QStringLiteral("1"));
        QVERIFY(launchLine(two)
                    .arguments.join(QLatin1Char(' '))
                    .contains(QStringLiteral("--pipeline-parallel-size 2")));
        KVSCOPE_VERIFY_ERROR(
            applyValues(llama8b(1), {{QStringLiteral("pipeline-parallel-size"), QStringLiteral("-2")}}),
            QStringLiteral("--pipeline-parallel-size"), QStringLiteral("-2"));
    }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
