// SPDX-License-Identifier: MIT
// kvscope calc --engine / --vllm-version and kvscope fit through the binary:
// JSON keys, SGLang's flag names, one-line errors, and every fit row given
// back to calc with its options serving the requests.
#include "tests/support/kvscoperun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

class TestCliEngines : public QObject
{
    Q_OBJECT

private:
    using Run = kvscope::test::Run;

    static Run run(const QStringList &arguments) { return kvscope::test::runKvscope(arguments); }

    static QJsonObject json(const QStringList &arguments)
    {
        const Run r = run(arguments + QStringList{QStringLiteral("--json")});
        if (r.exitCode != 0)
            qFatal("%s failed: %s", qPrintable(arguments.join(QLatin1Char(' '))), r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"), "ctest sets KVSCOPE_BINARY");
    }

    void versionKeysAndTheirEffect()
    {
        const QJsonObject newest = json({QStringLiteral("calc")});
        QCOMPARE(newest.value(QLatin1String("engine")).toString(), QStringLiteral("vllm"));
        QCOMPARE(newest.value(QLatin1String("engine_version")).toString(), QStringLiteral("0.29"));
        const QJsonObject v019 =
            json({QStringLiteral("calc"), QStringLiteral("--vllm-version"), QStringLiteral("0.19.1")});
        QCOMPARE(v019.value(QLatin1String("engine_version")).toString(), QStringLiteral("0.19"));
        QCOMPARE(v019.value(QLatin1String("cuda_graph_bytes")).toInteger(), 0);
        // vLLM 0.21 and later take the CUDA-graph estimate (903,872,512 B for Llama-3.1-8B on an H100 at TP
        // 1, worked out in tests/testsupport.h) out of the KV memory (0.29's Model Runner V2 too), and
        // without the flag take 0.92 of the GPU where 0.19 took 0.9 (vllm-project/vllm#38284).
        constexpr qint64 graphs = 903'872'512;
        QCOMPARE(newest.value(QLatin1String("cuda_graph_bytes")).toInteger(), graphs);
        QCOMPARE(newest.value(QLatin1String("gpu_memory_utilization")).toDouble(), 0.92);
        QCOMPARE(v019.value(QLatin1String("gpu_memory_utilization")).toDouble(), 0.9);
        const QJsonObject at090 =
            json({QStringLiteral("calc"), QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.9")});
        QCOMPARE(v019.value(QLatin1String("kv_available_bytes")).toInteger() -
                     at090.value(QLatin1String("kv_available_bytes")).toInteger(),
                 graphs);
    }

    void sglangTakesItsOwnFlagNames()
    {
        const QJsonObject o =
            json({QStringLiteral("calc"), QStringLiteral("--engine"), QStringLiteral("sglang"),
                  QStringLiteral("--tp-size"), QStringLiteral("2"), QStringLiteral("--context-length"),
                  QStringLiteral("32768"), QStringLiteral("--max-running-requests"), QStringLiteral("64"),
                  QStringLiteral("--mem-fraction-static"), QStringLiteral("0.85")});
        QCOMPARE(o.value(QLatin1String("engine")).toString(), QStringLiteral("sglang"));
        QVERIFY(o.value(QLatin1String("engine_version")).isNull());
        QCOMPARE(o.value(QLatin1String("tensor_parallel_size")).toInteger(), 2);
        QCOMPARE(o.value(QLatin1String("max_model_len")).toInteger(), 32768);
        QCOMPARE(o.value(QLatin1String("max_num_seqs")).toInteger(), 64);
        QCOMPARE(o.value(QLatin1String("mem_fraction_static")).toDouble(), 0.85);
        QVERIFY(o.value(QLatin1String("gpu_memory_utilization")).isNull());
        QVERIFY(o.value(QLatin1String("kv_capacity_tokens")).toInteger() > 0);
        // The shared names mean the same.
        const QJsonObject shared = json(
            {QStringLiteral("calc"), QStringLiteral("--engine"), QStringLiteral("sglang"),
             QStringLiteral("--tensor-parallel-size"), QStringLiteral("2"), QStringLiteral("--max-model-len"),
             QStringLiteral("32768"), QStringLiteral("--mem-fraction-static"), QStringLiteral("0.85")});
        QCOMPARE(shared.value(QLatin1String("kv_capacity_tokens")).toInteger(),
                 o.value(QLatin1String("kv_capacity_tokens")).toInteger());
        // The launch line with SGLang's flag names.
        QCOMPARE(
            o.value(QLatin1String("sglang_command")).toString(),
            QStringLiteral("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B --tp-size 2 "
                           "--context-length 32768 --max-running-requests 64 --mem-fraction-static 0.85"));
        const Run table = run({QStringLiteral("calc"), QStringLiteral("--engine"), QStringLiteral("sglang")});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.contains("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B"));
        QVERIFY(table.out.contains("max_total_num_tokens"));
        QVERIFY(table.out.contains("--mem-fraction-static"));
        // One engine, one line: no vllm_command for an SGLang plan, and vLLM's table ends with its own.
        QVERIFY(!o.contains(QLatin1String("vllm_command")));
        QVERIFY(o.value(QLatin1String("sglang_command_caveats")).isArray());
        const Run vllm =
            run({QStringLiteral("calc"), QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8")});
        QCOMPARE(vllm.exitCode, 0);
        QVERIFY(vllm.out.contains("Launch\nvllm serve meta-llama/Llama-3.1-8B --kv-cache-dtype fp8\n"));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("release before 0.10")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--vllm-version"), QStringLiteral("0.9.2")}
            << "--vllm-version: 0.9.2 is older than 0.10";
        QTest::newRow("junk release")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--vllm-version"), QStringLiteral("latest")}
            << "--vllm-version: expected a release such as 0.19 or 0.10.1, got 'latest'";
        QTest::newRow("unknown engine")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--engine"), QStringLiteral("tgi")}
            << "--engine: must be vllm or sglang, got 'tgi'";
        QTest::newRow("vLLM flag under SGLang")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--engine"), QStringLiteral("sglang"),
                           QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.9")}
            << "--gpu-memory-utilization: is a vLLM option; it does not apply with --engine sglang";
        QTest::newRow("SGLang flag under vLLM")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--mem-fraction-static"),
                           QStringLiteral("0.8")}
            << "--mem-fraction-static: is a SGLang option; it does not apply with --engine vllm";
        QTest::newRow("SGLang's window pool under vLLM")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--swa-full-tokens-ratio"),
                           QStringLiteral("0.5")}
            << "--swa-full-tokens-ratio: is a SGLang option; it does not apply with --engine vllm";
        QTest::newRow("SGLang's window pool out of range")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--engine"), QStringLiteral("sglang"),
                           QStringLiteral("--swa-full-tokens-ratio"), QStringLiteral("1.5")}
            << "--swa-full-tokens-ratio";
        QTest::newRow("version under SGLang")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--engine"), QStringLiteral("sglang"),
                           QStringLiteral("--vllm-version"), QStringLiteral("0.19")}
            << "--vllm-version: is a vLLM option";
        QTest::newRow("SGLang LoRA on a MoE")
            << QStringList{QStringLiteral("calc"),
                           QStringLiteral("--engine"),
                           QStringLiteral("sglang"),
                           QStringLiteral("--model"),
                           QStringLiteral("mixtral-8x7b"),
                           QStringLiteral("--max-loras-per-batch"),
                           QStringLiteral("4")}
            << "--max-loras 4: SGLang's LoRA pool holds Mixtral-8x7B-v0.1's experts";
        QTest::newRow("fit without concurrency")
            << QStringList{QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b")}
            << "--concurrency: not given";
        QTest::newRow("fit with zero concurrency")
            << QStringList{QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                           QStringLiteral("--concurrency"), QStringLiteral("0")}
            << "--concurrency: must be a positive integer, got '0'";
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run r = run(arguments);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.startsWith(QLatin1String("kvscope: error: ")) && err.contains(message), qPrintable(err));
    }

