// SPDX-License-Identifier: MIT
// A whole .gguf file -> the header reader -> the model and weights it
// describes. Rejections are kvscope::Error; nothing else may happen.
#include "common/error.h"
#include "formats/gguf.h"
#include "fuzzinput.h"
#include "fuzztargets.h"
#include "model/ggufmodel.h"
#include "model/inventory.h"
#include "plan/kvcache.h"

#include <cstddef>
#include <cstdint>

namespace kvscope::fuzz {

void gguf(const std::uint8_t *data, std::size_t size)
{
    InputDevice input(data, size);
    try {
        const GgufFile file = parseGguf(input.device(), input.size(), QStringLiteral("fuzz"));
        const ModelArch model = modelFromGguf(file, QStringLiteral("fuzz"));
        countParameters(model);
        kvBytesPerTokenPerLayer(model, KvCacheDtype::Q8_0, 1);
    } catch (const Error &) {
    }
}

} // namespace kvscope::fuzz
