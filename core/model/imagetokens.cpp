// SPDX-License-Identifier: MIT
#include "core/model/imagetokens.h"

#include "core/common/checked.h"
#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <QCoreApplication>

namespace kvscope {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("kvscope::ImageTokens", text);
}

/// Python's round(): halves go to the even neighbour (smart_resize uses it).
std::int64_t roundHalfEven(std::int64_t numerator, std::int64_t denominator)
{
    const std::int64_t quotient = numerator / denominator;
    const std::int64_t twice = 2 * (numerator % denominator);
    if (twice > denominator || (twice == denominator && quotient % 2 != 0))
        return quotient + 1;
    return quotient;
}

/// Qwen2-VL's smart_resize (huggingface/transformers models/qwen2_vl/image_processing_qwen2_vl.py, used
/// by Qwen2.5-VL with factor 28 and Qwen3-VL with factor 32): both sides to multiples of the factor,
/// nearest first, then scaled down (floor) to max_pixels or up (ceil) to min_pixels keeping the aspect.
ImageTokens qwenTokens(const VisionSpec &v, std::int64_t width, std::int64_t height)
{
    if (std::max(width, height) > 200 * std::min(width, height))
        throw Error(tr("an image of %1 x %2 pixels: Qwen-VL's processor refuses an aspect ratio above 200")
                        .arg(width)
                        .arg(height));
    const std::int64_t factor = std::int64_t(v.patchSize) * v.spatialMergeSize;
    std::int64_t h = std::max(factor, roundHalfEven(height, factor) * factor);
    std::int64_t w = std::max(factor, roundHalfEven(width, factor) * factor);
    const double area = double(height) * double(width);
    if (h * w > v.maxPixels) {
        const double beta = std::sqrt(area / double(v.maxPixels));
        h = std::max(factor, std::int64_t(std::floor(double(height) / beta / double(factor))) * factor);
        w = std::max(factor, std::int64_t(std::floor(double(width) / beta / double(factor))) * factor);
    } else if (h * w < v.minPixels) {
        const double beta = std::sqrt(double(v.minPixels) / area);
        h = std::int64_t(std::ceil(double(height) * beta / double(factor))) * factor;
        w = std::int64_t(std::ceil(double(width) * beta / double(factor))) * factor;
    }
    ImageTokens t{w, h, 0, 0};
    const std::int64_t merge = v.spatialMergeSize;
    t.patches = (h / v.patchSize) * (w / v.patchSize);
    t.embeddings = t.patches / (merge * merge);
    t.promptTokens = t.embeddings + 2; // <|vision_start|> ... <|vision_end|>
    t.attentionPairs = t.patches * t.patches;
    t.windowPairs = t.attentionPairs;
    // Qwen2.5-VL's windows (Qwen2_5_VisionTransformer.get_window_index, vllm/model_executor/models/
    // qwen2_5_vl.py): squares of window_size / merge / patch merged tokens over the merged grid, the
    // last row and column of windows cut short; a window of r x c merged tokens holds r x c x merge^2
    // patches, so the pairs add up to merge^4 x (sum of r^2) x (sum of c^2).
    const std::int64_t window = v.windowSize / (std::int64_t(v.patchSize) * merge);
    if (window > 0) {
        const auto squares = [&](std::int64_t merged) {
            const std::int64_t rest = merged % window;
            return (merged / window) * window * window + rest * rest;
        };
        t.windowPairs = merge * merge * merge * merge * squares(h / factor) * squares(w / factor);
    }
    return t;
}

/// Pixtral's and Mistral 3's image tokens as vLLM counts them (Mistral3HFEncoderInfo.get_patch_grid_size,
/// vllm/model_executor/models/mistral3.py; PixtralHFEncoderInfo in pixtral.py): the longer side scaled
/// down (floor) to image_size, then one [IMG] per started patch of patch x merge pixels in each row, an
/// [IMG_BREAK] after each row and [IMG_END] in place of the last (transformers'
/// models/pixtral/processing_pixtral.py writes the same markers).
ImageTokens pixtralTokens(const VisionSpec &v, std::int64_t width, std::int64_t height)
{
    const std::int64_t longest = v.imageSize;
    if (width > longest || height > longest) {
        const double ratio = std::max(double(width) / double(longest), double(height) / double(longest));
        width = std::max<std::int64_t>(1, std::int64_t(std::floor(double(width) / ratio)));
        height = std::max<std::int64_t>(1, std::int64_t(std::floor(double(height) / ratio)));
    }
    const std::int64_t merged = std::int64_t(v.patchSize) * v.spatialMergeSize;
    const std::int64_t columns = ceilDiv(width, merged);
    const std::int64_t rows = ceilDiv(height, merged);
    ImageTokens t{columns * merged, rows * merged, 0, 0};
    t.embeddings = rows * columns;
    t.promptTokens = rows * (columns + 1);
    // The tower sees the resized image's patches, the merger's 2 x 2 blocks of them, and each image
    // attends to itself alone (a block-diagonal mask over the batch's images).
    t.patches = t.embeddings * v.spatialMergeSize * v.spatialMergeSize;
    t.attentionPairs = t.patches * t.patches;
    t.windowPairs = t.attentionPairs;
    return t;
}

