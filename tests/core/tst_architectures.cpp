// SPDX-License-Identifier: MIT
// The architectures that mix layer kinds, against hand computation from the
// published configs (tests/data/configs/) and vLLM's accounting:
//  - state shapes: vllm/model_executor/layers/mamba/mamba_utils.py, MambaStateShapeCalculator
//    (gated_delta_net_state_shape, mamba2_state_shape), page = sum of state bytes (MambaSpec);
//  - block size: vllm/model_executor/models/config.py, HybridAttentionMambaModelConfig
//    .verify_and_update_config (16 x cdiv(state page, 16 x attention token page));
//  - groups: vllm/v1/core/kv_cache_utils.py, _get_kv_cache_groups_uniform_page_size;
//  - blocks per request: vllm/v1/kv_cache_interface.py, *Spec.max_memory_usage_bytes;
//  - DeepSeek-V3.2: vllm/v1/attention/backends/mla/flashmla_sparse.py (fp8_ds_mla 656 B, block 64)
//    and deepseek_v2.py DeepseekV32IndexerCache (132 B);
//  - Llama 4: llama4.py Llama4Attention (chunked unless NoPE), ChunkedLocalAttentionSpec;
//  - Gemma 3n: gemma3n.py Gemma3nAttention (num_kv_shared_layers hold no cache).
// docs/engines-research.md gives the same derivations with commits.
#include "core/library/library.h"
#include "core/model/hfconfig.h"
#include "core/model/inventory.h"
#include "core/output/breakdown.h"
#include "core/plan/kvcache.h"
#include "core/plan/planner.h"
#include "core/scenario/scenario.h"
#include "tests/sourcetree.h"
#include "tests/testsupport.h"

#include <cstdlib>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

namespace {

KvCacheLayout layoutOf(const QString &id, KvCacheDtype dtype = KvCacheDtype::BFloat16, int tp = 1,
                       WeightDtype ssm = WeightDtype::BFloat16)
{
    return kvCacheLayout(preset(id), KvCacheOptions{dtype, tp, 16, WeightDtype::BFloat16, ssm});
}

Scenario scenarioOf(const QString &model, const QString &gpu)
{
    Scenario s;
    s.model = preset(model);
    s.gpu = resolveGpu(gpu);
    return s;
}

} // namespace

