// SPDX-License-Identifier: MIT
// Hostile config values, hybrid configs, scenario files and fit searches, end
// to end through the binary: figures that overflowed into negative caches,
// fields the architecture needs read as "absent", and messages that did not
// name the file, field or value. Every figure is worked by hand in its case.
#include "tests/sourcetree.h"
#include "tests/support/kvscoperun.h"
#include "tests/tensorfiles.h"

#include <functional>
#include <initializer_list>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

using ConfigChange = std::function<void(QJsonObject &)>;
Q_DECLARE_METATYPE(ConfigChange)

using test::Run;

namespace {

Run run(const QStringList &arguments)
{
    return test::runKvscope(arguments);
}

QJsonObject json(const QStringList &arguments)
{
    return test::runJson(arguments);
}

} // namespace

class TestHostileConfigs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    /// The config.json of tests/fuzz/named/hfconfig/`model`.json (each copied from its
    /// huggingface.co repository) with `change` applied to its text part, written out.
    QString configWith(const char *model, const ConfigChange &change)
    {
        QFile file(test::sourceTreePath(
            QStringLiteral("tests/fuzz/named/hfconfig/%1.json").arg(QLatin1String(model))));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read the %s config", model);
        QJsonObject config = QJsonDocument::fromJson(file.readAll()).object();
        if (config.value(QLatin1String("text_config")).isObject()) {
            QJsonObject text = config.value(QLatin1String("text_config")).toObject();
            change(text);
            config.insert(QStringLiteral("text_config"), text);
        } else {
            change(config);
        }
        static int written = 0;
        return test::writeFile(m_dir, QStringLiteral("config-%1.json").arg(++written),
                               QJsonDocument(config).toJson());
    }

    /// `calc --model path` fails with one line holding every one of `words`.
    static void refused(const QString &path, const QStringList &words)
    {
        refusedWith({QStringLiteral("calc"), QStringLiteral("--model"), path}, words);
    }

    /// kvscope `arguments` fails with one line holding every one of `words`.
    static void refusedWith(const QStringList &arguments, const QStringList &words)
    {
        const Run r = run(arguments);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(r.exitCode == 1, r.describe().constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY2(err.startsWith(QLatin1String("kvscope: error: ")), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        for (const QString &word : words)
            QVERIFY2(err.contains(word), qPrintable(QStringLiteral("'%1' not in: %2").arg(word, err)));
    }

    /// A scenario file for Llama-3.1-8B on an H100 with `change` applied to its root object.
    static QByteArray scenarioFile(const ConfigChange &change)
    {
        QJsonObject root{{QStringLiteral("format"), QStringLiteral("kvscope-scenario")},
                         {QStringLiteral("version"), 1},
                         {QStringLiteral("scenario"),
                          QJsonObject{{QStringLiteral("model"), QStringLiteral("llama-3.1-8b")},
                                      {QStringLiteral("gpu"), QStringLiteral("h100-sxm")}}}};
        change(root);
        return QJsonDocument(root).toJson();
    }

    static ConfigChange withGpus(const QJsonArray &gpus)
    {
        return [gpus](QJsonObject &root) { root.insert(QStringLiteral("gpus"), gpus); };
    }

    static ConfigChange inScenario(const char *key, const QJsonValue &value)
    {
        return [key, value](QJsonObject &root) {
            QJsonObject scenario = root.value(QLatin1String("scenario")).toObject();
            scenario.insert(QLatin1String(key), value);
            root.insert(QStringLiteral("scenario"), scenario);
        };
    }

    /// `export --chart memory --scenario path`: its one-line refusal.
    Run exportWith(const QString &path)
    {
        return run({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("never.png")),
                    QStringLiteral("--scenario"), path});
    }

    /// The window opening `path` offscreen (kvscope FILE --screenshot): exit 1 and its message.
    Run windowOpening(const QString &path)
    {
        test::RunOptions options;
        options.environment = {QStringLiteral("QT_QPA_PLATFORM=offscreen"),
                               QStringLiteral("XDG_CONFIG_HOME=") + m_dir.filePath(QStringLiteral("config"))};
        options.timeoutMs = 60'000;
        return test::runKvscope({path, QStringLiteral("--screenshot"),
                                 m_dir.filePath(QStringLiteral("window.png")), QStringLiteral("--size"),
                                 QStringLiteral("800x600")},
                                options);
    }

    static ConfigChange setting(const char *key, const QJsonValue &value)
    {
        return [key, value](QJsonObject &c) { c.insert(QLatin1String(key), value); };
    }

    static ConfigChange removing(const char *key)
    {
        return [key](QJsonObject &c) { c.remove(QLatin1String(key)); };
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"), "ctest sets KVSCOPE_BINARY");
        QVERIFY(m_dir.isValid());
    }

    // --- 1. figures that overflowed -------------------------------------------------

    void recurrentStateBeyondABlockIsRefused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("value");
        // Granite 4.0-H Small, mamba_d_state 7·10^8: the SSM state is 128 heads x 64 x 7·10^8
        // x 2 B = 1.1·10^13 B per layer; an attention page is 8 KV heads x 128 x 2 x 2 B =
        // 4,096 B per token, so vLLM's hybrid block would be 2.8·10^9 tokens (past 2^31 - 1;
        // it used to wrap to a negative block, a negative cache, and "fits").
        QTest::newRow("mamba_d_state") << QStringLiteral("mamba_d_state") << 700'000'000;
        // mamba_d_conv 2^31 - 1: a conv state of (2^31 - 2) x 8,448 x 2 B per layer.
        QTest::newRow("mamba_d_conv") << QStringLiteral("mamba_d_conv") << 2'147'483'647;
    }

    void recurrentStateBeyondABlockIsRefused()
    {
        QFETCH(QString, field);
        QFETCH(int, value);
        const QByteArray key = field.toLatin1();
        refused(configWith("granite-4.0-h-small", setting(key.constData(), value)),
                {field, QString::number(value)});
    }

    void indexerKeyAtTheIntLimitIsCounted()
    {
        // DeepSeek-V3.2, index_head_dim 2^31 - 1: the indexer key is head_dim FP8 bytes plus
        // one float32 scale per 128 (DeepseekV32IndexerCache): 2,147,483,647 + 16,777,215 x 4
        // = 2,214,592,507 B; with the 576-value bf16 latent (1,152 B) and 61 layers that is
        // 2,214,593,659 x 61 = 135,090,213,199 B per token (it used to wrap to -126,902,791,857).
        const QString path = configWith("deepseek-v3.2-exp", setting("index_head_dim", 2'147'483'647));
        const QJsonObject o = json({QStringLiteral("calc"), QStringLiteral("--model"), path});
        QCOMPARE(o.value(QLatin1String("kv_bytes_per_token")).toInteger(), 135'090'213'199LL);
        QCOMPARE(o.value(QLatin1String("fits")).toBool(true), false);
    }

    void headDimBeyondIntIsRefused()
    {
        // hidden_size 2^40 over one head and no head_dim: a head of 2^40 values, which used
        // to be cast to int (0).
        refused(configWith("llama-3.1-8b",
                           [](QJsonObject &c) {
                               c.insert(QStringLiteral("hidden_size"), double(std::int64_t(1) << 40));
                               c.insert(QStringLiteral("num_attention_heads"), 1);
                               c.insert(QStringLiteral("num_key_value_heads"), 1);
                               c.remove(QStringLiteral("head_dim"));
                           }),
                {QStringLiteral("hidden_size"), QStringLiteral("1099511627776")});
    }

    // --- 2. fields a hybrid architecture needs --------------------------------------

    void hybridFieldsAreRequired_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<ConfigChange>("change");
        QTest::addColumn<QStringList>("words");
        const auto row = [](const char *name, const char *model, ConfigChange change,
                            std::initializer_list<const char *> words) {
            QStringList list;
            for (const char *word : words)
                list << QString::fromUtf8(word);
            QTest::newRow(name) << QString::fromLatin1(model) << change << list;
        };
        // Qwen3-Next without its Gated DeltaNet width used to be planned as 48 attention
        // layers (98,304 B per token instead of 12 x 2 x 2 x 256 x 2 = 24,576).
        row("qwen3-next value heads missing", "qwen3-next-80b-a3b", removing("linear_num_value_heads"),
            {"linear_num_value_heads", "missing"});
        row("qwen3-next value heads null", "qwen3-next-80b-a3b",
            setting("linear_num_value_heads", QJsonValue()), {"linear_num_value_heads", "missing"});
        row("qwen3-next value heads a string", "qwen3-next-80b-a3b",
            setting("linear_num_value_heads", QStringLiteral("32")), {"linear_num_value_heads", "\"32\""});
        // Granite 4.0-H lists mamba layers; without mamba_d_head all 40 became attention.
        row("granite head missing", "granite-4.0-h-small", removing("mamba_d_head"),
            {"mamba_d_head", "missing"});
        row("granite head a string", "granite-4.0-h-small", setting("mamba_d_head", QStringLiteral("64")),
            {"mamba_d_head", "\"64\""});
        // layer_types that is not a list is refused, not ignored.
        row("granite layer_types a string", "granite-4.0-h-small",
            setting("layer_types", QStringLiteral("mamba")), {"layer_types", "\"mamba\"", "list"});
        row("qwen3-next layer_types an object", "qwen3-next-80b-a3b", setting("layer_types", QJsonObject()),
            {"layer_types", "{}", "list"});
        row("gemma 3 layer_types a string", "gemma-3-1b",
            setting("layer_types", QStringLiteral("sliding_attention")),
            {"layer_types", "\"sliding_attention\"", "list"});
        // Llama 4 no_rope_layers entries are 0 (NoPE, global) or 1 (RoPE, chunked).
        const auto noRopeWith = [](const QJsonValue &entry) -> ConfigChange {
            return [entry](QJsonObject &c) {
                QJsonArray layers;
                for (int i = 0; i < 48; ++i)
                    layers.append(i == 5 ? entry : QJsonValue(1));
                c.insert(QStringLiteral("no_rope_layers"), layers);
            };
        };
        row("llama 4 no_rope entry a string", "llama-4-scout-17b-16e", noRopeWith(QStringLiteral("0")),
            {"no_rope_layers[5]", "\"0\"", "0 or 1"});
        row("llama 4 no_rope entry an object", "llama-4-scout-17b-16e", noRopeWith(QJsonObject()),
            {"no_rope_layers[5]", "{}", "0 or 1"});
        row("llama 4 no_rope entry negative", "llama-4-scout-17b-16e", noRopeWith(-1),
            {"no_rope_layers[5]", "-1", "0 or 1"});
        // Gemma 3n: the last 10 of 30 layers reuse the cache of the last earlier layer of
        // their kind; a full-attention layer among them with none before has nothing to reuse.
        row("gemma 3n shared layer with no earlier kind", "gemma-3n-e2b",
            [](QJsonObject &c) {
                QJsonArray types;
                for (int i = 0; i < 30; ++i)
                    types.append(i == 25 ? QStringLiteral("full_attention")
                                         : QStringLiteral("sliding_attention"));
                c.insert(QStringLiteral("layer_types"), types);
            },
            {"layer_types[25]", "full_attention", "num_kv_shared_layers"});
        // sliding_window 0 with sliding layers listed: no window to slide.
        row("gemma 3n sliding window 0", "gemma-3n-e2b", setting("sliding_window", 0),
            {"sliding_window", "0", "sliding_attention"});
    }

    void hybridFieldsAreRequired()
    {
        QFETCH(QString, model);
        QFETCH(ConfigChange, change);
        QFETCH(QStringList, words);
        refused(configWith(model.toLatin1().constData(), change), words);
    }

    void qwen3NextCachesTwelveLayers()
    {
        // The real config: 12 of 48 layers are full attention, 2 KV heads x 256 x (K + V)
        // x 2 B each = 24,576 B per token.
        const QJsonObject o = json({QStringLiteral("calc"), QStringLiteral("--model"),
                                    configWith("qwen3-next-80b-a3b", [](QJsonObject &) {})});
        QCOMPARE(o.value(QLatin1String("kv_bytes_per_token")).toInteger(), 24'576);
    }

    // --- 3. scenario files ----------------------------------------------------------------

    void scenarioValueNamesFileAndField()
    {
        // The file's batch size used to be reported as the command line's --batch-size.
        const QString path = test::writeFile(m_dir, QStringLiteral("batch.kvscope"),
                                             scenarioFile(inScenario("batch-size", 0)));
        const Run r = exportWith(path);
        QVERIFY2(r.exitCode == 1, r.describe().constData());
        QCOMPARE(QString::fromUtf8(r.err).count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.contains(path.toUtf8() + ": scenario.batch-size: must be a positive integer, got '0'"),
                 r.err.constData());
        QVERIFY2(!r.err.contains("--batch-size"), r.err.constData());
    }

    void scenarioFileRefusals_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const QJsonObject h100{{QStringLiteral("name"), QStringLiteral("My GPU")},
                               {QStringLiteral("memory_bytes"), 80e9}};
        const auto gpuWith = [&](const char *key, const QJsonValue &value) {
            QJsonObject gpu = h100;
            gpu.insert(QLatin1String(key), value);
            return QJsonArray{gpu};
        };
        // Range errors of a custom GPU name the file and the entry.
        QTest::newRow("gpu bandwidth out of range")
            << scenarioFile(withGpus(gpuWith("bandwidth_gbps", 1e9)))
            << QStringLiteral(
                   "run.kvscope: gpus[0]: custom GPU: bandwidth must be a number between 0 and 1e+07 GB/s");
        // Entries are as strict as the rest of the file.
        QTest::newRow("gpu unknown field") << scenarioFile(withGpus(gpuWith("colour", QStringLiteral("red"))))
                                           << QStringLiteral("run.kvscope: gpus[0].colour: not a field");
        QTest::newRow("gpu vendor an array")
            << scenarioFile(withGpus(gpuWith("vendor", QJsonArray{QStringLiteral("NVIDIA")})))
            << QStringLiteral("run.kvscope: gpus[0].vendor: expected a string, got [\"NVIDIA\"]");
        QTest::newRow("gpu fp8_native a string")
            << scenarioFile(withGpus(gpuWith("fp8_native", QStringLiteral("yes"))))
            << QStringLiteral("run.kvscope: gpus[0].fp8_native: expected true or false, got \"yes\"");
        QJsonObject nameless = h100;
        nameless.remove(QStringLiteral("name"));
        QTest::newRow("gpu without a name")
            << scenarioFile(withGpus({nameless})) << QStringLiteral("run.kvscope: gpus[0].name: missing");
        // "My GPU" and "my gpu" both make the id custom-my-gpu: the second used to be dropped.
        QJsonObject same = h100;
        same.insert(QStringLiteral("name"), QStringLiteral("my gpu"));
        QTest::newRow("gpu names one id")
            << scenarioFile(withGpus({h100, same}))
            << QStringLiteral("run.kvscope: gpus[1].name: \"my gpu\" gives the id 'custom-my-gpu' of gpus[0] "
                              "(\"My GPU\")");
        // Five columns (the window showed four) and one (it showed the default four).
        const QJsonArray five = {QJsonObject(), QJsonObject(), QJsonObject(), QJsonObject(), QJsonObject()};
        QTest::newRow("five comparison columns")
            << scenarioFile(setting("comparison", five))
            << QStringLiteral("run.kvscope: comparison: lists 5 column(s); a comparison has 2 to 4, or none");
        QTest::newRow("one comparison column")
            << scenarioFile(setting("comparison", QJsonArray{QJsonObject()}))
            << QStringLiteral("run.kvscope: comparison: lists 1 column(s); a comparison has 2 to 4, or none");
        // QJsonDocument keeps the last of two equal keys; the file is refused instead.
        QTest::newRow("a key twice")
            << QByteArray("{\"format\": \"kvscope-scenario\", \"version\": 1, \"scenario\": {\"model\": "
                          "\"qwen3-8b\", \"gpu\": \"h100-sxm\", \"mod\\u0065l\": \"llama-3.1-8b\"}}")
            << QStringLiteral("run.kvscope: the key \"model\" is given twice in one object");
        // A NUL in an id used to reach QFileInfo, which warned on a second stderr line.
        QTest::newRow("a NUL in the model")
            << scenarioFile(inScenario("model", QStringLiteral("llama%1x").arg(QChar(0))))
            << QStringLiteral(
                   "run.kvscope: scenario.model: \"llama\\x00x\" holds the control character U+0000");
        QTest::newRow("a model id of 5,000 characters")
            << scenarioFile(inScenario("model", QString(5000, QLatin1Char('m'))))
            << QStringLiteral("run.kvscope: scenario.model: 5000 characters long; at most 4200");
    }

    void scenarioFileRefusals()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString path = test::writeFile(m_dir, QStringLiteral("run.kvscope"), bytes);
        const Run r = exportWith(path);
        QVERIFY2(r.exitCode == 1, r.describe().constData());
        QCOMPARE(r.err.count('\n'), 1);
        const QString message = QString::fromUtf8(r.err);
        expected.replace(QLatin1String("run.kvscope"), path);
        QVERIFY2(message.startsWith(QLatin1String("kvscope: error: ") + expected), qPrintable(message));
    }

    void comparisonColumnsRefusedAlikeInCliAndWindow()
    {
        const QJsonArray five = {QJsonObject(), QJsonObject(), QJsonObject(), QJsonObject(), QJsonObject()};
        const QString path =
            test::writeFile(m_dir, QStringLiteral("five.kvscope"), scenarioFile(setting("comparison", five)));
        const QByteArray expected =
            path.toUtf8() + ": comparison: lists 5 column(s); a comparison has 2 to 4, or none";
        const Run cli = exportWith(path);
        QVERIFY2(cli.exitCode == 1 && cli.err.contains(expected), cli.describe().constData());
        const Run window = windowOpening(path);
        QVERIFY2(window.exitCode == 1 && window.err.contains(expected), window.describe().constData());
    }

    void longModelIdIsRefusedQuickly()
    {
        // A 4 MB id froze the window for tens of seconds: refused on read, in well under the timeout.
        const QString path =
            test::writeFile(m_dir, QStringLiteral("long.kvscope"),
                            scenarioFile(inScenario("model", QString(4 << 20, QLatin1Char('m')))));
        const Run window = windowOpening(path);
        QVERIFY2(window.exitCode == 1 && !window.timedOut, window.describe().left(300).constData());
        QVERIFY2(window.err.contains("scenario.model: 4194304 characters long; at most 4200"),
                 window.err.left(300).constData());
    }

    void longValuesInMessagesAreCut()
    {
        // A 1 MB string where a layer count belongs: the message keeps its start and end
        // (8,192 characters at most before escaping), so no terminal or message box gets
        // the megabyte; the window laid such a message out for seconds per width it tried.
        const QString path =
            configWith("llama-3.1-8b", setting("num_hidden_layers", QString(1 << 20, QLatin1Char('m'))));
        const Run r = run({QStringLiteral("calc"), QStringLiteral("--model"), path});
        QVERIFY2(r.exitCode == 1, r.describe().left(300).constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.size() < 8300, QByteArray::number(r.err.size()).constData());
        QVERIFY2(r.err.contains("field 'num_hidden_layers' must be an integer >= 1, got \"mmm"),
                 r.err.left(300).constData());
        QVERIFY2(r.err.contains(" characters left out) … mmm"), r.err.left(300).constData());
    }

    // --- 4. shares checked as given -------------------------------------------------

    void sharesAreCheckedAsGiven_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        const QString calc = QStringLiteral("calc");
        // Six decimals used to be kept before the range check: 1.0000009 became 1.
        QTest::newRow("vllm above 1 in the seventh decimal")
            << QStringList{calc, QStringLiteral("--gpu-memory-utilization"), QStringLiteral("1.0000009")}
            << QStringLiteral("--gpu-memory-utilization: must be a number in (0, 1], got '1.0000009'");
        QTest::newRow("sglang above 1 in the seventh decimal")
            << QStringList{calc, QStringLiteral("--engine"), QStringLiteral("sglang"),
                           QStringLiteral("--mem-fraction-static"), QStringLiteral("1.0000005")}
            << QStringLiteral("--mem-fraction-static: must be a number in (0, 1], got '1.0000005'");
        // In (0, 1] but below the millionth kvscope plans in: refused for that reason.
        QTest::newRow("below a millionth")
            << QStringList{calc, QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.0000009")}
            << QStringLiteral("--gpu-memory-utilization: '0.0000009' is below 0.000001");
    }

    void sharesAreCheckedAsGiven()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        refusedWith(arguments, {expected});
    }

    void sharesWithTrailingDigitsKeepSix()
    {
        // 0.90000049 is in (0, 1]: planned as 0.9 (six decimals), budget 80 GiB x 0.9 floored.
        const QJsonObject o =
            json({QStringLiteral("calc"), QStringLiteral("--gpu"), QStringLiteral("custom:80"),
                  QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.90000049")});
        QCOMPARE(o.value(QLatin1String("budget_bytes")).toInteger(), 77'309'411'328LL);
    }

    // --- 5. fit ------------------------------------------------------------------------

    void fitSearchesEachCandidateOnce()
    {
        // One GPU, one weight precision and one KV dtype (fp8 is vLLM's alias of fp8_e4m3),
        // each named twice: one configuration, so one row (it used to be 2 x 2 x 2 = 8).
        const QJsonObject o =
            json({QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                  QStringLiteral("--concurrency"), QStringLiteral("4"), QStringLiteral("--gpu"),
                  QStringLiteral("h100-sxm"), QStringLiteral("--gpu"), QStringLiteral("h100-sxm"),
                  QStringLiteral("--quantization"), QStringLiteral("fp8"), QStringLiteral("--quantization"),
                  QStringLiteral("FP8"), QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8"),
                  QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8_e4m3")});
        QCOMPARE(o.value(QLatin1String("fits")).toArray().size(), 1);
    }

    void fitRefusesLikeCalc_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        const QStringList base = {QStringLiteral("fit"), QStringLiteral("--model"),
                                  QStringLiteral("llama-3.1-8b"), QStringLiteral("--concurrency"),
                                  QStringLiteral("4")};
        // calc refuses SGLang's spelling under vLLM; fit used to take it.
        QTest::newRow("context-length under vllm")
            << base + QStringList{QStringLiteral("--engine"), QStringLiteral("vllm"),
                                  QStringLiteral("--context-length"), QStringLiteral("4096")}
            << QStringLiteral("--context-length: is a SGLang option; it does not apply with --engine vllm");
        // 1000 used to become 64 without a word.
        QTest::newRow("max-gpus beyond the limit")
            << base + QStringList{QStringLiteral("--max-gpus"), QStringLiteral("1000")}
            << QStringLiteral("--max-gpus: 1000 is more than 64");
    }

    void fitRefusesLikeCalc()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        refusedWith(arguments, {expected});
    }

    void fitNamesTheConcurrencyThatOverflows()
    {
        // 2^63 - 1 requests: fit raises --max-num-seqs to them, and their sampler buffers
        // (x 128,256 vocabulary) pass 2^63 bytes. The reason names the option given.
        const QJsonObject o =
            json({QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                  QStringLiteral("--concurrency"), QStringLiteral("9223372036854775807"),
                  QStringLiteral("--gpu"), QStringLiteral("h100-sxm")});
        const QString reason = o.value(QLatin1String("reason")).toString();
        QVERIFY2(reason.contains(QLatin1String("--concurrency: 9223372036854775807")), qPrintable(reason));
        QVERIFY2(!reason.contains(QLatin1String("--max-num-seqs")), qPrintable(reason));
    }

    void fitSaysWhatCameClosest()
    {
        // A 1,073-byte GPU (custom:0.000001 GiB) holds no request anywhere: the reason still
        // names the closest configuration, the smallest weights (fp8) over the most GPUs. A custom
        // GPU names no compute capability, so vLLM's all-reduce + RMSNorm fusion and the NVLink
        // buffers that come with it are not planned at any TP: all eight GPUs are used.
        const QJsonObject o =
            json({QStringLiteral("fit"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                  QStringLiteral("--concurrency"), QStringLiteral("4"), QStringLiteral("--gpu"),
                  QStringLiteral("custom:0.000001")});
        QVERIFY(o.value(QLatin1String("fits")).toArray().isEmpty());
        const QString reason = o.value(QLatin1String("reason")).toString();
        QVERIFY2(
            reason.contains(QLatin1String("; the closest, 8 x Custom GPU 0.000001 GiB in 2 pipeline stages")),
            qPrintable(reason));
        QVERIFY2(reason.contains(QLatin1String("with fp8 weights")), qPrintable(reason));
        QVERIFY2(reason.contains(QLatin1String("per GPU before its KV cache")), qPrintable(reason));
    }
};

QTEST_GUILESS_MAIN(TestHostileConfigs)
#include "tst_hostileconfigs.moc"
