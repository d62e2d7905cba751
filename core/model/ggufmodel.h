// SPDX-License-Identifier: MIT
#pragma once

#include "core/formats/gguf.h"
#include "core/model/modelarch.h"

#include <QJsonObject>

namespace kvscope {

/// Translates llama.cpp metadata (general.architecture, <arch>.block_count,
/// .embedding_length, .attention.head_count[_kv], .feed_forward_length,
/// .context_length, .attention.key_length/value_length, .expert_*,
/// .attention.sliding_window...) into the HuggingFace config.json fields
/// kvscope reads, so GGUF models go through the same family rules.
/// Throws kvscope::Error naming `origin` and the key.
QJsonObject hfConfigFromGguf(const GgufFile &file, const QString &origin);

/// The model a GGUF file describes, with its weights measured from the tensor
/// infos (exact bytes per ggml type) and format Gguf.
ModelArch modelFromGguf(const GgufFile &file, const QString &origin);

/// Sums a GGUF file's tensors into a MeasuredCheckpoint.
MeasuredCheckpoint measureGguf(const GgufFile &file);

} // namespace kvscope