class TestArchitectures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordedConfigsParseLikeThePresets_data()
    {
        QTest::addColumn<QString>("id");
        for (const char *id :
             {"qwen3-next-80b-a3b", "deepseek-v3.2-exp", "llama-4-scout-17b-16e", "llama-4-maverick-17b-128e",
              "gemma-3n-e4b", "gemma-3n-e2b", "granite-4.0-h-small", "granite-4.0-h-tiny"})
            QTest::newRow(id) << QString::fromLatin1(id);
    }

    void recordedConfigsParseLikeThePresets()
    {
        // The configs in tests/data/configs are the presets' configs plus their provenance.
        QFETCH(QString, id);
        const QString path = test::sourceTreePath(QStringLiteral("tests/data/configs/%1.json").arg(id));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject config = QJsonDocument::fromJson(file.readAll()).object();
        QVERIFY(config.value(QLatin1String("_source")).toObject().contains(QLatin1String("published_file")));
        const ModelArch parsed = parseHfConfig(config, path);
        const ModelArch &p = preset(id);
        QCOMPARE(countParameters(parsed).total, countParameters(p).total);
        QCOMPARE(kvBytesPerToken(parsed, KvCacheDtype::BFloat16, 1),
                 kvBytesPerToken(p, KvCacheDtype::BFloat16, 1));
        QCOMPARE(parsed.recurrent, p.recurrent);
    }

    // --- Qwen3-Next: Gated DeltaNet ---------------------------------------------------------

    void qwen3NextStatePerLayer_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<qint64>("conv");
        QTest::addColumn<qint64>("ssm");
        QTest::addColumn<qint64>("attention");
        QTest::addColumn<int>("block");
        // conv (K-1) x (128*16*2 + 128*32)/TP x 2 B; SSM 32/TP x 128 x 128 x 2 B; attention
        // 2 x max(1, 2/TP) x 256 x 2 B; block 16 x cdiv(state, 16 x attention).
        QTest::newRow("TP1") << 1 << 49'152LL << 1'048'576LL << 2'048LL << 544;
        QTest::newRow("TP2") << 2 << 24'576LL << 524'288LL << 1'024LL << 544;
        QTest::newRow("TP4: KV head replicated") << 4 << 12'288LL << 262'144LL << 1'024LL << 272;
        QTest::newRow("TP8") << 8 << 6'144LL << 131'072LL << 1'024LL << 144;
    }

    void qwen3NextStatePerLayer()
    {
        QFETCH(int, tp);
        QFETCH(qint64, conv);
        QFETCH(qint64, ssm);
        QFETCH(qint64, attention);
        QFETCH(int, block);
        const ModelArch &m = preset(QStringLiteral("qwen3-next-80b-a3b"));
        const RecurrentState state =
            recurrentStatePerLayer(m, tp, WeightDtype::BFloat16, WeightDtype::BFloat16);
        QCOMPARE(state.convBytes, conv);
        QCOMPARE(state.ssmBytes, ssm);
        const KvCacheLayout layout = layoutOf(m.id, KvCacheDtype::BFloat16, tp);
        QCOMPARE(layout.bytesPerTokenPerLayer, attention);
        QCOMPARE(layout.blockSize, block);
        QVERIFY(layout.pageBytes >= state.bytes()); // one attention page holds one state page
    }

    void qwen3NextLayout()
    {
        const ModelArch &m = preset(QStringLiteral("qwen3-next-80b-a3b"));
        QCOMPARE(m.recurrent.layerCount(), 36);
        QCOMPARE(kvBytesPerToken(m, KvCacheDtype::BFloat16, 1), 12 * 2'048LL);
        const KvCacheLayout layout = layoutOf(m.id);
        // Page 544 x 2,048 = 1,114,112 B: the 1,097,728 B state padded by 1.49 %.
        QCOMPARE(layout.stateBytesPerLayer, 1'097'728LL);
        QCOMPARE(layout.pageBytes, 1'114'112LL);
        // 12 attention + 36 GDN layers: group size 12, 1 + 3 groups, no padding.
        QCOMPARE(layout.groups.fullLayers, 12);
        QCOMPARE(layout.groups.recurrentLayers, 36);
        QCOMPARE(layout.groups.groupSize, 12);
        QCOMPARE(layout.groups.numGroups(), 4);
        QCOMPARE(layout.groups.paddingLayers(), 0);
        QCOMPARE(layout.poolBlockBytes(), 13'369'344LL);
        // One request of 262,144 tokens: cdiv(262144, 544) = 482 attention blocks + 3 state blocks.
        QCOMPARE(blocksPerRequest(m, layout, 262'144, 8192), 485LL);
        // A sequence holds the same state block whatever its length.
        QCOMPARE(blocksPerSequence(m, layout, 1), 1LL + 3);
        QCOMPARE(blocksPerSequence(m, layout, 545), 2LL + 3);
    }

    void qwen3NextFloat32SsmState()
    {
        // --mamba-ssm-cache-dtype float32 doubles the SSM part: 49,152 + 2,097,152 = 2,146,304 B,
        // block 16 x cdiv(2,146,304, 32,768) = 1,056.
        const KvCacheLayout layout =
            layoutOf(QStringLiteral("qwen3-next-80b-a3b"), KvCacheDtype::BFloat16, 1, WeightDtype::Float32);
        QCOMPARE(layout.stateBytesPerLayer, 2'146'304LL);
        QCOMPARE(layout.blockSize, 1'056);
        // An FP8 KV cache halves the attention page, so the block doubles: 16 x cdiv(1,097,728, 16,384).
        QCOMPARE(layoutOf(QStringLiteral("qwen3-next-80b-a3b"), KvCacheDtype::Fp8E4M3).blockSize, 1'072);
    }

    void qwen3NextPlan()
    {
        Scenario s = scenarioOf(QStringLiteral("qwen3-next-80b-a3b"), QStringLiteral("h200"));
        s.tensorParallelSize = 2;
        s.batchSize = 4;
        s.seqLen = 10'000;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.requestedBlockSize, 16);
        QCOMPARE(plan.blockSize, 544);
        QCOMPARE(plan.kv.stateBytesPerSequence, 36 * 548'864LL);
        QCOMPARE(plan.kv.bytesPerToken, 12 * 1'024LL);
        // TP 2: page 544 x 1,024; the batch holds cdiv(10000, 544) = 19 attention blocks + 3 state blocks.
        const qint64 pool = 12LL * 544 * 1'024;
        QCOMPARE(plan.kv.cacheBytes, 4 * (19 + 3) * pool);
        QCOMPARE(plan.kv.stateCacheBytes, 4 * 3 * pool);
        // vLLM 0.21 logs int(max concurrency x max_model_len) (vllm-project/vllm#41069): the pool's
        // blocks over the 482 + 3 a 262,144-token request holds; earlier releases blocks / 4 groups x 544.
        QCOMPARE(plan.kv.blocksPerMaxRequest, 482 + 3);
        QCOMPARE(plan.kv.capacityTokens,
                 std::int64_t(double(plan.kv.numGpuBlocks) / double(plan.kv.blocksPerMaxRequest) * 262'144));
        s.vllmVersion = QStringLiteral("0.19");
        const MemoryPlan earlier = planMemory(s);
        QCOMPARE(earlier.kv.capacityTokens, earlier.kv.numGpuBlocks / 4 * 544);
        const MemoryBreakdown bar = memoryBreakdown(plan);
        QCOMPARE(bar.segment(MemoryPart::RecurrentState)->bytes, 4 * 3 * pool);
        QCOMPARE(bar.segment(MemoryPart::KvCache)->bytes, 4 * 19 * pool);
        // A pure attention model has no state part.
        const MemoryPlan llama =
            planMemory(scenarioOf(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm")));
        QVERIFY(!memoryBreakdown(llama).segment(MemoryPart::RecurrentState));
        QCOMPARE(llama.kv.stateBytesPerSequence, 0LL);
        QCOMPARE(llama.blockSize, 16);
    }

    void tensorParallelMustDivideRecurrentHeads()
    {
        // vLLM divides the recurrent heads exactly (mamba_utils.py divide()): 30 value heads
        // cannot be split over 4 GPUs even though the 16 attention heads can.
        Scenario s = scenarioOf(QStringLiteral("qwen3-next-80b-a3b"), QStringLiteral("h100-sxm"));
        s.model.recurrent.numValueHeads = 30;
        s.tensorParallelSize = 4;
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--tensor-parallel-size"),
                             QStringLiteral("linear_num_value_heads 30"));
    }

    // --- Granite 4.0-H: Mamba-2 -------------------------------------------------------------

    void graniteMamba2State_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("tp");
        QTest::addColumn<qint64>("state");
        QTest::addColumn<qint64>("attention");
        QTest::addColumn<int>("block");
        QTest::addColumn<int>("groups");
        // h-small: conv 3 x (8192 + 2*1*128) x 2 = 50,688; SSM 128 x 64 x 128 x 2 = 2,097,152;
        // attention 2 x 8 x 128 x 2 = 4,096; block 16 x cdiv(2,147,840, 65,536) = 528; 4 + 36 layers
        // -> group size 4, 1 + 9 groups.
        QTest::newRow("h-small TP1") << "granite-4.0-h-small" << 1 << 2'147'840LL << 4'096LL << 528 << 10;
        // TP 2: one group becomes 2 (n_groups % TP != 0): conv 3 x (8192 + 512)/2 x 2 = 26,112;
        // SSM 64 x 64 x 128 x 2 = 1,048,576; attention 2,048; block 16 x cdiv(1,074,688, 32,768) = 528.
        QTest::newRow("h-small TP2") << "granite-4.0-h-small" << 2 << 1'074'688LL << 2'048LL << 528 << 10;
        // h-tiny: conv 3 x 3,328 x 2 = 19,968; SSM 48 x 64 x 128 x 2 = 786,432; attention 2 x 4 x 128 x 2.
        QTest::newRow("h-tiny TP1") << "granite-4.0-h-tiny" << 1 << 806'400LL << 2'048LL << 400 << 10;
    }

    void graniteMamba2State()
    {
        QFETCH(QString, id);
        QFETCH(int, tp);
        QFETCH(qint64, state);
        QFETCH(qint64, attention);
        QFETCH(int, block);
        QFETCH(int, groups);
        const KvCacheLayout layout = layoutOf(id, KvCacheDtype::BFloat16, tp);
        QCOMPARE(layout.stateBytesPerLayer, state);
        QCOMPARE(layout.bytesPerTokenPerLayer, attention);
        QCOMPARE(layout.blockSize, block);
        QCOMPARE(layout.groups.numGroups(), groups);
        QCOMPARE(layout.groups.groupSize, 4);
    }

    void graniteMamba2GroupsAreCopiedToEveryGpu()
    {
        // MambaMixer2 (vllm/model_executor/layers/mamba/mamba_mixer2.py): where mamba_n_groups does not
        // divide over the GPUs it raises the groups to TP (extra_groups_for_head_shards: TP - 1 for one
        // group) and in_proj and conv1d become ColumnParallelLinear layers of output
        // intermediate + conv_dim (+ heads), conv_dim = intermediate + 2 x groups x d_state: every GPU holds
        // the whole B and C. Granite-4.0-H-Small (intermediate 8192, one group of d_state 128, 128 heads):
        //   TP 1: in_proj 2 x 8192 + 2 x 128 + 128 = 16,768 rows, conv1d 8192 + 256 = 8,448
        //   TP 2: in_proj (16,384 + 2 x 2 x 128 + 128) / 2 = 8,512, conv1d (8192 + 512) / 2 = 4,352
        //         (not 16,768 / 2 = 8,384 and 8,448 / 2 = 4,224)
        const QList<TensorGroup> inventory = tensorInventory(preset(QStringLiteral("granite-4.0-h-small")));
        const auto rowsOnGpu = [&](const QString &name, int tp) -> std::int64_t {
            for (const TensorGroup &group : inventory)
                if (group.name == name)
                    return localShape(group, tp).rows;
            return -1;
        };
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.in_proj.weight"), 1), 16'768LL);
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.conv1d.weight"), 1), 8'448LL);
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.conv1d.bias"), 1), 8'448LL);
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.in_proj.weight"), 2), 8'512LL);
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.conv1d.weight"), 2), 4'352LL);
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.conv1d.bias"), 2), 4'352LL);
        // TP 4: (16,384 + 4 x 256 + 128) / 4 = 4,384; conv1d (8192 + 1024) / 4 = 2,304.
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.in_proj.weight"), 4), 4'384LL);
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.conv1d.weight"), 4), 2'304LL);
        // The other heads-split tensors (A, D, dt_bias, the gated norm) split evenly.
        QCOMPARE(rowsOnGpu(QStringLiteral("mamba.A"), 2), 64LL);
    }

    void graniteHasNoRotaryTable()
    {
        // position_embedding_type "nope": vLLM builds no cos/sin cache for the attention layers.
        const MemoryPlan plan =
            planMemory(scenarioOf(QStringLiteral("granite-4.0-h-small"), QStringLiteral("h100-sxm")));
        QCOMPARE(plan.weights.buffersBytes, 0LL);
        QCOMPARE(plan.kv.stateBytesPerSequence, 36 * 2'147'840LL);
        QVERIFY(plan.notes.join(QLatin1Char('\n')).contains(QStringLiteral("raises the block size to 528")));
    }

    void graniteLoggedCapacityAndAttentionTokensHeld()
    {
        // vLLM up to 0.20 logs a hybrid pool's size as blocks / groups x block size (0.21 on: the
        // maximum concurrency x max_model_len, loggedCacheSizeFollowsTheRelease): Granite-4.0-H-Small has
        // 10 groups (1 of 4 attention layers, 9 of 4 Mamba layers), 528-token blocks. A sequence of
        // 8,192 tokens takes cdiv(8,192, 528) = 16 attention blocks and one state block in each
        // of the 9 Mamba groups: 25 blocks, so the pool holds blocks / 25 sequences of 8,192
        // attention tokens each -- far more than the logged figure.
        Scenario s = scenarioOf(QStringLiteral("granite-4.0-h-small"), QStringLiteral("h100-sxm"));
        s.seqLen = 8'192;
        s.vllmVersion = QStringLiteral("0.20");
        const MemoryPlan plan = planMemory(s);
        const std::int64_t blocks = plan.kv.numGpuBlocks;
        QVERIFY(blocks > 0);
        QCOMPARE(plan.kv.capacityTokens, blocks / 10 * 528);
        QCOMPARE(plan.kv.blocksPerSequence, 25LL);
        QCOMPARE(plan.kv.attentionTokensHeld, blocks / 25 * 8'192);
        QVERIFY(plan.kv.attentionTokensHeld > plan.kv.capacityTokens);
    }

    // --- DeepSeek-V3.2: sparse MLA and the indexer ------------------------------------------

    void deepseekSparseAttentionBytes()
    {
        const ModelArch &m = preset(QStringLiteral("deepseek-v3.2-exp"));
        QVERIFY(m.indexer.enabled());
        QCOMPARE(indexerKeyBytes(m), 132LL); // 128 FP8 values + one float32 scale
        // bf16: 576 x 2 + 132 = 1,284 B per layer, 61 layers = 78,324 B per token.
        QCOMPARE(kvBytesPerTokenPerLayer(m, KvCacheDtype::BFloat16, 1), 1'284LL);
        QCOMPARE(kvBytesPerToken(m, KvCacheDtype::BFloat16, 1), 78'324LL);
        // fp8 -> fp8_ds_mla: 512 + 4 x 4 + 64 x 2 = 656, + 132 = 788 B; x 61 = 48,068 B.
        QVERIFY(usesFp8DsMla(m, KvCacheDtype::Fp8E4M3));
        QCOMPARE(kvBytesPerTokenPerLayer(m, KvCacheDtype::Fp8E4M3, 8), 788LL);
        QCOMPARE(kvBytesPerToken(m, KvCacheDtype::Fp8E4M3, 8), 48'068LL);
        // DeepSeek-V3 (no indexer) keeps the plain FP8 latent.
        QVERIFY(!usesFp8DsMla(preset(QStringLiteral("deepseek-v3")), KvCacheDtype::Fp8E4M3));
        // Both specs are full attention: one uniform-type group of 61 slots, 64-token blocks:
        // 64 x 48,068 = 3,076,352 B per pool block.
        const KvCacheLayout layout = layoutOf(m.id, KvCacheDtype::Fp8E4M3, 8);
        QCOMPARE(layout.blockSize, 64);
        QCOMPARE(layout.groups.numGroups(), 1);
        QCOMPARE(layout.poolBlockBytes(), 3'076'352LL);
        QCOMPARE(blocksPerRequest(m, layout, 163'840, 8192), 2'560LL);
    }

    void deepseekSparsePlanReportsTheLayout()
    {
        Scenario s = scenarioOf(QStringLiteral("deepseek-v3.2-exp"), QStringLiteral("h200"));
        s.tensorParallelSize = 8;
        s.kvCacheDtype = KvCacheDtype::Fp8E4M3;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.kv.fp8DsMla);
        QCOMPARE(plan.blockSize, 64);
        QCOMPARE(plan.requestedBlockSize, 16);
        QCOMPARE(plan.kv.capacityTokens, plan.kv.numGpuBlocks * 64);
    }

    // --- Llama 4: chunked local attention ---------------------------------------------------

    void llama4ChunkedLayers()
    {
        const ModelArch &m = preset(QStringLiteral("llama-4-scout-17b-16e"));
        QCOMPARE(m.attentionChunkSize, 8192);
        // NoPE (global) every 4th layer: 3, 7, ..., 47.
        QVERIFY(!m.isChunkedLayer(3) && !m.isChunkedLayer(47));
        QVERIFY(m.isChunkedLayer(0) && m.isChunkedLayer(46));
        const KvCacheLayout layout = layoutOf(m.id);
        QCOMPARE(layout.groups.fullLayers, 12);
        QCOMPARE(layout.groups.chunkedLayers, 36);
        QCOMPARE(layout.groups.numGroups(), 4);
        QCOMPARE(layout.bytesPerTokenPerLayer, 4'096LL);
        // 131,072-token request, 8192 batched tokens: 8,192 global blocks + 3 x cdiv(16,384, 16).
        QCOMPARE(blocksPerRequest(m, layout, 131'072, 8192), 11'264LL);
        // 20,000 tokens: the global group holds 1,250 blocks; a chunked group the chunk [16384, 19999]
        // = blocks 1024..1249 = 226.
        QCOMPARE(blocksPerSequence(m, layout, 20'000), 1'250LL + 3 * 226);
    }

    void llama4ParametersMatchTheCards()
    {
        // Llama 4 card: Scout 109B total / 17B active, Maverick 400B / 17B (text decoder active).
        const ParameterCounts scout = countParameters(preset(QStringLiteral("llama-4-scout-17b-16e")));
        QVERIFY(std::llabs(scout.total - 109'000'000'000LL) < 500'000'000LL);
        QVERIFY(std::llabs(scout.active - scout.of(Component::Vision) - 17'000'000'000LL) < 500'000'000LL);
        const ParameterCounts maverick = countParameters(preset(QStringLiteral("llama-4-maverick-17b-128e")));
        QVERIFY(std::llabs(maverick.total - 400'000'000'000LL) < 4'000'000'000LL); // within 1 %
        QVERIFY(std::llabs(maverick.active - maverick.of(Component::Vision) - 17'000'000'000LL) <
                500'000'000LL);
    }

    // --- Gemma 3n: KV sharing ---------------------------------------------------------------

    void gemma3nSharedLayersHoldNoCache()
    {
        const ModelArch &m = preset(QStringLiteral("gemma-3n-e4b"));
        QCOMPARE(m.kvSharedLayers, 15);
        QCOMPARE(kvCacheLayerCount(m), 20);
        const KvCacheLayout layout = layoutOf(m.id);
        // Layers 0-19 cache: global at 4, 9, 14, 19; group size 4 (16 >= 1.5 x 4): 1 + 4 groups.
        QCOMPARE(layout.groups.fullLayers, 4);
        QCOMPARE(layout.groups.slidingLayers, 16);
        QCOMPARE(layout.groups.sharedLayers, 15);
        QCOMPARE(layout.groups.numGroups(), 5);
        // 32,768-token request, 2,048 batched: 2,048 + 4 x (cdiv(511 + 2048, 16) + 1).
        QCOMPARE(blocksPerRequest(m, layout, 32'768, 2048), 2'048LL + 4 * 161);
        QCOMPARE(kvCacheLayerCount(preset(QStringLiteral("gemma-3n-e2b"))), 20);
    }

    void gemma3nParametersMatchTheCard()
    {
        // Gemma 3n card: E4B runs with 4B effective parameters, E2B with 2B: the text decoder
        // without its per-layer embeddings (262144 x L x 256), which live off the accelerator.
        for (const auto &[id, effective] : {std::pair{"gemma-3n-e4b", 4}, std::pair{"gemma-3n-e2b", 2}}) {
            const ModelArch &m = preset(QString::fromLatin1(id));
            const qint64 perLayerEmbeddings = 262'144LL * m.numLayers * 256;
            const qint64 rest = countParameters(m).total - perLayerEmbeddings;
            QVERIFY2(rest >= effective * 1'000'000'000LL && rest < (effective + 1) * 1'000'000'000LL, id);
        }
    }

    void parametersMatchTheCards_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("active");
        QTest::addColumn<qint64>("tolerance");
        // Model cards: Qwen3-Next 80B / 3B (the 3.87B active figure is named A3B); Granite-4.0-H-Small
        // 32B / 9B; Granite-4.0-H-Tiny 7B / 1B (1.47B counted; IBM rounds it to 1B).
        QTest::newRow("Qwen3-Next") << "qwen3-next-80b-a3b" << 80'000'000'000LL << 3'500'000'000LL
                                    << 500'000'000LL;
        QTest::newRow("Granite-4.0-H-Small")
            << "granite-4.0-h-small" << 32'000'000'000LL << 9'000'000'000LL << 500'000'000LL;
        QTest::newRow("Granite-4.0-H-Tiny")
            << "granite-4.0-h-tiny" << 7'000'000'000LL << 1'000'000'000LL << 500'000'000LL;
    }

    void parametersMatchTheCards()
    {
        QFETCH(QString, id);
        QFETCH(qint64, total);
        QFETCH(qint64, active);
        QFETCH(qint64, tolerance);
        const ParameterCounts counts = countParameters(preset(id));
        QVERIFY(std::llabs(counts.total - total) < tolerance);
        QVERIFY(std::llabs(counts.active - active) < tolerance);
    }
};

QTEST_GUILESS_MAIN(TestArchitectures)
#include "tst_architectures.moc"
