// SPDX-License-Identifier: MIT
// The tokens an image becomes in a vision-language model's prompt (core/model/imagetokens.h), each
// family by its image processor's own rule in huggingface/transformers: Qwen2-VL's smart_resize
// (models/qwen2_vl/image_processing_qwen2_vl.py; Python's round halves to even), Pixtral's resize and
// row markers (as vLLM counts them: vllm/model_executor/models/mistral3.py) and Gemma 3's fixed
// pooled image (models/gemma3/processing_gemma3.py). Reference values by hand (a Python transcription
// of smart_resize gives the same sizes), with the presets' processor limits: Qwen2.5-VL min_pixels
// 3,136 and max_pixels 12,845,056, Qwen3-VL 65,536 and 16,777,216, Mistral-Small-3.1 longest edge 1,540.
#include "core/common/error.h"
#include "core/model/imagetokens.h"
#include "tests/testsupport.h"

#include <tuple>
#include <utility>

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

class TestImageTokens : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void qwenSmartResize_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("width");
        QTest::addColumn<qint64>("height");
        QTest::addColumn<qint64>("resizedWidth");
        QTest::addColumn<qint64>("resizedHeight");
        QTest::addColumn<qint64>("embeddings");
        // 1024 / 28 = 36.57 -> 37 x 28 = 1,036; (1,036 / 14)^2 / 4 = 1,369.
        QTest::newRow("Qwen2.5-VL 1024x1024")
            << "qwen2.5-vl-7b" << 1024LL << 1024LL << 1036LL << 1036LL << 1369LL;
        // 1,932 x 1,092: 138 x 78 / 4 = 2,691.
        QTest::newRow("Qwen2.5-VL 1920x1080")
            << "qwen2.5-vl-7b" << 1920LL << 1080LL << 1932LL << 1092LL << 2691LL;
        // Halves to even: 1,050 / 28 = 37.5 -> 38, 1,022 / 28 = 36.5 -> 36.
        QTest::newRow("Qwen2.5-VL halves to even")
            << "qwen2.5-vl-7b" << 1050LL << 1022LL << 1064LL << 1008LL << 1368LL;
        // Past max_pixels: scaled by sqrt(64e6 / 12,845,056) and floored, 3,584^2 -> 16,384.
        QTest::newRow("Qwen2.5-VL 8000x8000")
            << "qwen2.5-vl-7b" << 8000LL << 8000LL << 3584LL << 3584LL << 16384LL;
        QTest::newRow("Qwen2.5-VL 4000x3000")
            << "qwen2.5-vl-7b" << 4000LL << 3000LL << 4004LL << 2996LL << 15301LL;
        // Under min_pixels: scaled up by sqrt(3,136 / 400) = 2.8 and ceiled, 56 x 56 -> 4.
        QTest::newRow("Qwen2.5-VL 20x20") << "qwen2.5-vl-7b" << 20LL << 20LL << 56LL << 56LL << 4LL;
        // Qwen3-VL: factor 32, patches of 16: 1,024 stays; 64 x 64 / 4 = 1,024.
        QTest::newRow("Qwen3-VL 1024x1024")
            << "qwen3-vl-8b" << 1024LL << 1024LL << 1024LL << 1024LL << 1024LL;
        // 100 x 100 rounds to 96 x 96 = 9,216 < 65,536: up by sqrt(6.5536) = 2.56 -> 256 x 256 -> 64.
        QTest::newRow("Qwen3-VL 100x100") << "qwen3-vl-8b" << 100LL << 100LL << 256LL << 256LL << 64LL;
    }

    void qwenSmartResize()
    {
        QFETCH(QString, id);
        QFETCH(qint64, width);
        QFETCH(qint64, height);
        QFETCH(qint64, resizedWidth);
        QFETCH(qint64, resizedHeight);
        QFETCH(qint64, embeddings);
        const ImageTokens t = imageTokens(preset(id), width, height);
        QCOMPARE(t.width, resizedWidth);
        QCOMPARE(t.height, resizedHeight);
        QCOMPARE(t.embeddings, embeddings);
        QCOMPARE(t.promptTokens, embeddings + 2); // <|vision_start|> and <|vision_end|>
    }

    void pixtralRowsAndBreaks()
    {
        const ModelArch &m = preset(QStringLiteral("mistral-small-3.1-24b"));
        // vLLM's count (Mistral3HFEncoderInfo.get_patch_grid_size): a row or column per started 28 pixels
        // (patch 14 x merge 2). 1,024 -> 37 rows and columns: 37 x 37 image tokens and 37 row markers
        // ([IMG_BREAK], the last [IMG_END]).
        ImageTokens t = imageTokens(m, 1024, 1024);
        QCOMPARE(t.width, 1036LL);
        QCOMPARE(t.embeddings, 37LL * 37);
        QCOMPARE(t.promptTokens, 37LL * 38);
        // 1,050 = 37.5 x 28: a started column counts (whole 14-pixel patches alone would give 37).
        t = imageTokens(m, 1050, 1050);
        QCOMPARE(t.embeddings, 38LL * 38);
        QCOMPARE(t.promptTokens, 38LL * 39);
        // 2,000 x 1,000 past the 1,540 edge: / 1.2987 -> 1,540 x 770, 55 columns and ceil(27.5) = 28 rows.
        t = imageTokens(m, 2000, 1000);
        QCOMPARE(t.width, 1540LL);
        QCOMPARE(t.height, 784LL);
        QCOMPARE(t.embeddings, 28LL * 55);
        QCOMPARE(t.promptTokens, 28LL * 56);
        // Smaller than one merged patch: still one token and its [IMG_END].
        t = imageTokens(m, 8, 1);
        QCOMPARE(t.embeddings, 1LL);
        QCOMPARE(t.promptTokens, 2LL);
    }

    void llama4Tiles_data()
    {
        QTest::addColumn<qint64>("width");
        QTest::addColumn<qint64>("height");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("columns");
        // get_best_fit over the canvases of at most 16 tiles of 336: 1024 needs 4 tiles a side to scale
        // up (1,344 / 1,024 = 1.31), and only 4 x 4 has them.
        QTest::newRow("1024x1024") << 1024LL << 1024LL << 4LL << 4LL;
        // No canvas scales 1920 x 1080 up; 3 x 5 tiles scale it down least: min(1,680 / 1,920, 1,008 /
        // 1,080).
        QTest::newRow("1920x1080") << 1920LL << 1080LL << 3LL << 5LL;
        // One tile scales 300 x 200 up by 1.12, as 2 x 1 does: the smaller area wins.
        QTest::newRow("300x200") << 300LL << 200LL << 1LL << 1LL;
        // A pixel wider than a tile: 1 x 2 tiles scale it by exactly 1.
        QTest::newRow("337x336") << 337LL << 336LL << 1LL << 2LL;
    }

    void llama4Tiles()
    {
        QFETCH(qint64, width);
        QFETCH(qint64, height);
        QFETCH(qint64, rows);
        QFETCH(qint64, columns);
        // (336 / 14)^2 / 4 = 144 outputs a tile (pixel_shuffle_ratio 0.5); several tiles add a thumbnail.
        const ImageTokens t = imageTokens(preset(QStringLiteral("llama-4-scout-17b-16e")), width, height);
        QCOMPARE(t.width, columns * 336);
        QCOMPARE(t.height, rows * 336);
        const qint64 tiles = rows * columns;
        QCOMPARE(t.embeddings, (tiles > 1 ? tiles + 1 : 1) * 144);
        // <|image_start|>, each row's tiles and separators (x between tiles, y after the row),
        // <|image|>, the thumbnail's 144, <|image_end|>.
        QCOMPARE(t.promptTokens, 3 + 144 + (tiles > 1 ? rows * (columns * 144 + columns) : 0));
    }

    void gemmaTakesAFixedImage()
    {
        // 256 pooled tokens whatever the size, between "\n\n<start_of_image>" and "<end_of_image>\n\n".
        for (const auto &[width, height] : {std::pair{1024LL, 1024LL}, std::pair{200LL, 3000LL}}) {
            const ImageTokens t = imageTokens(preset(QStringLiteral("gemma-3-4b")), width, height);
            QCOMPARE(t.embeddings, 256LL);
            QCOMPARE(t.promptTokens, 260LL);
            QCOMPARE(t.width, 896LL);
        }
    }

    void whatTheTowerComputes_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("patches");
        QTest::addColumn<qint64>("attentionPairs");
        QTest::addColumn<qint64>("windowPairs");
        // A 1024 x 1024 image on each family, by hand.
        // Qwen2.5-VL: 1,036 / 14 = 74 patches a side; windows of 112 / 28 = 4 merged tokens over the
        // 37-wide merged grid: nine of 4 and one of 1 a side, 9 x 16 + 1 = 145; 2^4 x 145 x 145.
        QTest::newRow("Qwen2.5-VL") << "qwen2.5-vl-7b" << 5476LL << 5476LL * 5476 << 16LL * 145 * 145;
        // Qwen3-VL: 1,024 / 16 = 64 a side, full attention in every layer.
        QTest::newRow("Qwen3-VL") << "qwen3-vl-8b" << 4096LL << 4096LL * 4096 << 4096LL * 4096;
        // Pixtral (Mistral 3): 37 x 37 merged blocks of 2 x 2 patches, the image attending to itself.
        QTest::newRow("Mistral 3") << "mistral-small-3.1-24b" << 5476LL << 5476LL * 5476 << 5476LL * 5476;
        // Gemma 3's SigLIP: the 896 square's 64 x 64 patches, whatever the size.
        QTest::newRow("Gemma 3") << "gemma-3-4b" << 4096LL << 4096LL * 4096 << 4096LL * 4096;
        // Llama 4: 16 tiles and the thumbnail, each 24 x 24 patches and a class token on its own.
        QTest::newRow("Llama 4") << "llama-4-scout-17b-16e" << 17LL * 577 << 17LL * 577 * 577
                                 << 17LL * 577 * 577;
    }

    void whatTheTowerComputes()
    {
        QFETCH(QString, id);
        QFETCH(qint64, patches);
        QFETCH(qint64, attentionPairs);
        QFETCH(qint64, windowPairs);
        const ImageTokens t = imageTokens(preset(id), 1024, 1024);
        QCOMPARE(t.patches, patches);
        QCOMPARE(t.attentionPairs, attentionPairs);
        QCOMPARE(t.windowPairs, windowPairs);
    }

    void kimiVlScalesToItsPatchLimit()
    {
        // KimiVLProcessingInfo.get_num_image_tokens (vLLM kimi_vl.py), in_token_limit 4,096 patches of 14:
        // 1024 x 1024 has 73 x 73 = 5,329 whole patches, scaled by sqrt(4,096 / 5,329) to 897 x 897 and
        // padded to 33 x 28 = 924 a side: 33 x 33 = 1,089 outputs. 1920 x 1080: 137 x 77 = 10,549,
        // scaled to 1,196 x 672, padded to 1,204 x 672: 43 x 24 = 1,032. 896 x 896 (64 x 64 = 4,096)
        // stays: 32 x 32.
        const ModelArch &m = preset(QStringLiteral("kimi-vl-a3b"));
        for (const auto &[width, height, padded, outputs] :
             {std::tuple{1024LL, 1024LL, std::pair{924LL, 924LL}, 1089LL},
              std::tuple{1920LL, 1080LL, std::pair{1204LL, 672LL}, 1032LL},
              std::tuple{896LL, 896LL, std::pair{896LL, 896LL}, 1024LL}}) {
            const ImageTokens t = imageTokens(m, width, height);
            QCOMPARE(t.width, padded.first);
            QCOMPARE(t.height, padded.second);
            QCOMPARE(t.embeddings, outputs);
            QCOMPARE(t.promptTokens, outputs + 4); // <|media_start|>image<|media_content|> ... <|media_end|>
            QCOMPARE(t.patches, outputs * 4);
            QCOMPARE(t.attentionPairs, t.patches * t.patches);
        }
        // vLLM sizes its encoder cache by its dummy 1024 x 1024 image (MaxImageTokenMeta).
        QCOMPARE(kvscope::largestImage(m).embeddings, 1089LL);
    }

    void largestImage()
    {
        // vLLM's max tokens per item: Qwen's max_pixels / (14^2 x 4) = 16,384; Pixtral's 1,540 square
        // 55 x 55; Gemma's 256; Llama 4's 16 tiles and thumbnail, 17 x 144.
        QCOMPARE(kvscope::largestImage(preset(QStringLiteral("qwen2.5-vl-7b"))).embeddings, 16384LL);
        QCOMPARE(kvscope::largestImage(preset(QStringLiteral("qwen3-vl-8b"))).embeddings, 16384LL);
        QCOMPARE(kvscope::largestImage(preset(QStringLiteral("mistral-small-3.1-24b"))).embeddings, 3025LL);
        QCOMPARE(kvscope::largestImage(preset(QStringLiteral("gemma-3-27b"))).embeddings, 256LL);
        QCOMPARE(kvscope::largestImage(preset(QStringLiteral("llama-4-scout-17b-16e"))).embeddings, 2448LL);
        QCOMPARE(kvscope::largestImage(preset(QStringLiteral("llama-3.1-8b"))).embeddings, 0LL);
    }

    void refusals()
    {
        const auto refused = [](const QString &id, qint64 width, qint64 height, const QString &words) {
            try {
                imageTokens(preset(id), width, height);
            } catch (const Error &error) {
                QVERIFY2(error.message().contains(words), qPrintable(error.message()));
                return;
            }
            QFAIL(qPrintable(id + QStringLiteral(" was not refused")));
        };
        refused(QStringLiteral("llama-3.1-8b"), 1024, 1024, QStringLiteral("takes no images"));
        refused(QStringLiteral("qwen2.5-vl-7b"), 0, 1024, QStringLiteral("1 to 65536"));
        refused(QStringLiteral("qwen2.5-vl-7b"), 70000, 1024, QStringLiteral("1 to 65536"));
        refused(QStringLiteral("qwen2.5-vl-7b"), 20100, 100, QStringLiteral("aspect ratio above 200"));
    }
};

QTEST_GUILESS_MAIN(TestImageTokens)
#include "tst_imagetokens.moc"
