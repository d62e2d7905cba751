// SPDX-License-Identifier: MIT
// proposeFixes(): the changes that make a scenario fit, each planned again;
// and, for one that fits, how far it could go.
#include "core/analysis/fixes.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/output/calcjson.h"
#include "core/plan/planner.h"
#include "core/plan/tensorparallel.h"
#include "tests/testsupport.h"

#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace kvscope;

namespace {

Scenario scenario(const QString &model, const QString &gpu, std::int64_t batch, std::int64_t seqLen)
{
    Scenario s;
    s.model = test::preset(model);
    s.gpu = *GpuLibrary::builtin().find(gpu);
    s.batchSize = batch;
    s.seqLen = seqLen;
    return s;
}

QList<Fix> fixesFor(const Scenario &s)
{
    return proposeFixes(s, planMemory(s), GpuLibrary::builtin().presets());
}

/// The test's own reading of a change list, independent of the code under test:
/// the original scenario with each option applied as the command line would.
Scenario applied(Scenario s, const QList<OptionChange> &changes)
{
    for (const OptionChange &change : changes) {
        const ScenarioField option = change.option;
        if (option == ScenarioField::BatchSize)
            s.batchSize = change.value.toInteger();
        else if (option == ScenarioField::SeqLen)
            s.seqLen = change.value.toInteger();
        else if (option == ScenarioField::MaxModelLen)
            s.maxModelLen = change.value.toInteger();
        else if (option == ScenarioField::TensorParallelSize)
            s.tensorParallelSize = int(change.value.toInteger());
        else if (option == ScenarioField::KvCacheDtype)
            s.kvCacheDtype = parseKvCacheDtype(change.value.toString());
        else if (option == ScenarioField::Quantization)
            s.quantization = defaultSpecFor(parseQuantMethod(change.value.toString()));
        else if (option == ScenarioField::Gpu)
            s.gpu = resolveGpu(change.value.toString());
        else if (option == ScenarioField::KvCacheMemoryBytes)
            s.kvCacheMemoryBytes = change.value.toInteger();
        else if (option == ScenarioField::DataParallelSize)
            s.dataParallelSize = change.value.toInteger();
        else if (option == ScenarioField::EnableExpertParallel)
            s.enableExpertParallel = change.value.toBool();
        else
            qFatal("unexpected option %s", qPrintable(optionFlag(option)));
    }
    return s;
}

QList<Fix> ofKind(const QList<Fix> &fixes, FixKind kind)
{
    QList<Fix> found;
    for (const Fix &fix : fixes)
        if (fix.kind == kind)
            found << fix;
    return found;
}

} // namespace

