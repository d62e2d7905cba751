// SPDX-License-Identifier: MIT
#include "core/output/scenariolabel.h"

#include "core/common/units.h"
#include "core/gpu/gpuspec.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "core/scenario/scenario.h"

#include <QStringList>

namespace kvscope {

QString shortGpuName(const GpuSpec &gpu)
{
    const QString prefix = gpu.vendor + QLatin1Char(' ');
    return !gpu.vendor.isEmpty() && gpu.name.startsWith(prefix) ? gpu.name.mid(prefix.size()) : gpu.name;
}

QString scenarioLabel(const Scenario &s, const MemoryPlan &plan)
{
    QStringList parts{s.model.name};
    parts << (plan.gpuCount() > 1 ? QStringLiteral("%1×%2").arg(plan.gpuCount()).arg(shortGpuName(s.gpu))
                                  : shortGpuName(s.gpu));
    if (plan.quantization.method != QuantMethod::None)
        parts << shortName(plan.quantization);
    parts << kvPrecisionName(plan.kvCacheDtype) + QStringLiteral(" KV");
    // Tokens per sequence as the cache holds them: the images' among them.
    QString load =
        QStringLiteral("%1 × %2").arg(formatShortCount(s.batchSize), formatShortCount(plan.seqLen));
    if (plan.imagesPerRequest > 0)
        load += QStringLiteral(" (%1 img)").arg(plan.imagesPerRequest);
    parts << load;
    return parts.join(QStringLiteral(" · "));
}

ResolvedPrecisions resolvedPrecisions(const MemoryPlan &plan)
{
    return {dtypeName(plan.dtype), quantMethodName(plan.quantization.method), dtypeName(plan.kvCacheDtype)};
}

} // namespace kvscope
