// SPDX-License-Identifier: MIT
// A whole .gguf file -> the header reader -> the model and weights it
// describes. Rejections are kvscope::Error; nothing else may happen.
#include "core/common/error.h"
#include "core/formats/gguf.h"
#include "core/model/ggufmodel.h"
#include "core/model/inventory.h"
#include "core/plan/kvcache.h"
#include "tests/fuzz/fuzzinput.h"
#include "tests/fuzz/fuzztargets.h"

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
