// SPDX-License-Identifier: MIT
#include "core/plan/vllmrules.h"

#include "core/common/checked.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/gpusupport.h"
#include "core/engine/runtime.h"
#include "core/gpu/vendor.h"
#include "core/plan/all2all.h"
#include "core/plan/cudagraphmemory.h"
#include "core/plan/kvcache.h"
#include "core/plan/loadreplay.h"
#include "core/plan/speedconstants.h"
#include "core/scenario/scenario.h"

#include <QCoreApplication>

namespace kvscope {

VllmRules::VllmRules(const VllmVersionChoice &version) : m_version(version) {}

EplbStateMemory VllmRules::eplbStateMemory(const Scenario &s, int moeLayers,
                                           std::int64_t localExpertBytes) const
{
    return kvscope::eplbStateMemory(s, moeLayers, localExpertBytes, m_version.profile->eplbStateInBudget);
}

void VllmRules::validate(const Scenario &s) const
{
    if (s.enableEplb && s.speculative.method == SpeculativeMethod::Mtp &&
        !m_version.profile->eplbStateInBudget)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%1 with an MTP drafter: vLLM %2 does not balance the drafter's "
                                            "experts (vllm-project/vllm#25311 added it, in 0.12)")
                        .arg(optionFlag(ScenarioField::EnableEplb), versionText()));
    if (s.kvCacheDtype == KvCacheDtype::Fp4MxBlock16)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1 fp4_mx_block16 is SGLang's FP4 cache; vLLM's is nvfp4 "
                                                "(CacheConfig.cache_dtype, vllm/config/cache.py)")
                        .arg(optionFlag(ScenarioField::KvCacheDtype)));
    // The release was resolved (and a junk one refused) when these rules were made.
    // vLLM keeps an MLA latent in NVFP4 only in DeepSeek-V4's own layout (nvfp4_ds_mla,
    // vllm/config/cache.py), which kvscope does not model.
    // vllm-project/vllm#37536 (merged 2026-03-19) fixed the native CPU offloading of latent attention's
    // cache, which failed an assertion at start before (CpuGpuOffloadingHandlers,
    // vllm/v1/kv_offload/worker/cpu_gpu.py); 0.19.0 is the first release sure to hold it.
    if (const std::optional<EngineVersion> &release = m_version.requested;
        s.kvOffloadingMilliGiB > 0 && s.kvOffloadingBackend == KvOffloadingBackend::Native &&
        s.model.usesMla() && release && *release < EngineVersion{0, 19, 0})
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1 with the native backend: vLLM before 0.19 fails to start "
                                                "offloading %2's latent-attention cache (%3 %4)")
                        .arg(optionFlag(ScenarioField::KvOffloadingSize), s.model.name,
                             optionFlag(ScenarioField::VllmVersion), release->text()));
    // vLLM groups a pipeline's sliding-window, chunked and recurrent layers over the whole model from
    // vllm-project/vllm#23974 (merged 2025-09-14, in v0.11.0); before, each stage grouped its own layers
    // (get_kv_cache_config per worker, then unify_kv_cache_configs), and vLLM's own pipeline test of a
    // Gemma-2 model stayed disabled until that change (vllm-project/vllm#23883).
    if (const std::optional<EngineVersion> &release = m_version.requested;
        s.pipelineParallelSize > 1 && release && *release < EngineVersion{0, 11, 0} &&
        kvGroupLayout(layOut(s.model)).mixesKinds())
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1 %2: vLLM groups %3's layers of different kinds over a "
                                                "pipeline's stages from 0.11 on (%4 %5)")
                        .arg(optionFlag(ScenarioField::PipelineParallelSize))
                        .arg(s.pipelineParallelSize)
                        .arg(s.model.name, optionFlag(ScenarioField::VllmVersion), release->text()));
    if (s.kvCacheDtype == KvCacheDtype::Nvfp4 && s.model.usesMla())
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1 nvfp4: %2 caches an MLA latent, whose NVFP4 layout "
                                                "kvscope does not model (use fp8 or auto)")
                        .arg(optionFlag(ScenarioField::KvCacheDtype), s.model.name));
}

