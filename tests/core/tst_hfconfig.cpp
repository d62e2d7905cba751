// SPDX-License-Identifier: MIT
// config.json parsing: family spellings and every kind of bad input.
#include "core/common/error.h"
#include "core/model/hfconfig.h"
#include "core/model/inventory.h"
#include "core/plan/kvcache.h"
#include "tests/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

namespace {

const char *llamaLike = R"({
  "model_type": "llama", "architectures": ["LlamaForCausalLM"],
  "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2,
  "intermediate_size": 128, "vocab_size": 1000, "max_position_embeddings": 4096, "torch_dtype": "bfloat16"
})";

// deepseek-ai/DeepSeek-V2-Lite config.json, the fields kvscope reads.
const char *deepseekV2Lite = R"({
  "model_type": "deepseek_v2", "architectures": ["DeepseekV2ForCausalLM"],
  "num_hidden_layers": 27, "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 16,
  "intermediate_size": 10944, "moe_intermediate_size": 1408, "vocab_size": 102400,
  "max_position_embeddings": 163840, "kv_lora_rank": 512, "q_lora_rank": null, "qk_rope_head_dim": 64,
  "qk_nope_head_dim": 128, "v_head_dim": 128, "n_routed_experts": 64, "n_shared_experts": 2,
  "num_experts_per_tok": 6, "first_k_dense_replace": 1, "moe_layer_freq": 1, "torch_dtype": "bfloat16"
})";

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

QJsonObject withField(const char *key, const QJsonValue &value)
{
    QJsonObject o = object(llamaLike);
    if (value.isUndefined())
        o.remove(QLatin1String(key));
    else
        o.insert(QLatin1String(key), value);
    return o;
}

} // namespace

class TestHfConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scaledRotaryTables()
    {
        // vLLM's get_rope (vllm/model_executor/layers/rotary_embedding/__init__.py): a linear or dynamic
        // scaling builds max_position x factor rows, YaRN original_max_position_embeddings x factor, llama3
        // and unscaled ropes max_position rows.
        const auto rows = [](const char *scaling) {
            QJsonObject o = object(llamaLike);
            o.insert(QStringLiteral("rope_scaling"), QJsonDocument::fromJson(scaling).object());
            return parseHfConfig(o, QStringLiteral("config.json")).rotaryTableRows;
        };
        QCOMPARE(rows(R"({"rope_type": "linear", "factor": 8.0})"), std::int64_t(4096 * 8));
        QCOMPARE(rows(R"({"type": "dynamic", "factor": 2.5})"), std::int64_t(10'240));
        QCOMPARE(rows(R"({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024})"),
                 std::int64_t(4096));
        QCOMPARE(rows(R"({"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 1024})"),
                 std::int64_t(4096));
        // Multimodal rope (an mrope_section: Qwen2-VL, Qwen2.5-VL, Qwen3-VL) keeps max_position rows and is
        // marked: vLLM builds its table longer (tst_weights).
        QCOMPARE(rows(R"({"type": "mrope", "mrope_section": [16, 24, 24]})"), std::int64_t(4096));
        QJsonObject mrope = object(llamaLike);
        mrope.insert(
            QStringLiteral("rope_parameters"),
            QJsonDocument::fromJson(R"({"rope_type": "default", "mrope_section": [24, 20, 20]})").object());
        QVERIFY(parseHfConfig(mrope, QStringLiteral("config.json")).multimodalRope);
        QVERIFY(!parseHfConfig(object(llamaLike), QStringLiteral("config.json")).multimodalRope);
        // A factor that would make the table absurd is refused, naming the field and the value.
        QJsonObject huge = object(llamaLike);
        huge.insert(QStringLiteral("rope_scaling"),
                    QJsonDocument::fromJson(R"({"rope_type": "linear", "factor": 1e30})").object());
        KVSCOPE_VERIFY_ERROR(parseHfConfig(huge, QStringLiteral("config.json")),
                             QLatin1String("config.json: "), QLatin1String("rope_scaling.factor"));
        huge.insert(QStringLiteral("rope_scaling"),
                    QJsonDocument::fromJson(R"({"rope_type": "linear", "factor": -2})").object());
        KVSCOPE_VERIFY_ERROR(parseHfConfig(huge, QStringLiteral("config.json")),
                             QLatin1String("config.json: "), QLatin1String("rope_scaling.factor"));
    }

    void minimalLlama()
    {
        const ModelArch m = parseHfConfig(object(llamaLike), QStringLiteral("config.json"));
        QCOMPARE(m.rotaryTableRows, std::int64_t(4096)); // no rope_scaling: max_position_embeddings
        QCOMPARE(m.numLayers, 2);
        QCOMPARE(m.headDim, 16);
        QCOMPARE(m.numKvHeads, 2);
        QCOMPARE(m.checkpointDtype, WeightDtype::BFloat16);
        QVERIFY(!m.estimated);
        // By hand: embed 64000 + lm_head 64000 + 2 x (q 4096 + k 2048 + v 2048 + o 4096
        // + mlp 3 x 8192 + norms 128) + final norm 64.
        QCOMPARE(countParameters(m).total,
                 64'000LL * 2 + 2 * (4096 + 2048 + 2048 + 4096 + 3 * 8192 + 128) + 64);
    }

    void badInput_data()
    {
        QTest::addColumn<QJsonObject>("config");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing layers")
            << withField("num_hidden_layers", QJsonValue::Undefined)
            << "config.json: missing field 'num_hidden_layers' (or 'n_layer', 'num_layers', 'n_layers')";
        QTest::newRow("zero layers") << withField("num_hidden_layers", 0)
                                     << "field 'num_hidden_layers' must be an integer >= 1, got 0";
        QTest::newRow("negative hidden")
            << withField("hidden_size", -64) << "field 'hidden_size' must be an integer >= 1, got -64";
        QTest::newRow("fractional heads") << withField("num_attention_heads", 2.5)
                                          << "field 'num_attention_heads' must be an integer >= 1, got 2.5";
        QTest::newRow("string vocab") << withField("vocab_size", QStringLiteral("big"))
                                      << "field 'vocab_size' must be an integer >= 1, got \"big\"";
        QTest::newRow("heads not dividing hidden")
            << withField("num_attention_heads", 6)
            << "hidden_size' is 64, not divisible by num_attention_heads 6";
        QTest::newRow("kv heads not dividing heads")
            << withField("num_key_value_heads", 3) << "num_key_value_heads' is 3, which does not divide";
        QTest::newRow("unknown dtype")
            << withField("torch_dtype", QStringLiteral("int3")) << "torch_dtype' is 'int3'";
        QTest::newRow("missing intermediate")
            << withField("intermediate_size", QJsonValue::Undefined) << "missing field 'intermediate_size'";
        QJsonObject wrongTypes = object(llamaLike);
        wrongTypes.insert(QStringLiteral("sliding_window"), 128);
        wrongTypes.insert(QStringLiteral("layer_types"), QJsonArray{QStringLiteral("full_attention")});
        QTest::newRow("layer_types length")
            << wrongTypes << "layer_types' has 1 entries but num_hidden_layers is 2";
        QTest::newRow("absurd layer count")
            << withField("num_hidden_layers", 1e12)
            << "field 'num_hidden_layers' must be an integer <= 65536, got 1000000000000";
        QTest::newRow("heads past int") << withField("num_attention_heads", 4294967296.0)
                                        << "field 'num_attention_heads' must be an integer <= 2147483647";
        QTest::newRow("partial rotary above 1")
            << withField("partial_rotary_factor", 7)
            << "field 'partial_rotary_factor' is 7; expected a share in (0, 1]";
        QTest::newRow("kv heads zero") << withField("num_key_value_heads", 0)
                                       << "field 'num_key_value_heads' must be an integer >= 1, got 0";
        QJsonObject unknownQuant = object(llamaLike);
        unknownQuant.insert(QStringLiteral("quantization_config"),
                            QJsonObject{{QStringLiteral("quant_method"), QStringLiteral("exl9")}});
        QTest::newRow("unknown quant method") << unknownQuant << "quant_method' is 'exl9'";

        // Messages name the value as given, and the field the value is wrong in.
        QTest::newRow("zero intermediate") << withField("intermediate_size", 0)
                                           << "field 'intermediate_size' must be an integer >= 1, got 0";
        QJsonObject numberedTypes = object(llamaLike);
        numberedTypes.insert(QStringLiteral("sliding_window"), 128);
        numberedTypes.insert(QStringLiteral("layer_types"), QJsonArray{1, QStringLiteral("full_attention")});
        QTest::newRow("layer_types of numbers")
            << numberedTypes << "field 'layer_types[0]' is 1; expected sliding_attention or full_attention";
        QTest::newRow("dtype a number")
            << withField("torch_dtype", 5) << "field 'torch_dtype' must be a dtype name, got 5";
        QTest::newRow("quantization_config a number")
            << withField("quantization_config", 8) << "field 'quantization_config' must be an object, got 8";
        QTest::newRow("quantization_config a string")
            << withField("quantization_config", QStringLiteral("fp8"))
            << "field 'quantization_config' must be an object, got \"fp8\"";

        // DeepSeek's MoE and MLA fields that contradict the model (DeepSeek-V2-Lite preset).
        const auto deepseek = [](const char *key, const QJsonValue &value) {
            QJsonObject o = object(deepseekV2Lite);
            if (value.isUndefined())
                o.remove(QLatin1String(key));
            else
                o.insert(QLatin1String(key), value);
            return o;
        };
        QTest::newRow("latent rank 0")
            << deepseek("kv_lora_rank", 0) << "field 'kv_lora_rank' must be an integer >= 1, got 0";
        QTest::newRow("latent rank missing")
            << deepseek("kv_lora_rank", QJsonValue::Undefined)
            << "missing field 'kv_lora_rank'; deepseek_v2 uses multi-head latent attention";
        QTest::newRow("expert width 0") << deepseek("moe_intermediate_size", 0)
                                        << "field 'moe_intermediate_size' must be an integer >= 1, got 0";
        QTest::newRow("dense layers past the last")
            << deepseek("first_k_dense_replace", 28)
            << "field 'first_k_dense_replace' must be an integer <= 27, got 28";
    }

    void badInput()
    {
        QFETCH(QJsonObject, config);
        QFETCH(QString, message);
        KVSCOPE_VERIFY_ERROR(parseHfConfig(config, QStringLiteral("config.json")),
                             QLatin1String("config.json: "), message);
    }

    void missingFieldMessagesEndCleanly()
    {
        const QString message = test::errorFrom([] {
            parseHfConfig(withField("vocab_size", QJsonValue::Undefined), QStringLiteral("config.json"));
        });
        QCOMPARE(message, QStringLiteral(
                              "config.json: missing field 'vocab_size' (or 'padded_vocab_size', 'n_vocab')"));
    }

    void latentRankNullIsMultiHeadAttention()
    {
        // vLLM ModelConfig.is_deepseek_mla: a deepseek_v2/v3 config whose kv_lora_rank is
        // null runs standard multi-head attention; kvscope plans it so and says so.
        QJsonObject o = object(deepseekV2Lite);
        o.insert(QStringLiteral("kv_lora_rank"), QJsonValue::Null);
        const ModelArch m = parseHfConfig(o, QStringLiteral("config.json"));
        QVERIFY(!m.usesMla());
        QCOMPARE(m.headDim, 2048 / 16);
        QVERIFY2(m.notes.join(QLatin1Char('\n')).contains(QLatin1String("kv_lora_rank is null")),
                 qPrintable(m.notes.join(QLatin1Char('\n'))));
    }

    void expertLayersFollowEachConvention_data()
    {
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<QString>("expertLayers"); // '1' = MoE layer, by hand from the conventions below
        // Qwen2-MoE / Llama 4: experts where (i + 1) % step == 0 (vLLM qwen2_moe.py Qwen2MoeDecoderLayer).
        QTest::newRow("decoder_sparse_step 2")
            << QByteArray(R"({"decoder_sparse_step": 2})") << QStringLiteral("010101");
        QTest::newRow("interleave_moe_layer_step 3")
            << QByteArray(R"({"interleave_moe_layer_step": 3})") << QStringLiteral("001001");
        // DeepSeek: experts where i >= first_k_dense_replace and i % moe_layer_freq == 0
        // (vLLM deepseek_v2.py DeepseekV2DecoderLayer).
        QTest::newRow("first_k_dense_replace 1, moe_layer_freq 2")
            << QByteArray(R"({"first_k_dense_replace": 1, "moe_layer_freq": 2})") << QStringLiteral("001010");
        // mlp_only_layers overrides the step (vLLM qwen2_moe.py), repeats included.
        QTest::newRow("mlp_only_layers [0, 3, 3]")
            << QByteArray(R"({"mlp_only_layers": [0, 3, 3]})") << QStringLiteral("011011");
        QTest::newRow("step 2 and mlp_only_layers [1]")
            << QByteArray(R"({"decoder_sparse_step": 2, "mlp_only_layers": [1]})")
            << QStringLiteral("000101");
        QTest::newRow("no dense layers") << QByteArray("{}") << QStringLiteral("111111");
    }

    void expertLayersFollowEachConvention()
    {
        QFETCH(QByteArray, fields);
        QFETCH(QString, expertLayers);
        QJsonObject o = object(llamaLike);
        o.insert(QStringLiteral("num_hidden_layers"), 6);
        o.insert(QStringLiteral("num_experts"), 8);
        o.insert(QStringLiteral("num_experts_per_tok"), 2);
        o.insert(QStringLiteral("moe_intermediate_size"), 32);
        const QJsonObject extra = QJsonDocument::fromJson(fields).object();
        for (auto it = extra.begin(); it != extra.end(); ++it)
            o.insert(it.key(), it.value());
        const ModelArch m = parseHfConfig(o, QStringLiteral("config.json"));
        QString found;
        for (int layer = 0; layer < m.numLayers; ++layer)
            found += m.isMoeLayer(layer) ? QLatin1Char('1') : QLatin1Char('0');
        QCOMPARE(found, expertLayers);
        QVERIFY(!m.isMoeLayer(-1));
    }

    void sixtyFiveThousandLayersWithDenseSteps()
    {
        // A fuzzed config (tests/fuzz/named/hfconfig/slow-unit-dense-layer-list.json) declared 61,280 layers
        // with moe_layer_freq 2: the dense layers were a list searched once per layer, and planning took 22
        // s. Counted by hand: layers 3..65,535 at even index hold experts.
        QJsonObject o = object(deepseekV2Lite);
        o.insert(QStringLiteral("num_hidden_layers"), 65'536);
        o.insert(QStringLiteral("first_k_dense_replace"), 3);
        o.insert(QStringLiteral("moe_layer_freq"), 2);
        const ModelArch m = parseHfConfig(o, QStringLiteral("config.json"));
        int expertLayers = 0;
        for (int layer = 0; layer < m.numLayers; ++layer)
            expertLayers += m.isMoeLayer(layer) ? 1 : 0;
        QCOMPARE(expertLayers, (65'536 - 4) / 2);
        QVERIFY(countParameters(m).total > 0);
    }

    void noRoutedExpertsIsDenseWithANote()
    {
        // ibm-granite/granite-4.0-h-micro: "num_local_experts": 0, "num_experts_per_tok": 0 is the
        // dense member of the Granite 4.0 family; read as dense, and the note says so.
        QJsonObject o = object(llamaLike);
        o.insert(QStringLiteral("num_local_experts"), 0);
        o.insert(QStringLiteral("num_experts_per_tok"), 0);
        const ModelArch m = parseHfConfig(o, QStringLiteral("config.json"));
        QVERIFY(!m.moe.enabled());
        QVERIFY2(m.notes.join(QLatin1Char('\n')).contains(QLatin1String("num_local_experts 0")),
                 qPrintable(m.notes.join(QLatin1Char('\n'))));
    }

    void malformedJson()
    {
        QVERIFY_THROWS_EXCEPTION(Error, parseJsonObject("{\"a\": 1,", QStringLiteral("x.json")));
        try {
            parseJsonObject("{\"a\": 1,", QStringLiteral("x.json"));
        } catch (const Error &error) {
            QVERIFY(error.message().startsWith(QLatin1String("x.json: malformed JSON at offset")));
        }
        QVERIFY_THROWS_EXCEPTION(Error, parseJsonObject("[1, 2]", QStringLiteral("x.json")));
    }

    void fileErrors()
    {
        QVERIFY_THROWS_EXCEPTION(Error, loadHfConfigFile(QStringLiteral("/nonexistent/config.json")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(llamaLike);
        file.close();
        const ModelArch m = loadHfConfigFile(path);
        QCOMPARE(m.numLayers, 2);
    }

    void falconMultiQuery()
    {
        // tiiuae/falcon-7b config.json: 71 heads of 64, multi_query, parallel
        // attention with one LayerNorm, untied-free (tied) embeddings, GELU MLP 4h.
        const char *falcon = R"({"model_type": "falcon", "architectures": ["FalconForCausalLM"],
          "hidden_size": 4544, "num_attention_heads": 71, "num_hidden_layers": 32, "multi_query": true,
          "parallel_attn": true, "new_decoder_architecture": false, "bias": false, "alibi": false,
          "vocab_size": 65024, "torch_dtype": "bfloat16"})";
        const ModelArch m = parseHfConfig(object(falcon), QStringLiteral("falcon/config.json"));
        QCOMPARE(m.numKvHeads, 1);
        QCOMPARE(m.headDim, 64);
        QVERIFY(m.tiedEmbeddings);
        // By hand: embed 65024 x 4544 + 32 x (qkv 4544 x 4672 + dense 4544^2 +
        // MLP 2 x 4544 x 18176 + LayerNorm 2 x 4544) + ln_f 2 x 4544 = 6,921,720,704
        // (HF's "6.92B params" for tiiuae/falcon-7b).
        QCOMPARE(countParameters(m).total, 6'921'720'704LL);
        // One KV head of 64: 32 x 2 x 1 x 64 x 2 B = 8 KiB per token.
        QCOMPARE(kvBytesPerTokenPerLayer(m, KvCacheDtype::BFloat16, 1) * m.numLayers, 8192LL);
    }

    void phi2PlainMlpWithBiases()
    {
        // microsoft/phi-2 config.json (huggingface.co/microsoft/phi-2): PhiForCausalLM, parallel
        // attention and MLP after one LayerNorm, fc1/fc2 (no gate), biases on every linear layer
        // and on lm_head, untied, 40 % of each head rotary (transformers models/phi/modeling_phi.py).
        const char *phi2 = R"({"architectures": ["PhiForCausalLM"], "model_type": "phi",
          "hidden_act": "gelu_new", "hidden_size": 2560, "intermediate_size": 10240,
          "layer_norm_eps": 1e-05, "max_position_embeddings": 2048, "num_attention_heads": 32,
          "num_hidden_layers": 32, "num_key_value_heads": 32, "partial_rotary_factor": 0.4,
          "qk_layernorm": false, "rope_theta": 10000.0, "tie_word_embeddings": false,
          "torch_dtype": "float16", "vocab_size": 51200})";
        const ModelArch m = parseHfConfig(object(phi2), QStringLiteral("phi-2/config.json"));
        QVERIFY(!m.estimated);
        QCOMPARE(m.rotaryDim, 32); // 0.4 x 80
        // By hand: embed 51200 x 2560 + 32 x (q, k, v, dense 4 x (2560^2 + 2560) + fc1 2560 x 10240
        // + 10240 + fc2 10240 x 2560 + 2560 + LayerNorm 2 x 2560) + final LayerNorm 2 x 2560 +
        // lm_head 51200 x 2560 + 51200 = 2,779,683,840: the checkpoint's 5,559,367,680 bytes of
        // float16 (model.safetensors.index.json "total_size" of microsoft/phi-2).
        QCOMPARE(countParameters(m).total, 2'779'683'840LL);
    }

    void multimodalTextConfig()
    {
        const char *config = R"({"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
          "torch_dtype": "bfloat16",
          "text_config": {"model_type": "gemma3_text", "hidden_size": 2560, "intermediate_size": 10240,
            "num_hidden_layers": 34, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
            "sliding_window": 1024},
          "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152, "intermediate_size": 4304,
            "num_hidden_layers": 27, "patch_size": 14, "image_size": 896}})";
        const ModelArch m = parseHfConfig(object(config), QStringLiteral("gemma-3-4b/config.json"));
        QCOMPARE(m.numLayers, 34);
        QCOMPARE(m.vocabSize, 262'208LL); // Gemma3TextConfig default
        QCOMPARE(m.slidingWindow, 1024);
        QCOMPARE(m.slidingLayerCount(), 34 - 34 / 6); // pattern 6: layers 5, 11, ... are global
        QVERIFY(m.vision.enabled());
        QCOMPARE(m.checkpointDtype, WeightDtype::BFloat16);
    }

    // The tower's family comes from vision_config's model_type, the projector from the wrapper's.
    void visionTowerFamilies()
    {
        // Qwen2.5-VL keeps its text decoder at the top level (no text_config) and reads like Qwen2.
        const char *qwen = R"({"model_type": "qwen2_5_vl", "hidden_size": 3584, "intermediate_size": 18944,
          "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4, "vocab_size": 152064,
          "vision_config": {"model_type": "qwen2_5_vl", "depth": 32, "hidden_size": 1280,
            "intermediate_size": 3420, "in_chans": 3, "out_hidden_size": 3584, "patch_size": 14,
            "spatial_merge_size": 2, "temporal_patch_size": 2}})";
        const ModelArch q = parseHfConfig(object(qwen), QStringLiteral("qwen2.5-vl/config.json"));
        QVERIFY(q.qkvBias); // Qwen2's biased q, k, v
        QCOMPARE(q.vision.family, VisionFamily::Qwen25Vl);
        QCOMPARE(q.vision.projector, VisionProjector::None);
        QCOMPARE(q.vision.temporalPatchSize, 2);
        QCOMPARE(q.vision.spatialMergeSize, 2);
        QCOMPARE(q.vision.projectorOutput, 3584LL);
        QVERIFY(!q.notes.join(u'\n').contains(QStringLiteral("estimated")));

        // Pixtral under Mistral 3: the merge size and the projector's bias are the wrapper's.
        const char *mistral = R"({"model_type": "mistral3", "spatial_merge_size": 2,
          "text_config": {"model_type": "mistral", "hidden_size": 5120, "intermediate_size": 32768,
            "num_hidden_layers": 40, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
            "vocab_size": 131072},
          "vision_config": {"model_type": "pixtral", "hidden_size": 1024, "intermediate_size": 4096,
            "num_hidden_layers": 24, "patch_size": 14, "image_size": 1540}})";
        const ModelArch p = parseHfConfig(object(mistral), QStringLiteral("mistral3/config.json"));
        QCOMPARE(p.vision.family, VisionFamily::Pixtral);
        QCOMPARE(p.vision.projector, VisionProjector::Mistral3);
        QVERIFY(!p.vision.projectorBias); // Mistral3Config's default
        QCOMPARE(p.vision.spatialMergeSize, 2);

        // A tower kvscope does not list is counted with SigLIP's layout and said to be estimated.
        QJsonObject other = object(mistral);
        QJsonObject vision = other.value(QStringLiteral("vision_config")).toObject();
        vision.insert(QStringLiteral("model_type"), QStringLiteral("clip_vision_model"));
        other.insert(QStringLiteral("vision_config"), vision);
        const ModelArch g = parseHfConfig(other, QStringLiteral("clip/config.json"));
        QCOMPARE(g.vision.family, VisionFamily::Generic);
        QVERIFY(g.notes.join(u'\n').contains(
            QStringLiteral("'clip_vision_model' counted with SigLIP's layout (estimated)")));
    }

    void kimiVlReadsItsDeepSeekTextModelAndMoonVit()
    {
        // Kimi-VL's text_config is a DeepseekV3Config; a copy without its model_type still plans MLA.
        const char *kimi = R"({"model_type": "kimi_vl",
          "text_config": {"hidden_size": 2048, "intermediate_size": 11264, "moe_intermediate_size": 1408,
            "num_hidden_layers": 27, "num_attention_heads": 16, "num_key_value_heads": 16, "vocab_size": 163840,
            "kv_lora_rank": 512, "q_lora_rank": null, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
            "v_head_dim": 128, "n_routed_experts": 64, "n_shared_experts": 2, "num_experts_per_tok": 6,
            "first_k_dense_replace": 1},
          "vision_config": {"model_type": "moonvit", "hidden_size": 1152, "intermediate_size": 4304,
            "num_hidden_layers": 27, "patch_size": 14, "init_pos_emb_height": 64, "init_pos_emb_width": 64,
            "merge_kernel_size": [2, 2]}})";
        const ModelArch k = parseHfConfig(object(kimi), QStringLiteral("kimi/config.json"));
        QCOMPARE(k.modelType, QStringLiteral("deepseek_v3"));
        QCOMPARE(k.mla.kvLoraRank, 512);
        QCOMPARE(k.vision.family, VisionFamily::MoonVit);
        QCOMPARE(k.vision.projector, VisionProjector::KimiVl);
        QCOMPARE(k.vision.spatialMergeSize, 2);
        QCOMPARE(k.vision.positionGrid, 4096LL);
        QCOMPARE(k.vision.maxPatches, 4096LL);

        // kvscope takes square merge kernels only, and says which field is not one.
        QJsonObject oblong = object(kimi);
        QJsonObject vision = oblong.value(QStringLiteral("vision_config")).toObject();
        vision.insert(QStringLiteral("merge_kernel_size"), QJsonArray{2, 3});
        oblong.insert(QStringLiteral("vision_config"), vision);
        try {
            parseHfConfig(oblong, QStringLiteral("kimi/config.json"));
            QFAIL("an oblong merge kernel was taken");
        } catch (const Error &error) {
            QVERIFY2(error.message().contains(QStringLiteral("vision_config.merge_kernel_size")),
                     qPrintable(error.message()));
        }
    }

    void quantizationConfigs()
    {
        QJsonObject awq = object(llamaLike);
        awq.insert(QStringLiteral("quantization_config"),
                   QJsonObject{{QStringLiteral("quant_method"), QStringLiteral("awq")},
                               {QStringLiteral("bits"), 4},
                               {QStringLiteral("group_size"), 64},
                               {QStringLiteral("zero_point"), true}});
        const ModelArch a = parseHfConfig(awq, QStringLiteral("config.json"));
        QCOMPARE(a.checkpointQuantization.method, QuantMethod::Awq);
        QCOMPARE(a.checkpointQuantization.groupSize, 64);

        QJsonObject fp8 = object(llamaLike);
        fp8.insert(QStringLiteral("quantization_config"),
                   QJsonObject{{QStringLiteral("quant_method"), QStringLiteral("fp8")},
                               {QStringLiteral("weight_block_size"), QJsonArray{128, 128}}});
        const ModelArch f = parseHfConfig(fp8, QStringLiteral("config.json"));
        QCOMPARE(f.checkpointQuantization.method, QuantMethod::Fp8);
        QCOMPARE(f.checkpointQuantization.blockCols, 128);
    }

    void emptyArchitecturesListIsTolerated()
    {
        const ModelArch m = parseHfConfig(withField("architectures", QJsonArray()), QStringLiteral("c"));
        QVERIFY(m.architecture.isEmpty());
        QCOMPARE(m.numLayers, 2);
    }

    void gemma3TextDefaultsFillHeads()
    {
        // google/gemma-3-4b-it publishes a text_config without head counts; transformers'
        // Gemma3TextConfig defaults them to 8 query / 4 KV heads of 256.
        const char *config = R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text",
          "hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": 34, "sliding_window": 1024}})";
        const ModelArch m = parseHfConfig(object(config), QStringLiteral("c"));
        QCOMPARE(m.numHeads, 8);
        QCOMPARE(m.numKvHeads, 4);
        QCOMPARE(m.headDim, 256);
    }

    void otherFamilySpellings()
    {
        // Mistral's native params.json style and ChatGLM's kv_channels.
        const char *mistral =
            R"({"dim": 4096, "n_layers": 32, "n_heads": 32, "n_kv_heads": 8, "head_dim": 128,
          "hidden_dim": 14336, "vocab_size": 32768, "model_type": "mistral"})";
        const ModelArch m = parseHfConfig(object(mistral), QStringLiteral("params.json"));
        QCOMPARE(m.numKvHeads, 8);
        QCOMPARE(m.intermediateSize, 14336LL);
        const char *glm =
            R"({"model_type": "chatglm", "num_layers": 28, "hidden_size": 4096, "num_attention_heads": 32,
          "multi_query_group_num": 2, "kv_channels": 128, "ffn_hidden_size": 13696, "padded_vocab_size": 65024,
          "seq_length": 8192})";
        const ModelArch g = parseHfConfig(object(glm), QStringLiteral("c"));
        QCOMPARE(g.numKvHeads, 2);
        QCOMPARE(g.headDim, 128);
        QVERIFY(g.estimated); // chatglm is read with the generic fields
    }

    void unknownFamilyIsEstimated()
    {
        const ModelArch m =
            parseHfConfig(withField("model_type", QStringLiteral("brand_new")), QStringLiteral("c"));
        QVERIFY(m.estimated);
        QVERIFY(!m.notes.filter(QStringLiteral("estimated")).isEmpty());
    }

    void qwenSlidingWindowOffByDefault()
    {
        QJsonObject o = withField("model_type", QStringLiteral("qwen2"));
        o.insert(QStringLiteral("sliding_window"), 2048);
        o.insert(QStringLiteral("use_sliding_window"), false);
        QCOMPARE(parseHfConfig(o, QStringLiteral("c")).slidingLayerCount(), 0);
        o.insert(QStringLiteral("use_sliding_window"), true);
        o.insert(QStringLiteral("max_window_layers"), 1);
        QCOMPARE(parseHfConfig(o, QStringLiteral("c")).slidingLayerCount(), 1);
    }
};

QTEST_GUILESS_MAIN(TestHfConfig)
#include "tst_hfconfig.moc"