class TestFixes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void weightsAloneOverTheBudget()
    {
        // Llama-3.1-70B in BF16: 70.55e9 parameters x 2 B = 131.4 GiB of weights; one H100's
        // budget is 0.9 x 81,090 MiB = 71.27 GiB. The weights alone are 60 GiB over it.
        Scenario s = scenario(QStringLiteral("llama-3.1-70b"), QStringLiteral("h100-sxm"), 16, 8192);
        // vLLM 0.19's accounting: from 0.21 on the CUDA-graph estimate (1.69 GiB at TP 2) takes the
        // last 1.5 GiB TP 2 leaves, and only TP 4 is proposed.
        s.vllmVersion = QStringLiteral("0.19");
        const MemoryPlan plan = planMemory(s);
        QVERIFY(!plan.weightsFit);
        QCOMPARE(plan.weightsOverBudgetBytes, plan.weights.bytesPerGpu - plan.budgetBytes);
        QVERIFY(plan.weightsOverBudgetBytes > 60 * GiB);
        QCOMPARE(plan.kv.shortfallBytes, plan.weights.bytesPerGpu + plan.activationBytes +
                                             plan.overheadWithGraphsBytes() - plan.budgetBytes);

        const QList<Fix> fixes = fixesFor(s);
        // Nothing left for a cache: neither a smaller batch nor a shorter sequence helps.
        QVERIFY(ofKind(fixes, FixKind::BatchSize).isEmpty());
        QVERIFY(ofKind(fixes, FixKind::SeqLen).isEmpty());
        // 8 KV heads x 128 x 2 (K, V) x 2 B x 80 layers = 320 KiB per token: the batch's
        // 16 x 8,192 tokens take 40 GiB on one GPU. On 2 GPUs the weights (65.7 GiB each)
        // leave under 20 GiB, so TP 2 comes with a smaller batch; on 4 (32.9 GiB of weights,
        // 10 GiB of cache) the batch fits as it is.
        const QList<Fix> tp = ofKind(fixes, FixKind::TensorParallel);
        QCOMPARE(tp.size(), 2);
        QCOMPARE(tp.at(0).scenario.tensorParallelSize, 2);
        QVERIFY(tp.at(0).scenario.batchSize < 16);
        QCOMPARE(tp.at(0).changes.first().option, ScenarioField::TensorParallelSize);
        QCOMPARE(tp.at(0).changes.at(1).option, ScenarioField::BatchSize);
        QCOMPARE(tp.at(1).scenario.tensorParallelSize, 4);
        QCOMPARE(tp.at(1).scenario.batchSize, 16);
        QCOMPARE(tp.at(1).changes.size(), 1);

        // AWQ INT4 (group 128): about a quarter of the BF16 weights; vLLM needs an AWQ checkpoint.
        const QList<Fix> quantized = ofKind(fixes, FixKind::Quantization);
        QVERIFY(!quantized.isEmpty());
        bool awq = false;
        for (const Fix &fix : quantized) {
            QVERIFY(fix.plan.weights.bytesPerGpu < plan.weights.bytesPerGpu);
            const QString method = fix.changes.first().value.toString();
            QCOMPARE(fix.needsQuantizedCheckpoint,
                     method == QLatin1String("awq") || method == QLatin1String("gptq"));
            if (method == QLatin1String("awq")) {
                awq = true;
                QVERIFY(fix.plan.weights.bytesPerGpu < plan.weights.bytesPerGpu * 3 / 10);
            }
        }
        QVERIFY(awq);

        // Larger GPUs, smallest first, each with more memory than the H100.
        const QList<Fix> gpus = ofKind(fixes, FixKind::Gpu);
        QVERIFY(!gpus.isEmpty());
        QVERIFY(gpus.size() <= 3);
        for (qsizetype i = 0; i < gpus.size(); ++i) {
            QVERIFY(gpus.at(i).scenario.gpu.memoryBytes > s.gpu.memoryBytes);
            if (i > 0)
                QVERIFY(gpus.at(i).scenario.gpu.memoryBytes >= gpus.at(i - 1).scenario.gpu.memoryBytes);
        }
    }

    void neverProposesWhatTheEngineRefusesOnTheGpu()
    {
        // Llama-3.1-8B, 8 x 32,768 tokens on a V100 (compute capability 7.0): 32 GiB of cache does
        // not fit. vLLM refuses FP8 weights (Fp8Config: 8.0), AWQ (7.5) and an FP8 KV cache (7.5)
        // there (core/engine/gpusupport.cpp): no proposal may need them. GPTQ (6.0) may.
        const Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("v100-32gb"), 8, 32768);
        const QList<Fix> fixes = fixesFor(s);
        QVERIFY(!ofKind(fixes, FixKind::Quantization).isEmpty());
        for (const Fix &fix : fixes) {
            const QString where = fixKindName(fix.kind);
            QVERIFY2(fix.plan.engineRefusal.isEmpty(),
                     qPrintable(where + QLatin1Char(' ') + fix.plan.engineRefusal));
            QVERIFY2(fix.plan.quantization.method != QuantMethod::Fp8, qPrintable(where));
            QVERIFY2(fix.plan.quantization.method != QuantMethod::Awq, qPrintable(where));
            QVERIFY2(!isFp8(fix.plan.kvCacheDtype) || fix.scenario.gpu.id != s.gpu.id, qPrintable(where));
        }
    }

    // --kv-cache-memory-bytes fixes the pool (vLLM skips its profiled budget: GPUWorker.
    // determine_available_memory, vllm/v1/worker/gpu_worker.py): freeing memory does not grow the
    // cache, so quantized weights and larger GPUs are no fixes; the pool the batch needs is.
    void aFixedPoolIsRaisedNotWorkedAround()
    {
        // Llama-3.1-8B on one H100, 16 x 8,192 tokens of 131,072 B = 16 GiB, in a 10 GiB pool: a
        // 16 GiB pool holds the batch as it is.
        Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), 16, 8192);
        s.kvCacheMemoryBytes = std::int64_t(10) << 30;
        QList<Fix> fixes = fixesFor(s);
        QVERIFY(ofKind(fixes, FixKind::Quantization).isEmpty());
        QVERIFY(ofKind(fixes, FixKind::Gpu).isEmpty());
        QList<Fix> pool = ofKind(fixes, FixKind::KvCacheMemory);
        QCOMPARE(pool.size(), 1);
        QCOMPARE(pool.first().changes.first().value.toInteger(), std::int64_t(16) << 30);
        QCOMPARE(pool.first().scenario.batchSize, 16);
        QVERIFY(pool.first().plan.works());

        // Llama-3.1-70B on four H100s, 64 x 32,768 tokens of 81,920 B a GPU (80 layers x 8 KV heads x
        // 128 x 2 x 2 B / 4) = 160 GiB a GPU: more than an H100 holds. The most it holds, in whole
        // GiB (the GPU's memory less everything before the cache: 40 GiB), and the batch that fits:
        // 40 GiB / (32,768 x 81,920 B = 2.5 GiB) = 16 sequences.
        s = scenario(QStringLiteral("llama-3.1-70b"), QStringLiteral("h100-sxm"), 64, 32768);
        s.tensorParallelSize = 4;
        s.kvCacheMemoryBytes = std::int64_t(10) << 30;
        const MemoryPlan plan = planMemory(s);
        QCOMPARE(plan.wholeGpuKvBytes >> 30, 40);
        fixes = fixesFor(s);
        QVERIFY(ofKind(fixes, FixKind::Quantization).isEmpty());
        QVERIFY(ofKind(fixes, FixKind::Gpu).isEmpty());
        pool = ofKind(fixes, FixKind::KvCacheMemory);
        QCOMPARE(pool.size(), 1);
        QCOMPARE(pool.first().changes.first().value.toInteger(), std::int64_t(40) << 30);
        QCOMPARE(pool.first().scenario.batchSize, 16);
        // Eight GPUs halve each one's share of a token: the same 10 GiB holds twice the sequences.
        const QList<Fix> tp = ofKind(fixes, FixKind::TensorParallel);
        QCOMPARE(tp.size(), 1);
        QCOMPARE(tp.first().scenario.batchSize, 2 * plan.largestBatchThatFits);
    }

    void batchTooLargeOffersTheLargestThatFits()
    {
        // Llama-3.1-8B, 128 KiB per token: 512 x 8,192 tokens would be 512 GiB.
        const Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), 512, 8192);
        const MemoryPlan plan = planMemory(s);
        const QList<Fix> batch = ofKind(fixesFor(s), FixKind::BatchSize);
        QCOMPARE(batch.size(), 1);
        QCOMPARE(batch.first().scenario.batchSize, plan.largestBatchThatFits);
        QVERIFY(!batch.first().limit);
        // FP8 KV halves the cache; at 512 sequences it still does not fit, so it comes with a batch.
        const QList<Fix> kv = ofKind(fixesFor(s), FixKind::KvCacheDtype);
        QCOMPARE(kv.size(), 1);
        QCOMPARE(kv.first().changes.first().value.toString(), QStringLiteral("fp8"));
        QVERIFY(kv.first().scenario.batchSize > plan.largestBatchThatFits);
    }

    void nvfp4WhereFp8WouldCutTheBatch()
    {
        // Llama-3.1-8B on a B200: 32 x 100,000 tokens is 3.2 M tokens of cache; FP8 holds 2.34 M
        // (it would cut the batch), vLLM's NVFP4 cache 4.15 M at 36,864 B a token: the proposal keeps
        // the batch with nvfp4. On an H100 vLLM refuses nvfp4, and FP8 comes with a smaller batch.
        const Scenario b200 = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("b200"), 32, 100'000);
        const QList<Fix> kv = ofKind(fixesFor(b200), FixKind::KvCacheDtype);
        QCOMPARE(kv.size(), 1);
        QCOMPARE(kv.first().changes.first().value.toString(), QStringLiteral("nvfp4"));
        QCOMPARE(kv.first().scenario.batchSize, std::int64_t(32));
        QVERIFY(kv.first().plan.works());

        const Scenario h100 =
            scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), 32, 100'000);
        const QList<Fix> h100Kv = ofKind(fixesFor(h100), FixKind::KvCacheDtype);
        QCOMPARE(h100Kv.size(), 1);
        QCOMPARE(h100Kv.first().changes.first().value.toString(), QStringLiteral("fp8"));
        QVERIFY(h100Kv.first().scenario.batchSize < 32);
    }

    void engineThatWouldNotStartGetsAMaxModelLen()
    {
        // Llama-3.1-8B on an L4: 14.96 GiB of weights leave a few GiB of cache, less than one
        // 131,072-token request (16 GiB at 128 KiB per token); one 2,048-token sequence fits.
        const Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("l4"), 1, 2048);
        const MemoryPlan plan = planMemory(s);
        QVERIFY(plan.fits);
        QVERIFY(!plan.engineStarts);
        const QList<Fix> fixes = ofKind(fixesFor(s), FixKind::MaxModelLen);
        QCOMPARE(fixes.size(), 1);
        QCOMPARE(fixes.first().changes.first().option, ScenarioField::MaxModelLen);
        QCOMPARE(fixes.first().scenario.maxModelLen, plan.kv.maxModelLenThatFits);
        QVERIFY(fixes.first().plan.engineStarts);
    }

    void aFittingScenarioSaysHowFarItGoes()
    {
        const Scenario s = scenario(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), 16, 8192);
        const MemoryPlan plan = planMemory(s);
        const QList<Fix> fixes = fixesFor(s);
        QCOMPARE(fixes.size(), 2);
        for (const Fix &fix : fixes)
            QVERIFY(fix.limit);
        const Fix batch = ofKind(fixes, FixKind::BatchSize).value(0);
        QCOMPARE(batch.scenario.batchSize, plan.largestBatchThatFits);
        // One more sequence is where it stops fitting.
        Scenario beyond = s;
        beyond.batchSize = plan.largestBatchThatFits + 1;
        QVERIFY(!planMemory(beyond).fits);
        // The longest sequence stops at --max-model-len (131,072 tokens): vLLM rejects longer ones.
        const Fix seq = ofKind(fixes, FixKind::SeqLen).value(0);
        QCOMPARE(seq.scenario.seqLen, std::min(plan.largestSeqLenThatFits, plan.maxModelLen));
    }

    void ggufWeightsAreNotRequantized()
    {
        Scenario s = scenario(QStringLiteral("llama-3.1-70b"), QStringLiteral("h100-sxm"), 16, 8192);
        s.model.format = ModelFormat::Gguf;
        s.kvCacheDtype = KvCacheDtype::Float16;
        const QList<Fix> fixes = fixesFor(s);
        QVERIFY(ofKind(fixes, FixKind::Quantization).isEmpty());
    }

    void json()
    {
        const Scenario s = scenario(QStringLiteral("llama-3.1-70b"), QStringLiteral("h100-sxm"), 16, 8192);
        const QList<Fix> fixes = fixesFor(s);
        const QJsonArray array = fixesToJson(fixes);
        QCOMPARE(array.size(), fixes.size());
        for (qsizetype i = 0; i < fixes.size(); ++i) {
            const QJsonObject o = array.at(i).toObject();
            QCOMPARE(o.value(QLatin1String("fits")).toBool(), true);
            QCOMPARE(o.value(QLatin1String("headroom_bytes")).toInteger(), fixes.at(i).plan.headroomBytes);
            const QJsonObject change = o.value(QLatin1String("change")).toObject();
            QCOMPARE(change.size(), fixes.at(i).changes.size());
            for (const OptionChange &c : fixes.at(i).changes)
                QCOMPARE(change.value(optionFlag(c.option)), c.value);
        }
        QCOMPARE(array.at(0).toObject().value(QLatin1String("kind")).toString(),
                 fixKindName(fixes.at(0).kind));
    }

    void everyProposalReallyWorks()
    {
        // Every preset x a small, a large and a very large GPU x a short, a default and a long
        // scenario: each proposal, its changes applied to the scenario and planned again, fits
        // and vLLM starts.
        const QStringList gpus{QStringLiteral("l4"), QStringLiteral("a100-80gb"), QStringLiteral("h200")};
        const struct
        {
            std::int64_t batch, seqLen;
        } sizes[] = {{1, 2048}, {16, 8192}, {64, 32768}};
        int proposals = 0, scenarios = 0;
        for (const ModelArch &model : ModelLibrary::builtin().presets()) {
            for (const QString &gpu : gpus) {
                for (const auto &size : sizes) {
                    Scenario s = scenario(model.id, gpu, size.batch,
                                          std::min(size.seqLen, model.maxPositionEmbeddings));
                    s.tensorParallelSize = 1;
                    const MemoryPlan plan = planMemory(s);
                    ++scenarios;
                    for (const Fix &fix : proposeFixes(s, plan, GpuLibrary::builtin().presets())) {
                        const QString where = QStringLiteral("%1 on %2, %3 x %4: %5")
                                                  .arg(model.id, gpu)
                                                  .arg(s.batchSize)
                                                  .arg(s.seqLen)
                                                  .arg(fixKindName(fix.kind));
                        const MemoryPlan again = planMemory(applied(s, fix.changes));
                        QVERIFY2(again.fits, qPrintable(where));
                        QVERIFY2(again.engineStarts, qPrintable(where));
                        QCOMPARE(again.headroomBytes, fix.plan.headroomBytes);
                        QCOMPARE(fix.limit, plan.fits && plan.engineStarts);
                        ++proposals;
                    }
                    // A --max-model-len a note proposes is one vLLM takes and starts with.
                    for (const QString &note : plan.notes) {
                        static const QRegularExpression proposal(
                            QStringLiteral("--max-model-len ([0-9,]+) would fit"));
                        const QRegularExpressionMatch match = proposal.match(note);
                        if (!match.hasMatch())
                            continue;
                        Scenario shorter = s;
                        shorter.maxModelLen = match.captured(1).remove(QLatin1Char(',')).toLongLong();
                        QVERIFY2(shorter.maxModelLen >= 1, qPrintable(note));
                        QVERIFY2(planMemory(shorter).engineStarts, qPrintable(note));
                        ++proposals;
                    }
                }
            }
        }
        qInfo("%d proposals over %d scenarios", proposals, scenarios);
        QVERIFY(proposals > scenarios);
    }
};

QTEST_APPLESS_MAIN(TestFixes)
#include "tst_fixes.moc"
