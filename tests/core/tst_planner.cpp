// SPDX-License-Identifier: MIT
// Scenario -> MemoryPlan: budget arithmetic, headroom, capacity, inverse
// questions and input validation. Capacity against vLLM's own start-up logs is
// tst_validation's (tests/data/vllm-logs.json).
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/gpu/customgpu.h"
#include "core/library/library.h"
#include "core/model/hfconfig.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "core/scenario/speculativeconfig.h"
#include "tests/testsupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace kvscope;

namespace {

/// The explorer's default model and GPU: Llama-3.1-8B on one H100 SXM.
Scenario llama8bOnH100()
{
    Scenario s;
    s.model = *ModelLibrary::builtin().find(QStringLiteral("llama-3.1-8b"));
    s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
    return s;
}

} // namespace

class TestPlanner : public QObject
{
    Q_OBJECT

private:
    static Scenario scenario(const QString &model, const QString &gpu = QStringLiteral("h100-sxm"))
    {
        Scenario s;
        s.model = resolveModel(model);
        s.gpu = resolveGpu(gpu);
        return s;
    }

    static void expectError(const Scenario &s, const QString &fragment)
    {
        try {
            planMemory(s);
            QFAIL(qPrintable(QStringLiteral("no error; expected one mentioning '%1'").arg(fragment)));
        } catch (const Error &error) {
            QVERIFY2(error.message().contains(fragment), qPrintable(error.message()));
        }
    }

private Q_SLOTS:
    void structureBehindTheFigures()
    {
        // Gemma 3 27B (config.json): 62 layers, sliding_window 1024, every sixth layer global:
        // 52 slide, 10 keep every token; 16 KV heads of 128 dims.
        MemoryPlan plan = planMemory(scenario(QStringLiteral("gemma-3-27b")));
        QCOMPARE(plan.kv.cacheLayers, 62);
        QCOMPARE(plan.kv.slidingLayers, 52);
        QCOMPARE(plan.kv.fullLayers, 10);
        QCOMPARE(plan.kv.slidingWindow, 1024);
        QCOMPARE(plan.kv.numKvHeads, 16);
        QCOMPARE(plan.kv.numQueryHeads, 32);
        QCOMPARE(plan.kv.keyHeadDim, 128);
        QCOMPARE(plan.kv.mlaLatentRank, 0);
        // DeepSeek-V3 (config.json): MLA latent kv_lora_rank 512 + qk_rope_head_dim 64, one copy on
        // every GPU under tensor parallelism.
        Scenario s = scenario(QStringLiteral("deepseek-v3"), QStringLiteral("h200"));
        s.tensorParallelSize = 8;
        plan = planMemory(s);
        QCOMPARE(plan.kv.mlaLatentRank, 512);
        QCOMPARE(plan.kv.mlaRopeDim, 64);
        QVERIFY(plan.kv.headsReplicated);
        QCOMPARE(plan.kv.bytesPerTokenPerLayer, (512 + 64) * 2);
        QCOMPARE(plan.kv.slidingWindow, 0);
        // Llama 4 Scout: chunked local attention over 8,192-token chunks on three of four layers.
        plan = planMemory(scenario(QStringLiteral("llama-4-scout-17b-16e")));
        QCOMPARE(plan.kv.attentionChunkSize, 8192);
        QCOMPARE(plan.kv.chunkedLayers, 36);
    }

