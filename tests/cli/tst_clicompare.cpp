// SPDX-License-Identifier: MIT
// kvscope compare: the seed question for Llama-3.1-8B on one H100 (all four
// aspects, four columns, deltas to the first), --variant columns, and bad
// variants named with their text and option.
#include "app/cli/comparetext.h"
#include "tests/support/kvscoperun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

class TestCliCompare : public QObject
{
    Q_OBJECT

private:
    using Run = kvscope::test::Run;

    static Run run(const QStringList &arguments) { return kvscope::test::runKvscope(arguments); }

    static QJsonObject json(const QStringList &command)
    {
        const Run r = run(command + QStringList{QStringLiteral("--json")});
        if (r.exitCode != 0)
            qFatal("kvscope failed: %s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }

    static QJsonObject rowOf(const QJsonObject &comparison, const QString &key)
    {
        for (const QJsonValue row : comparison.value(u"rows").toArray())
            if (row.toObject().value(u"key").toString() == key)
                return row.toObject();
        qFatal("no row %s", qPrintable(key));
    }

private Q_SLOTS:
    void differencesThatRoundToZeroHaveNoSign()
    {
        // A concurrency 0.0004x below the first column's shows as 0.00x to two decimals;
        // the table must not print "-0.00x" or "-0.0 %" (a negative zero).
        using namespace kvscope;
        Comparison c;
        c.columns.resize(2);
        c.columns[0].label = QStringLiteral("first");
        c.columns[1].label = QStringLiteral("second");
        CompareRow row;
        row.id = CompareRowId::MaxConcurrency; // "maximum concurrency"
        row.unit = QStringLiteral("x");
        CompareCell first;
        first.value = 12.5;
        CompareCell second;
        second.value = 12.4996;
        second.delta = -0.0004;
        second.deltaPercent = -0.0032;
        row.cells = {first, second};
        c.rows << row;
        const QString table = cli::comparisonAsText(c);
        QVERIFY2(table.contains(QStringLiteral("12.50x (0.00x, 0.0 %)")), qPrintable(table));
        QVERIFY2(!table.contains(QStringLiteral("-0.0")), qPrintable(table));
    }

    void seedQuestionForLlama8bOnH100()
    {
        // The teacher's case: the same model (Llama-3.1-8B, BF16 checkpoint) on one H100 SXM,
        // batch 16 x 8,192 tokens, with BF16 or AWQ INT4 weights and a 16-bit or FP8 KV cache.
        const QJsonObject c =
            json({QStringLiteral("compare"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                  QStringLiteral("--gpu"), QStringLiteral("h100-sxm")});
        const QJsonArray variants = c.value(u"variants").toArray();
        QCOMPARE(variants.size(), 4);
        const QStringList labels{QStringLiteral("BF16 + BF16 KV"), QStringLiteral("BF16 + FP8 KV"),
                                 QStringLiteral("AWQ INT4 + FP16 KV"), QStringLiteral("AWQ INT4 + FP8 KV")};
        for (int i = 0; i < 4; ++i) {
            const QJsonObject v = variants.at(i).toObject();
            QCOMPARE(v.value(u"label").toString(), labels.at(i));
            // Memory, capacity, speed: the calc keys.
            for (const char *key : {"weights_bytes", "kv_bytes_per_token", "kv_cache_bytes", "headroom_bytes",
                                    "kv_capacity_tokens", "max_concurrency", "largest_batch_that_fits",
                                    "decode_tokens_per_second", "prefill_seconds", "decode_bound"})
                QVERIFY2(v.contains(QLatin1String(key)), key);
            // Accuracy: null where the choice is lossless.
            const bool awq = i >= 2;
            const bool fp8Kv = i % 2 == 1;
            QCOMPARE(v.value(u"weight_sqnr_db").isNull(), !awq);
            QCOMPARE(v.value(u"kv_sqnr_db").isNull(), !fp8Kv);
            QVERIFY(v.value(u"accuracy").toObject().contains(u"weights"));
        }
        // FP8 KV: 32 layers x 2 x 8 KV heads x 128 x 1 B = 65,536 B per token, half of BF16's 131,072.
        QCOMPARE(variants.at(0).toObject().value(u"kv_bytes_per_token").toInteger(), 131'072);
        QCOMPARE(variants.at(1).toObject().value(u"kv_bytes_per_token").toInteger(), 65'536);
        QCOMPARE(variants.at(2).toObject().value(u"kv_bytes_per_token").toInteger(), 131'072);
        // Each column is the plan `kvscope calc` gives for the same options.
        const QJsonObject calc =
            json({QStringLiteral("calc"), QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8")});
        QCOMPARE(variants.at(1).toObject().value(u"kv_capacity_tokens").toInteger(),
                 calc.value(u"kv_capacity_tokens").toInteger());
        QCOMPARE(variants.at(1).toObject().value(u"decode_tokens_per_second").toDouble(),
                 calc.value(u"decode_tokens_per_second").toDouble());
        // The KV tensors: one head of 128 over 4,096 tokens; FP8 at vLLM's scale 1.0.
        const QJsonObject kv =
            variants.at(1).toObject().value(u"accuracy").toObject().value(u"kv_cache").toObject();
        QCOMPARE(kv.value(u"key_tensor").toObject().value(u"shape").toArray(), (QJsonArray{4096, 128}));
        QCOMPARE(kv.value(u"keys").toObject().value(u"fp8_scale").toDouble(), 1.0);
        QVERIFY(kv.value(u"calibrated_sqnr_db").isDouble());
        // What the cache does to attention: 16 decode queries (diffuse, and on the keys' outlier
        // channels) at 1,024, 4,096 and 8,192 tokens, under vLLM's scale and a calibrated one; nothing
        // for a 16-bit cache.
        const QJsonArray attention = kv.value(u"attention").toArray();
        QCOMPARE(attention.size(), 4);
        QCOMPARE(attention.at(0).toObject().value(u"queries").toString(), QStringLiteral("diffuse"));
        QCOMPARE(attention.at(1).toObject().value(u"queries").toString(), QStringLiteral("key_outliers"));
        QCOMPARE(attention.at(2).toObject().value(u"scale").toString(), QStringLiteral("calibrated"));
        QCOMPARE(attention.at(0).toObject().value(u"query_count").toInteger(), 16);
        const QJsonArray contexts = attention.at(0).toObject().value(u"contexts").toArray();
        QCOMPARE(contexts.size(), 3);
        QCOMPARE(contexts.at(0).toObject().value(u"context_tokens").toInteger(), 1024);
        QCOMPARE(contexts.at(2).toObject().value(u"context_tokens").toInteger(), 8192);
        for (const char *figure : {"output_sqnr_db", "attention_mass_moved", "logit_error_rms", "logit_std"})
            QVERIFY2(contexts.at(1).toObject().value(QLatin1String(figure)).isDouble(), figure);
        // The one figure beside the element SQNRs: diffuse queries, the engine's scale, 4,096 tokens;
        // and the same for queries on the outlier channels.
        QCOMPARE(kv.value(u"attention_output_sqnr_db").toDouble(),
                 contexts.at(1).toObject().value(u"output_sqnr_db").toDouble());
        QCOMPARE(kv.value(u"attention_output_sqnr_db_key_outliers").toDouble(), attention.at(1)
                                                                                    .toObject()
                                                                                    .value(u"contexts")
                                                                                    .toArray()
                                                                                    .at(1)
                                                                                    .toObject()
                                                                                    .value(u"output_sqnr_db")
                                                                                    .toDouble());
        QVERIFY(kv.value(u"attention_output_sqnr_db").toDouble() < kv.value(u"sqnr_db").toDouble());
        const QJsonObject sixteenBitKv =
            variants.at(0).toObject().value(u"accuracy").toObject().value(u"kv_cache").toObject();
        QVERIFY(sixteenBitKv.value(u"attention").isNull());
        QVERIFY(sixteenBitKv.value(u"attention_output_sqnr_db").isNull());
        const QJsonObject weights =
            variants.at(2).toObject().value(u"accuracy").toObject().value(u"weights").toObject();
        QCOMPARE(weights.value(u"tensor").toObject().value(u"shape").toArray(), (QJsonArray{4096, 4096}));
        QCOMPARE(weights.value(u"error").toObject().value(u"scheme").toString(),
                 QStringLiteral("awq-int4-g128"));
        // AWQ is fitted to synthetic activations; the layer's output error is what it lowers.
        QVERIFY(weights.value(u"output_sqnr_db").toDouble() > weights.value(u"sqnr_db").toDouble());

        // Deltas to the first column and the best per row.
        const QJsonObject perToken = rowOf(c, QStringLiteral("kv_bytes_per_token"));
        QCOMPARE(perToken.value(u"deltas").toArray(), (QJsonArray{0, -65'536, 0, -65'536}));
        QCOMPARE(perToken.value(u"delta_percents").toArray().at(1).toDouble(), -50.0);
        QCOMPARE(perToken.value(u"best").toArray(), (QJsonArray{1, 3}));
        QCOMPARE(perToken.value(u"better").toString(), QStringLiteral("less"));
        const QJsonObject capacity = rowOf(c, QStringLiteral("kv_capacity_tokens"));
        QCOMPARE(capacity.value(u"best").toArray(), QJsonArray{3});
        const QJsonArray capacities = capacity.value(u"values").toArray();
        QCOMPARE(capacity.value(u"deltas").toArray().at(1).toInteger(),
                 capacities.at(1).toInteger() - capacities.at(0).toInteger());
        QCOMPARE(rowOf(c, QStringLiteral("weight_sqnr_db")).value(u"best").toArray(), (QJsonArray{0, 1}));
        QCOMPARE(c.value(u"rows").toArray().size(), 15);
        // The attention row is kv_cache.attention_output_sqnr_db, column by column.
        QCOMPARE(
            rowOf(c, QStringLiteral("attention_output_sqnr_db")).value(u"values").toArray().at(1).toDouble(),
            kv.value(u"attention_output_sqnr_db").toDouble());
        // The comparison's own notes: the same FP8 KV cast from bfloat16 (column 2) and float16
        // (column 4, AWQ runs in float16) reads two SQNRs, and one note names both.
        const QJsonArray notes = c.value(u"notes").toArray();
        QCOMPARE(notes.size(), 1);
        const QString note = notes.first().toString();
        for (const QString &word :
             {labels.at(1), labels.at(3), QStringLiteral("bfloat16"), QStringLiteral("float16")})
            QVERIFY2(note.contains(word), qPrintable(note));
    }

    void columnsThatCannotStartHaveNoSpeed()
    {
        // Llama-3.1-70B on one H100 SXM: 70.6 B parameters x 2 bytes = 141 GB of BF16 weights against
        // a budget of at most 0.92 x 80 GiB = 79.0 GB. vLLM cannot start either 16-bit column; with AWQ INT4
        // (70.6 B x ~4.25 bits = ~37.5 GB) it starts.
        const QJsonObject c =
            json({QStringLiteral("compare"), QStringLiteral("--model"), QStringLiteral("llama-3.1-70b"),
                  QStringLiteral("--gpu"), QStringLiteral("h100-sxm")});
        const QJsonArray variants = c.value(u"variants").toArray();
        QCOMPARE(variants.size(), 4);
        const QJsonObject bf16 = variants.at(0).toObject();
        QVERIFY(bf16.value(u"weights_bytes").toInteger() > 141'000'000'000);
        QVERIFY(bf16.value(u"budget_bytes").toInteger() < 79'030'000'000);
        QCOMPARE(bf16.value(u"fits"), QJsonValue(false));
        QCOMPARE(bf16.value(u"engine_starts"), QJsonValue(false));
        QVERIFY2(bf16.value(u"start_failure").toString().contains(QLatin1String("weights alone")),
                 qPrintable(bf16.value(u"start_failure").toString()));
        for (const char *key : {"decode_tokens_per_second", "decode_tokens_per_second_per_sequence",
                                "prefill_seconds", "decode_bound", "serving"})
            QVERIFY2(bf16.value(QLatin1String(key)).isNull(), key);
        const QJsonObject int4Fp8 = variants.at(3).toObject();
        QCOMPARE(int4Fp8.value(u"engine_starts"), QJsonValue(true));
        QVERIFY(int4Fp8.value(u"start_failure").isNull());
        QVERIFY(int4Fp8.value(u"decode_tokens_per_second").toDouble() > 0);
        // The same keys from the same function as calc --json.
        const QJsonObject calc =
            json({QStringLiteral("calc"), QStringLiteral("--model"), QStringLiteral("llama-3.1-70b"),
                  QStringLiteral("--gpu"), QStringLiteral("h100-sxm"), QStringLiteral("--dtype"),
                  QStringLiteral("bfloat16")});
        QCOMPARE(calc.value(u"fits"), bf16.value(u"fits"));
        QCOMPARE(calc.value(u"engine_starts"), bf16.value(u"engine_starts"));
        QCOMPARE(calc.value(u"start_failure"), bf16.value(u"start_failure"));

        // The verdict row comes first; the figures of a server that never runs are null, with the reason.
        const QJsonObject verdict = c.value(u"rows").toArray().first().toObject();
        QCOMPARE(verdict.value(u"key").toString(), QStringLiteral("runs"));
        QCOMPARE(verdict.value(u"values").toArray().at(0).toString(), QStringLiteral("does not start"));
        QCOMPARE(verdict.value(u"values").toArray().at(3).toString(), QStringLiteral("fits"));
        for (const char *key :
             {"headroom_bytes", "kv_capacity_tokens", "max_concurrency", "largest_batch_that_fits",
              "decode_tokens_per_second", "prefill_seconds", "decode_bound"}) {
            const QJsonObject row = rowOf(c, QLatin1String(key));
            QVERIFY2(row.value(u"values").toArray().at(0).isNull(), key);
            QCOMPARE(row.value(u"reasons").toArray().at(0).toString(),
                     bf16.value(u"start_failure").toString());
            QVERIFY2(!row.value(u"values").toArray().at(3).isNull(), key);
        }

        // The table: "does not start" with a numbered reason under it; dashes, no speed.
        const Run r =
            run({QStringLiteral("compare"), QStringLiteral("--model"), QStringLiteral("llama-3.1-70b"),
                 QStringLiteral("--gpu"), QStringLiteral("h100-sxm")});
        const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
        const auto line = [&](const QString &start) {
            for (const QString &l : lines)
                if (l.startsWith(start))
                    return l;
            return QString();
        };
        QVERIFY2(line(QStringLiteral("runs?")).contains(QLatin1String("does not start [1]")),
                 qPrintable(line(QStringLiteral("runs?"))));
        QVERIFY2(line(QStringLiteral("[1] BF16 + BF16 KV: the weights alone")).size() > 0, r.out.constData());
        const QString decode = line(QStringLiteral("decode tokens/s"));
        QVERIFY2(decode.mid(QStringLiteral("decode tokens/s").size())
                     .trimmed()
                     .startsWith(QStringLiteral("— [1]")),
                 qPrintable(decode));
    }

    void anMlaCacheIsTheLatentNotKeys()
    {
        // DeepSeek-V2-Lite caches one MLA latent a token and layer: c_KV of kv_lora_rank 512
        // values and the shared RoPE key of 64 (DeepSeek-V2 paper, arXiv 2405.04434, 2.1.2:
        // (d_c + d_h^R) l = 576 l elements). It has no keys or values of its own.
        const Run r =
            run({QStringLiteral("compare"), QStringLiteral("--model"), QStringLiteral("deepseek-v2-lite"),
                 QStringLiteral("--gpu"), QStringLiteral("h100-sxm")});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(!text.contains(QLatin1String("\n    keys ")), r.out.constData());
        QVERIFY2(!text.contains(QLatin1String("\n    values ")), r.out.constData());
        QVERIFY2(text.contains(QLatin1String("\n    MLA latent ")), r.out.constData());
        QVERIFY2(text.contains(
                     QLatin1String("[4096, 576] like the MLA latent (c_KV, 512 values, and the RoPE key, "
                                   "64) of one layer over 4096 tokens")),
                 r.out.constData());
    }

    void differencesFromANegativeOrDecibelFigureAreAbsolute()
    {
        using namespace kvscope;
        // A headroom of -10 GiB that becomes -5 GiB: +5 GiB, not "+50 %" (nor "-50 %").
        QVERIFY(!percentDifferenceMeans(QStringLiteral("bytes"), -10.0 * 1024 * 1024 * 1024));
        // SQNR in dB is a log ratio already: 17.14 dB to 21.40 dB is +4.26 dB, not "+24.9 %".
        QVERIFY(!percentDifferenceMeans(QStringLiteral("dB"), 17.14));
        QVERIFY(percentDifferenceMeans(QStringLiteral("bytes"), 131072));
        QVERIFY(!percentDifferenceMeans(QStringLiteral("bytes"), 0));

        ComparedColumn first, second;
        first.plan.headroomBytes = -10LL << 30;
        second.plan.headroomBytes = -5LL << 30;
        for (ComparedColumn *c : {&first, &second}) {
            c->plan.engineStarts = true;
            c->accuracy.weights.error = SimulatedError{};
        }
        first.accuracy.weights.error->sqnrDb = 17.14;
        second.accuracy.weights.error->sqnrDb = 21.40;
        const QList<CompareRow> rows = comparisonRows({first, second});
        for (const CompareRow &row : rows) {
            if (row.id == CompareRowId::HeadroomBytes) {
                QCOMPARE(*row.cells.at(1).delta, double(5LL << 30));
                QVERIFY(!row.cells.at(1).deltaPercent);
            }
            if (row.id == CompareRowId::WeightSqnrDb) {
                QCOMPARE(*row.cells.at(1).delta, 21.40 - 17.14);
                QVERIFY(!row.cells.at(1).deltaPercent);
            }
        }
        Comparison c;
        c.columns = {first, second};
        c.columns[0].label = QStringLiteral("first");
        c.columns[1].label = QStringLiteral("second");
        c.rows = rows;
        const QString table = cli::comparisonAsText(c);
        QVERIFY2(table.contains(QStringLiteral("-5.00 GiB (+5.00 GiB)")), qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("21.40 dB (+4.26 dB)")), qPrintable(table));
    }

    void variants()
    {
        const QJsonObject c =
            json({QStringLiteral("compare"), QStringLiteral("--batch-size"), QStringLiteral("32"),
                  QStringLiteral("--variant"), QString(), QStringLiteral("--variant"),
                  QStringLiteral("--kv-cache-dtype fp8_e5m2 --gpu-memory-utilization 0.8")});
        const QJsonArray variants = c.value(u"variants").toArray();
        QCOMPARE(variants.size(), 2);
        QCOMPARE(variants.at(0).toObject().value(u"batch_size").toInteger(), 32);
        QCOMPARE(variants.at(1).toObject().value(u"batch_size").toInteger(), 32);
        // The label names what the precisions do not: the utilization the variant changes too.
        QCOMPARE(variants.at(1).toObject().value(u"label").toString(),
                 QStringLiteral("BF16 + FP8 E5M2 KV (--gpu-memory-utilization 0.8)"));
        const QJsonObject options = variants.at(1).toObject().value(u"options").toObject();
        QCOMPARE(options.value(u"kv-cache-dtype").toString(), QStringLiteral("fp8_e5m2"));
        QCOMPARE(options.value(u"gpu-memory-utilization").toString(), QStringLiteral("0.8"));
        QCOMPARE(options.size(), 2);
    }

    // --serving-features: the bare deployment, then the drafter, 4 LoRA slots of rank 64 and a
    // system prompt of half --seq-len, each alone (core/compare/comparison.h).
    void servingFeatures()
    {
        const QJsonObject c = json({QStringLiteral("compare"), QStringLiteral("--seq-len"),
                                    QStringLiteral("8192"), QStringLiteral("--serving-features")});
        const QJsonArray variants = c.value(u"variants").toArray();
        QCOMPARE(variants.size(), 4);
        QCOMPARE(variants.at(0).toObject().value(u"options").toObject().size(), 0);
        QCOMPARE(variants.at(1).toObject().value(u"speculative_method").toString(), QStringLiteral("eagle3"));
        QCOMPARE(variants.at(1).toObject().value(u"draft_weights_bytes").toInteger(), 850'159'616);
        const QJsonObject lora = variants.at(2).toObject().value(u"options").toObject();
        QCOMPARE(lora.value(u"max-loras").toString(), QStringLiteral("4"));
        QCOMPARE(lora.value(u"max-lora-rank").toString(), QStringLiteral("64"));
        QCOMPARE(
            variants.at(3).toObject().value(u"options").toObject().value(u"shared-prefix-len").toString(),
            QStringLiteral("4096"));
    }

    void badVariants_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString variant = QStringLiteral("--variant");
        QTest::newRow("bad value")
            << QStringList{variant, QString(), variant, QStringLiteral("--kv-cache-dtype fp9")} << 1
            << "--variant 2 (\"--kv-cache-dtype fp9\"): --kv-cache-dtype: unknown KV cache "
               "dtype 'fp9'";
        QTest::newRow("unknown option")
            << QStringList{variant, QStringLiteral("--colour red"), variant, QString()} << 2
            << "--variant 1 (\"--colour red\"): Unknown option 'colour'";
        QTest::newRow("stray word") << QStringList{variant, QString(), variant, QStringLiteral("fp8")} << 2
                                    << "--variant 2 (\"fp8\"): unexpected argument 'fp8'";
        QTest::newRow("one variant") << QStringList{variant, QString()} << 2
                                     << "--variant: give 2 to 4 variants, got 1";
        QTest::newRow("five variants") << QStringList{variant,   QString(), variant,   QString(), variant,
                                                      QString(), variant,   QString(), variant,   QString()}
                                       << 2 << "got 5";
        QTest::newRow("serving features with variants")
            << QStringList{QStringLiteral("--serving-features"), variant, QString(), variant, QString()} << 2
            << "--serving-features: give it without --variant";
        QTest::newRow("bad shared option") << QStringList{QStringLiteral("--batch-size"), QStringLiteral("0")}
                                           << 1 << "--batch-size: must be a positive integer, got '0'";
    }

    void badVariants()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = run(QStringList{QStringLiteral("compare")} + arguments);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.startsWith(QLatin1String("kvscope: error: ")), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }

    void table()
    {
        const Run r = run({QStringLiteral("compare")});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        for (const char *part :
             {"Llama-3.1-8B on NVIDIA H100 SXM 80GB x 1", "BF16 + BF16 KV", "AWQ INT4 + FP8 KV",
              "weights per GPU", "KV bytes per token", "128.00 KiB", "64.00 KiB (-64.00 KiB, -50.0 %) *",
              "KV capacity", "decode tokens/s", "time to first token", "weight SQNR", "lossless",
              "Published results", "https://arxiv.org/abs/2306.00978",
              "  note: “BF16 + FP8 KV” and “AWQ INT4 + FP8 KV” cast their KV cache to the same FP8"})
            QVERIFY2(out.contains(QString::fromUtf8(part)), part);
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_clicompare.moc"
