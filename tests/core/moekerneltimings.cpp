// SPDX-License-Identifier: MIT
#include "tests/core/moekerneltimings.h"

#include "core/common/error.h"
#include "core/library/library.h"
#include "core/plan/speed.h"
#include "tests/core/jsondatafile.h"
#include "tests/core/median.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kvscope::validation {

namespace {

/// The kernel family and bytes per weight of the timings' dtypes (block scales, one FP32 value per
/// 128 x 128 weights, are left out).
bool readDtype(const QString &dtype, MoeKernelTiming &t)
{
    if (dtype == QLatin1String("bf16")) {
        t.kernel = WeightKernel::SixteenBit;
        t.bytesPerWeight = 2;
        return true;
    }
    if (dtype == QLatin1String("fp8")) {
        t.kernel = WeightKernel::Fp8;
        t.bytesPerWeight = 1;
        return true;
    }
    return false;
}

} // namespace

QList<MoeKernelTiming> readMoeKernelTimings(const QString &path)
{
    return readDataRows<MoeKernelTiming>(
        path, "measurements", [&](const QJsonObject &row, MoeKernelTiming &t) {
            const QString gpu = row.value(QLatin1String("gpu")).toString();
            try {
                t.gpu = resolveGpu(gpu);
            } catch (const Error &error) {
                throw Error(QStringLiteral("%1: row '%2': %3").arg(path, t.id, error.message()));
            }
            const QString dtype = row.value(QLatin1String("dtype")).toString();
            if (!readDtype(dtype, t))
                throw Error(
                    QStringLiteral("%1: row '%2': dtype '%3' is not bf16 or fp8").arg(path, t.id, dtype));
            t.hiddenSize = row.value(QLatin1String("hidden_size")).toInt();
            t.intermediatePerGpu = row.value(QLatin1String("intermediate_size_per_gpu")).toInt();
            t.experts = row.value(QLatin1String("experts")).toInt();
            t.topK = row.value(QLatin1String("top_k")).toInt();
            t.tokens = row.value(QLatin1String("tokens")).toInt();
            t.seconds = row.value(QLatin1String("latency_us")).toDouble() * 1e-6;
            if (t.hiddenSize <= 0 || t.intermediatePerGpu <= 0 || t.experts <= 0 || t.topK <= 0 ||
                t.topK > t.experts || t.tokens <= 0 || !(t.seconds > 0) || !(t.gpu.bandwidthGBs > 0))
                throw Error(QStringLiteral("%1: row '%2' needs a GPU with a bandwidth, positive hidden_size, "
                                           "intermediate_size_per_gpu, experts, top_k (at most experts), "
                                           "tokens and latency_us")
                                .arg(path, t.id));
        });
}

QList<RoutedCopyTiming> readRoutedCopyTimings(const QString &path)
{
    return readDataRows<RoutedCopyTiming>(
        path, "routed_copy_timings", [&](const QJsonObject &row, RoutedCopyTiming &t) {
            t.gpu = row.value(QLatin1String("gpu")).toString();
            const QString kernel = row.value(QLatin1String("moe_kernel")).toString();
            const std::optional<MoeKernel> family = moeKernelFromName(kernel);
            if (!family)
                throw Error(QStringLiteral("%1: row '%2': moe_kernel '%3' is not a kvscope MoE kernel family")
                                .arg(path, t.id, kernel));
            t.kernel = *family;
            t.hiddenSize = row.value(QLatin1String("hidden_size")).toInt();
            t.intermediatePerGpu = row.value(QLatin1String("intermediate_size_per_gpu")).toInt();
            const int onGpu = row.value(QLatin1String("experts_on_gpu")).toInt();
            const int experts = row.value(QLatin1String("experts")).toInt();
            const int topK = row.value(QLatin1String("top_k")).toInt();
            const QJsonArray tokens = row.value(QLatin1String("tokens")).toArray();
            const QJsonArray latency = row.value(QLatin1String("latency_us")).toArray();
            if (experts > 0)
                t.copiesPerToken = double(topK) * double(onGpu) / double(experts);
            if (tokens.size() == 2 && latency.size() == 2) {
                t.fewerTokens = tokens.at(0).toInt();
                t.moreTokens = tokens.at(1).toInt();
                t.fewerSeconds = latency.at(0).toDouble() * 1e-6;
                t.moreSeconds = latency.at(1).toDouble() * 1e-6;
            }
            if (t.hiddenSize <= 0 || t.intermediatePerGpu <= 0 || onGpu <= 0 || onGpu > experts ||
                topK <= 0 || t.fewerTokens <= 0 || t.moreTokens <= t.fewerTokens || !(t.fewerSeconds > 0) ||
                !(t.moreSeconds > t.fewerSeconds))
                throw Error(
                    QStringLiteral("%1: row '%2' needs positive hidden_size, intermediate_size_per_gpu, "
                                   "top_k and experts_on_gpu (at most experts), and two growing tokens "
                                   "and latency_us")
                        .arg(path, t.id));
        });
}

CopyCostLine copyCostLine(const QList<RoutedCopyTiming> &timings)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const RoutedCopyTiming &t : timings) {
        const double x = t.flopsPerCopy();
        const double y = t.secondsPerCopy();
        n += 1;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double spread = n * sxx - sx * sx;
    if (n < 2 || !(spread > 0))
        return {};
    const double slope = (n * sxy - sx * sy) / spread;
    return {(sy - slope * sx) / n, slope};
}

double expertReadSeconds(const MoeKernelTiming &t, const SpeedConstants &c)
{
    // Each expert holds its gate and up projections (2N x K) and its down projection (K x N).
    const double expertBytes =
        3.0 * double(t.hiddenSize) * double(t.intermediatePerGpu) * double(t.bytesPerWeight);
    const double bytes = expertBytes * expectedExpertsTouched(t.experts, t.topK, t.tokens);
    const double atFullBandwidth = bytes / (t.gpu.bandwidthGBs * 1e9);
    // The timings' kernels (16-bit, FP8 W8A8) dequantize in proportion to the read, not on the vector units.
    return atFullBandwidth / weightBandwidthEfficiency(c, gpuGeneration(t.gpu)) +
           atFullBandwidth * c.dequantizationCost[std::size_t(pricedKernel(c, t.kernel))].value_or(0);
}

double layerCostBeyondReads(const MoeKernelTiming &t, const SpeedConstants &c)
{
    const double routedCopies = double(t.tokens) * double(t.topK);
    return t.seconds - expertReadSeconds(t, c) - routedCopies * c.routedTokenSeconds;
}

double oneTokenLayerCost(const QList<MoeKernelTiming> &timings, const SpeedConstants &c)
{
    QList<double> costs;
    for (const MoeKernelTiming &t : timings)
        if (t.tokens == 1)
            costs.push_back(layerCostBeyondReads(t, c));
    return median(costs);
}

} // namespace kvscope::validation
