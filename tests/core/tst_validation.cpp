// SPDX-License-Identifier: MIT
// kvscope's predictions against public vLLM start-up logs (tests/data/vllm-logs.json,
// each entry with its source URL): the calibration set within 0.5 %, every other
// modelled log within the tolerance of its class or explained as a miss, and
// docs/validation.md exactly what this code computes.
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/engine/runtime.h"
#include "tests/core/validationdoc.h"
#include "tests/core/vllmlogcheck.h"
#include "tests/sourcetree.h"

#include <algorithm>
#include <cmath>

#include <QFile>
#include <QTest>

using namespace kvscope;
using namespace kvscope::validation;

namespace {

/// "weights GiB 64.38 vs 60.78 (-5.59 %, tolerance 5 %)" for every figure out of tolerance.
QStringList figuresOutOfTolerance(const LogCheck &c)
{
    QStringList out;
    for (const Figure *f : c.figures())
        if (!f->within())
            out << QStringLiteral("%1 logged %2, kvscope %3 (%4 %, tolerance %5 %)")
                       .arg(f->label)
                       .arg(*f->logged)
                       .arg(f->predicted, 0, 'f', f->decimals)
                       .arg(f->relativeError() * 100, 0, 'f', 2)
                       .arg(f->tolerance * 100);
    if (!c.startsAsLogged())
        out << QStringLiteral("vLLM %1 start, kvscope says it %2")
                   .arg(*c.loggedStarts ? QStringLiteral("did") : QStringLiteral("did not"),
                        c.plan.engineStarts ? QStringLiteral("would") : QStringLiteral("would not"));
    return out;
}

} // namespace

class TestValidation : public QObject
{
    Q_OBJECT

    QJsonArray m_logs;
    QList<LogCheck> m_checks;

    const LogCheck *check(int id) const
    {
        for (const LogCheck &c : m_checks)
            if (c.id == id)
                return &c;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        try {
            m_logs = readLogs(test::sourceTreePath(QStringLiteral("tests/data/vllm-logs.json")));
            for (const QJsonValue value : std::as_const(m_logs))
                if (value.toObject().contains(QLatin1String("kvscope")))
                    m_checks << checkLog(value.toObject());
        } catch (const Error &error) {
            QFAIL(qPrintable(error.message()));
        }
        QVERIFY(!m_checks.isEmpty());
    }

    void everyLogIsModelledOrSaysWhyNot()
    {
        for (const QJsonValue value : std::as_const(m_logs)) {
            const QJsonObject entry = value.toObject();
            const bool modelled = entry.contains(QLatin1String("kvscope"));
            const QString skip = entry.value(QLatin1String("kvscope_skip")).toString();
            QVERIFY2(modelled != !skip.isEmpty(),
                     qPrintable(QStringLiteral("log %1: needs either a 'kvscope' scenario or a "
                                               "'kvscope_skip' reason, not both")
                                    .arg(entry.value(QLatin1String("id")).toInt())));
            QVERIFY2(!sourceUrl(entry).isEmpty(),
                     qPrintable(QStringLiteral("log %1 has no source URL")
                                    .arg(entry.value(QLatin1String("id")).toInt())));
        }
    }

    void capacityMatchesVllmLogs_data()
    {
        // vLLM 0.19.0 on an H100 80GB, --gpu-memory-utilization 0.95, --max-model-len 8192:
        // the "GPU KV cache size" and "Maximum concurrency" lines of the llm-d-planner
        // sweep logs the activation and non-torch constants were calibrated on.
        QTest::addColumn<int>("id");
        for (int id : calibrationIds())
            QTest::newRow(qPrintable(QStringLiteral("log %1").arg(id))) << id;
    }

    void capacityMatchesVllmLogs()
    {
        QFETCH(int, id);
        const LogCheck *c = check(id);
        QVERIFY2(c, "calibration log missing from tests/data/vllm-logs.json or not modelled");
        QCOMPARE(c->logClass, LogClass::Calibration);
        for (const Figure *f : {&c->kvTokens, &c->concurrency, &c->kvMemory})
            QVERIFY2(f->isLogged(), qPrintable(f->label));
        QVERIFY(qAbs(c->kvTokens.relativeError()) < 0.005);
        QVERIFY(qAbs(c->concurrency.relativeError()) < 0.005);
        QVERIFY2(c->withinTolerance(), qPrintable(figuresOutOfTolerance(*c).join(QStringLiteral("; "))));
        QVERIFY2(c->miss.isEmpty(), "a calibration log cannot be an explained miss");
        QVERIFY(c->plan.engineStarts);
    }

    void modelledLogsAgreeOrAreExplainedMisses_data()
    {
        QTest::addColumn<int>("id");
        for (const LogCheck &c : std::as_const(m_checks))
            QTest::newRow(qPrintable(QStringLiteral("log %1 %2").arg(c.id).arg(c.plan.modelName))) << c.id;
    }

    void modelledLogsAgreeOrAreExplainedMisses()
    {
        QFETCH(int, id);
        const LogCheck &c = *check(id);
        const QStringList out = figuresOutOfTolerance(c);
        if (c.miss.isEmpty())
            QVERIFY2(out.isEmpty(),
                     qPrintable(QStringLiteral("outside the %1 tolerance and not explained: %2")
                                    .arg(className(c.logClass), out.join(QStringLiteral("; ")))));
        else
            QVERIFY2(!out.isEmpty(),
                     "listed as a miss but every figure now agrees: drop its 'miss' explanation");
    }

