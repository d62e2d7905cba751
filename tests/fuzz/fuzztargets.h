// SPDX-License-Identifier: MIT
// One function per fuzz target: what a single input goes through. Each
// fuzz_<name>.cpp defines one; fuzzmain.cpp makes it a libFuzzer target
// (LLVMFuzzerTestOneInput), and the corpus replay (replay/) feeds every
// committed input of corpus/<name>/ through it in the normal build.
// Rejections (kvscope::Error) are correct answers; a crash, a sanitizer
// report or a broken property (fuzzsupport.h) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kvscope::fuzz {

void hfconfig(const std::uint8_t *data, std::size_t size);
void safetensors(const std::uint8_t *data, std::size_t size);
void gguf(const std::uint8_t *data, std::size_t size);
void npy(const std::uint8_t *data, std::size_t size);
void scenariofile(const std::uint8_t *data, std::size_t size);
void cli_calc(const std::uint8_t *data, std::size_t size);
void cli_quant(const std::uint8_t *data, std::size_t size);
void cli_models(const std::uint8_t *data, std::size_t size);
void cli_gpus(const std::uint8_t *data, std::size_t size);
void settingsfile(const std::uint8_t *data, std::size_t size);
void benchresult(const std::uint8_t *data, std::size_t size);
void startuplog(const std::uint8_t *data, std::size_t size);

} // namespace kvscope::fuzz
