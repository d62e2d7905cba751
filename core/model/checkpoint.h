// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QMap>
#include <QString>

namespace kvscope {

/// A checkpoint's weights as its files store them, read from headers only
/// (safetensors JSON headers, GGUF tensor infos); never from tensor data.
struct MeasuredCheckpoint
{
    QString format; ///< "safetensors" or "gguf"; empty = not measured
    int files = 0;
    std::int64_t tensors = 0;
    /// Elements as stored. GGUF counts logical weights (blocks know their
    /// values); safetensors counts each stored element, so a packed int32
    /// word holding eight 4-bit weights counts once, as do scales and zeros.
    std::int64_t elements = 0;
    std::int64_t bytes = 0;                  ///< tensor bytes (no headers, no alignment padding)
    QMap<QString, std::int64_t> bytesByType; ///< "BF16", "I32", "Q4_K" -> bytes
    QMap<QString, std::int64_t> elementsByType;

    bool measured() const { return !format.isEmpty(); }
    friend bool operator==(const MeasuredCheckpoint &, const MeasuredCheckpoint &) = default;
};

} // namespace kvscope
