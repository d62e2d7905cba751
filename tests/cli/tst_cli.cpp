// SPDX-License-Identifier: MIT
// The kvscope binary's headless commands: JSON keys and values, exit codes,
// and one-line errors with no partial output.
#include "filewriters.h"
#include "kvscoperun.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject
{
    Q_OBJECT

private:
    using Run = kvscope::test::Run;

    static Run run(const QStringList &arguments) { return kvscope::test::runKvscope(arguments); }

    static QJsonObject calcJson(const QStringList &arguments)
    {
        const Run r = run(QStringList{QStringLiteral("calc"), QStringLiteral("--json")} + arguments);
        if (r.exitCode != 0)
            qFatal("calc failed: %s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"), "ctest sets KVSCOPE_BINARY");
    }

    void llamaHeadlineFigures()
    {
        // The foundation issue's acceptance figures: Llama-3.1-8B config.json
        // (shared/reference/models.json): 32 x 2 x 8 x 128 x 2 B and 8,030,261,248 parameters.
        const QJsonObject o = calcJson({QStringLiteral("--model"), QStringLiteral("llama-3.1-8b")});
        QCOMPARE(o.value(QLatin1String("kv_bytes_per_token")).toInteger(), 131'072);
        QCOMPARE(o.value(QLatin1String("params_total")).toInteger(), 8'030'261'248LL);
        QCOMPARE(o.value(QLatin1String("params_active")).toInteger(), 8'030'261'248LL);
        QCOMPARE(o.value(QLatin1String("bits_per_weight")).toDouble(), 16.0);
        for (const char *key :
             {"weights_bytes", "kv_cache_bytes", "activation_bytes", "overhead_bytes", "budget_bytes",
              "headroom_bytes", "kv_capacity_tokens", "max_concurrency", "fits"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QLatin1String("kv_cache_bytes")).toInteger(), 16LL << 30); // 16 x 8192 x 128 KiB
        QCOMPARE(o.value(QLatin1String("fits")).toBool(), true);
        QCOMPARE(o.value(QLatin1String("headroom_bytes")).toInteger(),
                 o.value(QLatin1String("budget_bytes")).toInteger() -
                     o.value(QLatin1String("weights_bytes")).toInteger() -
                     o.value(QLatin1String("activation_bytes")).toInteger() -
                     o.value(QLatin1String("overhead_bytes")).toInteger() -
                     o.value(QLatin1String("kv_cache_bytes")).toInteger());
    }

    void huggingFaceIdsResolve()
    {
        const QJsonObject o =
            calcJson({QStringLiteral("--model"), QStringLiteral("meta-llama/Llama-3.1-8B")});
        QCOMPARE(o.value(QLatin1String("model")).toString(), QStringLiteral("llama-3.1-8b"));
    }

    void vllmFlagsChangeTheRightFigures()
    {
        const QJsonObject base = calcJson({});
        const QJsonObject fp8 = calcJson({QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8")});
        QCOMPARE(fp8.value(QLatin1String("kv_bytes_per_token")).toInteger() * 2,
                 base.value(QLatin1String("kv_bytes_per_token")).toInteger());
        const QJsonObject awq = calcJson({QStringLiteral("--quantization"), QStringLiteral("awq")});
        QCOMPARE(awq.value(QLatin1String("kv_bytes_per_token")),
                 base.value(QLatin1String("kv_bytes_per_token")));
        QCOMPARE(awq.value(QLatin1String("quantized_bits_per_weight")).toDouble(), 4.15625);
        QCOMPARE(awq.value(QLatin1String("dtype")).toString(), QStringLiteral("float16"));
        const QJsonObject tp = calcJson({QStringLiteral("--model"), QStringLiteral("llama-3.1-70b"),
                                         QStringLiteral("--tensor-parallel-size"), QStringLiteral("16"),
                                         QStringLiteral("--gpu"), QStringLiteral("a100-80gb")});
        QCOMPARE(tp.value(QLatin1String("kv_bytes_per_token")).toInteger(), 80 * 2 * 1 * 128 * 2);
        QCOMPARE(tp.value(QLatin1String("kv_heads_replicated")).toBool(), true);
    }

    void configJsonPath()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("config.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
            "vocab_size": 128256, "max_position_embeddings": 131072, "torch_dtype": "bfloat16"})");
        file.close();
        const QJsonObject byFile = calcJson({QStringLiteral("--model"), file.fileName()});
        QCOMPARE(byFile.value(QLatin1String("params_total")).toInteger(), 8'030'261'248LL);
        const QJsonObject byFolder = calcJson({QStringLiteral("--model"), dir.path()});
        QCOMPARE(byFolder.value(QLatin1String("kv_bytes_per_token")).toInteger(), 131'072);
    }

    void importedModels()
    {
        QTemporaryDir dir;
        // GGUF: the tiny Llama of tests/filewriters.h; figures by hand there and in tst_gguf.
        const QString gguf = dir.filePath(QStringLiteral("tiny.Q4_K_M.gguf"));
        QVERIFY(kvscope::test::writeFile(gguf, kvscope::test::tinyLlamaGguf().bytes()));
        const QJsonObject g =
            calcJson({QStringLiteral("--model"), gguf, QStringLiteral("--kv-cache-dtype"),
                      QStringLiteral("q8_0"), QStringLiteral("--seq-len"), QStringLiteral("4096")});
        QCOMPARE(g.value(QLatin1String("model_format")).toString(), QStringLiteral("gguf"));
        QCOMPARE(g.value(QLatin1String("model_file_type")).toString(), QStringLiteral("Q4_K_M"));
        QCOMPARE(g.value(QLatin1String("weights_source")).toString(), QStringLiteral("checkpoint"));
        QCOMPARE(g.value(QLatin1String("checkpoint_bytes_measured")).toInteger(), 1'153'744LL);
        QCOMPARE(g.value(QLatin1String("params_total_measured")).toInteger(), 1'692'928LL);
        QCOMPARE(g.value(QLatin1String("params_total")).toInteger(), 1'692'928LL);
        QCOMPARE(g.value(QLatin1String("kv_cache_dtype")).toString(), QStringLiteral("q8_0"));
        QCOMPARE(g.value(QLatin1String("kv_bytes_per_token")).toInteger(), 544); // 2 layers x 2 x 4 x 34 B
        QCOMPARE(g.value(QLatin1String("checkpoint_bytes_by_type_measured"))
                     .toObject()
                     .value(QLatin1String("Q8_0"))
                     .toInteger(),
                 34'816LL);

        // Model folder: config.json and one shard; the shard measures 64,000 BF16 values = 128,000 B.
        const QString folder = dir.filePath(QStringLiteral("folder-model"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(kvscope::test::writeFile(folder + QStringLiteral("/config.json"),
                                         R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
            "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 1000, "torch_dtype": "bfloat16"})"));
        QVERIFY(kvscope::test::writeFile(
            folder + QStringLiteral("/model.safetensors"),
            kvscope::test::safetensorsBytes({{QStringLiteral("model.embed_tokens.weight"),
                                              QStringLiteral("BF16"),
                                              {1000, 64},
                                              128'000}})));
        const QJsonObject f = calcJson({QStringLiteral("--model"), folder});
        QCOMPARE(f.value(QLatin1String("model")).toString(), QStringLiteral("folder-model"));
        QCOMPARE(f.value(QLatin1String("checkpoint_bytes_measured")).toInteger(), 128'000LL);
        QCOMPARE(f.value(QLatin1String("weights_source")).toString(), QStringLiteral("estimate"));
        const Run text = run({QStringLiteral("calc"), QStringLiteral("--model"), folder});
        QVERIFY2(text.out.contains("measured from checkpoint"), text.out.constData());
    }

    void customGpu()
    {
        // 24 GiB = 24 x 2^30 bytes; 23.5 GiB = 25,232,932,864 bytes.
        QCOMPARE(calcJson({QStringLiteral("--gpu"), QStringLiteral("custom:24")})
                     .value(QLatin1String("gpu_memory_bytes"))
                     .toInteger(),
                 24LL << 30);
        const QJsonObject o = calcJson({QStringLiteral("--gpu"), QStringLiteral("custom:23.5:1008:165")});
        QCOMPARE(o.value(QLatin1String("gpu_memory_bytes")).toInteger(), 25'232'932'864LL);
        QCOMPARE(o.value(QLatin1String("gpu")).toString(), QStringLiteral("custom:23.5:1008:165"));
    }

    void modelSearch()
    {
        const Run r = run({QStringLiteral("models"), QStringLiteral("--search"), QStringLiteral("gemma 3"),
                           QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(list.size(), 4); // gemma-3-1b, -4b, -12b, -27b
        for (const QJsonValue v : list)
            QCOMPARE(v.toObject().value(QLatin1String("family")).toString(), QStringLiteral("Gemma 3"));
        const Run moe = run({QStringLiteral("models"), QStringLiteral("qwen3"), QStringLiteral("moe")});
        QVERIFY(moe.out.contains("qwen3-30b-a3b") && moe.out.contains("qwen3-235b-a22b"));
        QVERIFY(!moe.out.contains("qwen3-8b"));
        const Run all = run({QStringLiteral("models"), QStringLiteral("--json")});
        QVERIFY(QJsonDocument::fromJson(all.out).array().size() >= 30);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown model")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--model"), QStringLiteral("llama-9")} << 1
            << "--model: unknown model 'llama-9'";
        QTest::newRow("unknown dtype")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--dtype"), QStringLiteral("fp7")} << 1
            << "--dtype: unknown dtype 'fp7'";
        QTest::newRow("unknown kv dtype")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--kv-cache-dtype"), QStringLiteral("int2")}
            << 1 << "--kv-cache-dtype: unknown KV cache dtype 'int2'";
        QTest::newRow("zero batch") << QStringList{QStringLiteral("calc"), QStringLiteral("--batch-size"),
                                                   QStringLiteral("0")}
                                    << 1 << "--batch-size: must be a positive integer, got '0'";
        QTest::newRow("negative seq")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--seq-len"), QStringLiteral("-5")} << 1
            << "--seq-len: must be a positive integer, got '-5'";
        QTest::newRow("bad utilization")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--gpu-memory-utilization"),
                           QStringLiteral("1.5")}
            << 1 << "--gpu-memory-utilization: must be a number in (0, 1], got '1.5'";
        QTest::newRow("unknown option") << QStringList{QStringLiteral("calc"), QStringLiteral("--frobnicate")}
                                        << 2 << "Unknown option 'frobnicate'";
        QTest::newRow("unknown gpu") << QStringList{QStringLiteral("calc"), QStringLiteral("--gpu"),
                                                    QStringLiteral("tpu-v9")}
                                     << 1 << "--gpu: unknown GPU 'tpu-v9'";
        QTest::newRow("absurd sizes")
            << QStringList{QStringLiteral("calc"),          QStringLiteral("--batch-size"),
                           QStringLiteral("1000000000"),    QStringLiteral("--seq-len"),
                           QStringLiteral("1000000000000"), QStringLiteral("--json")}
            << 1 << "exceeds 2^63";
        QTest::newRow("group size for fp8")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--quantization"), QStringLiteral("fp8"),
                           QStringLiteral("--group-size"), QStringLiteral("64")}
            << 1 << "--group-size: applies to awq, gptq and compressed-tensors, not to quantization 'fp8'";
        QTest::newRow("unknown command")
            << QStringList{QStringLiteral("frobnicate")} << 2 << "unknown command 'frobnicate'";
        QTest::newRow("two model files") << QStringList{QStringLiteral("/"), QStringLiteral("/")} << 2
                                         << "one model at a time: '/' and '/' given";
        QTest::newRow("unknown palette") << QStringList{QStringLiteral("--palette"), QStringLiteral("purple")}
                                         << 2 << "--palette: unknown palette 'purple' (choose dark or light)";
        QTest::newRow("custom gpu without memory")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--gpu"), QStringLiteral("custom:0")} << 1
            << "--gpu: 'custom:0' is not custom:MEMORY_GIB";
        QTest::newRow("custom gpu bad bandwidth")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--gpu"), QStringLiteral("custom:24:-5")}
            << 1 << "--gpu: custom GPU: bandwidth must be a number between 0 and 1e+07 GB/s, got -5";
        QTest::newRow("q8_0 for a vLLM preset")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--kv-cache-dtype"), QStringLiteral("q8_0")}
            << 1 << "--kv-cache-dtype: q8_0 is a llama.cpp cache type for GGUF models";
        QTest::newRow("nothing matches") << QStringList{QStringLiteral("models"), QStringLiteral("zzz")} << 1
                                         << "models: nothing matches 'zzz'";
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = run(arguments);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.out.isEmpty(), r.out.constData()); // never a partial table or JSON
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(err.count(QLatin1Char('\n')), 1); // one line
        QVERIFY2(err.startsWith(QLatin1String("kvscope: error: ")), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }

    void malformedConfigFile()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("config.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"num_hidden_layers\": 32,");
        file.close();
        const Run r = run(
            {QStringLiteral("calc"), QStringLiteral("--model"), file.fileName(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY(r.err.contains("config.json: malformed JSON at offset"));
    }

    void badModelFiles()
    {
        QTemporaryDir dir;
        const QString gguf = dir.filePath(QStringLiteral("broken.gguf"));
        QVERIFY(kvscope::test::writeFile(gguf, kvscope::test::tinyLlamaGguf().bytes().left(300)));
        const Run r =
            run({QStringLiteral("calc"), QStringLiteral("--model"), gguf, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith("kvscope: error: " + gguf.toUtf8() + ": "), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        const Run noConfig = run({QStringLiteral("calc"), QStringLiteral("--model"), dir.path()});
        QCOMPARE(noConfig.exitCode, 1);
        QVERIFY2(noConfig.err.contains("folder has no config.json"), noConfig.err.constData());
    }

    void tableOutput()
    {
        const Run r =
            run({QStringLiteral("calc"), QStringLiteral("--model"), QStringLiteral("qwen3-30b-a3b")});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY(text.contains(QLatin1String("30,532,122,624")));
        QVERIFY(text.contains(QLatin1String("3,353,032,704")));
        QVERIFY(text.contains(QLatin1String("GiB = 2^30 bytes")));
    }

    void listings()
    {
        const Run models = run({QStringLiteral("models"), QStringLiteral("--json")});
        QCOMPARE(models.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(models.out).array();
        QStringList ids;
        for (const QJsonValue v : list)
            ids << v.toObject().value(QLatin1String("id")).toString();
        for (const char *required : {"llama-3.1-8b", "llama-3.1-70b", "qwen3-30b-a3b", "mixtral-8x7b",
                                     "gemma-3-27b", "deepseek-v3", "gpt-oss-120b"})
            QVERIFY2(ids.contains(QLatin1String(required)), required);
        const Run gpus = run({QStringLiteral("gpus")});
        QCOMPARE(gpus.exitCode, 0);
        for (const char *required : {"h100-sxm", "a100-80gb", "l40s", "rtx-4090"})
            QVERIFY2(gpus.out.contains(required), required);
    }

    void help()
    {
        const Run r = run({QStringLiteral("calc"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--kv-cache-dtype"));
        QVERIFY(r.out.contains("--tensor-parallel-size"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
