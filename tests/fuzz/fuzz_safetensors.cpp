// SPDX-License-Identifier: MIT
// A whole .safetensors file (u64 header length, JSON header, data) -> the
// header-only reader. Rejections are kvscope::Error; nothing else may happen.
#include "core/common/error.h"
#include "core/formats/safetensors.h"
#include "tests/fuzz/fuzzinput.h"
#include "tests/fuzz/fuzztargets.h"

#include <cstddef>
#include <cstdint>

namespace kvscope::fuzz {

void safetensors(const std::uint8_t *data, std::size_t size)
{
    InputDevice input(data, size);
    try {
        const SafetensorsHeader header =
            readSafetensorsHeader(input.device(), input.size(), QStringLiteral("fuzz"));
        for (const SafetensorsEntry &e : header.tensors)
            (void)e.elements();
    } catch (const Error &) {
    }
}

} // namespace kvscope::fuzz
