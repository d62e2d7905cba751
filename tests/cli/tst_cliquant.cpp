// SPDX-License-Identifier: MIT
// kvscope quant end to end: figures from a safetensors file the test writes
// (worked by hand), JSON shapes, the CSV histogram, and one clear error line
// with nothing on stdout for every kind of bad file or option.
#include "tests/support/kvscoperun.h"
#include "tests/tensorfiles.h"

#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

class TestCliQuant : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    using Run = test::Run;

    static Run run(const QStringList &arguments)
    {
        return test::runKvscope(QStringList{QStringLiteral("quant")} + arguments);
    }

    static QJsonDocument json(const QStringList &arguments)
    {
        const Run r = run(arguments + QStringList{QStringLiteral("--json")});
        if (r.exitCode != 0)
            qFatal("quant failed: %s", r.err.constData());
        return QJsonDocument::fromJson(r.out);
    }

    /// A checkpoint with "w" = [[0, 0.5, 1.5, 3]] (F32), a BF16 matrix, a
    /// 1-D vector and an I8 tensor.
    QString checkpoint()
    {
        const QByteArray header = R"({
            "w": {"dtype": "F32", "shape": [1, 4], "data_offsets": [0, 16]},
            "b": {"dtype": "BF16", "shape": [2, 2], "data_offsets": [16, 24]},
            "bias": {"dtype": "F32", "shape": [2], "data_offsets": [24, 32]},
            "q": {"dtype": "I8", "shape": [2, 2], "data_offsets": [32, 36]}})";
        const QByteArray data = test::floatBytes({0.0f, 0.5f, 1.5f, 3.0f}) +
                                test::halfBytes({0x3F80, 0x4049, 0xC2F7, 0x0000}) + test::floatBytes({1, 2}) +
                                QByteArray(4, '\x01');
        return test::writeFile(m_dir, QStringLiteral("model.safetensors"),
                               test::safetensorsBytes(header, data));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"), "ctest sets KVSCOPE_BINARY");
    }

    void figuresFromSafetensors()
    {
        // int2 AWQ on [0, 0.5, 1.5, 3] (one group): s = 1, z = 0, w' = [0, 0, 2, 3],
        // e = [0, 0.5, -0.5, 0]: MSE 0.125, SQNR 10·log10(11.5 / 0.5), max 0.5,
        // cosine 12 / sqrt(11.5 · 13); bits 2 + (16 + 2)/4 for one fp16 scale and
        // one 2-bit zero per 4 weights.
        const QJsonObject o = json({QStringLiteral("--input"), checkpoint(), QStringLiteral("--tensor"),
                                    QStringLiteral("w"), QStringLiteral("--scheme"), QStringLiteral("int2")})
                                  .object();
        QCOMPARE(o.value(QLatin1String("scheme")).toString(), QStringLiteral("int2-g128"));
        QCOMPARE(o.value(QLatin1String("elements")).toInteger(), 4);
        QCOMPARE(o.value(QLatin1String("bits_per_weight")).toDouble(), 6.5);
        QCOMPARE(o.value(QLatin1String("mse")).toDouble(), 0.125);
        QVERIFY(std::fabs(o.value(QLatin1String("sqnr_db")).toDouble() - 10 * std::log10(23.0)) < 1e-12);
        QCOMPARE(o.value(QLatin1String("max_abs_error")).toDouble(), 0.5);
        QVERIFY(std::fabs(o.value(QLatin1String("cosine_similarity")).toDouble() -
                          12 / std::sqrt(11.5 * 13)) < 1e-12);
        QCOMPARE(o.value(QLatin1String("flushed")).toInteger(), 1);
        QCOMPARE(o.value(QLatin1String("tensor")).toString(), QStringLiteral("w"));
    }

    void bf16TensorAndSeveralSchemes()
    {
        // BF16 [1, 3.140625, -123.5, 0]: bf16 -> bf16 is exact, so its SQNR is
        // infinite (null in JSON) and its error zero.
        const QJsonArray array =
            json({QStringLiteral("--input"), checkpoint(), QStringLiteral("--tensor"), QStringLiteral("b"),
                  QStringLiteral("--scheme"), QStringLiteral("bf16,fp8"), QStringLiteral("--scheme"),
                  QStringLiteral("int8")})
                .array();
        QCOMPARE(array.size(), 3);
        const QJsonObject bf16 = array.at(0).toObject();
        QCOMPARE(bf16.value(QLatin1String("scheme")).toString(), QStringLiteral("bf16"));
        QVERIFY(bf16.value(QLatin1String("sqnr_db")).isNull());
        QCOMPARE(bf16.value(QLatin1String("mse")).toDouble(), 0.0);
        QCOMPARE(array.at(1).toObject().value(QLatin1String("fp8_scale")).toDouble(),
                 double(123.5f / 448.0f)); // the scale is float32
        QCOMPARE(array.at(2).toObject().value(QLatin1String("scheme")).toString(), QStringLiteral("int8"));
    }

    void listing()
    {
        const QString path = checkpoint();
        const Run text = run({QStringLiteral("--input"), path, QStringLiteral("--list")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("w  F32    [1, 4]"));
        QVERIFY(text.out.contains("bias  F32    [2]  (unusable: shape [2] is 1-D"));
        const QJsonArray list = json({QStringLiteral("--input"), path, QStringLiteral("--list")}).array();
        QCOMPARE(list.size(), 4);
        QCOMPARE(list.at(3).toObject().value(QLatin1String("usable")).toBool(), false);
    }

    void histogramCsv()
    {
        const QString csvPath = m_dir.filePath(QStringLiteral("h.csv"));
        const Run r =
            run({QStringLiteral("--input"), checkpoint(), QStringLiteral("--tensor"), QStringLiteral("w"),
                 QStringLiteral("--scheme"), QStringLiteral("int2"), QStringLiteral("--bins"),
                 QStringLiteral("4"), QStringLiteral("--histogram"), csvPath});
        QCOMPARE(r.exitCode, 0);
        QFile file(csvPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.first(), QByteArray("histogram,scheme,bin,lower,upper,count"));
        // Errors [0, 0.5, -0.5, 0] in 4 bins over ±0.5·(1 + 1/256): 1, 0, 2, 1.
        QList<QByteArray> counts;
        for (const QByteArray &line : lines)
            if (line.startsWith("error,int2-g128,"))
                counts << line.split(',').last();
        QCOMPARE(counts,
                 (QList<QByteArray>{"1", "0", "2", "1", "0", "0", "0"})); // bins, below, above, non-finite
        QVERIFY(lines.contains("values,,3,2.25,3,1"));
    }

    void syntheticReproducible()
    {
        const QStringList args{QStringLiteral("--input"),  QStringLiteral("synthetic:laplace"),
                               QStringLiteral("--rows"),   QStringLiteral("64"),
                               QStringLiteral("--cols"),   QStringLiteral("96"),
                               QStringLiteral("--seed"),   QStringLiteral("5"),
                               QStringLiteral("--scheme"), QStringLiteral("nf4")};
        const QJsonObject a = json(args).object();
        QCOMPARE(a, json(args).object());
        QCOMPARE(a.value(QLatin1String("elements")).toInteger(), 64 * 96);
        QVERIFY(a !=
                json(QStringList(args).replaceInStrings(QStringLiteral("5"), QStringLiteral("6"))).object());
    }

    void fittedSchemesAndOutputError()
    {
        // AWQ and GPTQ fit on synthetic activations by default; every scheme then
        // gets the output SQNR, the plain one too, and AWQ its chosen alpha.
        const QJsonArray results =
            json({QStringLiteral("--rows"), QStringLiteral("64"), QStringLiteral("--cols"),
                  QStringLiteral("256"), QStringLiteral("--scheme"),
                  QStringLiteral("int4,awq-int4,gptq-int4")})
                .array();
        QCOMPARE(results.size(), 3);
        QCOMPARE(results.at(1).toObject().value(QLatin1String("scheme")).toString(),
                 QStringLiteral("awq-int4-g128"));
        QCOMPARE(results.at(2).toObject().value(QLatin1String("scheme")).toString(),
                 QStringLiteral("gptq-int4-g128"));
        const double rtn = results.at(0).toObject().value(QLatin1String("output_sqnr_db")).toDouble();
        QVERIFY(rtn > 10);
        QVERIFY(results.at(1).toObject().value(QLatin1String("output_sqnr_db")).toDouble() > rtn + 3);
        QVERIFY(results.at(1).toObject().value(QLatin1String("awq_alpha")).toDouble() > 0);
        QVERIFY(!results.at(0).toObject().contains(QLatin1String("awq_alpha")));
        // Without activations and without a fitted scheme there is no output error.
        QVERIFY(json({QStringLiteral("--rows"), QStringLiteral("8")})
                    .object()
                    .value(QLatin1String("output_sqnr_db"))
                    .isNull());
        const Run text =
            run({QStringLiteral("--rows"), QStringLiteral("64"), QStringLiteral("--cols"),
                 QStringLiteral("256"), QStringLiteral("--activations"), QStringLiteral("synthetic")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("out SQNR: of the layer output Y = X W^T, on 256 held-out rows"),
                 text.out.constData());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QByteArray ok = R"({"w": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}})";
        const QByteArray data = test::floatBytes({1, 2});
        const QStringList file{QStringLiteral("--input"), QStringLiteral("FILE")};
        QTest::newRow("truncated file")
            << file << test::safetensorsBytes(ok, data.left(5)) << 1 << "run past the 5-byte data section";
        QTest::newRow("header length past the end") << file << test::safetensorsBytes(ok, data, 1 << 20) << 1
                                                    << "header length 1048576 runs past the end";
        QTest::newRow("offsets out of range")
            << file
            << test::safetensorsBytes(R"({"w": {"dtype": "F32", "shape": [1, 2], "data_offsets": [4, 12]}})",
                                      data)
            << 1 << "data_offsets [4, 12] run past";
        QTest::newRow("unsupported dtype")
            << file
            << test::safetensorsBytes(R"({"w": {"dtype": "I32", "shape": [1, 2], "data_offsets": [0, 8]}})",
                                      data)
            << 1 << "tensor 'w': dtype I32 is not F32, F16 or BF16";
        QTest::newRow("tensor not found")
            << file + QStringList{QStringLiteral("--tensor"), QStringLiteral("v")}
            << test::safetensorsBytes(ok, data) << 1 << "no tensor 'v' (the file holds: w)";
        QTest::newRow("not 2-D") << file
                                 << test::safetensorsBytes(
                                        R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})",
                                        data)
                                 << 1 << "tensor 'w': shape [2] is 1-D";
        QTest::newRow("truncated npy")
            << QStringList{QStringLiteral("--input"), QStringLiteral("FILE.npy")}
            << test::npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", data) << 1
            << "data is truncated";
        QTest::newRow("unknown scheme") << QStringList{QStringLiteral("--scheme"), QStringLiteral("int5")}
                                        << QByteArray() << 1 << "--scheme: unknown scheme 'int5'";
        QTest::newRow("too many bins") << QStringList{QStringLiteral("--bins"), QStringLiteral("5000")}
                                       << QByteArray() << 1 << "--bins: 5000 is more than 4096";
        QTest::newRow("group size") << QStringList{QStringLiteral("--group-size"), QStringLiteral("0")}
                                    << QByteArray() << 1 << "--group-size: 0 is not a group size";
        QTest::newRow("too large") << QStringList{QStringLiteral("--rows"), QStringLiteral("9000")}
                                   << QByteArray() << 1 << "--rows: 9000 is outside 1..8192";
        QTest::newRow("unknown kind")
            << QStringList{QStringLiteral("--input"), QStringLiteral("synthetic:uniform")} << QByteArray()
            << 1 << "unknown synthetic kind 'uniform'";
        QTest::newRow("tensor of synthetic") << QStringList{QStringLiteral("--tensor"), QStringLiteral("w")}
                                             << QByteArray() << 1 << "--tensor: a synthetic input";
        QTest::newRow("missing file")
            << QStringList{QStringLiteral("--input"), QStringLiteral("/nonexistent/x.npy")} << QByteArray()
            << 1 << "/nonexistent/x.npy: no such file";
        QTest::newRow("unwritable histogram")
            << QStringList{QStringLiteral("--rows"), QStringLiteral("8"), QStringLiteral("--histogram"),
                           QStringLiteral("/nonexistent/dir/h.csv")}
            << QByteArray() << 1 << "/nonexistent/dir/h.csv: cannot write";
        QTest::newRow("activations of another width")
            << QStringList{QStringLiteral("--rows"),        QStringLiteral("4"),
                           QStringLiteral("--cols"),        QStringLiteral("4"),
                           QStringLiteral("--scheme"),      QStringLiteral("awq-int4"),
                           QStringLiteral("--activations"), QStringLiteral("FILE.npy")}
            << test::npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", data) << 1
            << "holds activations of shape [1, 2] [tokens, channels]; the weights have 4";
        QTest::newRow("missing activations")
            << QStringList{QStringLiteral("--activations"), QStringLiteral("/nonexistent/a.npy")}
            << QByteArray() << 1 << "--activations: /nonexistent/a.npy: no such file";
        QTest::newRow("-sym on a method")
            << QStringList{QStringLiteral("--scheme"), QStringLiteral("gptq-int4-sym")} << QByteArray() << 1
            << "drop '-sym'";
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")} << QByteArray() << 2
                                        << "Unknown option 'frobnicate'";
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, bytes);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        if (!bytes.isEmpty()) {
            const QString name = arguments.contains(QStringLiteral("FILE.npy"))
                                     ? QStringLiteral("bad.npy")
                                     : QStringLiteral("bad.safetensors");
            const QString path = test::writeFile(m_dir, name, bytes);
            arguments.replaceInStrings(QStringLiteral("FILE.npy"), path);
            arguments.replaceInStrings(QStringLiteral("FILE"), path);
        }
        const Run r = run(arguments + QStringList{QStringLiteral("--json")});
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("kvscope: error: "), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void help()
    {
        const Run r = run({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--no-saturation"));
        QVERIFY(r.out.contains("--histogram"));
    }
};

QTEST_GUILESS_MAIN(TestCliQuant)
#include "tst_cliquant.moc"
