// SPDX-License-Identifier: MIT
// How many tokens an image becomes in a vision-language model's prompt: the
// family's image processor resizes it and the processor writes one
// placeholder per encoder output, with its row and image markers.
#pragma once

#include "core/model/modelarch.h"

#include <cstdint>

namespace kvscope {

/// One image as the model's processor turns it into tokens.
struct ImageTokens
{
    std::int64_t width = 0;        ///< pixels, as the processor resizes the image
    std::int64_t height = 0;       ///< pixels, as the processor resizes the image
    std::int64_t embeddings = 0;   ///< the encoder's outputs for it (what vLLM's encoder cache counts)
    std::int64_t promptTokens = 0; ///< the tokens that stand for it in the prompt, markers included
    // What the vision tower computes for it (core/model/visiontower.h prices it):
    std::int64_t patches = 0; ///< positions its blocks run on: patches (and Llama 4's class tokens)
    /// Query-key pairs one full-attention layer scores: the sum over its attention blocks (the image,
    /// or each Llama 4 tile) of their positions squared.
    std::int64_t attentionPairs = 0;
    std::int64_t windowPairs = 0; ///< the same in a windowed layer (Qwen2.5-VL); attentionPairs without
};

/// The largest image side kvscope takes, in pixels (well past any processor's limit).
inline constexpr std::int64_t MaxInputImageSide = 65'536;

/// The tokens an image of width x height pixels takes in m's prompt. Throws kvscope::Error when m
/// takes no images, when its tower's processor is not modelled (a tower kvscope does not list), or when the
/// size is outside 1..MaxInputImageSide (or Qwen-VL's 200:1 aspect limit).
ImageTokens imageTokens(const ModelArch &m, std::int64_t width, std::int64_t height);

/// Whether kvscope knows how many tokens an image takes on m: it has a vision tower whose processor
/// is modelled (imageTokens() answers rather than throws for a valid size).
bool imageTokensModelled(const ModelArch &m);

/// The image of the most encoder outputs on m, as vLLM's profiling run makes its dummy images (the
/// size with the most features): its embeddings are vLLM's max tokens per multimodal item, which sizes
/// the encoder cache. All zero when m takes no images or its processor is not modelled.
ImageTokens largestImage(const ModelArch &m);

} // namespace kvscope
