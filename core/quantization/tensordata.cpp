// SPDX-License-Identifier: MIT
#include "core/quantization/tensordata.h"

#include "core/common/enumtable.h"
#include "core/quantization/floatformat.h"
#include "core/quantization/kernels.h"

#include <bit>
#include <cstring>

namespace kvscope::quant {

static_assert(std::endian::native == std::endian::little,
              "safetensors and .npy data are little-endian; decoding assumes a little-endian host");

namespace {

const EnumSpelling<ElementType> elementTypeNames[] = {
    {ElementType::Float32, "F32"},
    {ElementType::Float16, "F16"},
    {ElementType::BFloat16, "BF16"},
};

} // namespace

QString elementTypeName(ElementType type)
{
    return enumName(elementTypeNames, type);
}

int elementBytes(ElementType type)
{
    return type == ElementType::Float32 ? 4 : 2;
}

TensorData TensorData::fromFloats(std::vector<float> values, std::int64_t rows, std::int64_t cols,
                                  QString origin, QString name)
{
    auto owned = std::make_shared<std::vector<float>>(std::move(values));
    const auto *bytes = reinterpret_cast<const unsigned char *>(owned->data());
    return fromBytes(bytes, ElementType::Float32, rows, cols, std::move(owned), std::move(origin),
                     std::move(name));
}

TensorData TensorData::fromBytes(const unsigned char *bytes, ElementType type, std::int64_t rows,
                                 std::int64_t cols, std::shared_ptr<const void> keepAlive, QString origin,
                                 QString name)
{
    TensorData t;
    t.m_bytes = bytes;
    t.m_type = type;
    t.m_rows = rows;
    t.m_cols = cols;
    t.m_alignedFloats =
        type == ElementType::Float32 && reinterpret_cast<std::uintptr_t>(bytes) % alignof(float) == 0;
    t.m_keepAlive = std::move(keepAlive);
    t.m_origin = std::move(origin);
    t.m_name = std::move(name);
    return t;
}

const float *TensorData::floats(std::int64_t begin, std::int64_t count, float *buffer) const
{
    const unsigned char *source = m_bytes + begin * elementBytes(m_type);
    switch (m_type) {
    case ElementType::Float32:
        if (m_alignedFloats)
            return reinterpret_cast<const float *>(source);
        std::memcpy(buffer, source, size_t(count) * sizeof(float));
        return buffer;
    case ElementType::Float16:
        kernels::decodeFloat16(source, count, buffer);
        return buffer;
    case ElementType::BFloat16:
        kernels::decodeBFloat16(source, count, buffer);
        return buffer;
    }
    return buffer;
}

float TensorData::at(std::int64_t row, std::int64_t col) const
{
    float value = 0.0f;
    return *floats(row * m_cols + col, 1, &value);
}

} // namespace kvscope::quant
