// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/configreader.h"
#include "core/model/modelarch.h"

#include <QJsonObject>
#include <QString>

namespace kvscope {

// Readers for the config.json fields of layouts that mix layer kinds: recurrent
// layers (Qwen3-Next Gated DeltaNet, Granite 4.0-H Mamba-2), Llama 4 chunked
// local attention, Gemma 3n KV sharing and extra weights, and DeepSeek-V3.2's
// sparse-attention indexer. Each throws kvscope::Error naming the field.

/// Gemma 3n publishes intermediate_size as one width per layer; kvscope needs
/// one width, so equal entries collapse to it (differing ones are refused).
void normalizeGemma3nText(QJsonObject &text, const QString &origin, const QString &prefix);

/// True when layer_types (or layers_block_type) lists a layer of `kind`.
bool listsLayerKind(const ConfigReader &r, const QString &kind);

void readRecurrentLayers(const ConfigReader &r, const QString &modelType, ModelArch &m);
void readLlama4Layout(const ConfigReader &r, const QString &modelType, ModelArch &m);
void readGemma3nLayout(const ConfigReader &r, const QString &modelType, ModelArch &m);
void readSparseIndexer(const ConfigReader &r, ModelArch &m);
/// Refuses KV-shared layers (Gemma 3n) that have no earlier layer of their kind to share.
void checkKvSharing(const ConfigReader &r, const ModelArch &m);

/// The config fields that size a recurrent state, with their values
/// ("mamba_d_head 64, mamba_d_state 128, …"), for a message that refuses them.
QString recurrentStateFields(const RecurrentSpec &s);

} // namespace kvscope
