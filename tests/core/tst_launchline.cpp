// SPDX-License-Identifier: MIT
// The launch lines (vLLM's and SGLang's, from one place): the flags that differ from
// the engine's defaults, shell-quoted, and read back through the calc command's own
// option parsing (ScenarioOptions) into the scenario they came from.
#include "app/cli/scenariooptions.h"
#include "core/library/library.h"
#include "core/model/modelimport.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "tests/sourcetree.h"
#include "tests/testsupport.h"

#include <tuple>

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

namespace {

Scenario workload(const QString &id)
{
    Scenario s;
    s.model = preset(id);
    s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
    s.batchSize = 24;
    s.seqLen = 4096;
    return s;
}

/// `vllm serve MODEL FLAGS` read as `kvscope calc --model MODEL FLAGS`, with the
/// workload (GPU, batch, length) that vLLM takes from its requests, not its flags.
Scenario readBack(const LaunchLine &line, const Scenario &original)
{
    const QStringList &args = line.arguments;
    if (args.size() < 3 || args.at(0) != QLatin1String("vllm") || args.at(1) != QLatin1String("serve"))
        qFatal("not a vllm serve line: %s", qPrintable(line.command()));
    // A placeholder for a checkpoint stored in the format stands for the same model.
    const QString model = args.at(2).startsWith(QLatin1Char('<')) ? original.model.id : args.at(2);
    QStringList calc{QStringLiteral("kvscope"), QStringLiteral("--model"), model};
    calc << args.mid(3);
    calc << QStringLiteral("--gpu") << original.gpu.id << QStringLiteral("--batch-size")
         << QString::number(original.batchSize) << QStringLiteral("--seq-len")
         << QString::number(original.seqLen);
    QCommandLineParser parser;
    const cli::ScenarioOptions options;
    options.addTo(parser);
    if (!parser.parse(calc))
        qFatal("%s", qPrintable(parser.errorText()));
    return options.scenario(parser);
}

/// The words a POSIX shell makes of `command` (NUL-separated by printf).
QStringList shellWords(const QString &command)
{
    QProcess sh;
    sh.start(QStringLiteral("/bin/sh"),
             {QStringLiteral("-c"), QStringLiteral("set -- %1; printf '%s\\0' \"$@\"").arg(command)});
    if (!sh.waitForFinished(10'000))
        qFatal("sh did not finish");
    QStringList words = QString::fromUtf8(sh.readAllStandardOutput()).split(QChar(0));
    words.removeLast(); // after the last NUL
    return words;
}

} // namespace

class TestLaunchLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultsNeedNoFlags()
    {
        const LaunchLine line = launchLine(workload(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(line.command(), QStringLiteral("vllm serve meta-llama/Llama-3.1-8B"));
        QVERIFY(line.caveats.isEmpty());
    }

    void everyFlagThatDiffers()
    {
        Scenario s = workload(QStringLiteral("llama-3.1-70b"));
        s.tensorParallelSize = 4;
        s.dtype = WeightDtype::Float16;
        s.kvCacheDtype = KvCacheDtype::Fp8;
        s.gpuMemoryUtilizationPpm = 950'000;
        s.maxModelLen = 32768;
        s.blockSize = 32;
        s.maxNumSeqs = 256;
        s.maxNumBatchedTokens = 4096;
        s.enforceEager = true;
        const LaunchLine line = launchLine(s);
        QCOMPARE(line.command(),
                 QStringLiteral(
                     "vllm serve meta-llama/Llama-3.1-70B --tensor-parallel-size 4 --dtype float16 "
                     "--kv-cache-dtype fp8 --gpu-memory-utilization 0.95 --max-model-len 32768 "
                     "--block-size 32 --max-num-seqs 256 --max-num-batched-tokens 4096 --enforce-eager"));
        QVERIFY(line.caveats.isEmpty());
        QVERIFY(readBack(line, s) == s);
    }

    void environmentComesBeforeTheCommand()
    {
        // vLLM takes FlashInfer's MXFP4 x MXFP8 MoE kernel from its environment (vllm/envs.py), not a flag.
        Scenario s = workload(QStringLiteral("gpt-oss-120b"));
        s.gpu = resolveGpu(QStringLiteral("b200"));
        s.moeMxfp8Activations = true;
        const LaunchLine line = launchLine(s);
        QCOMPARE(line.command(),
                 QStringLiteral("VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 vllm serve openai/gpt-oss-120b"));
        QCOMPARE(line.arguments.first(), QStringLiteral("vllm"));
        QVERIFY(line.caveats.isEmpty());
        QCOMPARE(shellWords(line.command()), line.environment + line.arguments);
    }

    void roundTrips_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("quantization"); // "" = auto
        QTest::addColumn<QString>("kvCacheDtype");
        QTest::addColumn<QString>("ssmDtype");
        QTest::addColumn<int>("tp");
        QTest::newRow("llama awq") << "llama-3.1-8b"
                                   << "awq"
                                   << "auto"
                                   << "auto" << 1;
        QTest::newRow("llama bitsandbytes") << "llama-3.1-8b"
                                            << "bitsandbytes-nf4"
                                            << "fp8_e5m2"
                                            << "auto" << 2;
        QTest::newRow("llama fp8 weights, bf16 cache") << "llama-3.1-8b"
                                                       << "fp8"
                                                       << "bfloat16"
                                                       << "auto" << 1;
        QTest::newRow("deepseek-v3 its own fp8 blocks") << "deepseek-v3"
                                                        << "fp8"
                                                        << "fp8"
                                                        << "auto" << 8;
        QTest::newRow("gpt-oss mxfp4") << "gpt-oss-120b"
                                       << "mxfp4"
                                       << "auto"
                                       << "auto" << 2;
        QTest::newRow("qwen3-next float32 state") << "qwen3-next-80b-a3b"
                                                  << ""
                                                  << "auto"
                                                  << "float32" << 4;
        QTest::newRow("gemma-3 fp8 cache") << "gemma-3-27b"
                                           << ""
                                           << "fp8_e4m3"
                                           << "auto" << 2;
    }

    void roundTrips()
    {
        QFETCH(QString, id);
        QFETCH(QString, quantization);
        QFETCH(QString, kvCacheDtype);
        QFETCH(QString, ssmDtype);
        QFETCH(int, tp);
        Scenario s = workload(id);
        if (!quantization.isEmpty())
            s.quantization = parseQuantizationChoice(quantization, s.model.checkpointQuantization);
        s.kvCacheDtype = parseKvCacheDtype(kvCacheDtype);
        s.mambaSsmCacheDtype = parseWeightDtype(ssmDtype);
        s.tensorParallelSize = tp;
        const LaunchLine line = launchLine(s);
        const Scenario back = readBack(line, s);
        QVERIFY2(back == s, qPrintable(line.command()));
        // What a shell makes of the command is the argument list.
        QCOMPARE(shellWords(line.command()), line.arguments);
    }

    void sglangLinesReadBackWithSglangsFlags()
    {
        // SGLang's server_args names (python/sglang/srt/server_args.py): --model-path, --tp-size,
        // --context-length, --max-running-requests, --mem-fraction-static; FP8 caches by format.
        for (const auto &[id, tp, kv, memFraction] :
             {std::tuple{"llama-3.1-8b", 1, KvCacheDtype::Auto, 0},
              std::tuple{"llama-3.1-70b", 4, KvCacheDtype::Fp8E4M3, 880'000},
              std::tuple{"qwen3-235b-a22b", 8, KvCacheDtype::Fp8E5M2, 0}}) {
            Scenario s = workload(QLatin1String(id));
            s.engine = Engine::Sglang;
            s.tensorParallelSize = tp;
            s.kvCacheDtype = kv;
            s.memFractionStaticPpm = memFraction;
            s.maxModelLen = 16384;
            s.maxNumSeqs = 48;
            const LaunchLine line = launchLine(s);
            const QStringList &args = line.arguments;
            QCOMPARE(args.mid(0, 4),
                     (QStringList{QStringLiteral("python"), QStringLiteral("-m"),
                                  QStringLiteral("sglang.launch_server"), QStringLiteral("--model-path")}));
            QVERIFY(line.caveats.isEmpty());
            QCOMPARE(shellWords(line.command()), args);
            // Read back as kvscope calc --engine sglang --model MODEL FLAGS (calc takes SGLang's names).
            QStringList calc{QStringLiteral("kvscope"), QStringLiteral("--engine"), QStringLiteral("sglang"),
                             QStringLiteral("--model"), args.at(4)};
            calc << args.mid(5) << QStringLiteral("--gpu") << s.gpu.id << QStringLiteral("--batch-size")
                 << QString::number(s.batchSize) << QStringLiteral("--seq-len") << QString::number(s.seqLen);
            QCommandLineParser parser;
            const cli::ScenarioOptions options;
            options.addTo(parser);
            QVERIFY2(parser.parse(calc), qPrintable(parser.errorText()));
            QVERIFY2(options.scenario(parser) == s, qPrintable(line.command()));
        }
        // What SGLang has no flag for is said, not dropped silently.
        Scenario s = workload(QStringLiteral("llama-3.1-8b"));
        s.engine = Engine::Sglang;
        s.kvCacheDtype = KvCacheDtype::Float32;
        s.quantization = defaultSpecFor(QuantMethod::Int8);
        const LaunchLine line = launchLine(s);
        QCOMPARE(line.command(),
                 QStringLiteral("python -m sglang.launch_server --model-path '<int8 checkpoint "
                                "of meta-llama/Llama-3.1-8B>'"));
        QCOMPARE(line.caveats.size(), 3);
        QVERIFY(line.caveats.at(0).contains(
            QLatin1String("replace the placeholder with a checkpoint of the model stored as int8")));
        QVERIFY(line.caveats.at(1).contains(QLatin1String("--quantization int8")));
        QVERIFY(line.caveats.at(2).contains(QLatin1String("--kv-cache-dtype has no float32")));
    }

    void vllmSpellings()
    {
        Scenario s = workload(QStringLiteral("llama-3.1-8b"));
        s.quantization = defaultSpecFor(QuantMethod::BitsAndBytesNf4);
        QVERIFY(launchLine(s).command().endsWith(QLatin1String(" --quantization bitsandbytes")));
        s.quantization = defaultSpecFor(QuantMethod::CompressedTensors);
        QVERIFY(launchLine(s).command().endsWith(QLatin1String(" --quantization compressed-tensors")));
    }

    void caveatsForWhatNoFlagSays()
    {
        Scenario s = workload(QStringLiteral("llama-3.1-8b"));
        // AWQ from an unquantized checkpoint: the flag alone does not quantize, so the line names
        // no 16-bit repository with it, but a placeholder for an AWQ checkpoint of the model.
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        QCOMPARE(
            launchLine(s).command(),
            QStringLiteral("vllm serve '<awq checkpoint of meta-llama/Llama-3.1-8B>' --quantization awq"));
        QCOMPARE(launchLine(s).caveats.size(), 1);
        QVERIFY(launchLine(s).caveats.first().contains(
            QLatin1String("replace the placeholder with a checkpoint of the model stored as awq")));
        s.engine = Engine::Sglang;
        QVERIFY(launchLine(s).command().startsWith(QLatin1String(
            "python -m sglang.launch_server --model-path '<awq checkpoint of meta-llama/Llama-3.1-8B>'")));
        s.engine = Engine::Vllm;
        // fp8 quantizes while loading: nothing to add.
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        QVERIFY(launchLine(s).caveats.isEmpty());
        // But only a 16-bit checkpoint: vLLM refuses an AWQ checkpoint with --quantization fp8 ("Quantization
        // method specified in the model config (awq) does not match the quantization method specified in the
        // `quantization` argument (fp8)", ModelConfig._verify_quantization, vllm/config/model.py).
        Scenario stored = s;
        stored.model.checkpointQuantization = defaultSpecFor(QuantMethod::Awq);
        const LaunchLine fromAwq = launchLine(stored);
        QVERIFY2(fromAwq.command().startsWith(QLatin1String("vllm serve '<fp8 checkpoint of ")),
                 qPrintable(fromAwq.command()));
        QVERIFY2(fromAwq.caveats.size() == 1 &&
                     fromAwq.caveats.first().contains(QLatin1String("stored as awq")),
                 qPrintable(fromAwq.caveats.join(QLatin1Char('\n'))));
        // A group size of 64 is the checkpoint's, not a flag's.
        QuantizationSpec awq64 = defaultSpecFor(QuantMethod::Awq);
        awq64.groupSize = 64;
        s.quantization = awq64;
        QCOMPARE(launchLine(s).caveats.size(), 2);
        // vLLM has no int8 method and no float32 KV cache under bfloat16.
        s.quantization = defaultSpecFor(QuantMethod::Int8);
        s.kvCacheDtype = KvCacheDtype::Float32;
        const LaunchLine line = launchLine(s);
        QCOMPARE(line.command(), QStringLiteral("vllm serve '<int8 checkpoint of meta-llama/Llama-3.1-8B>'"));
        QCOMPARE(line.caveats.size(), 3);
    }

    void modelFolderWithAwkwardName()
    {
        // An imported config.json stands for its folder, quoted for the shell.
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("it's a model"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(
            QFile::copy(test::sourceTreePath(QStringLiteral("tests/data/configs/qwen3-next-80b-a3b.json")),
                        folder + QStringLiteral("/config.json")));
        Scenario s = workload(QStringLiteral("llama-3.1-8b"));
        s.model = importModel(folder + QStringLiteral("/config.json")).model;
        const LaunchLine line = launchLine(s);
        QCOMPARE(line.arguments.at(2), QDir(folder).absolutePath());
        QVERIFY(line.command().contains(QLatin1String("'\\''s a model")));
        QCOMPARE(shellWords(line.command()), line.arguments);
        QVERIFY(line.caveats.isEmpty());
    }

    void shellQuoting()
    {
        QCOMPARE(shellQuote(QStringLiteral("meta-llama/Llama-3.1-8B")),
                 QStringLiteral("meta-llama/Llama-3.1-8B"));
        QCOMPARE(shellQuote(QStringLiteral("a b")), QStringLiteral("'a b'"));
        QCOMPARE(shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
        QCOMPARE(shellQuote(QString()), QStringLiteral("''"));
        // A control character a terminal would act on, shown and read back by the shell as that
        // byte: $'\x1b' (bash, zsh, ksh; POSIX.1-2024's dollar-single-quotes).
        QCOMPARE(shellQuote(QStringLiteral("a\x1b[2J\nb")), QStringLiteral("'a'$'\\x1b''[2J'$'\\x0a''b'"));
        QCOMPARE(shellQuote(QStringLiteral("\x07")), QStringLiteral("$'\\x07'"));
    }
};

QTEST_GUILESS_MAIN(TestLaunchLine)
#include "tst_launchline.moc"
