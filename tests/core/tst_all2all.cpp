// SPDX-License-Identifier: MIT
// vLLM's all-to-all backends (core/plan/all2all.h): DeepEP's high-throughput kernels keep a
// VLLM_DEEPEP_BUFFER_SIZE_MB NVLink buffer (1,024 MiB by default, vllm/envs.py and
// vllm/distributed/device_communicators/all2all.py), its barrier tail and a 32 MiB workspace
// (LEGACY_NUM_WORKSPACE_BYTES, deepseek-ai/DeepEP csrc/kernels/legacy/compiled.cuh) on every GPU,
// taken with cudaMalloc before the profiling run; only where vLLM runs all-to-all kernels at all
// (FusedMoEParallelConfig.use_all2all_kernels: data-parallel ranks with expert parallelism).
#include "core/common/error.h"
#include "core/plan/all2all.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"
#include "tests/testsupport.h"

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

namespace {

/// DeepSeek-V2-Lite (64 routed experts) on two H100s as two data-parallel ranks with its experts
/// divided: vLLM runs its all-to-all kernels here.
Scenario twoRanks(All2AllBackend backend = All2AllBackend::AllgatherReducescatter)
{
    Scenario s =
        test::layoutScenario(QStringLiteral("deepseek-v2-lite"), QStringLiteral("h100-sxm"), 1, 2, true);
    s.all2allBackend = backend;
    return s;
}

void expectError(const Scenario &s, const QString &fragment)
{
    test::expectErrorFrom([&] { planMemory(s); }, fragment);
}

} // namespace

class TestAll2All : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deepepsBuffersComeOutOfTheCache()
    {
        const MemoryPlan plain = planMemory(twoRanks());
        const MemoryPlan deepep = planMemory(twoRanks(All2AllBackend::DeepepHighThroughput));
        QCOMPARE(plain.all2allBufferBytes, 0);
        // 1,024 MiB + 8 x 4 + 8 x 8 + 8 x 8 B of barrier signals and peer pointers + 32 MiB.
        constexpr std::int64_t buffers = 1'073'741'824LL + 160 + 33'554'432;
        QCOMPARE(deepep.all2allBufferBytes, buffers);
        QCOMPARE(deepep.overheadBytes - plain.overheadBytes, buffers);
        QCOMPARE(plain.kv.availableBytes - deepep.kv.availableBytes, buffers);
        QCOMPARE(deepep.weights.bytesPerGpu, plain.weights.bytesPerGpu);
        QVERIFY2(deepep.notes.join(QLatin1Char('\n')).contains(QStringLiteral("DeepEP's NVLink buffer")),
                 qPrintable(deepep.notes.join(QLatin1Char('\n'))));
    }

    void withoutAllToAllKernelsTheBackendChangesNothing()
    {
        // One rank (tensor parallelism of 2 with EP): vLLM all-reduces as under TP, no all-to-all.
        Scenario s = twoRanks(All2AllBackend::DeepepHighThroughput);
        s.dataParallelSize = 1;
        s.tensorParallelSize = 2;
        QVERIFY(!usesAll2AllKernels(s));
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.all2allBufferBytes, 0);
        QVERIFY2(plan.notes.join(QLatin1Char('\n')).contains(QStringLiteral("changes nothing here")),
                 qPrintable(plan.notes.join(QLatin1Char('\n'))));
        Scenario dense = s;
        dense.model = preset(QStringLiteral("llama-3.1-8b"));
        dense.enableExpertParallel = false;
        QCOMPARE(planMemory(dense).all2allBufferBytes, 0);
    }

    void refusesWhatItDoesNotSize()
    {
        expectError(twoRanks(All2AllBackend::DeepepLowLatency),
                    QStringLiteral("--all2all-backend deepep_low_latency: kvscope does not size"));
        expectError(twoRanks(All2AllBackend::Pplx), QStringLiteral("--all2all-backend pplx"));
        Scenario s = twoRanks(All2AllBackend::DeepepHighThroughput);
        s.tensorParallelSize = 8; // 16 EP GPUs: more than one node of DeepEP's 8 NVLink peers
        expectError(s, QStringLiteral("16 EP GPUs span more than one node of 8"));
        s = twoRanks(All2AllBackend::DeepepHighThroughput);
        s.gpu = resolveGpu(QStringLiteral("mi300x"));
        expectError(s, QStringLiteral("DeepEP runs on NVIDIA GPUs"));
        s = twoRanks(All2AllBackend::DeepepHighThroughput);
        s.engine = Engine::Sglang;
        s.enableExpertParallel = false;
        s.dataParallelSize = 1;
        expectError(s, QStringLiteral("--all2all-backend deepep_high_throughput: vLLM's"));
    }

    void optionsReadAndSpellBack()
    {
        ScenarioValues values{{QStringLiteral("model"), QStringLiteral("deepseek-v2-lite")},
                              {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                              {QStringLiteral("data-parallel-size"), QStringLiteral("2")},
                              {QStringLiteral("enable-expert-parallel"), QStringLiteral("true")},
                              {QStringLiteral("all2all-backend"), QStringLiteral("deepep_high_throughput")}};
        const Scenario s = scenarioFromValues(values, builtinResolvers());
        QCOMPARE(s.all2allBackend, All2AllBackend::DeepepHighThroughput);
        const ScenarioValues back = scenarioToValues(s);
        QCOMPARE(back.value(QStringLiteral("all2all-backend")), QStringLiteral("deepep_high_throughput"));
        QVERIFY(!scenarioToValues(twoRanks()).contains(QStringLiteral("all2all-backend")));
        QVERIFY2(launchLine(s).command().contains(QStringLiteral("--all2all-backend deepep_high_throughput")),
                 qPrintable(launchLine(s).command()));
        QVERIFY(!launchLine(twoRanks()).command().contains(QStringLiteral("--all2all-backend")));
        // Before vLLM 0.11.1 (vllm-project/vllm#26732) the backend was an environment variable.
        Scenario older = s;
        older.vllmVersion = QStringLiteral("0.11.0");
        QVERIFY2(launchLine(older)
                     .caveats.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("VLLM_ALL2ALL_BACKEND=deepep_high_throughput")),
                 qPrintable(launchLine(older).text()));
        QVERIFY(launchLine(s).caveats.isEmpty());
        values.insert(QStringLiteral("all2all-backend"), QStringLiteral("deepep"));
        const QString message = test::errorFrom([&] { scenarioFromValues(values, builtinResolvers()); });
        QVERIFY2(
            message.contains(QStringLiteral("--all2all-backend: must be one of allgather_reducescatter")),
            qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestAll2All)
#include "tst_all2all.moc"
