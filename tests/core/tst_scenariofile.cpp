// SPDX-License-Identifier: MIT
// Scenario files: the exact bytes round-trip, every field is checked, and a
// file that is not a version-1 scenario file is refused with one message
// naming the file, the field and the value.
#include "core/common/error.h"
#include "core/document/scenariofile.h"
#include "core/gpu/customgpu.h"
#include "core/library/library.h"
#include "core/output/chartcsv.h"
#include "core/output/planjson.h"
#include "core/plan/planner.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenariovalues.h"
#include "tests/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

namespace {

const QString Origin = QStringLiteral("plan.kvscope");

/// A document that uses every section: a pasted model, a custom GPU, the
/// batch axis, quantization choices and two comparison columns.
ScenarioDocument fullDocument()
{
    ScenarioDocument d;
    d.scenario = {{QStringLiteral("model"), QStringLiteral("pasted:1")},
                  {QStringLiteral("gpu"), QStringLiteral("custom-lab-card")},
                  {QStringLiteral("dtype"), QStringLiteral("bfloat16")},
                  {QStringLiteral("quantization"), QStringLiteral("awq")},
                  {QStringLiteral("group-size"), QStringLiteral("64")},
                  {QStringLiteral("kv-cache-dtype"), QStringLiteral("fp8")},
                  {QStringLiteral("gpu-memory-utilization"), QStringLiteral("0.85")},
                  {QStringLiteral("batch-size"), QStringLiteral("32")},
                  {QStringLiteral("seq-len"), QStringLiteral("4096")}};
    d.models << CarriedModel{QStringLiteral("pasted:1"), QStringLiteral("Tiny Llama"), QString(),
                             R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
                                 "hidden_size": 2048, "intermediate_size": 5632,
                                 "num_attention_heads": 32, "num_key_value_heads": 4,
                                 "num_hidden_layers": 22, "vocab_size": 32000,
                                 "max_position_embeddings": 2048, "torch_dtype": "bfloat16"})"};
    d.gpus << customGpu(QStringLiteral("lab card"), 48 * (std::int64_t(1) << 30), 900, 180);
    d.growthAxis = GrowthAxis::BatchSize;
    d.growthScale = AxisScale::Logarithmic;
    d.counterfactuals = true;
    QuantizationChoices q;
    q.schemes = {QStringLiteral("int8"), QStringLiteral("nf4")};
    q.rows = 512;
    q.cols = 1024;
    q.seed = 7;
    q.relativeError = true;
    d.quantization = q;
    d.comparison << ScenarioValues{{QStringLiteral("kv-cache-dtype"), QStringLiteral("auto")}}
                 << ScenarioValues{{QStringLiteral("model"), QStringLiteral("qwen2.5-7b")},
                                   {QStringLiteral("batch-size"), QStringLiteral("8")},
                                   // differingValues() spells a count back at its default "auto"
                                   {QStringLiteral("max-model-len"), QStringLiteral("auto")}};
    return d;
}

QByteArray withField(const QByteArray &file, const QString &section, const QString &key,
                     const QJsonValue &value)
{
    QJsonObject root = QJsonDocument::fromJson(file).object();
    if (section.isEmpty()) {
        root.insert(key, value);
    } else {
        QJsonObject inner = root.value(section).toObject();
        inner.insert(key, value);
        root.insert(section, inner);
    }
    return QJsonDocument(root).toJson();
}

} // namespace

class TestScenarioFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bytesRoundTrip()
    {
        const QByteArray first = scenarioFileBytes(fullDocument());
        const QByteArray second = scenarioFileBytes(parseScenarioFile(first, Origin));
        QCOMPARE(second, first);
        const QJsonObject root = QJsonDocument::fromJson(first).object();
        QCOMPARE(root.value(QLatin1String("format")).toString(), QStringLiteral("kvscope-scenario"));
        QCOMPARE(root.value(QLatin1String("version")).toInt(), 1);
        // Option values keep their JSON types.
        const QJsonObject scenario = root.value(QLatin1String("scenario")).toObject();
        QVERIFY(scenario.value(QLatin1String("batch-size")).isDouble());
        QCOMPARE(scenario.value(QLatin1String("gpu-memory-utilization")).toDouble(), 0.85);
        QCOMPARE(scenario.value(QLatin1String("dtype")).toString(), QStringLiteral("bfloat16"));
        QCOMPARE(root.value(QLatin1String("comparison")).toArray().size(), 2);
        QVERIFY(parseScenarioFile(first, Origin).counterfactuals);
        // Files written before the counterfactual lines existed read as without them.
        QJsonObject old = root;
        QJsonObject charts = old.value(QLatin1String("charts")).toObject();
        charts.remove(QStringLiteral("counterfactuals"));
        old.insert(QStringLiteral("charts"), charts);
        QVERIFY(!parseScenarioFile(QJsonDocument(old).toJson(), Origin).counterfactuals);
    }

    void fileRoundTripThroughDisk()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.kvscope"));
        writeScenarioFile(path, fullDocument());
        const ScenarioDocument read = readScenarioFile(path);
        QCOMPARE(read.models, fullDocument().models);
        QCOMPARE(read.quantization, fullDocument().quantization);
        QCOMPARE(read.comparison, fullDocument().comparison);
        QCOMPARE(read.growthAxis, GrowthAxis::BatchSize);
        QCOMPARE(read.growthScale, AxisScale::Logarithmic);
        QCOMPARE(read.gpus.size(), 1);
        QCOMPARE(read.gpus.first().id, fullDocument().gpus.first().id);
    }

    void scenarioValuesRoundTrip()
    {
        // Every option the default scenario writes reads back to the same values.
        Scenario s;
        s.model = test::preset(QStringLiteral("qwen2.5-7b"));
        s.gpu = resolveGpu(QStringLiteral("a100-80gb"));
        s.quantization = defaultSpecFor(QuantMethod::Gptq);
        s.quantization->groupSize = 32;
        s.kvCacheDtype = KvCacheDtype::Fp8E5M2;
        s.gpuMemoryUtilizationPpm = 925'000;
        s.maxModelLen = 16384;
        s.promptLen = 1000;
        s.batchSize = 3;
        const ScenarioValues values = scenarioToValues(s);
        QCOMPARE(values.value(QStringLiteral("gpu-memory-utilization")), QStringLiteral("0.925"));
        QCOMPARE(values.value(QStringLiteral("group-size")), QStringLiteral("32"));
        QVERIFY(!values.contains(QStringLiteral("max-num-seqs"))); // 0 = vLLM's default: not written
        const Scenario back = scenarioFromValues(values, builtinResolvers());
        QCOMPARE(scenarioToValues(back), values);
        // The same plan, figure for figure.
        QCOMPARE(planMemory(back).kv.capacityTokens, planMemory(s).kv.capacityTokens);
        // SGLang's attention groups and their layout flags, written under SGLang's names and read back.
        Scenario groups;
        groups.model = test::preset(QStringLiteral("deepseek-v2-lite"));
        groups.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        groups.engine = Engine::Sglang;
        groups.tensorParallelSize = 4;
        groups.dataParallelSize = 2;
        groups.enableDpAttention = true;
        groups.enableDpLmHead = true;
        groups.moeDenseTpSize = 1;
        const ScenarioValues groupValues = scenarioToValues(groups);
        QCOMPARE(groupValues.value(QStringLiteral("enable-dp-lm-head")), QStringLiteral("true"));
        QCOMPARE(groupValues.value(QStringLiteral("moe-dense-tp-size")), QStringLiteral("1"));
        const Scenario groupsBack = scenarioFromValues(groupValues, builtinResolvers());
        QVERIFY(groupsBack.enableDpLmHead);
        QCOMPARE(groupsBack.moeDenseTpSize, std::int64_t(1));
        QCOMPARE(planMemory(groupsBack).weights.bytesPerGpu, planMemory(groups).weights.bytesPerGpu);
        // "auto" is SGLang's default (no --moe-dense-tp-size: the dense MLPs split), as Compare's knob offers
        // it.
        const Scenario denseAuto = applyValues(
            groupsBack, {{QStringLiteral("moe-dense-tp-size"), QStringLiteral("auto")}}, builtinResolvers());
        QCOMPARE(denseAuto.moeDenseTpSize, std::int64_t(0));
        QVERIFY(!scenarioToValues(denseAuto).contains(QStringLiteral("moe-dense-tp-size")));
        // vLLM's --enforce-eager, written when on and read back.
        Scenario eager = s;
        eager.enforceEager = true;
        const ScenarioValues eagerValues = scenarioToValues(eager);
        QCOMPARE(eagerValues.value(QStringLiteral("enforce-eager")), QStringLiteral("true"));
        QVERIFY(!values.contains(QStringLiteral("enforce-eager")));
        QVERIFY(scenarioFromValues(eagerValues, builtinResolvers()).enforceEager);
        // --compile-cache, a deployment condition: written when warm (cold is the default), read back.
        Scenario restart = s;
        restart.compileCache = CompileCache::Warm;
        const ScenarioValues restartValues = scenarioToValues(restart);
        QCOMPARE(restartValues.value(QStringLiteral("compile-cache")), QStringLiteral("warm"));
        QVERIFY(!values.contains(QStringLiteral("compile-cache")));
        QCOMPARE(scenarioFromValues(restartValues, builtinResolvers()).compileCache, CompileCache::Warm);
        // vLLM's LoRA dtype and host-memory adapters, written where LoRA is on.
        Scenario lora = s;
        lora.maxLoras = 4;
        lora.loraDtype = WeightDtype::BFloat16;
        lora.maxCpuLoras = 8;
        lora.loraTargetModules = {QStringLiteral("q_proj"), QStringLiteral("v_proj")};
        const ScenarioValues loraValues = scenarioToValues(lora);
        QCOMPARE(loraValues.value(QStringLiteral("lora-dtype")), QStringLiteral("bfloat16"));
        QCOMPARE(loraValues.value(QStringLiteral("max-cpu-loras")), QStringLiteral("8"));
        QCOMPARE(loraValues.value(QStringLiteral("lora-target-modules")), QStringLiteral("q_proj,v_proj"));
        QCOMPARE(scenarioToValues(scenarioFromValues(loraValues, builtinResolvers())), loraValues);
    }

    void vllmsHumanReadableCountsAreRead()
    {
        // vLLM reads --max-model-len, --max-num-batched-tokens and --kv-cache-memory-bytes as human-readable
        // integers (human_readable_int, vllm/utils/argparse_utils.py): a lower-case suffix is decimal, an
        // upper-case one binary, decimals only with decimal suffixes.
        const auto read = [](const QString &key, const QString &value) {
            ScenarioValues values{{QStringLiteral("model"), QStringLiteral("llama-3.1-8b")},
                                  {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                                  {key, value}};
            return scenarioFromValues(values, builtinResolvers());
        };
        QCOMPARE(read(QStringLiteral("max-model-len"), QStringLiteral("32K")).maxModelLen,
                 std::int64_t(32'768));
        QCOMPARE(read(QStringLiteral("max-model-len"), QStringLiteral("32k")).maxModelLen,
                 std::int64_t(32'000));
        QCOMPARE(read(QStringLiteral("max-model-len"), QStringLiteral("25.6k")).maxModelLen,
                 std::int64_t(25'600));
        QCOMPARE(read(QStringLiteral("max-model-len"), QStringLiteral("auto")).maxModelLen, std::int64_t(0));
        QCOMPARE(read(QStringLiteral("max-num-batched-tokens"), QStringLiteral("8K")).maxNumBatchedTokens,
                 std::int64_t(8'192));
        QCOMPARE(read(QStringLiteral("kv-cache-memory-bytes"), QStringLiteral("20G")).kvCacheMemoryBytes,
                 std::int64_t(20) << 30);
        // What vLLM refuses, kvscope refuses, naming the option and the value.
        KVSCOPE_VERIFY_ERROR(read(QStringLiteral("max-model-len"), QStringLiteral("1.5K")),
                             QStringLiteral("--max-model-len"), QStringLiteral("1.5K"));
        KVSCOPE_VERIFY_ERROR(read(QStringLiteral("max-model-len"), QStringLiteral("0k")),
                             QStringLiteral("--max-model-len"), QStringLiteral("0k"));
        KVSCOPE_VERIFY_ERROR(read(QStringLiteral("kv-cache-memory-bytes"), QStringLiteral("99999999999T")),
                             QStringLiteral("--kv-cache-memory-bytes"), QStringLiteral("99999999999T"));
    }

    void documentResolvesCarriedModelAndGpu()
    {
        const ScenarioDocument d = fullDocument();
        const Scenario s = documentScenario(d, builtinResolvers(), Origin);
        QCOMPARE(s.model.id, QStringLiteral("pasted:1"));
        QCOMPARE(s.model.name, QStringLiteral("Tiny Llama"));
        QCOMPARE(s.model.numKvHeads, 4);
        QCOMPARE(s.gpu.memoryBytes, 48 * (std::int64_t(1) << 30));
        QCOMPARE(s.quantization->groupSize, 64);
        QCOMPARE(s.batchSize, std::int64_t(32));
    }

    void speedCalibrationRoundTrips()
    {
        // A scenario saved with the user's calibration opens with it, scale and source as saved.
        ScenarioDocument d = fullDocument();
        d.speedCalibration = MeasuredSpeedScale{QStringLiteral("custom-lab-card"), 931'234,
                                                QStringLiteral("your measurement: 9.00 ms at concurrency 8, "
                                                               "pasted:1, 2026-12-02")};
        const QByteArray bytes = scenarioFileBytes(d);
        const QJsonObject saved =
            QJsonDocument::fromJson(bytes).object().value(QLatin1String("speed-calibration")).toObject();
        QCOMPARE(saved.value(QLatin1String("scale")).toDouble(), 0.931234);
        QCOMPARE(saved.value(QLatin1String("gpu")).toString(), QStringLiteral("custom-lab-card"));
        const ScenarioDocument read = parseScenarioFile(bytes, Origin);
        QCOMPARE(read.speedCalibration, d.speedCalibration);
        QCOMPARE(scenarioFileBytes(read), bytes);
        QCOMPARE(documentScenario(read, builtinResolvers(), Origin).speedCalibration, *d.speedCalibration);
        // Without one, none: no key written, and the scenario has no calibration.
        const QByteArray plain = scenarioFileBytes(fullDocument());
        QVERIFY(!plain.contains("speed-calibration"));
        QCOMPARE(
            documentScenario(parseScenarioFile(plain, Origin), builtinResolvers(), Origin).speedCalibration,
            MeasuredSpeedScale{});
    }

    void refusesWhatIsNotAScenarioFile_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("part");
        const QByteArray good = scenarioFileBytes(fullDocument());
        QTest::newRow("truncated") << good.left(good.size() / 2)
                                   << QStringLiteral("malformed JSON at offset");
        QTest::newRow("array") << QByteArray("[]")
                               << QStringLiteral("expected a JSON object at the top level");
        QTest::newRow("other format")
            << withField(good, {}, QStringLiteral("format"), QStringLiteral("kvscope-gpu-1"))
            << QStringLiteral("'format' is \"kvscope-gpu-1\"");
        QTest::newRow("newer version") << withField(good, {}, QStringLiteral("version"), 2)
                                       << QStringLiteral("newer kvscope (scenario format version 2");
        QTest::newRow("version text") << withField(good, {}, QStringLiteral("version"), QStringLiteral("1"))
                                      << QStringLiteral("version: expected a number, got \"1\"");
        QTest::newRow("unknown top-level key")
            << withField(good, {}, QStringLiteral("colour"), 1) << QStringLiteral("colour: not a field");
        QTest::newRow("unknown option")
            << withField(good, QStringLiteral("scenario"), QStringLiteral("batch"), 4)
            << QStringLiteral("scenario.batch: not a kvscope calc option");
        QTest::newRow("count as text")
            << withField(good, QStringLiteral("scenario"), QStringLiteral("batch-size"), QStringLiteral("16"))
            << QStringLiteral("scenario.batch-size: expected a number, got \"16\"");
        QTest::newRow("fractional count")
            << withField(good, QStringLiteral("scenario"), QStringLiteral("seq-len"), 1.5)
            << QStringLiteral("scenario.seq-len: expected an integer");
        QTest::newRow("text as number")
            << withField(good, QStringLiteral("scenario"), QStringLiteral("dtype"), 16)
            << QStringLiteral("scenario.dtype: expected a string, got 16");
        QTest::newRow("unknown scheme")
            << withField(good, QStringLiteral("quantization"), QStringLiteral("scheme"),
                         QJsonArray{QStringLiteral("int5")})
            << QStringLiteral("quantization.scheme:");
        QTest::newRow("bins out of range")
            << withField(good, QStringLiteral("quantization"), QStringLiteral("bins"), 0)
            << QStringLiteral("quantization.bins: expected an integer from 1 to 4096, got 0");
        QTest::newRow("axis") << withField(good, QStringLiteral("charts"), QStringLiteral("growth-axis"),
                                           QStringLiteral("tokens"))
                              << QStringLiteral(
                                     "charts.growth-axis: expected 'sequence' or 'batch', got 'tokens'");
        QTest::newRow("scale") << withField(good, QStringLiteral("charts"), QStringLiteral("growth-scale"),
                                            QStringLiteral("exponential"))
                               << QStringLiteral(
                                      "charts.growth-scale: expected 'linear' or 'log', got 'exponential'");
        QTest::newRow("comparison override")
            << withField(good, {}, QStringLiteral("comparison"),
                         QJsonArray{QJsonObject{{QStringLiteral("gpus"), 2}}, QJsonObject()})
            << QStringLiteral("comparison[0].gpus: not a kvscope calc option");
        const QJsonObject calibration{{QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
                                      {QStringLiteral("scale"), 0.9},
                                      {QStringLiteral("source"), QStringLiteral("your measurement")}};
        const auto calibrated = [&](const QString &key, const QJsonValue &value) {
            QJsonObject changed = calibration;
            if (value.isUndefined())
                changed.remove(key);
            else
                changed.insert(key, value);
            return withField(good, {}, QStringLiteral("speed-calibration"), changed);
        };
        QTest::newRow("calibration scale zero")
            << calibrated(QStringLiteral("scale"), 0)
            << QStringLiteral("speed-calibration.scale: expected a number above 0 and at most 10, got 0");
        QTest::newRow("calibration scale negative")
            << calibrated(QStringLiteral("scale"), -0.5)
            << QStringLiteral("speed-calibration.scale: expected a number above 0 and at most 10, got -0.5");
        QTest::newRow("calibration scale as text")
            << calibrated(QStringLiteral("scale"), QStringLiteral("0.9"))
            << QStringLiteral("speed-calibration.scale: expected a number, got \"0.9\"");
        QTest::newRow("calibration without source")
            << calibrated(QStringLiteral("source"), QJsonValue(QJsonValue::Undefined))
            << QStringLiteral("speed-calibration.source: missing");
        QTest::newRow("calibration without gpu")
            << calibrated(QStringLiteral("gpu"), QJsonValue(QJsonValue::Undefined))
            << QStringLiteral("speed-calibration.gpu: missing");
        QTest::newRow("calibration unknown key")
            << calibrated(QStringLiteral("date"), 1) << QStringLiteral("speed-calibration.date: not a field");
        QTest::newRow("calibration not an object")
            << withField(good, {}, QStringLiteral("speed-calibration"), 0.9)
            << QStringLiteral("speed-calibration: expected an object, got 0.9");
        QTest::newRow("model without source")
            << withField(good, {}, QStringLiteral("models"),
                         QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("x")}}})
            << QStringLiteral("models[0].path: give either 'path' or 'config'");
    }

    void refusesWhatIsNotAScenarioFile()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, part);
        KVSCOPE_VERIFY_ERROR(parseScenarioFile(bytes, Origin), Origin + QStringLiteral(": "), part);
    }

    void missingModelIsNamed()
    {
        QJsonObject root = QJsonDocument::fromJson(scenarioFileBytes(fullDocument())).object();
        QJsonObject scenario = root.value(QLatin1String("scenario")).toObject();
        scenario.remove(QStringLiteral("model"));
        root.insert(QStringLiteral("scenario"), scenario);
        KVSCOPE_VERIFY_ERROR(parseScenarioFile(QJsonDocument(root).toJson(), Origin), Origin,
                             QStringLiteral("scenario.model: missing"));
    }

    void badValueIsNamedWithTheFile()
    {
        ScenarioDocument d = fullDocument();
        d.scenario.insert(QStringLiteral("batch-size"), QStringLiteral("-4"));
        const ScenarioDocument read = parseScenarioFile(scenarioFileBytes(d), Origin);
        KVSCOPE_VERIFY_ERROR(documentScenario(read, builtinResolvers(), Origin), Origin,
                             QStringLiteral("scenario.batch-size: must be a positive integer, got '-4'"));
    }

    void unreadableFileIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("missing.kvscope"));
        KVSCOPE_VERIFY_ERROR(readScenarioFile(path), path, QStringLiteral("cannot open"));
    }

    void chartCsvIsTheCoresFigures()
    {
        Scenario s;
        s.model = test::preset(QStringLiteral("llama-3.1-8b"));
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        const MemoryPlan plan = planMemory(s);
        const MemoryBreakdown breakdown = memoryBreakdown(plan);
        const QByteArray bar = breakdownCsv(breakdown);
        QVERIFY(bar.startsWith("part,bytes,beyond_budget_bytes,share_of_budget_bp\n"));
        const BreakdownSegment *kv = breakdown.segment(MemoryPart::KvCache);
        QVERIFY(kv);
        QCOMPARE(kv->bytes, plan.kv.cacheBytes);
        QVERIFY(bar.contains("\nkv_cache," + QByteArray::number(qint64(plan.kv.cacheBytes)) + ",0,"));
        QVERIFY(bar.contains("\nbudget," + QByteArray::number(qint64(plan.budgetBytes)) + ','));
        const GrowthChartData growth = growthChartData(s, plan, GrowthAxis::SequenceLength);
        const QByteArray curves = growthCsv(growth);
        const QList<QByteArray> lines = curves.trimmed().split('\n');
        qsizetype samples = 0;
        for (const GrowthCurve &curve : growth.curves)
            samples += curve.x.size();
        QCOMPARE(lines.size(), samples + 1);
        // The figures: one key,value row per key of kvscope calc --json, values as JSON writes them.
        const QByteArray figures = figuresCsv(plan);
        const QJsonObject json = planToJson(plan);
        QCOMPARE(figures.count('\n'), json.size() + 1);
        QVERIFY(figures.contains(
            "\nkv_capacity_tokens," +
            QByteArray::number(qint64(json.value(QLatin1String("kv_capacity_tokens")).toDouble())) + '\n'));
        QVERIFY(figures.contains("\nfits,true\n"));
        // The scenario's own point is a sample of the current curve.
        QVERIFY(curves.contains(',' + QByteArray::number(qint64(s.seqLen)) + ',' +
                                QByteArray::number(qint64(plan.kv.cacheBytes)) + ','));
        QVERIFY(!curves.contains("as_if_mha"));
    }

    void growthCsvHoldsTheCounterfactualLines()
    {
        Scenario s;
        s.model = test::preset(QStringLiteral("llama-3.1-8b"));
        s.gpu = resolveGpu(QStringLiteral("h100-sxm"));
        s.batchSize = 2;
        s.seqLen = 4096; // the current point is always a sample
        const MemoryPlan plan = planMemory(s);
        const GrowthChartData growth = growthChartData(s, plan, GrowthAxis::SequenceLength, 96,
                                                       AxisScale::Linear, /*counterfactuals*/ true);
        const QByteArray csv = growthCsv(growth);
        QVERIFY(csv.startsWith(
            "kv_cache_dtype,sequence_length,kv_cache_bytes,total_bytes,budget_bytes,current,line\n"));
        // Llama-3.1-8B's config.json (meta-llama/Llama-3.1-8B): 32 layers, 32 query heads,
        // 8 KV heads, head_dim 128. As if MHA: 32 x 2 x 32 x 128 x 2 B = 524,288 B per
        // token; 2 sequences of 4,096 tokens (whole 16-token blocks) hold 4 GiB.
        QVERIFY(csv.contains("\nbfloat16,4096,4294967296,," + QByteArray::number(qint64(plan.budgetBytes)) +
                             ",0,as_if_mha\n"));
        // The model has no window: no "all layers full" line; one row per counterfactual sample.
        QVERIFY(!csv.contains("as_if_all_layers_full"));
        qsizetype rows = 0;
        for (const CounterfactualCurve &curve : growth.counterfactuals)
            rows += curve.x.size();
        QCOMPARE(csv.count("as_if_mha\n"), rows);
    }
};

QTEST_GUILESS_MAIN(TestScenarioFile)
#include "tst_scenariofile.moc"
