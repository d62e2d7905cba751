// SPDX-License-Identifier: MIT
// Parameter counts of the built-in presets against published or
// independently derived figures. Each row names its source.
#include "core/library/library.h"
#include "core/model/inventory.h"
#include "tests/testsupport.h"

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

/// Total and active parameters of every preset with the derivation's source.
struct CountRow
{
    const char *label;
    const char *id;
    qint64 total;
    qint64 active;
};
constexpr CountRow countRows[] = {
    // Counted by hand from each preset's config.json (resources/presets/models.json,
    // with its HF source) with the formula below, and checked against the figure
    // the row name quotes (model card, HF safetensors widget or release post).
    {"Llama-3.1-8B (card 8B; HF widget 8.03B)", "llama-3.1-8b", 8'030'261'248LL, 8'030'261'248LL},
    {"Llama-3.1-70B (HF widget 70.6B)", "llama-3.1-70b", 70'553'706'496LL, 70'553'706'496LL},
    {"Llama-3.1-405B (8 KV heads)", "llama-3.1-405b", 405'853'388'800LL, 405'853'388'800LL},
    {"Llama-3.2-1B (tied, HF 1.24B)", "llama-3.2-1b", 1'235'814'400LL, 1'235'814'400LL},
    {"Qwen2.5-7B (card 7.61B, QKV bias)", "qwen2.5-7b", 7'615'616'512LL, 7'615'616'512LL},
    {"Qwen2.5-72B (72.7B)", "qwen2.5-72b", 72'706'203'648LL, 72'706'203'648LL},
    {"Qwen3-8B (card 8.2B, q/k norm)", "qwen3-8b", 8'190'735'360LL, 8'190'735'360LL},
    {"Qwen3-32B (card 32.8B)", "qwen3-32b", 32'762'123'264LL, 32'762'123'264LL},
    {"Qwen3-30B-A3B (card 30.5B / 3.3B)", "qwen3-30b-a3b", 30'532'122'624LL, 3'353'032'704LL},
    {"Mistral-7B-v0.1 (7.3B)", "mistral-7b-v0.1", 7'241'732'096LL, 7'241'732'096LL},
    {"Mistral-7B-v0.3", "mistral-7b-v0.3", 7'248'023'552LL, 7'248'023'552LL},
    {"Mixtral-8x7B (Mistral post 46.7B / 12.9B)", "mixtral-8x7b", 46'702'792'704LL, 12'879'925'248LL},
    {"DeepSeek-V3 (README 671B / 37B)", "deepseek-v3", 671'026'419'200LL, 37'552'297'472LL},
    {"gpt-oss-120b (card 117B)", "gpt-oss-120b", 116'829'156'672LL, 5'711'982'912LL},
    {"Llama-2-7B (6.74B)", "llama-2-7b", 6'738'415'616LL, 6'738'415'616LL},
    {"Llama-2-70B (68.98B)", "llama-2-70b", 68'976'648'192LL, 68'976'648'192LL},
    // Presets added for the model library. Hand formula (computed apart from kvscope):
    //   dense = V*h*(tied ? 1 : 2) + L*(h*nH*d + 2*h*nKV*d + nH*d*h [+ QKV bias nH*d + 2*nKV*d]
    //           [+ q/k norm 2*d] + 3*h*I + norms*h) + h
    // with the model card's figure in the row name.
    // 32000*5120*2 + 40*(4*5120*5120 + 3*5120*13824 + 2*5120) + 5120 (Llama 2 card: 13B)
    {"Llama-2-13B (card 13B)", "llama-2-13b", 13'015'864'320LL, 13'015'864'320LL},
    // 128256*3072 (tied) + 28*(2*3072*3072 + 2*3072*1024 + 3*3072*8192 + 2*3072) + 3072
    {"Llama-3.2-3B (card 3.21B)", "llama-3.2-3b", 3'212'749'824LL, 3'212'749'824LL},
    {"Llama-3.3-70B (= Llama-3.1-70B shape)", "llama-3.3-70b", 70'553'706'496LL, 70'553'706'496LL},
    // 151936*896 + 24*(896*896+896 + 2*(896*128+128) + 896*896 + 3*896*4864 + 2*896) + 896
    {"Qwen2.5-0.5B (card 0.49B / 0.36B non-emb)", "qwen2.5-0.5b", 494'032'768LL, 494'032'768LL},
    {"Qwen2.5-3B (card 3.09B / 2.77B non-emb)", "qwen2.5-3b", 3'085'938'688LL, 3'085'938'688LL},
    {"Qwen2.5-14B (card 14.7B)", "qwen2.5-14b", 14'770'033'664LL, 14'770'033'664LL},
    {"Qwen2.5-32B (card 32.5B; HF widget 32.8B)", "qwen2.5-32b", 32'763'876'352LL, 32'763'876'352LL},
    // 151936*1024 (tied) + 28*(1024*2048 + 2*1024*1024 + 2048*1024 + 2*128 + 3*1024*3072 + 2*1024) + 1024
    {"Qwen3-0.6B (card 0.6B / 0.44B non-emb)", "qwen3-0.6b", 596'049'920LL, 596'049'920LL},
    {"Qwen3-1.7B (card 1.7B / 1.4B non-emb)", "qwen3-1.7b", 1'720'574'976LL, 1'720'574'976LL},
    {"Qwen3-4B (card 4.0B / 3.6B non-emb)", "qwen3-4b", 4'022'468'096LL, 4'022'468'096LL},
    {"Qwen3-14B (card 14.8B / 13.2B non-emb)", "qwen3-14b", 14'768'307'200LL, 14'768'307'200LL},
    // MoE: 2*V*h + L*(attn + router E*h + E*3*h*Ie + 2h) + h; active with k experts instead of E.
    // 94 layers, 128 experts of 1536, top-8.
    {"Qwen3-235B-A22B (card 235B / 22B)", "qwen3-235b-a22b", 235'093'634'560LL, 22'190'763'520LL},
    // 56 layers, h 6144, 8 experts of 16384, top-2 (Mistral: 141B / 39B)
    {"Mixtral-8x22B (card 141B / 39B)", "mixtral-8x22b", 140'620'634'112LL, 39'152'031'744LL},
    // Gemma: 4 norms per layer, tied; Gemma 3 adds q/k norms.
    {"Gemma-2-2B (report 2.6B)", "gemma-2-2b", 2'614'341'888LL, 2'614'341'888LL},
    {"Gemma-2-27B (report 27.2B)", "gemma-2-27b", 27'227'128'320LL, 27'227'128'320LL},
    {"Gemma-3-1B (report 302M + 698M)", "gemma-3-1b", 999'885'952LL, 999'885'952LL},
    // text (vocab 262208) + SigLIP 416,866,032 + projector h*1152 + 1152
    {"Gemma-3-4B (HF 4.3B)", "gemma-3-4b", 4'300'079'472LL, 4'300'079'472LL},
    {"Gemma-3-12B (HF 12.2B)", "gemma-3-12b", 12'187'325'040LL, 12'187'325'040LL},
    // Phi-3 fuses qkv and gate_up: same counts as separate projections.
    // 32064*3072*2 + 32*(4*3072*3072 + 3*3072*8192 + 2*3072) + 3072
    {"Phi-3-mini (report 3.8B)", "phi-3-mini-4k", 3'821'079'552LL, 3'821'079'552LL},
    {"Phi-3-medium (report 14B)", "phi-3-medium-4k", 13'960'238'080LL, 13'960'238'080LL},
    {"Phi-4 (report 14B)", "phi-4", 14'659'507'200LL, 14'659'507'200LL},
    {"Phi-4-mini (card 3.8B)", "phi-4-mini", 3'836'021'760LL, 3'836'021'760LL},
    // MLA without q_lora: q 2048*16*192, kv_a 2048*576, kv_a norm 512, kv_b 512*16*256, o 16*128*2048;
    // 1 dense layer (10944) + 26 MoE layers (64 x 1408 routed, top-6, + 2 shared).
    {"DeepSeek-V2-Lite (paper 15.7B)", "deepseek-v2-lite", 15'706'484'224LL, 2'661'150'208LL},
    {"DeepSeek-R1 (= DeepSeek-V3 shape, 671B / 37B)", "deepseek-r1", 671'026'419'200LL, 37'552'297'472LL},
    // gpt-oss: biased q/k/v/o, sinks, biased router and experts; 24 layers, 32 experts, top-4.
    {"gpt-oss-20b (card 20.91B)", "gpt-oss-20b", 20'914'757'184LL, 4'187'440'704LL},
    // Falcon: tied, fused qkv h*(71+2)*64, dense h*h, MLP 2*h*4h, one LayerNorm (2h) per layer.
    {"Falcon-7B (HF 6.92B)", "falcon-7b", 6'921'720'704LL, 6'921'720'704LL},
    // Gemma 2 report Table 2: 917,504,000 (256000 x 3584) embedding + 8,324,201,984 non-embedding.
    {"Gemma-2-9B (report)", "gemma-2-9b", 9'241'705'984LL, 9'241'705'984LL},
    // Gemma 3 report: 25,599,716,096 text + 262208*5376 embedding + SigLIP 416,866,032 + projector 6,194,304.
    {"Gemma-3-27B (report)", "gemma-3-27b", 27'432'406'640LL, 27'432'406'640LL},
    // Hybrid architectures, hand computed (tst_architectures checks them against the cards).
    // Qwen3-Next: 2*V*h + 36 GDN (h*12288 + h*64 + 8192*4 + 2*32 + 128 + 4096*h) + 12 gated attention
    // (h*8192 + 2*h*512 + 4096*h + 2*256) + 48*(512*3*h*512 + 3*h*512 + h + h*512 + 2h) + h.
    // The same total and active count is derived from the published Qwen3-Coder-Next safetensors
    // headers (same architecture) in a public test: 79,674,391,296 / 3,874,929,408.
    {"Qwen3-Next-80B-A3B (card 80B / 3B)", "qwen3-next-80b-a3b", 79'674'391'296LL, 3'874'929'408LL},
    // DeepSeek-V3 + 61 x indexer (wq_b 8192x1536, wk 128x7168, k_norm 2x128, weights_proj 64x7168)
    // = 671,026,419,200 + 851,524,864 (shapes from the V3.2 safetensors inventory).
    {"DeepSeek-V3.2-Exp (671B + indexer)", "deepseek-v3.2-exp", 671'877'944'064LL, 38'403'822'336LL},
    // Llama 4 text: 2*V*h + 48 attention + MoE layers (E*3*h*8192 + shared 3*h*8192 + router h*E)
    // + dense layers 3*h*16384 + norms; plus the vision tower, its adapter and projector (871,932,416,
    // tst_parameters' visionTowers()). Scout's total is the published count of
    // meta-llama/Llama-4-Scout-17B-16E-Instruct's safetensors (108,641,793,536, HF).
    {"Llama-4-Scout (card 109B / 17B; HF 108,641,793,536)", "llama-4-scout-17b-16e", 108'641'793'536LL,
     18'044'827'136LL},
    {"Llama-4-Maverick (card 400B / 17B)", "llama-4-maverick-17b-128e", 401'583'781'376LL, 18'056'623'616LL},
    // Gemma 3n text decoder: V*h (tied) + per-layer embeddings 262144*L*256 + per-layer projection
    // h*L*256 + 256 + AltUp projections 2*3*h*h + h + L*(attention, MLP 3*h*I, 4 norms, AltUp, LAuReL,
    // per-layer gate/projection/norm).
    {"Gemma-3n-E4B text (card 8B raw with encoders)", "gemma-3n-e4b", 6'866'696'688LL, 6'866'696'688LL},
    {"Gemma-3n-E2B text (card 5B raw with encoders)", "gemma-3n-e2b", 4'456'156'768LL, 4'456'156'768LL},
    // Granite 4.0-H: V*h (tied) + 4 attention + 36 Mamba-2 (in_proj h*(2*inner + 2*128 + heads), conv
    // (inner + 256)*4 + bias, A/D/dt_bias, norm inner, out_proj inner*h) + 40 MoE layers + norms.
    {"Granite-4.0-H-Small (card 32B / 9B)", "granite-4.0-h-small", 32'207'337'984LL, 8'803'121'664LL},
    {"Granite-4.0-H-Tiny (card 7B / 1B)", "granite-4.0-h-tiny", 6'939'037'248LL, 1'465'470'528LL},
    // Vision-language checkpoints: the text model (Qwen2.5-7B, Qwen3-8B, Qwen3-30B-A3B and
    // Mistral-Small-24B's counts above and in their cards) plus the vision tower and projector of
    // visionTowers() below. The totals are the checkpoints' own: model.safetensors.index.json
    // "total_size" 16,584,333,312 B (Qwen/Qwen2.5-VL-7B-Instruct) and 17,534,247,392 B
    // (Qwen/Qwen3-VL-8B-Instruct) in BF16, 31,070,754,032 parameters (Qwen/Qwen3-VL-30B-A3B-Instruct,
    // HF) and 24,011,361,280 (Mistral-Small-3.1-24B, Keras-Hub's mistral_small_3.1_24b preset).
    {"Qwen2.5-VL-7B (total_size 16,584,333,312 B)", "qwen2.5-vl-7b", 8'292'166'656LL, 8'292'166'656LL},
    {"Qwen3-VL-8B (total_size 17,534,247,392 B)", "qwen3-vl-8b", 8'767'123'696LL, 8'767'123'696LL},
    {"Qwen3-VL-30B-A3B (HF 31,070,754,032)", "qwen3-vl-30b-a3b", 31'070'754'032LL, 3'891'664'112LL},
    {"Mistral-Small-3.1-24B (24,011,361,280)", "mistral-small-3.1-24b", 24'011'361'280LL, 24'011'361'280LL},
    // Kimi-VL-A3B: the checkpoint's 5,679 tensors (moonshotai/Kimi-VL-A3B-Instruct, the preset's
    // source) by hand. Text: V*h twice (untied, 163,840 x 2,048) + 27 MLA layers (q 3,072 x h,
    // kv_a 576 x h, kv_a norm 512, kv_b 4,096 x 512, o h x h: 13,763,072) + 2 norms each + dense layer 0
    // (3 x 11,264 x h) + 26 MoE layers (64 experts and 2 shared of 1,408, gate 64 x h, the router's
    // e_score_correction_bias 64) + final norm = 15,960,110,208; MoonViT and projector 447,545,840
    // (visionTowers()). Active: 58 of the 64 experts of each MoE layer idle (card: 2.8B activated).
    {"Kimi-VL-A3B (card 16.4B / 2.8B)", "kimi-vl-a3b", 16'407'656'048LL, 3'362'322'032LL},
};

class TestParameters : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void totals_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("active");
        for (const CountRow &row : countRows)
            QTest::newRow(row.label) << QString::fromLatin1(row.id) << row.total << row.active;
    }

    void tableCoversEveryPreset()
    {
        const QStringList missing = test::presetsMissingFrom(countRows);
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("no row for: ") + missing.join(QStringLiteral(", "))));
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
        // OpenAI's model card counts 5.1B active without the input embedding;
        // by hand from the preset's config.json that is 5,132,849,472.
        const ParameterCounts counts = countParameters(preset(QStringLiteral("gpt-oss-120b")));
        QCOMPARE(counts.active - counts.embedding, 5'132'849'472LL);
    }

    void publishedActiveFiguresExcludeTheInputEmbedding_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("activeWithoutEmbedding");
        // Model cards count active parameters without the input embedding:
        // gpt-oss-20b 3.61B (OpenAI card) = 4,187,440,704 - 201088*2880;
        // DeepSeek-V2-Lite 2.4B (README) = 2,661,150,208 - 102400*2048;
        // Qwen3-235B-A22B 22B (card) = 22,190,763,520 - 151936*4096.
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << 3'608'307'264LL;
        QTest::newRow("DeepSeek-V2-Lite") << "deepseek-v2-lite" << 2'451'435'008LL;
        QTest::newRow("Qwen3-235B-A22B") << "qwen3-235b-a22b" << 21'568'433'664LL;
    }

    void publishedActiveFiguresExcludeTheInputEmbedding()
    {
        QFETCH(QString, id);
        QFETCH(qint64, activeWithoutEmbedding);
        const ParameterCounts counts = countParameters(preset(id));
        QCOMPARE(counts.active - counts.embedding, activeWithoutEmbedding);
    }

    void reportNonEmbeddingFigures_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("nonEmbedding");
        // Gemma 2 report (arXiv 2408.00118) Table 2, exact.
        QTest::newRow("Gemma-2-2B") << "gemma-2-2b" << 2'024'517'888LL;
        QTest::newRow("Gemma-2-27B") << "gemma-2-27b" << 26'047'480'320LL;
        // Gemma 3 report (arXiv 2503.19786) Table 1 gives millions: 698M, 3,209M, 10,759M;
        // by hand (text only): 26*26,842,112 + 1152; 34*94,382,592 + 2560; 48*224,148,992 + 3840.
        QTest::newRow("Gemma-3-1B (698M)") << "gemma-3-1b" << 697'896'064LL;
        QTest::newRow("Gemma-3-4B (3,209M)") << "gemma-3-4b" << 3'209'010'688LL;
        QTest::newRow("Gemma-3-12B (10,759M)") << "gemma-3-12b" << 10'759'155'456LL;
    }

    void reportNonEmbeddingFigures()
    {
        QFETCH(QString, id);
        QFETCH(qint64, nonEmbedding);
        const ParameterCounts counts = countParameters(preset(id));
        QCOMPARE(counts.total - counts.embedding - counts.of(Component::Vision), nonEmbedding);
    }

    void libraryHoldsAtLeastThirtyPresetsWithSources()
    {
        const QList<ModelArch> &models = ModelLibrary::builtin().presets();
        QVERIFY(models.size() >= 30);
        for (const ModelArch &m : models) {
            QVERIFY2(!m.source.isEmpty(), qPrintable(m.id));
            QVERIFY2(!m.statedParamsText.isEmpty(), qPrintable(m.id));
            QVERIFY2(!m.family.isEmpty(), qPrintable(m.id));
            QVERIFY2(!m.estimated, qPrintable(m.id));
        }
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

    void visionTowers_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("vision");
        // By hand from each preset's vision_config, tensor by tensor as the checkpoints store them
        // (core/model/visiontower.cpp names each family's source). h vision width, I its MLP, L layers.
        // SigLIP (Gemma 3): 27 x 15,239,504 + patch 678,528 + positions 4,096 x 1,152 + post-norm 2,304,
        // projector 1,152 x 2,560 + its norm 1,152 (Gemma 3 report: a 417M encoder).
        QTest::newRow("Gemma-3-4B SigLIP") << "gemma-3-4b" << 416'866'032LL + 2'950'272LL;
        // Qwen2.5-VL-7B: Conv3d 1,280 x 3 x 2 x 14 x 14 (no bias); 32 blocks of 2 RMSNorms + qkv
        // 3h x h + b + proj h x h + b + gate/up 2 x (I x h + b) + down h x I + b = 19,702,200; merger
        // RMSNorm h + 4h x 4h + b + 3,584 x 4h + b = 44,574,464 (Qwen2.5-VL report: a 675M ViT).
        QTest::newRow("Qwen2.5-VL-7B") << "qwen2.5-vl-7b" << 1'505'280LL + 32 * 19'702'200LL + 44'574'464LL;
        // Qwen3-VL-8B: Conv3d 1,152 x 3 x 2 x 16 x 16 + bias, positions 2,304 x 1,152, 27 blocks of 2
        // LayerNorms + qkv + proj + fc1 + fc2 with biases (15,239,504), merger LayerNorm h + 4h x 4h + b
        // + 4,096 x 4h + b (40,119,040), 3 DeepStack mergers with a LayerNorm of 4h (40,125,952 each).
        QTest::newRow("Qwen3-VL-8B") << "qwen3-vl-8b"
                                     << 1'770'624LL + 2'654'208LL + 27 * 15'239'504LL + 40'119'040LL +
                                            3 * 40'125'952LL;
        // Mistral-Small-3.1: Pixtral patch conv 1,024 x 3 x 14 x 14 (no bias) + ln_pre 1,024 + 24 x
        // (2 RMSNorms + 4 h x h + 3 h x I, no biases) = 16,779,264 each; projector RMSNorm h + patch
        // merger h x 4h + linear_1 5,120 x h + linear_2 5,120 x 5,120, no biases.
        QTest::newRow("Mistral-Small-3.1-24B")
            << "mistral-small-3.1-24b" << 602'112LL + 1'024LL + 24 * 16'779'264LL + 35'652'608LL;
        // Llama 4: unfold patches 1,408 x 588 + class token 1,408 + positions 577 x 1,408 + two
        // LayerNorms, 34 x (4 biased h x h + fc1/fc2 with biases + 2 LayerNorms) = 23,807,872 each,
        // adapter 4,096 x 5,632 + 4,096 x 4,096, projector 5,120 x 4,096 (the checkpoint's own
        // vision_model.* sizes as printed by a public per-tensor table agree).
        QTest::newRow("Llama-4-Scout")
            << "llama-4-scout-17b-16e"
            << 827'904LL + 1'408LL + 812'416LL + 5'632LL + 34 * 23'807'872LL + 39'845'888LL + 20'971'520LL;
        // Kimi-VL's MoonViT: biased patch conv 1,152 x 3 x 14 x 14 + positions 64 x 64 x 1,152 + 27 x
        // 15,239,504 (two LayerNorms, fused qkv, wo, fc0, fc1 with biases) + final LayerNorm; the
        // projector's LayerNorm 1,152 + linear_1 4,608 x 4,608 + b + linear_2 2,048 x 4,608 + b.
        QTest::newRow("Kimi-VL-A3B MoonViT")
            << "kimi-vl-a3b" << 678'528LL + 4'718'592LL + 27 * 15'239'504LL + 2'304LL + 30'679'808LL;
    }

    void visionTowers()
    {
        QFETCH(QString, id);
        QFETCH(qint64, vision);
        const ModelArch &m = preset(id);
        QCOMPARE(countParameters(m).of(Component::Vision), vision);
        QVERIFY2(!m.notes.join(u'\n').contains(QStringLiteral("estimated")), qPrintable(m.notes.join(u'\n')));
    }

    void componentsSumToTotal()
    {
        for (const ModelArch &m : ModelLibrary::builtin().presets()) {
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