QString VllmRules::versionText() const
{
    return m_version.profile->since.text();
}

QString VllmRules::gpuRefusal(const Scenario &s, const MemoryPlan &plan) const
{
    if (plan.kvCacheMemoryBytes > 0 && plan.budgetBytes > plan.gpuMemoryBytes)
        return QCoreApplication::translate("kvscope::Planner",
                                           "%1 %2 and the %3 before the KV cache exceed the GPU's %4: vLLM "
                                           "would run out of memory allocating the cache (at most %5 fits)")
            .arg(optionFlag(ScenarioField::KvCacheMemoryBytes), formatGiB(plan.kvCacheMemoryBytes),
                 formatGiB(plan.budgetBytes - plan.kvCacheMemoryBytes), formatGiB(plan.gpuMemoryBytes),
                 formatGiB(std::max<std::int64_t>(0, plan.wholeGpuKvBytes)));
    GpuCheck check = gpuCheck(s, plan);
    check.vllmVersion = m_version.requested;
    return kvscope::gpuRefusal(s.gpu, check);
}

WeightDtype VllmRules::resolveDtype(const Scenario &s, WeightDtype checkpointDtype) const
{
    // vLLM's --dtype auto takes the first dtype the GPU supports when the
    // checkpoint's is not one of them: float16 on GPUs without bfloat16
    // (_resolve_auto_dtype in vllm/config/model.py; CudaPlatform.supported_dtypes).
    const WeightDtype resolved = resolveAutoDtype(s.dtype, checkpointDtype);
    if (s.dtype == WeightDtype::Auto && resolved == WeightDtype::BFloat16 && !hasBfloat16(s.gpu))
        return WeightDtype::Float16;
    return resolved;
}

ModelArch VllmRules::layOut(const ModelArch &model) const
{
    // Without the hybrid manager for chunked-local attention every layer is
    // full (unify_hybrid_kv_cache_specs).
    ModelArch laidOut = model;
    if (!m_version.profile->chunkedLocalInHybridManager)
        laidOut.attentionChunkSize = 0;
    // Mistral's own format builds the Pixtral tower of nn.Linear layers before vllm-project/vllm#36963:
    // whole on every rank (vllm/model_executor/models/pixtral.py, VisionTransformer).
    if (laidOut.vision.mistralFormat && !m_version.profile->mistralFormatTowerSplit)
        laidOut.vision.wholeOnEveryRank = true;
    return laidOut;
}

void VllmRules::applyLimits(const Scenario &s, MemoryPlan &plan) const
{
    plan.maxNumSeqs = s.maxNumSeqs > 0 ? s.maxNumSeqs : defaultMaxNumSeqs(s.gpu);
    plan.maxNumBatchedTokens =
        s.maxNumBatchedTokens > 0 ? s.maxNumBatchedTokens : defaultMaxNumBatchedTokens(s.gpu);
    plan.modelRunnerV2 =
        runsOnModelRunnerV2(s, *m_version.profile, plan.quantization.method != QuantMethod::None);
    plan.warmCompileCache = s.compileCache == CompileCache::Warm;
}

