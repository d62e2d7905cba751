// SPDX-License-Identifier: MIT
// GGUF: header and metadata reading, ggml block sizes, the model and the
// exact weight bytes a file describes, llama.cpp KV types, and every way a
// header can lie. Files are written by the test (tests/filewriters.h).
#include "core/common/error.h"
#include "core/formats/ggmltypes.h"
#include "core/formats/gguf.h"
#include "core/model/ggufmodel.h"
#include "core/model/inventory.h"
#include "core/plan/kvcache.h"
#include "tests/filewriters.h"
#include "tests/testsupport.h"

#include <QBuffer>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using kvscope::test::GgufWriter;

namespace {

GgufFile parseBytes(const QByteArray &bytes, const QString &origin = QStringLiteral("t.gguf"))
{
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    return parseGguf(buffer, copy.size(), origin);
}

// Tensor bytes of tinyLlamaGguf(), by hand: embeddings 144,000 (Q4_K) + output
// 210,000 (Q6_K) + final norm 1,024 + layer 0 384,000 + layer 1 414,720 (its
// attn_v is F16: 65,536 instead of Q8_0's 34,816).
constexpr qint64 tinyBytes = 1'153'744;
// Elements: 2 x 256,000 + 256 + 2 x 590,336 (= the Llama formula for h 256, I 512, kv 2 x 64).
constexpr qint64 tinyElements = 1'692'928;

} // namespace

