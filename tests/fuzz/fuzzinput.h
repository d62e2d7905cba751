// SPDX-License-Identifier: MIT
// The fuzzer's bytes as a read-only device, without a copy.
#pragma once

#include <cstddef>
#include <cstdint>

#include <QBuffer>
#include <QByteArray>

namespace kvscope::fuzz {

class InputDevice
{
public:
    InputDevice(const std::uint8_t *data, std::size_t size)
        : m_bytes(QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size))),
          m_buffer(&m_bytes)
    {
        m_buffer.open(QIODevice::ReadOnly);
    }

    QIODevice &device() { return m_buffer; }
    std::int64_t size() const { return m_bytes.size(); }

private:
    QByteArray m_bytes;
    QBuffer m_buffer;
};

} // namespace kvscope::fuzz