    void fitRowsServeWhenGivenBackToCalc()
    {
        const QJsonObject o =
            json({QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("llama-3.1-70b"),
                  QStringLiteral("--concurrency"), QStringLiteral("16"), QStringLiteral("--max-model-len"),
                  QStringLiteral("32768"), QStringLiteral("--limit"), QStringLiteral("5")});
        const QJsonArray fits = o.value(QLatin1String("fits")).toArray();
        QCOMPARE(fits.size(), 5);
        QVERIFY(o.value(QLatin1String("reason")).isNull());
        int previousGpus = 0;
        for (const QJsonValue &value : fits) {
            const QJsonObject row = value.toObject();
            const int gpus = row.value(QLatin1String("tensor_parallel_size")).toInt();
            QVERIFY(gpus >= previousGpus); // fewest GPUs first
            previousGpus = gpus;
            QVERIFY(row.value(QLatin1String("command")).toString().startsWith(QLatin1String("vllm serve ")));
            // The row's options, given to calc: its pool holds 16 requests of 32,768 tokens.
            const QJsonObject plan = json(
                {QStringLiteral("calc"), QStringLiteral("--model"), QStringLiteral("llama-3.1-70b"),
                 QStringLiteral("--gpu"), row.value(QLatin1String("gpu")).toString(),
                 QStringLiteral("--tensor-parallel-size"), QString::number(gpus),
                 QStringLiteral("--quantization"), row.value(QLatin1String("quantization")).toString(),
                 QStringLiteral("--kv-cache-dtype"), row.value(QLatin1String("kv_cache_dtype")).toString(),
                 QStringLiteral("--max-model-len"), QStringLiteral("32768"), QStringLiteral("--batch-size"),
                 QStringLiteral("16"), QStringLiteral("--seq-len"), QStringLiteral("32768")});
            QVERIFY(plan.value(QLatin1String("engine_starts")).toBool());
            QVERIFY(plan.value(QLatin1String("num_gpu_blocks")).toInteger() >=
                    16 * plan.value(QLatin1String("blocks_per_max_request")).toInteger());
            QCOMPARE(plan.value(QLatin1String("kv_capacity_tokens")).toInteger(),
                     row.value(QLatin1String("kv_capacity_tokens")).toInteger());
        }
    }