class TestGguf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void blockSizes_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("values");
        QTest::addColumn<int>("bytes");
        QTest::addColumn<double>("bpw");
        // ggml-common.h block structs (docs/quantization-formats.md §6).
        QTest::newRow("Q8_0") << "Q8_0" << 32 << 34 << 8.5;
        QTest::newRow("Q4_0") << "Q4_0" << 32 << 18 << 4.5;
        QTest::newRow("Q4_1") << "Q4_1" << 32 << 20 << 5.0;
        QTest::newRow("Q5_0") << "Q5_0" << 32 << 22 << 5.5;
        QTest::newRow("Q5_1") << "Q5_1" << 32 << 24 << 6.0;
        QTest::newRow("Q2_K") << "Q2_K" << 256 << 84 << 2.625;
        QTest::newRow("Q3_K") << "Q3_K" << 256 << 110 << 3.4375;
        QTest::newRow("Q4_K") << "Q4_K" << 256 << 144 << 4.5;
        QTest::newRow("Q5_K") << "Q5_K" << 256 << 176 << 5.5;
        QTest::newRow("Q6_K") << "Q6_K" << 256 << 210 << 6.5625;
        QTest::newRow("Q8_K: f32 d + 256 int8 + 16 int16 sums") << "Q8_K" << 256 << 292 << 9.125;
        QTest::newRow("IQ4_NL") << "IQ4_NL" << 32 << 18 << 4.5;
        QTest::newRow("IQ4_XS") << "IQ4_XS" << 256 << 136 << 4.25;
        QTest::newRow("MXFP4") << "MXFP4" << 32 << 17 << 4.25;
        QTest::newRow("F16") << "F16" << 1 << 2 << 16.0;
        QTest::newRow("BF16") << "BF16" << 1 << 2 << 16.0;
        QTest::newRow("F32") << "F32" << 1 << 4 << 32.0;
    }

    void blockSizes()
    {
        QFETCH(QString, type);
        QFETCH(int, values);
        QFETCH(int, bytes);
        QFETCH(double, bpw);
        const std::optional<GgmlType> t = ggmlTypeNamed(type);
        QVERIFY(t);
        QCOMPARE(t->blockValues, values);
        QCOMPARE(t->blockBytes, bytes);
        QCOMPARE(t->bitsPerWeight(), bpw);
        QCOMPARE(ggmlRowBytes(*t, 4096 * std::int64_t(values)).value(), 4096LL * bytes);
        if (values > 1)
            QVERIFY(!ggmlRowBytes(*t, values + 1)); // rows are whole blocks
    }

    void typeIdsFollowGgml()
    {
        // ggml.h enum ggml_type: Q4_K = 12, Q6_K = 14, BF16 = 30, MXFP4 = 39; 4 and 5 were removed.
        QCOMPARE(QLatin1String(ggmlType(12)->name), QLatin1String("Q4_K"));
        QCOMPARE(QLatin1String(ggmlType(14)->name), QLatin1String("Q6_K"));
        QCOMPARE(QLatin1String(ggmlType(30)->name), QLatin1String("BF16"));
        QCOMPARE(QLatin1String(ggmlType(39)->name), QLatin1String("MXFP4"));
        QVERIFY(!ggmlType(4));
        QVERIFY(!ggmlType(5000));
        QCOMPARE(llamaFileTypeName(15), QStringLiteral("Q4_K_M"));
        QCOMPARE(llamaFileTypeName(7), QStringLiteral("Q8_0"));
    }

    void readsHeaderAndMetadata()
    {
        const GgufFile file = parseBytes(test::tinyLlamaGguf().bytes());
        QCOMPARE(file.version, 3);
        QCOMPARE(file.alignment, 32LL);
        QCOMPARE(file.string(QStringLiteral("general.architecture")), QStringLiteral("llama"));
        QCOMPARE(file.integer(QStringLiteral("llama.block_count")).value(), 2LL);
        const GgufValue *tokens = file.value(QStringLiteral("tokenizer.ggml.tokens"));
        QVERIFY(tokens && tokens->isArray());
        QCOMPARE(tokens->count, 1000LL);
        QVERIFY(tokens->items.isEmpty()); // strings are counted, not kept
        QCOMPARE(file.tensors.size(), 3 + 2 * 9);
        const GgufTensor *v0 = file.tensor(QStringLiteral("blk.0.attn_v.weight"));
        QVERIFY(v0);
        QCOMPARE(QLatin1String(v0->type.name), QLatin1String("Q8_0"));
        QCOMPARE(v0->bytes, 128LL * 8 * 34);
        QCOMPARE(v0->shape, (QList<std::int64_t>{256, 128}));
        QCOMPARE(file.dataOffset % 32, 0LL);
    }

    void modelFromMetadata()
    {
        const ModelArch m =
            modelFromGguf(parseBytes(test::tinyLlamaGguf().bytes()), QStringLiteral("t.gguf"));
        QCOMPARE(m.format, ModelFormat::Gguf);
        QCOMPARE(m.modelType, QStringLiteral("llama"));
        QCOMPARE(m.name, QStringLiteral("Tiny Llama"));
        QCOMPARE(m.fileType, QStringLiteral("Q4_K_M"));
        QCOMPARE(m.numLayers, 2);
        QCOMPARE(m.hiddenSize, 256LL);
        QCOMPARE(m.numHeads, 4);
        QCOMPARE(m.numKvHeads, 2);
        QCOMPARE(m.headDim, 64);
        QCOMPARE(m.intermediateSize, 512LL);
        QCOMPARE(m.vocabSize, 1000LL);
        QCOMPARE(m.maxPositionEmbeddings, 4096LL);
        QVERIFY(!m.tiedEmbeddings); // output.weight is present
        QVERIFY(!m.estimated);
        // Exact weights, by hand (see tinyBytes).
        QCOMPARE(m.measured.format, QStringLiteral("gguf"));
        QCOMPARE(m.measured.bytes, tinyBytes);
        QCOMPARE(m.measured.elements, tinyElements);
        QCOMPARE(m.measured.bytesByType.value(QStringLiteral("Q8_0")), 34'816LL);
        QCOMPARE(m.measured.bytesByType.value(QStringLiteral("F16")), 65'536LL);
        QCOMPARE(m.measured.bytesByType.value(QStringLiteral("F32")), 5LL * 1024);
        QCOMPARE(m.measured.bytesByType.value(QStringLiteral("Q6_K")), 210'000LL + 2 * 107'520);
        // The layout kvscope derives from the metadata holds the same elements.
        QCOMPARE(countParameters(m).total, tinyElements);
        QVERIFY(m.notes.filter(QStringLiteral("layout")).isEmpty());
    }

    void llamaCppKvTypes_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<qint64>("perToken");
        // 2 layers x (K + V) rows of 2 KV heads x 64 = 128 values:
        // f16 128 x 2 B; q8_0 4 blocks x 34 B; q4_0 4 blocks x 18 B (ggml-common.h).
        QTest::newRow("f16") << int(KvCacheDtype::Float16) << 2LL * 2 * 128 * 2;
        QTest::newRow("q8_0") << int(KvCacheDtype::Q8_0) << 2LL * 2 * 4 * 34;
        QTest::newRow("q4_0") << int(KvCacheDtype::Q4_0) << 2LL * 2 * 4 * 18;
    }

    void llamaCppKvTypes()
    {
        QFETCH(int, dtype);
        QFETCH(qint64, perToken);
        const ModelArch m =
            modelFromGguf(parseBytes(test::tinyLlamaGguf().bytes()), QStringLiteral("t.gguf"));
        QCOMPARE(kvBytesPerTokenPerLayer(m, KvCacheDtype(dtype), 1) * m.numLayers, perToken);
    }

    void kvBlockTypesNeedWholeBlocks()
    {
        // A row of 72 values (e.g. 1 KV head of 72) is not whole 32-value blocks.
        QCOMPARE(kvRowBytes(KvCacheDtype::Q8_0, 4096), 128LL * 34);
        QVERIFY_THROWS_EXCEPTION(Error, kvRowBytes(KvCacheDtype::Q4_0, 72));
        QCOMPARE(kvBitsPerElement(KvCacheDtype::Q8_0), 8.5);
        QCOMPARE(kvBitsPerElement(KvCacheDtype::Q4_0), 4.5);
    }

    void familyRulesApply()
    {
        // gemma2 in GGUF: sliding window with llama.cpp's period 2 (the same as HF's alternation),
        // tied embeddings (no output.weight), head_dim from key_length.
        GgufWriter w;
        w.string(QStringLiteral("general.architecture"), QStringLiteral("gemma2"))
            .u32(QStringLiteral("gemma2.block_count"), 4)
            .u32(QStringLiteral("gemma2.context_length"), 8192)
            .u32(QStringLiteral("gemma2.embedding_length"), 256)
            .u32(QStringLiteral("gemma2.feed_forward_length"), 512)
            .u32(QStringLiteral("gemma2.attention.head_count"), 4)
            .u32(QStringLiteral("gemma2.attention.head_count_kv"), 2)
            .u32(QStringLiteral("gemma2.attention.key_length"), 128)
            .u32(QStringLiteral("gemma2.attention.value_length"), 128)
            .u32(QStringLiteral("gemma2.attention.sliding_window"), 4096)
            .u32(QStringLiteral("gemma2.vocab_size"), 1000);
        const ModelArch m = modelFromGguf(parseBytes(w.bytes()), QStringLiteral("g.gguf"));
        QCOMPARE(m.modelType, QStringLiteral("gemma2"));
        QVERIFY(m.tiedEmbeddings);
        QCOMPARE(m.headDim, 128);
        QCOMPARE(m.normsPerLayer, 4);
        QCOMPARE(m.slidingLayerCount(), 2);
        QVERIFY(m.isSlidingLayer(0) && !m.isSlidingLayer(1));
        // gpt-oss: llama.cpp's swa pattern 2 gives the HF layer_types.
        GgufWriter oss;
        oss.string(QStringLiteral("general.architecture"), QStringLiteral("gpt-oss"))
            .u32(QStringLiteral("gpt-oss.block_count"), 4)
            .u32(QStringLiteral("gpt-oss.context_length"), 131072)
            .u32(QStringLiteral("gpt-oss.embedding_length"), 256)
            .u32(QStringLiteral("gpt-oss.feed_forward_length"), 256)
            .u32(QStringLiteral("gpt-oss.attention.head_count"), 4)
            .u32(QStringLiteral("gpt-oss.attention.head_count_kv"), 2)
            .u32(QStringLiteral("gpt-oss.attention.key_length"), 64)
            .u32(QStringLiteral("gpt-oss.attention.value_length"), 64)
            .u32(QStringLiteral("gpt-oss.attention.sliding_window"), 128)
            .u32(QStringLiteral("gpt-oss.expert_count"), 8)
            .u32(QStringLiteral("gpt-oss.expert_used_count"), 2)
            .u32(QStringLiteral("gpt-oss.expert_feed_forward_length"), 256)
            .u32(QStringLiteral("gpt-oss.vocab_size"), 1000);
        const ModelArch g = modelFromGguf(parseBytes(oss.bytes()), QStringLiteral("o.gguf"));
        QCOMPARE(g.slidingLayerCount(), 2);
        QVERIFY(g.isSlidingLayer(0) && !g.isSlidingLayer(1));
        QCOMPARE(g.moe.numExperts, 8);
        QVERIFY(g.attentionSinks);
    }

    void perLayerKvHeadsUseTheLargest()
    {
        GgufWriter w;
        w.string(QStringLiteral("general.architecture"), QStringLiteral("llama"))
            .u32(QStringLiteral("llama.block_count"), 2)
            .u32(QStringLiteral("llama.embedding_length"), 256)
            .u32(QStringLiteral("llama.feed_forward_length"), 512)
            .u32(QStringLiteral("llama.attention.head_count"), 4)
            .u32Array(QStringLiteral("llama.attention.head_count_kv"), {1, 2})
            .u32(QStringLiteral("llama.vocab_size"), 100);
        const ModelArch m = modelFromGguf(parseBytes(w.bytes()), QStringLiteral("p.gguf"));
        QCOMPARE(m.numKvHeads, 2);
        QVERIFY(!m.notes.filter(QStringLiteral("varies per layer")).isEmpty());
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        GgufWriter wrongMagic = test::tinyLlamaGguf();
        wrongMagic.magic = QByteArrayLiteral("GGML");
        QTest::newRow("wrong magic") << wrongMagic.bytes() << "not a GGUF file: magic is '47 47 4d 4c'";
        GgufWriter v1 = test::tinyLlamaGguf();
        v1.version = 1;
        QTest::newRow("version 1") << v1.bytes() << "GGUF version 1 is not supported";
        GgufWriter v7 = test::tinyLlamaGguf();
        v7.version = 7;
        QTest::newRow("version 7") << v7.bytes() << "GGUF version 7 is not supported";
        GgufWriter bigEndian = test::tinyLlamaGguf();
        bigEndian.version = 0x03000000;
        QTest::newRow("big-endian") << bigEndian.bytes() << "big-endian";
        QTest::newRow("too short") << QByteArray("GG") << "too short for a GGUF header";
        GgufWriter twoKeys;
        twoKeys.string(QStringLiteral("general.architecture"), QStringLiteral("llama"))
            .u32(QStringLiteral("llama.block_count"), 2);
        // 24-byte header + 45-byte first key + 33-byte second key (its u32 value at 98..101).
        QTest::newRow("truncated metadata")
            << twoKeys.bytes().left(100)
            << "truncated at offset 98 while reading the value of 'llama.block_count'";
        QTest::newRow("truncated key name")
            << twoKeys.bytes().left(90) << "the name of key 1 length is 17, but only 13 bytes follow";
        QTest::newRow("header counts past a truncated file")
            << test::tinyLlamaGguf().bytes().left(200) << "the tensor count is 21, but only 184 bytes follow";
        GgufWriter hugeCount = test::tinyLlamaGguf();
        hugeCount.tensorCountOverride = qint64(1) << 40;
        QTest::newRow("absurd tensor count")
            << hugeCount.bytes() << "the tensor count is 1099511627776, more than kvscope reads";
        GgufWriter manyTensors = test::tinyLlamaGguf();
        manyTensors.tensorCountOverride = 900'000;
        QTest::newRow("tensor count past the end") << manyTensors.bytes() << "but only";
        GgufWriter longString;
        longString.keyed(QStringLiteral("general.name"), GgufWriter::STRING,
                         QByteArray::fromHex("40420f0000000000") + "abc"); // length 1,000,000, 3 bytes follow
        QTest::newRow("string length past the end")
            << longString.bytes() << "'general.name' length is 1000000, but only";
        GgufWriter hugeString;
        hugeString.keyed(QStringLiteral("general.name"), GgufWriter::STRING,
                         QByteArray::fromHex("ffffffffffffff7f"));
        QTest::newRow("string length beyond the cap") << hugeString.bytes() << "more than kvscope reads";
        GgufWriter longArray;
        longArray.keyed(QStringLiteral("x"), GgufWriter::ARRAY,
                        QByteArray::fromHex("04000000") + QByteArray::fromHex("ffffffffffffff00"));
        QTest::newRow("array length past the end") << longArray.bytes() << "the length of array 'x' is";
        GgufWriter nested;
        nested.keyed(QStringLiteral("x"), GgufWriter::ARRAY,
                     QByteArray::fromHex("09000000") + QByteArray(8, '\0'));
        QTest::newRow("array of arrays") << nested.bytes() << "array of arrays";
        GgufWriter badType;
        badType.keyed(QStringLiteral("x"), 13, QByteArray(8, '\0'));
        QTest::newRow("unknown value type") << badType.bytes() << "key 'x' has value type 13";
        GgufWriter badBool;
        badBool.keyed(QStringLiteral("x"), GgufWriter::BOOL, QByteArray(1, 2));
        QTest::newRow("bool of 2") << badBool.bytes() << "is a bool of value 2";
        GgufWriter twice;
        twice.u32(QStringLiteral("a"), 1).u32(QStringLiteral("a"), 2);
        QTest::newRow("duplicate key") << twice.bytes() << "key 'a' appears twice";
        GgufWriter badAlignment;
        badAlignment.u32(QStringLiteral("general.alignment"), 3);
        QTest::newRow("alignment not a power of two") << badAlignment.bytes() << "power of two";
        GgufWriter unknownType;
        unknownType.tensor(QStringLiteral("w"), {32}, 200, 64);
        QTest::newRow("unknown ggml type")
            << unknownType.bytes() << "tensor 'w' has ggml type 200, which kvscope does not know";
        GgufWriter removedType;
        removedType.tensor(QStringLiteral("w"), {32}, 4, 64);
        QTest::newRow("removed ggml type 4") << removedType.bytes() << "ggml type 4";
        GgufWriter partialBlock;
        partialBlock.tensor(QStringLiteral("w"), {100, 2}, test::GgmlQ4_K, 288);
        QTest::newRow("row not whole blocks")
            << partialBlock.bytes() << "rows of 100 values are not whole Q4_K blocks";
        GgufWriter fiveDims;
        fiveDims.tensor(QStringLiteral("w"), {1, 1, 1, 1, 1}, test::GgmlF32, 4);
        QTest::newRow("five dimensions") << fiveDims.bytes() << "has 5 dimensions";
        GgufWriter pastEnd;
        pastEnd.tensor(QStringLiteral("w"), {32}, test::GgmlF32, 128, 1'048'576);
        QTest::newRow("tensor offset past the end")
            << pastEnd.bytes() << "tensor 'w' [1048576, 1048704) runs past the end";
        // Found by fuzz_gguf: offset and size each fit in 63 bits, their sum does not (the message's end
        // overflowed while the bound check itself was safe). 2^62 + 2^60 x 4 B = 2^63.
        GgufWriter endPast63Bits;
        endPast63Bits.tensor(QStringLiteral("w"), {qint64(1) << 60}, test::GgmlF32, 0, qint64(1) << 62);
        QTest::newRow("tensor end past 2^63")
            << endPast63Bits.bytes()
            << "tensor 'w' [4611686018427387904, 9223372036854775808) runs past the end";
        GgufWriter misaligned;
        misaligned.tensor(QStringLiteral("w"), {32}, test::GgmlF32, 128, 4);
        QTest::newRow("misaligned offset") << misaligned.bytes() << "not a multiple of the alignment 32";
        GgufWriter overlap;
        overlap.tensor(QStringLiteral("a"), {32}, test::GgmlF32, 128)
            .tensor(QStringLiteral("b"), {32}, test::GgmlF32, 128, 64);
        QTest::newRow("overlapping tensors") << overlap.bytes() << "overlap";
        GgufWriter sameName;
        sameName.tensor(QStringLiteral("a"), {8}, test::GgmlF32, 32)
            .tensor(QStringLiteral("a"), {8}, test::GgmlF32, 32);
        QTest::newRow("duplicate tensor") << sameName.bytes() << "tensor 'a' appears twice";
    }

    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        KVSCOPE_VERIFY_ERROR(parseBytes(bytes, QStringLiteral("bad.gguf")), QLatin1String("bad.gguf: "),
                             message);
    }

    void badMetadata_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        GgufWriter noArch;
        noArch.u32(QStringLiteral("llama.block_count"), 2);
        QTest::newRow("no architecture") << noArch.bytes() << "missing metadata 'general.architecture'";
        GgufWriter noLayers;
        noLayers.string(QStringLiteral("general.architecture"), QStringLiteral("llama"));
        QTest::newRow("no block count") << noLayers.bytes() << "missing metadata 'llama.block_count'";
        GgufWriter zeroLayers;
        zeroLayers.string(QStringLiteral("general.architecture"), QStringLiteral("llama"))
            .u32(QStringLiteral("llama.block_count"), 0);
        QTest::newRow("zero layers") << zeroLayers.bytes() << "metadata 'llama.block_count' is 0";
        GgufWriter manyLayers;
        manyLayers.string(QStringLiteral("general.architecture"), QStringLiteral("gpt-oss"))
            .u64(QStringLiteral("gpt-oss.block_count"), quint64(1) << 40)
            .u32(QStringLiteral("gpt-oss.attention.sliding_window"), 128);
        QTest::newRow("absurd block count")
            << manyLayers.bytes()
            << "metadata 'gpt-oss.block_count' is 1099511627776; kvscope reads at most 65536";
        GgufWriter stringLayers;
        stringLayers.string(QStringLiteral("general.architecture"), QStringLiteral("llama"))
            .string(QStringLiteral("llama.block_count"), QStringLiteral("two"));
        QTest::newRow("string block count")
            << stringLayers.bytes() << "'llama.block_count' must be an integer";
        GgufWriter noVocab;
        noVocab.string(QStringLiteral("general.architecture"), QStringLiteral("llama"))
            .u32(QStringLiteral("llama.block_count"), 2)
            .u32(QStringLiteral("llama.embedding_length"), 256)
            .u32(QStringLiteral("llama.attention.head_count"), 4)
            .u32(QStringLiteral("llama.feed_forward_length"), 512);
        QTest::newRow("no vocabulary") << noVocab.bytes() << "no vocabulary size";
        GgufWriter badHeads = noVocab;
        badHeads.u32(QStringLiteral("llama.vocab_size"), 10)
            .u32(QStringLiteral("llama.attention.head_count_kv"), 3);
        QTest::newRow("kv heads not dividing") << badHeads.bytes() << "num_key_value_heads' is 3";
    }

    void badMetadata()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        KVSCOPE_VERIFY_ERROR(
            modelFromGguf(parseBytes(bytes, QStringLiteral("bad.gguf")), QStringLiteral("bad.gguf")),
            QLatin1String("bad.gguf"), message);
    }

    void fileOnDisk()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::writeFile(path, test::tinyLlamaGguf().bytes()));
        QVERIFY(looksLikeGguf(path));
        QCOMPARE(readGgufFile(path).tensors.size(), 21);
        QVERIFY_THROWS_EXCEPTION(Error, readGgufFile(dir.filePath(QStringLiteral("none.gguf"))));
    }
};

QTEST_GUILESS_MAIN(TestGguf)
#include "tst_gguf.moc"
