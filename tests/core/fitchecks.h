// SPDX-License-Identifier: MIT
// What every answer of kvscope fit must satisfy, shared by the fit suite and the
// property suite: each row, planned again from its own options, serves the
// query; no smaller valid tensor-parallel size of the same GPU and precisions
// would; its launch line names the model.
#pragma once

#include "core/analysis/fit.h"
#include "core/common/error.h"
#include "core/library/library.h"
#include "core/plan/planner.h"
#include "core/plan/tensorparallel.h"
#include "core/scenario/scenariovalues.h"

#include <QTest>

namespace kvscope::test {

/// The row's scenario as its options say it, planned again from them.
inline MemoryPlan replanned(const FitRow &row)
{
    return planMemory(scenarioFromValues(scenarioToValues(row.scenario), builtinResolvers()));
}

/// QVERIFYs every row of `result` against `q`; returns at the first failure.
inline void verifyFitRows(const FitQuery &q, const FitResult &result)
{
    for (const FitRow &row : result.fits) {
        const MemoryPlan plan = replanned(row);
        QVERIFY2(servesConcurrency(plan, q.concurrency), qPrintable(row.command));
        QCOMPARE(plan.kv.capacityTokens, row.plan.kv.capacityTokens);
        QVERIFY(row.maxConcurrency >= q.concurrency);
        if (q.maxModelLen > 0)
            QCOMPARE(plan.maxModelLen, q.maxModelLen);
        for (const int tp : validTensorParallelSizes(q.base.model, row.plan.tensorParallelSize - 1)) {
            Scenario smaller = row.scenario;
            smaller.tensorParallelSize = tp;
            MemoryPlan smallerPlan;
            try {
                smallerPlan = planMemory(smaller);
            } catch (const Error &) {
                continue; // a layout the row's other sizes rule out (SGLang's attention groups need TP)
            }
            QVERIFY2(!servesConcurrency(smallerPlan, q.concurrency),
                     qPrintable(QStringLiteral("%1 also serves at TP %2").arg(row.command).arg(tp)));
        }
        QVERIFY(row.command.contains(row.scenario.model.hfRepoIds.value(0, row.scenario.model.name)));
    }
}

} // namespace kvscope::test
