// SPDX-License-Identifier: MIT
// quantization_config / compression_config reading, and the stored bytes of
// the schemes it yields (compressed-tensors layouts: neuralmagic/compressed-tensors
// compressors "pack-quantized", "float-quantized", "int-quantized", "nvfp4-pack-quantized").
#include "core/common/error.h"
#include "core/model/hfconfig.h"
#include "core/model/inventory.h"
#include "core/plan/weights.h"
#include "tests/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace kvscope;

namespace {

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

QuantizationSpec parse(const char *json)
{
    return parseQuantizationConfig(object(json), QStringLiteral("config.json"));
}

// llm-compressor W4A16 as RedHatAI publishes it (Llama-3.1-8B-Instruct-quantized.w4a16).
const char *w4a16 = R"({"quant_method": "compressed-tensors", "format": "pack-quantized",
  "config_groups": {"group_0": {"targets": ["Linear"], "input_activations": null,
    "weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": true,
                "dynamic": false, "actorder": null}}},
  "ignore": ["lm_head"], "quantization_status": "compressed"})";

const char *fp8Dynamic = R"({"quant_method": "compressed-tensors", "format": "float-quantized",
  "config_groups": {"group_0": {"targets": ["Linear"],
    "weights": {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": true, "dynamic": false},
    "input_activations": {"num_bits": 8, "type": "float", "strategy": "token", "symmetric": true, "dynamic": true}}},
  "ignore": ["lm_head", "re:.*mlp.gate$"]})";

const char *w8a8 = R"({"quant_method": "compressed-tensors", "format": "int-quantized",
  "config_groups": {"group_0": {"targets": ["Linear"],
    "weights": {"num_bits": 8, "type": "int", "strategy": "channel", "symmetric": true},
    "input_activations": {"num_bits": 8, "type": "int", "strategy": "token", "symmetric": true, "dynamic": true}}},
  "ignore": ["lm_head"]})";

const char *nvfp4 = R"({"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized",
  "config_groups": {"group_0": {"targets": ["Linear"],
    "weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "symmetric": true},
    "input_activations": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "dynamic": "local"}}},
  "ignore": ["lm_head"]})";

} // namespace

class TestQuantConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compressedTensorsSchemes_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<int>("bits");
        QTest::addColumn<int>("groupSize");
        QTest::addColumn<bool>("floatWeights");
        QTest::addColumn<qint64>("bytes4096");
        // Stored bytes of a 4096 x 4096 weight with bf16 scales, by hand:
        // W4A16: int32 words 4096 x 512 x 4 + scales 4096 x 32 x 2 + weight_shape 16.
        QTest::newRow("W4A16 g128") << w4a16 << "W4A16" << 4 << 128 << false << (8'388'608LL + 262'144 + 16);
        // FP8 channel: 1 B per weight + one bf16 scale per row.
        QTest::newRow("FP8_DYNAMIC") << fp8Dynamic << "FP8_DYNAMIC" << 8 << -1 << true
                                     << (16'777'216LL + 8'192);
        // W8A8: int8 weights + one bf16 scale per row.
        QTest::newRow("W8A8") << w8a8 << "W8A8" << 8 << -1 << false << (16'777'216LL + 8'192);
        // NVFP4: two E2M1 per byte + one fp8 scale per 16 + fp32 global + weight_shape (4.5 bpw).
        QTest::newRow("NVFP4") << nvfp4 << "NVFP4" << 4 << 16 << true << (8'388'608LL + 1'048'576 + 4 + 16);
    }

    void compressedTensorsSchemes()
    {
        QFETCH(QString, json);
        QFETCH(QString, scheme);
        QFETCH(int, bits);
        QFETCH(int, groupSize);
        QFETCH(bool, floatWeights);
        QFETCH(qint64, bytes4096);
        const QuantizationSpec spec = parse(json.toUtf8().constData());
        QCOMPARE(spec.method, QuantMethod::CompressedTensors);
        QCOMPARE(spec.scheme, scheme);
        QCOMPARE(spec.bits, bits);
        QCOMPARE(spec.groupSize, groupSize);
        QCOMPARE(spec.floatWeights, floatWeights);
        QVERIFY(spec.symmetric);
        QCOMPARE(quantizedMatrixBytes(spec, 4096, 4096, 2), bytes4096);
    }

    void asymmetricW4StoresPackedZeroPoints()
    {
        QJsonObject q = object(w4a16);
        QJsonObject groups = q.value(QLatin1String("config_groups")).toObject();
        QJsonObject group = groups.value(QLatin1String("group_0")).toObject();
        QJsonObject weights = group.value(QLatin1String("weights")).toObject();
        weights.insert(QStringLiteral("symmetric"), false);
        group.insert(QStringLiteral("weights"), weights);
        groups.insert(QStringLiteral("group_0"), group);
        q.insert(QStringLiteral("config_groups"), groups);
        const QuantizationSpec spec = parseQuantizationConfig(q, QStringLiteral("c"));
        QVERIFY(!spec.symmetric);
        // + int32 zero points packed along the output: ceil(4096*4/32) = 512 words x 4 B x 32 groups.
        QCOMPARE(quantizedMatrixBytes(spec, 4096, 4096, 2), 8'388'608LL + 262'144 + 16 + 65'536);
    }

    void ignoreListsAreHonoured()
    {
        // "lm_head" by name, the MoE router by regex: neither is quantized.
        const QuantizationSpec spec = parse(fp8Dynamic);
        QCOMPARE(spec.modulesNotConverted,
                 (QStringList{QStringLiteral("lm_head"), QStringLiteral("re:.*mlp.gate$")}));
        TensorGroup router;
        router.name = QStringLiteral("mlp.gate.weight");
        router.component = Component::Mlp; // even if a family filed it as a plain linear
        QVERIFY(!quantizes(spec, router));
        TensorGroup up;
        up.name = QStringLiteral("mlp.up_proj.weight");
        up.component = Component::Mlp;
        QVERIFY(quantizes(spec, up));
    }

    void otherMethods()
    {
        const QuantizationSpec int8 = parse(R"({"quant_method": "bitsandbytes", "load_in_8bit": true})");
        QCOMPARE(int8.method, QuantMethod::Int8); // LLM.int8(): int8 + fp32 row scale
        const QuantizationSpec fp4 = parse(R"({"quant_method": "bitsandbytes", "load_in_4bit": true,
                                               "bnb_4bit_quant_type": "fp4"})");
        QCOMPARE(fp4.method, QuantMethod::BitsAndBytesNf4);
        QVERIFY(!fp4.doubleQuant);
        const QuantizationSpec fbgemm =
            parse(R"({"quant_method": "fbgemm_fp8", "activation_scale_ub": 1200.0})");
        QCOMPARE(fbgemm.method, QuantMethod::Fp8);
        QVERIFY(fbgemm.perChannelScales);
        QCOMPARE(quantizedMatrixBytes(fbgemm, 4096, 4096, 2), 16'777'216LL + 4096 * 4);
        const QuantizationSpec gptq =
            parse(R"({"quant_method": "gptq", "bits": 8, "group_size": -1, "sym": true})");
        QCOMPARE(gptq.bits, 8);
        QCOMPARE(gptq.groupSize, -1);
    }

    void compressionConfigAndNestedConfigsAreRead()
    {
        // Older llm-compressor checkpoints call it compression_config; InternVL nests the LLM in llm_config.
        QJsonObject config = object(R"({"architectures": ["InternVLChatModel"], "model_type": "internvl_chat",
          "llm_config": {"model_type": "qwen2", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
                         "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 1000,
                         "max_position_embeddings": 4096}})");
        config.insert(QStringLiteral("compression_config"), object(w4a16));
        const ModelArch m = parseHfConfig(config, QStringLiteral("config.json"));
        QCOMPARE(m.numLayers, 2);
        QVERIFY(m.qkvBias); // qwen2 traits come from the nested model_type
        QCOMPARE(m.checkpointQuantization.method, QuantMethod::CompressedTensors);
        QCOMPARE(m.checkpointQuantization.groupSize, 128);
    }

    void badQuantizationConfigs_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("no config groups") << R"({"quant_method": "compressed-tensors"})"
                                          << "quantization_config.config_groups' is missing or empty";
        QTest::newRow("bad type")
            << R"({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights":
            {"num_bits": 4, "type": "posit", "strategy": "group", "group_size": 128}}}})"
            << "config_groups.g.weights.type' is 'posit'";
        QTest::newRow("bad strategy")
            << R"({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights":
            {"num_bits": 4, "type": "int", "strategy": "block"}}}})"
            << "strategy' is 'block'";
        QTest::newRow("bits out of range")
            << R"({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights":
            {"num_bits": 99, "type": "int", "strategy": "channel"}}}})"
            << "num_bits' must be an integer <= 16, got 99";
        QTest::newRow("mixed schemes") << R"({"quant_method": "compressed-tensors", "config_groups": {
            "a": {"weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128}},
            "b": {"weights": {"num_bits": 8, "type": "int", "strategy": "channel"}}}})"
                                       << "mix different weight schemes";
        QTest::newRow("bnb without a mode") << R"({"quant_method": "bitsandbytes"})"
                                            << "load_in_4bit' and load_in_8bit";
        QTest::newRow("gptq group 0") << R"({"quant_method": "gptq", "bits": 4, "group_size": 0})"
                                      << "group_size' is 0";
        QTest::newRow("awq bits 3.5") << R"({"quant_method": "awq", "bits": 3.5})"
                                      << "bits' must be an integer";
        QTest::newRow("fp8 block of one number")
            << "{\"quant_method\": \"fp8\", \"weight_block_size\": [1]}"
            << "weight_block_size' must hold two positive integers, got [1]";
        QTest::newRow("fp8 block a word") << "{\"quant_method\": \"fp8\", \"weight_block_size\": \"x\"}"
                                          << "weight_block_size' must hold two positive integers, got \"x\"";
        QTest::newRow("invalid ignore pattern")
            << "{\"quant_method\": \"compressed-tensors\", \"config_groups\": {\"g\": {\"weights\": "
               "{\"num_bits\": 8, \"type\": \"int\", \"strategy\": \"channel\"}}}, \"ignore\": [\"lm_head\", "
               "\"re:model.(layers\"]}"
            << "ignore[1]' is \"re:model.(layers\", not a valid regular expression";
        QTest::newRow("ignore entry a number")
            << "{\"quant_method\": \"fp8\", \"modules_to_not_convert\": [\"lm_head\", 7]}"
            << "modules_to_not_convert[1]' must be a module name, got 7";
    }

    void badQuantizationConfigs()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        KVSCOPE_VERIFY_ERROR(parse(json.toUtf8().constData()),
                             QLatin1String("config.json: field 'quantization_config."), message);
    }
};

QTEST_GUILESS_MAIN(TestQuantConfig)
#include "tst_quantconfig.moc"
