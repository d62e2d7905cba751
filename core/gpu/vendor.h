// SPDX-License-Identifier: MIT
#pragma once

namespace kvscope {

struct GpuSpec;

/// Whether the engines take the GPU for an NVIDIA (CUDA) one: an NVIDIA preset, or a custom GPU, which
/// names no vendor.
bool takenAsNvidia(const GpuSpec &gpu);

/// Whether the GPU is of NVIDIA's compute capability 10.x family (B200, GB200, B300: SM100), which the
/// engines' Blackwell-only kernels ask for. A custom GPU names no capability: not taken as one.
bool computeCapability10(const GpuSpec &gpu);

} // namespace kvscope
