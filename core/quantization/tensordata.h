// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <QString>

namespace kvscope::quant {

/// Element types the simulator reads.
enum class ElementType
{
    Float32,
    Float16,
    BFloat16
};

QString elementTypeName(ElementType type);
int elementBytes(ElementType type);

/// A read-only 2-D tensor [rows, cols] in row-major order: either a
/// synthetic buffer or a view into a memory-mapped file. Cheap to copy; copies
/// share the buffer or mapping, which lives as long as any copy.
class TensorData
{
public:
    TensorData() = default;

    /// Takes ownership of float32 values (synthetic tensors).
    static TensorData fromFloats(std::vector<float> values, std::int64_t rows, std::int64_t cols,
                                 QString origin, QString name);
    /// Wraps bytes owned by `keepAlive` (a mapping); nothing is copied.
    static TensorData fromBytes(const unsigned char *bytes, ElementType type, std::int64_t rows,
                                std::int64_t cols, std::shared_ptr<const void> keepAlive, QString origin,
                                QString name);

    std::int64_t rows() const { return m_rows; }
    std::int64_t cols() const { return m_cols; }
    std::int64_t elements() const { return m_rows * m_cols; }
    ElementType type() const { return m_type; }
    bool isNull() const { return m_bytes == nullptr; }
    /// Where the tensor came from: a file path or "synthetic:gaussian".
    const QString &origin() const { return m_origin; }
    /// The tensor's name in its file, or a description of the synthetic kind.
    const QString &name() const { return m_name; }

    /// Elements [begin, begin + count) as float32: a pointer straight into the
    /// data when it already is aligned float32, else decoded into `buffer`
    /// (which must hold `count` floats).
    const float *floats(std::int64_t begin, std::int64_t count, float *buffer) const;

    /// One element, decoded.
    float at(std::int64_t row, std::int64_t col) const;

private:
    const unsigned char *m_bytes = nullptr;
    ElementType m_type = ElementType::Float32;
    std::int64_t m_rows = 0;
    std::int64_t m_cols = 0;
    bool m_alignedFloats = false;
    std::shared_ptr<const void> m_keepAlive;
    QString m_origin;
    QString m_name;
};

} // namespace kvscope::quant
