// SPDX-License-Identifier: MIT
// Tensors from files for the simulator: .safetensors (through the validated,
// memory-mapped reader) and .npy. The data stays in the mapping; passes
// decode it chunk by chunk.
#pragma once

#include "core/quantization/tensordata.h"

#include <cstdint>

#include <QList>
#include <QString>

namespace kvscope::quant {

/// One entry of a file's tensor list.
struct TensorInfo
{
    QString name;
    QString dtype; ///< as the file names it: "BF16", "<f4"
    QList<std::int64_t> shape;
    /// Empty when the simulator can read the tensor, else why not ("not 2-D").
    QString unusableReason;

    QString shapeText() const; ///< "[4096, 11008]"
};

/// The tensors a .safetensors or .npy file holds (a .npy holds one, named after the file).
/// Throws kvscope::Error for unreadable or malformed files.
QList<TensorInfo> listTensors(const QString &path);

/// Maps tensor `name` of the file (empty: the file's only tensor). It must be
/// F32, F16 or BF16 (.npy: '<f4', '<f2', or '<V2'/'|V2' as np.save writes
/// ml_dtypes.bfloat16), 2-D, C order and non-empty. Throws kvscope::Error
/// naming the file, the tensor and what is wrong.
TensorData openTensor(const QString &path, const QString &name = {});

} // namespace kvscope::quant
