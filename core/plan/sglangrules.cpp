// SPDX-License-Identifier: MIT
#include "core/plan/sglangrules.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/engine/sglang.h"
#include "core/plan/expertparallel.h"
#include "core/plan/kvcache.h"
#include "core/plan/loadreplay.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "core/scenario/scenario.h"

#include <algorithm>

#include <QCoreApplication>

namespace kvscope {

namespace {

/// --dp-size's attention groups (1 without --enable-dp-attention).
std::int64_t attentionGroups(const Scenario &s)
{
    return sglangDpAttention(s) ? s.dataParallelSize : 1;
}

} // namespace

void SglangRules::validate(const Scenario &s) const
{
    const ModelArch &m = s.model;
    if (s.memFractionStaticPpm < 0 || s.memFractionStaticPpm > 1'000'000)
        requireShare(s.memFractionStaticPpm, ScenarioField::MemFractionStatic);
    if (s.swaFullTokensRatioPpm < 0 || s.swaFullTokensRatioPpm > 1'000'000)
        requireShare(s.swaFullTokensRatioPpm, ScenarioField::SwaFullTokensRatio);
    if (const QString reason = sglangUnsupportedReason(m); !reason.isEmpty())
        throw Error(reason);
    if (s.speculative.enabled() && m.recurrent.enabled())
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%1: SGLang keeps intermediate recurrent states for the drafts "
                                            "%2 verifies, which kvscope does not model yet")
                        .arg(optionFlag(ScenarioField::SpeculativeConfig), m.name));
    // An EAGLE drafter of full-attention layers takes a plain pool of the target's full-pool tokens
    // (ModelRunnerKVCacheMixin.init_memory_pool: "draft worker override must happen BEFORE SWA splitting");
    // an MTP layer of a hybrid model or a draft model that is hybrid itself splits a pool of its own.
    const bool hybridDrafter =
        s.speculative.method == SpeculativeMethod::Mtp || sglangSplitsSlidingWindowPool(s.speculative.draft);
    if (s.speculative.runsDraftOnGpu() && sglangSplitsSlidingWindowPool(m) && hybridDrafter)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%1: SGLang sizes a drafter's pool into %2's split of full and "
                                            "sliding-window pools, which kvscope does not model yet")
                        .arg(optionFlag(ScenarioField::SpeculativeConfig), m.name));
    if (m.format == ModelFormat::Gguf)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%2 sglang: %1 is a GGUF file; kvscope plans "
                                                "SGLang for HuggingFace checkpoints only")
                        .arg(m.name, optionFlag(ScenarioField::Engine)));
    // SGLang's FP4 caches (sgl-project/sglang#21601): only its MHA and MLA pools have an FP4 path
    // (KVCacheConfigurator._create_kv_pool in python/sglang/srt/mem_cache/kv_cache_configurator.py);
    // DeepSeek sparse attention builds its DSA pool whatever the dtype.
    if (isFp4(s.kvCacheDtype) && m.indexer.enabled())
        throw Error(
            QCoreApplication::translate("kvscope::Planner",
                                        "%1 %2: SGLang's pool for DeepSeek sparse attention has no FP4 "
                                        "path (its FP4 caches are for MHA and MLA pools)")
                .arg(optionFlag(ScenarioField::KvCacheDtype, Engine::Sglang), dtypeName(s.kvCacheDtype)));
}

std::int64_t SglangRules::kvWorkspaceBytesPerToken(const Scenario &s, KvCacheDtype dtype) const
{
    // PoolConfigurator._compute_cell_size (python/sglang/srt/model_executor/pool_configurator.py):
    // "FP4 prefill uses one shared FP8 dequant workspace across layers", cell_size += n x k x 2 x
    // kv_size, where kv_size is torch.float4_e2m1fn_x2's element size, one byte. The MLA pool has none.
    if (!isFp4(dtype) || s.model.usesMla())
        return 0;
    return (Checked(kvHeadsPerGpu(s.model, int(s.tensorParallelSize))) * s.model.headDim * 2).value();
}

int SglangRules::swaPoolRatioPpm(const Scenario &s) const
{
    // ServerArgs.swa_full_tokens_ratio's default, 0.8 (python/sglang/srt/server_args.py), for the
    // architectures SGLang lists as hybrid SWA.
    if (!sglangSplitsSlidingWindowPool(s.model))
        return 0;
    return s.swaFullTokensRatioPpm > 0 ? int(s.swaFullTokensRatioPpm) : SglangDefaultSwaFullTokensRatioPpm;
}

