// SPDX-License-Identifier: MIT
// Importing models: config.json files, pasted text, model folders with
// safetensors shards (headers only) and GGUF files, and how measured weights
// enter the plan. Every file is written by the test.
#include "core/common/error.h"
#include "core/library/library.h"
#include "core/model/modelimport.h"
#include "core/plan/planner.h"
#include "core/scenario/scenario.h"
#include "tests/filewriters.h"
#include "tests/testsupport.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using kvscope::test::StTensor;

namespace {

const QByteArray llamaConfig = R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"],
  "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2,
  "intermediate_size": 128, "vocab_size": 1000, "max_position_embeddings": 4096, "torch_dtype": "bfloat16"})";

// Two shards, bytes by hand from dtype size x shape: BF16 [1000,64] 128,000 + BF16 [64,64] 8,192;
// BF16 [1000,64] 128,000 + F32 [64] 256 + I32 [64,8] 2,048 + F16 [64,1] 128.
const QList<StTensor> shard1 = {
    {QStringLiteral("model.embed_tokens.weight"), QStringLiteral("BF16"), {1000, 64}, 128'000},
    {QStringLiteral("model.layers.0.self_attn.q_proj.weight"), QStringLiteral("BF16"), {64, 64}, 8'192},
};
const QList<StTensor> shard2 = {
    {QStringLiteral("lm_head.weight"), QStringLiteral("BF16"), {1000, 64}, 128'000},
    {QStringLiteral("model.norm.weight"), QStringLiteral("F32"), {64}, 256},
    {QStringLiteral("model.layers.1.mlp.down_proj.qweight"), QStringLiteral("I32"), {64, 8}, 2'048},
    {QStringLiteral("model.layers.1.mlp.down_proj.scales"), QStringLiteral("F16"), {64, 1}, 128},
};
constexpr qint64 folderBytes = 266'624;
constexpr qint64 folderElements = 132'736; // 64,000 + 4,096 + 64,000 + 64 + 512 + 64

QByteArray indexJson(const QString &first = QStringLiteral("model-00001-of-00002.safetensors"))
{
    QJsonObject map;
    for (const StTensor &t : shard1)
        map.insert(t.name, first);
    for (const StTensor &t : shard2)
        map.insert(t.name, QStringLiteral("model-00002-of-00002.safetensors"));
    return QJsonDocument(QJsonObject{{QStringLiteral("metadata"),
                                      QJsonObject{{QStringLiteral("total_size"), double(folderBytes)}}},
                                     {QStringLiteral("weight_map"), map}})
        .toJson();
}

} // namespace

class TestImport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;

    /// A model folder named `name` with config.json, both shards and (optionally) the index.
    QString folder(const QString &name, bool withIndex = true, bool withConfig = true)
    {
        QDir(m_root.path()).mkpath(name);
        const QDir dir(m_root.filePath(name));
        if (withConfig && !test::writeFile(dir.filePath(QStringLiteral("config.json")), llamaConfig))
            qFatal("write failed");
        test::writeFile(dir.filePath(QStringLiteral("model-00001-of-00002.safetensors")),
                        test::safetensorsBytes(shard1));
        test::writeFile(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors")),
                        test::safetensorsBytes(shard2));
        if (withIndex)
            test::writeFile(dir.filePath(QStringLiteral("model.safetensors.index.json")), indexJson());
        return dir.path();
    }

private Q_SLOTS:
    void folderWithIndex()
    {
        const QString path = folder(QStringLiteral("my-model"));
        const ImportedModel imported = importModel(path);
        QCOMPARE(imported.kind, ImportKind::ModelFolder);
        QCOMPARE(imported.model.id, QStringLiteral("my-model"));
        QCOMPARE(imported.model.family, QStringLiteral("Imported"));
        QCOMPARE(imported.model.numLayers, 2);
        const MeasuredCheckpoint &m = imported.model.measured;
        QCOMPARE(m.format, QStringLiteral("safetensors"));
        QCOMPARE(m.files, 2);
        QCOMPARE(m.tensors, 6LL);
        QCOMPARE(m.bytes, folderBytes);
        QCOMPARE(m.elements, folderElements);
        QCOMPARE(m.bytesByType.value(QStringLiteral("BF16")), 264'192LL);
        QCOMPARE(m.bytesByType.value(QStringLiteral("F32")), 256LL);
        QCOMPARE(m.bytesByType.value(QStringLiteral("I32")), 2'048LL); // packed words counted as stored
        QCOMPARE(m.elementsByType.value(QStringLiteral("I32")), 512LL);
        QCOMPARE(m.bytesByType.value(QStringLiteral("F16")), 128LL);
        // A shard or the index stands for its folder.
        QCOMPARE(
            importModel(QDir(path).filePath(QStringLiteral("model.safetensors.index.json"))).model.measured,
            m);
        QCOMPARE(importModel(QDir(path).filePath(QStringLiteral("model-00002-of-00002.safetensors")))
                     .model.measured,
                 m);
        // --model accepts the folder too.
        QCOMPARE(resolveModel(path).measured.bytes, folderBytes);
    }

    void folderWithoutIndexReadsEveryShard()
    {
        const ImportedModel imported = importModel(folder(QStringLiteral("no-index"), false));
        QCOMPARE(imported.model.measured.files, 2);
        QCOMPARE(imported.model.measured.bytes, folderBytes);
    }

    void folderWithoutShardsIsEstimated()
    {
        QDir(m_root.path()).mkpath(QStringLiteral("config-only"));
        test::writeFile(m_root.filePath(QStringLiteral("config-only/config.json")), llamaConfig);
        const ImportedModel imported = importModel(m_root.filePath(QStringLiteral("config-only")));
        QVERIFY(!imported.model.measured.measured());
        QVERIFY(!imported.warnings.filter(QStringLiteral("no .safetensors files")).isEmpty());
        QVERIFY(!imported.model.notes.filter(QStringLiteral("no .safetensors files")).isEmpty());
    }

    void badFolders()
    {
        const QString noConfig = folder(QStringLiteral("no-config"), true, false);
        KVSCOPE_VERIFY_ERROR(importModel(noConfig), noConfig, QStringLiteral("folder has no config.json"));
        test::writeFile(QDir(noConfig).filePath(QStringLiteral("m.Q4_K_M.gguf")),
                        test::tinyLlamaGguf().bytes());
        KVSCOPE_VERIFY_ERROR(importModel(noConfig), noConfig,
                             QStringLiteral("(it holds m.Q4_K_M.gguf: pass the .gguf file itself)"));

        const QString missingShard = folder(QStringLiteral("missing-shard"));
        QFile::remove(QDir(missingShard).filePath(QStringLiteral("model-00002-of-00002.safetensors")));
        KVSCOPE_VERIFY_ERROR(
            importModel(missingShard),
            QDir(missingShard).filePath(QStringLiteral("model.safetensors.index.json")),
            QStringLiteral("shard 'model-00002-of-00002.safetensors' is listed but not in the folder"));

        const QString wrongMap = folder(QStringLiteral("wrong-map"));
        QJsonObject index = QJsonDocument::fromJson(indexJson()).object();
        QJsonObject map = index.value(QLatin1String("weight_map")).toObject();
        map.insert(QStringLiteral("model.layers.9.mlp.up_proj.weight"),
                   QStringLiteral("model-00001-of-00002.safetensors"));
        index.insert(QStringLiteral("weight_map"), map);
        test::writeFile(QDir(wrongMap).filePath(QStringLiteral("model.safetensors.index.json")),
                        QJsonDocument(index).toJson());
        KVSCOPE_VERIFY_ERROR(importModel(wrongMap),
                             QDir(wrongMap).filePath(QStringLiteral("model.safetensors.index.json")),
                             QStringLiteral("tensor 'model.layers.9.mlp.up_proj.weight' is mapped to "
                                            "'model-00001-of-00002.safetensors', which does not hold it"));

        const QString traversal = folder(QStringLiteral("traversal"));
        test::writeFile(QDir(traversal).filePath(QStringLiteral("model.safetensors.index.json")),
                        indexJson(QStringLiteral("../wrong-map/model-00001-of-00002.safetensors")));
        KVSCOPE_VERIFY_ERROR(importModel(traversal),
                             QDir(traversal).filePath(QStringLiteral("model.safetensors.index.json")),
                             QStringLiteral("not a file name in the model folder"));

        const QString badIndex = folder(QStringLiteral("bad-index"));
        test::writeFile(QDir(badIndex).filePath(QStringLiteral("model.safetensors.index.json")),
                        "{\"weight_map\": [");
        KVSCOPE_VERIFY_ERROR(importModel(badIndex),
                             QDir(badIndex).filePath(QStringLiteral("model.safetensors.index.json")),
                             QStringLiteral("malformed JSON"));

        const QString corrupt = folder(QStringLiteral("corrupt-shard"), false);
        const QString shard = QDir(corrupt).filePath(QStringLiteral("model-00001-of-00002.safetensors"));
        QByteArray bytes = test::safetensorsBytes(shard1);
        bytes[6] = char(0x7f); // header length (u64 LE) now runs past the file
        test::writeFile(shard, bytes);
        KVSCOPE_VERIFY_ERROR(importModel(corrupt), shard, QStringLiteral("runs past the end"));

        const QString duplicate = folder(QStringLiteral("duplicate"), false);
        test::writeFile(QDir(duplicate).filePath(QStringLiteral("extra.safetensors")),
                        test::safetensorsBytes(shard1));
        KVSCOPE_VERIFY_ERROR(importModel(duplicate), duplicate,
                             QStringLiteral("appears in more than one shard"));

        KVSCOPE_VERIFY_ERROR(importModel(m_root.filePath(QStringLiteral("nothing-here"))),
                             m_root.filePath(QStringLiteral("nothing-here")),
                             QStringLiteral("no such file or folder"));
    }

    void configFileAndPastedText()
    {
        QDir(m_root.path()).mkpath(QStringLiteral("cfg"));
        const QString path = m_root.filePath(QStringLiteral("cfg/config.json"));
        test::writeFile(path, llamaConfig);
        const ImportedModel file = importModel(path);
        QCOMPARE(file.kind, ImportKind::ConfigFile);
        QCOMPARE(file.model.id, QStringLiteral("cfg"));
        QVERIFY(!file.model.measured.measured());

        const ImportedModel pasted = importConfigText(llamaConfig);
        QCOMPARE(pasted.kind, ImportKind::ConfigText);
        QCOMPARE(pasted.model.id, QStringLiteral("LlamaForCausalLM"));
        QCOMPARE(pasted.model.numKvHeads, 2);
        KVSCOPE_VERIFY_ERROR(importConfigText("{\"num_hidden_layers\": 2,"), QStringLiteral("pasted config"),
                             QStringLiteral("malformed JSON at offset"));
        KVSCOPE_VERIFY_ERROR(importConfigText("{\"num_hidden_layers\": 0}"), QStringLiteral("pasted config"),
                             QStringLiteral("field 'num_hidden_layers' must be an integer >= 1, got 0"));
    }

    void ggufFile()
    {
        const QString path = m_root.filePath(QStringLiteral("tiny.Q4_K_M.gguf"));
        test::writeFile(path, test::tinyLlamaGguf().bytes());
        const ImportedModel imported = importModel(path);
        QCOMPARE(imported.kind, ImportKind::GgufFile);
        QCOMPARE(imported.model.id, QStringLiteral("tiny.Q4_K_M"));
        QCOMPARE(imported.model.name, QStringLiteral("Tiny Llama"));
        QCOMPARE(imported.model.measured.bytes, 1'153'744LL); // see tst_gguf
        // A GGUF named otherwise is recognised by its magic; a .gguf that is not one fails on it.
        const QString renamed = m_root.filePath(QStringLiteral("model.bin"));
        test::writeFile(renamed, test::tinyLlamaGguf().bytes());
        QCOMPARE(importModel(renamed).kind, ImportKind::GgufFile);
        const QString fake = m_root.filePath(QStringLiteral("fake.gguf"));
        test::writeFile(fake, llamaConfig);
        KVSCOPE_VERIFY_ERROR(importModel(fake), fake, QStringLiteral("not a GGUF file"));
    }

    void splitGgufFilesAreSummed()
    {
        // llama.cpp gguf-split: metadata in the first file, split.count in each.
        QDir(m_root.path()).mkpath(QStringLiteral("split"));
        test::GgufWriter first = test::tinyLlamaGguf();
        first.u32(QStringLiteral("split.count"), 2);
        test::GgufWriter second;
        second.u32(QStringLiteral("split.count"), 2)
            .tensor(QStringLiteral("extra.weight"), {256}, test::GgmlF32, 1024);
        const QString a = m_root.filePath(QStringLiteral("split/m-00001-of-00002.gguf"));
        test::writeFile(a, first.bytes());
        KVSCOPE_VERIFY_ERROR(importModel(a), a,
                             QStringLiteral("split file 2 of 2 ('m-00002-of-00002.gguf') is missing"));
        test::writeFile(m_root.filePath(QStringLiteral("split/m-00002-of-00002.gguf")), second.bytes());
        const ImportedModel imported = importModel(a);
        QCOMPARE(imported.model.measured.files, 2);
        QCOMPARE(imported.model.measured.bytes, 1'153'744LL + 1024);
    }

    void measuredWeightsInThePlan()
    {
        Scenario s;
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.batchSize = 1;
        s.seqLen = 1024;

        // Folder: the budget keeps the estimate (vLLM loads in --dtype); the measurement sits beside it.
        s.model = importModel(folder(QStringLiteral("plan-folder"))).model;
        MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.weights.measuredCheckpointBytes, folderBytes);
        QCOMPARE(plan.weights.measuredParams, folderElements);
        QVERIFY(!plan.weights.budgetUsesMeasured);
        QCOMPARE(plan.weights.bytesPerGpu, plan.weights.estimatedBytesPerGpu);

        // GGUF: the file's tensor bytes are the weights. Buffers: 4096 positions x 64 rotary x 2 B.
        const QString gguf = m_root.filePath(QStringLiteral("plan.gguf"));
        test::writeFile(gguf, test::tinyLlamaGguf().bytes());
        s.model = importModel(gguf).model;
        plan = planMemory(s);
        QVERIFY(plan.weights.budgetUsesMeasured);
        QCOMPARE(plan.weights.bytesPerGpu, 1'153'744LL + 4096 * 64 * 2);
        QCOMPARE(plan.weights.checkpointBytes, 1'153'744LL);
        QCOMPARE(plan.weights.bitsPerWeight, 8.0 * 1'153'744 / 1'692'928);
        QCOMPARE(plan.modelFileType, QStringLiteral("Q4_K_M"));

        // llama.cpp's q8_0 cache: 2 layers x 2 rows x 4 blocks x 34 B per token.
        s.kvCacheDtype = KvCacheDtype::Q8_0;
        plan = planMemory(s);
        QCOMPARE(plan.kv.bytesPerToken, 544LL);
        QCOMPARE(plan.kv.bitsPerElement, 8.5);

        // Not for vLLM models, and no --quantization on top of a GGUF.
        Scenario preset = s;
        preset.model = *ModelLibrary::builtin().find(QStringLiteral("llama-3.1-8b"));
        KVSCOPE_VERIFY_ERROR(planMemory(preset), QStringLiteral("--kv-cache-dtype"),
                             QStringLiteral("q8_0 is a llama.cpp cache type for GGUF models"));
        s.kvCacheDtype = KvCacheDtype::Auto;
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        KVSCOPE_VERIFY_ERROR(planMemory(s), QStringLiteral("--quantization"),
                             QStringLiteral("stored as Q4_K_M already"));
    }
};

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
