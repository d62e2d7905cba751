// SPDX-License-Identifier: MIT
#include "core/scenario/measuredmemory.h"

#include "core/scenario/scenario.h"

namespace kvscope {

const QList<ScenarioField> &deploymentFields()
{
    static const QList<ScenarioField> fields{
        ScenarioField::Model,
        ScenarioField::Gpu,
        ScenarioField::Engine,
        ScenarioField::VllmVersion,
        ScenarioField::Dtype,
        ScenarioField::Quantization,
        ScenarioField::GroupSize,
        ScenarioField::TensorParallelSize,
        ScenarioField::PipelineParallelSize,
        ScenarioField::MaxNumSeqs,
        ScenarioField::MaxNumBatchedTokens,
        ScenarioField::MaxLoras,
        ScenarioField::MaxLoraRank,
        ScenarioField::SpeculativeConfig,
    };
    return fields;
}

ScenarioValues deploymentValues(const Scenario &s)
{
    const ScenarioValues all = scenarioToValues(s);
    ScenarioValues values;
    for (const ScenarioField field : deploymentFields())
        if (all.contains(fileKey(field)))
            values.insert(fileKey(field), all.value(fileKey(field)));
    // A release as its number reads ("0.10.1.1" is release 0.10.1).
    const QString version = fileKey(ScenarioField::VllmVersion);
    if (values.contains(version))
        if (const std::optional<EngineVersion> release = parseEngineVersion(values.value(version)))
            values.insert(version, release->text());
    // A preset given its host's memory (--gpu l40s:44.42) is that preset's deployment: what a log measures
    // does not depend on the total.
    if (!s.gpu.presetId.isEmpty())
        values.insert(fileKey(ScenarioField::Gpu), s.gpu.presetId);
    // "auto" loads the checkpoint's own dtype: the same deployment as naming it.
    const QString dtype = fileKey(ScenarioField::Dtype);
    if (values.value(dtype) == QLatin1String("auto") && s.model.checkpointDtype != WeightDtype::Auto)
        values.insert(dtype, dtypeName(s.model.checkpointDtype));
    return values;
}

bool MeasuredMemory::measured() const
{
    return weightsBytes >= 0 || activationBytes >= 0 || nonTorchBytes >= 0 || cudaGraphBytes >= 0 ||
           freeAtLoadBytes >= 0;
}

std::optional<QString> MeasuredMemory::mismatch(const Scenario &s) const
{
    const ScenarioValues current = deploymentValues(s);
    const QString absent = QStringLiteral("default");
    for (const ScenarioField field : deploymentFields()) {
        const QString key = fileKey(field);
        const QString logged = deployment.value(key, absent), planned = current.value(key, absent);
        if (logged != planned)
            return QStringLiteral("%1 %2 (the scenario: %3)").arg(optionFlag(field), logged, planned);
    }
    return std::nullopt;
}

} // namespace kvscope
