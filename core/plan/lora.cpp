// SPDX-License-Identifier: MIT
#include "core/plan/lora.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/engine/engine.h"
#include "core/scenario/scenario.h"

#include <QCoreApplication>

namespace kvscope {

namespace {

bool wrappedByLora(const TensorGroup &group, const LoraWrapping &wrapping)
{
    if (group.role != TensorRole::LinearWeight)
        return false;
    switch (group.component) {
    case Component::Attention:
    case Component::Mlp:
        return true;
    case Component::Router:
        return wrapping.routerWrapped;
    case Component::Experts:
        return wrapping.wrapped;
    default:
        return false;
    }
}

/// A module as --lora-target-modules names it: the last part of its runtime name and the checkpoint modules
/// packed in it (the model's packed_modules_mapping).
struct LoraModule
{
    QString name;
    QStringList packed;
};

/// Whether the inventory holds latent attention's query compression, whose q_a_proj vLLM runs fused with
/// kv_a_proj_with_mqa (DeepseekV2ForCausalLM's packed_modules_mapping "fused_qkv_a_proj").
bool fusesQkvA(const QList<TensorGroup> &inventory)
{
    for (const TensorGroup &group : inventory)
        if (projectionName(group) == QLatin1String("q_a_proj"))
            return true;
    return false;
}

/// The module vLLM (and SGLang, for the dense models it restricts) runs a group's projection in.
LoraModule loraModule(const TensorGroup &group, const LoraWrapping &wrapping, bool fusedQkvA)
{
    const QString projection = projectionName(group);
    switch (group.component) {
    case Component::Experts:
        return {QStringLiteral("experts"), {}}; // FusedMoE: its packed names are per expert
    case Component::Router:
        return {projection == QLatin1String("gate") ? wrapping.routerModule : projection, {}};
    case Component::Mlp:
        // Granite's GraniteMoeSharedMLP: input_linear (gate and up), output_linear.
        if (wrapping.gateUpOneSlice && projection != QLatin1String("down_proj"))
            return {QStringLiteral("input_linear"), {QStringLiteral("input_linear")}};
        if (wrapping.gateUpOneSlice)
            return {QStringLiteral("output_linear"), {}};
        break;
    default:
        break;
    }
    if (fusedQkvA &&
        (projection == QLatin1String("q_a_proj") || projection == QLatin1String("kv_a_proj_with_mqa")))
        return {QStringLiteral("fused_qkv_a_proj"),
                {QStringLiteral("q_a_proj"), QStringLiteral("kv_a_proj_with_mqa")}};
    const QString packed = packedProjectionName(projection);
    return {packed, packedProjectionParts(packed)};
}

/// Whether a module gets slots under --lora-target-modules: its name is given, or one of the modules packed
/// in it is (is_in_target_modules, vllm/lora/utils.py, with packed names since vllm-project/vllm#35077).
bool targeted(const LoraModule &module, const QStringList &targets)
{
    if (targets.isEmpty() || targets.contains(module.name))
        return true;
    for (const QString &part : module.packed)
        if (targets.contains(part))
            return true;
    return false;
}

/// How vLLM wraps one tensor of a group for LoRA.
struct LoraSlices
{
    bool wrapped = true; ///< false: no wrapper takes the layer, no A or B
    int inputs = 1;      ///< its A buffers, each over the layer's input
};

/// Mamba-2's in_proj and conv1d hold one A per packed output where the groups divide over the GPUs
/// (MergedColumnParallelLinearVariableSliceWithLoRA, which has no fully sharded form: then no wrapper), one
/// elsewhere; up's A is gate's in FusedMoE3DWithLoRA's experts and Granite's packed MLP input.
LoraSlices loraSlices(const TensorGroup &group, const LoraWrapping &wrapping, int tp)
{
    const QString projection = projectionName(group);
    if (wrapping.mamba2Groups > 0 && group.name.startsWith(QLatin1String("mamba."))) {
        const int outputs = projection == QLatin1String("in_proj")  ? 5
                            : projection == QLatin1String("conv1d") ? 3
                                                                    : 1;
        if (outputs == 1 || wrapping.mamba2Groups % std::max(1, tp) != 0)
            return {};
        return {!wrapping.fullySharded, outputs};
    }
    const bool sharesGateA = group.component == Component::Experts ? wrapping.fusedGateUp
                             : group.component == Component::Mlp   ? wrapping.gateUpOneSlice
                                                                   : false;
    if (sharesGateA && projection == QLatin1String("up_proj"))
        return {true, 0};
    return {};
}

/// "--max-loras 4": what a refusal of the slots names.
QString slotsText(const Scenario &s)
{
    return QStringLiteral("%1 %2").arg(optionFlag(ScenarioField::MaxLoras)).arg(s.maxLoras);
}

/// SGLang's LoRA pool: the MoE experts kvscope sizes there.
void validateSglangPool(const Scenario &s)
{
    const QString slots = slotsText(s);
    const ModelArch &m = s.model;
    // SGLang's LoRAMemoryPool (python/sglang/srt/lora/mem_pool.py) holds a MoE's experts in 4D buffers
    // (gate_up_proj_moe, down_proj_moe; sgl-project/sglang#14105 and #21466, which names Qwen3-30B-A3B):
    // kvscope sizes them for Qwen3-MoE, whose experts have no shared companion; shared experts get buffers
    // and a namespace of their own, other models their own get_hidden_dim, and EP ranks or attention groups
    // key the experts by rank.
    if (s.engine == Engine::Sglang && m.moe.enabled()) {
        const bool sharedExperts = m.moe.numSharedExperts > 0 || m.moe.sharedIntermediateSize > 0;
        if (m.architecture != QLatin1String("Qwen3MoeForCausalLM") || sharedExperts)
            throw Error(QCoreApplication::translate(
                            "kvscope::Planner", "%1: SGLang's LoRA pool holds %2's experts in buffers of its "
                                                "own shape, which kvscope does not size yet")
                            .arg(slots, m.name));
        for (const auto &[set, field] :
             {std::pair{s.expertParallelSize > 1, ScenarioField::ExpertParallelSize},
              std::pair{s.enableDpAttention && s.dataParallelSize > 1, ScenarioField::EnableDpAttention}})
            if (set)
                throw Error(QCoreApplication::translate(
                                "kvscope::Planner", "%1 with %2: SGLang's LoRA pool keys the experts by rank "
                                                    "there, which kvscope does not size yet")
                                .arg(slots, optionFlag(field, Engine::Sglang)));
    }
}

/// vLLM's LoRAConfig: the dtype and the host-memory adapters.
void validateLoraConfig(const Scenario &s)
{
    // LoRAConfig (vllm/config/lora.py): lora_dtype is auto, float16 or bfloat16; max_cpu_loras at least
    // max_loras ("max_cpu_loras (N) must be >= max_loras (M)").
    if (s.loraDtype == WeightDtype::Float32)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1: vLLM takes auto, float16 or bfloat16, got %2")
                        .arg(optionFlag(ScenarioField::LoraDtype), dtypeName(s.loraDtype)));
    if (s.maxCpuLoras < 0 || (s.maxCpuLoras > 0 && s.maxCpuLoras < s.maxLoras))
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1 %2: must be at least %3 %4")
                        .arg(optionFlag(ScenarioField::MaxCpuLoras))
                        .arg(s.maxCpuLoras)
                        .arg(optionFlag(ScenarioField::MaxLoras))
                        .arg(s.maxLoras));
}