std::int64_t VllmRules::activationBytes(const ModelArch &model, const MemoryPlan &plan) const
{
    // The dummy images are encoded first, on every pipeline stage; their outputs stay in the encoder cache
    // through the language model's dummy forward and the sampler run (GPUModelRunner.profile_run clears
    // them after both, and samples on the last stage only).
    if (!plan.holdsSampler)
        return plan.encoder.peakBytes(forwardPeakBytes(model, bytesPerElement(plan.dtype),
                                                       plan.tensorParallelSize, plan.expertTensorParallelSize,
                                                       plan.maxNumBatchedTokens));
    // V1's calibrated sampler term holds for V1's starts either way (its calibration logs compile, but for
    // log 6) and stands in for a Model Runner V2 start that compiles; a warm V2 start's is its source's.
    if (plan.modelRunnerV2 && plan.warmCompileCache)
        return plan.encoder.peakBytes(modelRunnerV2WarmPeakBytes(
            model, bytesPerElement(plan.dtype), plan.tensorParallelSize, plan.expertTensorParallelSize,
            plan.maxNumSeqs, plan.maxNumBatchedTokens));
    return plan.encoder.peakBytes(kvscope::activationBytes(
        model, bytesPerElement(plan.dtype), plan.expertTensorParallelSize, plan.maxNumSeqs,
        plan.maxNumBatchedTokens, m_version.profile->samplerBytesPerLogit));
}

EncoderProfile VllmRules::encoderProfile(const ModelArch &model, const MemoryPlan &plan) const
{
    return kvscope::encoderProfile(model, bytesPerElement(plan.dtype), plan.tensorParallelSize,
                                   plan.maxNumSeqs, plan.maxNumBatchedTokens, plan.maxModelLen,
                                   m_version.profile->encoderOutputsPaddedToBudget);
}

ExpertPadding VllmRules::expertPadding(const Scenario &scenario) const
{
    // With LoRA vLLM runs MXFP4 experts through Marlin, the one MXFP4 MoE kernel that carries it
    // (get_mxfp4_backend_with_lora, vllm/model_executor/layers/quantization/mxfp4.py).
    const ExpertPadding onThisGpu = mxfp4ExpertPadding(scenario.gpu.computeCapability);
    if (scenario.maxLoras > 0 && onThisGpu.intermediate > 1)
        return MarlinMxfp4Padding;
    return onThisGpu;
}

bool runsMachete(const Scenario &scenario, QuantMethod method)
{
    if (scenario.engine != Engine::Vllm || gpuGeneration(scenario.gpu) != GpuGeneration::Hopper ||
        scenario.model.moe.enabled())
        return false;
    switch (method) {
    case QuantMethod::Gptq:
    case QuantMethod::CompressedTensors:
        return true;
    case QuantMethod::Awq: {
        const std::optional<EngineVersion> release = parseEngineVersion(scenario.vllmVersion);
        return !release || !(*release < EngineVersion{0, 18, 0});
    }
    default:
        return false;
    }
}

QuantizationSpec VllmRules::loadedQuantization(const Scenario &scenario,
                                               const QuantizationSpec &checkpoint) const
{
    // Machete keeps each group's zero point pre-scaled in the activation dtype, -scale x zero
    // (transform_w_zp, vllm/model_executor/kernels/linear/mixed_precision/machete.py): AWQ's
    // asymmetric groups hold 2 B a zero point where the checkpoint packs 4 bits. GPTQ's symmetric
    // groups have none for Machete to unpack.
    QuantizationSpec loaded = checkpoint;
    loaded.unpackedZeroPoints =
        checkpoint.method == QuantMethod::Awq && runsMachete(scenario, checkpoint.method);
    return loaded;
}

void VllmRules::sizeLoad(const ModelArch &model, const std::function<QList<std::int64_t>()> &tensors,
                         MemoryPlan &plan) const
{
    WeightMemory &w = plan.weights;
    if (w.budgetUsesMeasured)
        return;
    // vLLM builds its rotary table in float32 on the GPU and casts it to --dtype (rotaryTableBuild).
    const int dtypeBytes = bytesPerElement(w.buffersDtype);
    const std::int64_t rows =
        model.rotaryDim > 0 ? w.buffersBytes / (std::int64_t(model.rotaryDim) * dtypeBytes) : 0;
    const QList<AllocationStep> rotary = rotaryTableBuild(rows, model.rotaryDim, dtypeBytes);
    // "Model loading took" is torch.cuda.memory_allocated() after the load less before it
    // (DeviceMemoryProfiler, vllm/utils/mem_utils.py): the blocks the tensors hold, which the caching
    // allocator leaves whole where splitting would leave 1 MiB or less.
    const LoadAllocation load = replayLoad(tensors(), rotary);
    w.loadSlackBytes = std::max<std::int64_t>(0, load.allocated - load.requested);
    w.bytesPerGpu = (Checked(w.bytesPerGpu) + w.loadSlackBytes).value();
}

