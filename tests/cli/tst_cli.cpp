// SPDX-License-Identifier: MIT
// The kvscope binary's headless commands: JSON keys and values, exit codes,
// and one-line errors with no partial output.
#include "tests/filewriters.h"
#include "tests/sourcetree.h"
#include "tests/support/kvscoperun.h"

#include <cmath>
#include <utility>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
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

    void recurrentStateKeys()
    {
        // Qwen3-Next (tests/data/configs): 36 Gated DeltaNet layers x (3 x 8192 x 2 + 32 x 128 x 128 x 2)
        // = 36 x 1,097,728 B of state per sequence; 12 attention layers x 2,048 B per token; vLLM's
        // block 16 x cdiv(1,097,728, 16 x 2,048) = 544 (HybridAttentionMambaModelConfig).
        const QJsonObject o = calcJson({QStringLiteral("--model"), QStringLiteral("qwen3-next-80b-a3b"),
                                        QStringLiteral("--gpu"), QStringLiteral("h200")});
        QCOMPARE(o.value(QLatin1String("state_bytes_per_sequence")).toInteger(), 36 * 1'097'728LL);
        QCOMPARE(o.value(QLatin1String("kv_bytes_per_token")).toInteger(), 12 * 2'048LL);
        QCOMPARE(o.value(QLatin1String("block_size")).toInteger(), 544);
        QCOMPARE(o.value(QLatin1String("requested_block_size")).toInteger(), 16);
        QCOMPARE(o.value(QLatin1String("kv_recurrent_layers")).toInteger(), 36);
        // --mamba-ssm-cache-dtype float32 doubles the SSM part: 36 x (49,152 + 2,097,152), block 1,056.
        const QJsonObject f32 = calcJson(
            {QStringLiteral("--model"), QStringLiteral("qwen3-next-80b-a3b"), QStringLiteral("--gpu"),
             QStringLiteral("h200"), QStringLiteral("--mamba-ssm-cache-dtype"), QStringLiteral("float32")});
        QCOMPARE(f32.value(QLatin1String("state_bytes_per_sequence")).toInteger(), 36 * 2'146'304LL);
        QCOMPARE(f32.value(QLatin1String("block_size")).toInteger(), 1'056);
        QCOMPARE(f32.value(QLatin1String("mamba_ssm_cache_dtype")).toString(), QStringLiteral("float32"));
        // Pure attention: no state, the block as requested.
        const QJsonObject llama = calcJson({QStringLiteral("--model"), QStringLiteral("llama-3.1-8b")});
        QCOMPARE(llama.value(QLatin1String("state_bytes_per_sequence")).toInteger(), 0);
        QCOMPARE(llama.value(QLatin1String("block_size")).toInteger(), 16);
    }

    void llamaHeadlineFigures()
    {
        // Llama-3.1-8B's headline figures from its config.json (the llama-3.1-8b preset of
        // resources/presets/models.json, from huggingface.co/meta-llama/Llama-3.1-8B), by hand:
        // 32 x 2 x 8 x 128 x 2 B per token and 8,030,261,248 parameters (HF's "8.03B").
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
                     o.value(QLatin1String("cuda_graph_bytes")).toInteger() -
                     o.value(QLatin1String("kv_cache_bytes")).toInteger());
    }

    void weightsAreTheirPartsAsTheEngineCountsThem()
    {
        // Qwen2.5-72B at TP 4 under vLLM: weights_bytes is its components, the rotary table and the caching
        // allocator's whole blocks vLLM's "Model loading took" counts: each layer's 231 MiB gate_up_proj in a
        // 232 MiB block and its 115.5 MiB down_proj in 116, 80 x 1.5 MiB (core/plan/loadreplay.h).
        const QJsonObject o = calcJson({QStringLiteral("--model"), QStringLiteral("qwen2.5-72b"),
                                        QStringLiteral("--tensor-parallel-size"), QStringLiteral("4")});
        QCOMPARE(o.value(QLatin1String("weights_load_slack_bytes")).toInteger(), 80LL * 3 * (1 << 20) / 2);
        qint64 parts = 0;
        const QJsonObject components = o.value(QLatin1String("weights_bytes_by_component")).toObject();
        for (auto it = components.begin(); it != components.end(); ++it)
            parts += it.value().toInteger();
        for (const char *key :
             {"weights_buffers_bytes", "weights_load_slack_bytes", "weights_mxfp4_scale_copy_bytes",
              "weights_unpacked_zero_point_bytes", "lora_bytes", "eplb_bytes"})
            parts += o.value(QLatin1String(key)).toInteger();
        QCOMPARE(o.value(QLatin1String("weights_bytes")).toInteger(), parts);

        // AWQ on an H100 under vLLM 0.29: Machete's zero points in float16, 1.5 B a group of 128 beyond the
        // packed 4 bits. Llama-3.1-8B's groups: 32 layers x (q and o 4,096 x 32, k and v 1,024 x 32,
        // gate and up 14,336 x 32, down 4,096 x 112).
        const QJsonObject awq = calcJson({QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                                          QStringLiteral("--quantization"), QStringLiteral("awq")});
        const qint64 groups = 32LL * (2 * 4096 * 32 + 2 * 1024 * 32 + 2 * 14336 * 32 + 4096 * 112);
        QCOMPARE(awq.value(QLatin1String("weights_unpacked_zero_point_bytes")).toInteger(), groups * 3 / 2);
    }

    void theAllReduceFusionCarriesNvlinksOverhead()
    {
        // vLLM fuses each all-reduce with the next RMSNorm at TP > 1 on an H100 from 0.16
        // (vllm-project/vllm#34299): the runtime overhead is NVLink's 2,120 MiB. Under 0.15, and on one
        // GPU, it is one GPU's 133 MiB (the profiles before 0.19).
        const auto calcAt = [](const char *tp, const char *version) {
            return calcJson({QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                             QStringLiteral("--tensor-parallel-size"), QLatin1String(tp),
                             QStringLiteral("--vllm-version"), QLatin1String(version)});
        };
        const QJsonObject fused = calcAt("2", "0.16");
        QVERIFY(fused.value(QLatin1String("all_reduce_rms_norm_fused")).toBool());
        QCOMPARE(fused.value(QLatin1String("overhead_bytes")).toInteger(), 2120LL << 20);
        for (const QJsonObject &o : {calcAt("2", "0.15"), calcAt("1", "0.16")}) {
            QVERIFY(!o.value(QLatin1String("all_reduce_rms_norm_fused")).toBool());
            QCOMPARE(o.value(QLatin1String("overhead_bytes")).toInteger(), 133LL << 20);
        }
    }

    void imagesAreTokensOfEachRequest()
    {
        // 32 users each sending two 1024x1024 images to Qwen2.5-VL-7B: 1,000 text + 2 x 1,371 tokens
        // (tst_imagetokens by hand), 234 blocks of 16 x 57,344 B each; vLLM's encoder budget is the
        // largest image's 16,384 outputs, one image profiled, 16,384 x 3,584 x 2 B held (tst_imageworkload).
        const QJsonObject o =
            calcJson({QStringLiteral("--model"), QStringLiteral("qwen2.5-vl-7b"),
                      QStringLiteral("--batch-size"), QStringLiteral("32"), QStringLiteral("--seq-len"),
                      QStringLiteral("1000"), QStringLiteral("--images-per-request"), QStringLiteral("2"),
                      QStringLiteral("--image-size"), QStringLiteral("1024x1024")});
        QCOMPARE(o.value(QLatin1String("seq_len")).toInteger(), 3742);
        QCOMPARE(o.value(QLatin1String("images_per_request")).toInteger(), 2);
        QCOMPARE(o.value(QLatin1String("image_tokens_per_image")).toInteger(), 1371);
        QCOMPARE(o.value(QLatin1String("image_tokens_per_sequence")).toInteger(), 2742);
        QCOMPARE(o.value(QLatin1String("image_embeddings_per_sequence")).toInteger(), 2738);
        QCOMPARE(o.value(QLatin1String("kv_cache_bytes")).toInteger(), 32LL * 234 * 16 * 57'344);
        QCOMPARE(o.value(QLatin1String("encoder_cache_size")).toInteger(), 16384);
        QCOMPARE(o.value(QLatin1String("encoder_profile_items")).toInteger(), 1);
        QCOMPARE(o.value(QLatin1String("encoder_outputs_bytes")).toInteger(), 16384LL * 3584 * 2);
        // Its 65,536 patches of 1,176 values, and the tower's block MLP over them (tst_imageworkload).
        QCOMPARE(o.value(QLatin1String("encoder_pixel_bytes")).toInteger(), 65536LL * 1176 * 2);
        QCOMPARE(o.value(QLatin1String("encoder_tower_peak_bytes")).toInteger(), 65536LL * 18800 * 2);
        // fit takes the images too, within each request's --max-model-len tokens: the requests it holds
        // are those of text alone.
        const auto fitRequests = [&](const QStringList &extra) {
            const Run fit = run(QStringList{QStringLiteral("fit"), QStringLiteral("--model"),
                                            QStringLiteral("qwen2.5-vl-7b"), QStringLiteral("--concurrency"),
                                            QStringLiteral("32"), QStringLiteral("--max-model-len"),
                                            QStringLiteral("8192"), QStringLiteral("--gpu"),
                                            QStringLiteral("h100-sxm"), QStringLiteral("--json")} +
                                extra);
            if (fit.exitCode != 0)
                qFatal("fit failed: %s", fit.err.constData());
            return QJsonDocument::fromJson(fit.out)
                .object()
                .value(u"fits")
                .toArray()
                .first()
                .toObject()
                .value(u"max_concurrency");
        };
        QCOMPARE(fitRequests({QStringLiteral("--images-per-request"), QStringLiteral("2")}), fitRequests({}));
        // A text model takes no images: one line naming the option.
        const Run text =
            run({QStringLiteral("calc"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                 QStringLiteral("--images-per-request"), QStringLiteral("1")});
        QCOMPARE(text.exitCode, 1);
        QVERIFY(text.err.contains("--images-per-request: Llama-3.1-8B takes no images"));
    }

    void fixesKey()
    {
        // Llama-3.1-70B in BF16 on one H100: 131.4 GiB of weights, a 71.27 GiB budget. At 4 GPUs
        // (32.9 GiB of weights, 10 GiB of cache each) the default batch fits as it is.
        const QJsonObject o = calcJson({QStringLiteral("--model"), QStringLiteral("llama-3.1-70b")});
        QCOMPARE(o.value(QLatin1String("fits")).toBool(), false);
        const QJsonArray fixes = o.value(QLatin1String("fixes")).toArray();
        QVERIFY(!fixes.isEmpty());
        bool fourGpus = false;
        for (const QJsonValue &value : fixes) {
            const QJsonObject fix = value.toObject();
            QCOMPARE(fix.value(QLatin1String("fits")).toBool(), true);
            QVERIFY(fix.value(QLatin1String("headroom_bytes")).toInteger() >= 0);
            const QJsonObject change = fix.value(QLatin1String("change")).toObject();
            QVERIFY(!change.isEmpty());
            if (change == QJsonObject{{QStringLiteral("--tensor-parallel-size"), 4}})
                fourGpus = true;
        }
        QVERIFY(fourGpus);
        // The proposal, given back to calc, fits with the headroom it announced.
        for (const QJsonValue &value : fixes) {
            const QJsonObject fix = value.toObject();
            QStringList arguments{QStringLiteral("--model"), QStringLiteral("llama-3.1-70b")};
            const QJsonObject change = fix.value(QLatin1String("change")).toObject();
            for (auto it = change.begin(); it != change.end(); ++it)
                arguments << it.key()
                          << (it.value().isString() ? it.value().toString()
                                                    : QString::number(it.value().toInteger()));
            const QJsonObject again = calcJson(arguments);
            QVERIFY2(again.value(QLatin1String("fits")).toBool(),
                     qPrintable(arguments.join(QLatin1Char(' '))));
            QCOMPARE(again.value(QLatin1String("headroom_bytes")).toInteger(),
                     fix.value(QLatin1String("headroom_bytes")).toInteger());
        }
        // A scenario that fits says how far it could go.
        const QJsonArray limits = calcJson({QStringLiteral("--model"), QStringLiteral("llama-3.1-8b")})
                                      .value(QLatin1String("fixes"))
                                      .toArray();
        QCOMPARE(limits.size(), 2);
        QCOMPARE(limits.first().toObject().value(QLatin1String("limit")).toBool(), true);
    }

    void notesStayEnglishUnderAChineseLocale()
    {
        // The window translates the core's notes; the command line installs no translator.
        kvscope::test::RunOptions chinese;
        chinese.environment = {QStringLiteral("LANG=zh_CN.UTF-8"), QStringLiteral("LANGUAGE=zh_CN"),
                               QStringLiteral("LC_ALL=zh_CN.UTF-8")};
        const kvscope::test::Run calc = kvscope::test::runKvscope(
            {QStringLiteral("calc"), QStringLiteral("--json"), QStringLiteral("--model"),
             QStringLiteral("llama-3.1-8b"), QStringLiteral("--gpu"), QStringLiteral("t4"),
             QStringLiteral("--dtype"), QStringLiteral("bfloat16"), QStringLiteral("--kv-cache-dtype"),
             QStringLiteral("fp8"), QStringLiteral("--max-model-len"), QStringLiteral("4096"),
             QStringLiteral("--seq-len"), QStringLiteral("8192"), QStringLiteral("--batch-size"),
             QStringLiteral("1")},
            chinese);
        QVERIFY2(calc.exitCode == 0, calc.describe().constData());
        const QJsonObject o = QJsonDocument::fromJson(calc.out).object();
        const QString notes =
            o.value(QLatin1String("notes")).toVariant().toStringList().join(QLatin1Char('\n'));
        // Two notes: vLLM refuses bfloat16 on a T4 (compute capability 7.5), and a length it rejects.
        QVERIFY2(notes.contains(QLatin1String("vLLM refuses --dtype bfloat16 on the NVIDIA T4 16GB")),
                 qPrintable(notes));
        QVERIFY2(notes.contains(QLatin1String("exceeds --max-model-len 4,096")), qPrintable(notes));
    }

    void aServerThatDoesNotStartHasNoCapacityOrSpeed()
    {
        // vLLM refuses an NVFP4 cache on an H100 before sizing anything: calc prints "—" for the
        // capacity, speed or host tier and says why; its JSON has them null (a B200 starts and has them).
        const QStringList nvfp4{QStringLiteral("calc"),
                                QStringLiteral("--model"),
                                QStringLiteral("llama-3.1-8b"),
                                QStringLiteral("--kv-cache-dtype"),
                                QStringLiteral("nvfp4"),
                                QStringLiteral("--kv-offloading-size"),
                                QStringLiteral("64")};
        const kvscope::test::Run text = kvscope::test::runKvscope(
            nvfp4 + QStringList{QStringLiteral("--gpu"), QStringLiteral("h100-sxm")});
        QVERIFY2(text.exitCode == 0, text.describe().constData());
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(!out.contains(QLatin1String("GPU KV cache size")) &&
                     out.contains(QRegularExpression(QStringLiteral("decode tokens/s +—"))) &&
                     !out.contains(QLatin1String("maximum concurrency")),
                 qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("the engine does not start: see the notes")), qPrintable(out));
        QVERIFY2(!out.contains(QLatin1String("kept in CPU memory")), qPrintable(out)); // nor a host tier
        // Nor notes on how the speed it does not show is priced (an NVFP4 cache's read cost):
        // those explain figures, and a start that fails has none.
        const QLatin1String speedNote("speed: no measurement calibrates reading an NVFP4 KV cache");
        QVERIFY2(!out.contains(speedNote), qPrintable(out));
        for (const QString &gpu : {QStringLiteral("h100-sxm"), QStringLiteral("b200")}) {
            const kvscope::test::Run calc = kvscope::test::runKvscope(
                nvfp4 + QStringList{QStringLiteral("--gpu"), gpu, QStringLiteral("--json")});
            QVERIFY2(calc.exitCode == 0, calc.describe().constData());
            const QJsonObject o = QJsonDocument::fromJson(calc.out).object();
            const bool starts = o.value(QLatin1String("engine_starts")).toBool();
            QCOMPARE(starts, gpu == QLatin1String("b200"));
            for (const char *key : {"kv_capacity_tokens", "max_concurrency", "decode_tokens_per_second",
                                    "cpu_kv_capacity_tokens"})
                QVERIFY2(o.value(QLatin1String(key)).isNull() != starts, key);
            const QString notes = o.value(QLatin1String("notes")).toVariant().toStringList().join(u'\n');
            QVERIFY2(notes.contains(speedNote) == starts, qPrintable(notes));
        }
    }

    void versionNamesTheRevision()
    {
        // "kvscope 0.1.0 (git 1a2b3c4d5e6f)", "-dirty" for a modified checkout,
        // "unknown" outside a git checkout (cmake/GitRevision.cmake).
        const Run r = run({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        static const QRegularExpression line(
            QStringLiteral("^kvscope \\d+\\.\\d+\\.\\d+ \\(git ([0-9a-f]{7,}(-dirty)?|unknown)\\)\\n$"));
        QVERIFY2(line.match(QString::fromUtf8(r.out)).hasMatch(), r.out.constData());
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

    void autoSpellsTheDefaultCounts()
    {
        // "auto" is the default of the optional counts: Llama-3.1-8B's context is 131,072 tokens
        // (config.json max_position_embeddings), the prompt the whole --seq-len.
        const QJsonObject plan = calcJson({QStringLiteral("--max-model-len"), QStringLiteral("auto"),
                                           QStringLiteral("--prompt-len"), QStringLiteral("AUTO"),
                                           QStringLiteral("--seq-len"), QStringLiteral("4096")});
        QCOMPARE(plan.value(QLatin1String("max_model_len")).toInteger(), 131'072);
        QCOMPARE(plan.value(QLatin1String("prompt_len")).toInteger(), 4096);
        QCOMPARE(plan, calcJson({QStringLiteral("--seq-len"), QStringLiteral("4096")}));
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

    void speedFigures()
    {
        // Llama-3.1-8B on one H100, batch 16 x 8192 tokens: decode reads 15.0 GB of weights
        // and 16 x 1.07 GB of KV cache per step (memory-bound); an 8192-token prefill is compute-bound.
        const QJsonObject o = calcJson({});
        QCOMPARE(o.value(QLatin1String("decode_bound")).toString(), QStringLiteral("memory"));
        QCOMPARE(o.value(QLatin1String("prefill_bound")).toString(), QStringLiteral("compute"));
        QCOMPARE(o.value(QLatin1String("prompt_len")).toInteger(), 8192);
        QCOMPARE(o.value(QLatin1String("gpu_generation")).toString(), QStringLiteral("hopper"));
        QCOMPARE(o.value(QLatin1String("weight_kernel")).toString(), QStringLiteral("16-bit"));
        QCOMPARE(o.value(QLatin1String("compute_format")).toString(), QStringLiteral("bf16"));
        const double kv = 16 * 8192.0 * 131'072;
        const double bytes = 15'009'980'416.0 + kv + 16 * 1'561'600.0;
        QCOMPARE(o.value(QLatin1String("decode_bytes_per_step")).toDouble(), bytes);
        // The step's terms (docs/methodology.md, "Speed"): weights and activations at the
        // weight-read efficiency, the KV cache at the KV-read one, the engine's per-step and
        // per-sequence costs; the terms add up to the step.
        const QJsonObject terms = o.value(QLatin1String("decode_step_breakdown_seconds")).toObject();
        const double bandwidth = o.value(QLatin1String("bandwidth_efficiency")).toDouble();
        const double kvBandwidth = o.value(QLatin1String("kv_bandwidth_efficiency")).toDouble();
        QVERIFY(bandwidth > 0.5 && bandwidth <= 0.95);
        QVERIFY(std::abs(terms.value(QLatin1String("weights")).toDouble() -
                         (bytes - kv) / 3350e9 / bandwidth) < 1e-6);
        QVERIFY(std::abs(terms.value(QLatin1String("kv_cache")).toDouble() - kv / 3350e9 / kvBandwidth) <
                1e-6);
        QCOMPARE(terms.value(QLatin1String("compute")).toDouble(), 0.0);
        QCOMPARE(terms.value(QLatin1String("request_overhead")).toDouble(), 0.0);
        QCOMPARE(terms.value(QLatin1String("vision_encoder")).toDouble(), 0.0);    // no images
        QCOMPARE(terms.value(QLatin1String("all_to_all")).toDouble(), 0.0);        // no data-parallel ranks
        QCOMPARE(terms.value(QLatin1String("pipeline_transfer")).toDouble(), 0.0); // no pipeline stages
        QCOMPARE(terms.value(QLatin1String("pipeline_wait")).toDouble(), 0.0);
        double sum = 0;
        for (const QJsonValue &term : terms)
            sum += term.toDouble();
        QCOMPARE(terms.size(), 14);
        const double step = o.value(QLatin1String("decode_step_seconds")).toDouble();
        QVERIFY(std::abs(sum - step) < 1e-8);
        QVERIFY(step > bytes / 3350e9); // slower than the bare roofline
        QVERIFY(std::abs(o.value(QLatin1String("decode_tokens_per_second")).toDouble() - 16 / step) < 1e-2);
        QVERIFY(std::abs(o.value(QLatin1String("decode_tokens_per_second_per_sequence")).toDouble() -
                         1 / step) < 1e-3);
        QVERIFY(std::abs(o.value(QLatin1String("decode_tokens_per_second_ideal")).toDouble() -
                         16 / (bytes / 3350e9)) < 1e-2);
        // 8192 prompt tokens: 133.4 ms of bf16 FLOPs at the whole peak (tst_speed), no
        // efficiency above 0.95.
        QVERIFY(o.value(QLatin1String("prefill_seconds")).toDouble() > 0.1334 / 0.95);

        // Both efficiencies 1: the pass is the ideal roofline, the engine's costs stay;
        // --prompt-len moves prefill only.
        const QJsonObject ideal = calcJson({QStringLiteral("--bandwidth-efficiency"), QStringLiteral("1"),
                                            QStringLiteral("--compute-efficiency"), QStringLiteral("1"),
                                            QStringLiteral("--prompt-len"), QStringLiteral("1024")});
        const QJsonObject idealTerms = ideal.value(QLatin1String("decode_step_breakdown_seconds")).toObject();
        const double overheads = idealTerms.value(QLatin1String("step_overhead")).toDouble() +
                                 idealTerms.value(QLatin1String("sequence_overhead")).toDouble();
        QVERIFY(std::abs(ideal.value(QLatin1String("decode_step_seconds")).toDouble() - overheads -
                         ideal.value(QLatin1String("decode_step_seconds_ideal")).toDouble()) < 1e-8);
        QCOMPARE(ideal.value(QLatin1String("bandwidth_efficiency")).toDouble(), 1.0);
        QCOMPARE(ideal.value(QLatin1String("prompt_len")).toInteger(), 1024);
        QVERIFY(ideal.value(QLatin1String("prefill_seconds")).toDouble() <
                o.value(QLatin1String("prefill_seconds")).toDouble() / 4);

        // FP8 weights on an A100 multiply at the 16-bit peak (weight-only); on an H100 in FP8.
        const QJsonObject a100 = calcJson({QStringLiteral("--gpu"), QStringLiteral("a100-80gb"),
                                           QStringLiteral("--quantization"), QStringLiteral("fp8")});
        QCOMPARE(a100.value(QLatin1String("compute_format")).toString(), QStringLiteral("bf16"));
        QCOMPARE(a100.value(QLatin1String("compute_weight_only")).toBool(), true);
        const QJsonObject h100 = calcJson({QStringLiteral("--quantization"), QStringLiteral("fp8")});
        QCOMPARE(h100.value(QLatin1String("compute_format")).toString(), QStringLiteral("fp8"));
        // A dense model has no MoE kernel; gpt-oss's MXFP4 experts run FlashInfer's TensorRT-LLM FP4 MoE on a
        // B200 and the fused MoE (with Marlin's MXFP4 kernel) on an H100.
        QVERIFY(h100.value(QLatin1String("moe_kernel")).isNull());
        const auto moeKernelOn = [&](const char *gpu) {
            return calcJson({QStringLiteral("--model"), QStringLiteral("gpt-oss-120b"),
                             QStringLiteral("--gpu"), QLatin1String(gpu)})
                .value(QLatin1String("moe_kernel"))
                .toString();
        };
        QCOMPARE(moeKernelOn("b200"), QStringLiteral("trtllm fp4"));
        QCOMPARE(moeKernelOn("h100-sxm"), QStringLiteral("fused moe"));

        const Run text = run({QStringLiteral("calc")});
        QVERIFY2(text.out.contains("Speed per replica (1 GPU;"), text.out.constData());
        // Under tensor parallelism the tokens/s are the replica's, all its GPUs together, not one GPU's.
        const Run tp2 =
            run({QStringLiteral("calc"), QStringLiteral("--tensor-parallel-size"), QStringLiteral("2")});
        QVERIFY2(tp2.out.contains("Speed per replica (2 GPUs in tensor parallel;"), tp2.out.constData());
        QVERIFY(!tp2.out.contains("Speed per GPU"));
        QVERIFY(text.out.contains("decode tokens/s"));
        QVERIFY(text.out.contains("memory-bound"));
        // Where the step's time goes, term by term.
        QVERIFY2(text.out.contains("  Weights read"), text.out.constData());
        QVERIFY(text.out.contains("  KV cache read"));
        QVERIFY(text.out.contains("  Engine, per step"));
        QVERIFY(!text.out.contains("  Tensor-parallel all-reduce")); // TP 1: no term

        // Data-parallel ranks: the deployment's speed, a step of each rank at once, with the MoE
        // layers' token exchange as a term of its own; the deployment's cache.
        const Run ranks = run({QStringLiteral("calc"), QStringLiteral("--model"),
                               QStringLiteral("qwen3-30b-a3b"), QStringLiteral("--data-parallel-size"),
                               QStringLiteral("2"), QStringLiteral("--enable-expert-parallel")});
        QCOMPARE(ranks.exitCode, 0);
        QVERIFY2(
            ranks.out.contains("Speed per replica (2 GPUs: 2 data-parallel ranks of 1, a step each at once;"),
            ranks.out.constData());
        QVERIFY(ranks.out.contains("  Token exchange between ranks"));
        QVERIFY(ranks.out.contains("; 2 ranks of 8 stepping at once"));
        // Pipeline stages: the step passes them in turn, its handover a row of its own, the batches in flight
        // said.
        const Run stages =
            run({QStringLiteral("calc"), QStringLiteral("--pipeline-parallel-size"), QStringLiteral("2")});
        QVERIFY2(stages.out.contains("Speed per replica (2 GPUs: 2 pipeline stages of 1; step model"),
                 stages.out.constData());
        QVERIFY(stages.out.contains("  Pipeline stage handover"));
        QVERIFY(stages.out.contains("; 2 batches of 8 in flight, one a stage"));
        QVERIFY(ranks.out.contains("deployment KV cache"));
        QVERIFY(ranks.out.contains("--data-parallel-size 2 --enable-expert-parallel"));
    }

    void calibrationFromMeasuredItl()
    {
        // Llama-3.1-8B on an H100, 8 sequences of 2048 tokens measured at 9 ms per token:
        // the calibrated step of that scenario is the measurement.
        const QStringList scenario{QStringLiteral("--batch-size"), QStringLiteral("8"),
                                   QStringLiteral("--seq-len"), QStringLiteral("2048")};
        const QJsonObject public_ = calcJson(scenario);
        QVERIFY(public_.value(QLatin1String("speed_calibration")).isNull());
        const QJsonObject o =
            calcJson(scenario + QStringList{QStringLiteral("--measured-itl-ms"), QStringLiteral("9")});
        QVERIFY(std::abs(o.value(QLatin1String("decode_step_seconds")).toDouble() - 0.009) < 1e-8);
        const QJsonObject c = o.value(QLatin1String("speed_calibration")).toObject();
        QCOMPARE(c.value(QLatin1String("measured_itl_ms")).toDouble(), 9.0);
        QCOMPARE(c.value(QLatin1String("predicted_itl_ms_before")).toDouble(),
                 std::round(public_.value(QLatin1String("decode_step_seconds")).toDouble() * 1e6) / 1e3);
        const double scale = c.value(QLatin1String("scale")).toDouble();
        QVERIFY(scale > 0.5 && scale < 1); // slower than the public calibration: 7.5 ms
        QCOMPARE(c.value(QLatin1String("weight_bandwidth_efficiency")).toDouble(),
                 o.value(QLatin1String("bandwidth_efficiency")).toDouble());
        QVERIFY(std::abs(c.value(QLatin1String("weight_bandwidth_efficiency")).toDouble() -
                         public_.value(QLatin1String("bandwidth_efficiency")).toDouble() * scale) < 1e-4);
        QVERIFY(std::abs(c.value(QLatin1String("kv_bandwidth_efficiency")).toDouble() -
                         public_.value(QLatin1String("kv_bandwidth_efficiency")).toDouble() * scale) < 1e-4);
        QVERIFY2(c.value(QLatin1String("source"))
                     .toString()
                     .startsWith(QLatin1String("your measurement: 9.00 ms at concurrency 8, llama-3.1-8b, ")),
                 qPrintable(c.value(QLatin1String("source")).toString()));
        // The table says where the efficiency came from.
        const Run text = run(
            QStringList{QStringLiteral("calc"), QStringLiteral("--measured-itl-ms"), QStringLiteral("9")} +
            scenario);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("calibrated from your measurement: 9.00 ms"), text.out.constData());
    }

    void calibrationFromBenchResult()
    {
        // tests/data/vllm-bench-result.json: 200 prompts of 1024 tokens, 256 out each, 16 at a
        // time, median ITL 8.137 ms. Its context is 1024 + 256 / 2 = 1152 tokens; planned at
        // 16 x 1152 the calibrated step is the benchmark's median.
        const QString file =
            kvscope::test::sourceTreePath(QStringLiteral("tests/data/vllm-bench-result.json"));
        const Run r = run({QStringLiteral("calc"), QStringLiteral("--json"), QStringLiteral("--bench-result"),
                           file, QStringLiteral("--batch-size"), QStringLiteral("16"),
                           QStringLiteral("--seq-len"), QStringLiteral("1152")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData()); // its model_id is a repo of the preset: no warning
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(std::abs(o.value(QLatin1String("decode_step_seconds")).toDouble() - 0.008137103961780667) <
                1e-8);
        const QJsonObject c = o.value(QLatin1String("speed_calibration")).toObject();
        QCOMPARE(c.value(QLatin1String("measured_itl_ms")).toDouble(), 8.137103961780667);
        QVERIFY(
            c.value(QLatin1String("source"))
                .toString()
                .startsWith(QLatin1String("your measurement: 8.14 ms at concurrency 16, llama-3.1-8b, ")));

        // Another model's benchmark: calibrated, with a warning line naming both.
        QTemporaryDir dir;
        QFile source(file);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray bytes = source.readAll();
        const QString other = dir.filePath(QStringLiteral("qwen.json"));
        QVERIFY(kvscope::test::writeFile(
            other, QByteArray(bytes).replace("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-8B")));
        const Run warned =
            run({QStringLiteral("calc"), QStringLiteral("--json"), QStringLiteral("--bench-result"), other});
        QCOMPARE(warned.exitCode, 0);
        QCOMPARE(QString::fromUtf8(warned.err),
                 QStringLiteral("kvscope: warning: %1: model_id 'Qwen/Qwen3-8B' is not the scenario's model "
                                "(llama-3.1-8b); the calibration uses its figures anyway\n")
                     .arg(other));

        // A result without its median ITL: one line naming the file and the field.
        const QString missing = dir.filePath(QStringLiteral("no-itl.json"));
        QVERIFY(kvscope::test::writeFile(missing,
                                         QByteArray(bytes).replace("\"median_itl_ms\"", "\"median_itl\"")));
        const Run refused = run({QStringLiteral("calc"), QStringLiteral("--bench-result"), missing});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY(refused.out.isEmpty());
        QCOMPARE(QString::fromUtf8(refused.err),
                 QStringLiteral("kvscope: error: %1: median_itl_ms: missing; not a result `vllm bench serve` "
                                "saved?\n")
                     .arg(missing));
        // max_concurrency of the wrong type.
        const QString wrongType = dir.filePath(QStringLiteral("text.json"));
        QVERIFY(kvscope::test::writeFile(
            wrongType, QByteArray(bytes).replace("\"max_concurrency\": 16", "\"max_concurrency\": \"16\"")));
        const Run typed = run({QStringLiteral("calc"), QStringLiteral("--bench-result"), wrongType});
        QCOMPARE(typed.exitCode, 1);
        QVERIFY2(typed.err.contains(": max_concurrency: expected a number, got '16'"), typed.err.constData());
    }

    void speedWithoutGpuFigures()
    {
        // A custom GPU given only memory: speed keys are null and a note says why.
        const QJsonObject o = calcJson({QStringLiteral("--gpu"), QStringLiteral("custom:80")});
        for (const char *key :
             {"decode_step_seconds", "decode_tokens_per_second", "decode_tokens_per_second_per_sequence",
              "decode_tokens_per_second_ideal", "prefill_seconds", "decode_bound", "prefill_bound"}) {
            QVERIFY2(o.contains(QLatin1String(key)), key);
            QVERIFY2(o.value(QLatin1String(key)).isNull(), key);
        }
        QVERIFY(o.value(QLatin1String("fits")).toBool());
        bool noted = false;
        for (const QJsonValue note : o.value(QLatin1String("notes")).toArray())
            noted = noted || note.toString().contains(QLatin1String("memory bandwidth"));
        QVERIFY(noted);
        const Run text = run({QStringLiteral("calc"), QStringLiteral("--gpu"), QStringLiteral("custom:80")});
        QCOMPARE(text.exitCode, 0);
        const QStringList lines = QString::fromUtf8(text.out).split(QLatin1Char('\n'));
        const QStringList decode = lines.filter(QStringLiteral("decode tokens/s"));
        QCOMPARE(decode.size(), 1);
        QVERIFY2(decode.first().contains(QChar(0x2014)), qPrintable(decode.first())); // em dash
    }

    void modelSearch()
    {
        const Run r = run({QStringLiteral("models"), QStringLiteral("--search"), QStringLiteral("gemma 3"),
                           QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(list.size(), 6); // gemma-3-1b, -4b, -12b, -27b and gemma-3n-e2b, -e4b
        for (const QJsonValue v : list)
            QVERIFY(
                v.toObject().value(QLatin1String("family")).toString().startsWith(QLatin1String("Gemma 3")));
        const Run moe = run({QStringLiteral("models"), QStringLiteral("qwen3"), QStringLiteral("moe")});
        QVERIFY(moe.out.contains("qwen3-30b-a3b") && moe.out.contains("qwen3-235b-a22b"));
        QVERIFY(!moe.out.contains("qwen3-8b"));
        const Run all = run({QStringLiteral("models"), QStringLiteral("--json")});
        QVERIFY(QJsonDocument::fromJson(all.out).array().size() >= 30);
    }

    void modelListColumnsLineUp()
    {
        // Every row: its id, then its parameter count and KV bytes under their headings, however long the
        // id (qwen3-next-80b-a3b, 18 characters, once ran into its parameter count).
        const Run text = run({QStringLiteral("models")});
        QCOMPARE(text.exitCode, 0);
        QStringList ids;
        for (const QJsonValue v :
             QJsonDocument::fromJson(run({QStringLiteral("models"), QStringLiteral("--json")}).out).array())
            ids << v.toObject().value(QLatin1String("id")).toString();
        QVERIFY(ids.contains(QStringLiteral("qwen3-next-80b-a3b")));
        const QStringList lines = QString::fromUtf8(text.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const qsizetype paramsAt = lines.first().indexOf(QLatin1String("params"));
        const qsizetype kvAt = lines.first().indexOf(QLatin1String("KV B/token"));
        QVERIFY(paramsAt > 0 && kvAt > paramsAt);
        QStringList rowIds;
        for (const QString &line : lines.mid(1)) {
            if (!line.startsWith(QLatin1String("  ")))
                continue; // a family heading
            rowIds << line.mid(2).section(QLatin1Char(' '), 0, 0);
            for (const qsizetype at : {paramsAt, kvAt})
                QVERIFY2(line.at(at - 1) == QLatin1Char(' ') && line.at(at).isDigit(), qPrintable(line));
        }
        QCOMPARE(rowIds.size(), ids.size());
        for (const QString &id : std::as_const(ids))
            QVERIFY2(rowIds.contains(id), qPrintable(id));
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
        QTest::newRow("bandwidth efficiency above 1")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--bandwidth-efficiency"),
                           QStringLiteral("1.5")}
            << 1 << "--bandwidth-efficiency: must be a number in (0, 1], got '1.5'";
        QTest::newRow("compute efficiency not a number")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--compute-efficiency"),
                           QStringLiteral("fast")}
            << 1 << "--compute-efficiency: must be a number in (0, 1], got 'fast'";
        QTest::newRow("zero compute efficiency")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--compute-efficiency"),
                           QStringLiteral("0")}
            << 1 << "--compute-efficiency: must be a number in (0, 1], got '0'";
        QTest::newRow("zero prompt") << QStringList{QStringLiteral("calc"), QStringLiteral("--prompt-len"),
                                                    QStringLiteral("0")}
                                     << 1 << "--prompt-len: must be a positive integer, got '0'";
        QTest::newRow("prompt longer than the sequence")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--prompt-len"), QStringLiteral("9000"),
                           QStringLiteral("--json")}
            << 1 << "--prompt-len: 9000 exceeds --seq-len 8192";
        QTest::newRow("SSM state dtype")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--mamba-ssm-cache-dtype"),
                           QStringLiteral("int4")}
            << 1 << "--mamba-ssm-cache-dtype";
        QTest::newRow("measured ITL not a number")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--measured-itl-ms"),
                           QStringLiteral("fast")}
            << 1 << "--measured-itl-ms: must be a positive number of milliseconds, got 'fast'";
        QTest::newRow("measured ITL faster than the datasheet")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--measured-itl-ms"), QStringLiteral("3")}
            << 1
            << "--measured-itl-ms: 3.00 ms at concurrency 16 is faster than NVIDIA H100 SXM 80GB's 3,350 "
               "GB/s";
        QTest::newRow("two measurements")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--measured-itl-ms"), QStringLiteral("9"),
                           QStringLiteral("--bench-result"), QStringLiteral("/nonexistent.json")}
            << 1 << "--measured-itl-ms and --bench-result each give a measurement; give one";
        QTest::newRow("bench result missing")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--bench-result"),
                           QStringLiteral("/nonexistent/bench.json")}
            << 1 << "/nonexistent/bench.json";
        QTest::newRow("bench result a device")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--bench-result"),
                           QStringLiteral("/dev/zero")}
            << 1 << "/dev/zero: not a regular file (a character device)";
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

    // The Llama-3.1-8B log of tests/data/vllm-logs.json (id 1, its source cited there) as a file.
    void explainLog()
    {
        QFile data(kvscope::test::sourceTreePath(QStringLiteral("tests/data/vllm-logs.json")));
        QVERIFY(data.open(QIODevice::ReadOnly));
        const QJsonArray logs = QJsonDocument::fromJson(data.readAll()).array();
        QStringList lines;
        for (const QJsonValue &line : logs.first()[QLatin1String("verbatim")].toArray())
            lines << line.toString();
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("vllm.log"));
        QVERIFY(kvscope::test::writeFile(log, lines.join(QLatin1Char('\n')).toUtf8()));

        const Run json = run({QStringLiteral("explain-log"), log, QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o[QLatin1String("kv_capacity_tokens")][QLatin1String("logged")].toInteger(), 476016);
        QCOMPARE(o[QLatin1String("inferred")][QLatin1String("gpu")].toString(), QStringLiteral("h100-sxm"));
        QCOMPARE(o[QLatin1String("inferred")][QLatin1String("max_model_len")].toInteger(), 8192);
        // The options plan the same scenario with calc.
        QStringList options;
        for (const QJsonValue &v : o[QLatin1String("options")].toArray())
            options << v.toString();
        QCOMPARE(calcJson(options)[QLatin1String("kv_capacity_tokens")].toInteger(),
                 o[QLatin1String("kv_capacity_tokens")][QLatin1String("predicted")].toInteger());

        // --memory-from-log: the same deployment planned with the log's measured weights (14.99 GiB,
        // 2^30 B each), activation peak, non-torch memory and CUDA-graph estimate, at another
        // utilization too; another deployment is refused, naming the option that differs.
        const QJsonObject measured =
            calcJson(options + QStringList{QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.9"),
                                           QStringLiteral("--memory-from-log"), log});
        QCOMPARE(measured[QLatin1String("weights_bytes")].toInteger(), std::llround(14.99 * 1073741824.0));
        QCOMPARE(measured[QLatin1String("activation_bytes")].toInteger(), std::llround(1.89 * 1073741824.0));
        QVERIFY(
            measured[QLatin1String("memory_measured_from")].toString().startsWith(QLatin1String("vllm.log")));
        const Run other = run(QStringList{QStringLiteral("calc")} + options +
                              QStringList{QStringLiteral("--tensor-parallel-size"), QStringLiteral("2"),
                                          QStringLiteral("--memory-from-log"), log});
        QCOMPARE(other.exitCode, 1);
        QVERIFY2(
            other.err.contains("--memory-from-log: the log ran another deployment: --tensor-parallel-size 1 "
                               "(the scenario: 2)"),
            other.err.constData());

        const Run table = run({QStringLiteral("explain-log"), log});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("KV cache tokens") && table.out.contains("476,016"),
                 table.out.constData());
        QVERIFY(table.out.contains("Why the KV cache has this size"));
        QVERIFY(table.out.contains("--kv-cache-dtype fp8"));
        // The excerpt prints no version line; the run was vLLM 0.19.0 (the data file), which
        // --vllm-version gives: the pool is then the validation's 475,904 tokens.
        const Run versioned = run(
            {QStringLiteral("explain-log"), log, QStringLiteral("--vllm-version"), QStringLiteral("0.19")});
        QCOMPARE(versioned.exitCode, 0);
        QVERIFY2(versioned.out.contains("475,904") &&
                     versioned.out.contains("vLLM 0.19: given with --vllm-version"),
                 versioned.out.constData());

        // No file, a missing file, a log naming no model: one line, exit codes as elsewhere.
        QCOMPARE(run({QStringLiteral("explain-log")}).exitCode, 2);
        const QString missing = dir.filePath(QStringLiteral("none.log"));
        const Run absent = run({QStringLiteral("explain-log"), missing});
        QCOMPARE(absent.exitCode, 1);
        QVERIFY(absent.out.isEmpty());
        QVERIFY2(absent.err.startsWith("kvscope: error: ") && absent.err.contains(missing.toUtf8()),
                 absent.err.constData());
        const QString anonymous = dir.filePath(QStringLiteral("anonymous.log"));
        QVERIFY(kvscope::test::writeFile(anonymous, "Available KV cache memory: 3.00 GiB\n"));
        const Run refused = run({QStringLiteral("explain-log"), anonymous});
        QCOMPARE(refused.exitCode, 1);
        QCOMPARE(
            QString::fromUtf8(refused.err),
            QStringLiteral("kvscope: error: %1: the log names no model (no 'non-default args', 'vllm serve' "
                           "or engine config line); give --model\n")
                .arg(anonymous));

        // A model name with a NUL byte in it (a damaged log; the fuzzer's inputs) is no path to look up: the
        // one error line only, without Qt's "Broken filename passed to function" before it.
        const QString damaged = dir.filePath(QStringLiteral("damaged.log"));
        QVERIFY(kvscope::test::writeFile(damaged, QByteArray("INFO non-default args: {'model': 'Qwen/Qwen3") +
                                                      QByteArray(1, '\0') +
                                                      QByteArray("-8B'}\nModel loading took 15.27 GiB\n")));
        const Run broken = run({QStringLiteral("explain-log"), damaged});
        QCOMPARE(broken.exitCode, 1);
        QVERIFY2(broken.err.startsWith("kvscope: error: ") && broken.err.count('\n') == 1,
                 broken.err.constData());
    }

    void help()
    {
        const Run r = run({QStringLiteral("calc"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--kv-cache-dtype"));
        QVERIFY(r.out.contains("--tensor-parallel-size"));
        for (const char *option : {"--prompt-len", "--bandwidth-efficiency", "--compute-efficiency"})
            QVERIFY2(r.out.contains(option), option);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
