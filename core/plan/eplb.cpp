// SPDX-License-Identifier: MIT
#include "core/plan/eplb.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/gpu/gpuspec.h"
#include "core/gpu/vendor.h"

#include <algorithm>

#include <QCoreApplication>

namespace kvscope {

namespace {

/// logical_to_physical_map's slots per expert: MAX_EXPERT_REDUNDANCY + 1.
constexpr std::int64_t ReplicaSlots = MaxRedundantExperts + 1;

/// config.json model_type of the model classes that implement vLLM's MixtureOfExperts interface
/// (vllm/model_executor/models: DeepseekV2ForCausalLM and its V3/V3.2 forms, Qwen3MoeForCausalLM,
/// Qwen3VLMoeForConditionalGeneration, Qwen3NextForCausalLM, MixtralForCausalLM, Llama4ForCausalLM,
/// Glm4MoeForCausalLM, Ernie4_5_MoeForCausalLM, HunYuanMoEV1ForCausalLM). GptOssForCausalLM and
/// GraniteMoeHybridForCausalLM do not.
const char *const eplbModelTypes[] = {
    "deepseek_v2", "deepseek_v3", "deepseek_v32", "qwen3_moe",    "qwen3_vl_moe",   "qwen3_next",
    "mixtral",     "llama4",      "glm4_moe",     "ernie4_5_moe", "hunyuan_v1_moe",
};

bool modelSupportsEplb(const ModelArch &m)
{
    for (const char *type : eplbModelTypes)
        if (m.modelType == QLatin1String(type))
            return true;
    return false;
}

/// The expert kernels whose quant_method.supports_eplb is true: unquantized, fp8 (Fp8MoEMethod) and
/// compressed-tensors' FP8 W8A8, W4A8 and WNA16 MoE methods; not AWQ, GPTQ, bitsandbytes, MXFP4 or
/// an FP4 compressed-tensors checkpoint.
bool quantizationSupportsEplb(const QuantizationSpec &q)
{
    switch (q.method) {
    case QuantMethod::None:
    case QuantMethod::Fp8:
        return true;
    case QuantMethod::CompressedTensors:
        return !(q.floatWeights && q.bits == 4);
    default:
        return false;
    }
}

QString refusal(ScenarioField field, const QString &why)
{
    return QCoreApplication::translate("kvscope::Planner", "%1: %2").arg(optionFlag(field), why);
}

} // namespace

int physicalExpertCount(const Scenario &s)
{
    const int experts = s.model.moe.numExperts;
    if (s.engine != Engine::Vllm || !s.enableEplb)
        return experts;
    return experts + int(s.eplb.numRedundantExperts); // at most 1,023 (parseEplbConfig)
}

void validateEplb(const Scenario &s)
{
    const ModelArch &m = s.model;
    const QuantizationSpec quantization = s.quantization.value_or(m.checkpointQuantization);
    if (!s.enableEplb) {
        // ParallelConfig: "num_redundant_experts is set to N but EPLB is not enabled".
        if (s.eplb.numRedundantExperts != 0)
            throw Error(refusal(ScenarioField::EplbConfig,
                                QCoreApplication::translate("kvscope::Planner",
                                                            "num_redundant_experts %1 needs %2 (vLLM refuses "
                                                            "redundant experts without EPLB)")
                                    .arg(s.eplb.numRedundantExperts)
                                    .arg(optionFlag(ScenarioField::EnableEplb))));
        return;
    }
    const std::int64_t gpus = (Checked(s.tensorParallelSize) * s.dataParallelSize).value();
    const QString why = [&]() -> QString {
        if (s.engine != Engine::Vllm)
            return QCoreApplication::translate("kvscope::Planner", "vLLM's; kvscope plans SGLang without its "
                                                                   "load balancer");
        if (!m.moe.enabled())
            return QCoreApplication::translate("kvscope::Planner", "%1 has no routed experts").arg(m.name);
        if (!s.enableExpertParallel)
            return QCoreApplication::translate(
                       "kvscope::Planner", "needs %1 (\"enable_expert_parallel must be True to use EPLB\")")
                .arg(optionFlag(ScenarioField::EnableExpertParallel));
        if (gpus <= 1)
            return QCoreApplication::translate(
                "kvscope::Planner", "needs more than one GPU (\"EPLB requires tensor_parallel_size or "
                                    "data_parallel_size to be greater than 1\")");
        if (!takenAsNvidia(s.gpu) && s.gpu.vendor != QLatin1String("AMD"))
            return QCoreApplication::translate("kvscope::Planner",
                                               "vLLM runs it on CUDA and ROCm GPUs only, not on the %1")
                .arg(s.gpu.name);
        if (!modelSupportsEplb(m))
            return QCoreApplication::translate("kvscope::Planner",
                                               "vLLM's %1 (%2) does not implement the MixtureOfExperts "
                                               "interface EPLB needs")
                .arg(m.architecture, m.modelType);
        if (!quantizationSupportsEplb(quantization))
            return QCoreApplication::translate("kvscope::Planner",
                                               "vLLM's %1 expert kernels do not support EPLB")
                .arg(quantMethodName(quantization.method));
        if (s.pipelineParallelSize > 1)
            return QCoreApplication::translate("kvscope::Planner",
                                               "kvscope plans it without pipeline stages");
        const std::int64_t physical = std::int64_t(m.moe.numExperts) + s.eplb.numRedundantExperts;
        // FusedMoE: "EPLB currently only supports even distribution of experts across ranks".
        if (physical % gpus != 0)
            return QCoreApplication::translate(
                       "kvscope::Planner", "%1 + %2 redundant = %3 experts do not divide over the %4 EP GPUs "
                                           "(vLLM's EPLB needs as many on each)")
                .arg(m.moe.numExperts)
                .arg(s.eplb.numRedundantExperts)
                .arg(physical)
                .arg(gpus);
        return {};
    }();
    if (!why.isEmpty())
        throw Error(refusal(ScenarioField::EnableEplb, why));
}

/// The fewest redundant experts that make s's experts divide over its TP x DP GPUs.
std::int64_t fewestDividingRedundantExperts(const Scenario &s)
{
    const std::int64_t gpus = std::max<std::int64_t>(1, s.tensorParallelSize * s.dataParallelSize);
    return (gpus - s.model.moe.numExperts % gpus) % gpus;
}

bool eplbAccepted(const Scenario &s)
{
    if (s.tensorParallelSize <= 0 || s.dataParallelSize <= 0 || s.tensorParallelSize > 1024 ||
        s.dataParallelSize > 1024)
        return false; // refused by the planner before EPLB is asked about
    Scenario trial = s;
    trial.enableEplb = true;
    trial.eplb.numRedundantExperts = fewestDividingRedundantExperts(s);
    try {
        validateEplb(trial);
        return true;
    } catch (const Error &) {
        return false;
    }
}

QList<int> validRedundantExpertCounts(const Scenario &s, int count)
{
    if (!eplbAccepted(s))
        return {0};
    // Accepted: TP x DP > 1 GPUs, each a whole number of experts (validateDataParallel).
    const std::int64_t gpus = (Checked(s.tensorParallelSize) * s.dataParallelSize).value();
    const auto divides = [&](std::int64_t redundant) {
        return (s.model.moe.numExperts + redundant) % gpus == 0;
    };
    QList<int> counts;
    for (std::int64_t redundant = 0; redundant <= MaxRedundantExperts && counts.size() < count; ++redundant)
        if (divides(redundant))
            counts << int(redundant);
    // The scenario's own count stays a choice beyond the first few.
    const std::int64_t own = s.eplb.numRedundantExperts;
    if (own >= 0 && own <= MaxRedundantExperts && divides(own) && !counts.contains(int(own)))
        counts << int(own);
    return counts.isEmpty() ? QList<int>{0} : counts;
}

void keepEplbWhereTaken(Scenario &s)
{
    if (!s.enableEplb)
        return;
    if (!eplbAccepted(s)) {
        s.enableEplb = false;
        s.eplb.numRedundantExperts = 0;
    } else if (const QList<int> counts = validRedundantExpertCounts(s);
               !counts.contains(int(s.eplb.numRedundantExperts))) {
        s.eplb.numRedundantExperts = counts.constFirst();
    }
}

std::int64_t EplbStateMemory::total() const
{
    return (Checked(expertBufferBytes) + loadCounterBytes + mapBytes).value();
}

EplbStateMemory &EplbStateMemory::operator+=(const EplbStateMemory &other)
{
    expertBufferBytes = (Checked(expertBufferBytes) + other.expertBufferBytes).value();
    loadCounterBytes = (Checked(loadCounterBytes) + other.loadCounterBytes).value();
    mapBytes = (Checked(mapBytes) + other.mapBytes).value();
    return *this;
}

EplbStateMemory eplbStateMemory(const Scenario &s, int moeLayers, std::int64_t localExpertBytes,
                                bool inBudget)
{
    if (s.engine != Engine::Vllm || !s.enableEplb || !s.model.moe.enabled() || moeLayers <= 0)
        return {};
    const Checked physical = Checked(moeLayers) * physicalExpertCount(s);
    const Checked logical = Checked(moeLayers) * s.model.moe.numExperts;
    EplbStateMemory state;
    state.inBudget = inBudget;
    state.expertBufferBytes = inBudget ? localExpertBytes / moeLayers : 0;
    state.loadCounterBytes = ((Checked(s.eplb.windowSize) + 1) * physical * 4).value();
    state.mapBytes = (physical * 8 + logical * ReplicaSlots * 8 + logical * 8).value();
    return state;
}

} // namespace kvscope
