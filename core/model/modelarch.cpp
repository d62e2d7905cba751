// SPDX-License-Identifier: MIT
#include "model/modelarch.h"

namespace kvscope {

bool ModelArch::isMoeLayer(int layer) const
{
    return moe.enabled() && layer >= moe.firstDenseLayers && !moe.denseLayers.contains(layer);
}

bool ModelArch::isSlidingLayer(int layer) const
{
    return slidingWindow > 0 && layer >= 0 && layer < slidingLayers.size() && slidingLayers.at(layer);
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

} // namespace kvscope
