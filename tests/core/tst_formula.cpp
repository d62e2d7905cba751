// SPDX-License-Identifier: MIT
// The formula sheet: each line's substituted values, evaluated here from the
// tokens alone, give the line's result, and each result is the plan's figure.
// Structure values are read from the configs (resources/presets/models.json,
// copied from each model's config.json on HuggingFace).
#include "core/analysis/formula.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/plan/planner.h"
#include "core/plan/speedconstants.h"
#include "core/scenario/scenario.h"
#include "core/scenario/speculativeconfig.h"
#include "tests/testsupport.h"

#include <cmath>

#include <QTest>

using namespace kvscope;
using kvscope::test::errorFrom;
using kvscope::test::preset;

namespace {

Scenario scenarioFor(const QString &id, std::int64_t batch = 16, std::int64_t seqLen = 8192, int tp = 1)
{
    Scenario s;
    s.model = preset(id);
    s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
    s.batchSize = batch;
    s.seqLen = seqLen;
    s.tensorParallelSize = tp;
    return s;
}

/// Evaluates a line's substituted form from its tokens: + − × / mod, brackets,
/// floor(), ceil(), min(a, b), max(a, b); terms by their numeric value. Written
/// independently of the core, so a line whose numbers do not give its result fails.
class Evaluator
{
public:
    explicit Evaluator(const FormulaLine &line) : m_line(line)
    {
        for (const FormulaToken &token : line.tokens) {
            if (token.term >= 0) {
                m_atoms << Atom{QString(), line.terms.at(token.term).real};
                continue;
            }
            const QString text = token.text;
            for (qsizetype i = 0; i < text.size();) {
                const QChar c = text.at(i);
                if (c.isSpace()) {
                    ++i;
                } else if (c.isDigit()) {
                    qsizetype j = i;
                    while (j < text.size() && (text.at(j).isDigit() || text.at(j) == QLatin1Char('.')))
                        ++j;
                    m_atoms << Atom{QString(), text.mid(i, j - i).toDouble()};
                    i = j;
                } else if (c.isLetter()) {
                    qsizetype j = i;
                    while (j < text.size() && text.at(j).isLetter())
                        ++j;
                    m_atoms << Atom{text.mid(i, j - i), 0};
                    i = j;
                } else {
                    m_atoms << Atom{QString(c), 0};
                    ++i;
                }
            }
        }
    }

    double value()
    {
        const double v = sum();
        if (m_at != m_atoms.size())
            qFatal("%s: unparsed tokens", qPrintable(m_line.name));
        return v;
    }

private:
    struct Atom
    {
        QString op; ///< empty: a number
        double number;
    };

    bool is(const char *op) const
    {
        return m_at < m_atoms.size() && m_atoms.at(m_at).op == QString::fromUtf8(op);
    }
    void expect(const char *op)
    {
        if (!is(op))
            qFatal("%s: expected '%s'", qPrintable(m_line.name), op);
        ++m_at;
    }

    double sum()
    {
        double v = product();
        while (is("+") || is("−")) {
            const bool plus = is("+");
            ++m_at;
            v = plus ? v + product() : v - product();
        }
        return v;
    }

    double product()
    {
        double v = factor();
        while (is("×") || is("/") || is("mod")) {
            const QString op = m_atoms.at(m_at++).op;
            const double rhs = factor();
            v = op == QStringLiteral("×") ? v * rhs : op == QLatin1String("/") ? v / rhs : std::fmod(v, rhs);
        }
        return v;
    }

    double factor()
    {
        if (m_at >= m_atoms.size())
            qFatal("%s: formula ends early", qPrintable(m_line.name));
        const Atom atom = m_atoms.at(m_at++);
        if (atom.op.isEmpty())
            return atom.number;
        if (atom.op == QLatin1String("(")) {
            const double v = sum();
            expect(")");
            return v;
        }
        expect("(");
        const double a = sum();
        if (atom.op == QLatin1String("floor") || atom.op == QLatin1String("ceil")) {
            expect(")");
            return atom.op == QLatin1String("floor") ? std::floor(a) : std::ceil(a);
        }
        expect(",");
        const double b = sum();
        expect(")");
        if (atom.op == QLatin1String("min"))
            return std::min(a, b);
        if (atom.op == QLatin1String("max"))
            return std::max(a, b);
        qFatal("%s: unknown function %s", qPrintable(m_line.name), qPrintable(atom.op));
    }

    const FormulaLine &m_line;
    QList<Atom> m_atoms;
    qsizetype m_at = 0;
};

const FormulaLine &lineOf(const FormulaSheet &sheet, const char *name)
{
    const FormulaLine *line = sheet.line(QLatin1String(name));
    if (!line)
        qFatal("no line %s", name);
    return *line;
}

const FormulaTerm &termOf(const FormulaLine &line, const char *symbol)
{
    for (const FormulaTerm &term : line.terms)
        if (term.symbol == QLatin1String(symbol))
            return term;
    qFatal("%s has no term %s", qPrintable(line.name), symbol);
}

} // namespace

/// Every line's terms, evaluated, give the line's result.
void verifyLinesAddUp(const FormulaSheet &sheet)
{
    QVERIFY(!sheet.lines.isEmpty());
    for (const FormulaLine &line : sheet.lines) {
        if (line.result.value < 0)
            continue; // past 2^63: no number to compare
        const double expected = line.result.real;
        const double got = Evaluator(line).value();
        QVERIFY2(std::abs(got - expected) <= 1e-9 * std::max(1.0, std::abs(expected)),
                 qPrintable(QStringLiteral("%1: %2 gives %3, the line says %4")
                                .arg(line.text())
                                .arg(line.substituted())
                                .arg(got, 0, 'f', 6)
                                .arg(expected, 0, 'f', 6)));
        // Symbols and values have the same shape: one per term.
        QCOMPARE(line.symbolic().isEmpty(), line.substituted().isEmpty());
    }
}

