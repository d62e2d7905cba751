// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/engine.h"
#include "core/gpu/gpuspec.h"
#include "core/plan/enginerules.h"

namespace kvscope {

struct Scenario;

/// Whether vLLM runs the scenario's model on its Model Runner V2 under `profile`: the release's default
/// models (VllmConfig.use_v2_model_runner, vllm/config/vllm.py; `quantized` as model_config.is_quantized)
/// unless it needs what V2 lacks (_get_v2_model_runner_unsupported_features: recurrent layers, an n-gram or
/// draft-model drafter, EAGLE-3 with pipeline stages) or a KV connector sends it to V1 (#42955).
bool runsOnModelRunnerV2(const Scenario &scenario, const VllmProfile &profile, bool quantized);

/// The memory outside PyTorch vLLM measures under `profile` at `tensorParallelSize` GPUs, with or without
/// the all-reduce + RMSNorm fusion: NVLink's multi-GPU figure comes with the fusion (every log whose engine
/// config shows it off holds about one GPU's figure at TP > 1, docs/validation.md); one GPU's figure is
/// the profile's where it names one (before 0.19), else runtimeOverheadBytes()'s.
std::int64_t vllmNonTorchBytes(const GpuSpec &gpu, int tensorParallelSize, bool allReduceRmsNormFused,
                               const VllmProfile &profile);

/// Whether vLLM profiles (and from 0.21 reserves) the CUDA graphs' memory for the scenario: on CUDA
/// GPUs, unless --enforce-eager turns the graphs off.
bool profilesCudaGraphs(const Scenario &scenario);

/// Whether vLLM runs the scenario's dense 4-bit `method` layers on Machete: choose_mp_linear_kernel takes
/// it before Marlin on Hopper for GPTQ and compressed-tensors W4A16 (vllm-project/vllm#7701, v0.6.2) and
/// for AWQ since vllm-project/vllm#36505 moved AWQMarlinLinearMethod onto it (a vLLM 0.18.0 build logs
/// "Using MacheteLinearKernel for AWQMarlinLinearMethod"; before it AWQ called Marlin itself). A MoE's
/// experts, most of its bytes, run through the fused MoE's own Marlin kernel: it keeps Marlin's.
bool runsMachete(const Scenario &scenario, QuantMethod method);

/// vLLM V1's start-up accounting (vllm/v1/worker/gpu_worker.py
/// determine_available_memory): a profiling run measures the activation peak
/// and the memory outside torch, --gpu-memory-utilization of the GPU is the
/// budget, and the paged KV pool takes what the weights, activations, runtime
/// overhead and (from 0.21) the CUDA-graph estimate leave. Per release through
/// its VllmProfile (core/engine/engine.h).
class VllmRules : public EngineRules
{
public:
    explicit VllmRules(const VllmVersionChoice &version);

    void validate(const Scenario &scenario) const override;
    QString versionText() const override;
    QString gpuRefusal(const Scenario &scenario, const MemoryPlan &plan) const override;
    WeightDtype resolveDtype(const Scenario &scenario, WeightDtype checkpointDtype) const override;
    ModelArch layOut(const ModelArch &model) const override;
    void applyLimits(const Scenario &scenario, MemoryPlan &plan) const override;
    std::int64_t activationBytes(const ModelArch &model, const MemoryPlan &plan) const override;
    EncoderProfile encoderProfile(const ModelArch &model, const MemoryPlan &plan) const override;
    ExpertPadding expertPadding(const Scenario &scenario) const override;
    QuantizationSpec loadedQuantization(const Scenario &scenario,
                                        const QuantizationSpec &checkpoint) const override;
    void sizeLoad(const ModelArch &model, const std::function<QList<std::int64_t>()> &tensors,
                  MemoryPlan &plan) const override;
    int kvBlockSize(const Scenario &scenario) const override;
    EplbStateMemory eplbStateMemory(const Scenario &scenario, int moeLayers,
                                    std::int64_t localExpertBytes) const override;
    void applyBudget(const Scenario &scenario, const ModelArch &rankModel, MemoryPlan &plan) const override;
    bool logsCapacityAsConcurrency() const override;
    bool starts(const KvCacheMemory &kv) const override;
    void fixKvBudget(const Scenario &scenario, MemoryPlan &plan) const override;
    QString refusal(const MemoryPlan &plan) const override;
    void addNotes(const Scenario &scenario, MemoryPlan &plan) const override;

private:
    VllmVersionChoice m_version;
};

} // namespace kvscope
