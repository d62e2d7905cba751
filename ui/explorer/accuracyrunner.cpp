// SPDX-License-Identifier: MIT
#include "ui/explorer/accuracyrunner.h"

#include "core/common/scenariofield.h"

namespace kvscope {

namespace {

/// The scenario's values estimateAccuracy() depends on: the model and its precisions.
ScenarioValues accuracyInputs(const Scenario &scenario)
{
    const ScenarioValues all = scenarioToValues(scenario);
    ScenarioValues inputs;
    for (const ScenarioField field : {ScenarioField::Model, ScenarioField::Dtype, ScenarioField::Quantization,
                                      ScenarioField::GroupSize, ScenarioField::KvCacheDtype})
        if (all.contains(fileKey(field)))
            inputs.insert(fileKey(field), all.value(fileKey(field)));
    return inputs;
}

} // namespace

AccuracyRunner::AccuracyRunner(QObject *parent)
    : QObject(parent), m_cache(std::make_shared<AccuracyCache>()),
      m_job(this, [this](const JobOutcome<Accuracy> &outcome) {
          if (outcome.result)
              Q_EMIT finished(*outcome.result);
          else
              Q_EMIT failed(outcome.failure.message);
      })
{}

void AccuracyRunner::update(const Scenario &scenario, const MemoryPlan &plan)
{
    ScenarioValues inputs = accuracyInputs(scenario);
    if (m_started > 0 && inputs == m_inputs)
        return;
    m_inputs = std::move(inputs);
    ++m_started;
    m_job.start([scenario, plan, cache = m_cache](const quant::RunControl &control) {
        return estimateAccuracy(scenario, plan, *cache, control);
    });
    Q_EMIT started();
}

} // namespace kvscope