int VllmRules::kvBlockSize(const Scenario &scenario) const
{
    return int(scenario.blockSize); // at most 4096 (validateScenario)
}

// Worker.determine_available_memory profiles the graphs' memory only on CUDA and only when it will
// capture graphs (`current_platform.is_cuda() and cudagraph_mode != CUDAGraphMode.NONE`,
// vllm/v1/worker/gpu_worker.py; ROCm skipped since vllm-project/vllm#36720, before 0.21 made the estimate
// the default, #38284; XPU since #41344); --enforce-eager sets cudagraph_mode NONE (VllmConfig.__post_init__,
// vllm/config/vllm.py). A custom GPU names no vendor: taken as CUDA.
namespace {

bool onCuda(const Scenario &s)
{
    return takenAsNvidia(s.gpu);
}

/// The GPUs enable_allreduce_rms_fusion (vllm/config/vllm.py) turns the fusion on for: compute
/// capability 9.0 or the 10.x family, with NVLink between them (FlashInfer's workspace needs peer memory;
/// on PCIe-only GPUs its creation fails and vLLM falls back). A custom GPU names no capability: not fused.
bool fusesAllReduceRmsNorm(const GpuSpec &gpu)
{
    return (gpu.computeCapability == QLatin1String("9.0") || computeCapability10(gpu)) && !pcieOnly(gpu);
}

} // namespace

std::int64_t vllmNonTorchBytes(const GpuSpec &gpu, int tensorParallelSize, bool allReduceRmsNormFused,
                               const VllmProfile &profile)
{
    if (allReduceRmsNormFused)
        return runtimeOverheadBytes(gpu, tensorParallelSize);
    // Before 0.19, vLLM counted less outside PyTorch where one GPU's figure applies (the profile says).
    return profile.singleGpuNonTorchBytes > 0 ? profile.singleGpuNonTorchBytes : runtimeOverheadBytes(gpu, 1);
}

bool profilesCudaGraphs(const Scenario &s)
{
    return onCuda(s) && !s.enforceEager;
}

bool runsOnModelRunnerV2(const Scenario &s, const VllmProfile &profile, bool quantized)
{
    const ModelArch &m = s.model;
    const SpeculativeMethod drafter = s.speculative.method;
    if (profile.modelRunnerV2 == ModelRunnerV2Default::None || m.recurrent.enabled() ||
        drafter == SpeculativeMethod::Ngram || drafter == SpeculativeMethod::DraftModel ||
        (drafter == SpeculativeMethod::Eagle3 && s.pipelineParallelSize > 1) || s.kvOffloadingMilliGiB > 0)
        return false;
    const bool dense = !m.moe.enabled();
    const auto is = [&](std::initializer_list<const char *> architectures) {
        for (const char *architecture : architectures)
            if (m.architecture == QLatin1String(architecture))
                return true;
        return false;
    };
    // The dense families named by #39337 and #43458, and the MoEs #42667 and #45461 added.
    const bool namedDense = dense && is({"Qwen3ForCausalLM", "LlamaForCausalLM", "MistralForCausalLM"});
    const bool namedMoe =
        is({"Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM", "DeepseekV2ForCausalLM", "GraniteMoeForCausalLM"});
    switch (profile.modelRunnerV2) {
    case ModelRunnerV2Default::None:
        return false;
    case ModelRunnerV2Default::Qwen3Dense:
        return dense && !quantized && is({"Qwen3ForCausalLM"});
    case ModelRunnerV2Default::LlamaDense:
        return namedDense && !quantized;
    case ModelRunnerV2Default::EnabledFamilies:
        return namedDense || namedMoe;
    case ModelRunnerV2Default::AllDense:
        return dense || namedMoe;
    case ModelRunnerV2Default::AllModels:
        return true;
    }
    return false;
}

