// SPDX-License-Identifier: MIT
#include "plan/kvcache.h"

#include "common/checked.h"

#include <algorithm>

namespace kvscope {

int kvHeadsPerGpu(const ModelArch &model, int tensorParallelSize)
{
    if (model.usesMla())
        return 1;
    return std::max(1, model.numKvHeads / std::max(1, tensorParallelSize));
}

std::int64_t kvBytesPerTokenPerLayer(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize)
{
    if (model.usesMla())
        return kvRowBytes(dtype, (Checked(model.mla.kvLoraRank) + model.mla.qkRopeHeadDim).value());
    // K and V are separate rows (they are separate tensors in vLLM and llama.cpp).
    const Checked heads = kvHeadsPerGpu(model, tensorParallelSize);
    return (Checked(kvRowBytes(dtype, (heads * model.headDim).value())) +
            kvRowBytes(dtype, (heads * model.vHeadDim).value()))
        .value();
}

std::int64_t kvBytesPerToken(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize)
{
    return (Checked(kvBytesPerTokenPerLayer(model, dtype, tensorParallelSize)) * model.numLayers).value();
}

std::int64_t blocksHeld(std::int64_t tokens, std::int64_t window, int blockSize)
{
    if (tokens <= 0)
        return 0;
    if (window <= 0 || tokens <= window)
        return ceilDiv(tokens, blockSize);
    // Tokens [tokens - window, tokens - 1] live in the blocks between these two.
    return (tokens - 1) / blockSize - (tokens - window) / blockSize + 1;
}

KvGroupLayout kvGroupLayout(const ModelArch &model)
{
    KvGroupLayout layout;
    layout.slidingLayers = model.slidingLayerCount();
    layout.fullLayers = model.numLayers - layout.slidingLayers;
    const int minLayers = layout.slidingLayers == 0 ? layout.fullLayers
                          : layout.fullLayers == 0  ? layout.slidingLayers
                                                    : std::min(layout.fullLayers, layout.slidingLayers);
    const int maxLayers = std::max(layout.fullLayers, layout.slidingLayers);
    // vLLM kv_cache_utils: group size is the smaller type's layer count, or the
    // larger one when the two are within 1.5x (less padding).
    layout.groupSize = minLayers;
    if (maxLayers * 2 < minLayers * 3)
        layout.groupSize = maxLayers;
    layout.groupSize = std::max(1, layout.groupSize);
    layout.fullGroups = int(ceilDiv(layout.fullLayers, layout.groupSize));
    layout.slidingGroups = int(ceilDiv(layout.slidingLayers, layout.groupSize));
    return layout;
}

std::int64_t blocksPerRequest(const ModelArch &model, const KvGroupLayout &layout, std::int64_t maxModelLen,
                              std::int64_t maxNumBatchedTokens, int blockSize)
{
    const Checked full = Checked(layout.fullGroups) * ceilDiv(maxModelLen, blockSize);
    if (layout.slidingGroups == 0)
        return full.value();
    const std::int64_t reach =
        std::min((Checked(model.slidingWindow) - 1 + maxNumBatchedTokens).value(), maxModelLen);
    return (full + Checked(layout.slidingGroups) * (ceilDiv(reach, blockSize) + 1)).value();
}

} // namespace kvscope

namespace kvscope {

std::int64_t blocksPerSequence(const ModelArch &model, const KvGroupLayout &layout, std::int64_t tokens,
                               int blockSize)
{
    return (Checked(layout.fullGroups) * blocksHeld(tokens, 0, blockSize) +
            Checked(layout.slidingGroups) * blocksHeld(tokens, model.slidingWindow, blockSize))
        .value();
}

std::int64_t bytesPerPoolBlock(const ModelArch &model, const KvGroupLayout &layout, KvCacheDtype dtype,
                               int tensorParallelSize, int blockSize)
{
    return (Checked(blockSize) * kvBytesPerTokenPerLayer(model, dtype, tensorParallelSize) * layout.groupSize)
        .value();
}

std::int64_t kvCacheBytes(const ModelArch &model, KvCacheDtype dtype, int tensorParallelSize, int blockSize,
                          std::int64_t batch, std::int64_t tokens)
{
    const KvGroupLayout layout = kvGroupLayout(model);
    return (Checked(batch) * blocksPerSequence(model, layout, tokens, blockSize) *
            bytesPerPoolBlock(model, layout, dtype, tensorParallelSize, blockSize))
        .value();
}

} // namespace kvscope