    void sglangTokenPoolWithinThreePercentOnEightInTenLogs()
    {
        // kvscope's SGLang target (docs/validation.md): max_total_num_tokens within ±3 % on at least 80 % of
        // the public start-up logs (and on at least eight), the same planner formulas for every log.
        QStringList agreeing;
        int logs = 0;
        for (const LogCheck &c : std::as_const(m_checks)) {
            if (c.logClass != LogClass::Sglang || !c.kvTokens.isLogged())
                continue;
            ++logs;
            if (qAbs(c.kvTokens.relativeError()) <= 0.03)
                agreeing << QString::number(c.id);
        }
        QVERIFY2(agreeing.size() >= 8 && agreeing.size() * 10 >= logs * 8,
                 qPrintable(QStringLiteral("SGLang logs within ±3 % on tokens: %1 of %2 (%3)")
                                .arg(agreeing.size())
                                .arg(logs)
                                .arg(agreeing.join(QStringLiteral(", ")))));
    }

    void cudaGraphConstantsAreTheCalibrationMedians()
    {
        // core/engine/runtime.h: the piecewise first capture and the memory per further graph and decoder
        // layer are the medians of what the calibration logs' DEBUG lines print ("Estimated PIECEWISE CUDA
        // graph memory: 138.00 MiB first-capture + (51-1) x 6.00 MiB per-graph", and FULL's).
        QList<double> firstCaptures, perGraphPerLayer;
        for (const int id : calibrationIds()) {
            const LogCheck *c = check(id);
            QVERIFY(c);
            const QJsonObject profile = c->entry.value(QLatin1String("logged"))
                                            .toObject()
                                            .value(QLatin1String("cudagraph_profile_mib"))
                                            .toObject();
            QVERIFY2(profile.contains(QLatin1String("PIECEWISE")), qPrintable(QString::number(id)));
            for (const QString &mode : profile.keys()) {
                const QJsonObject m = profile.value(mode).toObject();
                perGraphPerLayer << m.value(QLatin1String("per_graph_mib")).toDouble() /
                                        c->plan.cudaGraphProfile.layers;
                if (mode == QLatin1String("PIECEWISE"))
                    firstCaptures << m.value(QLatin1String("first_capture_mib")).toDouble();
            }
        }
        QCOMPARE(std::int64_t(std::llround(median(firstCaptures) * MiB)), VllmPiecewiseFirstCaptureBytes);
        QCOMPARE(std::int64_t(std::llround(median(perGraphPerLayer) * MiB)), VllmCudaGraphBytesPerLayer);
    }

    void cudaGraphEstimateAgreesOnLogsItWasNotFittedOn()
    {
        // Where the estimate stands on the logs that print it outside the calibration set (stop 58: median
        // error 9.07 %, 30 of 55 within ±15 %; the medians by GPU size and TP it replaced: 17.6 %, 25 of 55).
        // The sweep's failed gpt-oss-20b start at TP 1 (log 119: 1.30 GiB logged, 0.86 planned) then
        // moved it to 9.49 %, 30 of 56. The first H200 logs (131 to 133, vLLM 0.18, Llama-3.1-70B: 1.03,
        // 1.38 and 1.48 GiB logged, 1.72, 1.98 and 1.98 planned for 51 + 51 graphs of 80 layers) then moved
        // it to 10.38 %, 30 of 59: the per-graph constant fitted on vLLM 0.19's H100 logs over-prices them
        // (the same model at TP 2 on an H100 under 0.19 logs 1.82 to 1.92 GiB, logs 14 and 109).
        QList<double> errors;
        for (const CudaGraphEstimateCheck &r : cudaGraphEstimateChecks(m_checks))
            if (r.log->logClass != LogClass::Calibration)
                errors << std::abs(r.relativeError());
        const int within =
            int(std::count_if(errors.cbegin(), errors.cend(), [](double e) { return e <= 0.15; }));
        QVERIFY2(median(errors) <= 0.104 && within >= 30,
                 qPrintable(QStringLiteral("median %1, %2 of %3 within ±15 %")
                                .arg(median(errors))
                                .arg(within)
                                .arg(errors.size())));
    }

    void heldOutVllmLogsAgreeOnTheKvCache()
    {
        // Where kvscope stands on the vLLM logs it was not calibrated on (stop 57: 48 of 68 within ±1 %,
        // 51 within ±3 %; with Red Hat's vLLM 0.18 logs on H200 and Machete's AWQ zero points, 56 of 83
        // and 60; with a vLLM 0.19.1 AWQ start on an H200, 57 of 84 and 61; with NVLink's memory outside
        // PyTorch only where the all-reduce + RMSNorm fusion runs, 62 and 65; with two first/warm start pairs
        // of Model Runner V2, 62 of 88 and 66; planning the warm ones with V2's own profiling peak, 64 and
        // 67; the target is 90 % and all): a change that loses one fails here.
        const HeldOutKvAgreement heldOut = heldOutKvAgreement(m_checks);
        QVERIFY2(heldOut.withinOnePercent >= 64 && heldOut.withinThreePercent >= 67,
                 qPrintable(QStringLiteral("held-out vLLM logs within ±1 %: %1, ±3 %: %2 of %3")
                                .arg(heldOut.withinOnePercent)
                                .arg(heldOut.withinThreePercent)
                                .arg(heldOut.logs)));
    }

    void documentIsCurrent()
    {
        try {
            const QString stale = checkGeneratedSection(
                validationDocument(test::sourceTreePath(QStringLiteral("docs/validation.md"))),
                validationTables(m_checks, m_logs), QStringLiteral("build/tests/core/tst_validation"));
            QVERIFY2(stale.isEmpty(), qPrintable(stale));
        } catch (const Error &error) {
            QFAIL(qPrintable(error.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
