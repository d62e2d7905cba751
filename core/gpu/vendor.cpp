// SPDX-License-Identifier: MIT
#include "core/gpu/vendor.h"

#include "core/gpu/gpuspec.h"

namespace kvscope {

bool takenAsNvidia(const GpuSpec &gpu)
{
    return gpu.vendor.isEmpty() || gpu.vendor == QLatin1String("NVIDIA");
}

} // namespace kvscope
