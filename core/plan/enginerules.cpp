// SPDX-License-Identifier: MIT
#include "core/plan/enginerules.h"

#include "core/plan/sglangrules.h"
#include "core/plan/vllmrules.h"
#include "core/scenario/scenario.h"

namespace kvscope {

void EngineRules::fixKvBudget(const Scenario &, MemoryPlan &) const {}

EncoderProfile EngineRules::encoderProfile(const ModelArch &, const MemoryPlan &) const
{
    return {};
}

void EngineRules::settlePool(const Scenario &, MemoryPlan &) const {}

GpuCheck EngineRules::gpuCheck(const Scenario &s, const MemoryPlan &plan)
{
    GpuCheck check;
    check.engine = s.engine;
    check.method = plan.quantization.method;
    check.requestedDtype = s.dtype;
    check.dtype = plan.dtype;
    check.kvCacheDtype = plan.kvCacheDtype;
    check.mla = s.model.usesMla();
    check.headDim = s.model.headDim;
    check.vHeadDim = s.model.vHeadDim > 0 ? s.model.vHeadDim : s.model.headDim;
    return check;
}

WeightDtype EngineRules::resolveDtype(const Scenario &scenario, WeightDtype checkpointDtype) const
{
    return resolveAutoDtype(scenario.dtype, checkpointDtype);
}

std::unique_ptr<EngineRules> engineRules(const Scenario &scenario)
{
    switch (scenario.engine) {
    case Engine::Sglang:
        return std::make_unique<SglangRules>();
    case Engine::Vllm:
        break;
    }
    return std::make_unique<VllmRules>(resolveVllmVersion(scenario.vllmVersion));
}

} // namespace kvscope
