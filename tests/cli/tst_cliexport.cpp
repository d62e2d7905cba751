// SPDX-License-Identifier: MIT
// kvscope export as a script runs it: with no display, each format by its
// extension, one clear line and no file for every mistake.
#include "core/compare/attentionpicture.h"
#include "core/library/library.h"
#include "tests/support/kvscoperun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSize>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using namespace kvscope::test;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

quint32 bigEndian(const QByteArray &bytes, qsizetype at)
{
    quint32 value = 0;
    for (qsizetype i = 0; i < 4; ++i)
        value = value << 8 | quint8(bytes.at(at + i));
    return value;
}

/// A PNG's size (IHDR) and pixels per metre (pHYs), read from its chunks
/// (PNG specification, sections 5.3 and 11.3.5.3); (-1, -1) and 0 when not a PNG.
struct PngHeader
{
    QSize size{-1, -1};
    quint32 pixelsPerMetre = 0;
};

PngHeader pngHeader(const QByteArray &png)
{
    PngHeader header;
    if (!png.startsWith("\x89PNG\r\n\x1a\n"))
        return header;
    for (qsizetype at = 8; at + 8 <= png.size();) {
        const quint32 length = bigEndian(png, at);
        const QByteArray type = png.mid(at + 4, 4);
        if (type == "IHDR")
            header.size = QSize(int(bigEndian(png, at + 8)), int(bigEndian(png, at + 12)));
        else if (type == "pHYs" && png.at(at + 16) == 1) // unit: the metre
            header.pixelsPerMetre = bigEndian(png, at + 8);
        at += 12 + qsizetype(length);
    }
    return header;
}

} // namespace

