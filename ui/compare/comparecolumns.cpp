// SPDX-License-Identifier: MIT
#include "ui/compare/comparecolumns.h"

#include "core/common/error.h"

#include <QCoreApplication>

namespace kvscope {

const QList<ScenarioField> &columnKnobs()
{
    static const QList<ScenarioField> knobs{ScenarioField::Dtype,
                                            ScenarioField::Quantization,
                                            ScenarioField::GroupSize,
                                            ScenarioField::KvCacheDtype,
                                            ScenarioField::TensorParallelSize,
                                            ScenarioField::PipelineParallelSize,
                                            ScenarioField::DataParallelSize,
                                            ScenarioField::EnableExpertParallel,
                                            ScenarioField::EnableEplb,
                                            ScenarioField::EnableDpAttention,
                                            ScenarioField::EnableDpLmHead,
                                            ScenarioField::MoeDenseTpSize,
                                            ScenarioField::ExpertParallelSize,
                                            ScenarioField::SpeculativeConfig,
                                            ScenarioField::MaxLoras,
                                            ScenarioField::MaxLoraRank,
                                            ScenarioField::SharedPrefixLen};
    return knobs;
}

bool isLayoutKnob(ScenarioField knob)
{
    return knob == ScenarioField::TensorParallelSize || knob == ScenarioField::PipelineParallelSize ||
           knob == ScenarioField::DataParallelSize || knob == ScenarioField::EnableExpertParallel ||
           knob == ScenarioField::EnableEplb || knob == ScenarioField::EnableDpAttention ||
           knob == ScenarioField::EnableDpLmHead || knob == ScenarioField::MoeDenseTpSize ||
           knob == ScenarioField::ExpertParallelSize;
}

bool knobAppliesTo(ScenarioField knob, Engine engine)
{
    const ScenarioOption *option = findScenarioOption(fileKey(knob));
    if (!option)
        return true;
    switch (option->engine) {
    case OptionEngine::Vllm:
        return engine == Engine::Vllm;
    case OptionEngine::Sglang:
        return engine == Engine::Sglang;
    default:
        return true;
    }
}

ScenarioValues columnValues(const Scenario &base, const Scenario &column)
{
    ScenarioValues values = differingValues(base, column);
    const ScenarioValues all = scenarioToValues(column);
    for (const ScenarioField knob : columnKnobs())
        if (all.contains(fileKey(knob)) && !isLayoutKnob(knob))
            values.insert(fileKey(knob), all.value(fileKey(knob)));
    // No drafter, no LoRA and no shared prefix are the defaults, which scenarioToValues() leaves
    // out: a column keeps them spelled out like its other knobs, so it does not take up the
    // explorer's drafter, adapters or prefix (both engines plan all three).
    const auto keepDefault = [&](ScenarioField knob, const char *off) {
        if (!values.contains(fileKey(knob)))
            values.insert(fileKey(knob), QLatin1String(off));
    };
    keepDefault(ScenarioField::SpeculativeConfig, "none");
    keepDefault(ScenarioField::MaxLoras, "auto");
    keepDefault(ScenarioField::SharedPrefixLen, "auto");
    return values;
}

QList<Scenario> columnScenarios(const Scenario &base, const QList<ScenarioValues> &columns,
                                const ScenarioResolvers &resolvers)
{
    QList<Scenario> scenarios;
    for (qsizetype i = 0; i < columns.size(); ++i) {
        try {
            scenarios << applyValues(base, columns.at(i), resolvers);
        } catch (const Error &error) {
            throw Error(QCoreApplication::translate("kvscope::CompareView", "Column %1: %2")
                            .arg(i + 1)
                            .arg(error.message()));
        }
    }
    return scenarios;
}

namespace {

QList<ScenarioValues> keptValues(const Scenario &base, const QList<Scenario> &scenarios)
{
    QList<ScenarioValues> values;
    for (const Scenario &scenario : scenarios)
        values << columnValues(base, scenario);
    return values;
}

} // namespace

QList<ScenarioValues> seedColumnValues(const Scenario &base)
{
    return keptValues(base, seedQuestionScenarios(base));
}

QList<ScenarioValues> servingFeatureColumnValues(const Scenario &base)
{
    QList<Scenario> scenarios;
    for (const ComparisonColumn &column : servingFeatureColumns(base))
        scenarios << column.scenario;
    return keptValues(base, scenarios);
}

} // namespace kvscope