/// --lora-target-modules: names of the model's wrapped modules; under SGLang, on dense models.
void validateTargetModules(const Scenario &s)
{
    const ModelArch &m = s.model;
    if (s.loraTargetModules.isEmpty())
        return;
    // SGLang's pool keys its buffers by its own normalized names (get_normalized_target_modules,
    // python/sglang/srt/lora/utils.py), which kvscope matches on dense models' projections.
    if (s.engine == Engine::Sglang && (m.moe.enabled() || m.usesMla() || m.recurrent.enabled()))
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner",
                        "%1: kvscope restricts SGLang's LoRA buffers to dense models' q/k/v/o "
                        "and gate/up/down projections; %2's other layers are not matched yet")
                        .arg(optionFlag(ScenarioField::LoraTargetModules), m.name));
    const QStringList names = loraTargetModuleNames(s);
    for (const QString &module : s.loraTargetModules)
        if (!names.contains(module))
            throw Error(QCoreApplication::translate("kvscope::Planner",
                                                    "%1: %2 names no module of %3 that gets LoRA slots (%4)")
                            .arg(optionFlag(ScenarioField::LoraTargetModules), module, m.name,
                                 names.join(QStringLiteral(", "))));
}

/// The rank: one vLLM takes, dividing over the GPUs when the slots are fully sharded.
void validateRank(const Scenario &s)
{
    // divide(max_lora_rank, tp_size) in the fully sharded layers asserts that the rank divides.
    if (s.fullyShardedLoras && s.maxLoraRank % std::max<std::int64_t>(1, s.tensorParallelSize) != 0)
        throw Error(
            QCoreApplication::translate("kvscope::Planner",
                                        "%1: vLLM splits each slot's rank over the GPUs, and %2 %3 does not "
                                        "divide over %4 %5")
                .arg(optionFlag(ScenarioField::FullyShardedLoras), optionFlag(ScenarioField::MaxLoraRank))
                .arg(s.maxLoraRank)
                .arg(optionFlag(ScenarioField::TensorParallelSize))
                .arg(s.tensorParallelSize));
    if (s.engine == Engine::Vllm && !loraRanks().contains(s.maxLoraRank)) {
        QStringList ranks;
        for (std::int64_t rank : loraRanks())
            ranks << QString::number(rank);
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: %2 is not a rank vLLM accepts (%3)")
                        .arg(optionFlag(ScenarioField::MaxLoraRank))
                        .arg(s.maxLoraRank)
                        .arg(ranks.join(QStringLiteral(", "))));
    }
}