/// Gemma 3's processor (transformers models/gemma3/processing_gemma3.py): every image resized to the
/// tower's square and pooled to mm_tokens_per_image, written as "\n\n<start_of_image>",
/// the image tokens, "<end_of_image>\n\n" (pan and scan is off by default).
ImageTokens gemmaTokens(const VisionSpec &v)
{
    // SigLIP encodes the whole square's patches (64 x 64 at 896 / 14) before the pooling.
    const std::int64_t side = v.patchSize > 0 ? v.imageSize / v.patchSize : 0;
    ImageTokens t{v.imageSize, v.imageSize, v.tokensPerImage, v.tokensPerImage + 4};
    t.patches = side * side;
    t.attentionPairs = t.patches * t.patches;
    t.windowPairs = t.attentionPairs;
    return t;
}

/// Llama 4's tiles (transformers models/llama4/image_processing_llama4_fast.py, processing_llama4.py;
/// vLLM's mllama4.py prompts the same): the canvas of up to max_patches (16) tiles of image_size
/// (336) pixels that scales the image up least, or else down least, without distortion (get_best_fit,
/// the smallest area among ties); each tile pooled to (336 / 14)^2 / 4 = 144 outputs. Several tiles
/// add a global thumbnail tile; the prompt is <|image_start|>, each row's tiles with
/// <|tile_x_separator|> between them and <|tile_y_separator|> after the row, <|image|>, the
/// thumbnail's tokens and <|image_end|>.
constexpr std::int64_t Llama4MaxTiles = 16; // Llama4ImageProcessorFast.max_patches

ImageTokens llama4Tokens(const VisionSpec &v, std::int64_t width, std::int64_t height)
{
    const std::int64_t tile = v.imageSize;
    // A candidate's scale is min(rows x tile / height, columns x tile / width), compared exactly.
    struct Canvas
    {
        std::int64_t rows = 0, columns = 0;
        std::int64_t num = 0, den = 1; // the scale as a fraction
    };
    const auto scaleOf = [&](std::int64_t rows, std::int64_t columns) {
        // rows*tile/height vs columns*tile/width: the smaller.
        const bool heightLimits = rows * tile * width <= columns * tile * height;
        return heightLimits ? Canvas{rows, columns, rows * tile, height}
                            : Canvas{rows, columns, columns * tile, width};
    };
    const auto less = [](const Canvas &a, const Canvas &b) { return a.num * b.den < b.num * a.den; };
    const auto equal = [](const Canvas &a, const Canvas &b) { return a.num * b.den == b.num * a.den; };
    std::optional<Canvas> up, down;
    for (std::int64_t rows = 1; rows <= Llama4MaxTiles; ++rows)
        for (std::int64_t columns = 1; rows * columns <= Llama4MaxTiles; ++columns) {
            const Canvas c = scaleOf(rows, columns);
            const bool upscales = c.num >= c.den;
            std::optional<Canvas> &best = upscales ? up : down;
            // Upscaling: the smallest scale; downscaling: the largest; ties: the smallest area.
            if (!best || (upscales ? less(c, *best) : less(*best, c)) ||
                (equal(c, *best) && c.rows * c.columns < best->rows * best->columns))
                best = c;
        }
    const Canvas chosen = up ? *up : *down;
    const std::int64_t perTile = (tile / v.patchSize) * (tile / v.patchSize) / v.pixelShuffleFactor;
    const std::int64_t tiles = chosen.rows * chosen.columns;
    ImageTokens t{chosen.columns * tile, chosen.rows * tile, 0, 0};
    const std::int64_t encodedTiles = tiles > 1 ? tiles + 1 : 1;
    t.embeddings = encodedTiles * perTile;
    t.promptTokens = 3 + perTile; // <|image_start|>, <|image|>, the thumbnail, <|image_end|>
    if (tiles > 1)
        t.promptTokens += chosen.rows * (chosen.columns * perTile + chosen.columns);
    // Each tile is its own sequence through the tower: its patches and a class token
    // (Llama4VisionEncoder in vllm/model_executor/models/mllama4.py).
    const std::int64_t positions = (tile / v.patchSize) * (tile / v.patchSize) + 1;
    t.patches = encodedTiles * positions;
    t.attentionPairs = encodedTiles * positions * positions;
    t.windowPairs = t.attentionPairs;
    return t;
}

