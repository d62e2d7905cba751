// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>

#include <QString>

namespace kvscope {

/// A ggml tensor type as GGUF stores it: values per block and bytes per block
/// (ggml/src/ggml-common.h block structs; docs/quantization-formats.md §6).
struct GgmlType
{
    std::uint32_t id = 0;  ///< enum ggml_type value
    const char *name = ""; ///< "Q4_K"
    int blockValues = 1;   ///< values per block (1 for plain types)
    int blockBytes = 0;    ///< bytes per block

    double bitsPerWeight() const { return 8.0 * blockBytes / blockValues; }
};

/// The type with this ggml_type id, or nullopt for ids kvscope does not know
/// (removed types and types newer than this table).
std::optional<GgmlType> ggmlType(std::uint32_t id);

/// The type with this name ("q8_0", case-insensitive), or nullopt.
std::optional<GgmlType> ggmlTypeNamed(const QString &name);

/// Exact bytes of a row of `values` values: whole blocks (ggml_row_size);
/// nullopt when `values` is not a multiple of the block.
std::optional<std::int64_t> ggmlRowBytes(const GgmlType &type, std::int64_t values);

/// llama.cpp's general.file_type (enum llama_ftype) as its quantize name
/// ("Q4_K_M"); empty for values this table does not know.
QString llamaFileTypeName(std::int64_t fileType);

} // namespace kvscope
