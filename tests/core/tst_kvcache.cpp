// SPDX-License-Identifier: MIT
// KV cache formulas: per-token bytes, TP replication, MLA, sliding windows,
// block rounding and vLLM's hybrid grouping.
#include "core/library/library.h"
#include "core/plan/kvcache.h"
#include "tests/testsupport.h"

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

/// Per-token KV bytes at bf16, TP 1, for every preset, by hand from each
/// preset's config.json (resources/presets/models.json, each with its HF
/// source): layers x 2 x kv_heads x head_dim x 2 B, or
/// layers x (kv_lora_rank + qk_rope_head_dim) x 2 B for MLA.
struct KvRow
{
    const char *label;
    const char *id;
    qint64 bytes;
};
constexpr KvRow kvRows[] = {
    {"Llama-3.1-8B 32*2*8*128*2", "llama-3.1-8b", 131'072LL},
    {"Llama-3.1-70B 80*2*8*128*2", "llama-3.1-70b", 327'680LL},
    {"Llama-3.1-405B 126*2*8*128*2", "llama-3.1-405b", 516'096LL},
    {"Llama-3.2-1B 16*2*8*64*2", "llama-3.2-1b", 32'768LL},
    {"Qwen2.5-7B 28*2*4*128*2", "qwen2.5-7b", 57'344LL},
    {"Qwen2.5-72B", "qwen2.5-72b", 327'680LL},
    {"Qwen3-8B 36*2*8*128*2", "qwen3-8b", 147'456LL},
    {"Qwen3-32B 64*2*8*128*2 (head_dim 128 != 5120/64)", "qwen3-32b", 262'144LL},
    {"Qwen3-30B-A3B 48*2*4*128*2", "qwen3-30b-a3b", 98'304LL},
    {"Mistral-7B-v0.1", "mistral-7b-v0.1", 131'072LL},
    {"Mistral-7B-v0.3", "mistral-7b-v0.3", 131'072LL},
    {"Mixtral-8x7B", "mixtral-8x7b", 131'072LL},
    {"Gemma-2-9B 42*2*8*256*2", "gemma-2-9b", 344'064LL},
    {"Gemma-3-27B 62*2*16*128*2", "gemma-3-27b", 507'904LL},
    {"DeepSeek-V3 MLA 61*(512+64)*2", "deepseek-v3", 70'272LL},
    {"gpt-oss-120b 36*2*8*64*2", "gpt-oss-120b", 73'728LL},
    {"Llama-2-7B MHA 32*2*32*128*2", "llama-2-7b", 524'288LL},
    {"Llama-2-70B", "llama-2-70b", 327'680LL},
    {"Llama-2-13B MHA 40*2*40*128*2", "llama-2-13b", 819'200LL},
    {"Llama-3.2-3B 28*2*8*128*2", "llama-3.2-3b", 114'688LL},
    {"Llama-3.3-70B 80*2*8*128*2", "llama-3.3-70b", 327'680LL},
    {"Qwen2.5-0.5B 24*2*2*64*2", "qwen2.5-0.5b", 12'288LL},
    {"Qwen2.5-3B 36*2*2*128*2", "qwen2.5-3b", 36'864LL},
    {"Qwen2.5-14B 48*2*8*128*2", "qwen2.5-14b", 196'608LL},
    {"Qwen2.5-32B 64*2*8*128*2", "qwen2.5-32b", 262'144LL},
    {"Qwen3-0.6B 28*2*8*128*2", "qwen3-0.6b", 114'688LL},
    {"Qwen3-1.7B 28*2*8*128*2", "qwen3-1.7b", 114'688LL},
    {"Qwen3-4B 36*2*8*128*2", "qwen3-4b", 147'456LL},
    {"Qwen3-14B 40*2*8*128*2", "qwen3-14b", 163'840LL},
    {"Qwen3-235B-A22B 94*2*4*128*2", "qwen3-235b-a22b", 192'512LL},
    {"Mixtral-8x22B 56*2*8*128*2", "mixtral-8x22b", 229'376LL},
    // Vision-language models: the text decoder's cache only (the vision tower keeps none).
    {"Qwen2.5-VL-7B 28*2*4*128*2", "qwen2.5-vl-7b", 57'344LL},
    {"Qwen3-VL-8B 36*2*8*128*2", "qwen3-vl-8b", 147'456LL},
    {"Qwen3-VL-30B-A3B 48*2*4*128*2", "qwen3-vl-30b-a3b", 98'304LL},
    {"Mistral-Small-3.1-24B 40*2*8*128*2", "mistral-small-3.1-24b", 163'840LL},
    {"Kimi-VL-A3B MLA 27*(512+64)*2", "kimi-vl-a3b", 31'104LL},
    {"Gemma-2-2B 26*2*4*256*2", "gemma-2-2b", 106'496LL},
    {"Gemma-2-27B 46*2*16*128*2", "gemma-2-27b", 376'832LL},
    {"Gemma-3-1B MQA 26*2*1*256*2", "gemma-3-1b", 26'624LL},
    {"Gemma-3-4B 34*2*4*256*2 (default heads)", "gemma-3-4b", 139'264LL},
    {"Gemma-3-12B 48*2*8*256*2", "gemma-3-12b", 393'216LL},
    {"Phi-3-mini MHA 32*2*32*96*2", "phi-3-mini-4k", 393'216LL},
    {"Phi-3-medium 40*2*10*128*2", "phi-3-medium-4k", 204'800LL},
    {"Phi-4 40*2*10*128*2", "phi-4", 204'800LL},
    {"Phi-4-mini 32*2*8*128*2", "phi-4-mini", 131'072LL},
    {"DeepSeek-V2-Lite MLA 27*(512+64)*2", "deepseek-v2-lite", 31'104LL},
    {"DeepSeek-R1 MLA 61*(512+64)*2", "deepseek-r1", 70'272LL},
    {"gpt-oss-20b 24*2*8*64*2", "gpt-oss-20b", 49'152LL},
    {"Falcon-7B MQA 32*2*1*64*2", "falcon-7b", 8'192LL},
    // Hybrid layouts: only layers with a per-token cache count (see tst_architectures).
    {"Qwen3-Next 12 attention layers * 2*2*256*2", "qwen3-next-80b-a3b", 24'576LL},
    {"DeepSeek-V3.2 61*(576*2 + indexer 128+4)", "deepseek-v3.2-exp", 78'324LL},
    {"Llama-4-Scout 48*2*8*128*2 (chunked layers cache too)", "llama-4-scout-17b-16e", 196'608LL},
    {"Llama-4-Maverick 48*2*8*128*2", "llama-4-maverick-17b-128e", 196'608LL},
    {"Gemma-3n-E4B 20 caching layers * 2*2*256*2", "gemma-3n-e4b", 40'960LL},
    {"Gemma-3n-E2B 20 caching layers * 2*2*256*2", "gemma-3n-e2b", 40'960LL},
    {"Granite-4.0-H-Small 4 attention layers * 2*8*128*2", "granite-4.0-h-small", 16'384LL},
    {"Granite-4.0-H-Tiny 4 attention layers * 2*4*128*2", "granite-4.0-h-tiny", 8'192LL},
};

class TestKvCache : public QObject
{
    Q_OBJECT

private:
    static qint64 perToken(const ModelArch &m, KvCacheDtype dtype, int tp)
    {
        return kvBytesPerToken(m, dtype, tp);
    }

    static KvCacheLayout layoutOf(const ModelArch &m, int blockSize = 16)
    {
        return kvCacheLayout(m, KvCacheOptions{KvCacheDtype::BFloat16, 1, blockSize});
    }

private Q_SLOTS:
    void perTokenBf16_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("bytes");
        for (const KvRow &row : kvRows)
            QTest::newRow(row.label) << QString::fromLatin1(row.id) << row.bytes;
    }

    void tableCoversEveryPreset()
    {
        const QStringList missing = test::presetsMissingFrom(kvRows);
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("no row for: ") + missing.join(QStringLiteral(", "))));
    }

    void perTokenBf16()
    {
        QFETCH(QString, id);
        QFETCH(qint64, bytes);
        QCOMPARE(perToken(preset(id), KvCacheDtype::BFloat16, 1), bytes);
    }

    void fp8HalvesEveryPreset()
    {
        // DeepSeek-V3.2 is the exception: fp8_ds_mla keeps scales and a bf16 RoPE part,
        // and the indexer key is FP8 either way (tst_architectures).
        for (const ModelArch &m : ModelLibrary::builtin().presets())
            if (!m.indexer.enabled())
                QCOMPARE(perToken(m, KvCacheDtype::Fp8E4M3, 1) * 2, perToken(m, KvCacheDtype::BFloat16, 1));
    }

    void tensorParallelReplication_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("heads");
        QTest::addColumn<qint64>("bytes");
        // Hand computed: layers x 2 x heads per GPU x head_dim x 2 B. The gpt-oss
        // figure is what vLLM's log implies (tests/data/vllm-logs.json id 30:
        // 45.32 GiB / 2,640,144 tokens = 18,431 B).
        QTest::newRow("Llama-3.1-8B TP2: 4 heads") << "llama-3.1-8b" << 2 << 4 << 65'536LL;
        QTest::newRow("Llama-3.1-70B TP8: 1 head") << "llama-3.1-70b" << 8 << 1 << 40'960LL;
        QTest::newRow("Llama-3.1-70B TP16: 1 replicated head") << "llama-3.1-70b" << 16 << 1 << 40'960LL;
        QTest::newRow("Llama-3.1-405B TP8: 1 head") << "llama-3.1-405b" << 8 << 1 << 64'512LL;
        QTest::newRow("Qwen3-30B-A3B TP8: 4 heads -> 1 each") << "qwen3-30b-a3b" << 8 << 1 << 24'576LL;
        QTest::newRow("gpt-oss-120b TP4 (vLLM log 30: 18,432)") << "gpt-oss-120b" << 4 << 2 << 18'432LL;
        QTest::newRow("DeepSeek-V3 TP8: latent on every GPU") << "deepseek-v3" << 8 << 1 << 70'272LL;
    }

    void tensorParallelReplication()
    {
        QFETCH(QString, id);
        QFETCH(int, tp);
        QFETCH(int, heads);
        QFETCH(qint64, bytes);
        const ModelArch &m = preset(id);
        QCOMPARE(kvHeadsPerGpu(m, tp), heads);
        QCOMPARE(perToken(m, KvCacheDtype::BFloat16, tp), bytes);
    }

    void blocksHeld_data()
    {
        QTest::addColumn<qint64>("tokens");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<int>("block");
        QTest::addColumn<qint64>("blocks");
        // Hand computed: full layers hold ceil(tokens / block); a window layer
        // holds the blocks spanned by its last `window` tokens.
        QTest::newRow("1 token") << 1LL << 0LL << 16 << 1LL;
        QTest::newRow("16 tokens exactly") << 16LL << 0LL << 16 << 1LL;
        QTest::newRow("17 tokens") << 17LL << 0LL << 16 << 2LL;
        QTest::newRow("8192 / 16") << 8192LL << 0LL << 16 << 512LL;
        QTest::newRow("window larger than sequence") << 100LL << 4096LL << 16 << 7LL;
        QTest::newRow("window 128, 1000 tokens: tokens 872..999 -> blocks 54..62")
            << 1000LL << 128LL << 16 << 9LL;
        QTest::newRow("window 128, 1024 tokens: 896..1023 aligned -> 8 blocks")
            << 1024LL << 128LL << 16 << 8LL;
        QTest::newRow("window 4096, 8192 tokens, block 32") << 8192LL << 4096LL << 32 << 128LL;
        QTest::newRow("zero tokens") << 0LL << 0LL << 16 << 0LL;
    }

    void blocksHeld()
    {
        QFETCH(qint64, tokens);
        QFETCH(qint64, window);
        QFETCH(int, block);
        QFETCH(qint64, blocks);
        QCOMPARE(kvscope::blocksHeld(tokens, window, block), blocks);
    }

    void slidingWindowCache()
    {
        // gpt-oss-120b: 18 full + 18 sliding (window 128) layers, 2,048 B per
        // layer-token. 4 sequences of 10,000 tokens:
        //   full:    18 x ceil(10000/16)=625 blocks
        //   sliding: 18 x (9999/16 - 9872/16 + 1) = 18 x (624 - 617 + 1) = 18 x 8
        // bytes = 4 x (625 + 8) x 16 x 2048 x 18.
        const ModelArch &m = preset(QStringLiteral("gpt-oss-120b"));
        QCOMPARE(m.slidingLayerCount(), 18);
        QCOMPARE(kvCacheBytes(m, layoutOf(m), 4, 10'000), 4LL * (625 + 8) * 16 * 2048 * 18);
        // A window-only layer count would be 2x smaller than counting every layer as full.
        QVERIFY(kvCacheBytes(m, layoutOf(m), 1, 100'000) < 100'000LL * 73'728 * 6 / 10);
    }

    void gemmaLayoutsFollowVllmGrouping()
    {
        // vLLM kv_cache_utils: group size = smaller type's layer count (or the
        // larger within 1.5x). Gemma-2-9B: 21 + 21 -> groups of 21.
        const KvGroupLayout g2 = kvGroupLayout(preset(QStringLiteral("gemma-2-9b")));
        QCOMPARE(g2.slidingLayers, 21);
        QCOMPARE(g2.groupSize, 21);
        QCOMPARE(g2.numGroups(), 2);
        QCOMPARE(g2.paddingLayers(), 0);
        // Gemma-3-27B: 10 full + 52 sliding (pattern 6) -> 1 + 6 groups of 10, 8 padded slots.
        const KvGroupLayout g3 = kvGroupLayout(preset(QStringLiteral("gemma-3-27b")));
        QCOMPARE(g3.fullLayers, 10);
        QCOMPARE(g3.slidingLayers, 52);
        QCOMPARE(g3.groupSize, 10);
        QCOMPARE(g3.numGroups(), 7);
        QCOMPARE(g3.paddingLayers(), 8);
        // Uniform model: one group of every layer.
        const KvGroupLayout llama = kvGroupLayout(preset(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(llama.groupSize, 32);
        QCOMPARE(llama.numGroups(), 1);
    }

    void blocksPerMaxRequest()
    {
        // vLLM log (tests/data/vllm-logs.json id 8): gemma-2-9b,
        // max_model_len 8192, max_num_batched_tokens 8192 -> 21110 blocks give
        // 20.60x concurrency, i.e. 512 (full) + 513 (sliding) blocks per request.
        const ModelArch &m = preset(QStringLiteral("gemma-2-9b"));
        QCOMPARE(kvscope::blocksPerRequest(m, layoutOf(m), 8192, 8192), 1025LL);
        // gpt-oss-120b (tests/data/vllm-logs.json id 30): 16384 tokens, 2048 batched: 1024 + (ceil(2175/16) +
        // 1) = 1161.
        const ModelArch &oss = preset(QStringLiteral("gpt-oss-120b"));
        QCOMPARE(kvscope::blocksPerRequest(oss, layoutOf(oss), 16384, 2048), 1161LL);
    }

    void mistralSlidesEveryLayer()
    {
        // Mistral-7B-v0.1: sliding_window 4096 on all 32 layers.
        const ModelArch &m = preset(QStringLiteral("mistral-7b-v0.1"));
        QCOMPARE(m.slidingLayerCount(), 32);
        QCOMPARE(kvCacheBytes(m, layoutOf(m), 1, 100'000), kvCacheBytes(m, layoutOf(m), 1, 200'000));
    }
};

QTEST_GUILESS_MAIN(TestKvCache)
#include "tst_kvcache.moc"