    void fitWithNothingThatFitsExitsZeroWithAReason()
    {
        const Run r =
            run({QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("deepseek-v3"),
                 QStringLiteral("--concurrency"), QStringLiteral("4"), QStringLiteral("--max-model-len"),
                 QStringLiteral("8192"), QStringLiteral("--gpu"), QStringLiteral("rtx-4090"),
                 QStringLiteral("--max-gpus"), QStringLiteral("2"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o.value(QLatin1String("fits")).toArray().isEmpty());
        QVERIFY(o.value(QLatin1String("reason")).toString().startsWith(QLatin1String("no configuration")));
        const Run text = run({QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("deepseek-v3"),
                              QStringLiteral("--concurrency"), QStringLiteral("4"), QStringLiteral("--gpu"),
                              QStringLiteral("rtx-4090"), QStringLiteral("--max-gpus"), QStringLiteral("2")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("no configuration"));
    }

    void fitTakesAutoForTheLongestLength()
    {
        // calc's `auto` spelling of the default: fit then finds the longest length per configuration,
        // as without the option.
        const QStringList query = {
            QStringLiteral("fit"),           QStringLiteral("--model"),    QStringLiteral("llama-3.1-8b"),
            QStringLiteral("--concurrency"), QStringLiteral("32"),         QStringLiteral("--gpu"),
            QStringLiteral("h100-sxm"),      QStringLiteral("--max-gpus"), QStringLiteral("1")};
        const QJsonObject longest = json(query);
        QVERIFY(!longest.value(QLatin1String("fits")).toArray().isEmpty());
        QCOMPARE(json(query + QStringList{QStringLiteral("--max-model-len"), QStringLiteral("AUTO")}),
                 longest);
        // SGLang's spelling is SGLang's, as in calc (hostileconfigs: fitRefusesLikeCalc).
    }

    void fitForSglangPrintsItsLaunchLine()
    {
        const QJsonObject o =
            json({QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                  QStringLiteral("--engine"), QStringLiteral("sglang"), QStringLiteral("--concurrency"),
                  QStringLiteral("8"), QStringLiteral("--context-length"), QStringLiteral("8192"),
                  QStringLiteral("--gpu"), QStringLiteral("l40s")});
        const QJsonArray fits = o.value(QLatin1String("fits")).toArray();
        QVERIFY(!fits.isEmpty());
        QVERIFY(fits.first()
                    .toObject()
                    .value(QLatin1String("command"))
                    .toString()
                    .startsWith(QLatin1String(
                        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B")));
    }
};

QTEST_GUILESS_MAIN(TestCliEngines)
#include "tst_cliengines.moc"