void SglangRules::shapeStatePool(const Scenario &, KvCacheOptions &options) const
{
    // mamba2_state_dtype (python/sglang/srt/configs/mamba_utils.py): the conv window in bfloat16
    // (SGLANG_MAMBA_CONV_DTYPE), the recurrent matrices in float32 unless the config's
    // mamba_ssm_dtype or SGLANG_MAMBA_SSM_DTYPE says otherwise; in a pool of their own.
    options.convStateDtype = WeightDtype::BFloat16;
    options.ssmStateDtype = WeightDtype::Float32;
    options.statesInOwnPool = true;
}

void SglangRules::fixKvBudget(const Scenario &, MemoryPlan &plan) const
{
    // handle_max_mamba_cache (python/sglang/srt/model_executor/model_runner.py, v0.5.6; since
    // _handle_max_mamba_cache in python/sglang/srt/mem_cache/kv_cache_configurator.py): states take
    // mamba_full_memory_ratio (0.9) for every 1 the KV pool gets, in whole requests' worth,
    // int(rest x 0.9 / 1.9 // mamba_cache_per_req), before the KV pool is sized from the rest.
    KvCacheMemory &kv = plan.kv;
    if (kv.stateBytesPerSequence <= 0)
        return;
    // rest x ratio / (1 + ratio), in millionths: exactly 9 / 19 of it at 0.9.
    kv.statePoolSlots =
        mulDivFloor(std::max<std::int64_t>(0, kv.availableBytes), SglangMambaFullMemoryRatioPpm,
                    1'000'000 + SglangMambaFullMemoryRatioPpm) /
        kv.stateBytesPerSequence;
    kv.statePoolBytes = (Checked(kv.statePoolSlots) * kv.stateBytesPerSequence).value();
    kv.availableBytes = (Checked(kv.availableBytes) - kv.statePoolBytes).value();
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
    // One token pool over every layer (DefaultPoolConfigurator._compute_cell_size counts
    // num_effective_layers, python/sglang/srt/model_executor/pool_configurator.py): a window or
    // chunk frees nothing. The architectures that get a window pool of their own are refused
    // (swaPoolRatioPpm); attention still reads only the window (SpeedModel).
    if (sglangSplitsSlidingWindowPool(model))
        return model; // a pool of its own for the window layers (swaPoolRatioPpm)
    ModelArch laidOut = model;
    laidOut.slidingWindow = 0;
    laidOut.attentionChunkSize = 0;
    // Gemma 3n's KV-shared layers read an earlier layer's cache (gemma3n_causal.py) but the pool gives
    // every layer a slot (num_effective_layers, python/sglang/srt/model_executor/model_runner_components/
    // layer_setup.py).
    laidOut.kvSharedLayers = 0;
    return laidOut;
}

void SglangRules::applyLimits(const Scenario &s, MemoryPlan &plan) const
{
    // --max-running-requests by default follows the pool (settlePool); each
    // prefill chunk is --chunked-prefill-size, SGLang's default for the GPU.
    plan.maxNumSeqs = s.maxNumSeqs > 0 ? s.maxNumSeqs : 0;
    // Under --enable-dp-attention each group's chunk is the default's share (chunked_prefill_size //=
    // dp_size, ServerArgs._handle_data_parallelism).
    plan.maxNumBatchedTokens = sglangDefaults(s.gpu, sglangTotalGpus(s)).chunkedPrefillSize /
                               std::max<std::int64_t>(1, attentionGroups(s));
}

std::int64_t SglangRules::activationBytes(const ModelArch &, const MemoryPlan &) const
{
    return 0; // outside the static share (applyBudget)
}

ExpertPadding SglangRules::expertPadding(const Scenario &) const
{
    return {};
}

int SglangRules::kvBlockSize(const Scenario &scenario) const
{
    // A token-level pool: one "block" per page (1, or 64 for sparse MLA).
    return sglangPageSize(scenario.model);
}