class TestCliExport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void listsTheCharts()
    {
        const Run run = runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--list-charts")});
        QCOMPARE(run.exitCode, 0);
        for (const char *name : {"memory", "growth", "speed", "speed-breakdown", "compare-memory",
                                 "compare-speed", "compare-accuracy", "error-histogram", "values", "sqnr",
                                 "attention", "attention-logits", "report"})
            QVERIFY2(run.out.contains(QByteArray("\n") + name + ' ') ||
                         run.out.startsWith(QByteArray(name) + ' '),
                     name);
    }

    void pngWithoutDisplay()
    {
        const QString out = path(QStringLiteral("memory.png"));
        const Run run =
            runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                               QStringLiteral("--out"), out, QStringLiteral("--width"), QStringLiteral("800"),
                               QStringLiteral("--height"), QStringLiteral("450"), QStringLiteral("--scale"),
                               QStringLiteral("2"), QStringLiteral("--model"), QStringLiteral("qwen2.5-7b")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const PngHeader png = pngHeader(readAll(out));
        QCOMPARE(png.size, QSize(1600, 900));
        QVERIFY(qAbs(png.pixelsPerMetre - 192 / 0.0254) < 2); // 192 dpi
    }

    void eachFormatByItsExtension()
    {
        const QStringList scenario{QStringLiteral("--model"),
                                   QStringLiteral("llama-3.1-70b"),
                                   QStringLiteral("--tensor-parallel-size"),
                                   QStringLiteral("4"),
                                   QStringLiteral("--kv-cache-dtype"),
                                   QStringLiteral("fp8")};
        const Run calc = runKvscope(QStringList{QStringLiteral("calc"), QStringLiteral("--json")} + scenario);
        QCOMPARE(calc.exitCode, 0);
        for (const char *suffix : {"svg", "pdf", "csv", "json"}) {
            const QString out = path(QStringLiteral("growth.") + QLatin1String(suffix));
            const Run run =
                runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                              QStringLiteral("growth"), QStringLiteral("--out"), out} +
                                  scenario);
            QVERIFY2(run.exitCode == 0, run.err.constData());
            const QByteArray bytes = readAll(out);
            if (qstrcmp(suffix, "svg") == 0)
                QVERIFY(bytes.contains("<svg") && bytes.contains("Memory per GPU vs sequence length"));
            else if (qstrcmp(suffix, "pdf") == 0)
                QVERIFY(bytes.startsWith("%PDF"));
            else if (qstrcmp(suffix, "csv") == 0)
                QVERIFY(bytes.startsWith(
                    "kv_cache_dtype,sequence_length,kv_cache_bytes,total_bytes,budget_bytes,current,line\n"));
            else
                QCOMPARE(bytes, calc.out); // exactly kvscope calc --json
        }
    }

    void growthCsvWithTheCounterfactualLines()
    {
        // Gemma 3 27B: GQA (16 KV heads for 32 query heads) and 52 of 62 layers sliding, so both lines exist.
        const QStringList growth{
            QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("growth"),
            QStringLiteral("--out"),  QStringLiteral("-"),       QStringLiteral("--format"),
            QStringLiteral("csv"),    QStringLiteral("--model"), QStringLiteral("gemma-3-27b")};
        const Run plain = runWithoutDisplay(growth);
        QVERIFY2(plain.exitCode == 0, plain.err.constData());
        QVERIFY(!plain.out.contains("as_if"));
        const Run lines = runWithoutDisplay(growth + QStringList{QStringLiteral("--counterfactuals")});
        QVERIFY2(lines.exitCode == 0, lines.err.constData());
        QVERIFY(lines.out.startsWith(plain.out)); // the real curves first, unchanged
        QVERIFY(lines.out.contains(",as_if_mha\n"));
        QVERIFY(lines.out.contains(",as_if_all_layers_full\n"));
    }

    void quantizationChart()
    {
        const QString out = path(QStringLiteral("sqnr.png"));
        const Run run =
            runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("sqnr"),
                               QStringLiteral("--out"), out, QStringLiteral("--rows"), QStringLiteral("256"),
                               QStringLiteral("--cols"), QStringLiteral("256"), QStringLiteral("--scheme"),
                               QStringLiteral("int8,int4,nf4")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(pngHeader(readAll(out)).size, QSize(1280, 720));
        const QString csv = path(QStringLiteral("sqnr.csv"));
        QCOMPARE(
            runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("sqnr"),
                               QStringLiteral("--out"), csv, QStringLiteral("--rows"), QStringLiteral("256"),
                               QStringLiteral("--cols"), QStringLiteral("256"), QStringLiteral("--scheme"),
                               QStringLiteral("int8,int4,nf4")})
                .exitCode,
            0);
        QCOMPARE(readAll(csv).count('\n'), 4); // header + three schemes
    }

    void attentionCharts()
    {
        // One query of Qwen2.5-7B (keys of 128) through an FP8 E5M2 cache with a calibrated scale; the
        // CSV and JSON are the core's picture for those choices.
        const QStringList options{QStringLiteral("--model"),
                                  QStringLiteral("qwen2.5-7b"),
                                  QStringLiteral("--kv-cache-dtype"),
                                  QStringLiteral("fp8_e5m2"),
                                  QStringLiteral("--attention-scale"),
                                  QStringLiteral("calibrated"),
                                  QStringLiteral("--attention-queries"),
                                  QStringLiteral("diffuse"),
                                  QStringLiteral("--attention-tokens"),
                                  QStringLiteral("40"),
                                  QStringLiteral("--attention-query"),
                                  QStringLiteral("5")};
        const QString png = path(QStringLiteral("attention.png"));
        Run run =
            runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                          QStringLiteral("attention-logits"), QStringLiteral("--out"), png} +
                              options);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(pngHeader(readAll(png)).size, QSize(1280, 720));
        const QString json = path(QStringLiteral("attention.json"));
        run = runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                            QStringLiteral("attention"), QStringLiteral("--out"), json} +
                                options);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(readAll(json)).object();
        AttentionPictureChoices c;
        c.format = KvCacheDtype::Fp8E5M2;
        c.calibratedScale = true;
        c.queries = quant::QueryModel::Diffuse;
        c.tokens = 40;
        c.query = 5;
        const AttentionPicture picture = attentionPicture(
            *ModelLibrary::builtin().find(QStringLiteral("qwen2.5-7b")), WeightDtype::BFloat16, c);
        QCOMPARE(o.value(u"key_width").toInteger(), 128);
        QCOMPARE(o.value(u"scale").toString(), QStringLiteral("calibrated"));
        QCOMPARE(o.value(u"tokens").toArray().size(), 40);
        QCOMPARE(o.value(u"attention_mass_moved").toDouble(), picture.error.massMoved);
        QCOMPARE(o.value(u"tokens").toArray().at(39).toObject().value(u"quantized_weight").toDouble(),
                 picture.weights.quantizedWeights[39]);
        const QString csv = path(QStringLiteral("attention.csv"));
        QCOMPARE(runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                               QStringLiteral("attention"), QStringLiteral("--out"), csv} +
                                   options)
                     .exitCode,
                 0);
        QCOMPARE(readAll(csv).count('\n'), 41); // header + 40 tokens
    }

    void speedChart()
    {
        const QString png = path(QStringLiteral("speed.png"));
        const Run run =
            runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("speed"),
                               QStringLiteral("--out"), png, QStringLiteral("--width"),
                               QStringLiteral("1000"), QStringLiteral("--height"), QStringLiteral("600")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(pngHeader(readAll(png)).size, QSize(1000, 600));
        const QString csv = path(QStringLiteral("speed.csv"));
        QCOMPARE(runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"),
                                    QStringLiteral("speed"), QStringLiteral("--out"), csv})
                     .exitCode,
                 0);
        QVERIFY(readAll(csv).startsWith("kv_cache_dtype,batch_size,tokens_per_second,tokens_per_second_ideal,"
                                        "ridge_batch,ridge_batch_ideal,fits_up_to,current,"
                                        "tokens_per_second_with_drafter\n"));
    }

    void comparisonChartsTakeTheVariantsOfCompare()
    {
        // The JSON of a comparison chart is kvscope compare --json's for the same columns, byte for byte.
        const QStringList variants{
            QStringLiteral("--model"),   QStringLiteral("qwen2.5-7b"),
            QStringLiteral("--variant"), QString(),
            QStringLiteral("--variant"), QStringLiteral("--kv-cache-dtype fp8 --quantization fp8")};
        const Run compare =
            runKvscope(QStringList{QStringLiteral("compare"), QStringLiteral("--json")} + variants);
        QVERIFY2(compare.exitCode == 0, compare.err.constData());
        const QString json = path(QStringLiteral("compare.json"));
        const Run run =
            runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                          QStringLiteral("compare-speed"), QStringLiteral("--out"), json} +
                              variants);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(readAll(json), compare.out);
        // Without --variant: the seed question's four columns, as kvscope compare draws them.
        const QString csv = path(QStringLiteral("compare-memory.csv"));
        QCOMPARE(runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"),
                                    QStringLiteral("compare-memory"), QStringLiteral("--out"), csv})
                     .exitCode,
                 0);
        const QByteArray memory = readAll(csv);
        QVERIFY(memory.startsWith("column,label,part,bytes,beyond_budget_bytes,share_of_budget_bp\n"));
        for (const char *label :
             {"BF16 + BF16 KV", "BF16 + FP8 KV", "AWQ INT4 + FP16 KV", "AWQ INT4 + FP8 KV"})
            QVERIFY2(memory.contains(QByteArray(",") + label + ",kv_cache,"), label);
        const QString png = path(QStringLiteral("compare-memory.png"));
        QCOMPARE(runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"),
                                    QStringLiteral("compare-memory"), QStringLiteral("--out"), png})
                     .exitCode,
                 0);
        QCOMPARE(pngHeader(readAll(png)).size, QSize(1280, 720));
    }

    void reportGivesAllFourAnswers()
    {
        // The report's SVG holds its texts: speed and accuracy always, the comparison's table
        // (the Compare view's rows, "Runs?" first) when --variant gives columns.
        const QStringList scenario{QStringLiteral("--model"), QStringLiteral("qwen2.5-7b"),
                                   QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8")};
        const QString alone = path(QStringLiteral("report.svg"));
        const Run run =
            runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                          QStringLiteral("report"), QStringLiteral("--out"), alone} +
                              scenario);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QByteArray svg = readAll(alone);
        for (const char *text : {"Speed", "Time to first token", "Accuracy",
                                 "SQNR is a proxy for end quality", "fp8-e4m3", "--dtype bfloat16"})
            QVERIFY2(svg.contains(text), text);
        QVERIFY(!svg.contains("Runs?"));
        QVERIFY(!svg.contains(" auto "));

        const QString compared = path(QStringLiteral("report-compared.svg"));
        const Run withColumns = runWithoutDisplay(
            QStringList{QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("report"),
                        QStringLiteral("--out"), compared, QStringLiteral("--variant"), QString(),
                        QStringLiteral("--variant"), QStringLiteral("--kv-cache-dtype bfloat16")} +
            scenario);
        QVERIFY2(withColumns.exitCode == 0, withColumns.err.constData());
        QVERIFY(!withColumns.err.contains("does not use"));
        const QByteArray table = readAll(compared);
        for (const char *text : {"Runs?", "BF16 + FP8 KV", "BF16 + BF16 KV", "KV SQNR"})
            QVERIFY2(table.contains(text), text);
    }

    void scenarioFile()
    {
        const QString file = path(QStringLiteral("plan.kvscope"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "kvscope-scenario", "version": 1,
                   "scenario": {"model": "qwen2.5-7b", "gpu": "a100-80gb", "batch-size": 4}})");
        f.close();
        const QString out = path(QStringLiteral("plan.json"));
        const Run run =
            runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                               QStringLiteral("--out"), out, QStringLiteral("--scenario"), file,
                               QStringLiteral("--seq-len"), QStringLiteral("2048")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const Run calc =
            runKvscope({QStringLiteral("calc"), QStringLiteral("--json"), QStringLiteral("--model"),
                        QStringLiteral("qwen2.5-7b"), QStringLiteral("--gpu"), QStringLiteral("a100-80gb"),
                        QStringLiteral("--batch-size"), QStringLiteral("4"), QStringLiteral("--seq-len"),
                        QStringLiteral("2048")});
        QCOMPARE(readAll(out), calc.out);
    }

    void mistakesWriteNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown chart")
            << QStringList{QStringLiteral("--chart"), QStringLiteral("speedometer")}
            << QStringLiteral("a.png") << 2 << QStringLiteral("--chart: unknown chart 'speedometer'");
        QTest::newRow("bad extension")
            << QStringList{QStringLiteral("--chart"), QStringLiteral("memory")} << QStringLiteral("a.gif")
            << 1 << QStringLiteral("unsupported extension '.gif'");
        QTest::newRow("unwritable") << QStringList{QStringLiteral("--chart"), QStringLiteral("memory")}
                                    << QStringLiteral("no-such-dir/a.png") << 1
                                    << QStringLiteral("cannot write");
        QTest::newRow("oversized") << QStringList{QStringLiteral("--chart"),  QStringLiteral("memory"),
                                                  QStringLiteral("--width"),  QStringLiteral("16384"),
                                                  QStringLiteral("--height"), QStringLiteral("16384"),
                                                  QStringLiteral("--scale"),  QStringLiteral("2")}
                                   << QStringLiteral("a.png") << 2
                                   << QStringLiteral("32768x32768 is too large: at most 16384 pixels a side");
        QTest::newRow("scaled side") << QStringList{QStringLiteral("--chart"),  QStringLiteral("memory"),
                                                    QStringLiteral("--width"),  QStringLiteral("9000"),
                                                    QStringLiteral("--height"), QStringLiteral("300"),
                                                    QStringLiteral("--scale"),  QStringLiteral("2")}
                                     << QStringLiteral("a.png") << 2
                                     << QStringLiteral("18000x600 is too large: at most 16384 pixels a side");
        QTest::newRow("bad option") << QStringList{QStringLiteral("--chart"), QStringLiteral("memory"),
                                                   QStringLiteral("--theme"), QStringLiteral("sepia")}
                                    << QStringLiteral("a.png") << 1
                                    << QStringLiteral("--theme: expected light or dark, got 'sepia'");
        QTest::newRow("bad scenario value")
            << QStringList{QStringLiteral("--chart"), QStringLiteral("memory"),
                           QStringLiteral("--batch-size"), QStringLiteral("0")}
            << QStringLiteral("a.png") << 1
            << QStringLiteral("--batch-size: must be a positive integer, got '0'");
        QTest::newRow("bad variant")
            << QStringList{QStringLiteral("--chart"),   QStringLiteral("compare-memory"),
                           QStringLiteral("--variant"), QStringLiteral("--kv-cache-dtype fp9"),
                           QStringLiteral("--variant"), QString()}
            << QStringLiteral("a.png") << 1
            << QStringLiteral("--variant 1 (\"--kv-cache-dtype fp9\"): --kv-cache-dtype: unknown");
        QTest::newRow("attention of a 16-bit cache")
            << QStringList{QStringLiteral("--chart"), QStringLiteral("attention")} << QStringLiteral("a.png")
            << 1
            << QStringLiteral(
                   "--chart attention draws an FP8 KV cache: give --kv-cache-dtype fp8, fp8_e4m3 or "
                   "fp8_e5m2 (the scenario's is bfloat16)");
        QTest::newRow("attention tokens")
            << QStringList{QStringLiteral("--chart"),
                           QStringLiteral("attention-logits"),
                           QStringLiteral("--kv-cache-dtype"),
                           QStringLiteral("fp8"),
                           QStringLiteral("--attention-tokens"),
                           QStringLiteral("2000")}
            << QStringLiteral("a.csv") << 1 << QStringLiteral("--attention-tokens: 2000 is larger than 1024");
        QTest::newRow("attention queries")
            << QStringList{QStringLiteral("--chart"),
                           QStringLiteral("attention"),
                           QStringLiteral("--kv-cache-dtype"),
                           QStringLiteral("fp8"),
                           QStringLiteral("--attention-queries"),
                           QStringLiteral("sharp")}
            << QStringLiteral("a.png") << 1
            << QStringLiteral(
                   "--attention-queries: unknown queries 'sharp' (choose one of: diffuse, key_outliers)");
        QTest::newRow("one variant") << QStringList{QStringLiteral("--chart"),
                                                    QStringLiteral("compare-speed"),
                                                    QStringLiteral("--variant"), QString()}
                                     << QStringLiteral("a.csv") << 2
                                     << QStringLiteral("--variant: give 2 to 4 variants, got 1");
    }

    void mistakesWriteNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString out = path(file);
        const Run run = runWithoutDisplay(
            QStringList{QStringLiteral("export"), QStringLiteral("--out"), out} + arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.startsWith("kvscope: error: ") && run.err.count('\n') == 1, run.err.constData());
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cliexport.moc"
