// SPDX-License-Identifier: MIT
// A whole .safetensors file (u64 header length, JSON header, data) -> the
// header-only reader. Rejections are kvscope::Error; nothing else may happen.
#include "common/error.h"
#include "formats/safetensors.h"
#include "fuzzinput.h"
#include "fuzztargets.h"

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
