// SPDX-License-Identifier: MIT
#include "core/plan/expertparallel.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/plan/tensorparallel.h"

#include <algorithm>

#include <QCoreApplication>

namespace kvscope {

namespace {

QString refusal(ScenarioField field, const QString &value, const QString &why)
{
    return QCoreApplication::translate("kvscope::Planner", "%1 %2: %3").arg(optionFlag(field), value, why);
}

bool expertParallelApplies(const ModelArch &m, std::int64_t gpus, bool enabled)
{
    // vLLM: use_ep = dp_size_ * tp_size_ > 1 and enable_expert_parallel.
    return enabled && m.moe.enabled() && gpus > 1;
}

} // namespace

std::int64_t dataParallelShare(std::int64_t sequences, std::int64_t dataParallel)
{
    return ceilDiv(sequences, std::max<std::int64_t>(1, dataParallel));
}

int localExpertCount(int numExperts, int expertParallel, int rank)
{
    const int ranks = std::max(1, expertParallel);
    return numExperts / ranks + (rank < numExperts % ranks ? 1 : 0);
}

ExpertPlacement expertPlacement(const ModelArch &m, int tp, int dp, bool enabled, int rank,
                                int physicalExperts)
{
    const int gpus = tp * dp; // validated: at most num_attention_heads x 8 GPUs' worth
    if (!expertParallelApplies(m, gpus, enabled))
        return {gpus, 1, 0};
    return {1, gpus, localExpertCount(physicalExperts > 0 ? physicalExperts : m.moe.numExperts, gpus, rank)};
}

int heavierDataParallelRanks(const ModelArch &m, int tp, int dp, bool enabled, int physicalExperts)
{
    if (!expertParallelApplies(m, std::int64_t(tp) * dp, enabled))
        return 0;
    const int remainder = (physicalExperts > 0 ? physicalExperts : m.moe.numExperts) % (tp * dp);
    return (remainder + tp - 1) / tp; // rank d holds EP ranks d x TP ... d x TP + TP - 1
}

namespace {

/// SGLang's data-parallel ranks: only as --enable-dp-attention's groups of --tp-size's GPUs.
void validateSglangDataParallel(std::int64_t tp, std::int64_t dp, bool enabled, bool dpAttention)
{
    const QString dpFlag = sglangFlag(ScenarioField::DataParallelSize);
    if (enabled)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1 is vLLM's; SGLang divides a MoE's experts with %2")
                        .arg(optionFlag(ScenarioField::EnableExpertParallel),
                             optionFlag(ScenarioField::ExpertParallelSize)));
    if (dp > 1 && !dpAttention)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner",
                        "%1 %2 without %3: SGLang runs %2 independent copies of the server behind its "
                        "router; plan one copy, or give %3 for the attention groups of one")
                        .arg(dpFlag)
                        .arg(dp)
                        .arg(optionFlag(ScenarioField::EnableDpAttention)));
    // ServerArgs._handle_data_parallelism: assert self.tp_size % self.dp_size == 0.
    if (dpAttention && dp > 1 && tp % dp != 0)
        throw Error(QCoreApplication::translate("kvscope::Planner",
                                                "%1 %2: SGLang's data-parallel attention splits the %3 %4 "
                                                "GPUs into equal groups, and %2 does not divide %4")
                        .arg(dpFlag)
                        .arg(dp)
                        .arg(sglangFlag(ScenarioField::TensorParallelSize))
                        .arg(tp));
}

} // namespace

