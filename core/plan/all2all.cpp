// SPDX-License-Identifier: MIT
#include "core/plan/all2all.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/gpu/gpuspec.h"
#include "core/gpu/vendor.h"

#include <QCoreApplication>

namespace kvscope {

bool usesAll2AllKernels(const Scenario &s)
{
    return s.engine == Engine::Vllm && s.model.moe.enabled() && s.enableExpertParallel &&
           s.dataParallelSize > 1;
}

std::int64_t all2allBufferBytes(const Scenario &s)
{
    if (!usesAll2AllKernels(s) || s.all2allBackend != All2AllBackend::DeepepHighThroughput)
        return 0;
    return (Checked(DeepepNvlBufferBytes) + DeepepNvlTailBytes + DeepepWorkspaceBytes).value();
}

void validateAll2AllBackend(const Scenario &s)
{
    const All2AllBackend backend = s.all2allBackend;
    if (backend == All2AllBackend::AllgatherReducescatter)
        return;
    const QString name = all2allBackendName(backend);
    const QString why = [&]() -> QString {
        if (s.engine != Engine::Vllm)
            return QCoreApplication::translate("kvscope::Planner",
                                               "vLLM's; SGLang's own all-to-all backends are not modelled");
        if (!usesAll2AllKernels(s) || backend == All2AllBackend::Naive)
            return {}; // no kernels of its own run, or none that keep buffers: nothing to size
        if (backend != All2AllBackend::DeepepHighThroughput)
            return QCoreApplication::translate(
                "kvscope::Planner", "kvscope does not size this backend's buffers yet (DeepEP's "
                                    "low-latency kernels keep theirs in NVSHMEM's heap); "
                                    "deepep_high_throughput and allgather_reducescatter are planned");
        if (!takenAsNvidia(s.gpu))
            return QCoreApplication::translate("kvscope::Planner",
                                               "DeepEP runs on NVIDIA GPUs, not on the %1")
                .arg(s.gpu.name);
        const std::int64_t gpus = (Checked(s.tensorParallelSize) * s.dataParallelSize).value();
        if (gpus > DeepepNvlPeers)
            return QCoreApplication::translate(
                       "kvscope::Planner", "%1 EP GPUs span more than one node of %2, where DeepEP adds an "
                                           "RDMA buffer in NVSHMEM's heap that kvscope does not size yet")
                .arg(gpus)
                .arg(DeepepNvlPeers);
        return {};
    }();
    if (!why.isEmpty())
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1 %2: %3")
                        .arg(optionFlag(ScenarioField::All2AllBackend), name, why));
}

} // namespace kvscope
