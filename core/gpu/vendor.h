// SPDX-License-Identifier: MIT
#pragma once

namespace kvscope {

struct GpuSpec;

/// Whether the engines take the GPU for an NVIDIA (CUDA) one: an NVIDIA preset, or a custom GPU, which
/// names no vendor.
bool takenAsNvidia(const GpuSpec &gpu);

} // namespace kvscope