void validateSglangExpertParallel(const Scenario &s)
{
    const std::int64_t ep = s.expertParallelSize;
    const QString epText = QString::number(ep);
    const ScenarioField field = ScenarioField::ExpertParallelSize;
    if (ep <= 0)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: must be a positive integer, got %2")
                        .arg(optionFlag(field), epText));
    if (ep == 1)
        return;
    const ModelArch &m = s.model;
    const QString why = [&] {
        if (s.engine != Engine::Sglang)
            return QCoreApplication::translate("kvscope::Planner",
                                               "SGLang's; vLLM divides the experts with %1")
                .arg(optionFlag(ScenarioField::EnableExpertParallel));
        if (!m.moe.enabled())
            return QCoreApplication::translate("kvscope::Planner", "%1 has no routed experts").arg(m.name);
        if (s.pipelineParallelSize > 1)
            return QCoreApplication::translate("kvscope::Planner",
                                               "kvscope plans it without pipeline stages");
        const int gpus = sglangTotalGpus(s);
        // initialize_model_parallel (python/sglang/srt/distributed/parallel_state.py):
        // moe_tp_size = tp_size // moe_ep_size; FusedMoE asserts that the routed experts divide
        // over the EP ranks and that moe_intermediate_size divides over moe_tp_size.
        if (gpus % ep != 0)
            return QCoreApplication::translate("kvscope::Planner", "does not divide the %1 %2 GPUs")
                .arg(sglangFlag(ScenarioField::TensorParallelSize))
                .arg(gpus);
        if (m.moe.numExperts % ep != 0)
            return QCoreApplication::translate("kvscope::Planner",
                                               "does not divide %1's %2 routed experts (SGLang's FusedMoE "
                                               "gives every EP rank as many)")
                .arg(m.name)
                .arg(m.moe.numExperts);
        if (m.moe.expertIntermediateSize % (gpus / ep) != 0)
            return QCoreApplication::translate("kvscope::Planner",
                                               "each expert would be split over %1 GPUs, which do not divide "
                                               "moe_intermediate_size %2")
                .arg(gpus / ep)
                .arg(m.moe.expertIntermediateSize);
        return QString();
    }();
    if (!why.isEmpty())
        throw Error(refusal(field, epText, why));
}

QList<int> validExpertParallelSizes(const Scenario &s)
{
    Scenario trial = attentionGroupScenario(s);
    return acceptedSizes(sglangTotalGpus(trial), [&](int ep) {
        trial.expertParallelSize = ep;
        validateSglangExpertParallel(trial);
    });
}

void keepExpertParallelSizeWhereTaken(Scenario &s)
{
    if (!validExpertParallelSizes(s).contains(int(s.expertParallelSize)))
        s.expertParallelSize = 1;
}

ExpertPlacement sglangExpertPlacement(const Scenario &s)
{
    const int gpus = sglangTotalGpus(s);
    const int ep = int(s.expertParallelSize); // validated: divides the GPUs and the experts
    if (s.engine != Engine::Sglang || ep <= 1)
        return {};
    return {gpus / ep, ep, s.model.moe.numExperts / ep};
}

void validateSglangDenseSplits(const Scenario &s)
{
    if (s.moeDenseTpSize < 0)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: must be a positive integer, got %2")
                        .arg(optionFlag(ScenarioField::MoeDenseTpSize))
                        .arg(s.moeDenseTpSize));
    for (const auto &[set, field] : {std::pair{s.moeDenseTpSize > 0, ScenarioField::MoeDenseTpSize},
                                     std::pair{s.enableDpLmHead, ScenarioField::EnableDpLmHead}})
        if (set && s.engine != Engine::Sglang)
            throw Error(QCoreApplication::translate("kvscope::Planner", "%1: SGLang's option; %2 is %3")
                            .arg(optionFlag(field), optionFlag(ScenarioField::Engine), engineName(s.engine)));
    if (s.moeDenseTpSize > 1)
        throw Error(
            refusal(ScenarioField::MoeDenseTpSize, QString::number(s.moeDenseTpSize),
                    QCoreApplication::translate("kvscope::Planner", "SGLang takes only 1 (or none)")));
    if (s.enableDpLmHead && s.dataParallelSize > 1 && !s.enableDpAttention)
        throw Error(QCoreApplication::translate(
                        "kvscope::Planner", "%1: SGLang splits the LM head by attention group only with %2")
                        .arg(optionFlag(ScenarioField::EnableDpLmHead),
                             optionFlag(ScenarioField::EnableDpAttention)));
}

namespace {

/// SGLang's DeepSeek-style model files, which honour both flags (deepseek_v2.py, which Kimi-VL's
/// language model reuses, glm4_moe.py and bailing_moe.py).
const QStringList &sglangDeepseekStyleArchitectures()
{
    static const QStringList archs = {
        QStringLiteral("DeepseekV2ForCausalLM"),  QStringLiteral("DeepseekV3ForCausalLM"),
        QStringLiteral("DeepseekV32ForCausalLM"), QStringLiteral("KimiVLForConditionalGeneration"),
        QStringLiteral("Glm4MoeForCausalLM"),     QStringLiteral("BailingMoeForCausalLM"),
        QStringLiteral("BailingMoeV2ForCausalLM")};
    return archs;
}

} // namespace

bool sglangReplicatesDenseMlps(const ModelArch &m)
{
    return sglangDeepseekStyleArchitectures().contains(m.architecture) ||
           m.architecture == QLatin1String("Ernie4_5_MoeForCausalLM");
}

