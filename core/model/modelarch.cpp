// SPDX-License-Identifier: MIT
#include "core/model/modelarch.h"

namespace kvscope {

bool ModelArch::isMoeLayer(int layer) const
{
    // Flags, not a list of indices: planning asks this once per layer, and configs may declare 65,536 layers.
    const bool listedDense = layer >= 0 && layer < moe.denseLayers.size() && moe.denseLayers.at(layer);
    return moe.enabled() && layer >= moe.firstDenseLayers && !listedDense;
}

bool ModelArch::isSlidingLayer(int layer) const
{
    return slidingWindow > 0 && layer >= 0 && layer < slidingLayers.size() && slidingLayers.at(layer);
}

int ModelArch::moeLayerCount() const
{
    int count = 0;
    for (int layer = 0; layer < numLayers; ++layer)
        count += isMoeLayer(layer) ? 1 : 0;
    return count;
}

int ModelArch::slidingLayerCount() const
{
    if (slidingWindow <= 0)
        return 0;
    int count = 0;
    for (int i = 0; i < numLayers && i < slidingLayers.size(); ++i)
        count += slidingLayers.at(i) ? 1 : 0;
    return count;
}

bool ModelArch::isChunkedLayer(int layer) const
{
    return attentionChunkSize > 0 && layer >= 0 && layer < chunkedLayers.size() && chunkedLayers.at(layer);
}

bool ModelArch::isRecurrentLayer(int layer) const
{
    return recurrent.enabled() && layer >= 0 && layer < recurrent.layers.size() && recurrent.layers.at(layer);
}

bool ModelArch::isKvSharedLayer(int layer) const
{
    return kvSharedLayers > 0 && layer >= numLayers - kvSharedLayers && layer < numLayers;
}

int RecurrentSpec::layerCount() const
{
    return enabled() ? int(layers.count(true)) : 0;
}

} // namespace kvscope
