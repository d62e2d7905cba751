// SPDX-License-Identifier: MIT
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/plan/enginerules.h"

namespace kvscope {

/// SGLang's static share (python/sglang/srt/model_executor/model_runner.py
/// profile_max_num_token): weights plus a token-level KV pool take
/// --mem-fraction-static of the memory free after start-up; activations and
/// CUDA graphs live in the rest. Facts in core/engine/sglang.h.
class SglangRules : public EngineRules
{
public:
    void validate(const Scenario &scenario) const override;
    QString versionText() const override;
    QString gpuRefusal(const Scenario &scenario, const MemoryPlan &plan) const override;
    ModelArch layOut(const ModelArch &model) const override;
    void applyLimits(const Scenario &scenario, MemoryPlan &plan) const override;
    std::int64_t activationBytes(const ModelArch &model, const MemoryPlan &plan) const override;
    ExpertPadding expertPadding(const Scenario &scenario) const override;
    int kvBlockSize(const Scenario &scenario) const override;
    std::int64_t kvWorkspaceBytesPerToken(const Scenario &scenario, KvCacheDtype dtype) const override;
    int swaPoolRatioPpm(const Scenario &scenario) const override;
    void shapeStatePool(const Scenario &scenario, KvCacheOptions &options) const override;
    void fixKvBudget(const Scenario &scenario, MemoryPlan &plan) const override;
    void applyBudget(const Scenario &scenario, const ModelArch &rankModel, MemoryPlan &plan) const override;
    bool starts(const KvCacheMemory &kv) const override;
    QString refusal(const MemoryPlan &plan) const override;
    void settlePool(const Scenario &scenario, MemoryPlan &plan) const override;
    void sizeLoad(const ModelArch &model, const std::function<QList<std::int64_t>()> &tensors,
                  MemoryPlan &plan) const override;
    void addNotes(const Scenario &scenario, MemoryPlan &plan) const override;
};

} // namespace kvscope
