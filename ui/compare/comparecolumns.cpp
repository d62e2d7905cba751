// SPDX-License-Identifier: MIT
#include "ui/compare/comparecolumns.h"

#include "core/common/error.h"

#include <QCoreApplication>

namespace kvscope {

const QList<ScenarioField> &columnKnobs()
{
    static const QList<ScenarioField> knobs{ScenarioField::Dtype, ScenarioField::Quantization,
                                            ScenarioField::GroupSize, ScenarioField::KvCacheDtype,
                                            ScenarioField::SpeculativeConfig};
    return knobs;
}

ScenarioValues columnValues(const Scenario &base, const Scenario &column)
{
    ScenarioValues values = differingValues(base, column);
    const ScenarioValues all = scenarioToValues(column);
    for (const ScenarioField knob : columnKnobs())
        if (all.contains(fileKey(knob)))
            values.insert(fileKey(knob), all.value(fileKey(knob)));
    // No drafter is vLLM's default, which scenarioToValues() leaves out: a column keeps it spelled
    // out like its other knobs, so it does not take up the explorer's drafter.
    const QString drafter = fileKey(ScenarioField::SpeculativeConfig);
    if (column.engine == Engine::Vllm && !values.contains(drafter))
        values.insert(drafter, QStringLiteral("none"));
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

QList<ScenarioValues> seedColumnValues(const Scenario &base)
{
    QList<ScenarioValues> values;
    for (const ComparisonColumn &column : seedQuestionColumns(base))
        values << columnValues(base, column.scenario);
    return values;
}

} // namespace kvscope
