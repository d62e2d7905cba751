// SPDX-License-Identifier: MIT
// The images a request sends (--images-per-request of --image-size pixels), as the model's
// processor turns them into prompt tokens: they are held in the KV cache beside the text and
// prefilled with it, and the vision tower encodes each one first.
#pragma once

#include "core/model/imagetokens.h"

#include <cstdint>

namespace kvscope {

struct Scenario;

/// The most images kvscope plans in one request.
inline constexpr std::int64_t MaxImagesPerRequest = 4096;

/// One request's images.
struct ImageWorkload
{
    std::int64_t images = 0;       ///< --images-per-request
    ImageTokens perImage;          ///< one image, as the processor resizes it and writes its tokens
    std::int64_t promptTokens = 0; ///< images x perImage.promptTokens: what the request's prompt gains
    std::int64_t embeddings = 0;   ///< images x perImage.embeddings: the tower's outputs to encode
};

/// The scenario's images per request; all zero when it sends none. Throws kvscope::Error naming
/// --images-per-request (a model without a vision tower, more than MaxImagesPerRequest) or
/// --image-size (a size the processor refuses, a processor kvscope does not model).
ImageWorkload imageWorkload(const Scenario &s);

} // namespace kvscope
