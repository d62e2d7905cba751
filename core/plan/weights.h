// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/inventory.h"
#include "core/plan/expertparallel.h"
#include "core/plan/memoryplan.h"
#include "core/precision/quantizationspec.h"

namespace kvscope {

/// Whether `spec` stores this tensor group: decoder linear weights only
/// (attention, MLP, experts), never embeddings, lm_head, norms, biases or
/// routers; MXFP4 only the routed experts; minus the checkpoint's ignore list.
bool quantizes(const QuantizationSpec &spec, const TensorGroup &group);

/// How vLLM pads MXFP4 expert matrices before allocating them, per GPU
/// (Mxfp4MoEMethod.create_weights, vllm/model_executor/layers/quantization/mxfp4.py,
/// backend from get_mxfp4_backend): Marlin below compute capability 9.0 rounds the
/// per-GPU intermediate size up to 128 and the hidden size to 256; the Triton path of
/// Hopper and later rounds the intermediate size to 64 and keeps the hidden size.
struct ExpertPadding
{
    int intermediate = 1; ///< multiple the per-GPU expert intermediate size is rounded up to
    int hidden = 1;       ///< multiple the hidden size is rounded up to
    /// Hopper's Triton MXFP4 MoE path keeps a swizzled copy of the expert scales beside the
    /// checkpoint's, its rows padded to this multiple (HopperMXScaleLayout: 2 x 8 warps x 2 x 8 = 256),
    /// and float32 expert biases; 0 = the kernel's layout replaces the tensors.
    int swizzledScaleRows = 0;
    friend bool operator==(const ExpertPadding &, const ExpertPadding &) = default;
};
/// Marlin's MXFP4 MoE kernel: n % 256 and k % 128 (the per-GPU intermediate size to 128, the hidden to 256).
inline constexpr ExpertPadding MarlinMxfp4Padding{128, 256};
/// The padding for a GPU of this compute capability ("8.0"); none when unknown.
ExpertPadding mxfp4ExpertPadding(const QString &computeCapability);
/// The bytes one GPU holds beyond the expert tensors on Hopper's Triton MXFP4 path
/// (ExpertPadding::swizzledScaleRows): the scales' swizzled copy and the biases' growth to float32.
/// `expertTensorParallel` and `localExperts` as the plan places the routed experts (MemoryPlan's
/// expertTensorParallelSize and localExperts).
std::int64_t mxfp4ScaleCopyBytes(const ModelArch &model, WeightDtype dtype, int expertTensorParallel,
                                 int localExperts, const ExpertPadding &padding);
/// A routed expert's per-GPU shape `local` as vLLM allocates it under MXFP4 padding: gate/up rows
/// and down columns are the intermediate size, the others the hidden size.
LocalShape paddedExpertShape(const TensorGroup &group, LocalShape local, const ExpertPadding &padding);

/// Weight memory per GPU and for the whole checkpoint; `padding` applies to
/// MXFP4 experts on the GPU (the checkpoint figures stay unpadded), `experts` says how
/// many routed experts the GPU holds and over how many GPUs each is split.
WeightMemory weightMemory(const ModelArch &model, const QList<TensorGroup> &inventory,
                          const QuantizationSpec &spec, WeightDtype dtype, int tensorParallelSize,
                          const ExpertPadding &padding = {}, const ExpertPlacement &experts = {});

/// The parameter tensors one GPU allocates, in the order the engines' model classes create them: layer by
/// layer in the inventory's order, q, k and v as one qkv_proj tensor, gate and up as one gate_up_proj, a MoE
/// layer's routed experts as one tensor per packed projection; a quantized tensor's values, scales, zero
/// points and other parts apart. Bytes as weightMemory() counts them.
QList<std::int64_t> parameterTensorBytes(const ModelArch &model, const QList<TensorGroup> &inventory,
                                         const QuantizationSpec &spec, WeightDtype dtype,
                                         int tensorParallelSize, const ExpertPadding &padding = {},
                                         const ExpertPlacement &experts = {});

/// vLLM builds a multimodal rope's table for 4 x its positions, for long videos
/// (MRotaryEmbedding.cache_max_position_num, vllm/model_executor/layers/rotary_embedding/mrope.py,
/// since Qwen2.5-VL's support in February 2025); SGLang's MRotaryEmbedding keeps max_position.
inline constexpr std::int64_t VllmMultimodalRopeScale = 4;

/// Rotary cos/sin tables an engine builds at load: the table's rows (x `multimodalRopeScale` for a
/// multimodal rope) x rotary_dim in `dtype`, per distinct rotary.
std::int64_t rotaryBufferBytes(const ModelArch &model, WeightDtype dtype, std::int64_t multimodalRopeScale);

} // namespace kvscope