void VllmRules::applyBudget(const Scenario &s, const ModelArch &rankModel, MemoryPlan &plan) const
{
    // A MoE's data-parallel ranks talk to each other (its MoE layers gather and scatter tokens
    // over TP x DP GPUs): their NCCL buffers are taken as a tensor-parallel GPU's. A dense model's
    // ranks share nothing on the GPU. No public log measures either yet (docs/methodology.md).
    const int tp = plan.tensorParallelSize * (plan.localExperts > 0 ? plan.dataParallelSize : 1);
    plan.gpuMemoryUtilizationPpm =
        s.gpuMemoryUtilizationPpm > 0 ? s.gpuMemoryUtilizationPpm : m_version.profile->defaultUtilizationPpm;
    plan.budgetBytes = mulDivFloor(s.gpu.memoryBytes, plan.gpuMemoryUtilizationPpm, 1'000'000);
    // DeepEP's buffers are taken with cudaMalloc before the profiling run: memory outside PyTorch.
    plan.all2allBufferBytes = all2allBufferBytes(s);
    plan.allReduceRmsNormFused =
        tp > 1 && m_version.profile->fusesAllReduceRmsNorm && fusesAllReduceRmsNorm(s.gpu);
    plan.overheadBytes =
        (Checked(vllmNonTorchBytes(s.gpu, tp, plan.allReduceRmsNormFused, *m_version.profile)) +
         plan.all2allBufferBytes)
            .value();
    // Model Runner V2's profile_cudagraph_memory() returned 0 until v0.29.0
    // (vllm/v1/worker/gpu/model_runner.py).
    const VllmProfile &profile = *m_version.profile;
    if (onCuda(s))
        plan.cudaGraphProfile =
            vllmCudaGraphProfile(s, rankModel, plan.tensorParallelSize, bytesPerElement(plan.dtype),
                                 plan.maxNumSeqs, plan.maxNumBatchedTokens);
    plan.cudaGraphBytes = profile.subtractsCudaGraphs &&
                                  (!plan.modelRunnerV2 || profile.modelRunnerV2ReservesCudaGraphs) &&
                                  profilesCudaGraphs(s)
                              ? plan.cudaGraphProfile.estimateBytes
                              : 0;
}

void VllmRules::fixKvBudget(const Scenario &s, MemoryPlan &plan) const
{
    // GPUWorker.determine_available_memory returns cache_config.kv_cache_memory_bytes as it
    // is, before any profiling (vllm/v1/worker/gpu_worker.py): the pool is that size and
    // --gpu-memory-utilization plays no part. Its start-up log suggests the value profiling
    // would give, and the one that fills the GPU; both are kept for the plan to say.
    if (s.kvCacheMemoryBytes <= 0)
        return;
    const std::int64_t beforeCache = (Checked(plan.budgetBytes) - plan.kv.availableBytes).value();
    plan.kvCacheMemoryBytes = s.kvCacheMemoryBytes;
    plan.profiledKvBytes = plan.kv.availableBytes;
    plan.wholeGpuKvBytes = (Checked(plan.gpuMemoryBytes) - beforeCache).value();
    plan.kv.availableBytes = s.kvCacheMemoryBytes;
    plan.budgetBytes = (Checked(beforeCache) + s.kvCacheMemoryBytes).value();
}

bool VllmRules::starts(const KvCacheMemory &kv) const
{
    // vLLM refuses to start unless one --max-model-len request fits the pool
    // (check_enough_kv_cache_memory in vllm/v1/core/kv_cache_utils.py).
    return kv.numGpuBlocks > 0 && kv.numGpuBlocks >= kv.blocksPerMaxRequest;
}

