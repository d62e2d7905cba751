// SPDX-License-Identifier: MIT
#include "core/plan/lora.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/scenario/scenario.h"

#include <QCoreApplication>

namespace kvscope {

namespace {

bool wrappedByLora(const TensorGroup &group)
{
    return group.role == TensorRole::LinearWeight &&
           (group.component == Component::Attention || group.component == Component::Mlp);
}

} // namespace

const QList<std::int64_t> &loraRanks()
{
    static const QList<std::int64_t> ranks = {1, 8, 16, 32, 64, 128, 256, 320, 512};
    return ranks;
}

void validateLora(const Scenario &s)
{
    if (s.maxLoras <= 0)
        return;
    const QString slots = QStringLiteral("%1 %2").arg(optionFlag(ScenarioField::MaxLoras)).arg(s.maxLoras);
    if (s.engine != Engine::Vllm)
        throw Error(
            QCoreApplication::translate("kvscope::Planner", "%1: kvscope sizes vLLM's LoRA slots only")
                .arg(slots));
    if (!loraRanks().contains(s.maxLoraRank)) {
        QStringList ranks;
        for (std::int64_t rank : loraRanks())
            ranks << QString::number(rank);
        throw Error(QCoreApplication::translate("kvscope::Planner", "%1: %2 is not a rank vLLM accepts (%3)")
                        .arg(optionFlag(ScenarioField::MaxLoraRank))
                        .arg(s.maxLoraRank)
                        .arg(ranks.join(QStringLiteral(", "))));
    }
    const ModelArch &m = s.model;
    const QString kind = m.moe.enabled()         ? QStringLiteral("experts")
                         : m.usesMla()           ? QStringLiteral("latent attention")
                         : m.recurrent.enabled() ? QStringLiteral("recurrent layers")
                                                 : QString();
    if (!kind.isEmpty())
        throw Error(
            QCoreApplication::translate("kvscope::Planner",
                                        "%1: %2 has %3, whose LoRA wrappers kvscope does not size yet; it "
                                        "sizes the slots of dense decoders' attention and MLP")
                .arg(slots, m.name, kind));
}

std::int64_t loraBufferBytes(const QList<TensorGroup> &inventory, std::int64_t maxLoras, std::int64_t rank,
                             int dtypeBytes, int tensorParallelSize)
{
    if (maxLoras <= 0)
        return 0;
    Checked elements;
    for (const TensorGroup &group : inventory) {
        if (!wrappedByLora(group))
            continue;
        const LocalShape local = localShape(group, tensorParallelSize);
        elements += (Checked(local.rows) + local.cols) * group.copies;
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
