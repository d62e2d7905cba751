// SPDX-License-Identifier: MIT
// Parameter counts of the built-in presets against published or
// independently derived figures. Each row names its source.
#include "inventory.h"
#include "library.h"
#include "testsupport.h"

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

class TestParameters : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void totals_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("active");
        // "computed" counts in shared/reference/models.json (each derived there
        // from the model's config.json and checked against its model card).
        QTest::newRow("Llama-3.1-8B (card 8B; HF widget 8.03B)") << "llama-3.1-8b" << 8'030'261'248LL << 8'030'261'248LL;
        QTest::newRow("Llama-3.1-70B (HF widget 70.6B)") << "llama-3.1-70b" << 70'553'706'496LL << 70'553'706'496LL;
        QTest::newRow("Llama-3.1-405B (8 KV heads)") << "llama-3.1-405b" << 405'853'388'800LL << 405'853'388'800LL;
        QTest::newRow("Llama-3.2-1B (tied, HF 1.24B)") << "llama-3.2-1b" << 1'235'814'400LL << 1'235'814'400LL;
        QTest::newRow("Qwen2.5-7B (card 7.61B, QKV bias)") << "qwen2.5-7b" << 7'615'616'512LL << 7'615'616'512LL;
        QTest::newRow("Qwen2.5-72B (72.7B)") << "qwen2.5-72b" << 72'706'203'648LL << 72'706'203'648LL;
        QTest::newRow("Qwen3-8B (card 8.2B, q/k norm)") << "qwen3-8b" << 8'190'735'360LL << 8'190'735'360LL;
        QTest::newRow("Qwen3-32B (card 32.8B)") << "qwen3-32b" << 32'762'123'264LL << 32'762'123'264LL;
        QTest::newRow("Qwen3-30B-A3B (card 30.5B / 3.3B)") << "qwen3-30b-a3b" << 30'532'122'624LL << 3'353'032'704LL;
        QTest::newRow("Mistral-7B-v0.1 (7.3B)") << "mistral-7b-v0.1" << 7'241'732'096LL << 7'241'732'096LL;
        QTest::newRow("Mistral-7B-v0.3") << "mistral-7b-v0.3" << 7'248'023'552LL << 7'248'023'552LL;
        QTest::newRow("Mixtral-8x7B (Mistral post 46.7B / 12.9B)") << "mixtral-8x7b" << 46'702'792'704LL << 12'879'925'248LL;
        QTest::newRow("DeepSeek-V3 (README 671B / 37B; calculators.md 37.55B)") << "deepseek-v3" << 671'026'419'200LL
                                                                                  << 37'552'297'472LL;
        QTest::newRow("gpt-oss-120b (card 117B)") << "gpt-oss-120b" << 116'829'156'672LL << 5'711'982'912LL;
        QTest::newRow("Llama-2-7B (6.74B)") << "llama-2-7b" << 6'738'415'616LL << 6'738'415'616LL;
        QTest::newRow("Llama-2-70B (68.98B)") << "llama-2-70b" << 68'976'648'192LL << 68'976'648'192LL;
    }

    void totals()
    {
        QFETCH(QString, id);
        QFETCH(qint64, total);
        QFETCH(qint64, active);
        const ParameterCounts counts = countParameters(preset(id));
        QCOMPARE(counts.total, total);
        QCOMPARE(counts.active, active);
    }

    void gptOssActiveExcludingEmbedding()
    {
        // OpenAI's model card counts 5.1B active without the input embedding:
        // 5,132,849,472 in shared/reference/models.json.
        const ParameterCounts counts = countParameters(preset(QStringLiteral("gpt-oss-120b")));
        QCOMPARE(counts.active - counts.embedding, 5'132'849'472LL);
    }

    void gemma2NonEmbedding()
    {
        // Gemma 2 report (arXiv 2408.00118) Table 2: 8,324,201,984 non-embedding.
        const ParameterCounts counts = countParameters(preset(QStringLiteral("gemma-2-9b")));
        QCOMPARE(counts.total - counts.embedding, 8'324'201'984LL);
        // Tied: embedding = vocab 256000 x 3584 counted once, no lm_head.
        QCOMPARE(counts.embedding, 256'000LL * 3584);
        QCOMPARE(counts.of(Component::LmHead), 0LL);
    }

    void gemma3TextAndVision()
    {
        // Gemma 3 report Table 1: 25,600M non-embedding text parameters, 417M
        // vision encoder. Text by hand: 62 x 412,898,560 + final norm 5,376.
        const ParameterCounts counts = countParameters(preset(QStringLiteral("gemma-3-27b")));
        const qint64 vision = counts.of(Component::Vision);
        QCOMPARE(counts.total - counts.embedding - vision, 25'599'716'096LL);
        // SigLIP by hand: 27 layers x 15,239,504 + patch 678,528 + positions
        // 4,718,592 + post-norm 2,304 = 416,866,032; projector 1152 x 5376 + 1152.
        QCOMPARE(vision, 416'866'032LL + 6'193'152LL + 1'152LL);
        QCOMPARE(counts.embedding, 262'208LL * 5376); // Gemma3TextConfig default vocab
    }

    void componentsSumToTotal()
    {
        for (const ModelArch &m : ModelLibrary::builtin().models()) {
            const ParameterCounts counts = countParameters(m);
            qint64 sum = 0;
            for (qint64 c : counts.byComponent)
                sum += c;
            QCOMPARE(sum, counts.total);
            QVERIFY2(counts.active <= counts.total, qPrintable(m.id));
        }
    }

    void llamaComponentsByHand()
    {
        // Llama-3.1-8B: 32 layers, h 4096, 32 q / 8 kv heads of 128, I 14336.
        const ParameterCounts c = countParameters(preset(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(c.of(Component::Embedding), 128'256LL * 4096);
        QCOMPARE(c.of(Component::LmHead), 128'256LL * 4096);
        QCOMPARE(c.of(Component::Attention), 32LL * (2 * 4096 * 4096 + 2 * 4096 * 1024));
        QCOMPARE(c.of(Component::Mlp), 32LL * 3 * 4096 * 14336);
        QCOMPARE(c.of(Component::Norms), 32LL * 2 * 4096 + 4096);
    }

    void vocabPaddingUnderTensorParallel()
    {
        // vLLM pads vocabularies to a multiple of 64, then splits by TP.
        QCOMPARE(paddedVocab(32'000), 32'000LL);
        QCOMPARE(paddedVocab(32'001), 32'064LL);
        TensorGroup embed;
        embed.rows = 151'655;
        embed.cols = 10;
        embed.sharding = Sharding::VocabRows;
        QCOMPARE(localShape(embed, 1).rows, 151'680LL);
        QCOMPARE(localShape(embed, 4).rows, 37'920LL);
    }

    void kvProjectionsReplicateBeyondKvHeads()
    {
        // 8 KV heads over 16 GPUs: each GPU keeps one whole head.
        TensorGroup k;
        k.rows = 8 * 128;
        k.cols = 8192;
        k.kvHeads = 8;
        k.sharding = Sharding::KvHeadRows;
        QCOMPARE(localShape(k, 2).rows, 4LL * 128);
        QCOMPARE(localShape(k, 16).rows, 128LL);
    }
};

QTEST_GUILESS_MAIN(TestParameters)
#include "tst_parameters.moc"
