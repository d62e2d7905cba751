// SPDX-License-Identifier: MIT
#include "core/plan/tensorparallel.h"

#include "core/common/error.h"
#include "core/common/scenariofield.h"

namespace kvscope {

void validateTensorParallel(const ModelArch &m, std::int64_t tp)
{
    const QString option = optionFlag(ScenarioField::TensorParallelSize);
    if (tp <= 0)
        throw Error(QStringLiteral("%1: must be a positive integer, got %2").arg(option).arg(tp));
    if (m.numHeads % tp != 0)
        throw Error(QStringLiteral("%1: %2 does not divide num_attention_heads %3 of %4")
                        .arg(option)
                        .arg(tp)
                        .arg(m.numHeads)
                        .arg(m.name));
    if (!m.usesMla() && m.numKvHeads % tp != 0 && tp % m.numKvHeads != 0)
        throw Error(QStringLiteral("%1: %2 neither divides nor is a multiple of num_key_value_heads %3 of %4")
                        .arg(option)
                        .arg(tp)
                        .arg(m.numKvHeads)
                        .arg(m.name));
    const auto checkWidth = [&](std::int64_t width, const char *field) {
        if (width > 0 && width % tp != 0)
            throw Error(QStringLiteral("%1: %2 does not divide %3 %4 of %5")
                            .arg(option)
                            .arg(tp)
                            .arg(QLatin1String(field))
                            .arg(width)
                            .arg(m.name));
    };
    bool hasDense = false;
    for (int i = 0; i < m.numLayers; ++i)
        hasDense = hasDense || !m.isMoeLayer(i);
    if (hasDense)
        checkWidth(m.intermediateSize, "intermediate_size");
    if (m.moe.enabled())
        checkWidth(m.moe.expertIntermediateSize, "moe_intermediate_size");
    // vLLM's MambaStateShapeCalculator divides the recurrent heads exactly.
    if (m.recurrent.kind == RecurrentKind::GatedDeltaNet) {
        checkWidth(m.recurrent.numKeyHeads, "linear_num_key_heads");
        checkWidth(m.recurrent.numValueHeads, "linear_num_value_heads");
    } else if (m.recurrent.kind == RecurrentKind::Mamba2) {
        checkWidth(m.recurrent.numHeads, "mamba_n_heads");
    }
}

QList<int> acceptedSizes(int max, const std::function<void(int)> &validate)
{
    QList<int> sizes;
    for (int size = 1; size <= max; ++size) {
        try {
            validate(size);
            sizes << size;
        } catch (const Error &) {
        }
    }
    return sizes;
}

QList<int> validTensorParallelSizes(const ModelArch &model, int maxGpus)
{
    return acceptedSizes(maxGpus, [&](int tp) { validateTensorParallel(model, tp); });
}

} // namespace kvscope