    void loraSlotsAreAllocatedWithTheWeights()
    {
        // vLLM's create_lora_weights (vllm/lora/layers/base_linear.py): per slot and wrapped layer,
        // lora_a rank x input and lora_b output x rank, as one GPU holds the layer. Llama-3.1-8B at
        // TP 1: q 4096+4096, k and v 1024+4096, o 4096+4096, gate and up 14336+4096, down
        // 4096+14336 = 81,920 per unit of rank a layer; x 32 layers x rank 64 x 4 slots x 2 B =
        // 1,342,177,280 B (1.25 GiB).
        Scenario s = llama8bOnH100();
        const MemoryPlan without = planMemory(s);
        s.maxLoras = 4;
        s.maxLoraRank = 64;
        const MemoryPlan with = planMemory(s);
        QCOMPARE(with.weights.loraBytes, std::int64_t(1'342'177'280));
        QCOMPARE(with.weights.bytesPerGpu, without.weights.bytesPerGpu + with.weights.loraBytes);
        // vLLM captures each CUDA graph without and with the adapters (core/plan/cudagraphmemory.h): 102 +
        // 102 graphs where 51 + 51 were, 102 more further graphs of 32 layers x 192 KiB in its estimate.
        QCOMPARE(with.cudaGraphBytes - without.cudaGraphBytes, std::int64_t(102) * 32 * 192 * 1024);
        QCOMPARE(with.kv.availableBytes, without.kv.availableBytes - with.weights.loraBytes -
                                             (with.cudaGraphBytes - without.cudaGraphBytes));
        // TP 2: q 2048+4096, k and v 512+4096, o 4096+2048, gate, up and down 7168+4096
        // = 55,296 a layer: x 32 x 64 x 4 x 2 B = 905,969,664 B.
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(905'969'664));
        // Refused: a rank vLLM refuses, a MoE model, SGLang.
        s.tensorParallelSize = 1;
        s.maxLoraRank = 48;
        QVERIFY(test::errorFrom([&] {
                    planMemory(s);
                }).startsWith(QStringLiteral("--max-lora-rank: 48 is not a rank vLLM accepts")));
        // So many slots that their buffers pass 2^63 bytes: refused, naming the option, never wrapped.
        s.maxLoraRank = 512;
        s.maxLoras = std::int64_t(999'999'999'999'999'999);
        QVERIFY(test::errorFrom([&] {
                    planMemory(s);
                }).startsWith(QStringLiteral("--max-loras 999999999999999999")));
        // --lora-dtype (vLLM's LoRAConfig.lora_dtype: auto, float16 or bfloat16; auto = the model's dtype):
        // a float32 model's slots take 4 B an element, or 2 B with --lora-dtype bfloat16.
        s.maxLoras = 4;
        s.maxLoraRank = 64;
        s.dtype = WeightDtype::Float32;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(1'342'177'280) * 2);
        s.loraDtype = WeightDtype::BFloat16;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(1'342'177'280));
        s.dtype = WeightDtype::Auto;
        // --max-cpu-loras keeps adapters in host memory (nothing on the GPU) and must hold --max-loras
        // ("max_cpu_loras (2) must be >= max_loras (4)", LoRAConfig._validate_lora_config).
        s.maxCpuLoras = 8;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(1'342'177'280));
        QVERIFY2(launchLine(s).command().contains(QStringLiteral("--lora-dtype bfloat16 --max-cpu-loras 8")),
                 qPrintable(launchLine(s).command()));
        s.maxCpuLoras = 2;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).startsWith(QStringLiteral("--max-cpu-loras 2")));
        s.maxCpuLoras = 0;
        s.loraDtype = WeightDtype::Float32;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).startsWith(QStringLiteral("--lora-dtype")));
        s.loraDtype = WeightDtype::Auto;
        // --fully-sharded-loras (BaseLinearLayerWithLoRA.create_lora_weights): a column-parallel layer's A
        // takes rank / TP rows, a row-parallel layer's B output / TP. Llama-3.1-8B at TP 2, per unit of rank
        // a layer: q 2048 + 4096 / 2, k and v 512 + 4096 / 2, o 4096 / 2 + 2048, gate and up 7168 + 4096 / 2,
        // down 4096 / 2 + 7168 = 4,096 + 2 x 2,560 + 4,096 + 3 x 9,216 = 40,960 (55,296 without):
        // x 32 x rank 64 x 4 slots x 2 B = 671,088,640 B, half of TP 1's.
        s.tensorParallelSize = 2;
        s.fullyShardedLoras = true;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(671'088'640));
        QVERIFY(launchLine(s).command().contains(QStringLiteral("--fully-sharded-loras")));
        // The rank must divide over the GPUs (vLLM's divide(max_lora_rank, tp_size)).
        s.maxLoraRank = 1;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).startsWith(QStringLiteral("--fully-sharded-loras")));
        s.maxLoraRank = 64;
        s.fullyShardedLoras = false;
        s.tensorParallelSize = 1;
        // --lora-target-modules (vLLM's LoRAConfig.target_modules, vllm-project/vllm#34984; SGLang's own
        // flag): only the named modules get slots, and a packed module whose child is named is wrapped whole
        // (is_in_target_modules, vllm/lora/utils.py: q_proj names the fused qkv_proj). q_proj and v_proj:
        // q 4096 + 4096, k and v 1024 + 4096 = 18,432 a layer x 32 x 64 x 4 x 2 B = 301,989,888 B.
        s.loraTargetModules = {QStringLiteral("q_proj"), QStringLiteral("v_proj")};
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(301'989'888));
        QVERIFY2(launchLine(s).command().contains(QStringLiteral("--lora-target-modules q_proj v_proj")),
                 qPrintable(launchLine(s).command()));
        s.engine = Engine::Sglang;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(301'989'888)); // SGLang's qkv_proj buffers
        QVERIFY2(launchLine(s).command().contains(QStringLiteral("--lora-target-modules q_proj v_proj")),
                 qPrintable(launchLine(s).command()));
        s.engine = Engine::Vllm;
        s.loraTargetModules = {QStringLiteral("lm_head")};
        QVERIFY(test::errorFrom([&] { planMemory(s); }).startsWith(QStringLiteral("--lora-target-modules")));
        s.loraTargetModules.clear();
    }

    void loraSlotsOfLatentAttentionWrapEachProjection()
    {
        // vLLM wraps every linear layer of DeepseekV2ForCausalLM (SupportsLoRA since vllm-project/vllm#23971,
        // vLLM 0.10.2): without query compression q_proj (ColumnParallelLinear), kv_a_proj_with_mqa
        // (ReplicatedLinear), kv_b_proj (ColumnParallelLinear), o_proj (RowParallelLinear); with it the
        // fused q_a/kv_a projection (MergedColumnParallelLinear, two slices, not split) and q_b_proj
        // (vllm/model_executor/models/deepseek_v2.py, vllm/lora/layers/). DeepSeek-V2-Lite at TP 1, per
        // unit of rank:
        //   attention, 27 layers: q 3072+2048, kv_a 576+2048, kv_b 4096+512, o 2048+2048 = 16,448
        //   dense MLP, layer 0: gate, up, down 3 x (10944 + 2048)                       = 38,976
        //   MoE, 26 layers: router 64+2048, shared experts 3 x (2816 + 2048),
        //                   experts 64 x 3 x (1408 + 2048)         = 2,112 + 14,592 + 663,552 = 680,256
        //   27 x 16,448 + 38,976 + 26 x 680,256 = 18,169,728 x rank 16 x 4 slots x 2 B = 2,325,725,184 B
        Scenario s = llama8bOnH100();
        s.model = *ModelLibrary::builtin().find(QStringLiteral("deepseek-v2-lite"));
        s.maxLoras = 4;
        s.maxLoraRank = 16;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(2'325'725'184));
        // Before FusedMoEWithLoRA the experts stay unwrapped: (18,169,728 - 26 x 663,552) x 128 B.
        s.vllmVersion = QStringLiteral("0.11.0");
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(117'424'128));
        // Before vllm-project/vllm#23971 vLLM refused LoRA for DeepSeek's models.
        s.vllmVersion = QStringLiteral("0.10.1");
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("0.10.2")));
        s.vllmVersion.clear();
        // DeepSeek-V3 at TP 8, rank 16, one slot. Attention, 61 layers: fused q_a/kv_a 1536+576 +
        // 2 x 7168, q_b 24576/8+1536, kv_b 32768/8+512, o 7168+16384/8 = 16,448 + 4,608 + 4,608 + 9,216
        // = 34,880; dense MLP, 3 layers: 3 x (18432/8 + 7168) = 28,416; MoE, 58 layers: router 256+7168,
        // shared expert 3 x (2048/8 + 7168), experts 256 x 3 x (2048/8 + 7168) = 7,424 + 22,272 +
        // 5,701,632 = 5,731,328. 61 x 34,880 + 3 x 28,416 + 58 x 5,731,328 = 334,629,952 x 16 x 2 B.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("deepseek-v3"));
        s.tensorParallelSize = 8;
        s.maxLoras = 1;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(334'629'952) * 16 * 2);
    }

    void sglangLoraPoolIsAllocatedWithTheWeights()
    {
        // SGLang's LoRAMemoryPool (python/sglang/srt/lora/mem_pool.py) holds, for each target module of
        // each layer, A [max_loras_per_batch, stacked x rank, input] and B [max_loras_per_batch, output,
        // rank] as one GPU holds the module (get_lora_A_shape / get_lora_B_shape: a row-parallel input
        // split, a column-parallel output split), in the model's dtype — for q, k, v, o, gate, up and down
        // the bytes of vLLM's slots: 1,342,177,280 B for Llama-3.1-8B, 4 adapters of rank 64. The pool is
        // built with the model (ModelRunner.initialize: maybe_init_lora_manager before the KV cache is
        // sized), so it comes out of the static share as the weights do.
        Scenario s = llama8bOnH100();
        s.engine = Engine::Sglang;
        const MemoryPlan without = planMemory(s);
        s.maxLoras = 4;
        s.maxLoraRank = 64;
        const MemoryPlan with = planMemory(s);
        QCOMPARE(with.weights.loraBytes, std::int64_t(1'342'177'280));
        QCOMPARE(with.kv.availableBytes, without.kv.availableBytes - with.weights.loraBytes);
        QCOMPARE(with.kv.capacityTokens, with.kv.availableBytes / 131072);
        // SGLang takes any rank; its launch line names the modules the pool is sized for.
        s.maxLoraRank = 48;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(1'342'177'280) / 64 * 48);
        const QString launch = launchLine(s).command();
        QVERIFY2(launch.contains(QLatin1String("--enable-lora --max-loras-per-batch 4 --max-lora-rank 48 "
                                               "--lora-target-modules q_proj k_proj v_proj o_proj gate_proj "
                                               "up_proj down_proj")),
                 qPrintable(launch));
        // A MoE's experts (SGLang from April 2026: sgl-project/sglang#14105 and #21466, which names
        // Qwen3-30B-A3B): LoRAMemoryPool.init_buffers gives a MoE without shared experts no 3D gate_up/down
        // buffers but 4D gate_up_proj_moe A [N, experts, 2 x rank, hidden], B [N, experts, 2 x
        // intermediate / moe_tp, rank] and down_proj_moe A [N, experts, rank, intermediate / moe_tp],
        // B [N, experts, hidden, rank] on every layer (get_hidden_dim's moe_intermediate_size,
        // python/sglang/srt/lora/utils.py); the router ("gate") is not a target module. Qwen3-30B-A3B at
        // TP 1, per unit of rank a layer: q, k, v 3 x 2048 + 5120, o 4096 + 2048, experts 128 x 3 x
        // (2048 + 768) = 1,098,752; x 48 layers x rank 16 x 4 adapters x 2 B = 6,750,732,288 B (vLLM's
        // figure less its router's buffers).
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-30b-a3b"));
        s.maxLoraRank = 16;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(6'750'732'288));
        // Refused with the reason: shared experts (their own buffers and namespace), SGLang's --ep-size.
        Scenario ep = s;
        ep.tensorParallelSize = 2;
        ep.expertParallelSize = 2;
        QVERIFY(test::errorFrom([&] { planMemory(ep); }).contains(QStringLiteral("--ep-size")));
        s.model = *ModelLibrary::builtin().find(QStringLiteral("llama-4-scout-17b-16e"));
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("SGLang")));
    }

    void loraSlotsOfAMoeWrapTheExperts()
    {
        // vLLM's FusedMoEWithLoRA (vllm/lora/layers/fused_moe.py, vllm-project/vllm#21229; in the API
        // reference from v0.11.2): per slot and MoE layer, w13_lora_a 2 x [experts, rank, hidden],
        // w13_lora_b 2 x [experts, intermediate / TP, rank], w2_lora_a [experts, rank, intermediate /
        // TP], w2_lora_b [experts, hidden, rank]; the router (a ReplicatedLinear) is wrapped whole as
        // ReplicatedLinearWithLoRA. Qwen3-30B-A3B at TP 1, per unit of rank a layer:
        //   q 4096+2048, k and v 512+2048, o 2048+4096                     =    17,408
        //   router 128+2048                                                =     2,176
        //   experts 128 x 3 x (2048 + 768)                                 = 1,081,344
        //   = 1,100,928 x 48 layers x rank 16 x 4 slots x 2 B             = 6,764,101,632 B
        Scenario s = llama8bOnH100();
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-30b-a3b"));
        s.maxLoras = 4;
        s.maxLoraRank = 16;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(6'764'101'632));
        // TP 2: q 2048+2048, k and v 256+2048, o 2048+2048 = 12,800; router 2,176 (replicated);
        // experts 128 x 3 x (2048 + 384) = 933,888; x 48 x 16 x 4 x 2 B = 5,829,820,416 B.
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(5'829'820'416));
        // Fully sharded (FusedMoEWithLoRA: w13_lora_a rank / TP, w2_lora_b hidden / TP): q 2048 + 1024, k and
        // v 256 + 1024, o 1024 + 2048, router 2,176, experts 128 x 3 x (1024 + 384) = 551,552 a layer.
        s.fullyShardedLoras = true;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(551'552) * 48 * 16 * 4 * 2);
        s.fullyShardedLoras = false;
        // Before FusedMoEWithLoRA, vLLM left the experts unwrapped (an adapter's expert weights were
        // refused, vllm-project/vllm#20932): attention and router only, (17,408 + 2,176) x 48 x 64 x 2 B.
        s.tensorParallelSize = 1;
        s.vllmVersion = QStringLiteral("0.11.0");
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(120'324'096));
        s.vllmVersion.clear();
        // Refused: expert parallelism (FusedMoEWithLoRA: "EP support for Fused MoE LoRA is not
        // implemented yet").
        s.tensorParallelSize = 2;
        s.enableExpertParallel = true;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("--enable-expert-parallel")));
    }

    void loraTargetModulesNameTheModulesVllmRuns()
    {
        // --lora-target-modules keeps a module whose runtime name's last part is named, or one of the
        // checkpoint modules packed in it (is_in_target_modules with the model's packed_modules_mapping,
        // vllm/lora/utils.py, as vllm-project/vllm#35077 left it). A MoE's routed experts run as one FusedMoE
        // module, "experts", whose packed names are per expert ("experts.0.gate_proj",
        // process_packed_modules_mapping): "experts" names them, "gate_proj" does not. Qwen3-30B-A3B, 4 slots
        // of rank 16 at TP 1 (loraSlotsOfAMoeWrapTheExperts for the per-layer figures), x 48 layers x 16 x 4
        // x 2 B:
        Scenario s = llama8bOnH100();
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-30b-a3b"));
        s.maxLoras = 4;
        s.maxLoraRank = 16;
        const auto lora = [&](QStringList targets) {
            s.loraTargetModules = std::move(targets);
            return planMemory(s).weights.loraBytes;
        };
        // q_proj and v_proj name the packed qkv_proj: q 6,144, k and v 2,560 each.
        QCOMPARE(lora({QStringLiteral("q_proj"), QStringLiteral("v_proj")}), std::int64_t(11'264) * 48 * 128);
        QCOMPARE(lora({QStringLiteral("experts")}), std::int64_t(1'081'344) * 48 * 128);
        QCOMPARE(lora({QStringLiteral("gate")}), std::int64_t(2'176) * 48 * 128); // the router (mlp.gate)
        // A name no module of the model answers to is refused with the ones it has: Qwen3-30B-A3B has no
        // dense MLP, so gate_proj would wrap nothing.
        const QString none = test::errorFrom([&] { lora({QStringLiteral("gate_proj")}); });
        QVERIFY2(none.startsWith(QStringLiteral("--lora-target-modules")) &&
                     none.contains(QStringLiteral("experts")),
                 qPrintable(none));
        // gpt-oss's router is "router" (gpt_oss.py MLPBlock): gpt-oss-20b, (2880 + 32) x 24 layers.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("gpt-oss-20b"));
        QCOMPARE(lora({QStringLiteral("router")}), std::int64_t(2'912) * 24 * 128);
        // DeepSeek-V3 (query compression): q_a_proj names the fused q_a/kv_a projection
        // (packed_modules_mapping "fused_qkv_a_proj", deepseek_v2.py), 2 x 7168 + 1536 + 576 = 16,448 a layer
        // x 61 at TP 8.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("deepseek-v3"));
        s.tensorParallelSize = 8;
        QCOMPARE(lora({QStringLiteral("q_a_proj")}), std::int64_t(16'448) * 61 * 128);
        // Granite-4.0-H-Small (loraSlotsOfMamba2WrapEachPackedOutput): the Mamba-2 in_proj, 5 x 4096 + 16,768
        // a layer x 36; the shared MLP's input_linear, 4096 + 2 x 1536 x 40. Its MLP has no gate_proj.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("granite-4.0-h-small"));
        s.tensorParallelSize = 1;
        QCOMPARE(lora({QStringLiteral("in_proj")}), std::int64_t(37'248) * 36 * 128);
        QCOMPARE(lora({QStringLiteral("input_linear")}), std::int64_t(7'168) * 40 * 128);
        QVERIFY(test::errorFrom([&] {
                    lora({QStringLiteral("gate_proj")});
                }).contains(QStringLiteral("input_linear")));
        // SGLang names its own buffers (get_normalized_target_modules): kvscope restricts them on dense
        // models.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-30b-a3b"));
        s.engine = Engine::Sglang;
        QVERIFY(
            test::errorFrom([&] { lora({QStringLiteral("q_proj")}); }).contains(QStringLiteral("SGLang")));
    }

    void loraSlotsOfGptOssWrapItsFusedExperts()
    {
        // gpt-oss declares 3D expert weights (is_3d_moe_weight), so vLLM wraps its experts as
        // FusedMoE3DWithLoRA (vllm/lora/layers/fused_moe.py, from v0.12.0): gate and up share one A,
        // per slot and MoE layer w13_lora_a [experts, rank, hidden], w13_lora_b [experts, 2 x
        // intermediate / TP, rank], w2_lora_a [experts, rank, intermediate / TP], w2_lora_b [experts,
        // hidden, rank] -- rank x (2 hidden + 3 intermediate / TP) an expert, at the sizes the experts are
        // allocated with. With LoRA vLLM runs MXFP4 experts through Marlin, the one MXFP4 kernel that
        // carries it (get_mxfp4_backend_with_lora, vllm/model_executor/layers/quantization/mxfp4.py),
        // which rounds the hidden size up to 256 and the intermediate size to 128: 3072 and 2944 for
        // gpt-oss-20b at TP 1, on an H100 as on an A100. Per unit of rank a layer:
        //   q 4096+2880, k and v 512+2880, o 2880+4096                    = 20,736
        //   router 32+2880                                                =  2,912
        //   experts 32 x (2 x 3072 + 3 x 2944)                           = 479,232
        //   = 502,880 x 24 layers x rank 16 x 4 slots x 2 B            = 1,544,847,360 B
        Scenario s = llama8bOnH100();
        s.model = *ModelLibrary::builtin().find(QStringLiteral("gpt-oss-20b"));
        const MemoryPlan without = planMemory(s);
        s.maxLoras = 4;
        s.maxLoraRank = 16;
        const MemoryPlan with = planMemory(s);
        QCOMPARE(with.weights.loraBytes, std::int64_t(1'544'847'360));
        // The experts themselves take Marlin's padding too: on the H100 what an A100 allocates without
        // LoRA (Marlin there as well), more than the H100's Triton path without it.
        Scenario onA100 = s;
        onA100.maxLoras = 0;
        onA100.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        const std::int64_t marlinExperts = planMemory(onA100).weights.byComponent[int(Component::Experts)];
        QCOMPARE(with.weights.byComponent[int(Component::Experts)], marlinExperts);
        QVERIFY(without.weights.byComponent[int(Component::Experts)] < marlinExperts);
        // TP 2: q 2048+2880, k and v 256+2880, o 2880+2048 = 16,128; router 2,912; experts 32 x (2 x 3072
        // + 3 x 1536) = 344,064 (1440 rounds up to 1536): 363,104 x 24 x 16 x 4 x 2 B.
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(363'104) * 24 * 16 * 4 * 2);
        // Before FusedMoE3DWithLoRA kvscope does not size gpt-oss's LoRA: refused, naming the release.
        s.tensorParallelSize = 1;
        s.vllmVersion = QStringLiteral("0.11.2");
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("0.12.0")));
        // Qwen3-VL-30B-A3B's experts are 3D as well (qwen3_vl_moe.py): from 0.12.0 one A fewer an expert
        // than FusedMoEWithLoRA held in 0.11.2, 48 layers x 128 experts x 2048 x rank 16 x 4 x 2 B.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-vl-30b-a3b"));
        const std::int64_t twoD = planMemory(s).weights.loraBytes;
        s.vllmVersion.clear();
        QCOMPARE(planMemory(s).weights.loraBytes, twoD - std::int64_t(48) * 128 * 2048 * 16 * 4 * 2);
    }

    void loraSlotsOfGatedDeltaNetWrapItsLinearLayers()
    {
        // vLLM wraps every linear layer of Qwen3-Next for LoRA ("In vLLM, all linear layers support LoRA",
        // get_supported_lora_modules, vllm/lora/utils.py), the Gated DeltaNet's too
        // (vllm/model_executor/layers/mamba/gdn_linear_attn.py): in_proj_qkvz and in_proj_ba, each one
        // packed module (packed_modules_mapping, vllm/model_executor/models/qwen3_next.py) and so one
        // ColumnParallelLinearWithLoRA slice; conv1d, a ColumnParallelLinear of input conv_kernel_size;
        // out_proj row-parallel. The MoE's router and its shared expert's gate (a ReplicatedLinear since
        // vllm-project/vllm#31719) are wrapped whole, the experts by FusedMoEWithLoRA. Per unit of rank at
        // TP 1 (tests/data/configs/qwen3-next-80b-a3b.json):
        //   12 attention layers: q (gated) 8192+2048, k and v 512+2048, o 2048+4096 = 21,504   x 12 = 258,048
        //   36 DeltaNet layers: qkvz 12288+2048, ba 64+2048, conv1d 8192+4,
        //                       out 2048+4096                                    = 30,788   x 36 = 1,108,368
        //   48 MoE layers: router 512+2048, experts 512 x 3 x (2048 + 512),
        //                  shared expert 3 x (2048 + 512), its gate 1+2048       = 3,944,449 x 48 =
        //                  189,333,552
        //   = 190,699,968 x rank 16 x 2 slots x 2 B = 12,204,797,952 B
        Scenario s = llama8bOnH100();
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-next-80b-a3b"));
        s.gpu = resolveGpu(QStringLiteral("h200"));
        s.maxLoras = 2;
        s.maxLoraRank = 16;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(12'204'797'952));
        // TP 4: attention q 2048+2048, k and v 256+2048 (one KV head a GPU), o 2048+1024 = 11,776 x 12;
        // DeltaNet qkvz 3072+2048, ba 16+2048, conv1d 2048+4, out 2048+1024 = 12,308 x 36; MoE router 2,560,
        // experts 512 x 3 x (2048 + 128), shared 3 x (2048 + 128), gate 2,049 = 3,353,473 x 48.
        s.tensorParallelSize = 4;
        QCOMPARE(planMemory(s).weights.loraBytes,
                 (std::int64_t(11'776) * 12 + std::int64_t(12'308) * 36 + std::int64_t(3'353'473) * 48) * 16 *
                     2 * 2);
        // Before vllm-project/vllm#31719 (merged 2026-01-08, in 0.15.0) the shared expert's gate was a
        // torch.nn.Linear outside LoRA: kvscope sizes the slots as 0.15.0 and later hold them and names it.
        s.vllmVersion = QStringLiteral("0.14.1");
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("0.15.0")));
        s.vllmVersion.clear();
        // SGLang's LoRA pool holds no buffers for a shared expert: refused there.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-next-80b-a3b"));
        s.engine = Engine::Sglang;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("SGLang")));
    }

    void loraSlotsOfMamba2WrapEachPackedOutput()
    {
        // Granite-4.0-H-Small (tests/data/configs/granite-4.0-h-small.json) under vLLM: every linear layer is
        // wrapped (get_supported_lora_modules, vllm/lora/utils.py). Its Mamba-2 mixer packs in_proj over five
        // outputs (z, x, B, C, dt) and conv1d over three (x, B, C) in MergedColumnParallelLinear layers where
        // mamba_n_groups divides over the GPUs (vllm/model_executor/layers/mamba/mamba_mixer2.py); since
        // vllm-project/vllm#30802 (merged 2026-01-19) vLLM wraps such a layer a slice each
        // (MergedColumnParallelLinearVariableSliceWithLoRA, vllm/lora/layers/column_parallel_linear.py): one
        // A per slice over the layer's input. The shared MLP's input_linear is one packed module
        // (packed_modules_mapping "input_linear": ["input_linear"], granitemoehybrid.py) of two outputs, one
        // ColumnParallelLinearWithLoRA slice: one A. The router is wrapped whole, the 72 experts by
        // FusedMoEWithLoRA. Per unit of rank at TP 1:
        //   4 attention layers: q 4096+4096, k and v 4096+1024, o 4096+4096       = 26,624    x 4  = 106,496
        //   36 Mamba-2 layers: in_proj 5 x 4096 + 16,768, conv1d 3 x 4 + 8,448,
        //                      out_proj 8192+4096                                  = 57,996    x 36 =
        //                      2,087,856
        //   40 MoE layers: router 4096+72, experts 72 x (2 x (4096+768) + 768+4096),
        //                  shared input_linear 4096 + 2 x 1536, output_linear 1536+4096 = 1,067,592 x 40 =
        //                  42,703,680
        //   = 44,898,032 x rank 16 x 2 slots x 2 B = 2,873,474,048 B
        Scenario s = llama8bOnH100();
        s.model = *ModelLibrary::builtin().find(QStringLiteral("granite-4.0-h-small"));
        s.gpu = resolveGpu(QStringLiteral("h200"));
        s.maxLoras = 2;
        s.maxLoraRank = 16;
        QCOMPARE(planMemory(s).weights.loraBytes, std::int64_t(2'873'474'048));
        // TP 2: the one group does not divide, so in_proj and conv1d are ColumnParallelLinear layers, one
        // slice each, of (16,384 + 128) / 2 + 256 = 8,512 and 8192 / 2 + 256 = 4,352 rows a GPU:
        //   attention q 4096+2048, k and v 4096+512, o 2048+4096                   = 21,504    x 4
        //   Mamba-2 in_proj 4096 + 8,512, conv1d 4 + 4,352, out_proj 4096+4096   = 25,156    x 36
        //   MoE router 4,168, experts 72 x (2 x (4096+384) + 384+4096), shared 4096 + 1536 + 768+4096
        //                                                                           = 982,344   x 40
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).weights.loraBytes,
                 (std::int64_t(21'504) * 4 + std::int64_t(25'156) * 36 + std::int64_t(982'344) * 40) * 16 *
                     2 * 2);
        // Fully sharded, the sliced layers have no sharded wrapper (MergedColumnParallelLinearVariableSlice-
        // WithLoRA is _not_fully_sharded_can_replace, ColumnParallelLinearWithShardedLoRA takes no layer of
        // three or more outputs): at TP 1 in_proj and conv1d stay unwrapped.
        s.tensorParallelSize = 1;
        const std::int64_t sliced = planMemory(s).weights.loraBytes;
        s.fullyShardedLoras = true;
        QCOMPARE(planMemory(s).weights.loraBytes, sliced - (std::int64_t(37'248) + 8'460) * 36 * 16 * 2 * 2);
        s.fullyShardedLoras = false;
        // Before #30802 vLLM wrapped them as one slice: kvscope sizes the slots as 0.16.0 (released
        // 2026-02-25, the first release sure to hold it) and later hold them, and names it.
        s.vllmVersion = QStringLiteral("0.15.1");
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("0.16.0")));
        s.vllmVersion.clear();
        // SGLang has no LoRA buffers for recurrent layers: refused there.
        s.engine = Engine::Sglang;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).contains(QStringLiteral("SGLang")));
    }

    void eagle3DraftJoinsTheWeightsAndTheKvPool()
    {
        // yuhuili/EAGLE3-LLaMA3.1-Instruct-8B (resources/presets/drafts.json) on Llama-3.1-8B, as
        // vLLM loads it (llama_eagle3.py, spec_decode/eagle.py), 16-bit, TP 1:
        //   q, k, v over 2 x 4096 inputs: 8192 x (4096 + 1024 + 1024)  =  50,331,648
        //   o 4096 x 4096                                              =  16,777,216
        //   gate, up, down 3 x 4096 x 14336                            = 176,160,768
        //   fc 4096 x (3 x 4096), replicated                           =  50,331,648
        //   lm_head over the 32,000-token draft vocabulary x 4096      = 131,072,000
        //   norms: input, post-attention, hidden_norm, final 4 x 4096  =      16,384
        //   = 424,689,664 parameters x 2 B = 849,379,328 B; no embedding (the checkpoint has none:
        //   vLLM shares the target's); d2t 32,000 x 8 B = 256,000 B; its own rotary table for its
        //   max_position_embeddings 2048 x 128 x 2 B = 524,288 B.  Total 850,159,616 B.
        // Its one layer (8 KV heads x 128) joins the pool: 33 x 2 x 8 x 128 x 2 = 135,168 B a token.
        Scenario s = llama8bOnH100();
        const MemoryPlan without = planMemory(s);
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", )"
                           R"("num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan with = planMemory(s);
        QCOMPARE(without.kv.bytesPerToken, std::int64_t(131'072));
        QCOMPARE(with.kv.bytesPerToken, std::int64_t(135'168));
        QCOMPARE(with.weights.draftBytes, std::int64_t(850'159'616));
        QCOMPARE(with.weights.bytesPerGpu, without.weights.bytesPerGpu + with.weights.draftBytes);
        QCOMPARE(with.kv.draftLayers, 1);
        // The pool's block holds 33 layers' pages: 16 x 135,168 B.
        QCOMPARE(with.kv.numGpuBlocks, std::max<std::int64_t>(0, with.kv.availableBytes) / (16 * 135'168));
        // A running request holds 3 drafts under verification and 3 written ahead
        // (num_lookahead_tokens, vllm/v1/core/sched/scheduler.py): 8,192 + 6 tokens = 513 blocks.
        QCOMPARE(with.kv.speculativeSlots, std::int64_t(6));
        QCOMPARE(with.kv.blocksPerSequence, std::int64_t(513));
        QCOMPARE(with.kv.cacheBytes, std::int64_t(16) * 513 * 16 * 135'168);
        // ... but never past --max-model-len (min(computed + new + lookahead, max_model_len),
        // KVCacheManager.allocate_slots): a request as long as the model allows holds 512.
        Scenario capped = s;
        capped.maxModelLen = 8192;
        QCOMPARE(planMemory(capped).kv.blocksPerSequence, std::int64_t(512));
        capped.seqLen = 8190;
        QCOMPARE(planMemory(capped).kv.blocksPerSequence, std::int64_t(512));
        // n-gram drafts on the CPU: no weights, no layers, only the k slots under verification -- and the
        // FULL decode graphs start at a request's 1 + k tokens (CudagraphDispatcher, vllm/v1/
        // cudagraph_dispatcher.py), so sizes 1, 2 and 4 are not captured: 3 graphs x 32 layers x 192 KiB
        // more for the cache (core/plan/cudagraphmemory.h).
        s.speculative =
            parseSpeculativeConfig(QStringLiteral(R"({"method": "ngram", "num_speculative_tokens": 4})"),
                                   QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan ngram = planMemory(s);
        QCOMPARE(ngram.weights.draftBytes, std::int64_t(0));
        QCOMPARE(ngram.kv.bytesPerToken, std::int64_t(131'072));
        QCOMPARE(ngram.kv.speculativeSlots, std::int64_t(4));
        QCOMPARE(ngram.kv.availableBytes, without.kv.availableBytes + 3 * 32 * 192 * KiB);
    }

    void mtpLayerIsTheCheckpointsOwn()
    {
        // DeepSeek-V3's config.json: num_nextn_predict_layers 1. vLLM's deepseek_mtp adds one MLA
        // layer to the pool: 61 -> 62 layers x (512 + 64) x 2 B = 70,272 -> 71,424 B a token.
        Scenario s = scenario(QStringLiteral("deepseek-v3"), QStringLiteral("h200"));
        s.tensorParallelSize = 8;
        const MemoryPlan without = planMemory(s);
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "deepseek_mtp", "num_speculative_tokens": 1})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        QCOMPARE(s.speculative.method, SpeculativeMethod::Mtp);
        const MemoryPlan with = planMemory(s);
        QCOMPARE(without.kv.bytesPerToken, std::int64_t(70'272));
        QCOMPARE(with.kv.bytesPerToken, std::int64_t(71'424));
        // Its weights: one MoE decoder layer in the checkpoint's FP8 blocks, plus what
        // DeepSeekMultiTokenPredictorLayer adds in 16 bits: eh_proj 7168 x 14336 whole on every GPU
        // (205,520,896 B) and three norms (3 x 7168 x 2 B). The decoder layer is the target's last
        // layer's share. Its shared_head.head is the target's lm_head since vllm-project/vllm#34385
        // (vLLM 0.16, llm_base_proposer.py _maybe_share_lm_head: "Shared target model lm_head with
        // MTP shared_head.head"); before, it was a head of its own, 129,280 x 7168 / 8 GPUs.
        const std::int64_t ownHead = std::int64_t(129'280) / 8 * 7168 * 2;
        const std::int64_t ehProj = std::int64_t(7168) * 14336 * 2;
        const std::int64_t layer = (without.weights.byComponent[int(Component::Experts)] +
                                    without.weights.byComponent[int(Component::Router)]) /
                                   58; // the 58 MoE layers of 61 (first_k_dense_replace 3) hold the same
        QVERIFY2(with.weights.draftBytes > ehProj + layer,
                 qPrintable(QString::number(with.weights.draftBytes)));
        QVERIFY2(with.weights.draftBytes < ehProj + layer + 64 * 1024 * 1024,
                 qPrintable(QString::number(with.weights.draftBytes)));
        Scenario before = s;
        before.vllmVersion = QStringLiteral("0.15");
        QCOMPARE(planMemory(before).weights.draftBytes, with.weights.draftBytes + ownHead);
        // A model without MTP layers, SGLang and a draft for another model are refused, naming the option.
        s.model = *ModelLibrary::builtin().find(QStringLiteral("llama-3.1-8b"));
        s.tensorParallelSize = 1;
        QVERIFY(test::errorFrom([&] {
                    planMemory(s);
                }).startsWith(QStringLiteral("--speculative-config: Llama-3.1-8B's config declares no")));
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.3-Instruct-70B", )"
                           R"("num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        QCOMPARE(
            test::errorFrom([&] { planMemory(s); }),
            QStringLiteral("--speculative-config: EAGLE-3 draft for Llama-3.3-70B-Instruct reads hidden "
                           "states of width 8192, Llama-3.1-8B's are 4096: it drafts for another model"));
        s.model = *ModelLibrary::builtin().find(QStringLiteral("llama-3.3-70b"));
        s.gpu = resolveGpu(QStringLiteral("h200"));
        QVERIFY(planMemory(s).weights.draftBytes > 0);
        // SGLang's NEXTN drafter takes the target's head as well as its embedding
        // (set_embed_and_head, python/sglang/srt/speculative/eagle_worker.py): its own head,
        // 129,280 / 8 x 7168 x 2 B, is not kept; until it is replaced, it and the embedding are
        // held twice while the draft pool is allocated.
        s = scenario(QStringLiteral("deepseek-v3"), QStringLiteral("h200"));
        s.tensorParallelSize = 8;
        s.speculative =
            parseSpeculativeConfig(QStringLiteral(R"({"method": "mtp", "num_speculative_tokens": 1})"),
                                   QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan vllm = planMemory(s);
        s.engine = Engine::Sglang;
        const MemoryPlan sglang = planMemory(s);
        QCOMPARE(sglang.weights.draftBytes, vllm.weights.draftBytes);
        QCOMPARE(sglang.weights.draftLoadCopyBytes, 2 * ownHead);
        // Its one MLA layer keeps a pool of the target's tokens: (512 + 64) x 2 B a token.
        QCOMPARE(sglang.kv.draftPoolLayers, 1);
        QCOMPARE(sglang.kv.draftPoolBytes, sglang.kv.capacityTokens * 1152);
    }

    void qwen3NextMtpLayerJoinsTheHybridPool()
    {
        // Qwen3-Next-80B-A3B's config names no MTP layers; its checkpoint carries one (mtp.layers.0)
        // and vLLM's Qwen3NextMultiTokenPredictor assumes it (num_nextn_predict_layers, default 1).
        // qwen3_next_mtp.py: one full-attention Qwen3NextDecoderLayer, fc (2 x 2048 -> 2048, a
        // ColumnParallelLinear), pre_fc_norm_hidden, pre_fc_norm_embedding and a final norm; the
        // embedding and lm_head are the target's. Two H200s, BF16, two drafts a step.
        Scenario s = scenario(QStringLiteral("qwen3-next-80b-a3b"), QStringLiteral("h200"));
        s.tensorParallelSize = 2;
        s.maxModelLen = 32'768;
        const MemoryPlan without = planMemory(s);
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "qwen3_next_mtp", "num_speculative_tokens": 2})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan with = planMemory(s);
        // Its weights on each of the two GPUs, by hand (2 B a parameter):
        //   q_proj (queries and gate) 16 x 256 x 2 / 2 x 2048, k and v 1 head x 256 x 2048 each,
        //   o_proj 2048 x 4096 / 2, q_norm and k_norm 256 each;
        //   router 512 x 2048; 512 experts x 3 x (512 / 2) x 2048; shared expert 3 x 256 x 2048;
        //   shared_expert_gate 2048; input and post-attention norms, the final norm and the two
        //   pre-fc norms 5 x 2048; fc 2048 / 2 x 4096.
        const std::int64_t attention = std::int64_t(4096) * 2048 + 2 * 256 * 2048 + 2048 * 2048 + 2 * 256;
        const std::int64_t moe =
            std::int64_t(512) * 2048 + std::int64_t(512) * 3 * 256 * 2048 + 3 * 256 * 2048 + 2048;
        const std::int64_t rest = 5 * 2048 + std::int64_t(1024) * 4096;
        QCOMPARE(with.weights.draftBytes, (attention + moe + rest) * 2);
        QCOMPARE(with.weights.bytesPerGpu, without.weights.bytesPerGpu + with.weights.draftBytes);
        // Its attention layer joins the 12 full-attention layers: 13 x 1 head x 256 x 2 x 2 B a token,
        // and the groups of 12 layer slots become groups of 13 (36 Gated DeltaNet layers in three
        // groups of 13: "Add 3 padding layers, may waste at most 8.33% KV cache memory", as vLLM
        // logged for this model with qwen3_next_mtp in vllm-project/vllm#25760).
        QCOMPARE(without.kv.bytesPerToken, std::int64_t(12'288));
        QCOMPARE(with.kv.bytesPerToken, std::int64_t(13'312));
        QCOMPARE(without.kv.groupSize, 12);
        QCOMPARE(with.kv.groupSize, 13);
        QCOMPARE(with.kv.numGroups, 4);
        QCOMPARE(with.kv.paddingLayers, 3);
        // Each running request holds its state block and one per draft in every recurrent group
        // (MambaSpec.num_speculative_blocks = num_speculative_tokens): 3 groups x 3 state blocks
        // beside its ceil(32,768 / block) attention blocks.
        QCOMPARE(with.kv.blocksPerMaxRequest,
                 (32'768 + with.blockSize - 1) / with.blockSize + std::int64_t(3) * 3);
        QCOMPARE(without.kv.blocksPerMaxRequest, (32'768 + without.blockSize - 1) / without.blockSize + 3);
        // SGLang keeps recurrent state per draft token in buffers kvscope does not size: refused.
        s.engine = Engine::Sglang;
        QVERIFY(test::errorFrom([&] {
                    planMemory(s);
                }).startsWith(QStringLiteral("--speculative-config: SGLang")));
    }

    void sglangDraftAgreesWithSglangsOwnLog()
    {
        // SGLang's speculative-decoding notebook (sgl-project/sgl-project.github.io@7ec3b51,
        // backend/speculative_decoding.ipynb, 2025-04-03) starts Llama-2-7b-chat with its EAGLE draft
        // (lmsys/sglang-EAGLE-llama2-chat-7B) and logs both workers:
        //   "Load weight end. type=LlamaForCausalLMEagle, dtype=torch.float16, ... mem usage=0.93 GB"
        //   "KV Cache is allocated. #tokens: 20480, K size: 5.00 GB, V size: 5.00 GB"   (the target)
        //   "KV Cache is allocated. #tokens: 20480, K size: 0.16 GB, V size: 0.16 GB"   (the draft)
        // Its pool was capped (max_total_tokens=20480) on a shared GPU, so the token count is not
        // a capacity check; the draft's pool and load are. An EAGLE-1 draft is one decoder layer of
        // the target's shape with an fc over the hidden state and the embedding (2 x 4,096 -> 4,096).
        Scenario s = scenario(QStringLiteral("llama-2-7b"));
        s.engine = Engine::Sglang;
        s.dtype = WeightDtype::Float16;
        ModelArch draft = s.model;
        draft.numLayers = 1;
        draft.name = QStringLiteral("sglang-EAGLE-llama2-chat-7B");
        s.speculative.method = SpeculativeMethod::Eagle;
        s.speculative.model = QStringLiteral("lmsys/sglang-EAGLE-llama2-chat-7B");
        s.speculative.numSpeculativeTokens = 3;
        s.speculative.draft = draft;
        const MemoryPlan p = planMemory(s);
        // The draft pool: as many tokens as the target's over one layer of 32 heads x 128 in 2 B,
        // 8,192 B a token each for K and V: 20,480 tokens -> 0.16 GiB of K, as logged.
        QCOMPARE(p.kv.draftPoolBytes, p.kv.capacityTokens * 2 * 8192);
        QCOMPARE(QString::number(20480.0 * 8192 / double(GiB), 'f', 2), QStringLiteral("0.16"));
        // What loading the draft takes, before it shares the target's embedding and head: its layer
        // (4 x 4,096^2 + 3 x 4,096 x 11,008 + 2 norms) and fc (2 x 4,096^2) and final norm, 235,941,888
        // parameters x 2 B, its rotary table (4,096 x 128 x 2 B), and its own embedding and head
        // (2 x 32,000 x 4,096 x 2 B): 997,220,352 B, the 0.93 GB ("GB" = 2^30 B) SGLang logs.
        QCOMPARE(p.weights.draftBytes, std::int64_t(235'941'888) * 2 + 4096 * 128 * 2);
        QCOMPARE(p.weights.draftLoadCopyBytes, std::int64_t(2) * 32000 * 4096 * 2);
        QCOMPARE(formatGiB(p.weights.draftBytes + p.weights.draftLoadCopyBytes), QStringLiteral("0.93 GiB"));
    }

    void sglangDraftsIntoAPoolOfItsOwn()
    {
        // SGLang's EAGLE-3 drafter for Llama-3.1-8B on one H100 (python/sglang/srt/server_args.py,
        // _handle_gpu_memory_settings; model_runner_kv_cache_mixin.py, init_memory; speculative/
        // eagle_worker.py). The default reserve grows by 2,048 MiB for an EAGLE drafter: on the
        // H100's 81,559 MiB (nvidia-smi) 13,440 + 2,048 = 15,488 MiB are kept, and
        // --mem-fraction-static = round((81,559 - 15,488) / 81,559, 3) = 0.810.
        Scenario s = llama8bOnH100();
        s.engine = Engine::Sglang;
        const MemoryPlan bare = planMemory(s);
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", )"
                           R"("num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan drafted = planMemory(s);
        QCOMPARE(drafted.memFractionStaticPpm, std::int64_t(810'000));
        // Launched in SGLang's own flags: a chain of 3 drafts (3 steps, one branch, 4 tokens verified).
        QVERIFY2(launchLine(s).arguments.join(u' ').endsWith(
                     QStringLiteral("--speculative-algorithm EAGLE3 --speculative-draft-model-path "
                                    "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
                                    "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")),
                 qPrintable(launchLine(s).arguments.join(u' ')));
        // The target's pool is sized over its own 32 layers only (profile_max_num_token): the tokens
        // the budget left after the weights holds at 131,072 B a token. The drafter is not in it.
        QCOMPARE(drafted.kv.bytesPerToken, std::int64_t(131'072));
        QCOMPARE(drafted.weights.bytesPerGpu, bare.weights.bytesPerGpu);
        QCOMPARE(drafted.kv.capacityTokens,
                 (drafted.budgetBytes - drafted.weights.bytesPerGpu) / std::int64_t(131'072));
        // The draft worker's pool has as many tokens (draft_runner_cache_size) over its one layer
        // (4,096 B a token); its weights are vLLM's figure for the same draft, 850,159,616 B
        // (tst_planner's EAGLE-3 case); while it loads it holds its own copy of the target's
        // embedding, 128,256 x 4,096 x 2 B = 1,050,673,152 B, until set_embed replaces it.
        QCOMPARE(drafted.kv.draftPoolBytes, drafted.kv.capacityTokens * 4096);
        QCOMPARE(drafted.weights.draftBytes, std::int64_t(850'159'616));
        QCOMPARE(drafted.weights.draftLoadCopyBytes, std::int64_t(1'050'673'152));
        // All of it comes out of what the static share leaves: GPU - before the weights - budget.
        QCOMPARE(drafted.reserveLeftBytes, drafted.gpuMemoryBytes - drafted.preloadBytes -
                                               drafted.budgetBytes - drafted.weights.draftBytes -
                                               drafted.kv.draftPoolBytes);
        QVERIFY(drafted.engineStarts);
        // A request over-allocates max(steps x topk, draft tokens) = 4 slots (ALLOC_LEN_PER_DECODE).
        QCOMPARE(drafted.kv.speculativeSlots, std::int64_t(4));
        // The plan says which releases' drafter budget these are (sgl-project/sglang#23862 changed it).
        QVERIFY(drafted.notes.join(u' ').contains(QStringLiteral("releases of early 2026")));
        // Squeeze the reserve: a static share of 0.99 leaves too little for the drafter to load.
        s.memFractionStaticPpm = 990'000;
        const MemoryPlan squeezed = planMemory(s);
        QVERIFY(!squeezed.engineStarts);
        QVERIFY2(squeezed.engineRefusal.startsWith(QStringLiteral("SGLang would run out of memory loading "
                                                                  "the drafter")),
                 qPrintable(squeezed.engineRefusal));
        // SGLang resets --max-running-requests to 48 for speculative decoding unless it is given
        // (_handle_eagle_family, python/sglang/srt/arg_groups/speculative_hook.py); without a drafter
        // its default follows the pool (at least 2,048).
        QCOMPARE(drafted.maxNumSeqs, std::int64_t(48));
        QVERIFY(bare.maxNumSeqs >= 2048);
        QVERIFY(drafted.notes.join(u' ').contains(QStringLiteral("--max-running-requests to 48")));
        s.maxNumSeqs = 64;
        QCOMPARE(planMemory(s).maxNumSeqs, std::int64_t(64));
        s.maxNumSeqs = 0;
        // n-gram drafting (NGRAM) proposes from the prompt and the output on the CPU (NgramCorpus,
        // python/sglang/srt/speculative/ngram_worker.py): no drafter, no pool of its own, the same static
        // share; each request verifies k + 1 tokens a step and holds as many slots; still 48 requests.
        s.memFractionStaticPpm = 0;
        s.speculative =
            parseSpeculativeConfig(QStringLiteral(R"({"method": "ngram", "num_speculative_tokens": 3})"),
                                   QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan ngram = planMemory(s);
        QCOMPARE(ngram.weights.draftBytes, std::int64_t(0));
        QCOMPARE(ngram.kv.draftPoolBytes, std::int64_t(0));
        QCOMPARE(ngram.memFractionStaticPpm, bare.memFractionStaticPpm);
        QCOMPARE(ngram.kv.capacityTokens, bare.kv.capacityTokens);
        QCOMPARE(ngram.kv.speculativeSlots, std::int64_t(4));
        QCOMPARE(ngram.maxNumSeqs, std::int64_t(48));
        QVERIFY2(launchLine(s).arguments.join(u' ').endsWith(
                     QStringLiteral("--speculative-algorithm NGRAM --speculative-num-draft-tokens 4")),
                 qPrintable(launchLine(s).arguments.join(u' ')));
        // SGLang refuses it with data-parallel attention ("Currently ngram speculative decoding does not
        // support dp attention.").
        Scenario dp = scenario(QStringLiteral("qwen3-30b-a3b"), QStringLiteral("h100"));
        dp.engine = Engine::Sglang;
        dp.tensorParallelSize = 2;
        dp.dataParallelSize = 2;
        dp.enableDpAttention = true;
        dp.speculative = s.speculative;
        QVERIFY2(test::errorFrom([&] {
                     planMemory(dp);
                 }).contains(QStringLiteral("does not support dp attention")),
                 qPrintable(test::errorFrom([&] { planMemory(dp); })));
    }

    void sglangEagleDrafterBesideTheWindowPool()
    {
        // gpt-oss with an EAGLE-3 drafter under SGLang (the cookbook's launch: --speculative-algorithm EAGLE3
        // --speculative-draft-model-path lmsys/EAGLE3-gpt-oss-120b-bf16). Before June 2026 the target sizes
        // its full and window pools first (HybridSWAPoolConfigurator; set_num_tokens_hybrid_swa returns the
        // full pool's tokens), and the draft worker, a full-attention Llama layer that SGLang does not list
        // as hybrid (is_hybrid_swa_model), takes a plain pool of that many tokens over its own layer
        // (ModelRunnerKVCacheMixin.init_memory_pool: "draft worker override must happen BEFORE SWA
        // splitting"). The draft here has gpt-oss's attention shape, as SpecForge's configs/gpt-oss-20B-
        // eagle3.json (sgl-project/SpecForge) gives it: 64 heads, 8 KV heads of 64, one layer.
        Scenario s = scenario(QStringLiteral("gpt-oss-120b"));
        s.engine = Engine::Sglang;
        s.memFractionStaticPpm = 850'000; // the same share with and without the drafter
        const MemoryPlan bare = planMemory(s);
        const QJsonObject draftConfig{
            {QStringLiteral("architectures"), QJsonArray{QStringLiteral("LlamaForCausalLMEagle3")}},
            {QStringLiteral("model_type"), QStringLiteral("llama")},
            {QStringLiteral("hidden_size"), 2880},
            {QStringLiteral("intermediate_size"), 17280},
            {QStringLiteral("num_attention_heads"), 64},
            {QStringLiteral("num_key_value_heads"), 8},
            {QStringLiteral("head_dim"), 64},
            {QStringLiteral("num_hidden_layers"), 1},
            {QStringLiteral("vocab_size"), 201088},
            {QStringLiteral("draft_vocab_size"), 32000},
            {QStringLiteral("max_position_embeddings"), 131072},
            {QStringLiteral("rms_norm_eps"), 1e-5},
            {QStringLiteral("tie_word_embeddings"), false},
            {QStringLiteral("torch_dtype"), QStringLiteral("bfloat16")}};
        s.speculative.method = SpeculativeMethod::Eagle3;
        s.speculative.model = QStringLiteral("lmsys/EAGLE3-gpt-oss-120b-bf16");
        s.speculative.numSpeculativeTokens = 3;
        s.speculative.draft = parseHfConfig(draftConfig, QStringLiteral("eagle3-gpt-oss"));
        const MemoryPlan drafted = planMemory(s);
        // The target's pools are as without the drafter; the draft pool holds the full pool's tokens over
        // one layer of 8 KV heads x 64 x 2 (K, V) x 2 B = 2,048 B a token.
        QCOMPARE(drafted.kv.capacityTokens, bare.kv.capacityTokens);
        QCOMPARE(drafted.kv.swaPoolTokens, bare.kv.swaPoolTokens);
        QCOMPARE(drafted.kv.draftPoolLayers, 1);
        QCOMPARE(drafted.kv.draftPoolBytes, drafted.kv.capacityTokens * 2048);
        QVERIFY(drafted.reserveLeftBytes < bare.reserveLeftBytes);
        // A draft model with window layers of its own (gpt-oss-20b for gpt-oss-120b) is not planned.
        Scenario hybridDraft = s;
        hybridDraft.speculative.method = SpeculativeMethod::DraftModel;
        hybridDraft.speculative.draft = test::preset(QStringLiteral("gpt-oss-20b"));
        QVERIFY(test::errorFrom([&] { planMemory(hybridDraft); }).contains(QStringLiteral("gpt-oss-20b")));
    }

    void draftModelIsAWholeModelInThePool()
    {
        // vLLM's draft_model (DraftModelProposer, vllm/v1/spec_decode/draft_model.py, the pairing of
        // vllm-project/vllm#24322): Qwen3-0.6B drafts for Qwen3-32B. Both have 8 KV heads of 128, so
        // the draft's 28 layers join the 64 in one pool: 92 x 2 x 8 x 128 x 2 B = 376,832 B a token
        // (from 64 x 4,096 = 262,144). Its weights are the whole model, embedding included (nothing
        // shared): from Qwen3-0.6B's config.json, per layer q 1024 x 2048, k and v 1024 x 1024 each,
        // o 2048 x 1024, gate/up/down 3 x 1024 x 3072, q/k norms 2 x 128, two norms 2 x 1024
        // = 15,730,944; x 28 = 440,466,432; the embedding 151,936 x 1024 = 155,582,464 (tied: it is
        // the head too) and the final norm 1,024: 596,049,920 parameters x 2 B = 1,192,099,840 B. Its
        // rotary table is the target's (same head size, 40,960 positions, rope_theta 1e6): shared.
        Scenario s = scenario(QStringLiteral("qwen3-32b"), QStringLiteral("h100"));
        const MemoryPlan without = planMemory(s);
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(
                R"({"method": "draft_model", "model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan with = planMemory(s);
        QCOMPARE(without.kv.bytesPerToken, std::int64_t(262'144));
        QCOMPARE(with.kv.bytesPerToken, std::int64_t(376'832));
        QCOMPARE(with.kv.draftLayers, 28);
        QCOMPARE(with.weights.draftBytes, std::int64_t(1'192'099'840));
        // Like EAGLE, a running request holds k drafts and k written ahead (uses_draft_model(),
        // vllm/v1/core/sched/scheduler.py).
        QCOMPARE(with.kv.speculativeSlots, std::int64_t(6));

        // Llama-3.2-3B for Llama-3.3-70B on four GPUs: 8 KV heads of 128 each, 2 a GPU, 28 draft layers
        // join 80 (108 x 2 x 2 x 128 x 2 B = 110,592 B a token). From Llama-3.2-3B's config.json, a GPU's
        // quarter of each layer: (q 3072 x 3072 + k, v 2 x 3072 x 1024 + o 3072 x 3072 + gate/up/down
        // 3 x 3072 x 8192) / 4 = 25,165,824, plus two norms 6,144 (whole): x 28 = 704,815,104; the tied
        // embedding's quarter 128,256 / 4 x 3072 = 98,500,608 and the final norm 3,072: 803,318,784
        // parameters x 2 B = 1,606,637,568 B. Its rotary table is its own (rope_scaling factor 32
        // against the target's 8): 131,072 positions x 128 x 2 B = 33,554,432 B. 1,640,192,000 B.
        s = scenario(QStringLiteral("llama-3.3-70b"), QStringLiteral("h100"));
        s.tensorParallelSize = 4;
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(R"({"method": "draft_model", "model": "meta-llama/Llama-3.2-3B-Instruct", )"
                           R"("num_speculative_tokens": 4})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan llama = planMemory(s);
        QCOMPARE(llama.kv.bytesPerToken, std::int64_t(110'592));
        QCOMPARE(llama.weights.draftBytes, std::int64_t(1'640'192'000));

        // Another vocabulary, or KV pages of another shape (Llama-3.2-1B: 8 heads of 64), are refused.
        s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100"));
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(
                R"({"method": "draft_model", "model": "meta-llama/Llama-3.2-1B", "num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        QVERIFY(test::errorFrom([&] { planMemory(s); })
                    .startsWith(
                        QStringLiteral("--speculative-config: Llama-3.2-1B's attention (8 KV heads of 64)")));
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen3-8b"));
        QVERIFY(test::errorFrom([&] {
                    planMemory(s);
                }).contains(QStringLiteral("vocabulary (128256) is not Qwen3-8B's (151936)")));
        // The window's drafter list offers the presets small enough to draft, smallest first.
        const QList<SpeculativeConfig> choices =
            speculativeChoices(scenario(QStringLiteral("qwen3-32b"), QStringLiteral("h100")), 3);
        QVERIFY(!choices.isEmpty());
        QCOMPARE(choices.first().method, SpeculativeMethod::DraftModel);
        QCOMPARE(choices.first().model, QStringLiteral("Qwen/Qwen3-0.6B"));
    }

    void speculativeConfigIsReadAsVllmReadsIt()
    {
        const auto error = [](const char *json) {
            return test::errorFrom([&] {
                parseSpeculativeConfig(QString::fromUtf8(json), QStringLiteral("--speculative-config"),
                                       resolveDraftModel);
            });
        };
        QCOMPARE(error("{\"method\": \"medusa\", \"num_speculative_tokens\": 3}"),
                 QStringLiteral("--speculative-config: \"method\" must be eagle, eagle3, mtp, ngram, "
                                "draft_model, got \"medusa\""));
        QCOMPARE(
            error("{\"method\": \"ngram\", \"num_speculative_tokens\": 0}"),
            QStringLiteral("--speculative-config: \"num_speculative_tokens\" must be a whole number from 1 "
                           "to 32, got 0"));
        QCOMPARE(
            error("{\"method\": \"eagle3\", \"num_speculative_tokens\": 2}"),
            QStringLiteral("--speculative-config: method eagle3 needs \"model\": the draft's repo id or the "
                           "path of its config.json"));
        QCOMPARE(
            error("{\"method\": \"draft_model\", \"num_speculative_tokens\": 2}"),
            QStringLiteral("--speculative-config: method draft_model needs \"model\": the draft's repo id "
                           "or the path of its config.json"));
        QVERIFY(error("{\"method\": \"eagle3\", \"model\": \"nobody/none\", \"num_speculative_tokens\": 2}")
                    .startsWith(QStringLiteral("--speculative-config: unknown draft model 'nobody/none'")));
        QVERIFY(error("{\"method\": \"ngram\", \"num_speculative_tokens\": 2, \"typo\": 1}")
                    .startsWith(QStringLiteral("--speculative-config: key 'typo' is not one kvscope plans")));
        QVERIFY(error("[1]").startsWith(QStringLiteral("--speculative-config: not a JSON object")));
        // Spelled back as vLLM takes it, and read back to the same.
        const SpeculativeConfig config = parseSpeculativeConfig(
            QStringLiteral(
                R"({"num_speculative_tokens": 3, "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "method": "eagle3"})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        QCOMPARE(speculativeConfigText(config),
                 QStringLiteral(R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", )"
                                R"("num_speculative_tokens": 3})"));
        QCOMPARE(parseSpeculativeConfig(speculativeConfigText(config), QStringLiteral("--speculative-config"),
                                        resolveDraftModel),
                 config);
        QVERIFY(!parseSpeculativeConfig(QStringLiteral("none"), QString(), resolveDraftModel).enabled());
    }

    void offloadingKeepsWholeBlocksInCpuMemory()
    {
        // --kv-offloading-size 64 (GiB, summed over the TP ranks: CacheConfig.kv_offloading_size,
        // vllm/config/cache.py) for Llama-3.1-8B: 64 GiB / (16 tokens x 131,072 B) = 32,768 blocks,
        // 524,288 tokens; at TP 2 each rank keeps 32 GiB of 65,536-byte tokens, the same tokens.
        Scenario s = llama8bOnH100();
        const MemoryPlan without = planMemory(s);
        s.kvOffloadingMilliGiB =
            parseOffloadingSize(QStringLiteral("64"), QStringLiteral("--kv-offloading-size"));
        MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.kv.cpuBlocks, std::int64_t(32'768));
        QCOMPARE(plan.kv.cpuCapacityTokens, std::int64_t(524'288));
        // Capacity for reuse, not for live sequences: the GPU's pool is unchanged.
        QCOMPARE(plan.kv.capacityTokens, without.kv.capacityTokens);
        QCOMPARE(plan.kv.maxConcurrency, without.kv.maxConcurrency);
        s.tensorParallelSize = 2;
        plan = planMemory(s);
        QCOMPARE(plan.kv.cpuOffloadBytesPerGpu, 32 * GiB);
        QCOMPARE(plan.kv.cpuCapacityTokens, std::int64_t(524'288));
        // Thousandths of a GiB, parsed exactly; junk, finer steps and more than a pebibyte refused.
        QCOMPARE(parseOffloadingSize(QStringLiteral("0.5"), {}), std::int64_t(500));
        for (const char *bad : {"-1", "abc", "0.0001", "2000000"})
            QVERIFY2(!test::errorFrom([&] {
                          parseOffloadingSize(QLatin1String(bad), QStringLiteral("--x"));
                      }).isEmpty(),
                     bad);
        s.engine = Engine::Sglang;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).startsWith(QStringLiteral("--kv-offloading-size")));
        // Latent attention's cache through the native backend failed an assertion at start until
        // vllm-project/vllm#37536 (merged 2026-03-19: CpuGpuOffloadingHandlers probed the backend's cache
        // shape with 8 KV heads, where MLA has one); 0.19.0 is the first release sure to hold it. Before it
        // refused, naming both options; LMCache's connector and later releases are planned.
        s.engine = Engine::Vllm;
        s.tensorParallelSize = 1;
        s.model = *ModelLibrary::builtin().find(QStringLiteral("deepseek-v2-lite"));
        s.vllmVersion = QStringLiteral("0.18.1");
        const QString refused = test::errorFrom([&] { planMemory(s); });
        QVERIFY2(refused.startsWith(QStringLiteral("--kv-offloading-size")) &&
                     refused.contains(QStringLiteral("--vllm-version 0.18.1")),
                 qPrintable(refused));
        s.kvOffloadingBackend = KvOffloadingBackend::Lmcache;
        QVERIFY(planMemory(s).kv.cpuCapacityTokens > 0);
        s.kvOffloadingBackend = KvOffloadingBackend::Native;
        s.vllmVersion = QStringLiteral("0.19");
        QVERIFY(planMemory(s).kv.cpuCapacityTokens > 0);
    }

    void aSharedPrefixIsHeldOnce()
    {
        // Llama-3.1-8B on one H100 at --max-model-len 8,192 (vLLM 0.21, its default 0.92 of the GPU):
        // 28,096 blocks of 16 tokens, 512 a request. A shared 4,096-token prefix is 256 full blocks
        // held once (vLLM hashes full blocks only): (28,096 - 256) / (512 - 256) = 108.75 requests,
        // where 28,096 / 512 = 54.88 without.
        Scenario s = llama8bOnH100();
        s.maxModelLen = 8192;
        const MemoryPlan alone = planMemory(s);
        QCOMPARE(alone.kv.numGpuBlocks, std::int64_t(28'096));
        s.sharedPrefixLen = 4096;
        const MemoryPlan shared = planMemory(s);
        QCOMPARE(shared.kv.numGpuBlocks, alone.kv.numGpuBlocks);
        QCOMPARE(shared.kv.maxConcurrency, (28'096.0 - 256) / (512 - 256));
        // The batch of 16 x 8,192 holds 256 shared + 16 x 256 own blocks of 2 MiB: 8.5 GiB.
        QCOMPARE(shared.kv.sharedPrefixBlocks, std::int64_t(256));
        QCOMPARE(shared.kv.cacheBytes, std::int64_t(256 + 16 * 256) * 2 * MiB);
        QCOMPARE(shared.largestBatchThatFits, (shared.kv.availableBytes / (2 * MiB) - 256) / 256);
        // A partial block is each request's own: a 4,100-token prefix shares the same 256 blocks.
        s.sharedPrefixLen = 4100;
        QCOMPARE(planMemory(s).kv.sharedPrefixBlocks, std::int64_t(256));
        // A prefix as long as the sequence, or a model with sliding-window groups, is refused.
        s.sharedPrefixLen = s.seqLen;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).startsWith(QStringLiteral("--shared-prefix-len")));
        s.sharedPrefixLen = 1024;
        s.model = *ModelLibrary::builtin().find(QStringLiteral("gemma-3-27b"));
        s.maxModelLen = 0;
        QVERIFY(test::errorFrom([&] { planMemory(s); }).startsWith(QStringLiteral("--shared-prefix-len")));
    }

    void aFixedKvBudgetIsTakenAsGiven()
    {
        // --kv-cache-memory-bytes 10 GiB for Llama-3.1-8B: vLLM's GPUWorker.determine_available_memory
        // returns the value unprofiled; 10 GiB / (32 layers x 8 heads x 128 x 2 x 2 B = 131,072 B)
        // = 81,920 tokens, 5,120 blocks of 16.
        Scenario s = llama8bOnH100();
        s.maxModelLen = 8192;
        const MemoryPlan profiled = planMemory(s);
        s.kvCacheMemoryBytes = 10 * GiB;
        const MemoryPlan fixed = planMemory(s);
        QCOMPARE(fixed.kv.availableBytes, 10 * GiB);
        QCOMPARE(fixed.kv.numGpuBlocks, std::int64_t(5'120));
        QCOMPARE(fixed.kv.capacityTokens, std::int64_t(81'920));
        // What profiling would have left, and what the GPU's whole memory leaves.
        QCOMPARE(fixed.profiledKvBytes, profiled.kv.availableBytes);
        const std::int64_t beforeCache = profiled.budgetBytes - profiled.kv.availableBytes;
        QCOMPARE(fixed.wholeGpuKvBytes, fixed.gpuMemoryBytes - beforeCache);
        QCOMPARE(fixed.budgetBytes, beforeCache + 10 * GiB);
        QVERIFY(fixed.engineStarts);
        // More than the GPU holds beside the weights: vLLM would run out of memory allocating it.
        s.kvCacheMemoryBytes = 70 * GiB;
        const MemoryPlan tooMuch = planMemory(s);
        QVERIFY(!tooMuch.engineStarts);
        QVERIFY2(tooMuch.startFailure.startsWith(QStringLiteral("--kv-cache-memory-bytes 70.00 GiB")),
                 qPrintable(tooMuch.startFailure));
        // A vLLM option: SGLang sizes its pool from --mem-fraction-static.
        s.engine = Engine::Sglang;
        s.kvCacheMemoryBytes = GiB;
        QVERIFY_THROWS_EXCEPTION(Error, planMemory(s));
    }

    void budgetIsExactUtilizationOfReportedMemory()
    {
        // H100 SXM: CUDA reports 81,090 MiB (vLLM logs "total_memory=79.19GiB"); the default release
        // (vLLM 0.21) takes 0.92 of it without --gpu-memory-utilization (vllm-project/vllm#38284).
        const MemoryPlan plan = planMemory(scenario(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(plan.gpuMemoryBytes, 81'090LL * MiB);
        QCOMPARE(plan.budgetBytes, 81'090LL * MiB * 92 / 100);
        // The default release (vLLM 0.21 on) also takes its CUDA-graph estimate out of the budget.
        QVERIFY(plan.cudaGraphBytes > 0);
        QCOMPARE(plan.headroomBytes, plan.budgetBytes - plan.weights.bytesPerGpu - plan.activationBytes -
                                         plan.overheadBytes - plan.cudaGraphBytes - plan.kv.cacheBytes);
        QVERIFY(plan.fits);
        // Default explorer scenario: batch 16 x 8192 tokens of 128 KiB = 16 GiB exactly.
        QCOMPARE(plan.kv.cacheBytes, 16LL * GiB);
    }

    void budgetOfACustomGpuUpToOnePebibyte()
    {
        // The budget is memory x utilization, floored, for every memory size a custom GPU
        // may have (1 B to 1 PiB): 2^50 x 0.92 (the default) = 1,035,827,914,295,214.08 and
        // 10,000 GiB x 0.95 = 10,200,547,328,000 exactly.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.gpu = parseCustomGpuOption(QStringLiteral("custom:1048576"));
        QCOMPARE(planMemory(s).budgetBytes, 1'035'827'914'295'214LL);
        s.gpu = parseCustomGpuOption(QStringLiteral("custom:10000"));
        s.gpuMemoryUtilizationPpm = 950'000;
        QCOMPARE(planMemory(s).budgetBytes, 10'200'547'328'000LL);
        s.gpu = parseCustomGpuOption(QStringLiteral("custom:0.000001"));
        s.gpuMemoryUtilizationPpm = 1'000'000;
        QCOMPARE(planMemory(s).budgetBytes, 1073LL); // 10^-6 GiB = 1,073.741824 B, floored
    }

    void utilizationParsing_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ppm");
        QTest::newRow("0.9") << "0.9" << 900'000LL;
        QTest::newRow("0.95") << "0.95" << 950'000LL;
        QTest::newRow("1") << "1" << 1'000'000LL;
        QTest::newRow("0.123456789 truncates") << "0.123456789" << 123'456LL;
        QTest::newRow(".5 is not accepted") << ".5" << -1LL;
        QTest::newRow("0 is out of range") << "0" << -1LL;
        QTest::newRow("1.01 is out of range") << "1.01" << -1LL;
        QTest::newRow("-0.5") << "-0.5" << -1LL;
        QTest::newRow("text") << "most" << -1LL;
    }

    void utilizationParsing()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ppm);
        if (ppm < 0) {
            QVERIFY_THROWS_EXCEPTION(Error, parseUtilization(text));
            return;
        }
        QCOMPARE(parseUtilization(text), ppm);
        QCOMPARE(parseUtilization(formatUtilization(ppm)), ppm);
    }

    // --request-rate: requests a second in exact thousandths; 0 or auto is a closed loop.
    void requestRateParsesToThousandths_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("milli"); // -1: refused
        QTest::newRow("whole") << QStringLiteral("2") << qint64(2000);
        QTest::newRow("half") << QStringLiteral("2.5") << qint64(2500);
        QTest::newRow("thousandth") << QStringLiteral("0.001") << qint64(1);
        QTest::newRow("trailing zeros") << QStringLiteral("1.2500") << qint64(1250);
        QTest::newRow("zero") << QStringLiteral("0") << qint64(0);
        QTest::newRow("auto") << QStringLiteral("Auto") << qint64(0);
        QTest::newRow("a million") << QStringLiteral("1000000") << qint64(1'000'000'000);
        QTest::newRow("above a million") << QStringLiteral("1000000.001") << qint64(-1);
        QTest::newRow("finer than a thousandth") << QStringLiteral("0.0005") << qint64(-1);
        QTest::newRow("negative") << QStringLiteral("-1") << qint64(-1);
        QTest::newRow("words") << QStringLiteral("fast") << qint64(-1);
        QTest::newRow("huge") << QStringLiteral("99999999999999999999") << qint64(-1);
    }

    void requestRateParsesToThousandths()
    {
        QFETCH(QString, text);
        QFETCH(qint64, milli);
        const QString flag = optionFlag(ScenarioField::RequestRate);
        if (milli < 0) {
            try {
                parseRequestRate(text, flag);
                QFAIL("accepted");
            } catch (const Error &error) {
                QVERIFY2(error.message().startsWith(flag + QStringLiteral(": ")) &&
                             error.message().contains(text),
                         qPrintable(error.message()));
            }
            return;
        }
        QCOMPARE(parseRequestRate(text, flag), milli);
        QCOMPARE(parseRequestRate(formatRequestRate(milli), flag), milli);
    }

    void capacityIsBlocksTimesBlockSize()
    {
        const MemoryPlan plan = planMemory(scenario(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(plan.kv.capacityTokens, plan.kv.numGpuBlocks * 16);
        QCOMPARE(plan.kv.numGpuBlocks, plan.kv.availableBytes / (16 * 4096 * 32));
        QCOMPARE(plan.kv.blocksPerMaxRequest, 131'072LL / 16);
    }

    void fp8KvDoublesCapacityNotWeights()
    {
        // --kv-cache-dtype fp8 halves KV bytes per token;
        // weight quantization leaves them alone and frees memory instead.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        const MemoryPlan bf16 = planMemory(s);
        s.kvCacheDtype = KvCacheDtype::Fp8;
        const MemoryPlan fp8 = planMemory(s);
        QCOMPARE(fp8.kvCacheDtype, KvCacheDtype::Fp8E4M3);
        QCOMPARE(fp8.kv.bytesPerToken * 2, bf16.kv.bytesPerToken);
        QCOMPARE(fp8.kv.cacheBytes * 2, bf16.kv.cacheBytes);
        QCOMPARE(fp8.weights.bytesPerGpu, bf16.weights.bytesPerGpu);
        QCOMPARE(fp8.kv.numGpuBlocks, bf16.kv.numGpuBlocks * 2 + (fp8.kv.numGpuBlocks % 2));

        s.kvCacheDtype = KvCacheDtype::Auto;
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        const MemoryPlan awq = planMemory(s);
        QCOMPARE(awq.dtype, WeightDtype::Float16); // vLLM's auto for AWQ
        QCOMPARE(awq.kv.bytesPerToken, bf16.kv.bytesPerToken);
        QVERIFY(awq.kv.capacityTokens > bf16.kv.capacityTokens);
    }

    void awqZeroPointsOnMacheteAreSixteenBit()
    {
        // From vLLM 0.18 AWQ's linear layers on Hopper run Machete (vllm-project/vllm#36505; a 0.18.0
        // build logs "Using MacheteLinearKernel for AWQMarlinLinearMethod"), which keeps each group's
        // zero point pre-scaled in the activation dtype (transform_w_zp in
        // vllm/model_executor/kernels/linear/mixed_precision/machete.py): 2 B a group where the
        // checkpoint packs 4 bits. Llama-3.1-70B in groups of 128 along the input, per layer:
        // q and o 8,192 x 8,192, k and v 1,024 x 8,192, gate and up 28,672 x 8,192, down 8,192 x 28,672.
        const std::int64_t groupsPerLayer = 2 * 8192 * 64 + 2 * 1024 * 64 + 3 * 28672 * 64;
        const std::int64_t unpackedExtra = 80 * groupsPerLayer * 3 / 2; // 2 B - 0.5 B a group
        QCOMPARE(unpackedExtra, std::int64_t(802160640));
        Scenario s = scenario(QStringLiteral("llama-3.1-70b"), QStringLiteral("h200"));
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        s.vllmVersion = QStringLiteral("0.17");
        const MemoryPlan marlin = planMemory(s);
        s.vllmVersion = QStringLiteral("0.18");
        const MemoryPlan machete = planMemory(s);
        QCOMPARE(machete.weights.bytesPerGpu - marlin.weights.bytesPerGpu, unpackedExtra);
        // Marlin on an A100 keeps the checkpoint's packed zero points; GPTQ's symmetric groups on
        // Machete have none to unpack.
        s.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        const MemoryPlan ampere = planMemory(s);
        s.vllmVersion = QStringLiteral("0.17");
        QCOMPARE(ampere.weights.bytesPerGpu, planMemory(s).weights.bytesPerGpu);
        s.gpu = resolveGpu(QStringLiteral("h200"));
        s.quantization = defaultSpecFor(QuantMethod::Gptq);
        const MemoryPlan gptqBefore = planMemory(s);
        s.vllmVersion = QStringLiteral("0.18");
        QCOMPARE(planMemory(s).weights.bytesPerGpu, gptqBefore.weights.bytesPerGpu);
    }

    void checkpointQuantizationIsTheDefault()
    {
        const MemoryPlan plan = planMemory(scenario(QStringLiteral("gpt-oss-120b")));
        QCOMPARE(plan.quantization.method, QuantMethod::Mxfp4);
        QVERIFY(plan.quantizationFromCheckpoint);
        QCOMPARE(plan.dtype, WeightDtype::BFloat16); // no torch_dtype: vLLM uses bfloat16
        Scenario none = scenario(QStringLiteral("gpt-oss-120b"));
        none.quantization = QuantizationSpec{};
        QCOMPARE(planMemory(none).quantization.method, QuantMethod::None);
    }

    void largestFittingBatchAndSequence()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-70b"));
        s.tensorParallelSize = 4;
        s.batchSize = 64;
        s.seqLen = 32768;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(!plan.fits);
        QVERIFY(plan.largestBatchThatFits > 0 && plan.largestBatchThatFits < 64);

        s.batchSize = plan.largestBatchThatFits;
        QVERIFY(planMemory(s).fits);
        s.batchSize += 1;
        QVERIFY(!planMemory(s).fits);

        s.batchSize = 64;
        s.seqLen = plan.largestSeqLenThatFits;
        QVERIFY(planMemory(s).fits);
        s.seqLen += 16; // one more block per sequence
        QVERIFY(!planMemory(s).fits);
    }

    void slidingOnlyModelHasNoSequenceLimit()
    {
        Scenario s = scenario(QStringLiteral("mistral-7b-v0.1"));
        s.batchSize = 8;
        QCOMPARE(planMemory(s).largestSeqLenThatFits, -1LL);
    }

    void engineRefusesWhenOneRequestDoesNotFit()
    {
        // gpt-oss-120b with 131072-token requests on a GPU that leaves ~2 GiB
        // for the KV cache (tests/data/vllm-logs.json id 20 shows the same failure on an H100);
        // 74 GiB: on Hopper its weights hold the MXFP4 scales twice (3.5 GiB more than 70 GiB left).
        Scenario s = scenario(QStringLiteral("gpt-oss-120b"));
        s.gpuMemoryUtilizationPpm = 950'000;
        s.maxModelLen = 131'072;
        s.gpu.memoryBytes = 74 * GiB;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.kv.numGpuBlocks > 0);
        QVERIFY(!plan.engineStarts);
        QVERIFY(plan.kv.maxModelLenThatFits > 0 && plan.kv.maxModelLenThatFits < 131'072);
        // The suggested length is the longest whose blocks fit.
        s.maxModelLen = plan.kv.maxModelLenThatFits;
        QVERIFY(planMemory(s).engineStarts);
        s.maxModelLen += 16;
        QVERIFY(!planMemory(s).engineStarts);
        QVERIFY(!plan.notes.filter(QStringLiteral("refuse to start")).isEmpty());
    }

    void absurdInputsGiveAClearError()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        s.batchSize = 1'000'000'000;
        s.seqLen = 1'000'000'000'000;
        expectError(s, QStringLiteral("--batch-size 1000000000"));
        // Large but representable: an exact figure, not an error.
        s.batchSize = 1'000'000;
        s.seqLen = 10'000'000;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.kv.cacheBytes, 1'000'000LL * (10'000'000 / 16) * 16 * 131'072);
        QVERIFY(!plan.fits);
    }

    void invalidInputs_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("batch 0") << "batch" << 0LL << "--batch-size: must be a positive integer, got 0";
        QTest::newRow("seq -5") << "seq" << -5LL << "--seq-len: must be a positive integer, got -5";
        QTest::newRow("block 0") << "block" << 0LL << "--block-size";
        QTest::newRow("tp 3") << "tp" << 3LL
                              << "--tensor-parallel-size: 3 does not divide num_attention_heads 32";
        QTest::newRow("tp 0") << "tp" << 0LL << "--tensor-parallel-size";
        QTest::newRow("max-model-len too long")
            << "mml" << 200'000LL << "exceeds Llama-3.1-8B's max_position_embeddings 131072";
        QTest::newRow("utilization -1") << "util" << -1LL << "--gpu-memory-utilization"; // 0: the default
        // Values beyond int are validated as given, never narrowed first (2^32 + 2 would become 2).
        QTest::newRow("block 2^31") << "block" << 2'147'483'648LL
                                    << "--block-size: 2147483648 is larger than any vLLM block size";
        QTest::newRow("tp 2^32 + 2") << "tp" << 4'294'967'298LL
                                     << "--tensor-parallel-size: 4294967298 does not divide";
        QTest::newRow("max-num-seqs overflow")
            << "seqs" << 999'999'999'999'999'999LL << "--max-num-seqs: 999999999999999999 sequences need";
        QTest::newRow("max-num-batched-tokens overflow")
            << "tokens" << 999'999'999'999'999'999LL
            << "--max-num-batched-tokens: 999999999999999999 tokens need";
    }

    void invalidInputs()
    {
        QFETCH(QString, field);
        QFETCH(qint64, value);
        QFETCH(QString, message);
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"));
        if (field == QLatin1String("batch"))
            s.batchSize = value;
        else if (field == QLatin1String("seq"))
            s.seqLen = value;
        else if (field == QLatin1String("block"))
            s.blockSize = value;
        else if (field == QLatin1String("tp"))
            s.tensorParallelSize = value;
        else if (field == QLatin1String("seqs"))
            s.maxNumSeqs = value;
        else if (field == QLatin1String("tokens"))
            s.maxNumBatchedTokens = value;
        else if (field == QLatin1String("mml"))
            s.maxModelLen = value;
        else if (field == QLatin1String("util"))
            s.gpuMemoryUtilizationPpm = value;
        expectError(s, message);
    }

    void kvHeadsNotDividingTp()
    {
        // Qwen2.5-7B has 4 KV heads and 28 query heads: TP 7 fits neither way.
        Scenario s = scenario(QStringLiteral("qwen2.5-7b"));
        s.tensorParallelSize = 7;
        expectError(s, QStringLiteral("num_key_value_heads 4"));
    }

    void schedulerDefaultsFollowVllm()
    {
        // vllm/engine/arg_utils.py: >= 70 GiB and not A100 -> 1024 / 8192, else 256 / 2048.
        QCOMPARE(planMemory(scenario(QStringLiteral("llama-3.1-8b"))).maxNumSeqs, 1024LL);
        QCOMPARE(planMemory(scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("a100-80gb"))).maxNumSeqs,
                 256LL);
        QCOMPARE(
            planMemory(scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("l40s"))).maxNumBatchedTokens,
            2048LL);
    }
};

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
