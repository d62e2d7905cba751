// SPDX-License-Identifier: MIT
#include "core/model/visionconfig.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"
#include "core/model/configreader.h"

#include <cmath>
#include <optional>

namespace kvscope {

namespace {

// vision_config.model_type as each family's transformers configuration class writes it.
const EnumSpelling<VisionFamily> visionFamilies[] = {
    {VisionFamily::Siglip, "siglip_vision_model"},         {VisionFamily::Qwen25Vl, "qwen2_5_vl"},
    {VisionFamily::Qwen3Vl, "qwen3_vl", {"qwen3_vl_moe"}}, {VisionFamily::Pixtral, "pixtral"},
    {VisionFamily::Llama4, "llama4_vision_model"},         {VisionFamily::MoonVit, "moonvit"},
};

/// The projector the wrapper's model_type puts after the tower (the Qwen-VL mergers are the tower's).
VisionProjector projectorFor(VisionFamily family, const QString &wrapperType)
{
    if (family == VisionFamily::Qwen25Vl || family == VisionFamily::Qwen3Vl)
        return VisionProjector::None;
    if (family == VisionFamily::Llama4)
        return VisionProjector::Llama4;
    if (family == VisionFamily::MoonVit)
        return VisionProjector::KimiVl;
    if (wrapperType == QLatin1String("mistral3"))
        return VisionProjector::Mistral3;
    if (wrapperType.startsWith(QLatin1String("llava")))
        return VisionProjector::Llava;
    return VisionProjector::Gemma3;
}

/// A kernel given as [h, w] (MoonViT's merge_kernel_size); kvscope takes square ones. Absent: 1.
std::int64_t squareKernel(const ConfigReader &r, const char *key)
{
    const std::optional<QJsonArray> sides = r.array({key});
    if (!sides || sides->isEmpty())
        return 1;
    const QJsonValue first = sides->at(0);
    for (const QJsonValue side : *sides)
        if (!side.isDouble() || side != first || side.toDouble() < 1 || side.toDouble() > 64 ||
            side.toDouble() != std::floor(side.toDouble()))
            r.fail(QLatin1String(key), QStringLiteral("must be a square kernel such as [2, 2], got %1")
                                           .arg(ConfigReader::render(QJsonValue(*sides))));
    return std::int64_t(first.toDouble());
}

/// vision_feature_layer: one layer index, or a list whose features are concatenated (Granite Vision).
int featureLayerCount(const ConfigReader &top)
{
    const QJsonValue layers = top.value({"vision_feature_layer"});
    return layers.isArray() ? std::max<int>(1, int(layers.toArray().size())) : 1;
}

} // namespace

VisionFamily visionFamily(const QString &modelType)
{
    return enumValue(visionFamilies, modelType).value_or(VisionFamily::Generic);
}

void readVisionConfig(const QJsonObject &top, const QString &origin, ModelArch &m)
{
    const QJsonValue vision = top.value(QLatin1String("vision_config"));
    if (!vision.isObject())
        return;
    const ConfigReader outer(top, origin);
    const ConfigReader r(vision.toObject(), origin, QStringLiteral("vision_config."));
    VisionSpec v;
    const QString type = r.string({"model_type"});
    v.family = visionFamily(type);
    v.projector = projectorFor(v.family, outer.string({"model_type"}));
    v.numLayers = int(r.integer({"num_hidden_layers", "depth"}, 0, MaxConfigLayers).value_or(0));
    v.hiddenSize = r.integer({"hidden_size", "embed_dim"}).value_or(0);
    v.intermediateSize = r.integer({"intermediate_size"}).value_or(4 * v.hiddenSize);
    v.patchSize = int(r.integer({"patch_size"}).value_or(0));
    v.imageSize = int(r.integer({"image_size"}).value_or(0));
    v.numChannels = int(r.integer({"num_channels", "in_channels", "in_chans"}, 1).value_or(3));
    v.temporalPatchSize = int(r.integer({"temporal_patch_size"}, 1).value_or(1));
    // Qwen-VL's merge size is the tower's; Mistral 3 keeps it on the wrapper; MoonViT names its
    // kernel (merge_kernel_size [2, 2]: kvscope takes square kernels).
    v.spatialMergeSize = int(
        r.integer({"spatial_merge_size"}, 1).value_or(outer.integer({"spatial_merge_size"}, 1).value_or(1)));
    if (v.family == VisionFamily::MoonVit)
        v.spatialMergeSize = int(squareKernel(r, "merge_kernel_size"));
    v.positionEmbeddings = r.integer({"num_position_embeddings"}).value_or(0);
    v.deepstackMergers = int(r.array({"deepstack_visual_indexes"}).value_or(QJsonArray()).size());
    v.adapterInput = r.integer({"projector_input_dim"}).value_or(0);
    v.adapterOutput = r.integer({"projector_output_dim"}).value_or(0);
    v.visionOutput = r.integer({"vision_output_dim"}).value_or(v.adapterOutput);
    v.featureLayers = featureLayerCount(outer);
    // Qwen2.5-VL attends within windows of window_size pixels but in its fullatt_block_indexes layers
    // (Qwen2_5_VisionTransformer.get_window_index, vllm/model_executor/models/qwen2_5_vl.py).
    if (v.family == VisionFamily::Qwen25Vl) {
        v.windowSize = int(r.integer({"window_size"}, 0, 1 << 20).value_or(0));
        v.fullAttentionLayers = int(r.array({"fullatt_block_indexes"}).value_or(QJsonArray()).size());
    }
    // LlavaConfig's default is a biased projector, Mistral3Config's an unbiased one
    // (huggingface/transformers models/llava/configuration_llava.py,
    // models/mistral3/configuration_mistral3.py).
    v.projectorBias =
        outer.boolean({"multimodal_projector_bias"}).value_or(v.projector != VisionProjector::Mistral3);
    v.imageNewline = outer.string({"model_type"}) == QLatin1String("llava_next");
    v.projectorOutput = r.integer({"out_hidden_size"}).value_or(m.hiddenSize);
    // The image processors' defaults as the checkpoints' preprocessor_config.json publish them:
    // Qwen/Qwen2.5-VL-7B-Instruct min_pixels 3136, max_pixels 12845056; Qwen/Qwen3-VL-8B-Instruct
    // size.shortest_edge 65536, size.longest_edge 16777216 (pixels, not edges); Gemma 3's
    // mm_tokens_per_image is in config.json.
    if (v.family == VisionFamily::Qwen25Vl) {
        v.minPixels = std::int64_t(56) * 56;
        v.maxPixels = std::int64_t(28) * 28 * 16384;
    } else if (v.family == VisionFamily::Qwen3Vl) {
        v.minPixels = 65'536;
        v.maxPixels = 16'777'216;
    }
    // Kimi-VL: MoonViT's learned positions over init_pos_emb_height x init_pos_emb_width
    // (Learnable2DInterpPosEmb, vllm/model_executor/models/moonvit.py), and the image processor's
    // in_token_limit of 4,096 patches (moonshotai/Kimi-VL-A3B-Instruct preprocessor_config.json;
    // KimiVLProcessingInfo.get_num_image_tokens).
    if (v.family == VisionFamily::MoonVit) {
        v.positionGrid = (Checked(r.integer({"init_pos_emb_height"}, 1, 1 << 16).value_or(64)) *
                          r.integer({"init_pos_emb_width"}, 1, 1 << 16).value_or(64))
                             .value();
        v.maxPatches = 4096;
    }
    // Llama4Processor: downsample_ratio = int(round(1.0 / (pixel_shuffle_ratio ** 2))).
    if (v.family == VisionFamily::Llama4)
        if (const std::optional<double> ratio = r.number({"pixel_shuffle_ratio"});
            ratio && *ratio > 0.01 && *ratio <= 1)
            v.pixelShuffleFactor = int(std::lround(1.0 / (*ratio * *ratio)));
    if (v.projector == VisionProjector::Gemma3)
        v.tokensPerImage = outer.integer({"mm_tokens_per_image"}, 1).value_or(256);
    if (v.numLayers == 0 || v.hiddenSize == 0) {
        m.vision = VisionSpec{};
        return;
    }
    m.vision = v;
    if (v.family == VisionFamily::Generic)
        m.notes << QStringLiteral("vision tower '%1' counted with SigLIP's layout (estimated)").arg(type);
    // SiglipVisionConfig's default keeps an attention-pooling head that LLaVA-style wrappers never use;
    // whether a checkpoint stores it is not in its config.
    if (v.family == VisionFamily::Siglip && v.projector != VisionProjector::Gemma3 &&
        r.boolean({"vision_use_head"}).value_or(true))
        m.notes << QStringLiteral("SigLIP's attention-pooling head (vision_use_head) is not counted "
                                  "(estimated)");
}

} // namespace kvscope