class TestFormula : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyLineOfEveryPresetAddsUp_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("tp");
        for (const ModelArch &m : ModelLibrary::builtin().presets()) {
            QTest::newRow(qPrintable(m.id)) << m.id << 1;
            const QList<int> sizes = {2, 4, 8};
            for (int tp : sizes)
                if (errorFrom([&] { planMemory(scenarioFor(m.id, 16, 8192, tp)); }).isNull()) {
                    QTest::newRow(qPrintable(m.id + QStringLiteral(" tp") + QString::number(tp)))
                        << m.id << tp;
                    break;
                }
        }
    }

    void everyLineOfEveryPresetAddsUp()
    {
        QFETCH(QString, id);
        QFETCH(int, tp);
        const Scenario s = scenarioFor(id, 16, 8192, tp);
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        if (QTest::currentTestFailed())
            return;
        // Every result that is a plan figure is the plan's figure.
        QCOMPARE(lineOf(sheet, "kv_bytes_per_token").result.value, plan.kv.bytesPerToken);
        QCOMPARE(lineOf(sheet, "kv_bytes_per_layer").result.value, plan.kv.bytesPerTokenPerLayer);
        QCOMPARE(lineOf(sheet, "kv_cache_bytes").result.value, plan.kv.cacheBytes);
        QCOMPARE(lineOf(sheet, "blocks_per_sequence").result.value, plan.kv.blocksPerSequence);
        QCOMPARE(lineOf(sheet, "page_bytes").result.value, plan.kv.pageBytes);
        QCOMPARE(lineOf(sheet, "budget").result.value, plan.budgetBytes);
        QCOMPARE(lineOf(sheet, "available").result.value, plan.kv.availableBytes);
        QCOMPARE(lineOf(sheet, "num_gpu_blocks").result.value, plan.kv.numGpuBlocks);
        QCOMPARE(lineOf(sheet, "kv_capacity_tokens").result.value, plan.kv.capacityTokens);
        QCOMPARE(lineOf(sheet, "blocks_per_request").result.value, plan.kv.blocksPerMaxRequest);
        QCOMPARE(lineOf(sheet, "max_concurrency").result.real, plan.kv.maxConcurrency);
        QCOMPARE(lineOf(sheet, "headroom").result.value, plan.headroomBytes);
        QCOMPARE(lineOf(sheet, "weights_bytes").result.value, plan.weights.bytesPerGpu);
        QCOMPARE(lineOf(sheet, "bits_per_weight").result.real, plan.weights.bitsPerWeight);
    }

    void aSlidingModelsPipelineStageKeepsTheModelsGroups()
    {
        // Gemma 3 1B over three stages: each keeps the whole model's 7 groups (1 full, 6 sliding), a block
        // two pages on each (tests/core/tst_pipeline.cpp works them out); the lines count those groups.
        Scenario s = scenarioFor(QStringLiteral("gemma-3-1b"), 16, 8192, 1);
        s.pipelineParallelSize = 3;
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        const FormulaLine &blocks = lineOf(sheet, "blocks_per_sequence");
        QCOMPARE(termOf(blocks, "full_groups").value, std::int64_t(1));
        QCOMPARE(termOf(blocks, "sliding_groups").value, std::int64_t(6));
        QCOMPARE(termOf(lineOf(sheet, "kv_cache_bytes"), "group_size").value, std::int64_t(2));
    }

    void dataParallelRanksAddTheirCaches()
    {
        // DeepSeek-V2-Lite over three ranks with its 64 experts divided (22, 21, 21): one rank
        // holds the most, two an expert fewer a layer and more tokens.
        Scenario s = scenarioFor(QStringLiteral("deepseek-v2-lite"), 16, 4096, 1);
        s.dataParallelSize = 3;
        s.enableExpertParallel = true;
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        const FormulaLine &deployment = lineOf(sheet, "deployment_kv_capacity_tokens");
        QCOMPARE(deployment.result.value, plan.deploymentCapacityTokens);
        QCOMPARE(termOf(deployment, "lighter_ranks").value, std::int64_t(2));
        QVERIFY(termOf(deployment, "lighter_rank_tokens").value > plan.kv.capacityTokens);
        // The batch in the cache's line is the rank's share: 16 over 3 ranks is 6.
        QCOMPARE(termOf(lineOf(sheet, "kv_cache_bytes"), "batch_size").value, std::int64_t(6));
        // Evenly divided ranks: the rank's tokens times the ranks.
        s.model = preset(QStringLiteral("qwen3-30b-a3b"));
        s.dataParallelSize = 2; // 128 experts: 64 each
        const MemoryPlan even = planMemory(s);
        const FormulaSheet evenSheet = formulaSheet(s, even);
        verifyLinesAddUp(evenSheet);
        QCOMPARE(lineOf(evenSheet, "deployment_kv_capacity_tokens").symbolic(),
                 QStringLiteral("kv_capacity_tokens × data_parallel_size"));
        // Speed: a rank's step, its token exchange a term of it, and the deployment's tokens a second
        // the whole batch over that step; the engine's per-sequence work is the rank's share's.
        const FormulaLine &step = lineOf(evenSheet, "decode_step");
        QVERIFY2(step.symbolic().contains(QStringLiteral("all_to_all")), qPrintable(step.symbolic()));
        QCOMPARE(termOf(lineOf(evenSheet, "all_to_all"), "expert_exchanges").value, std::int64_t(96));
        QCOMPARE(termOf(lineOf(evenSheet, "engine_overhead"), "rank_sequences").value, std::int64_t(8));
        QCOMPARE(termOf(lineOf(evenSheet, "decode_tokens_per_second"), "batch_size").value, std::int64_t(16));
    }

    void theLoadBalancersStateIsATermOfTheWeights()
    {
        // DeepSeek-V3 on 8 H200s with EP and 32 redundant experts: the balancer's state
        // (1,774,604,032 B, tst_eplb's hand figures) beside the parameters, which hold 36 experts a layer.
        Scenario s = scenarioFor(QStringLiteral("deepseek-v3"), 16, 8192, 8);
        s.gpu = resolveGpu(QStringLiteral("h200"));
        s.enableExpertParallel = true;
        s.enableEplb = true;
        s.eplb.numRedundantExperts = 32;
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        const FormulaLine &weights = lineOf(sheet, "weights_bytes");
        QCOMPARE(termOf(weights, "eplb_state").value, std::int64_t(1'774'604'032));
        QCOMPARE(termOf(weights, "parameter_bytes_per_gpu").value, plan.weights.parameterBytesPerGpu());
    }

    void hoppersSecondCopyOfTheMxfp4ScalesIsATermOfTheWeights()
    {
        // gpt-oss-120b on an H100: the Triton path's swizzled copy of the expert scales and the float32
        // biases (3,795,517,440 B, tst_engines' hand figures) beside the parameters, which it is not part of.
        Scenario s = scenarioFor(QStringLiteral("gpt-oss-120b"), 16, 8192, 1);
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        const FormulaLine &weights = lineOf(sheet, "weights_bytes");
        QCOMPARE(termOf(weights, "mxfp4_scale_copy").value, std::int64_t(3'795'517'440));
        QCOMPARE(termOf(weights, "parameter_bytes_per_gpu").value,
                 plan.weights.bytesPerGpu - plan.weights.buffersBytes - plan.weights.loadSlackBytes -
                     std::int64_t(3'795'517'440));
        // vLLM's load counts the caching allocator's whole blocks: a term of their own.
        QVERIFY(plan.weights.loadSlackBytes > 0);
        QCOMPARE(termOf(weights, "allocator_segments").value, plan.weights.loadSlackBytes);
    }

    void theOverheadSaysWhenTheAllReduceFusionHoldsIt()
    {
        // Llama-3.1-8B on two H100s under vLLM 0.19 fuses the all-reduce with the RMSNorm
        // (vllm-project/vllm#34299): the overhead term is NVLink's 2,120 MiB and says what holds it.
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"), 16, 8192, 1);
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.tensorParallelSize = 2;
        s.vllmVersion = QStringLiteral("0.19");
        const auto overhead = [](const Scenario &scenario) {
            return termOf(lineOf(formulaSheet(scenario, planMemory(scenario)), "available"), "overhead");
        };
        QCOMPARE(overhead(s).value, 2120 * MiB);
        QVERIFY2(overhead(s).field.contains(QLatin1String("all-reduce + RMSNorm fusion")),
                 qPrintable(overhead(s).field));
        s.vllmVersion = QStringLiteral("0.15");
        QCOMPARE(overhead(s).value, 133 * MiB);
        QCOMPARE(overhead(s).field, QStringLiteral("CUDA context, NCCL buffers"));
    }

    void sglangsLoadIsItsTermsWithTheAllocatorsSegments()
    {
        // Qwen3-32B at --tp-size 4 under SGLang (docs/validation.md, log 49): the weights line names the
        // caching allocator's segments beside the tensors and SGLang's float32 rotary table.
        Scenario s = scenarioFor(QStringLiteral("qwen3-32b"), 16, 8192, 4);
        s.engine = Engine::Sglang;
        s.gpu = resolveGpu(QStringLiteral("rtx-5090"));
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        const FormulaLine &weights = lineOf(sheet, "weights_bytes");
        QVERIFY(plan.weights.loadSlackBytes > 0);
        QCOMPARE(termOf(weights, "allocator_segments").value, plan.weights.loadSlackBytes);
        QCOMPARE(termOf(weights, "rotary_buffer_bytes").value, 40'960LL * 128 * 4);
        QCOMPARE(termOf(weights, "parameter_bytes_per_gpu").value,
                 plan.weights.bytesPerGpu - plan.weights.loadSlackBytes - 40'960LL * 128 * 4);
    }

    void servingFeaturesAreTermsOfTheirLines()
    {
        // Llama-3.1-8B on one H100 with 4 LoRA slots of rank 64, 64 GiB of CPU offloading and a
        // shared 4,096-token prefix at --max-model-len 8192 (tst_planner's hand figures).
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"));
        s.maxLoras = 4;
        s.maxLoraRank = 64;
        s.kvOffloadingMilliGiB = 64'000;
        s.sharedPrefixLen = 4096;
        s.maxModelLen = 8192;
        // ... and the EAGLE-3 drafter: its weights and its layer in the pool, 6 slots a request.
        s.speculative = parseSpeculativeConfig(
            QStringLiteral(
                R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})"),
            QStringLiteral("--speculative-config"), resolveDraftModel);
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        const FormulaLine &weights = lineOf(sheet, "weights_bytes");
        QCOMPARE(termOf(weights, "lora_buffers").value, std::int64_t(1'342'177'280));
        QCOMPARE(termOf(weights, "draft_weights").value, std::int64_t(850'159'616));
        // The step with the drafter, term by term, and its tokens a second (verifyLinesAddUp above).
        QVERIFY(plan.speed.speculative);
        QCOMPARE(lineOf(sheet, "speculative_step").result.real, plan.speed.speculative->stepSeconds);
        QCOMPARE(lineOf(sheet, "speculative_tokens_per_second").result.real,
                 plan.speed.speculative->tokensPerSecond);
        QCOMPARE(termOf(lineOf(sheet, "speculative_step"), "per_draft_pass").real,
                 calibratedSpeedConstants().draftPassSeconds);
        QCOMPARE(lineOf(sheet, "kv_bytes_per_token").result.value, std::int64_t(135'168));
        QCOMPARE(weights.result.value, plan.weights.bytesPerGpu);
        const FormulaLine &concurrency = lineOf(sheet, "max_concurrency");
        QCOMPARE(concurrency.symbolic(), QStringLiteral("(num_gpu_blocks − shared_prefix_blocks) / "
                                                        "(blocks_per_request − shared_prefix_blocks)"));
        QCOMPARE(termOf(concurrency, "shared_prefix_blocks").value, std::int64_t(256));
        QCOMPARE(concurrency.result.real, plan.kv.maxConcurrency);
        // The prefill computes the prompt after the prefix's 4,096 cached tokens (256 blocks of 16).
        const FormulaLine &computed = lineOf(sheet, "computed_prompt_tokens");
        QCOMPARE(termOf(computed, "prefill_cached_tokens").value, std::int64_t(4096));
        QCOMPARE(computed.result.value, plan.speed.promptLen - 4096);
        // 64 GiB in blocks of 16 x 135,168 B (the drafter's layer among them): 31,775 blocks, 508,400 tokens.
        QCOMPARE(lineOf(sheet, "cpu_kv_capacity_tokens").result.value, std::int64_t(508'400));

        // A fixed pool: vLLM takes the 10 GiB as given (81,920 tokens of 131,072 B).
        Scenario fixed = scenarioFor(QStringLiteral("llama-3.1-8b"));
        fixed.kvCacheMemoryBytes = std::int64_t(10) << 30;
        const MemoryPlan fixedPlan = planMemory(fixed);
        const FormulaSheet fixedSheet = formulaSheet(fixed, fixedPlan);
        verifyLinesAddUp(fixedSheet);
        QCOMPARE(lineOf(fixedSheet, "available").symbolic(), QStringLiteral("kv_cache_memory_bytes"));
        QCOMPARE(lineOf(fixedSheet, "budget").result.value, fixedPlan.budgetBytes);
        QCOMPARE(lineOf(fixedSheet, "kv_capacity_tokens").result.value, std::int64_t(81'920));
    }

    void cudaGraphsLeaveTheBudgetFromVllm021()
    {
        // vLLM 0.21 takes its CUDA-graph estimate out of the budget: 0.84 GiB for this model on an H100 at
        // TP 1 (tests/testsupport.h).
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"));
        s.vllmVersion = QStringLiteral("0.21");
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan); // lineOf() refers into it
        const FormulaLine &available = lineOf(sheet, "available");
        QCOMPARE(available.symbolic(),
                 QStringLiteral("budget − weights − activations − overhead − cuda_graphs"));
        QCOMPARE(termOf(available, "cuda_graphs").value, test::Llama8bH100CudaGraphEstimateBytes);
        QCOMPARE(available.result.value, plan.kv.availableBytes);
        // The estimate has its own line, as vLLM's profile makes it (core/plan/cudagraphmemory.h): the first
        // FULL capture's split buffers, then 50 + 50 graphs of 32 layers at 192 KiB.
        verifyLinesAddUp(sheet);
        const FormulaLine &graphs = lineOf(sheet, "cuda_graphs");
        QCOMPARE(graphs.symbolic(),
                 QStringLiteral("first_capture + (piecewise_graphs − 1 + full_graphs − 1) × "
                                "layers × graph_bytes_per_layer"));
        QCOMPARE(termOf(graphs, "first_capture").value, std::int64_t(274'726'912));
        QCOMPARE(termOf(graphs, "piecewise_graphs").value, std::int64_t(51));
        QCOMPARE(termOf(graphs, "full_graphs").value, std::int64_t(51));
        QCOMPARE(termOf(graphs, "layers").value, std::int64_t(32));
        QCOMPARE(termOf(graphs, "graph_bytes_per_layer").value, 192 * KiB);
        QCOMPARE(graphs.result.value, test::Llama8bH100CudaGraphEstimateBytes);
    }

    void sglangBudgetIsItsStaticShareOfWhatIsFree()
    {
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"));
        s.engine = Engine::Sglang;
        s.memFractionStaticPpm = 850'000;
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        QCOMPARE(lineOf(sheet, "budget").symbolic(),
                 QStringLiteral("(gpu_memory − preload) × mem_fraction_static"));
        QCOMPARE(termOf(lineOf(sheet, "budget"), "mem_fraction_static").option,
                 std::optional(ScenarioField::MemFractionStatic));
        QCOMPARE(lineOf(sheet, "available").symbolic(), QStringLiteral("budget − weights"));
        QCOMPARE(lineOf(sheet, "budget").result.value, plan.budgetBytes);
        // Every note is about SGLang, with SGLang's flag names: none says vLLM.
        for (const FormulaLine &line : sheet.lines)
            QVERIFY2(!line.note.contains(QStringLiteral("vLLM")),
                     qPrintable(line.name + QStringLiteral(": ") + line.note));
        QVERIFY(lineOf(sheet, "page_bytes").note.contains(QStringLiteral("SGLang")));
        QVERIFY2(lineOf(sheet, "max_concurrency").note.contains(QStringLiteral("--context-length")),
                 qPrintable(lineOf(sheet, "max_concurrency").note));
    }

    void sglangFp4WorkspaceIsATermOfThePool()
    {
        // SGLang's FP4 pool counts 8 x 128 x 2 = 2,048 B of dequantization workspace a token beside the
        // layers' 36,864 (PoolConfigurator._compute_cell_size): in the pool's blocks and the cache.
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"));
        s.engine = Engine::Sglang;
        s.kvCacheDtype = KvCacheDtype::Fp4MxBlock16;
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        QCOMPARE(
            lineOf(sheet, "num_gpu_blocks").symbolic(),
            QStringLiteral("floor(available / (block_size × kv_bytes_per_layer × group_size + block_size × "
                           "dequant_workspace_bytes))"));
        QCOMPARE(termOf(lineOf(sheet, "num_gpu_blocks"), "dequant_workspace_bytes").value,
                 std::int64_t(2048));
        QCOMPARE(lineOf(sheet, "num_gpu_blocks").result.value, plan.kv.numGpuBlocks);
        QCOMPARE(lineOf(sheet, "kv_cache_bytes").result.value, plan.kv.cacheBytes);
        QCOMPARE(plan.kv.cacheBytes, std::int64_t(16) * 8192 * 38'912);
    }

    void sglangPoolsFollowItsLayout_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("cache");
        // gpt-oss: SGLang's hybrid SWA pool, a window pool of 0.8 of the full pool's tokens.
        QTest::newRow("split") << "gpt-oss-120b" << 1
                               << "ceil(batch_size × blocks_per_sequence × (full_layers × page_bytes + "
                                  "swa_full_tokens_ratio × window_layers × page_bytes))";
        // Gemma 3: one pool that keeps every window token.
        QTest::newRow("one pool") << "gemma-3-27b" << 1
                                  << "batch_size × blocks_per_sequence × group_size × page_bytes";
        // Qwen3-Next: the recurrent states in a pool of their own, sized before the KV pool.
        QTest::newRow("state pool") << "qwen3-next-80b-a3b" << 4
                                    << "batch_size × blocks_per_sequence × group_size × page_bytes";
    }

    void sglangPoolsFollowItsLayout()
    {
        QFETCH(QString, model);
        QFETCH(int, tp);
        QFETCH(QString, cache);
        Scenario s = scenarioFor(model, 16, 8192, tp);
        s.engine = Engine::Sglang;
        s.maxModelLen = 32768;
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        verifyLinesAddUp(sheet);
        QCOMPARE(lineOf(sheet, "kv_cache_bytes").symbolic(), cache);
        QCOMPARE(lineOf(sheet, "kv_cache_bytes").result.value, plan.kv.cacheBytes);
        QCOMPARE(lineOf(sheet, "blocks_per_sequence").result.value, plan.kv.blocksPerSequence);
        QCOMPARE(lineOf(sheet, "num_gpu_blocks").result.value, plan.kv.numGpuBlocks);
        QCOMPARE(lineOf(sheet, "kv_capacity_tokens").result.value, plan.kv.capacityTokens);
        QCOMPARE(lineOf(sheet, "blocks_per_request").result.value, plan.kv.blocksPerMaxRequest);
        QCOMPARE(lineOf(sheet, "max_concurrency").result.real, plan.kv.maxConcurrency);
        QCOMPARE(lineOf(sheet, "available").result.value, plan.kv.availableBytes);
        const FormulaLine *statePool = sheet.line(QLatin1String("state_pool_slots"));
        QCOMPARE(statePool != nullptr, plan.kv.statePoolSlots > 0);
        if (statePool)
            QCOMPARE(statePool->result.value, plan.kv.statePoolSlots);
        const FormulaLine *windowPool = sheet.line(QLatin1String("swa_pool_tokens"));
        QCOMPARE(windowPool != nullptr, plan.kv.swaPoolRatioPpm > 0);
        if (windowPool)
            QCOMPARE(windowPool->result.value, plan.kv.swaPoolTokens);
    }

    void llamaAsTheUsualFormulaWritesIt()
    {
        // Llama-3.1-8B config.json: 32 layers, 8 KV heads, head_dim 4096 / 32 = 128; BF16 = 2 bytes.
        // vLLM 0.19's accounting (its logs calibrated the figures below); 0.21 adds CUDA graphs (below).
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"));
        s.vllmVersion = QStringLiteral("0.19");
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        const FormulaLine &usual = lineOf(sheet, "total_bytes");
        QCOMPARE(usual.symbolic(), QStringLiteral("batch_size × sequence_length × num_layers × 2 × "
                                                  "num_key_value_heads × head_dim × precision_bytes"));
        QCOMPARE(usual.substituted(), QStringLiteral("16 × 8,192 × 32 × 2 × 8 × 128 × 2"));
        QCOMPARE(usual.result.value, 16LL * 8192 * 32 * 2 * 8 * 128 * 2);
        QCOMPARE(usual.result.text, QStringLiteral("17,179,869,184 B (16.00 GiB)"));
        // 8,192 is a whole number of 16-token blocks: vLLM allocates exactly the formula.
        QCOMPARE(lineOf(sheet, "kv_cache_bytes").result.value, usual.result.value);
        // Each value says which option sets it.
        QCOMPARE(termOf(usual, "batch_size").option, std::optional(ScenarioField::BatchSize));
        QCOMPARE(termOf(usual, "sequence_length").option, std::optional(ScenarioField::SeqLen));
        QCOMPARE(termOf(usual, "num_key_value_heads").option, std::optional(ScenarioField::Model));
        QCOMPARE(termOf(usual, "num_key_value_heads").field, QStringLiteral("num_key_value_heads"));
        QCOMPARE(termOf(usual, "precision_bytes").option, std::optional(ScenarioField::KvCacheDtype));

        // vLLM's own accounting on an H100 (81,090 MiB as CUDA reports it).
        QCOMPARE(lineOf(sheet, "budget").substituted(), QStringLiteral("79.19 GiB × 0.90"));
        QCOMPARE(lineOf(sheet, "budget").result.text, QStringLiteral("71.27 GiB"));
        QCOMPARE(termOf(lineOf(sheet, "budget"), "gpu_memory_utilization").option,
                 std::optional(ScenarioField::GpuMemoryUtilization));
        QCOMPARE(lineOf(sheet, "available").symbolic(),
                 QStringLiteral("budget − weights − activations − overhead"));
        QCOMPARE(lineOf(sheet, "num_gpu_blocks").symbolic(),
                 QStringLiteral("floor(available / (block_size × kv_bytes_per_layer × group_size))"));
        QCOMPARE(lineOf(sheet, "num_gpu_blocks").substituted(),
                 QStringLiteral("floor(54.13 GiB / (16 × 4,096 B × 32))"));
        QCOMPARE(lineOf(sheet, "kv_capacity_tokens").substituted(), QStringLiteral("27,716 × 16"));
        QCOMPARE(lineOf(sheet, "blocks_per_request").substituted(), QStringLiteral("ceil(131,072 / 16)"));
        QCOMPARE(lineOf(sheet, "max_concurrency").result.text, QStringLiteral("3.38"));
    }

    void tensorParallelHeadsPerGpu()
    {
        // Llama-3.1-70B: 8 KV heads over 4 GPUs, 2 each.
        const Scenario s = scenarioFor(QStringLiteral("llama-3.1-70b"), 16, 8192, 4);
        const FormulaSheet sheet = formulaSheet(s, planMemory(s));
        const FormulaLine &heads = lineOf(sheet, "kv_heads_per_gpu");
        QCOMPARE(heads.substituted(), QStringLiteral("max(1, 8 / 4)"));
        QCOMPARE(heads.result.value, 2);
        QCOMPARE(termOf(heads, "tensor_parallel_size").option,
                 std::optional(ScenarioField::TensorParallelSize));
        QCOMPARE(lineOf(sheet, "kv_bytes_per_layer").substituted(), QStringLiteral("2 × 2 × 128 × 2"));
    }

    void deepSeekMlaLatent()
    {
        // DeepSeek-V3 config.json: 61 layers, kv_lora_rank 512, qk_rope_head_dim 64.
        const Scenario s = scenarioFor(QStringLiteral("deepseek-v3"), 16, 8192, 8);
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        const FormulaLine &usual = lineOf(sheet, "total_bytes");
        QCOMPARE(usual.symbolic(), QStringLiteral("batch_size × sequence_length × num_layers × "
                                                  "(kv_lora_rank + qk_rope_head_dim) × precision_bytes"));
        QCOMPARE(usual.substituted(), QStringLiteral("16 × 8,192 × 61 × (512 + 64) × 2"));
        QCOMPARE(lineOf(sheet, "kv_bytes_per_token").result.value, 61LL * 576 * 2); // 70,272 B
        // One latent, replicated on all 8 GPUs: no heads-per-GPU line.
        QVERIFY(!sheet.line(QStringLiteral("kv_heads_per_gpu")));
        QVERIFY(lineOf(sheet, "kv_bytes_per_layer").note.contains(QLatin1String("replicated")));
    }

    void gemmaSlidingWindowsAndGroups()
    {
        // Gemma-3-27B: 62 layers, every sixth global: 10 full + 52 sliding over 1,024 tokens;
        // 16 KV heads of 128 dims. vLLM groups them into 7 groups of 10 layer slots (8 empty).
        const Scenario s = scenarioFor(QStringLiteral("gemma-3-27b"), 16, 32768);
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        const std::int64_t perLayer = 2 * 16 * 128 * 2;
        QCOMPARE(lineOf(sheet, "kv_bytes_per_layer").result.value, perLayer);
        const FormulaLine &full = lineOf(sheet, "full_layers_bytes");
        QCOMPARE(full.substituted(), QStringLiteral("16 × 32,768 × 10 × 8,192 B"));
        const FormulaLine &sliding = lineOf(sheet, "sliding_layers_bytes");
        QCOMPARE(sliding.symbolic(),
                 QStringLiteral("batch_size × min(sequence_length, sliding_window) × sliding_layers × "
                                "kv_bytes_per_layer"));
        QCOMPARE(sliding.substituted(), QStringLiteral("16 × min(32,768, 1,024) × 52 × 8,192 B"));
        QCOMPARE(sliding.result.value, 16LL * 1024 * 52 * perLayer);
        QCOMPARE(lineOf(sheet, "token_bytes").result.value, 16LL * (32768 * 10 + 1024 * 52) * perLayer);
        // The usual formula counts every layer at full length: far above what is allocated.
        QCOMPARE(lineOf(sheet, "total_bytes").result.value, 16LL * 32768 * 62 * perLayer);
        QVERIFY(lineOf(sheet, "total_bytes").result.value > 4 * plan.kv.cacheBytes);
        const FormulaLine &cache = lineOf(sheet, "kv_cache_bytes");
        QCOMPARE(termOf(cache, "group_size").value, 10);
        QVERIFY2(cache.note.contains(QLatin1String("7 groups of 10")) &&
                     cache.note.contains(QLatin1String("8")),
                 qPrintable(cache.note));
        // The last 1,024 of 32,768 tokens fill 64 whole 16-token blocks; full layers hold 2,048.
        const FormulaLine &blocks = lineOf(sheet, "blocks_per_sequence");
        QCOMPARE(blocks.substituted(), QStringLiteral("1 × ceil(32,768 / 16) + 6 × 64"));
        QCOMPARE(termOf(blocks, "window_blocks").value, 64);
        // One token more starts a new block the window still touches: 65.
        Scenario longer = s;
        longer.seqLen = 32769;
        QCOMPARE(
            termOf(lineOf(formulaSheet(longer, planMemory(longer)), "blocks_per_sequence"), "window_blocks")
                .value,
            65);
    }

    void qwenNextRecurrentState()
    {
        // Qwen3-Next-80B-A3B: 48 layers, 12 gated attention + 36 Gated DeltaNet. A DeltaNet layer keeps
        // conv (4 − 1) × (2 × 16 × 128 + 32 × 128) × 2 B = 49,152 B and state 32 × 128 × 128 × 2 B.
        const Scenario s = scenarioFor(QStringLiteral("qwen3-next-80b-a3b"), 16, 8192, 4);
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        QCOMPARE(termOf(lineOf(sheet, "kv_bytes_per_token"), "cache_layers").value, 12);
        const FormulaLine &perLayer = lineOf(sheet, "state_bytes_per_layer");
        QCOMPARE(termOf(perLayer, "conv_state_bytes").value, 3LL * (2 * 16 * 128 + 32 * 128) * 2 / 4);
        QCOMPARE(termOf(perLayer, "ssm_state_bytes").value, 32LL / 4 * 128 * 128 * 2);
        const FormulaLine &state = lineOf(sheet, "state_bytes");
        QCOMPARE(state.symbolic(), QStringLiteral("batch_size × recurrent_layers × state_bytes_per_layer"));
        QCOMPARE(state.result.value, 16 * plan.kv.stateBytesPerSequence);
        // The state does not grow with the sequence: the same at 4x the length.
        Scenario longer = s;
        longer.seqLen = 4 * s.seqLen;
        QCOMPARE(lineOf(formulaSheet(longer, planMemory(longer)), "state_bytes").result.value,
                 state.result.value);
        // vLLM raised the block so that one attention page holds one state page.
        QCOMPARE(termOf(lineOf(sheet, "page_bytes"), "block_size").value, plan.blockSize);
        QVERIFY(plan.blockSize > 16);
    }

    void awqWeightBits()
    {
        // AWQ int4, group 128, fp16 scales and int4 zeros: 4 + 16/128 + 4/128 = 4.15625 bits per
        // quantized weight; embeddings and lm_head (2 × 128,256 × 4,096) and the norms stay fp16.
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"));
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        const FormulaLine &split = lineOf(sheet, "quantized_bits_per_weight");
        QCOMPARE(split.symbolic(), QStringLiteral("value_bits + scale_bits + zero_point_bits"));
        QCOMPARE(split.substituted(), QStringLiteral("4 + 0.125 + 0.03125"));
        QCOMPARE(split.result.text, QStringLiteral("4.156"));
        QCOMPARE(termOf(split, "scale_bits").option, std::optional(ScenarioField::GroupSize));

        const std::int64_t unquantized = 2 * 128'256LL * 4096 + 32 * 2 * 4096 + 4096;
        const std::int64_t all = plan.params.total;
        const FormulaLine &share = lineOf(sheet, "unquantized_share");
        QCOMPARE(termOf(share, "unquantized_params").value, unquantized);
        QCOMPARE(share.result.text,
                 QString::number(100.0 * double(unquantized) / double(all), 'f', 2) + QStringLiteral(" %"));
        const FormulaLine &whole = lineOf(sheet, "bits_per_weight");
        const double expected =
            (double(all - unquantized) * 4.15625 + double(unquantized) * 16) / double(all);
        QCOMPARE(whole.result.real, expected);
        QCOMPARE(whole.result.text, QStringLiteral("5.706"));
        QCOMPARE(termOf(whole, "unquantized_bits").text, QStringLiteral("16"));
    }

    void speedStepTermByTerm()
    {
        // Llama-3.1-8B (config.json: 32 layers, hidden 4096, 32 heads, 8 KV heads of 128, MLP 14336,
        // vocab 128,256, untied embeddings) on a made-up GPU: 1,000 GB/s, 1,000 dense BF16 TFLOPS,
        // --bandwidth-efficiency 0.5, one sequence of 8,192 tokens.
        Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"), 1, 8192);
        s.gpu.id = QStringLiteral("custom:made-up");
        s.gpu.name = QStringLiteral("Made-up GPU");
        s.gpu.arch.clear();
        s.gpu.bandwidthGBs = 1000;
        s.gpu.tflopsBf16 = 1000;
        s.gpu.interconnectGBs = 900;
        s.bandwidthEfficiencyPpm = 500'000;
        const MemoryPlan plan = planMemory(s);
        const FormulaSheet sheet = formulaSheet(s, plan);
        const StepBreakdown &terms = plan.speed.decode.breakdown;

        // Weights read: every linear layer, the norms and lm_head in BF16 (not the input embedding:
        // one 4,096-value row per token), then the activations: 4 x 32 layers x 4,096 x 2 B in and
        // out, and 128,256 float32 logits.
        const std::int64_t attention = 32LL * (4096 * 4096 * 2 + 4096 * 1024 * 2);
        const std::int64_t mlp = 32LL * 3 * 4096 * 14336;
        const std::int64_t norms = 32LL * 2 * 4096 + 4096;
        const std::int64_t lmHead = 128'256LL * 4096;
        const std::int64_t readBytes =
            (attention + mlp + norms + lmHead) * 2 + 4096 * 2 + 4LL * 32 * 4096 * 2 + 128'256LL * 4;
        QCOMPARE(readBytes, 15'011'419'136LL);
        const FormulaLine &weights = lineOf(sheet, "weights_read");
        QCOMPARE(weights.symbolic(), QStringLiteral("read_bytes / (bandwidth × bandwidth_efficiency)"));
        QCOMPARE(weights.substituted(), QStringLiteral("15.01 GB / (1,000 GB/s × 0.5)"));
        QCOMPARE(termOf(weights, "read_bytes").value, readBytes);
        QCOMPARE(termOf(weights, "bandwidth").real, 1e12);
        QCOMPARE(termOf(weights, "bandwidth_efficiency").option,
                 std::optional(ScenarioField::BandwidthEfficiency));
        QVERIFY(qFuzzyCompare(weights.result.real, 15'011'419'136 / (1e12 * 0.5))); // 30.02 ms
        QCOMPARE(weights.result.text, QStringLiteral("30.0 ms"));
        QCOMPARE(weights.result.real, terms[StepTerm::Weights]);

        // The KV cache: 8,192 tokens x 32 layers x 2 x 8 heads x 128 x 2 B = 1 GiB, at half of 1,000 GB/s.
        const FormulaLine &kv = lineOf(sheet, "kv_read");
        QCOMPARE(termOf(kv, "kv_bytes").value, 8192LL * 32 * 2 * 8 * 128 * 2);
        QVERIFY(qFuzzyCompare(kv.result.real, 1'073'741'824 / 5e11)); // 2.15 ms
        QCOMPARE(kv.result.text, QStringLiteral("2.15 ms"));
        QCOMPARE(kv.result.real, terms[StepTerm::KvCache]);
        // BF16 weights and cache: nothing to dequantize, no all-reduce, no MoE layer.
        for (const char *absent : {"dequantization", "kv_dequantization", "all_reduce", "moe_routing"})
            QVERIFY2(!sheet.line(QLatin1String(absent)), absent);
        QCOMPARE(lineOf(sheet, "reads").symbolic(), QStringLiteral("weights_read + kv_read"));

        // Compute: 2 FLOPs per linear weight per token, and attention 2 x 32 heads x (128 + 128) per
        // layer and context token, at 1,000 TFLOPS: 19.3 us, hidden by the 32 ms of reads.
        const double flops = 2.0 * double(attention + mlp + lmHead) + 2.0 * 32 * 256 * 32 * 8192;
        const FormulaLine &compute = lineOf(sheet, "compute");
        QCOMPARE(compute.symbolic(), QStringLiteral("max(0, flops_time / compute_efficiency − reads)"));
        QVERIFY(qFuzzyCompare(termOf(compute, "flops_time").real, flops / 1e15));
        QCOMPARE(compute.result.real, 0.0);

        // The engine's host work, then the step as the sum of the lines above.
        const FormulaLine &engine = lineOf(sheet, "engine_overhead");
        QCOMPARE(engine.symbolic(), QStringLiteral("per_step + batch_size × per_sequence"));
        QCOMPARE(termOf(engine, "batch_size").value, 1);
        QCOMPARE(engine.result.real, terms[StepTerm::StepOverhead] + terms[StepTerm::SequenceOverhead]);
        const FormulaLine &step = lineOf(sheet, "decode_step");
        QCOMPARE(step.symbolic(), QStringLiteral("reads + compute + engine_overhead"));
        QVERIFY(qFuzzyCompare(step.result.real, weights.result.real + kv.result.real + engine.result.real));
        QCOMPARE(step.result.real, plan.speed.decode.seconds);
        QVERIFY(qFuzzyCompare(lineOf(sheet, "decode_tokens_per_second").result.real, 1 / step.result.real));
        // The time to first token: the prefill's terms and one new request.
        const FormulaLine &firstToken = lineOf(sheet, "time_to_first_token");
        QVERIFY2(firstToken.symbolic().startsWith(QLatin1String("prefill_weights + prefill_kv_cache + ")),
                 qPrintable(firstToken.symbolic()));
        QVERIFY(firstToken.symbolic().endsWith(QLatin1String(" + request_overhead")));
        QCOMPARE(termOf(lineOf(sheet, "request_overhead"), "new_requests").value, 1);
        QCOMPARE(firstToken.result.real, plan.speed.prefill.seconds);
        QCOMPARE(firstToken.section, FormulaSection::Speed);

        // An FP8 cache: half the bytes, read at the same efficiency, and its conversion priced.
        s.kvCacheDtype = KvCacheDtype::Fp8E4M3;
        const MemoryPlan fp8Plan = planMemory(s);
        const FormulaSheet fp8 = formulaSheet(s, fp8Plan);
        QVERIFY(qFuzzyCompare(lineOf(fp8, "kv_read").result.real, 536'870'912 / 5e11));
        QCOMPARE(lineOf(fp8, "weights_read").result.real, weights.result.real);
        const FormulaLine &conversion = lineOf(fp8, "kv_dequantization");
        QCOMPARE(conversion.symbolic(), QStringLiteral("fp8_kv_read × fp8_kv_cost"));
        QVERIFY(qFuzzyCompare(termOf(conversion, "fp8_kv_read").real, 536'870'912 / 1e12));
        QCOMPARE(conversion.result.real, fp8Plan.speed.decode.breakdown[StepTerm::KvDequantization]);
        QCOMPARE(lineOf(fp8, "reads").symbolic(),
                 QStringLiteral("weights_read + kv_read + kv_dequantization"));

        // Two GPUs: two all-reduces per layer of one token's 4,096 BF16 values; a ring moves
        // 2 x (2 − 1) / 2 of it over 900 / 2 GB/s each way.
        s.kvCacheDtype = KvCacheDtype::Auto;
        s.tensorParallelSize = 2;
        const FormulaSheet tp = formulaSheet(s, planMemory(s));
        const FormulaLine &allReduce = lineOf(tp, "all_reduce");
        QCOMPARE(allReduce.symbolic(), QStringLiteral("all_reduces × all_reduce_latency + transfer"));
        QCOMPARE(termOf(allReduce, "all_reduces").value, 64);
        QVERIFY(qFuzzyCompare(termOf(allReduce, "transfer").real, 64 * 4096 * 2 / 450e9));

        // Two pipeline stages (the tensor-parallel pair as one GPU again): one handover of one token's
        // hidden state and residual, 2 x 4,096 BF16 values over 900 / 2 GB/s; 64 sequences run as two
        // batches of 32, and when the busiest stage's two passes outlast one batch's pass the difference
        // is the wait.
        s.tensorParallelSize = 1;
        s.pipelineParallelSize = 2;
        const std::int64_t batch = s.batchSize;
        s.batchSize = 64;
        const MemoryPlan pipelinePlan = planMemory(s);
        const FormulaSheet pipeline = formulaSheet(s, pipelinePlan);
        const FormulaLine &handover = lineOf(pipeline, "pipeline_transfer");
        QCOMPARE(handover.symbolic(), QStringLiteral("handovers × handover_latency + handover_transfer"));
        QCOMPARE(termOf(handover, "handovers").value, 1);
        QVERIFY(qFuzzyCompare(termOf(handover, "handover_transfer").real, 32.0 * 2 * 4096 * 2 / 450e9));
        QCOMPARE(handover.result.real, pipelinePlan.speed.decode.breakdown[StepTerm::PipelineTransfer]);
        QCOMPARE(termOf(lineOf(pipeline, "engine_overhead"), "batch_in_flight").value, 32);
        verifyLinesAddUp(pipeline);
        s.pipelineParallelSize = 1;
        s.batchSize = batch;

        // Mixtral-8x7B: every one of its 32 layers routes each of the batch's 16 tokens to its top 2
        // experts: 16 x 2 x 32 routed copies.
        const Scenario moe = scenarioFor(QStringLiteral("mixtral-8x7b"), 16, 8192, 2);
        const FormulaSheet moeSheet = formulaSheet(moe, planMemory(moe));
        QCOMPARE(lineOf(moeSheet, "moe_routing").symbolic(),
                 QStringLiteral("moe_layers × per_moe_layer + routed_token_layers × per_routed_token"));
        QCOMPARE(termOf(lineOf(moeSheet, "moe_routing"), "moe_layers").value, 32);
        QCOMPARE(termOf(lineOf(moeSheet, "moe_routing"), "routed_token_layers").value, 16 * 2 * 32);

        // A GPU without a bandwidth figure: no speed section.
        s.gpu.bandwidthGBs = 0;
        const FormulaSheet blind = formulaSheet(s, planMemory(s));
        QVERIFY(!blind.line(QStringLiteral("decode_step")));
    }

    void noSpeedForAServerThatDoesNotStart()
    {
        // Llama-3.1-70B in bfloat16 on one H100: 131 GiB of weights in 79 GiB, so vLLM never starts. The
        // sheet shows why (the budget, the weights) but prices no step: no decode rate, no first token, as
        // calc and Compare show none (a figure of a server that does not run would be invented).
        const Scenario s = scenarioFor(QStringLiteral("llama-3.1-70b"));
        const MemoryPlan plan = planMemory(s);
        QVERIFY(!plan.engineStarts);
        const FormulaSheet sheet = formulaSheet(s, plan);
        QVERIFY(sheet.line(QStringLiteral("weights_bytes")));
        for (const char *name :
             {"decode_step", "decode_tokens_per_second", "time_to_first_token", "moe_routing"})
            QVERIFY2(!sheet.line(QLatin1String(name)), name);
    }

    void sheetAsText()
    {
        const Scenario s = scenarioFor(QStringLiteral("llama-3.1-8b"));
        const QString text = formulaSheet(s, planMemory(s)).text();
        QVERIFY(text.contains(QStringLiteral(
            "total_bytes = batch_size × sequence_length × num_layers × 2 × num_key_value_heads × head_dim "
            "× precision_bytes = 16 × 8,192 × 32 × 2 × 8 × 128 × 2 = 17,179,869,184 B (16.00 GiB)\n")));
        // vLLM 0.21's default share (vllm-project/vllm#38284).
        QVERIFY(text.contains(QStringLiteral("budget = gpu_memory × gpu_memory_utilization = 79.19 GiB × "
                                             "0.92 = 72.85 GiB\n")));
        QVERIFY(text.contains(QStringLiteral("\n\n"))); // sections apart
    }
};

QTEST_GUILESS_MAIN(TestFormula)
#include "tst_formula.moc"