/// Qwen3-Next, whose Gated DeltaNet layers vLLM wraps as it wraps any linear layer.
bool hasQwen3NextDeltaNet(const ModelArch &m)
{
    return m.architecture == QLatin1String("Qwen3NextForCausalLM");
}

/// The first vLLM release whose LoRA wrappers of the model kvscope sizes, where that is not every release.
std::optional<EngineVersion> firstSizedVllmRelease(const Scenario &s)
{
    if (s.engine != Engine::Vllm)
        return std::nullopt;
    // Before FusedMoE3DWithLoRA (0.12.0) vLLM held gpt-oss's fused experts in a wrapper kvscope does not
    // size.
    if (s.model.modelType == QLatin1String("gpt_oss"))
        return EngineVersion{0, 12, 0};
    // Qwen3-Next's Gated DeltaNet layers are plain linear layers to vLLM's LoRA (in_proj_qkvz and in_proj_ba
    // one packed module each, conv1d a ColumnParallelLinear); its shared expert's gate joined them as a
    // ReplicatedLinear in vllm-project/vllm#31719 (2026-01-08), which 0.15.0 is the first release sure to
    // hold.
    if (hasQwen3NextDeltaNet(s.model))
        return EngineVersion{0, 15, 0};
    // A Mamba-2 mixer's in_proj and conv1d are wrapped a packed output each since vllm-project/vllm#30802
    // (merged 2026-01-19; one slice before), which 0.16.0 (released 2026-02-25) is the first release sure
    // to hold.
    if (s.model.recurrent.kind == RecurrentKind::Mamba2)
        return EngineVersion{0, 16, 0};
    return std::nullopt;
}

