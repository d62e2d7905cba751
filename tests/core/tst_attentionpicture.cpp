// SPDX-License-Identifier: MIT
// The attention tab's picture (core/compare/attentionpicture.h): one query's
// weights token by token must add up to the figures it shows, and its sixteen
// queries to the figures Compare shows for the same model and KV format.
#include "core/compare/accuracy.h"
#include "core/compare/attentionpicture.h"
#include "core/library/library.h"
#include "core/plan/planner.h"
#include "tests/testsupport.h"

#include <cmath>

#include <QJsonArray>
#include <QTest>

using namespace kvscope;

namespace {

const ModelArch &llama8b()
{
    static const ModelArch model = *ModelLibrary::builtin().find(QStringLiteral("llama-3.1-8b"));
    return model;
}

} // namespace

class TestAttentionPicture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void figuresAreThoseOfItsWeights()
    {
        AttentionPictureChoices c;
        c.tokens = 96;
        c.query = 3;
        const AttentionPicture p = attentionPicture(llama8b(), WeightDtype::BFloat16, c);
        QCOMPARE(p.keyWidth, 128);
        QCOMPARE(p.logitScale, 1.0 / std::sqrt(128.0));
        QCOMPARE(p.fp8Scale, 1.0); // the engine's scale
        const quant::AttentionWeights &w = p.weights;
        QCOMPARE(w.weights.size(), size_t(96));
        // ½ Σ|p − p′| and the logit error's root mean square, from the tokens shown.
        double moved = 0, squares = 0;
        for (size_t t = 0; t < w.weights.size(); ++t) {
            moved += 0.5 * std::fabs(w.weights[t] - w.quantizedWeights[t]);
            squares += (w.logits[t] - w.quantizedLogits[t]) * (w.logits[t] - w.quantizedLogits[t]);
        }
        QVERIFY(std::fabs(p.error.massMoved - moved) < 1e-12);
        QVERIFY(std::fabs(p.error.logitErrorRms - std::sqrt(squares / 96)) < 1e-12);
        QCOMPARE(p.error.contextTokens, 96);
        // FP8 keys move logits: not all the same, never by more than E4M3's half step (1/16 relative,
        // 2^-10 below its smallest normal) of a key element, summed over the key.
        QVERIFY(p.error.logitErrorRms > 0);
        // A calibrated scale is the keys' amax / 448.
        c.calibratedScale = true;
        const AttentionPicture calibrated = attentionPicture(llama8b(), WeightDtype::BFloat16, c);
        QVERIFY(calibrated.fp8Scale > 0 && calibrated.fp8Scale != 1.0);
        QVERIFY(calibrated.weights.quantizedLogits != w.quantizedLogits);
        QCOMPARE(calibrated.weights.logits, w.logits); // the exact cache is the same
    }

    void sixteenQueriesAreComparesFigures()
    {
        // Compare averages its 16 decode queries at 1,024 tokens and more; the picture's queries 1
        // to 16 at 1,024 tokens are those queries against the same cache.
        Scenario s;
        s.model = llama8b();
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
        s.kvCacheDtype = KvCacheDtype::Fp8;
        AccuracyCache cache;
        const Accuracy a = estimateAccuracy(s, planMemory(s), cache);
        // Two of its four runs (under ASan each picture costs a second): diffuse queries at the
        // engine's scale and sharp ones at a calibrated scale, between them both query models and scales.
        QCOMPARE(a.kv.attention.size(), 4);
        for (const AttentionRun &run : {a.kv.attention.at(0), a.kv.attention.at(3)}) {
            const quant::AttentionErrorAt &compare = run.errors.first();
            QCOMPARE(compare.contextTokens, 1024);
            double moved = 0;
            for (int query = 1; query <= AttentionQueries; ++query) {
                AttentionPictureChoices c;
                c.format = KvCacheDtype::Fp8;
                c.queries = run.queries;
                c.calibratedScale = run.calibratedScale;
                c.tokens = 1024;
                c.query = query;
                moved += attentionPicture(s.model, planMemory(s).dtype, c).error.massMoved;
            }
            QVERIFY2(std::fabs(moved / AttentionQueries - compare.massMoved) < 1e-12,
                     qPrintable(QStringLiteral("%1 %2: %3 against %4")
                                    .arg(quant::queryModelName(run.queries))
                                    .arg(run.calibratedScale)
                                    .arg(moved / AttentionQueries)
                                    .arg(compare.massMoved)));
        }
        QVERIFY(a.kv.attention.at(0).queries == quant::QueryModel::Diffuse &&
                !a.kv.attention.at(0).calibratedScale);
        QVERIFY(a.kv.attention.at(3).queries == quant::QueryModel::KeyOutliers &&
                a.kv.attention.at(3).calibratedScale);
    }

    void sharpQueriesMoveMoreThanDiffuseOnes()
    {
        // Queries on the keys' outlier channels make large logits; an FP8 key's relative rounding
        // then moves them by more, and more of the attention moves (Compare: 7-12 % against 2.4 %).
        AttentionPictureChoices c;
        c.tokens = 1024;
        double sharp = 0, diffuse = 0;
        for (int query = 1; query <= 4; ++query) {
            c.query = query;
            c.queries = quant::QueryModel::KeyOutliers;
            sharp += attentionPicture(llama8b(), WeightDtype::BFloat16, c).error.logitErrorRms;
            c.queries = quant::QueryModel::Diffuse;
            diffuse += attentionPicture(llama8b(), WeightDtype::BFloat16, c).error.logitErrorRms;
        }
        QVERIFY2(sharp > 2 * diffuse, qPrintable(QStringLiteral("%1 %2").arg(sharp).arg(diffuse)));
    }

    void exportedAsJsonAndCsv()
    {
        AttentionPictureChoices c;
        c.tokens = 3;
        c.format = KvCacheDtype::Fp8E5M2;
        const AttentionPicture p = attentionPicture(llama8b(), WeightDtype::BFloat16, c);
        const QJsonObject o = attentionPictureToJson(p);
        QCOMPARE(o.value(u"format").toString(), QStringLiteral("fp8_e5m2"));
        QCOMPARE(o.value(u"queries").toString(), QStringLiteral("key_outliers"));
        QCOMPARE(o.value(u"scale").toString(), QStringLiteral("engine"));
        QCOMPARE(o.value(u"context_tokens").toInt(), 3);
        const QJsonArray tokens = o.value(u"tokens").toArray();
        QCOMPARE(tokens.size(), 3);
        QCOMPARE(tokens.at(2).toObject().value(u"weight").toDouble(), p.weights.weights[2]);
        const QList<QByteArray> lines = attentionPictureCsv(p).split('\n');
        QCOMPARE(lines.first(),
                 QByteArray("token,logit,quantized_logit,logit_error,weight,quantized_weight"));
        QCOMPARE(lines.at(1).split(',').first(), QByteArray("1"));
        QCOMPARE(lines.at(3).split(',').at(4).toDouble(), p.weights.weights[2]);
    }

    void outOfRangeChoicesAreNamed()
    {
        AttentionPictureChoices c;
        c.format = KvCacheDtype::BFloat16;
        KVSCOPE_VERIFY_ERROR(attentionPicture(llama8b(), WeightDtype::BFloat16, c),
                             QStringLiteral("attention: "),
                             QStringLiteral("'bfloat16' is not an FP8 format"));
        c = {};
        c.tokens = 1;
        KVSCOPE_VERIFY_ERROR(attentionPicture(llama8b(), WeightDtype::BFloat16, c),
                             QStringLiteral("attention: "), QStringLiteral("1 tokens is outside 2 to 1024"));
        c = {};
        c.query = 17;
        KVSCOPE_VERIFY_ERROR(attentionPicture(llama8b(), WeightDtype::BFloat16, c),
                             QStringLiteral("attention: "), QStringLiteral("query 17 is outside 1 to 16"));
    }
};

QTEST_GUILESS_MAIN(TestAttentionPicture)
#include "tst_attentionpicture.moc"
