// SPDX-License-Identifier: MIT
// Images as a workload (core/plan/imageworkload.h): "32 users each sending two 1024x1024 images".
// Each image is the tokens its processor writes for it (tst_imagetokens: 1,371 on Qwen2.5-VL at
// 1024x1024, 1,406 on Mistral-Small-3.1, 260 on Gemma 3), held in the KV cache beside --seq-len's
// text and prefilled with it, as vLLM places the placeholders in the prompt. Reference values by
// hand: Qwen2.5-VL-7B caches 2 x 28 layers x 4 KV heads x 128 x 2 B = 57,344 B a token in bf16.
#include "core/analysis/fit.h"
#include "core/analysis/fixes.h"
#include "core/analysis/formula.h"
#include "core/analysis/growth.h"
#include "core/common/error.h"
#include "core/document/scenariofile.h"
#include "core/library/library.h"
#include "core/plan/imageworkload.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenariovalues.h"
#include "tests/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
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

    void theFormulaSaysWhatTheSequenceHolds()
    {
        const Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 32, 1000, 2);
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        const FormulaLine *available = sheet.line(QStringLiteral("available"));
        QVERIFY(available);
        bool sawSequence = false, sawActivations = false;
        for (const FormulaLine &line : sheet.lines)
            for (const FormulaTerm &term : line.terms) {
                if (term.symbol == QLatin1String("sequence_length")) {
                    sawSequence = true;
                    QCOMPARE(term.value, 3742);
                    QCOMPARE(term.field,
                             QStringLiteral("1,000 text + 2 images × 1,371 tokens (--images-per-request)"));
                }
                if (term.symbol == QLatin1String("activations")) {
                    sawActivations = true;
                    QVERIFY2(
                        term.field.contains(QStringLiteral(
                            "1 dummy images' pixels (0.14 GiB) and the larger of the vision tower's forward "
                            "(2.29 GiB) and the language model's with their encoder outputs (0.11 GiB)")),
                        qPrintable(term.field));
                }
            }
        QVERIFY(sawSequence);
        QVERIFY(sawActivations);
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
        Scenario unlisted = withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 1);
        unlisted.model.vision.family = VisionFamily::Generic; // a tower whose processor kvscope does not list
        QVERIFY(errorOf(unlisted).startsWith(QStringLiteral("--image-size: the tokens an image takes on")));
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

    void vllmProfilesTheEncoderWithItsLargestImages_data()
    {
        // vLLM's encoder budget is max(--max-num-batched-tokens, the largest item's outputs) and its
        // profiling run encodes max(1, min(budget / item, max_num_seqs x max(1, min(999, max_model_len /
        // item)))) items of that size (compute_mm_encoder_budget, MultiModalBudget.get_max_items),
        // holding their outputs of item x text hidden size x 2 B (bf16) through the language model's
        // dummy forward; 0.11 padded each to the whole budget (vllm-project/vllm#25810).
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("version");
        QTest::addColumn<qint64>("maxModelLen");
        QTest::addColumn<qint64>("item");
        QTest::addColumn<qint64>("budget");
        QTest::addColumn<qint64>("items");
        QTest::addColumn<qint64>("heldBytes");
        // Qwen's largest image: max_pixels 12,845,056 / 28^2 = 16,384 outputs, past 8,192 batched tokens.
        QTest::newRow("Qwen2.5-VL-7B, H100") << "qwen2.5-vl-7b"
                                             << "h100-sxm"
                                             << "" << 0LL << 16384LL << 16384LL << 1LL << 16384LL * 3584 * 2;
        // vllm-project/vllm#27706 logs Qwen3-VL on a 16 GB RX 7800 XT (2,048 batched tokens by default):
        // "Encoder cache will be initialized with a budget of 16384 tokens, and profiled with 1 image items".
        // Its outputs carry the three DeepStack levels beside the embedding, 4 x 4,096 wide
        // (Qwen3VLForConditionalGeneration: visual_dim + multiscale_dim, split in _compute_deepstack_embeds).
        QTest::newRow("Qwen3-VL-8B, 16 GB")
            << "qwen3-vl-8b"
            << "custom:16:624:82"
            << "" << 2048LL << 16384LL << 16384LL << 1LL << 16384LL * 4096 * 4 * 2;
        // Mistral-Small-3.1 as vLLM 0.19 ran it (tests/data/vllm-logs.json id 10): 1,540 / 28 = 55 rows and
        // columns = 3,025 outputs; 8,192 / 3,025 = 2 items.
        QTest::newRow("Mistral-Small-3.1, 0.19")
            << "mistral-small-3.1-24b"
            << "h100-sxm"
            << "0.19" << 8192LL << 3025LL << 8192LL << 2LL << 2LL * 3025 * 5120 * 2;
        QTest::newRow("Mistral-Small-3.1, 0.11: padded to the budget")
            << "mistral-small-3.1-24b"
            << "h100-sxm"
            << "0.11" << 8192LL << 3025LL << 8192LL << 2LL << 2LL * 8192 * 5120 * 2;
        // Gemma 3's 256 pooled outputs: 32 items fill 8,192.
        QTest::newRow("Gemma-3-12B") << "gemma-3-12b"
                                     << "h100-sxm"
                                     << "" << 8192LL << 256LL << 8192LL << 32LL << 32LL * 256 * 3840 * 2;
        QTest::newRow("a text model") << "llama-3.1-8b"
                                      << "h100-sxm"
                                      << "" << 0LL << 0LL << 0LL << 0LL << 0LL;
    }

    void vllmProfilesTheEncoderWithItsLargestImages()
    {
        QFETCH(QString, id);
        QFETCH(QString, gpu);
        QFETCH(QString, version);
        QFETCH(qint64, maxModelLen);
        QFETCH(qint64, item);
        QFETCH(qint64, budget);
        QFETCH(qint64, items);
        QFETCH(qint64, heldBytes);
        Scenario s = withImages(id, 1, 1000, 0);
        s.gpu = resolveGpu(gpu);
        s.vllmVersion = version;
        s.maxModelLen = maxModelLen;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.encoder.itemEmbeddings, item);
        QCOMPARE(plan.encoder.budget, budget);
        QCOMPARE(plan.encoder.items, items);
        QCOMPARE(plan.encoder.heldBytes, heldBytes);
    }

    void vllmsProfilingPeakIsTheTowersOrTheLanguageModels_data()
    {
        // vLLM's profiling run encodes the dummy images first, then runs the language model's dummy
        // forward and sampler with their outputs held (GPUModelRunner.profile_run in
        // vllm/v1/worker/gpu_model_runner.py; Model Runner V2's profile_encoder_cache, then _dummy_run);
        // the dummy pixel values, in the model's dtype (the processor's float outputs are cast to it,
        // BaseProcessingContext._postprocess_output in vllm/multimodal/processing/context.py), are a
        // local of profile_run and live through both. So the peak is pixels + max(the tower's forward,
        // the language model's peak + the held outputs).
        // The tower's forward peaks in a block's MLP, with the block's input, the attention's output,
        // the residual sum and the norm's output held (4 widths h a position in Qwen2.5-VL's and
        // Pixtral's blocks) and, for a gated MLP run eagerly (custom ops are off under Inductor, so
        // SiluAndMul is forward_native: silu(gate) * up), gate/up (2 i), silu's temporary (i) and the
        // product (i): 4 h + 4 i, or 5 h + 3 i while down_proj writes; a plain MLP (SigLIP, Llama 4,
        // Qwen3-VL: input, residual sum, norm output) holds 3 h + fc1's i and the activation's i, or
        // 4 h + i while fc2 writes. i is split over tensor parallelism (--mm-encoder-tp-mode weights).
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("tensorParallel");
        QTest::addColumn<qint64>("pixelBytes");
        QTest::addColumn<qint64>("towerBytes");
        // Qwen2.5-VL-7B (h 1,280, i 3,420): one image of 16,384 outputs = 65,536 patches of
        // 3 x 2 x 14 x 14 = 1,176 values; max(4 x 1,280 + 4 x 3,420, 5 x 1,280 + 3 x 3,420) = 18,800.
        QTest::newRow("Qwen2.5-VL-7B") << "qwen2.5-vl-7b" << 1 << 65536LL * 1176 * 2 << 65536LL * 18800 * 2;
        // At TP 2 i is 1,710 a GPU: max(4 x 1,280 + 4 x 1,710, 5 x 1,280 + 3 x 1,710) = 11,960.
        QTest::newRow("Qwen2.5-VL-7B, TP 2")
            << "qwen2.5-vl-7b" << 2 << 65536LL * 1176 * 2 << 65536LL * 11960 * 2;
        // Gemma 3's SigLIP (h 1,152, i 4,304): 32 images of 64 x 64 patches of 3 x 14 x 14 = 588 values;
        // max(3 x 1,152 + 2 x 4,304, 4 x 1,152 + 4,304) = 12,064.
        QTest::newRow("Gemma-3-12B") << "gemma-3-12b" << 1 << 32LL * 4096 * 588 * 2
                                     << 32LL * 4096 * 12064 * 2;
        // Mistral-Small-3.1's Pixtral (h 1,024, i 4,096): two images of 3,025 outputs, 12,100 patches
        // each; max(4 x 1,024 + 4 x 4,096, 5 x 1,024 + 3 x 4,096) = 20,480.
        QTest::newRow("Mistral-Small-3.1")
            << "mistral-small-3.1-24b" << 1 << 2LL * 12100 * 588 * 2 << 2LL * 12100 * 20480 * 2;
        // Qwen3-VL-8B (h 1,152, i 4,304, a plain MLP): one image of 16,384 outputs = 65,536 patches of
        // 3 x 2 x 16 x 16 = 1,536 values; max(3 x 1,152 + 2 x 4,304, 4 x 1,152 + 4,304) = 12,064 widths,
        // and the three DeepStack outputs (16,384 x 4,096 each) held through the last blocks.
        QTest::newRow("Qwen3-VL-8B") << "qwen3-vl-8b" << 1 << 65536LL * 1536 * 2
                                     << 65536LL * 12064 * 2 + 3LL * 16384 * 4096 * 2;
        QTest::newRow("a text model") << "llama-3.1-8b" << 1 << 0LL << 0LL;
    }

    void vllmsProfilingPeakIsTheTowersOrTheLanguageModels()
    {
        QFETCH(QString, id);
        QFETCH(int, tensorParallel);
        QFETCH(qint64, pixelBytes);
        QFETCH(qint64, towerBytes);
        Scenario s = withImages(id, 1, 1000, 0);
        s.tensorParallelSize = tensorParallel;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.encoder.pixelBytes, pixelBytes);
        QCOMPARE(plan.encoder.towerPeakBytes, towerBytes);
        Scenario textOnly = s;
        textOnly.model.vision = {};
        const std::int64_t languageModel = planMemory(textOnly).activationBytes + plan.encoder.heldBytes;
        QCOMPARE(plan.activationBytes, pixelBytes + std::max<std::int64_t>(towerBytes, languageModel));
    }

    void aSmallBatchPeaksInTheTower()
    {
        // Qwen2.5-VL-7B with 16 sequences: the language model's peak (a sampler of 16 x 152,064 logits)
        // is far below the tower's 2.29 GiB, which sets the profiling peak.
        Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 0);
        s.maxNumSeqs = 16;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.activationBytes, 65536LL * 1176 * 2 + 65536LL * 18800 * 2);
    }

    void sglangProfilesNoEncoder()
    {
        Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 1, 1000, 0);
        s.engine = Engine::Sglang;
        QCOMPARE(planMemory(s).encoder.heldBytes, 0);
    }

    void aScenarioFileKeepsTheImages()
    {
        Scenario s = withImages(QStringLiteral("qwen2.5-vl-7b"), 8, 2000, 3);
        s.imageWidth = 1920;
        s.imageHeight = 1080;
        ScenarioDocument d;
        d.scenario = scenarioToValues(s);
        const QByteArray bytes = scenarioFileBytes(d);
        // A count as a JSON number, the size as text.
        const QJsonObject written = QJsonDocument::fromJson(bytes).object().value(u"scenario").toObject();
        QCOMPARE(written.value(u"images-per-request").toInteger(), 3);
        QCOMPARE(written.value(u"image-size").toString(), QStringLiteral("1920x1080"));
        const Scenario back = scenarioFromValues(
            parseScenarioFile(bytes, QStringLiteral("images.kvscope")).scenario, builtinResolvers());
        QCOMPARE(back.imagesPerRequest, 3);
        QCOMPARE(back.imageWidth, 1920);
        QCOMPARE(back.imageHeight, 1080);
        QCOMPARE(planMemory(back).seqLen, planMemory(s).seqLen);
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