/// The models and layouts whose LoRA wrappers kvscope sizes, per engine and release.
void validateWrappers(const Scenario &s)
{
    const QString slots = slotsText(s);
    const ModelArch &m = s.model;
    // vLLM wraps latent attention's projections like any linear layer; DeepSeek's models gained
    // SupportsLoRA in vllm-project/vllm#23971 (vLLM 0.10.2).
    const std::optional<EngineVersion> release = parseEngineVersion(s.vllmVersion);
    if (s.engine == Engine::Vllm && m.architecture.startsWith(QLatin1String("Deepseek")) && release &&
        *release < EngineVersion{0, 10, 2})
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1: vLLM serves LoRA adapters of %2 from release 0.10.2 "
                                                "on (%3 is %4)")
                        .arg(slots, m.name, optionFlag(ScenarioField::VllmVersion), s.vllmVersion));
    if (const std::optional<EngineVersion> first = firstSizedVllmRelease(s);
        first && release && *release < *first)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1: kvscope sizes %2's LoRA slots as vLLM %3 and later "
                                                "hold them (%4 is %5)")
                        .arg(slots, m.name,
                             QStringLiteral("%1.%2.%3").arg(first->major).arg(first->minor).arg(first->patch),
                             optionFlag(ScenarioField::VllmVersion), s.vllmVersion));
    // SGLang's LoRA pool (python/sglang/srt/lora/mem_pool.py) has no buffers of latent attention's or
    // recurrent layers' shapes.
    const QString kind = s.engine != Engine::Sglang ? QString()
                         : m.usesMla()              ? QStringLiteral("latent attention")
                         : m.recurrent.enabled()    ? QStringLiteral("recurrent layers")
                                                    : QString();
    if (!kind.isEmpty())
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%1: %2 has %3, for which SGLang's LoRA pool holds no buffers "
                                            "kvscope sizes; it sizes vLLM's")
                        .arg(slots, m.name, kind));
    const bool expertParallel =
        s.enableExpertParallel && s.tensorParallelSize * std::max<std::int64_t>(1, s.dataParallelSize) > 1;
    if (m.moe.enabled() && loraWrapsExperts(s) && expertParallel)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%1 with %2: vLLM's FusedMoEWithLoRA does not split the experts' "
                                            "LoRA slots over EP ranks (\"EP support for Fused MoE LoRA is "
                                            "not implemented yet\"); kvscope does not size it")
                        .arg(slots, optionFlag(ScenarioField::EnableExpertParallel)));
}

} // namespace

QStringList loraTargetModuleNames(const Scenario &s)
{
    const QList<TensorGroup> inventory = tensorInventory(s.model);
    const LoraWrapping wrapping = loraWrapping(s, 0, {});
    const bool fusedQkvA = fusesQkvA(inventory);
    QStringList names;
    for (const TensorGroup &group : inventory) {
        if (!wrappedByLora(group, wrapping))
            continue;
        const LoraModule module = loraModule(group, wrapping, fusedQkvA);
        for (const QString &name : QStringList{module.name} + module.packed)
            if (!names.contains(name))
                names << name;
    }
    return names;
}

const QList<std::int64_t> &loraRanks()
{
    static const QList<std::int64_t> ranks = {1, 8, 16, 32, 64, 128, 256, 320, 512};
    return ranks;
}

void validateLora(const Scenario &s)
{
    if (s.maxLoras <= 0)
        return;
    validateSglangPool(s);
    validateLoraConfig(s);
    validateTargetModules(s);
    validateRank(s);
    validateWrappers(s);
}

bool loraWrapsExperts(const Scenario &s)
{
    const std::optional<EngineVersion> release = parseEngineVersion(s.vllmVersion);
    return !release || !(*release < EngineVersion{0, 11, 2});
}

bool loraPacksMlpInput(const Scenario &s)
{
    static const QStringList granite = {QStringLiteral("GraniteMoeHybridForCausalLM"),
                                        QStringLiteral("GraniteMoeSharedForCausalLM")};
    return s.engine == Engine::Vllm && granite.contains(s.model.architecture);
}