/// Kimi-VL's processor as vLLM counts it (KimiVLProcessingInfo.get_num_image_tokens,
/// vllm/model_executor/models/kimi_vl.py): an image of more than in_token_limit whole patches is
/// scaled down (each side truncated) to about that many, then padded to whole merge kernels; one
/// output per kernel. The prompt writes <|media_start|>image<|media_content|>, the outputs and
/// <|media_end|> (KimiVLForConditionalGeneration.get_placeholder_str: four tokens around them).
ImageTokens kimiTokens(const VisionSpec &v, std::int64_t width, std::int64_t height)
{
    const std::int64_t patch = v.patchSize;
    const std::int64_t wholePatches = (width / patch) * (height / patch);
    if (wholePatches > v.maxPatches) {
        const double scale = std::sqrt(double(v.maxPatches) / double(wholePatches));
        width = std::int64_t(double(width) * scale);
        height = std::int64_t(double(height) * scale);
    }
    const std::int64_t kernel = patch * v.spatialMergeSize;
    ImageTokens t{ceilDiv(width, kernel) * kernel, ceilDiv(height, kernel) * kernel, 0, 0};
    t.patches = (t.width / patch) * (t.height / patch);
    t.embeddings = t.patches / (std::int64_t(v.spatialMergeSize) * v.spatialMergeSize);
    t.promptTokens = t.embeddings + 4;
    // Each image is a sequence of its own through the tower (cu_seqlens per image, MoonVitEncoder).
    t.attentionPairs = t.patches * t.patches;
    t.windowPairs = t.attentionPairs;
    return t;
}

bool hasRule(const VisionSpec &v)
{
    switch (v.family) {
    case VisionFamily::Qwen25Vl:
    case VisionFamily::Qwen3Vl:
    case VisionFamily::Pixtral:
        return v.patchSize > 0;
    case VisionFamily::Siglip:
        return v.projector == VisionProjector::Gemma3 && v.tokensPerImage > 0;
    case VisionFamily::Llama4:
        return v.patchSize > 0 && v.imageSize >= v.patchSize && v.pixelShuffleFactor > 0;
    case VisionFamily::MoonVit:
        return v.patchSize > 0 && v.maxPatches > 0;
    case VisionFamily::Generic:
        return false;
    }
    return false;
}

} // namespace

ImageTokens imageTokens(const ModelArch &m, std::int64_t width, std::int64_t height)
{
    const VisionSpec &v = m.vision;
    if (!v.enabled())
        throw Error(tr("%1 takes no images: its config.json has no vision tower").arg(m.name));
    if (!hasRule(v))
        throw Error(tr("the tokens an image takes on %1 are not modelled yet (its processor: %2)")
                        .arg(m.name, tr("not one kvscope lists")));
    if (width < 1 || height < 1 || width > MaxInputImageSide || height > MaxInputImageSide)
        throw Error(tr("an image of %1 x %2 pixels: each side must be 1 to %3")
                        .arg(width)
                        .arg(height)
                        .arg(MaxInputImageSide));
    switch (v.family) {
    case VisionFamily::Qwen25Vl:
    case VisionFamily::Qwen3Vl:
        return qwenTokens(v, width, height);
    case VisionFamily::Pixtral:
        return pixtralTokens(v, width, height);
    case VisionFamily::Llama4:
        return llama4Tokens(v, width, height);
    case VisionFamily::MoonVit:
        return kimiTokens(v, width, height);
    default:
        return gemmaTokens(v);
    }
}

bool imageTokensModelled(const ModelArch &m)
{
    return m.vision.enabled() && hasRule(m.vision);
}

ImageTokens largestImage(const ModelArch &m)
{
    const VisionSpec &v = m.vision;
    if (!v.enabled() || !hasRule(v))
        return {};
    switch (v.family) {
    case VisionFamily::Qwen25Vl:
    case VisionFamily::Qwen3Vl: {
        // The most max_pixels holds (vLLM's Qwen2VLProcessingInfo._get_image_size_with_most_features):
        // one output per merged square of patches, merge^2 patches each.
        const std::int64_t merge = v.spatialMergeSize;
        const std::int64_t unit = std::int64_t(v.patchSize) * v.patchSize * merge * merge;
        ImageTokens t;
        t.embeddings = v.maxPixels / unit;
        t.patches = t.embeddings * merge * merge;
        return t;
    }
    case VisionFamily::Pixtral:
        return pixtralTokens(v, v.imageSize, v.imageSize); // a square at the longest edge
    case VisionFamily::Llama4:                             // all 16 tiles and the thumbnail: a 4 x 4 canvas
        return llama4Tokens(v, std::int64_t(4) * v.imageSize, std::int64_t(4) * v.imageSize);
    case VisionFamily::MoonVit: // vLLM's dummy image, MaxImageTokenMeta's 1024 x 1024 (kimi_vl.py)
        return kimiTokens(v, 1024, 1024);
    default:
        return gemmaTokens(v);
    }
}

} // namespace kvscope
