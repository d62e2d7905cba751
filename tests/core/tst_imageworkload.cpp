// SPDX-License-Identifier: MIT
// Images as a workload (core/plan/imageworkload.h): "32 users each sending two 1024x1024 images".
// Each image is the tokens its processor writes for it (tst_imagetokens: 1,371 on Qwen2.5-VL at
// 1024x1024, 1,406 on Mistral-Small-3.1, 260 on Gemma 3), held in the KV cache beside --seq-len's
// text and prefilled with it, as vLLM places the placeholders in the prompt. Reference values by
// hand: Qwen2.5-VL-7B caches 2 x 28 layers x 4 KV heads x 128 x 2 B = 57,344 B a token in bf16.
#include "core/analysis/fit.h"
#include "core/analysis/fixes.h"
#include "core/analysis/growth.h"
#include "core/common/error.h"
#include "core/library/library.h"
#include "core/plan/imageworkload.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenariovalues.h"
#include "tests/testsupport.h"

#include <QTest>

using namespace kvscope;

namespace {

/// `users` requests of `text` tokens, each with `images` pictures of 1024 x 1024 pixels.
Scenario withImages(const QString &model, std::int64_t users, std::int64_t text, std::int64_t images)
{
    Scenario s;
    s.model = test::preset(model);
    s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
    s.batchSize = users;
    s.seqLen = text;
    s.imagesPerRequest = images;
    return s;
}

QString errorOf(const Scenario &s)
{
    try {
        planMemory(s);
    } catch (const Error &error) {
        return error.message();
    }
    return {};
}

} // namespace