bool sglangSplitsLmHeadByGroup(const ModelArch &m)
{
    static const QStringList others = {
        QStringLiteral("Qwen2MoeForCausalLM"), QStringLiteral("Qwen3MoeForCausalLM"),
        QStringLiteral("Qwen3NextForCausalLM"), QStringLiteral("GptOssForCausalLM"),
        QStringLiteral("LlamaForCausalLM")};
    return sglangDeepseekStyleArchitectures().contains(m.architecture) || others.contains(m.architecture);
}

bool sglangDpAttention(const Scenario &s)
{
    return s.engine == Engine::Sglang && s.enableDpAttention && s.dataParallelSize > 1;
}

Scenario attentionGroupScenario(const Scenario &s)
{
    if (!sglangDpAttention(s))
        return s;
    Scenario group = s;
    group.tensorParallelSize = s.tensorParallelSize / s.dataParallelSize; // validated: it divides
    return group;
}

int sglangTotalGpus(const Scenario &s)
{
    const std::int64_t ranks = s.engine == Engine::Sglang && s.enableDpAttention ? s.dataParallelSize : 1;
    return int((Checked(s.tensorParallelSize) * std::max<std::int64_t>(1, ranks)).value());
}

void validateDataParallel(const ModelArch &m, std::int64_t tp, std::int64_t pp, std::int64_t dp, bool enabled,
                          Engine engine, bool dpAttention)
{
    const QString dpText = QString::number(dp);
    if (dp <= 0)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: must be a positive integer, got %2")
                        .arg(optionFlag(ScenarioField::DataParallelSize), dpText));
    if (engine == Engine::Sglang)
        validateSglangDataParallel(tp, dp, enabled, dpAttention);
    if (dp > 1 && pp > 1)
        throw Error(refusal(ScenarioField::DataParallelSize, dpText,
                            QCoreApplication::translate("kvscope::Planner",
                                                        "kvscope plans data-parallel ranks without pipeline "
                                                        "stages (%1 %2)")
                                .arg(optionFlag(ScenarioField::PipelineParallelSize), QString::number(pp))));
    constexpr std::int64_t mostRanks = 1024; // beyond any deployment; keeps TP x DP in an int
    if (dp > mostRanks)
        throw Error(refusal(ScenarioField::DataParallelSize, dpText,
                            QCoreApplication::translate("kvscope::Planner", "kvscope plans at most %1 ranks")
                                .arg(mostRanks)));
    // SGLang's experts stay split over the --tp-size GPUs (tp here) whatever the attention groups.
    if (!m.moe.enabled() || engine == Engine::Sglang)
        return;
    const std::int64_t gpus = (Checked(tp) * dp).value();
    if (expertParallelApplies(m, gpus, enabled)) {
        if (gpus > m.moe.numExperts)
            throw Error(QCoreApplication::translate("kvscope::Planner",
                                                    "%1: %2 GPUs (TP x DP) are more than %3's %4 routed "
                                                    "experts: some would hold none")
                            .arg(optionFlag(ScenarioField::EnableExpertParallel))
                            .arg(gpus)
                            .arg(m.name)
                            .arg(m.moe.numExperts));
        return;
    }
    if (dp > 1 && m.moe.expertIntermediateSize % gpus != 0)
        throw Error(refusal(ScenarioField::DataParallelSize, dpText,
                            QCoreApplication::translate(
                                "kvscope::Planner", "without %1 vLLM splits every expert over the %2 GPUs "
                                                    "(TP x DP), which do not divide moe_intermediate_size "
                                                    "%3 of %4")
                                .arg(optionFlag(ScenarioField::EnableExpertParallel))
                                .arg(gpus)
                                .arg(m.moe.expertIntermediateSize)
                                .arg(m.name)));
}

QList<int> validDataParallelSizes(const ModelArch &m, int tp, bool enabled, Engine engine, int max,
                                  bool dpAttention)
{
    return acceptedSizes(max,
                         [&](int dp) { validateDataParallel(m, tp, 1, dp, enabled, engine, dpAttention); });
}

QList<int> validDataParallelSizes(const Scenario &s, int max)
{
    return acceptedSizes(max, [&](int dp) {
        validateDataParallel(s.model, s.tensorParallelSize, s.pipelineParallelSize, dp,
                             s.enableExpertParallel, s.engine, s.enableDpAttention);
    });
}

} // namespace kvscope
