// SPDX-License-Identifier: MIT
// A vision tower's tensors and its projector's, family by family, as the
// checkpoints store them (each family's source is named where it is listed).
#pragma once

#include "core/model/inventorybuilder.h"
#include "core/model/modelarch.h"

namespace kvscope {

/// Adds v's tower and projector to `b`, component Vision. Linear layers are split over TP as vLLM's
/// encoders split them under its default --mm-encoder-tp-mode weights (QKV- or column-parallel in,
/// row-parallel out; e.g. Qwen2_5_VisionPatchMerger in vllm/model_executor/models/qwen2_5_vl.py:
/// ColumnParallelLinear then RowParallelLinear); patch embeddings, positions, norms and single
/// linears stay whole on every GPU.
void addVisionTower(InventoryBuilder &b, const VisionSpec &v);

} // namespace kvscope