class TestImageWorkload : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void imagesAreTokensOfTheSequence()
    {
        // 1,000 text tokens + 2 x 1,371 = 3,742 tokens: ceil(3,742 / 16) = 234 blocks a sequence.
        const MemoryPlan plan = planMemory(withImages(QStringLiteral("qwen2.5-vl-7b"), 32, 1000, 2));
        QCOMPARE(plan.imagesPerRequest, 2);
        QCOMPARE(plan.imageTokensPerImage, 1371);
        QCOMPARE(plan.imageTokensPerSequence, 2742);
        QCOMPARE(plan.imageEmbeddingsPerSequence, 2738);
        QCOMPARE(plan.seqLen, 3742);
        QCOMPARE(plan.kv.blocksPerSequence, 234);
        // 32 x 234 x 16 x 57,344 B.
        QCOMPARE(plan.kv.cacheBytes, 6'870'269'952LL);
        // Without images the same users hold 63 blocks each: the images are most of the cache.
        QCOMPARE(planMemory(withImages(QStringLiteral("qwen2.5-vl-7b"), 32, 1000, 0)).kv.cacheBytes,
                 32LL * 63 * 16 * 57'344);
    }

    void eachFamilyCountsItsOwnTokens_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("perImage");
        QTest::newRow("Mistral-Small-3.1: 44 rows of 44 + [IMG_BREAK]") << "mistral-small-3.1-24b" << 1406LL;
        QTest::newRow("Gemma 3: 256 + 4 markers") << "gemma-3-27b" << 260LL;
        QTest::newRow("Qwen3-VL: 1,024 + 2") << "qwen3-vl-8b" << 1026LL;
    }

    void eachFamilyCountsItsOwnTokens()
    {
        QFETCH(QString, id);
        QFETCH(qint64, perImage);
        const MemoryPlan plan = planMemory(withImages(id, 4, 2000, 3));
        QCOMPARE(plan.imageTokensPerImage, perImage);
        QCOMPARE(plan.seqLen, 2000 + 3 * perImage);
    }

    void thePromptPrefillsItsImages()
    {
        Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 8, 1000, 2);
        s.promptLen = 500; // 500 text tokens in, 500 out
        QCOMPARE(planMemory(s).speed.promptLen, 500 + 2742);
        s.promptLen = 0; // the whole sequence is the prompt
        QCOMPARE(planMemory(s).speed.promptLen, 3742);
    }

    void theGrowthChartCountsEveryToken()
    {
        const Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 32, 1000, 2);
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData bySequence =
            growthChartData(s, plan, GrowthAxis::SequenceLength, 32, AxisScale::Logarithmic, false);
        QCOMPARE(bySequence.currentX, 3742);
        QCOMPARE(bySequence.currentKvBytes, plan.kv.cacheBytes);
        // On the batch axis each sequence is 3,742 tokens: at 32 users the curve meets the plan.
        const GrowthChartData byBatch =
            growthChartData(s, plan, GrowthAxis::BatchSize, 32, AxisScale::Logarithmic, false);
        const GrowthCurve &curve = byBatch.curves.at(byBatch.currentCurve);
        const qsizetype at = curve.x.indexOf(32);
        QVERIFY(at >= 0);
        QCOMPARE(curve.kvBytes.at(at), plan.kv.cacheBytes);
    }

    void aLongerSequenceIsMoreText()
    {
        // The fix "longest sequence" counts the images; --seq-len is what is left for text.
        const Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 32, 1000, 2);
        const MemoryPlan plan = planMemory(s);
        bool found = false;
        for (const Fix &fix : proposeFixes(s, plan, GpuLibrary::builtin().presets())) {
            if (fix.kind != FixKind::SeqLen)
                continue;
            found = true;
            QCOMPARE(fix.scenario.seqLen, std::min(plan.largestSeqLenThatFits, plan.maxModelLen) - 2742);
            QCOMPARE(fix.plan.seqLen, fix.scenario.seqLen + 2742);
        }
        QVERIFY(found);
    }

    void fitServesRequestsOfMaxModelLenImagesIncluded()
    {
        FitQuery query;
        query.base = withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 2);
        query.concurrency = 16;
        query.maxModelLen = 8192;
        query.gpus = {*GpuLibrary::builtin().find(QStringLiteral("h100-sxm"))};
        query.maxGpus = 1;
        const FitResult result = findFits(query);
        QVERIFY(!result.fits.isEmpty());
        for (const FitRow &row : result.fits) {
            QCOMPARE(row.scenario.seqLen, 8192 - 2742);
            QCOMPARE(row.plan.seqLen, 8192);
        }
    }

    void badImagesAreNamed()
    {
        QVERIFY(errorOf(withImages(QStringLiteral("llama-3.1-8b"), 1, 1000, 1))
                    .startsWith(QStringLiteral("--images-per-request: Llama-3.1-8B takes no images")));
        Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 1);
        s.imageWidth = 10;
        s.imageHeight = 3000; // Qwen's processor refuses an aspect ratio above 200
        QVERIFY(errorOf(s).startsWith(QStringLiteral("--image-size: ")));
        QVERIFY(errorOf(withImages(QStringLiteral("llama-4-scout-17b-16e"), 1, 1000, 1))
                    .startsWith(QStringLiteral("--image-size: the tokens an image takes on")));
        QVERIFY(errorOf(withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, MaxImagesPerRequest + 1))
                    .startsWith(QStringLiteral("--images-per-request: ")));
        QVERIFY(errorOf(withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 0)).isEmpty());
    }

    void theOptionsAreSpelledAndReadBack()
    {
        const Scenario base = withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 0);
        QVERIFY(!scenarioToValues(base).contains(QStringLiteral("images-per-request")));
        QVERIFY(!scenarioToValues(base).contains(QStringLiteral("image-size")));
        const Scenario read =
            applyValues(base, {{QStringLiteral("images-per-request"), QStringLiteral("2")},
                               {QStringLiteral("image-size"), QStringLiteral(" 1920 X 1080 ")}});
        QCOMPARE(read.imagesPerRequest, 2);
        QCOMPARE(read.imageWidth, 1920);
        QCOMPARE(read.imageHeight, 1080);
        QCOMPARE(scenarioToValues(read).value(QStringLiteral("image-size")), QStringLiteral("1920x1080"));
        QCOMPARE(applyValues(base, differingValues(base, read)), read);
        for (const QString &bad : {QStringLiteral("1024"), QStringLiteral("0x10"), QStringLiteral("70000x10"),
                                   QStringLiteral("-5x5"), QStringLiteral("axb")}) {
            try {
                applyValues(base, {{QStringLiteral("image-size"), bad}});
                QFAIL(qPrintable(bad));
            } catch (const Error &error) {
                QVERIFY2(error.message().contains(QStringLiteral("--image-size")),
                         qPrintable(error.message()));
                QVERIFY(error.message().contains(bad));
            }
        }
    }

    void vllmsImageLimitIsRaisedOnlyPastItsDefault()
    {
        // vLLM takes up to 999 images a prompt unless --limit-mm-per-prompt says more.
        Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 999);
        s.imageWidth = s.imageHeight = 56;
        QVERIFY(!launchLine(s).arguments.contains(QStringLiteral("--limit-mm-per-prompt")));
        s.imagesPerRequest = 1000;
        const QStringList arguments = launchLine(s).arguments;
        const qsizetype at = arguments.indexOf(QStringLiteral("--limit-mm-per-prompt"));
        QVERIFY(at >= 0);
        QCOMPARE(arguments.at(at + 1), QStringLiteral("{\"image\": 1000}"));
    }
};

QTEST_GUILESS_MAIN(TestImageWorkload)
#include "tst_imageworkload.moc"
