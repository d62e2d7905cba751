// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/units.h"
#include "core/formats/ggmltypes.h"

#include <cstdint>
#include <optional>

#include <QList>
#include <QMap>
#include <QString>
#include <QVariant>

class QIODevice;

namespace kvscope {

/// GGUF metadata value types (gguf.h enum gguf_type).
enum class GgufValueType : std::uint32_t
{
    UInt8 = 0,
    Int8 = 1,
    UInt16 = 2,
    Int16 = 3,
    UInt32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    UInt64 = 10,
    Int64 = 11,
    Float64 = 12,
};

/// One metadata value. Arrays keep their element type and count; their items
/// are kept only for numbers and booleans up to MaxKeptGgufArrayItems (per-layer
/// head counts), never for strings (a tokenizer vocabulary is only counted).
struct GgufValue
{
    GgufValueType type = GgufValueType::UInt32;
    QVariant scalar; ///< number, bool or string
    GgufValueType elementType = GgufValueType::UInt32;
    std::int64_t count = 0; ///< array length
    QList<QVariant> items;  ///< kept array items (see above)

    bool isArray() const { return type == GgufValueType::Array; }
    bool isInteger() const;
};

/// One tensor of a GGUF file. shape is ggml's ne[]: ne[0] is the row length
/// (a linear layer's input features), ne[1] the rows.
struct GgufTensor
{
    QString name;
    QList<std::int64_t> shape;
    GgmlType type;
    std::int64_t offset = 0; ///< from the start of the data section
    std::int64_t elements = 0;
    std::int64_t bytes = 0; ///< whole blocks, exactly as stored
};

/// A parsed, validated GGUF header: metadata and tensor infos (never the data).
struct GgufFile
{
    int version = 0;
    std::int64_t alignment = 32; ///< general.alignment
    std::int64_t dataOffset = 0; ///< start of the tensor data
    std::int64_t fileSize = 0;
    QMap<QString, GgufValue> metadata;
    QList<GgufTensor> tensors; ///< in file order

    const GgufValue *value(const QString &key) const;
    const GgufTensor *tensor(const QString &name) const;
    /// Integer metadata (any integer type), nullopt when absent or not an integer.
    std::optional<std::int64_t> integer(const QString &key) const;
    QString string(const QString &key) const;
};

/// Limits that keep a hostile header from allocating without bound.
inline constexpr std::int64_t MaxGgufStringBytes = 16 * MiB;
inline constexpr std::int64_t MaxGgufTensorNameBytes = 1024;
inline constexpr std::int64_t MaxGgufTensors = 1 << 20;
inline constexpr std::int64_t MaxGgufKeys = 1 << 16;
inline constexpr std::int64_t MaxKeptGgufArrayItems = 1 << 16;

/// Parses the GGUF header of a device positioned at its start, whose total
/// size is `size` bytes. Every length and count is checked against the bytes
/// left before anything is allocated; tensor offsets must lie inside the data
/// section. Throws kvscope::Error naming `origin`, the key or tensor, and the value.
GgufFile parseGguf(QIODevice &device, std::int64_t size, const QString &origin);

/// Opens `path` and reads its header only.
GgufFile readGgufFile(const QString &path);

/// True when `path` starts with the GGUF magic.
bool looksLikeGguf(const QString &path);

} // namespace kvscope
