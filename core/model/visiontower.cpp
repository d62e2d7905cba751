// SPDX-License-Identifier: MIT
#include "core/model/visiontower.h"

#include "core/common/checked.h"

#include <algorithm>

namespace kvscope {

namespace {

constexpr Component Tower = Component::Vision;

QString named(const char *name)
{
    return QLatin1String(name);
}

/// A pre-norm ViT block: attention in (q, k, v as one or three), its output, and a plain or gated MLP.
struct BlockShape
{
    bool fusedQkv = false; ///< one qkv [3h, h] (Qwen-VL) or q, k, v apart
    bool attentionBias = true;
    bool gatedMlp = false;
    bool mlpBias = true;
    NormKind norm = NormKind::LayerNorm;
};

void addBlocks(InventoryBuilder &b, const VisionSpec &v, const BlockShape &shape)
{
    const std::int64_t h = v.hiddenSize;
    const std::int64_t i = v.intermediateSize;
    const std::int64_t layers = v.numLayers;
    if (shape.fusedQkv) {
        b.linear(named("vision.blocks.attn.qkv"), Tower, (Checked(h) * 3).value(), h, layers,
                 Sharding::SplitRows, shape.attentionBias);
    } else {
        for (const char *name :
             {"vision.blocks.attn.q_proj", "vision.blocks.attn.k_proj", "vision.blocks.attn.v_proj"})
            b.linear(named(name), Tower, h, h, layers, Sharding::SplitRows, shape.attentionBias);
    }
    b.linear(named("vision.blocks.attn.out_proj"), Tower, h, h, layers, Sharding::SplitCols,
             shape.attentionBias);
    if (shape.gatedMlp)
        b.linear(named("vision.blocks.mlp.gate_proj"), Tower, i, h, layers, Sharding::SplitRows,
                 shape.mlpBias);
    b.linear(named("vision.blocks.mlp.up_proj"), Tower, i, h, layers, Sharding::SplitRows, shape.mlpBias);
    b.linear(named("vision.blocks.mlp.down_proj"), Tower, h, i, layers, Sharding::SplitCols, shape.mlpBias);
    b.norm(named("vision.blocks.norm"), Tower, h, (Checked(layers) * 2).value(), shape.norm);
}

/// Patch pixels in: C x (frames) x p x p values per patch.
std::int64_t patchInputs(const VisionSpec &v)
{
    return (Checked(v.numChannels) * v.temporalPatchSize * v.patchSize * v.patchSize).value();
}

std::int64_t squarePatches(const VisionSpec &v)
{
    const std::int64_t side = v.patchSize > 0 ? v.imageSize / v.patchSize : 0;
    return (Checked(side) * side).value();
}

/// A Qwen-VL merger: norm over h (or over the merged width), then merged -> merged -> text width.
void addMerger(InventoryBuilder &b, const QString &name, const VisionSpec &v, std::int64_t normWidth,
               NormKind norm, std::int64_t copies)
{
    const std::int64_t merged = (Checked(v.hiddenSize) * v.spatialMergeSize * v.spatialMergeSize).value();
    b.norm(name + QStringLiteral(".norm"), Tower, normWidth, copies, norm);
    b.linear(name + QStringLiteral(".fc1"), Tower, merged, merged, copies, Sharding::SplitRows, true);
    b.linear(name + QStringLiteral(".fc2"), Tower, v.projectorOutput, merged, copies, Sharding::SplitCols,
             true);
}

// SigLIP (huggingface/transformers models/siglip/modeling_siglip.py: SiglipVisionEmbeddings,
// SiglipEncoderLayer, post_layernorm): biased patch conv, learned positions over the square grid.
void addSiglip(InventoryBuilder &b, const VisionSpec &v)
{
    addBlocks(b, v, {});
    b.linear(named("vision.patch_embedding"), Tower, v.hiddenSize, patchInputs(v), 1, Sharding::Replicated,
             true);
    b.add(named("vision.position_embedding.weight"), Tower, TensorRole::Embedding, squarePatches(v),
          v.hiddenSize, 1, Sharding::Replicated);
    b.norm(named("vision.post_layernorm"), Tower, v.hiddenSize, 1, NormKind::LayerNorm);
}

// Qwen2.5-VL (models/qwen2_5_vl/modeling_qwen2_5_vl.py: Qwen2_5_VisionPatchEmbed with bias=False,
// Qwen2_5_VLVisionBlock with RMSNorms, a biased qkv and gated MLP, Qwen2_5_VLPatchMerger).
void addQwen25Vl(InventoryBuilder &b, const VisionSpec &v)
{
    addBlocks(b, v, {true, true, true, true, NormKind::RmsNorm});
    b.linear(named("vision.patch_embed.proj"), Tower, v.hiddenSize, patchInputs(v), 1, Sharding::Replicated,
             false);
    addMerger(b, named("vision.merger"), v, v.hiddenSize, NormKind::RmsNorm, 1);
}

// Qwen3-VL (models/qwen3_vl/modeling_qwen3_vl.py: Qwen3VLVisionPatchEmbed with bias=True, pos_embed,
// LayerNorm blocks with a plain MLP, the merger and one merger per DeepStack layer, whose norm
// runs after the shuffle over the merged width).
void addQwen3Vl(InventoryBuilder &b, const VisionSpec &v)
{
    addBlocks(b, v, {true, true, false, true, NormKind::LayerNorm});
    b.linear(named("vision.patch_embed.proj"), Tower, v.hiddenSize, patchInputs(v), 1, Sharding::Replicated,
             true);
    b.add(named("vision.pos_embed.weight"), Tower, TensorRole::Embedding, v.positionEmbeddings, v.hiddenSize,
          1, Sharding::Replicated);
    addMerger(b, named("vision.merger"), v, v.hiddenSize, NormKind::LayerNorm, 1);
    const std::int64_t merged = (Checked(v.hiddenSize) * v.spatialMergeSize * v.spatialMergeSize).value();
    addMerger(b, named("vision.deepstack_merger_list"), v, merged, NormKind::LayerNorm, v.deepstackMergers);
}

// Pixtral (models/pixtral/modeling_pixtral.py: patch_conv with bias=False, ln_pre, attention_norm and
// ffn_norm RMSNorms, bias-free attention and gated MLP; its 2-D rotary table is not stored).
void addPixtral(InventoryBuilder &b, const VisionSpec &v)
{
    addBlocks(b, v, {false, false, true, false, NormKind::RmsNorm});
    b.linear(named("vision.patch_conv"), Tower, v.hiddenSize, patchInputs(v), 1, Sharding::Replicated, false);
    b.norm(named("vision.ln_pre"), Tower, v.hiddenSize, 1, NormKind::RmsNorm);
}

// Llama 4 (models/llama4/modeling_llama4.py: Llama4UnfoldConvolution without bias, class_embedding,
// positional_embedding_vlm over the grid and the class token, layernorm_pre/post, biased attention
// and MLP, and the pixel-shuffle adapter Llama4VisionPixelShuffleMLP: intermediate ->
// projector_input_dim -> projector_output_dim, no biases).
void addLlama4(InventoryBuilder &b, const VisionSpec &v)
{
    addBlocks(b, v, {});
    b.linear(named("vision.patch_embedding.linear"), Tower, v.hiddenSize, patchInputs(v), 1,
             Sharding::Replicated, false);
    b.add(named("vision.class_embedding"), Tower, TensorRole::Embedding, 1, v.hiddenSize, 1,
          Sharding::Replicated);
    b.add(named("vision.positional_embedding_vlm"), Tower, TensorRole::Embedding, squarePatches(v) + 1,
          v.hiddenSize, 1, Sharding::Replicated);
    b.norm(named("vision.layernorm_pre_post"), Tower, v.hiddenSize, 2, NormKind::LayerNorm);
    b.linear(named("vision.vision_adapter.mlp.fc1"), Tower, v.adapterInput, v.intermediateSize, 1,
             Sharding::SplitRows, false);
    b.linear(named("vision.vision_adapter.mlp.fc2"), Tower, v.adapterOutput, v.adapterInput, 1,
             Sharding::SplitCols, false);
}

// MoonViT (vllm/model_executor/models/moonvit.py: MoonVisionPatchEmbed's biased Conv2d and
// Learnable2DInterpPosEmb over the init_pos_emb grid, MoonVitEncoderLayer's LayerNorms norm0/norm1,
// fused wqkv and wo with biases, MLP2 fc0/fc1 with biases, final_layernorm; the 2-D rope is computed,
// not stored).
void addMoonVit(InventoryBuilder &b, const VisionSpec &v)
{
    addBlocks(b, v, {true, true, false, true, NormKind::LayerNorm});
    b.linear(named("vision.patch_embed.proj"), Tower, v.hiddenSize, patchInputs(v), 1, Sharding::Replicated,
             true);
    b.add(named("vision.patch_embed.pos_emb.weight"), Tower, TensorRole::Embedding, v.positionGrid,
          v.hiddenSize, 1, Sharding::Replicated);
    b.norm(named("vision.encoder.final_layernorm"), Tower, v.hiddenSize, 1, NormKind::LayerNorm);
}

void addProjector(InventoryBuilder &b, const VisionSpec &v)
{
    const std::int64_t h = v.hiddenSize;
    const std::int64_t text = v.projectorOutput;
    switch (v.projector) {
    case VisionProjector::None:
        return;
    case VisionProjector::Gemma3:
        // Gemma3MultiModalProjector (models/gemma3/modeling_gemma3.py): a bare [vision, text] parameter.
        b.add(named("multi_modal_projector.mm_input_projection_weight"), Tower, TensorRole::LinearWeight,
              text, h, 1, Sharding::Replicated);
        b.norm(named("multi_modal_projector.mm_soft_emb_norm"), Tower, h, 1, NormKind::RmsNorm);
        return;
    case VisionProjector::Mistral3:
        // Mistral3MultiModalProjector (models/mistral3/modeling_mistral3.py): RMSNorm, then
        // Mistral3PatchMerger's merging_layer [h, h x merge^2] without bias, then LLaVA's linears.
        b.norm(named("multi_modal_projector.norm"), Tower, h, 1, NormKind::RmsNorm);
        b.linear(named("multi_modal_projector.patch_merger.merging_layer"), Tower, h,
                 (Checked(h) * v.spatialMergeSize * v.spatialMergeSize).value(), 1, Sharding::Replicated,
                 false);
        [[fallthrough]];
    case VisionProjector::Llava:
        // LlavaMultiModalProjector (models/llava/modeling_llava.py): the feature layers concatenated in.
        b.linear(named("multi_modal_projector.linear_1"), Tower, text, (Checked(h) * v.featureLayers).value(),
                 1, Sharding::SplitRows, v.projectorBias);
        b.linear(named("multi_modal_projector.linear_2"), Tower, text, text, 1, Sharding::SplitCols,
                 v.projectorBias);
        if (v.imageNewline) // LlavaNextModel.image_newline
            b.add(named("image_newline"), Tower, TensorRole::Embedding, 1, text, 1, Sharding::Replicated);
        return;
    case VisionProjector::Llama4:
        // Llama4MultiModalProjector: linear_1 [text, vision_output_dim], bias=False.
        b.linear(named("multi_modal_projector.linear_1"), Tower, text, v.visionOutput, 1, Sharding::SplitRows,
                 false);
        return;
    case VisionProjector::KimiVl: {
        // KimiVLMultiModalProjector (vllm/model_executor/models/kimi_vl.py): pre_norm over the tower's
        // width, the merged kernel's features through two biased ReplicatedLinear layers.
        const std::int64_t merged = (Checked(h) * v.spatialMergeSize * v.spatialMergeSize).value();
        b.norm(named("multi_modal_projector.pre_norm"), Tower, h, 1, NormKind::LayerNorm);
        b.linear(named("multi_modal_projector.linear_1"), Tower, merged, merged, 1, Sharding::Replicated,
                 true);
        b.linear(named("multi_modal_projector.linear_2"), Tower, text, merged, 1, Sharding::Replicated, true);
        return;
    }
    }
}

} // namespace

void addVisionTower(InventoryBuilder &b, const VisionSpec &v)
{
    const qsizetype first = b.size();
    switch (v.family) {
    case VisionFamily::Qwen25Vl:
        addQwen25Vl(b, v);
        break;
    case VisionFamily::Qwen3Vl:
        addQwen3Vl(b, v);
        break;
    case VisionFamily::Pixtral:
        addPixtral(b, v);
        break;
    case VisionFamily::Llama4:
        addLlama4(b, v);
        break;
    case VisionFamily::MoonVit:
        addMoonVit(b, v);
        break;
    case VisionFamily::Siglip:
    case VisionFamily::Generic:
        addSiglip(b, v);
        break;
    }
    addProjector(b, v);
    if (v.wholeOnEveryRank)
        b.replicateFrom(first);
}

double visionEncoderFlops(const VisionSpec &v, const ImageTokens &image, int tensorParallel)
{
    InventoryBuilder b;
    addVisionTower(b, v);
    const double gpus = v.wholeOnEveryRank ? 1.0 : double(std::max(1, tensorParallel));
    double flops = 0;
    for (const TensorGroup &group : b.take()) {
        if (group.role != TensorRole::LinearWeight)
            continue;
        const bool perPatch = group.name.startsWith(QLatin1String("vision.blocks.")) ||
                              group.name.startsWith(QLatin1String("vision.patch"));
        const double positions = double(perPatch ? image.patches : image.embeddings);
        const double split = group.sharding == Sharding::Replicated ? 1.0 : gpus;
        flops += 2.0 * double(group.elements()) * positions / split;
    }
    const int full = v.windowSize > 0 ? std::clamp(v.fullAttentionLayers, 0, v.numLayers) : v.numLayers;
    const double pairs =
        double(full) * double(image.attentionPairs) + double(v.numLayers - full) * double(image.windowPairs);
    return flops + 4.0 * double(v.hiddenSize) * pairs / gpus;
}

std::int64_t visionPixelBytes(const VisionSpec &v, const ImageTokens &image, std::int64_t images,
                              int dtypeBytes)
{
    std::int64_t withPixels = image.patches;
    if (v.family == VisionFamily::Llama4 && v.patchSize > 0) {
        // Each tile's positions are its patches and one class token (Llama4VisionEncoder).
        const std::int64_t side = v.imageSize / v.patchSize;
        withPixels -= image.patches / (side * side + 1);
    }
    return (Checked(withPixels) * images * patchInputs(v) * dtypeBytes).value();
}

std::int64_t visionTowerPeakBytes(const VisionSpec &v, std::int64_t positions, int dtypeBytes,
                                  int tensorParallel)
{
    if (!v.enabled() || positions <= 0)
        return 0;
    const std::int64_t h = v.hiddenSize;
    const int split = v.wholeOnEveryRank ? 1 : std::max(1, tensorParallel);
    const std::int64_t i = ceilDiv(v.intermediateSize, std::int64_t(split));
    // Widths a position holds at the MLP's two fullest moments, read from each block's forward in vLLM
    // (vllm/model_executor/models/): nn.Module calls keep their arguments alive to the end, and custom
    // ops are off under Inductor (CustomOp.default_on, vllm/model_executor/custom_op.py), so the eager
    // tower runs their forward_native.
    const auto moments = [&](std::int64_t hidden1, std::int64_t inner1, std::int64_t hidden2,
                             std::int64_t inner2) {
        return std::max((Checked(h) * hidden1 + Checked(i) * inner1).value(),
                        (Checked(h) * hidden2 + Checked(i) * inner2).value());
    };
    std::int64_t widths = 0;
    switch (v.family) {
    case VisionFamily::Qwen25Vl:
    case VisionFamily::Pixtral:
        // Qwen2_5_VisionBlock: x, x_attn, the fused norm's output and residual (4 h);
        // PixtralHFTransformerBlock: hidden_states, r, h and ffn_norm's output. Their gated MLP holds gate/up
        // (2 i), silu(gate) (i) and the product (i) in SiluAndMul.forward_native, then gate/up, the product
        // and down_proj's h.
        widths = moments(4, 4, 5, 3);
        break;
    case VisionFamily::MoonVit:
        // MoonVitEncoderLayer: the input, attn_out, the residual sum and norm1's output (4 h); MLP2's fc0
        // output and activation (2 i), then the activation and fc1's h.
        widths = moments(4, 2, 5, 1);
        break;
    case VisionFamily::Qwen3Vl:
    case VisionFamily::Llama4:
    case VisionFamily::Siglip:
    case VisionFamily::Generic:
        // SiglipEncoderLayer, Llama4VisionEncoderLayer, Qwen3_VisionBlock: the input, the residual sum
        // and the norm's output (3 h); a plain MLP's fc1 output and activation (2 i), then the
        // activation and fc2's h.
        widths = moments(3, 2, 4, 1);
        break;
    }
    // Qwen3-VL keeps each DeepStack merger's output, one per merged square at the text width, to the
    // end of the tower (deepstack_feature_lists in Qwen3_VisionTransformer.forward, qwen3_vl.py): the
    // blocks after the last of them run with all held.
    const std::int64_t merge = std::max(1, v.spatialMergeSize);
    const Checked deepstack =
        Checked(positions / (merge * merge)) * v.projectorOutput * v.deepstackMergers * dtypeBytes;
    return (Checked(positions) * widths * dtypeBytes + deepstack).value();
}

} // namespace kvscope
