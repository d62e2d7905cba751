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

ExpertPlacement expertPlacement(const ModelArch &m, int tp, int dp, bool enabled, int rank)
{
    const int gpus = tp * dp; // validated: at most num_attention_heads x 8 GPUs' worth
    if (!expertParallelApplies(m, gpus, enabled))
        return {gpus, 1, 0};
    return {1, gpus, localExpertCount(m.moe.numExperts, gpus, rank)};
}

int heavierDataParallelRanks(const ModelArch &m, int tp, int dp, bool enabled)
{
    if (!expertParallelApplies(m, std::int64_t(tp) * dp, enabled))
        return 0;
    const int remainder = m.moe.numExperts % (tp * dp);
    return (remainder + tp - 1) / tp; // rank d holds EP ranks d x TP ... d x TP + TP - 1
}

void validateDataParallel(const ModelArch &m, std::int64_t tp, std::int64_t pp, std::int64_t dp, bool enabled,
                          Engine engine)
{
    const QString dpText = QString::number(dp);
    if (dp <= 0)
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: must be a positive integer, got %2")
                        .arg(optionFlag(ScenarioField::DataParallelSize), dpText));
    if (engine == Engine::Sglang && (dp > 1 || enabled))
        throw Error(
            QCoreApplication::translate("kvscope::Planner",
                                        "%1 and %2 are vLLM's; kvscope does not plan SGLang's "
                                        "data-parallel attention or expert parallelism (%3, %4, %5) yet")
                .arg(optionFlag(ScenarioField::DataParallelSize),
                     optionFlag(ScenarioField::EnableExpertParallel), serverFlag(ServerOption::SglangDpSize),
                     serverFlag(ServerOption::SglangEnableDpAttention),
                     serverFlag(ServerOption::SglangEpSize)));
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
    if (!m.moe.enabled())
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

QList<int> validDataParallelSizes(const ModelArch &m, int tp, bool enabled, Engine engine, int max)
{
    return acceptedSizes(max, [&](int dp) { validateDataParallel(m, tp, 1, dp, enabled, engine); });
}

QList<int> validDataParallelSizes(const Scenario &s, int max)
{
    return acceptedSizes(max, [&](int dp) {
        validateDataParallel(s.model, s.tensorParallelSize, s.pipelineParallelSize, dp,
                             s.enableExpertParallel, s.engine);
    });
}

} // namespace kvscope
