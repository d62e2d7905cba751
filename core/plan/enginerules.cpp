// SPDX-License-Identifier: MIT
#include "core/plan/enginerules.h"

#include "core/common/checked.h"
#include "core/plan/sglangrules.h"
#include "core/plan/vllmrules.h"
#include "core/scenario/scenario.h"

#include <algorithm>

namespace kvscope {

void EngineRules::fixKvBudget(const Scenario &, MemoryPlan &) const {}

EncoderProfile EngineRules::encoderProfile(const ModelArch &, const MemoryPlan &) const
{
    return {};
}

QuantizationSpec EngineRules::loadedQuantization(const Scenario &, const QuantizationSpec &checkpoint) const
{
    return checkpoint;
}

void EngineRules::settlePool(const Scenario &, MemoryPlan &) const {}

void EngineRules::sizeLoad(const ModelArch &, const std::function<QList<std::int64_t>()> &,
                           MemoryPlan &) const
{}

void EngineRules::shapeStatePool(const Scenario &, KvCacheOptions &) const {}

int EngineRules::swaPoolRatioPpm(const Scenario &) const
{
    return 0;
}

std::int64_t EngineRules::kvWorkspaceBytesPerToken(const Scenario &, KvCacheDtype) const
{
    return 0;
}

EplbStateMemory EngineRules::eplbStateMemory(const Scenario &, int, std::int64_t) const
{
    return {};
}

std::int64_t blocksPerGroupTokens(const KvCacheMemory &kv, int blockSize)
{
    // vLLM _report_kv_cache_config until vllm-project/vllm#41069: blocks per group x the smallest
    // (attention) block size.
    return (Checked(kv.numGpuBlocks / std::max(1, kv.numGroups)) * blockSize).value();
}

std::int64_t concurrencyTimesLengthTokens(const KvCacheMemory &kv, std::int64_t maxModelLen)
{
    // _report_kv_cache_config (vllm/v1/core/kv_cache_utils.py) since vllm-project/vllm#41069:
    // int(max_concurrency * max_model_len), truncated as Python's int() does.
    if (kv.blocksPerMaxRequest <= 0)
        return 0;
    const double concurrency = double(kv.numGpuBlocks) / double(kv.blocksPerMaxRequest);
    return std::int64_t(concurrency * double(maxModelLen));
}

bool EngineRules::logsCapacityAsConcurrency() const
{
    return false;
}

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
