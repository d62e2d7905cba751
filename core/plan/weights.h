// SPDX-License-Identifier: MIT
#pragma once

#include "model/inventory.h"
#include "plan/memoryplan.h"
#include "precision/quantizationspec.h"

namespace kvscope {

/// Whether `spec` stores this tensor group: decoder linear weights only
/// (attention, MLP, experts), never embeddings, lm_head, norms, biases or
/// routers; MXFP4 only the routed experts; minus the checkpoint's ignore list.
bool quantizes(const QuantizationSpec &spec, const TensorGroup &group);

/// Weight memory per GPU and for the whole checkpoint.
WeightMemory weightMemory(const ModelArch &model, const QList<TensorGroup> &inventory,
                          const QuantizationSpec &spec, WeightDtype dtype, int tensorParallelSize);

/// Rotary cos/sin tables vLLM builds at load: max_position x rotary_dim in --dtype, per distinct rotary.
std::int64_t rotaryBufferBytes(const ModelArch &model, WeightDtype dtype);

} // namespace kvscope
