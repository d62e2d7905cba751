// SPDX-License-Identifier: MIT
// Wrong figures and wrong messages found by feeding kvscope hostile values,
// end to end through the binary. Every error must be one line naming the
// option, key or field and the value exactly as the user gave it; every
// figure is worked by hand in its case.
#include "tests/sourcetree.h"
#include "tests/support/kvscoperun.h"
#include "tests/tensorfiles.h"

#include <functional>
#include <initializer_list>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

class TestHostileValues : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    using Run = test::Run;

    static Run run(const QStringList &arguments) { return test::runKvscope(arguments); }

    static QJsonObject json(const QStringList &arguments) { return test::runJson(arguments); }

    /// The window, offscreen, with `settings` as its settings file (INI bytes):
    /// what it printed on stderr before its screenshot.
    QByteArray windowStartingWith(const QByteArray &settings)
    {
        const QTemporaryDir config;
        QDir(config.path()).mkpath(QStringLiteral("kvscope"));
        test::writeFile(config, QStringLiteral("kvscope/kvscope.conf"), settings);
        test::RunOptions options;
        options.environment = {QStringLiteral("XDG_CONFIG_HOME=") + config.path(),
                               QStringLiteral("QT_QPA_PLATFORM=offscreen")};
        options.timeoutMs = 120'000;
        const test::Run run =
            test::runKvscope({QStringLiteral("--screenshot"), m_dir.filePath(QStringLiteral("window.png")),
                              QStringLiteral("--size"), QStringLiteral("800x600")},
                             options);
        if (run.exitCode != 0)
            qFatal("the window did not start and stop: %s", run.describe().constData());
        return run.err;
    }

    /// DeepSeek-V3's config.json (tests/fuzz/named/hfconfig, from
    /// huggingface.co/deepseek-ai/DeepSeek-V3) with `change` applied, written out.
    QString deepseekV3With(const std::function<void(QJsonObject &)> &change, const QString &name)
    {
        QFile file(test::sourceTreePath(QStringLiteral("tests/fuzz/named/hfconfig/deepseek-v3.json")));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read the DeepSeek-V3 config");
        QJsonObject config = QJsonDocument::fromJson(file.readAll()).object();
        change(config);
        return test::writeFile(m_dir, name, QJsonDocument(config).toJson());
    }

    /// A rows x cols float32 .npy whose every value is 3e38 (0x7f61b1e6), written out.
    QString constantTensor(int rows, int cols, const QString &name)
    {
        const QByteArray values = QByteArray::fromRawData("\xe6\xb1\x61\x7f", 4).repeated(rows * cols);
        const QByteArray dict =
            QStringLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (%1, %2), }")
                .arg(rows)
                .arg(cols)
                .toLatin1();
        return test::writeFile(m_dir, name, test::npyBytes(dict, values));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"), "ctest sets KVSCOPE_BINARY");
        QVERIFY(m_dir.isValid());
    }

    void cosineOfAConstantHugeTensor()
    {
        // A constant 3e38 tensor under int4: AutoAWQ's scale max(max - min, 1e-5) / 15
        // clips every value to w' = 1e-5. w and w' are constant and positive, so their
        // cosine is 1 (and the error is the whole signal: SQNR 10·log10(1) = 0 dB).
        const QString path = constantTensor(2, 128, QStringLiteral("constant.npy"));
        const QJsonObject o = json({QStringLiteral("quant"), QStringLiteral("--input"), path,
                                    QStringLiteral("--scheme"), QStringLiteral("int4")});
        QCOMPARE(o.value(QLatin1String("clipped")).toInteger(), 256);
        QVERIFY2(std::fabs(o.value(QLatin1String("cosine_similarity")).toDouble() - 1.0) < 1e-12,
                 qPrintable(QString::number(o.value(QLatin1String("cosine_similarity")).toDouble())));
    }

    void errorsNameTheValueGiven_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("forbidden");
        const auto row = [](const char *name, std::initializer_list<const char *> words, const char *expected,
                            const char *forbidden) {
            QStringList arguments;
            for (const char *word : words)
                arguments << QString::fromUtf8(word);
            QTest::newRow(name) << arguments << QString::fromUtf8(expected) << QString::fromUtf8(forbidden);
        };
        // Values beyond int used to be clamped to 2^20 before validation.
        row("block size beyond int", {"calc", "--block-size", "2147483648"},
            "--block-size: 2147483648 is larger than any vLLM block size (at most 4096)", "1048576");
        row("tensor parallel beyond 2^20", {"calc", "--tensor-parallel-size", "99999999"},
            "--tensor-parallel-size: 99999999 does not divide num_attention_heads 32", "1048576");
        // A 19-digit batch is an integer; the figures it makes are what overflow.
        row("batch of 10^18", {"calc", "--batch-size", "1000000000000000000"},
            "--batch-size 1000000000000000000", "must be a positive integer");
        row("batch beyond 2^63", {"calc", "--batch-size", "99999999999999999999"},
            "--batch-size: 99999999999999999999 is larger than 9223372036854775807", "must be a positive");
        row("quant group beyond int", {"quant", "--group-size", "99999999999"},
            "--group-size: 99999999999 is larger than 2147483647", "is not an integer");
        row("quant scheme group beyond int", {"quant", "--scheme", "int4-g99999999999"},
            "--scheme: 'int4-g99999999999' has group size 99999999999, larger than 2147483647",
            "must be a positive");
        row("calc group beyond int", {"calc", "--quantization", "awq", "--group-size", "99999999999"},
            "--group-size: 99999999999 is larger than 2147483647", "must be a positive");
        // The activation buffers grow with --max-num-seqs, not with --batch-size.
        row("max num seqs overflow", {"calc", "--max-num-seqs", "999999999999999999"},
            "--max-num-seqs: 999999999999999999", "--batch-size");
        row("max num batched tokens overflow", {"calc", "--max-num-batched-tokens", "999999999999999999"},
            "--max-num-batched-tokens: 999999999999999999", "--batch-size");
        // Standard deviations whose samples float32 cannot hold.
        row("std underflows float32", {"quant", "--std", "1e-300", "--rows", "8", "--cols", "8"},
            "--std: '1e-300' is below", "no error");
        row("std overflows float32", {"quant", "--std", "1e308", "--rows", "8", "--cols", "8"},
            "--std: '1e308' is above", "tensor");
    }

    void errorsNameTheValueGiven()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        QFETCH(QString, forbidden);
        const Run r = run(arguments);
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(err.startsWith(QLatin1String("kvscope: error: ")), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.contains(expected), qPrintable(err));
        QVERIFY2(!err.contains(forbidden), qPrintable(err));
    }

    void customGpuUpToOnePebibyte()
    {
        // The budget is memory x 0.92 (vLLM 0.21's default), floored: 10,000 GiB x 0.92 =
        // 9,878,424,780,800 B exactly, and 1 PiB (the documented limit) x 0.92 =
        // 1,035,827,914,295,214.08 -> ...214.
        const QJsonObject large =
            json({QStringLiteral("calc"), QStringLiteral("--gpu"), QStringLiteral("custom:10000")});
        QCOMPARE(large.value(QLatin1String("gpu_memory_bytes")).toInteger(), 10'000LL << 30);
        QCOMPARE(large.value(QLatin1String("budget_bytes")).toInteger(), 9'878'424'780'800LL);
        const QJsonObject pebibyte =
            json({QStringLiteral("calc"), QStringLiteral("--gpu"), QStringLiteral("custom:1048576")});
        QCOMPARE(pebibyte.value(QLatin1String("gpu_memory_bytes")).toInteger(), 1LL << 50);
        QCOMPARE(pebibyte.value(QLatin1String("budget_bytes")).toInteger(), 1'035'827'914'295'214LL);
        const Run beyond =
            run({QStringLiteral("calc"), QStringLiteral("--gpu"), QStringLiteral("custom:1048577")});
        QCOMPARE(beyond.exitCode, 1);
        QVERIFY2(beyond.err.contains("--gpu: custom GPU: memory must be between 1 byte and 1 PiB"),
                 beyond.err.constData());
    }

    void deepseekWithoutLatentRank()
    {
        // DeepSeek-V3 caches 61 layers x (512 + 64) x 2 B = 70,272 B per token (MLA). A rank
        // of 0 or none at all is no multi-head attention model: refused, naming the field.
        const QString zero =
            deepseekV3With([](QJsonObject &c) { c.insert(QStringLiteral("kv_lora_rank"), 0); },
                           QStringLiteral("rank0.json"));
        Run r = run({QStringLiteral("calc"), QStringLiteral("--model"), zero});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("field 'kv_lora_rank' must be an integer >= 1, got 0"), r.err.constData());
        const QString missing = deepseekV3With(
            [](QJsonObject &c) { c.remove(QStringLiteral("kv_lora_rank")); }, QStringLiteral("norank.json"));
        r = run({QStringLiteral("calc"), QStringLiteral("--model"), missing});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing field 'kv_lora_rank'") && r.err.contains("deepseek_v3"),
                 r.err.constData());
        const QJsonObject real =
            json({QStringLiteral("calc"), QStringLiteral("--model"), QStringLiteral("deepseek-v3")});
        QCOMPARE(real.value(QLatin1String("kv_bytes_per_token")).toInteger(), 70'272);
    }

    void settingsBeyondIntNameTheirValue()
    {
        // blockSize 2^31 is an integer (too large for a block): the report shows it as saved.
        const QByteArray err = windowStartingWith("[scenario]\nblockSize=2147483648\n");
        QVERIFY2(err.contains("2147483648"), err.constData());
        QVERIFY2(!err.contains("-2147483648"), err.constData());
        QVERIFY2(!err.contains("not a non-negative integer"), err.constData());
        QVERIFY2(err.contains("larger than any vLLM block size"), err.constData());
    }

    void binarySettingsFileIsReported()
    {
        // Bytes no settings file holds: the window starts with defaults and says why.
        QByteArray junk;
        for (int i = 0; i < 512; ++i)
            junk += char((i * 151 + 7) % 256);
        const QByteArray err = windowStartingWith(junk);
        QVERIFY2(err.contains("kvscope: settings: settings file"), err.constData());
        QVERIFY2(err.contains("not a settings file"), err.constData());
    }

    void parserMessagesEscapeControlBytes()
    {
        // An .npy header key holding a NUL and an escape byte: the message shows them as \x00 and \x1b.
        const QString path = test::writeFile(
            m_dir, QStringLiteral("nul.npy"),
            test::npyBytes(QByteArray("{'de\0sc\x1b': '<f4', 'fortran_order': False, 'shape': (1, 1), }", 60),
                           test::floatBytes({1.0f})));
        const Run r = run({QStringLiteral("quant"), QStringLiteral("--input"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("header has an unknown key 'de\\x00sc\\x1b'"), r.err.constData());
        QVERIFY2(!r.err.contains('\0'), r.err.constData());
        QVERIFY2(!r.err.contains('\x1b'), r.err.constData());
    }

    void textTablesShowNoInfinityNorNegativeZero()
    {
        // fp16 overflows 3e38 to inf: MSE and max |e| are unbounded, the cosine undefined.
        // The JSON says null; the table says "—", never inf, nan or -0.
        const QString path = constantTensor(1, 4, QStringLiteral("huge.npy"));
        const QJsonObject o = json({QStringLiteral("quant"), QStringLiteral("--input"), path,
                                    QStringLiteral("--scheme"), QStringLiteral("fp16")});
        QVERIFY(o.value(QLatin1String("mse")).isNull());
        QVERIFY(o.value(QLatin1String("cosine_similarity")).isNull());
        const Run r = run({QStringLiteral("quant"), QStringLiteral("--input"), path,
                           QStringLiteral("--scheme"), QStringLiteral("fp16")});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        const QString row = text.section(QLatin1Char('\n'), 3, 3);
        QVERIFY2(row.startsWith(QLatin1String("fp16")), qPrintable(text));
        for (const char *word : {"inf", "nan", "-0.0"})
            QVERIFY2(!row.contains(QLatin1String(word)), qPrintable(row));
        QCOMPARE(row.count(QStringLiteral("—")), 4); // MSE, SQNR, max |e|, cosine
    }
};

QTEST_GUILESS_MAIN(TestHostileValues)
#include "tst_hostilevalues.moc"
