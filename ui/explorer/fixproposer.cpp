// SPDX-License-Identifier: MIT
#include "ui/explorer/fixproposer.h"

namespace kvscope {

FixProposer::FixProposer(QObject *parent)
    : QObject(parent), m_job(this, [this](const JobOutcome<QList<Fix>> &outcome) {
          if (!outcome.result) {
              Q_EMIT failed(outcome.failure.message);
              return;
          }
          m_fixes = *outcome.result;
          Q_EMIT proposed(m_fixes);
      })
{}

void FixProposer::propose(const Scenario &scenario, const MemoryPlan &plan, const QList<GpuSpec> &gpus)
{
    if (m_started > 0 && scenario == m_scenario && gpus == m_gpus) {
        // The same scenario plans the same: its proposals are on their way, or here they are.
        if (!isRunning())
            Q_EMIT proposed(m_fixes);
        return;
    }
    m_scenario = scenario;
    m_plan = plan;
    m_gpus = gpus;
    ++m_started;
    m_job.start(
        [scenario, plan, gpus](const quant::RunControl &) { return proposeFixes(scenario, plan, gpus); });
}

QList<Fix> FixProposer::settle()
{
    if (m_job.cancel()) {
        m_fixes = proposeFixes(m_scenario, m_plan, m_gpus);
        Q_EMIT proposed(m_fixes);
    }
    return m_fixes;
}

} // namespace kvscope
