// SPDX-License-Identifier: MIT
#include "core/plan/enginerules.h"

#include "core/plan/sglangrules.h"
#include "core/plan/vllmrules.h"
#include "core/scenario/scenario.h"

namespace kvscope {

void EngineRules::settlePool(const Scenario &, MemoryPlan &) const {}

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
