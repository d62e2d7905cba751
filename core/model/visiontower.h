// SPDX-License-Identifier: MIT
// A vision tower's tensors and its projector's, family by family, as the
// checkpoints store them (each family's source is named where it is listed).
#pragma once

#include "core/model/imagetokens.h"
#include "core/model/inventorybuilder.h"
#include "core/model/modelarch.h"

namespace kvscope {

/// Adds v's tower and projector to `b`, component Vision. Linear layers are split over TP as vLLM's
/// encoders split them under its default --mm-encoder-tp-mode weights (QKV- or column-parallel in,
/// row-parallel out; e.g. Qwen2_5_VisionPatchMerger in vllm/model_executor/models/qwen2_5_vl.py:
/// ColumnParallelLinear then RowParallelLinear); patch embeddings, positions, norms and single
/// linears stay whole on every GPU. A tower the engine holds whole on every rank
/// (VisionSpec::wholeOnEveryRank) is listed whole.
void addVisionTower(InventoryBuilder &b, const VisionSpec &v);

/// The FLOPs one GPU of `tensorParallel` spends encoding `image` with v's tower and projector
/// (2 per multiply-add): each linear of the blocks and the patch embedding once per patch, each
/// merger, adapter and projector linear once per output embedding, split as addVisionTower splits
/// it; and the attention's scores and weighted values, 4 x hidden per query-key pair, its heads
/// split over the GPUs.
double visionEncoderFlops(const VisionSpec &v, const ImageTokens &image, int tensorParallel);

/// The pixel values `images` (each of `image`'s patches) take as vLLM hands them to the tower: C x
/// (frames) x p x p values a patch in the model's dtype (`dtypeBytes`); Llama 4's class tokens are
/// positions without pixels. Throws kvscope::Error past 2^63 bytes.
std::int64_t visionPixelBytes(const VisionSpec &v, const ImageTokens &image, std::int64_t images,
                              int dtypeBytes);

/// The activations v's tower holds at the peak of its forward pass over `positions` patches (every
/// image of the batch at once) on one GPU of `tensorParallel`: a block's MLP, run eagerly (the tower is
/// not compiled), with the block's input and the attention's results still held; the attention holds
/// less in every listed tower, whose MLP is 2.7 to 4 times its width. Throws kvscope::Error past 2^63
/// bytes.
std::int64_t visionTowerPeakBytes(const VisionSpec &v, std::int64_t positions, int dtypeBytes,
                                  int tensorParallel);

} // namespace kvscope