void SglangRules::applyBudget(const Scenario &s, const ModelArch & /*rankModel*/, MemoryPlan &plan) const
{
    // profile_max_num_token: rest = available - total x (1 - F), where total and
    // available are measured after the CUDA context and NCCL.
    const int gpus = sglangTotalGpus(s);
    const SglangDefaults defaults =
        sglangDefaults(s.gpu, gpus, sglangDrafterReserveMib(s.speculative.method), int(attentionGroups(s)));
    plan.memFractionStaticPpm =
        s.memFractionStaticPpm > 0 ? s.memFractionStaticPpm : defaults.memFractionStaticPpm;
    plan.preloadBytes = sglangPreloadBytes(s.gpu, gpus);
    // A log of this deployment measured the memory free when the weights load: the rest was in use.
    if (const MeasuredMemory &measured = s.measuredMemory;
        measured.freeAtLoadBytes >= 0 && measured.appliesTo(s))
        plan.preloadBytes = std::max<std::int64_t>(0, s.gpu.memoryBytes - measured.freeAtLoadBytes);
    // A GPU smaller than what is in use before the weights, or than SGLang's default reserve (whose
    // fraction then comes out negative), leaves no static share: nothing loads, never a negative budget.
    plan.budgetBytes =
        mulDivFloor(std::max<std::int64_t>(0, s.gpu.memoryBytes - plan.preloadBytes),
                    std::clamp<std::int64_t>(plan.memFractionStaticPpm, 0, 1'000'000), 1'000'000);
    plan.reserveLeftBytes = (Checked(s.gpu.memoryBytes) - plan.preloadBytes - plan.budgetBytes).value();
    if (s.memFractionStaticPpm <= 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "SGLang's default %5 for %1 at %6 %2: %3 (it keeps %4 MiB for activations and CUDA "
                          "graphs)")
                          .arg(s.gpu.name, QString::number(gpus),
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

namespace {} // namespace

void SglangRules::sizeLoad(const ModelArch &model, const std::function<QList<std::int64_t>()> &tensors,
                           MemoryPlan &plan) const
{
    WeightMemory &w = plan.weights;
    if (w.budgetUsesMeasured)
        return;
    // SGLang keeps the rotary cos/sin table in float32 on CUDA ("cache needs to be in FP32 for numerical
    // stability", RotaryEmbedding.__init__, python/sglang/srt/layers/rotary_embedding.py).
    const std::int64_t table = rotaryBufferBytes(model, WeightDtype::Float32, 1);
    const std::int64_t rows = model.rotaryDim > 0 ? table / (std::int64_t(model.rotaryDim) * 4) : 0;
    const QList<AllocationStep> rotary = rotaryTableBuild(rows, model.rotaryDim, 4);
    // SGLang reads the free memory after emptying PyTorch's cache (get_available_gpu_memory,
    // python/sglang/srt/utils): what the load took is the allocator's segments, not the tensors' bytes.
    const LoadAllocation load = replayLoad(tensors(), rotary);
    w.loadSlackBytes = std::max<std::int64_t>(0, load.reserved - load.requested);
    w.bytesPerGpu = (Checked(w.bytesPerGpu) - w.buffersBytes + table + w.loadSlackBytes).value();
    w.buffersBytes = table;
    w.buffersDtype = WeightDtype::Float32;
}

void SglangRules::settlePool(const Scenario &s, MemoryPlan &plan) const
{
    // A third of the state pool's slots at most run at once (MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO
    // = 3, ModelRunner.init_memory_pool): the others keep states the radix cache reuses.
    const std::int64_t stateLimit = plan.kv.statePoolSlots / SglangStateSlotsPerRunningRequest;
    if (plan.kv.stateBytesPerSequence > 0 && plan.engineRefusal.isEmpty() && stateLimit <= 0 &&
        plan.kv.availableBytes > 0) {
        plan.engineRefusal =
            QCoreApplication::translate(
                "kvscope::Planner",
                "SGLang would refuse to start: its state pool of %1 requests' recurrent states "
                "(%2 B each) serves none at %3 of them a request (\"state cache is too small to "
                "serve any requests\"); raise %4")
                .arg(formatCount(plan.kv.statePoolSlots), formatCount(plan.kv.stateBytesPerSequence))
                .arg(SglangStateSlotsPerRunningRequest)
                .arg(sglangFlag(ScenarioField::MemFractionStatic));
        plan.engineStarts = false;
    }
    // HybridSWAPoolConfigurator._solve_pool_sizes: "SWA pool (...) cannot hold even one request: the
    // prefill admission floor is sliding_window_size + page_size".
    if (const KvCacheMemory &swa = plan.kv;
        swa.swaPoolRatioPpm > 0 && plan.engineRefusal.isEmpty() && swa.numGpuBlocks > 0 &&
        swa.swaWindowTokens + sglangPageSize(s.model) >= swa.swaPoolTokens) {
        plan.engineRefusal =
            QCoreApplication::translate(
                "kvscope::Planner",
                "SGLang would refuse to start: its sliding-window pool of %1 tokens (%2 of the full pool's "
                "%3) cannot hold one request's window of %4 tokens and a page (\"SWA pool cannot hold even "
                "one "
                "request\"); raise %5 or the memory left for the KV cache")
                .arg(formatCount(swa.swaPoolTokens), formatUtilization(swa.swaPoolRatioPpm),
                     formatCount(swa.numGpuBlocks), formatCount(swa.swaWindowTokens),
                     sglangFlag(ScenarioField::SwaFullTokensRatio));
        plan.engineStarts = false;
    }
    if (s.maxNumSeqs <= 0)
        plan.maxNumSeqs = s.speculative.enabled()
                              ? SglangSpeculativeMaxRunningRequests
                              : sglangDefaultMaxRunningRequests(plan.kv.capacityTokens, plan.maxModelLen);
    if (plan.kv.stateBytesPerSequence > 0 && stateLimit > 0)
        plan.maxNumSeqs = std::min(plan.maxNumSeqs, stateLimit);
    if (!s.speculative.runsDraftOnGpu())
        return;
    // The draft worker sizes its pool to the target's tokens (draft_runner_cache_size =
    // max_total_num_tokens, ModelRunnerKVCacheMixin.init_memory,
    // python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py) over its own layers, and
    // loads after the target's pool: the drafter, its pool and the copies it holds while it loads
    // come out of what --mem-fraction-static leaves.
    KvCacheMemory &kv = plan.kv;
    kv.draftPoolBytes = (Checked(kv.capacityTokens) * kv.draftPoolLayers * kv.bytesPerTokenPerLayer).value();
    plan.reserveLeftBytes =
        (Checked(plan.reserveLeftBytes) - plan.weights.draftBytes - kv.draftPoolBytes).value();
    if (plan.engineRefusal.isEmpty() && plan.reserveLeftBytes < plan.weights.draftLoadCopyBytes) {
        plan.engineRefusal =
            QCoreApplication::translate(
                "kvscope::Planner",
                "SGLang would run out of memory loading the drafter: its weights (%1), its "
                "pool of %2 tokens (%3) and the copies of the target's embedding it holds "
                "while loading (%4) need more than the %5 %6 leaves (%7); lower %5")
                .arg(formatGiB(plan.weights.draftBytes), formatCount(kv.capacityTokens),
                     formatGiB(kv.draftPoolBytes), formatGiB(plan.weights.draftLoadCopyBytes),
                     sglangFlag(ScenarioField::MemFractionStatic),
                     formatUtilization(plan.memFractionStaticPpm),
                     formatGiB(plan.reserveLeftBytes + plan.weights.draftBytes + kv.draftPoolBytes));
        plan.engineStarts = false;
    }
}

QString SglangRules::refusal(const MemoryPlan &) const
{
    return QCoreApplication::translate(
               "kvscope::Planner",
               "SGLang would refuse to start: no memory is left for the KV pool (\"Not enough memory. "
               "Please try to increase %1\")")
        .arg(sglangFlag(ScenarioField::MemFractionStatic));
}

void SglangRules::addNotes(const Scenario &s, MemoryPlan &plan) const
{
    if (plan.weights.loadSlackBytes > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "SGLang measures the load by the GPU's free memory: the weights take %1 more than their "
                   "tensors (%2 with the float32 rotary table), the segments PyTorch's caching allocator "
                   "holds around them (tensors rounded up to 2 MiB, those of 1 to 10 MiB sharing 20 MiB "
                   "segments)")
                   .arg(formatBytes(plan.weights.loadSlackBytes),
                        formatGiB(plan.weights.bytesPerGpu - plan.weights.loadSlackBytes));
    if (plan.weights.loraBytes > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "%1 %2 %3 %4: SGLang's LoRA pool takes %5 a GPU, A and B buffers of the %7 projections "
                   "(%6) built with the model, before the KV pool is sized")
                   .arg(optionFlag(ScenarioField::MaxLoras, Engine::Sglang))
                   .arg(s.maxLoras)
                   .arg(optionFlag(ScenarioField::MaxLoraRank, Engine::Sglang))
                   .arg(s.maxLoraRank)
                   .arg(formatGiB(plan.weights.loraBytes), serverFlag(ServerOption::SglangLoraTargetModules),
                        s.loraTargetModules.isEmpty() ? QStringLiteral("q, k, v, o, gate, up and down")
                                                      : s.loraTargetModules.join(QStringLiteral(", ")));
    const KvCacheMemory &kv = plan.kv;
    if (kv.statePoolSlots > 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "SGLang keeps %1's %2 recurrent layers' states in a state pool of their own, sized "
                          "first: 0.9 of the memory for every 1 the KV pool gets (mamba_full_memory_ratio), "
                          "%3 requests' states of %4 B (the conv window in bfloat16, the recurrent matrices "
                          "in float32), %5; at most a third of them, %6, run at once")
                          .arg(s.model.name)
                          .arg(kv.recurrentLayers)
                          .arg(formatCount(kv.statePoolSlots), formatCount(kv.stateBytesPerSequence),
                               formatGiB(kv.statePoolBytes),
                               formatCount(kv.statePoolSlots / SglangStateSlotsPerRunningRequest));
    if (kv.swaPoolRatioPpm > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "SGLang keeps %1's %2 window layers in a pool of their own beside the %3 full layers' "
                   "(its hybrid SWA pool): %4 x the full pool's tokens (%5), %6 tokens beside %7, each "
                   "layer keeping a request's last %8; a token takes %9 B in the full layers and %10 B "
                   "in the window layers")
                   .arg(s.model.name)
                   .arg(kv.slidingLayers + kv.chunkedLayers)
                   .arg(kv.fullLayers)
                   .arg(formatUtilization(kv.swaPoolRatioPpm), sglangFlag(ScenarioField::SwaFullTokensRatio),
                        formatCount(kv.swaPoolTokens), formatCount(kv.numGpuBlocks),
                        formatCount(kv.swaWindowTokens),
                        formatCount((Checked(kv.fullLayers) * kv.bytesPerTokenPerLayer).value()),
                        formatCount((Checked(kv.slidingLayers + kv.chunkedLayers) * kv.bytesPerTokenPerLayer)
                                        .value()));
    else if (const KvGroupLayout attention = kvGroupLayout(s.model);
             attention.slidingLayers > 0 || attention.chunkedLayers > 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "SGLang keeps every token in %1's %2 sliding-window or chunked layers too: its one "
                          "token pool spans every layer (only the architectures SGLang lists as hybrid get a "
                          "pool of their own for the window), so a token takes %3 B where vLLM frees what "
                          "leaves the window; attention still reads only the window")
                          .arg(s.model.name)
                          .arg(attention.slidingLayers + attention.chunkedLayers)
                          .arg(formatCount(plan.kv.bytesPerToken));
    if (s.speculative.runsDraftOnGpu())
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1 %2 (SGLang's %3 %4, %5 %6): the drafter's weights (%7), its own pool of the "
                          "target's %8 tokens over %9 layer(s) (%10) and, while it loads, copies of the "
                          "target's embedding (%11) sit outside %12, which SGLang's default lowers for a "
                          "drafter; %13 remain for activations and CUDA graphs")
                          .arg(optionFlag(ScenarioField::SpeculativeConfig),
                               speculativeMethodName(s.speculative.method),
                               serverFlag(ServerOption::SglangSpeculativeAlgorithm),
                               sglangSpeculativeAlgorithm(s.speculative.method),
                               serverFlag(ServerOption::SglangSpeculativeNumSteps),
                               QString::number(s.speculative.numSpeculativeTokens),
                               formatGiB(plan.weights.draftBytes), formatCount(plan.kv.capacityTokens))
                          .arg(plan.kv.draftPoolLayers)
                          .arg(formatGiB(plan.kv.draftPoolBytes), formatGiB(plan.weights.draftLoadCopyBytes),
                               sglangFlag(ScenarioField::MemFractionStatic),
                               formatGiB(plan.reserveLeftBytes));
    // sgl-project/sglang#23862 (merged 2026-06-12; in v0.5.14) budgets the drafter inside the static share
    // instead (docs/methodology.md, Speculative decoding): say which rules these figures follow.
    if (s.speculative.runsDraftOnGpu())
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "SGLang's drafter as its releases of early 2026 budget it: a 2 GiB reserve in the "
                   "default %1 (4 GiB from late February 2026); releases since June 2026 (0.5.14 at the "
                   "latest) size the target's pool with the drafter's layers inside %1 and keep no "
                   "reserve for it, which kvscope does not model yet")
                   .arg(sglangFlag(ScenarioField::MemFractionStatic));
    if (s.speculative.enabled() && s.maxNumSeqs <= 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner", "SGLang resets %1 to %2 for speculative decoding when it is "
                                              "not given: at most %2 requests run at once")
                          .arg(optionFlag(ScenarioField::MaxNumSeqs, Engine::Sglang))
                          .arg(SglangSpeculativeMaxRunningRequests);
    if (plan.kv.workspaceBytesPerToken > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "SGLang's FP4 pool counts %1 B a token beside the %2 B of the layers' caches: one FP8 "
                   "K and V of a layer that its prompt passes dequantize into, shared by the layers")
                   .arg(formatCount(plan.kv.workspaceBytesPerToken), formatCount(plan.kv.bytesPerToken));
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
