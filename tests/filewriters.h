// SPDX-License-Identifier: MIT
// Test helpers that write checkpoint files byte by byte, from the published
// formats rather than from kvscope's readers: safetensors (huggingface/
// safetensors README "Format") and GGUF (ggml-org/ggml docs/gguf.md).
#pragma once

#include <cstring>

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtEndian>

namespace kvscope::test {

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

/// One safetensors tensor: its byte size is given by the test (dtype size x shape).
struct StTensor
{
    QString name;
    QString dtype;
    QList<qint64> shape;
    qint64 bytes = 0;
};

/// u64 little-endian header length, the JSON header, zeroed data.
inline QByteArray safetensorsBytes(const QList<StTensor> &tensors)
{
    QJsonObject header;
    qint64 offset = 0;
    for (const StTensor &t : tensors) {
        QJsonArray shape;
        for (qint64 d : t.shape)
            shape << double(d);
        header.insert(t.name, QJsonObject{{QStringLiteral("dtype"), t.dtype},
                                          {QStringLiteral("shape"), shape},
                                          {QStringLiteral("data_offsets"),
                                           QJsonArray{double(offset), double(offset + t.bytes)}}});
        offset += t.bytes;
    }
    const QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    uchar length[8];
    qToLittleEndian<quint64>(quint64(json.size()), length);
    return QByteArray(reinterpret_cast<const char *>(length), 8) + json + QByteArray(qsizetype(offset), '\0');
}

/// Builds a GGUF file: header, key/values, tensor infos, padding, zeroed data.
/// Raw setters let tests write files that break the format on purpose.
class GgufWriter
{
public:
    // gguf_type
    enum Type : quint32
    {
        U8 = 0,
        I8 = 1,
        U16 = 2,
        I16 = 3,
        U32 = 4,
        I32 = 5,
        F32 = 6,
        BOOL = 7,
        STRING = 8,
        ARRAY = 9,
        U64 = 10,
        I64 = 11,
        F64 = 12
    };

    QByteArray magic = QByteArrayLiteral("GGUF");
    quint32 version = 3;
    qint64 alignment = 32;
    qint64 tensorCountOverride = -1; ///< write this count instead of the real one

    GgufWriter &u32(const QString &key, quint32 v) { return keyed(key, U32, le(v)); }
    GgufWriter &u64(const QString &key, quint64 v) { return keyed(key, U64, le(v)); }
    GgufWriter &f32(const QString &key, float v)
    {
        quint32 bits;
        std::memcpy(&bits, &v, 4);
        return keyed(key, F32, le(bits));
    }
    GgufWriter &boolean(const QString &key, bool v) { return keyed(key, BOOL, QByteArray(1, v ? 1 : 0)); }
    GgufWriter &string(const QString &key, const QString &v) { return keyed(key, STRING, str(v)); }
    GgufWriter &stringArray(const QString &key, const QStringList &items)
    {
        QByteArray body = le(quint32(STRING)) + le(quint64(items.size()));
        for (const QString &s : items)
            body += str(s);
        return keyed(key, ARRAY, body);
    }
    GgufWriter &u32Array(const QString &key, const QList<quint32> &items)
    {
        QByteArray body = le(quint32(U32)) + le(quint64(items.size()));
        for (quint32 v : items)
            body += le(v);
        return keyed(key, ARRAY, body);
    }
    /// A key with any type code and body, for malformed files.
    GgufWriter &keyed(const QString &key, quint32 type, const QByteArray &body)
    {
        m_kv += str(key) + le(type) + body;
        ++m_keys;
        return *this;
    }

    /// A tensor of `bytes` bytes (computed by the test from the block table).
    GgufWriter &tensor(const QString &name, const QList<qint64> &shape, quint32 ggmlType, qint64 bytes,
                       qint64 offsetOverride = -1)
    {
        m_tensors << Tensor{name, shape, ggmlType, bytes, offsetOverride};
        return *this;
    }

    QByteArray bytes() const
    {
        QByteArray infos;
        qint64 offset = 0;
        for (const Tensor &t : m_tensors) {
            infos += str(t.name) + le(quint32(t.shape.size()));
            for (qint64 d : t.shape)
                infos += le(quint64(d));
            infos += le(t.type) + le(quint64(t.offsetOverride >= 0 ? t.offsetOverride : offset));
            offset = align(offset + t.bytes);
        }
        QByteArray out = magic + le(version) +
                         le(quint64(tensorCountOverride >= 0 ? tensorCountOverride : m_tensors.size())) +
                         le(quint64(m_keys)) + m_kv + infos;
        out += QByteArray(qsizetype(align(out.size()) - out.size()), '\0');
        return out + QByteArray(qsizetype(offset), '\0');
    }

private:
    struct Tensor
    {
        QString name;
        QList<qint64> shape;
        quint32 type;
        qint64 bytes;
        qint64 offsetOverride;
    };