QString loraRouterModule(const ModelArch &m)
{
    return m.modelType == QLatin1String("gpt_oss") || m.modelType == QLatin1String("llama4")
               ? QStringLiteral("router")
               : QStringLiteral("gate");
}

LoraWrapping loraWrapping(const Scenario &s, int expertTensorParallel, const ExpertPadding &padding)
{
    LoraWrapping wrapping;
    wrapping.wrapped = loraWrapsExperts(s);
    wrapping.fusedGateUp = loraFusesExpertGateUp(s);
    wrapping.tensorParallel = expertTensorParallel;
    wrapping.routerWrapped = s.engine == Engine::Vllm;
    wrapping.fullySharded = s.engine == Engine::Vllm && s.fullyShardedLoras;
    wrapping.targetModules = s.loraTargetModules;
    wrapping.padding = padding;
    if (s.model.recurrent.kind == RecurrentKind::Mamba2)
        wrapping.mamba2Groups = s.model.recurrent.numGroups;
    wrapping.gateUpOneSlice = loraPacksMlpInput(s);
    wrapping.routerModule = loraRouterModule(s.model);
    return wrapping;
}

bool loraFusesExpertGateUp(const Scenario &s)
{
    static const QStringList fused = {QStringLiteral("GptOssForCausalLM"),
                                      QStringLiteral("Qwen3VLMoeForConditionalGeneration"),
                                      QStringLiteral("Qwen3_5MoeForConditionalGeneration"),
                                      QStringLiteral("InternS1ProForConditionalGeneration")};
    if (s.engine != Engine::Vllm || !s.model.moe.enabled() || !fused.contains(s.model.architecture))
        return false;
    const std::optional<EngineVersion> release = parseEngineVersion(s.vllmVersion);
    return !release || !(*release < EngineVersion{0, 12, 0});
}

std::int64_t loraBufferBytes(const QList<TensorGroup> &inventory, std::int64_t maxLoras, std::int64_t rank,
                             int dtypeBytes, int tensorParallelSize, const LoraWrapping &wrapping)
{
    if (maxLoras <= 0)
        return 0;
    Checked elements;
    const bool fusedQkvA = fusesQkvA(inventory);
    for (const TensorGroup &group : inventory) {
        if (!wrappedByLora(group, wrapping) ||
            !targeted(loraModule(group, wrapping, fusedQkvA), wrapping.targetModules))
            continue;
        const bool expert = group.component == Component::Experts;
        const int tp = expert && wrapping.tensorParallel > 0 ? wrapping.tensorParallel : tensorParallelSize;
        LocalShape local = localShape(group, tp);
        if (expert)
            local = paddedExpertShape(group, local, wrapping.padding);
        // A [rank, input] per unit of rank is the input (cols), B [output, rank] the output (rows); fully
        // sharded, a column-parallel layer's A and a row-parallel layer's B are split over the GPUs as well.
        std::int64_t a = local.cols;
        std::int64_t b = local.rows;
        if (wrapping.fullySharded && group.sharding != Sharding::Replicated) {
            if (group.sharding == Sharding::SplitCols)
                b = ceilDiv(b, std::max(1, tp));
            else
                a = ceilDiv(a, std::max(1, tp));
        }
        const LoraSlices slices = loraSlices(group, wrapping, tp);
        if (!slices.wrapped)
            continue;
        elements += (Checked(b) + Checked(a) * slices.inputs) * group.copies;
    }
    try {
        return (elements * rank * maxLoras * dtypeBytes).value();
    } catch (const Error &) {
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1 %2 of %3 %4 need LoRA buffers beyond 2^63 bytes")
                        .arg(optionFlag(ScenarioField::MaxLoras))
                        .arg(maxLoras)
                        .arg(optionFlag(ScenarioField::MaxLoraRank))
                        .arg(rank));
    }
}

} // namespace kvscope
