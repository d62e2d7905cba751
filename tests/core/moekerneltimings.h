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

/// Two timings of one fused MoE layer at large token counts, past its reads (the data file's
/// routed_copy_timings): what one more routed copy costs on a kernel family.
struct RoutedCopyTiming
{
    QString id;
    QString source;
    MoeKernel kernel = MoeKernel::FusedMoe;
    QString gpu; ///< as the source names it: only the time per copy is compared, no preset needed
    int hiddenSize = 0;
    int intermediatePerGpu = 0;
    double copiesPerToken = 0; ///< the routed copies of a token on this GPU: top-k x its share of the experts
    int fewerTokens = 0;
    int moreTokens = 0;
    double fewerSeconds = 0;
    double moreSeconds = 0;

    /// The time one more copy on this GPU adds, between the two token counts.
    double secondsPerCopy() const
    {
        return (moreSeconds - fewerSeconds) / (double(moreTokens - fewerTokens) * copiesPerToken);
    }
    /// A copy's FLOPs in the two grouped GEMMs: gate and up (2N x K) and down (K x N), 2 per multiply-add.
    double flopsPerCopy() const { return 2.0 * 3.0 * double(hiddenSize) * double(intermediatePerGpu); }
};

/// The routed_copy_timings rows. Throws kvscope::Error naming the file and the row for an unknown
/// kernel family, or a row without a positive shape or two growing token counts and latencies.
QList<RoutedCopyTiming> readRoutedCopyTimings(const QString &path);

/// The least-squares line through `timings`' time per copy against their FLOPs per copy: a cost
/// every copy pays (`fixedSeconds`) and one per FLOP. Needs two shapes at least.
struct CopyCostLine
{
    double fixedSeconds = 0;
    double secondsPerFlop = 0;
};
CopyCostLine copyCostLine(const QList<RoutedCopyTiming> &timings);

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