    template <typename T> static QByteArray le(T v)
    {
        uchar raw[sizeof(T)];
        qToLittleEndian<T>(v, raw);
        return QByteArray(reinterpret_cast<const char *>(raw), sizeof(T));
    }
    static QByteArray str(const QString &s)
    {
        const QByteArray utf8 = s.toUtf8();
        return le(quint64(utf8.size())) + utf8;
    }
    qint64 align(qint64 n) const { return (n + alignment - 1) / alignment * alignment; }

    QByteArray m_kv;
    qint64 m_keys = 0;
    QList<Tensor> m_tensors;
};

/// ggml_type ids (ggml.h) used by the tests.
enum GgmlId : quint32
{
    GgmlF32 = 0,
    GgmlF16 = 1,
    GgmlQ4_0 = 2,
    GgmlQ8_0 = 8,
    GgmlQ4_K = 12,
    GgmlQ6_K = 14
};

/// A two-layer Llama-shaped GGUF (h 256, 4 heads / 2 KV heads of 64, FFN 512,
/// vocab 1000) in Q4_K / Q6_K / Q8_0 / F16 / F32. Byte sizes by hand from
/// ggml-common.h blocks: Q4_K 144 B and Q6_K 210 B per 256 values, Q8_0 34 B
/// per 32, F16 2 B, F32 4 B. `name` is general.name; `architecture` is
/// general.architecture and the prefix of the model's keys.
inline GgufWriter tinyLlamaGguf(const QString &name = QStringLiteral("Tiny Llama"),
                                const QString &architecture = QStringLiteral("llama"))
{
    GgufWriter w;
    QStringList tokens;
    for (int i = 0; i < 1000; ++i)
        tokens << QStringLiteral("t%1").arg(i);
    const auto key = [&](const char *suffix) {
        return architecture + QLatin1Char('.') + QLatin1String(suffix);
    };
    w.string(QStringLiteral("general.architecture"), architecture)
        .string(QStringLiteral("general.name"), name)
        .u32(QStringLiteral("general.file_type"), 15) // LLAMA_FTYPE_MOSTLY_Q4_K_M
        .u32(QStringLiteral("general.alignment"), 32)
        .u32(key("block_count"), 2)
        .u32(key("context_length"), 4096)
        .u32(key("embedding_length"), 256)
        .u32(key("feed_forward_length"), 512)
        .u32(key("attention.head_count"), 4)
        .u32(key("attention.head_count_kv"), 2)
        .u32(key("rope.dimension_count"), 64)
        .f32(key("attention.layer_norm_rms_epsilon"), 1e-5f)
        .stringArray(QStringLiteral("tokenizer.ggml.tokens"), tokens);
    w.tensor(QStringLiteral("token_embd.weight"), {256, 1000}, GgmlQ4_K, 1000 * 144)
        .tensor(QStringLiteral("output_norm.weight"), {256}, GgmlF32, 256 * 4)
        .tensor(QStringLiteral("output.weight"), {256, 1000}, GgmlQ6_K, 1000 * 210);
    for (int layer = 0; layer < 2; ++layer) {
        const auto name = [&](const char *t) {
            return QStringLiteral("blk.%1.%2.weight").arg(layer).arg(QLatin1String(t));
        };
        w.tensor(name("attn_norm"), {256}, GgmlF32, 1024)
            .tensor(name("attn_q"), {256, 256}, GgmlQ4_K, 256 * 144)
            .tensor(name("attn_k"), {256, 128}, GgmlQ4_K, 128 * 144);
        if (layer == 0)
            w.tensor(name("attn_v"), {256, 128}, GgmlQ8_0, 128 * 8 * 34);
        else
            w.tensor(name("attn_v"), {256, 128}, GgmlF16, 128 * 256 * 2);
        w.tensor(name("attn_output"), {256, 256}, GgmlQ4_K, 256 * 144)
            .tensor(name("ffn_norm"), {256}, GgmlF32, 1024)
            .tensor(name("ffn_gate"), {256, 512}, GgmlQ4_K, 512 * 144)
            .tensor(name("ffn_up"), {256, 512}, GgmlQ4_K, 512 * 144)
            .tensor(name("ffn_down"), {512, 256}, GgmlQ6_K, 256 * 2 * 210);
    }
    return w;
}

} // namespace kvscope::test
