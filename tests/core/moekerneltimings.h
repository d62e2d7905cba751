// SPDX-License-Identifier: MIT
// Published timings of one fused MoE layer (tests/data/moe-kernel-timings.json), set against the
// cost per MoE layer the speed model prices.
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/plan/speedconstants.h"

#include <QList>
#include <QString>

namespace kvscope::validation {

struct MoeKernelTiming
{
    QString id;
    QString source;
    GpuSpec gpu;
    WeightKernel kernel = WeightKernel::SixteenBit; ///< the kernel family the dtype runs on
    int bytesPerWeight = 2;
    int hiddenSize = 0;
    int intermediatePerGpu = 0; ///< the experts' intermediate size on one GPU (benchmark_moe.py's N)
    int experts = 0;
    int topK = 0;
    int tokens = 0;
    double seconds = 0; ///< measured, per call of the layer
};

/// Every row of the data file. Throws kvscope::Error naming the file and the row for an unknown
/// GPU or dtype, or a row without a positive shape, token count or latency.
QList<MoeKernelTiming> readMoeKernelTimings(const QString &path);

/// The layer's expert reads as the step model prices them under `constants`: the bytes of the
/// experts its tokens are expected to touch (expectedExpertsTouched) over the GPU's bandwidth at its
/// generation's efficiency, plus the kernel's dequantization cost.
double expertReadSeconds(const MoeKernelTiming &timing, const SpeedConstants &constants);

/// What of the timing is left once its expert reads and its routed copies (tokens x top-k at
/// `constants.routedTokenSeconds`) are priced: the cost per MoE layer the step model adds.
double layerCostBeyondReads(const MoeKernelTiming &timing, const SpeedConstants &constants);

/// The median of layerCostBeyondReads over the one-token timings: a decode-sized layer, where the
/// layer's own cost stands out of its reads.
double oneTokenLayerCost(const QList<MoeKernelTiming> &timings, const SpeedConstants &constants);

} // namespace kvscope::validation
