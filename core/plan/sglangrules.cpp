// SPDX-License-Identifier: MIT
#include "core/plan/sglangrules.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/engine/sglang.h"
#include "core/plan/planner.h"
#include "core/scenario/scenario.h"

#include <QCoreApplication>

namespace kvscope {

void SglangRules::validate(const Scenario &s) const
{
    const ModelArch &m = s.model;
    if (s.memFractionStaticPpm < 0 || s.memFractionStaticPpm > 1'000'000)
        requireShare(s.memFractionStaticPpm, ScenarioField::MemFractionStatic);
    if (const QString reason = sglangUnsupportedReason(m); !reason.isEmpty())
        throw Error(reason);
    if (m.format == ModelFormat::Gguf)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%2 sglang: %1 is a GGUF file; kvscope plans "
                                                "SGLang for HuggingFace checkpoints only")
                        .arg(m.name, optionFlag(ScenarioField::Engine)));
    // SGLang's FP4 cache is its own format (--kv-cache-dtype fp4_e2m1: power-of-two scales per 16
    // values, docs/advanced_features/quantized_kv_cache.md), not vLLM's NVFP4.
    if (s.kvCacheDtype == KvCacheDtype::Nvfp4)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%1 nvfp4 is vLLM's NVFP4 cache; SGLang's FP4 cache (fp4_e2m1, "
                                            "power-of-two scales) is not modelled yet")
                        .arg(optionFlag(ScenarioField::KvCacheDtype, Engine::Sglang)));
}

QString SglangRules::versionText() const
{
    return {};
}

QString SglangRules::gpuRefusal(const Scenario &s, const MemoryPlan &plan) const
{
    return kvscope::gpuRefusal(s.gpu, gpuCheck(s, plan));
}

ModelArch SglangRules::layOut(const ModelArch &model) const
{
    return model;
}

void SglangRules::applyLimits(const Scenario &s, MemoryPlan &plan) const
{
    // --max-running-requests by default follows the pool (settlePool); each
    // prefill chunk is --chunked-prefill-size, SGLang's default for the GPU.
    plan.maxNumSeqs = s.maxNumSeqs > 0 ? s.maxNumSeqs : 0;
    plan.maxNumBatchedTokens = sglangDefaults(s.gpu, s.tensorParallelSize).chunkedPrefillSize;
}

std::int64_t SglangRules::activationBytes(const ModelArch &, const MemoryPlan &) const
{
    return 0; // outside the static share (applyBudget)
}

ExpertPadding SglangRules::expertPadding(const GpuSpec &) const
{
    return {};
}

int SglangRules::kvBlockSize(const Scenario &scenario) const
{
    // A token-level pool: one "block" per page (1, or 64 for sparse MLA).
    return sglangPageSize(scenario.model);
}

void SglangRules::applyBudget(const Scenario &s, MemoryPlan &plan) const
{
    // profile_max_num_token: rest = available - total x (1 - F), where total and
    // available are measured after the CUDA context and NCCL.
    const SglangDefaults defaults = sglangDefaults(s.gpu, s.tensorParallelSize);
    plan.memFractionStaticPpm =
        s.memFractionStaticPpm > 0 ? s.memFractionStaticPpm : defaults.memFractionStaticPpm;
    plan.preloadBytes = sglangPreloadBytes(s.gpu, s.tensorParallelSize);
    plan.budgetBytes =
        mulDivFloor(s.gpu.memoryBytes - plan.preloadBytes, plan.memFractionStaticPpm, 1'000'000);
    if (s.memFractionStaticPpm <= 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "SGLang's default %5 for %1 at %6 %2: %3 (it keeps %4 MiB for activations and CUDA "
                          "graphs)")
                          .arg(s.gpu.name, QString::number(s.tensorParallelSize),
                               formatUtilization(plan.memFractionStaticPpm),
                               QString::number(defaults.reservedMib),
                               sglangFlag(ScenarioField::MemFractionStatic),
                               sglangFlag(ScenarioField::TensorParallelSize));
}

bool SglangRules::starts(const KvCacheMemory &kv) const
{
    // SGLang starts with any pool and caps each request at what it holds.
    return kv.numGpuBlocks > 0;
}

void SglangRules::settlePool(const Scenario &s, MemoryPlan &plan) const
{
    if (s.maxNumSeqs <= 0)
        plan.maxNumSeqs = sglangDefaultMaxRunningRequests(plan.kv.capacityTokens, plan.maxModelLen);
}

QString SglangRules::refusal(const MemoryPlan &) const
{
    return QCoreApplication::translate(
               "kvscope::Planner",
               "SGLang would refuse to start: no memory is left for the KV pool (\"Not enough memory. "
               "Please try to increase %1\")")
        .arg(sglangFlag(ScenarioField::MemFractionStatic));
}

void SglangRules::addNotes(const Scenario &, MemoryPlan &plan) const
{
    if (!plan.engineRefusal.isEmpty())
        plan.notes << plan.engineRefusal;
    else if (plan.engineStarts && plan.kv.capacityTokens < plan.maxModelLen)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "SGLang's pool holds %1 tokens, fewer than %3 %2: it caps each request at the pool")
                          .arg(formatCount(plan.kv.capacityTokens), formatCount(plan.maxModelLen),
                               sglangFlag(ScenarioField::MaxModelLen));
    else if (!plan.engineStarts)
        plan.notes << refusal(plan);
}

} // namespace kvscope
