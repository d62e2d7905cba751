// SPDX-License-Identifier: MIT
// The libFuzzer entry point of one target: compiled once per target with
// KVSCOPE_FUZZ_TARGET naming its function in fuzztargets.h.
#include "tests/fuzz/fuzztargets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    kvscope::fuzz::KVSCOPE_FUZZ_TARGET(data, size);
    return 0;
}
