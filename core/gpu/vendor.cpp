// SPDX-License-Identifier: MIT
#include "core/gpu/vendor.h"

#include "core/gpu/gpuspec.h"

namespace kvscope {

bool takenAsNvidia(const GpuSpec &gpu)
{
    return gpu.vendor.isEmpty() || gpu.vendor == QLatin1String("NVIDIA");
}

bool computeCapability10(const GpuSpec &gpu)
{
    return gpu.computeCapability.startsWith(QLatin1String("10."));
}

} // namespace kvscope
