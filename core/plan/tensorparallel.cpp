// SPDX-License-Identifier: MIT
#include "core/plan/tensorparallel.h"

#include "core/common/error.h"
#include "core/common/scenariofield.h"

namespace kvscope {

namespace {

/// Whether `tp` GPUs split `m` as vLLM requires; when they do not and `why` is given, why not.
/// The sizes a picker offers are checked without the message: the explorer lists them on every slider
/// step, where formatting and throwing a message for each size refused took a tenth of the step.
bool tensorParallelSplits(const ModelArch &m, std::int64_t tp, QString *why)
{
    const QString option = why ? optionFlag(ScenarioField::TensorParallelSize) : QString();
    if (tp <= 0) {
        if (why)
            *why = QStringLiteral("%1: must be a positive integer, got %2").arg(option).arg(tp);
        return false;
    }
    const auto divides = [&](std::int64_t width, const char *field) {
        if (width <= 0 || width % tp == 0)
            return true;
        if (why)
            *why = QStringLiteral("%1: %2 does not divide %3 %4 of %5")
                       .arg(option)
                       .arg(tp)
                       .arg(QLatin1String(field))
                       .arg(width)
                       .arg(m.name);
        return false;
    };
    if (!divides(m.numHeads, "num_attention_heads"))
        return false;
    if (!m.usesMla() && m.numKvHeads % tp != 0 && tp % m.numKvHeads != 0) {
        if (why)
            *why = QStringLiteral("%1: %2 neither divides nor is a multiple of num_key_value_heads %3 of %4")
                       .arg(option)
                       .arg(tp)
                       .arg(m.numKvHeads)
                       .arg(m.name);
        return false;
    }
    bool hasDense = false;
    for (int i = 0; i < m.numLayers && !hasDense; ++i)
        hasDense = !m.isMoeLayer(i);
    if (hasDense && !divides(m.intermediateSize, "intermediate_size"))
        return false;
    if (m.moe.enabled() && !divides(m.moe.expertIntermediateSize, "moe_intermediate_size"))
        return false;
    // vLLM's MambaStateShapeCalculator divides the recurrent heads exactly.
    if (m.recurrent.kind == RecurrentKind::GatedDeltaNet)
        return divides(m.recurrent.numKeyHeads, "linear_num_key_heads") &&
               divides(m.recurrent.numValueHeads, "linear_num_value_heads");
    if (m.recurrent.kind == RecurrentKind::Mamba2)
        return divides(m.recurrent.numHeads, "mamba_n_heads");
    return true;
}

} // namespace

void validateTensorParallel(const ModelArch &m, std::int64_t tp)
{
    QString why;
    if (!tensorParallelSplits(m, tp, &why))
        throw Error(why);
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
    QList<int> sizes;
    for (int tp = 1; tp <= maxGpus; ++tp)
        if (tensorParallelSplits(model, tp, nullptr))
            sizes << tp;
    return sizes;
}

} // namespace kvscope
