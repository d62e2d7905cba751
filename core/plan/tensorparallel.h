// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelarch.h"

#include <functional>

#include <QList>

namespace kvscope {

/// vLLM's constraints on --tensor-parallel-size: it divides the attention
/// heads, it divides or is a multiple of the KV heads, and it divides the
/// MLP widths. Throws kvscope::Error naming the option, the value and the field.
void validateTensorParallel(const ModelArch &model, std::int64_t tensorParallelSize);

/// The sizes from 1 to `max` that `validate` accepts (throws no kvscope::Error for).
QList<int> acceptedSizes(int max, const std::function<void(int)> &validate);

/// The GPU counts from 1 to `maxGpus` that pass validateTensorParallel.
QList<int> validTensorParallelSizes(const ModelArch &model, int maxGpus = 64);

} // namespace kvscope