QString VllmRules::refusal(const MemoryPlan &plan) const
{
    if (plan.kv.maxModelLenThatFits > 0)
        return QCoreApplication::translate("kvscope::Planner",
                                           "vLLM would refuse to start: one %1-token request needs %2 KV "
                                           "blocks, the cache holds %3; %5 %4 would fit")
            .arg(formatCount(plan.maxModelLen), formatCount(plan.kv.blocksPerMaxRequest),
                 formatCount(plan.kv.numGpuBlocks), formatCount(plan.kv.maxModelLenThatFits),
                 optionFlag(ScenarioField::MaxModelLen));
    return QCoreApplication::translate("kvscope::Planner",
                                       "vLLM would refuse to start: no memory is left for KV cache "
                                       "blocks");
}

bool VllmRules::logsCapacityAsConcurrency() const
{
    return m_version.profile->capacityFromConcurrency;
}

void VllmRules::addNotes(const Scenario &s, MemoryPlan &plan) const
{
    const VllmProfile &profile = *m_version.profile;
    // Said when it moves the weights' figure as shown (hundredths of a GiB); the formula panel and the JSON
    // give it always.
    if (plan.weights.loadSlackBytes >= GiB / 100)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "vLLM's \"Model loading took\" counts PyTorch's allocator blocks whole: %1 beyond "
                          "the tensors' bytes (%2 in all)")
                          .arg(formatBytes(plan.weights.loadSlackBytes), formatGiB(plan.weights.bytesPerGpu));
    if (s.dtype == WeightDtype::Auto && plan.dtype == WeightDtype::Float16 && !hasBfloat16(s.gpu) &&
        resolveAutoDtype(s.dtype, s.model.checkpointDtype) == WeightDtype::BFloat16)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner", "%1 (compute capability %2) has no bfloat16: vLLM's %3 auto "
                                              "runs the bfloat16 checkpoint in float16")
                          .arg(s.gpu.name, s.gpu.computeCapability, optionFlag(ScenarioField::Dtype));
    if (plan.encoder.items > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "vLLM's encoder cache: a budget of %1 (%2 %3 or the largest image's %4 outputs, the "
                   "larger); its profiling run encodes %5 image(s) of that size (%6 of pixels, a tower "
                   "forward peak of %7) and holds their %8 of outputs through the language model's "
                   "dummy forward")
                   .arg(formatCount(plan.encoder.budget), optionFlag(ScenarioField::MaxNumBatchedTokens),
                        formatCount(plan.maxNumBatchedTokens), formatCount(plan.encoder.itemEmbeddings),
                        formatCount(plan.encoder.items), formatGiB(plan.encoder.pixelBytes),
                        formatGiB(plan.encoder.towerPeakBytes), formatGiB(plan.encoder.heldBytes));
    if (m_version.newerThanModelled)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "vLLM %1 is newer than the newest release kvscope models; planned as vLLM %2")
                          .arg(m_version.requested->text(), profile.since.text());
    if (s.model.attentionChunkSize > 0 && !profile.chunkedLocalInHybridManager)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "vLLM %1 keeps chunked-local attention out of its hybrid KV cache manager by default "
                   "(VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0): every layer holds the whole "
                   "context")
                   .arg(profile.since.text());
    if (plan.cudaGraphsEstimated())
        plan.notes
            << (plan.cudaGraphProfile.loraCases > 1
                    ? QCoreApplication::translate(
                          "kvscope::Planner",
                          "vLLM %1 takes its estimated CUDA-graph memory (%2 for %3 piecewise and %4 full "
                          "graphs of %5 layers, each size without and with LoRA) out of the budget "
                          "before the KV cache (a vLLM environment variable turns that off: see "
                          "docs/methodology.md, Engines and versions)")
                    : QCoreApplication::translate(
                          "kvscope::Planner",
                          "vLLM %1 takes its estimated CUDA-graph memory (%2 for %3 piecewise and %4 full "
                          "graphs of %5 layers) out of the budget before the KV cache (a vLLM environment "
                          "variable turns that off: see docs/methodology.md, Engines and versions)"))
                   .arg(profile.since.text(), formatGiB(plan.cudaGraphBytes))
                   .arg(plan.cudaGraphProfile.piecewiseGraphs)
                   .arg(plan.cudaGraphProfile.fullGraphs)
                   .arg(plan.cudaGraphProfile.layers);
    else if (plan.cudaGraphBytes > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "vLLM %1 takes its estimated CUDA-graph memory (%2) out of the budget before the KV "
                   "cache (a vLLM environment variable turns that off: see docs/methodology.md, Engines and "
                   "versions)")
                   .arg(profile.since.text(), formatGiB(plan.cudaGraphBytes));
    else if (profile.subtractsCudaGraphs && !profilesCudaGraphs(s))
        plan.notes << (s.enforceEager
                           ? QCoreApplication::translate(
                                 "kvscope::Planner",
                                 "vLLM %1 takes no CUDA-graph memory out of the budget under %2: it captures "
                                 "no graphs, so it profiles none (%3 more KV cache, slower steps)")
                                 .arg(profile.since.text(), optionFlag(ScenarioField::EnforceEager),
                                      formatGiB(plan.cudaGraphProfile.estimateBytes))
                           : QCoreApplication::translate(
                                 "kvscope::Planner",
                                 "vLLM %1 profiles CUDA-graph memory on CUDA GPUs only: on %2 it takes none "
                                 "out of the budget")
                                 .arg(profile.since.text(), s.gpu.name));
    else if (plan.modelRunnerV2 && profile.subtractsCudaGraphs)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "vLLM %1 runs %2 on its Model Runner V2, which takes nothing out of the budget for "
                          "the CUDA graphs until vLLM 0.29 (%3 under the V1 runner); they are captured after "
                          "the KV cache is sized")
                          .arg(profile.since.text(), s.model.name,
                               formatGiB(plan.cudaGraphProfile.estimateBytes));
    // A cold start, the default, is said by the option's help; a warm one, chosen, by the plan.
    if (plan.modelRunnerV2 && plan.holdsSampler && plan.warmCompileCache)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "a warm start on Model Runner V2 (%1 warm): the profiling peak is V2's own, %2; a "
                          "start that compiles the model holds 0.4 to 1.1 GiB more while profiling in the "
                          "public logs (docs/validation.md)")
                          .arg(optionFlag(ScenarioField::CompileCache), formatGiB(plan.activationBytes));
    if (s.model.indexer.enabled() && !plan.kv.fp8DsMla)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "older vLLM builds store fp8_ds_mla (656 B) even for %1 auto; pass %1 fp8 to plan "
                          "that layout")
                          .arg(optionFlag(ScenarioField::KvCacheDtype));
    if (plan.kv.cpuCapacityTokens > 0 && plan.engineStarts) // a server that does not start holds nothing
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1 %2 GiB (%3): %4 tokens of KV blocks kept in CPU memory for reuse (%5 a GPU), "
                          "restored on a prefix hit; the sequences running at once still live in the GPU's "
                          "cache, so the concurrency stays as planned")
                          .arg(optionFlag(ScenarioField::KvOffloadingSize),
                               formatThousandths(s.kvOffloadingMilliGiB),
                               kvOffloadingBackendName(s.kvOffloadingBackend),
                               formatCount(plan.kv.cpuCapacityTokens),
                               formatGiB(plan.kv.cpuOffloadBytesPerGpu));
    if (plan.all2allBufferBytes > 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1 %2: DeepEP's NVLink buffer and workspace take %3 on every GPU (allocated with "
                          "cudaMalloc before the profiling run, so counted outside PyTorch, in the runtime "
                          "overhead); their speed is not priced")
                          .arg(optionFlag(ScenarioField::All2AllBackend),
                               all2allBackendName(s.all2allBackend), formatGiB(plan.all2allBufferBytes));
    else if (s.all2allBackend != All2AllBackend::AllgatherReducescatter && !usesAll2AllKernels(s))
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "%1 %2 changes nothing here: vLLM runs its all-to-all kernels for data-parallel ranks "
                   "with expert parallelism only (%3 above 1 and %4)")
                   .arg(optionFlag(ScenarioField::All2AllBackend), all2allBackendName(s.all2allBackend),
                        optionFlag(ScenarioField::DataParallelSize),
                        optionFlag(ScenarioField::EnableExpertParallel));
    if (plan.eplbState.total() > 0) {
        const QString placed =
            QCoreApplication::translate("kvscope::Planner",
                                        "%1: %2 routed experts and %3 redundant copies a layer "
                                        "over %4 GPUs, %5 on this GPU")
                .arg(optionFlag(ScenarioField::EnableEplb))
                .arg(s.model.moe.numExperts)
                .arg(plan.redundantExperts)
                .arg(plan.expertParallelSize)
                .arg(plan.localExperts);
        const EplbStateMemory &state = plan.eplbState;
        plan.notes
            << (state.inBudget
                    ? QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1; the balancer's state takes %2 a GPU (a buffer of one layer's experts %3, load "
                          "counters %4, expert maps %5), built with the weights and counted in them as "
                          "vLLM's \"Model loading took\" counts it")
                          .arg(placed, formatGiB(state.total()), formatGiB(state.expertBufferBytes),
                               formatGiB(state.loadCounterBytes), formatGiB(state.mapBytes))
                    : QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1; vLLM %2 builds the balancer's maps and load counters (%3 a GPU) after "
                          "measuring the weights, so they sit outside the KV budget, in the GPU's (1 - %4) "
                          "share")
                          .arg(placed, versionText(), formatGiB(state.total()),
                               optionFlag(ScenarioField::GpuMemoryUtilization)));
    }
    if (plan.weights.loraBytes > 0)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1 %2 %3 %4: %5 of LoRA slots per GPU, allocated with the weights (and counted in "
                          "them, as vLLM's \"Model loading took\" counts them) before the KV cache")
                          .arg(optionFlag(ScenarioField::MaxLoras))
                          .arg(s.maxLoras)
                          .arg(optionFlag(ScenarioField::MaxLoraRank))
                          .arg(s.maxLoraRank)
                          .arg(formatGiB(plan.weights.loraBytes));
    if (plan.speculativeMethod != SpeculativeMethod::None)
        plan.notes << QCoreApplication::translate(
                          "kvscope::Planner",
                          "%1 %2, num_speculative_tokens %3: the drafter's weights take %4 a GPU, its "
                          "attention layers (%5) join the KV pool (%6 B a token over every layer), and a "
                          "running request holds %7 token slots beyond its own; vLLM's logged concurrency "
                          "leaves the slots out")
                          .arg(optionFlag(ScenarioField::SpeculativeConfig),
                               speculativeMethodName(plan.speculativeMethod))
                          .arg(plan.numSpeculativeTokens)
                          .arg(formatGiB(plan.weights.draftBytes))
                          .arg(plan.kv.draftLayers)
                          .arg(formatCount(plan.kv.bytesPerToken), formatCount(plan.kv.speculativeSlots));
    if (plan.kvCacheMemoryBytes > 0)
        plan.notes
            << QCoreApplication::translate(
                   "kvscope::Planner",
                   "%1 %2: vLLM skips the profiled budget and takes this for the KV cache (%3 plays no "
                   "part); profiling would have left %4 at %3 %5, and the GPU's whole memory %6")
                   .arg(optionFlag(ScenarioField::KvCacheMemoryBytes), formatGiB(plan.kvCacheMemoryBytes),
                        optionFlag(ScenarioField::GpuMemoryUtilization), formatGiB(plan.profiledKvBytes),
                        formatUtilization(plan.gpuMemoryUtilizationPpm), formatGiB(plan.wholeGpuKvBytes));
    if (!plan.engineRefusal.isEmpty())
        plan.notes << plan.engineRefusal;
    else if (!plan.engineStarts)
        plan.notes << refusal(plan);
}

} // namespace kvscope
