// SPDX-License-Identifier: MIT
#include "plan/runtime.h"

#include "common/checked.h"
#include "common/units.h"

#include <algorithm>

namespace kvscope {

namespace {

bool hasLargeSchedulerDefaults(const GpuSpec &gpu)
{
    // vLLM reads the device name and total memory; A100s keep the small defaults (PR #17885).
    return gpu.memoryBytes >= 70 * GiB && !gpu.name.contains(QLatin1String("A100"), Qt::CaseInsensitive);
}

} // namespace

std::int64_t defaultMaxNumSeqs(const GpuSpec &gpu)
{
    return hasLargeSchedulerDefaults(gpu) ? 1024 : 256;
}

std::int64_t defaultMaxNumBatchedTokens(const GpuSpec &gpu)
{
    return hasLargeSchedulerDefaults(gpu) ? 8192 : 2048;
}

std::int64_t activationBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                             std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens)
{
    const std::int64_t tp = std::max(1, tensorParallelSize);
    // Logits are gathered to the full vocabulary on every rank before sampling.
    const Checked sampler = Checked(maxNumSeqs) * model.vocabSize * SamplerBytesPerLogit;
    const Checked hidden = Checked(maxNumBatchedTokens) * model.hiddenSize * dtypeBytes;
    Checked moe = 0;
    if (model.moe.enabled()) {
        // fused_moe shares one buffer between its first and third intermediates.
        const std::int64_t width = ceilDiv(model.moe.expertIntermediateSize, tp);
        const std::int64_t shared = std::max<std::int64_t>(2 * width, model.hiddenSize);
        moe = Checked(maxNumBatchedTokens) * model.moe.expertsPerToken * (shared + width) * dtypeBytes;
    }
    return (sampler + hidden + moe).value();
}

std::int64_t runtimeOverheadBytes(int tensorParallelSize)
{
    return tensorParallelSize > 1 ? 2120 * MiB : 256 * MiB;
}

} // namespace kvscope
