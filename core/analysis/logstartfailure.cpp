// SPDX-License-Identifier: MIT
// Why a vLLM start failed after it sized the KV cache, from what its log says: the error, the
// allocation that failed, and the memory the budget leaves for what vLLM allocates afterwards.
#include "core/analysis/logexplanationparts.h"
#include "core/analysis/startuplog.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/plan/memoryplan.h"
#include "core/scenario/scenario.h"

#include <cmath>

namespace kvscope::logexplain {

namespace {

/// PyTorch's caching allocator hands out whole 2 MiB blocks for large tensors, and its
/// out-of-memory message names the rounded size (c10/cuda/CUDACachingAllocator.cpp, round_size).
constexpr double AllocatorRoundingMiB = 2;

/// A size the log gives in MiB, in GiB from 1,024 MiB on as the log's own lines give it.
QString mib(double value)
{
    return value >= 1024 ? QString::number(value / 1024, 'f', 2) + QStringLiteral(" GiB")
                         : QString::number(value, 'f', 1) + QStringLiteral(" MiB");
}

} // namespace

QStringList explainStartFailure(const StartupLog &log, const Scenario &s, const MemoryPlan &p)
{
    if (log.startFailure.isEmpty() || log.refusedToStart)
        return {};
    QStringList out;
    const QString where = LogExplanationWords::tr("line %1").arg(log.startFailureLine);
    out << (log.kvCacheGiB || log.kvCacheTokens
                ? LogExplanationWords::tr("The log shows vLLM failing to start after it sized the KV cache "
                                          "(%1): %2.")
                : LogExplanationWords::tr("The log shows vLLM failing to start (%1): %2."))
               .arg(where, log.startFailure);
    if (log.oomRequestedMiB && log.oomFreeMiB) {
        QString asked = LogExplanationWords::tr("It asked for %1 with %2 of the GPU free")
                            .arg(mib(*log.oomRequestedMiB), mib(*log.oomFreeMiB));
        if (log.oomReservedUnallocatedMiB)
            asked += LogExplanationWords::tr(", while PyTorch's allocator held %1 reserved but unallocated")
                         .arg(mib(*log.oomReservedUnallocatedMiB));
        out << asked + QLatin1Char('.');
    }
    // The sampler's warm-up allocates float32 logits for every dummy request (Sampler, the logits'
    // float32 copy): the failed allocation when the sizes match to the allocator's rounding.
    if (log.samplerWarmupRequests && s.model.vocabSize > 0) {
        const double logitsMiB =
            double(*log.samplerWarmupRequests) * double(s.model.vocabSize) * 4 / double(MiB);
        const double rounded = std::ceil(logitsMiB / AllocatorRoundingMiB) * AllocatorRoundingMiB;
        if (log.oomRequestedMiB && std::abs(rounded - *log.oomRequestedMiB) < 0.5)
            out << LogExplanationWords::tr(
                       "That is the sampler's float32 logits for the warm-up's requests (%1) over the "
                       "model's vocabulary: %2 × %3 × 4 B = %4.")
                       .arg(optionFlag(ScenarioField::MaxNumSeqs), formatCount(*log.samplerWarmupRequests),
                            formatCount(s.model.vocabSize), mib(logitsMiB));
    }
    // What the budget leaves outside it holds what vLLM allocates once the cache is sized, and what was in
    // use before vLLM began (its CUDA context, other processes).
    const double totalGiB = log.totalGpuMemoryGiB.value_or(double(p.gpuMemoryBytes) / double(GiB));
    const double utilization = double(p.gpuMemoryUtilizationPpm) / 1'000'000;
    if (totalGiB > 0 && utilization > 0 && utilization < 1) {
        QString after = LogExplanationWords::tr("the sampler's warm-up");
        if (log.cudaGraphCapturedGiB && p.cudaGraphBytes == 0)
            after = LogExplanationWords::tr("the CUDA graphs, %1 GiB here, and the sampler's warm-up")
                        .arg(*log.cudaGraphCapturedGiB, 0, 'f', 2);
        QString inUse;
        if (log.freeAtStartupGiB && *log.freeAtStartupGiB <= totalGiB)
            inUse = LogExplanationWords::tr(", %1 GiB of which were in use when vLLM started")
                        .arg(totalGiB - *log.freeAtStartupGiB, 0, 'f', 2);
        out << LogExplanationWords::tr(
                   "vLLM sizes the KV cache to fill its budget (%1 GiB × %2) beside the weights and the "
                   "profiling run's peak; what it allocates after that (%3) must fit in the %4 GiB the "
                   "budget leaves outside it%5.")
                   .arg(totalGiB, 0, 'f', 2)
                   .arg(formatUtilization(p.gpuMemoryUtilizationPpm), after)
                   .arg(totalGiB * (1 - utilization), 0, 'f', 2)
                   .arg(inUse);
    }
    QString advice =
        log.samplerWarmupRequests
            ? LogExplanationWords::tr("Lower %1 (the sampler warms up with that many requests) or "
                                      "%2, as vLLM advises.")
                  .arg(optionFlag(ScenarioField::MaxNumSeqs), optionFlag(ScenarioField::GpuMemoryUtilization))
            : LogExplanationWords::tr("Lower %1.").arg(optionFlag(ScenarioField::GpuMemoryUtilization));
    if (p.engineStarts)
        advice += LogExplanationWords::tr(" kvscope plans the KV cache as vLLM sizes it, not what vLLM "
                                          "allocates afterwards, so its plan of this start says it fits.");
    out << advice;
    return out;
}

} // namespace kvscope::logexplain
