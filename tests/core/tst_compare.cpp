// SPDX-License-Identifier: MIT
// Precisions side by side: accuracy from the scenario (the simulator's own
// figures on the tensors README "Accuracy" describes), the seed question's
// four columns, deltas and the best column per row, option overrides and
// published results.
#include "core/common/error.h"
#include "core/compare/accuracy.h"
#include "core/compare/comparison.h"
#include "core/compare/publishedresults.h"
#include "core/library/library.h"
#include "core/model/modelimport.h"
#include "core/plan/planner.h"
#include "core/quantization/quantrun.h"
#include "core/quantization/simulator.h"
#include "core/quantization/synthetic.h"
#include "core/scenario/scenariovalues.h"
#include "tests/sourcetree.h"
#include "tests/tensorfiles.h"
#include "tests/testsupport.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <thread>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace kvscope;

namespace {

Scenario llama8bOnH100()
{
    Scenario s;
    s.model = test::preset(QStringLiteral("llama-3.1-8b"));
    s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
    return s;
}

/// A one-layer Llama folder whose o_proj is an F32 tensor [64, 4 heads x 16]
/// holding `data` (16,384 bytes); the shard's path.
QString writeTinyLlamaFolder(const QTemporaryDir &dir, const QByteArray &data)
{
    const QByteArray config = R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"],
      "num_hidden_layers": 1, "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2,
      "intermediate_size": 128, "vocab_size": 1000, "max_position_embeddings": 4096,
      "torch_dtype": "bfloat16"})";
    test::writeFile(dir, QStringLiteral("config.json"), config);
    const QByteArray header =
        R"({"model.layers.0.self_attn.o_proj.weight": {"dtype": "F32", "shape": [64, 64], "data_offsets": [0, 16384]}})";
    return test::writeFile(dir, QStringLiteral("model.safetensors"), test::safetensorsBytes(header, data));
}

/// NVFP4 (compressed-tensors, float 4-bit in groups of 16): a format the simulator does not model.
QuantizationSpec nvfp4()
{
    QuantizationSpec spec = defaultSpecFor(QuantMethod::CompressedTensors);
    spec.floatWeights = true;
    spec.bits = 4;
    spec.groupSize = 16;
    spec.scheme = QStringLiteral("NVFP4");
    return spec;
}

/// estimateAccuracy(s), or why there is none: a kvscope::Error's message, another
/// exception's what(), or that it took longer than `limit`.
struct AccuracyAnswer
{
    std::optional<Accuracy> accuracy;
    QString failure;
};

/// estimateAccuracy(s) on a thread of its own: one that blocks (a FIFO) fails the
/// test after `limit` instead of holding the suite, so the thread is detached,
/// and what it throws comes back here as the test's failure, not the suite's end.
AccuracyAnswer accuracyWithin(const Scenario &s, std::chrono::seconds limit)
{
    auto promise = std::make_shared<std::promise<Accuracy>>();
    std::future<Accuracy> future = promise->get_future();
    std::thread([promise, s] {
        try {
            AccuracyCache cache;
            promise->set_value(estimateAccuracy(s, planMemory(s), cache));
        } catch (...) {
            promise->set_exception(std::current_exception());
        }
    }).detach();
    if (future.wait_for(limit) != std::future_status::ready)
        return {std::nullopt, QStringLiteral("no answer within %1 s").arg(limit.count())};
    try {
        return {future.get(), {}};
    } catch (const Error &error) {
        return {std::nullopt, error.message()};
    } catch (const std::exception &error) {
        return {std::nullopt, QString::fromLocal8Bit(error.what())};
    } catch (...) {
        return {std::nullopt, QStringLiteral("an exception that is no std::exception")};
    }
}

/// The simulator's own figure for one scheme on one tensor, run directly.
quant::SchemeResult simulated(const quant::TensorSource &source, const quant::Scheme &scheme,
                              std::optional<quant::ActivationSource> activations = std::nullopt)
{
    quant::QuantRequest request;
    request.source = source;
    request.schemes = {scheme};
    request.valueHistogram = false;
    request.activations = activations;
    return quant::runQuantization(request).results.constFirst();
}

/// The synthetic tensors as README "Accuracy" describes them, written out here
/// independently of the code under test.
quant::SyntheticSpec weightTensor(std::int64_t rows, std::int64_t cols)
{
    quant::SyntheticSpec spec;
    spec.kind = quant::SyntheticKind::StudentT;
    spec.rows = rows;
    spec.cols = cols;
    spec.seed = 1;
    spec.standardDeviation = 0.02;
    spec.channelScale = 10;
    spec.storedAs = quant::ElementType::BFloat16;
    return spec;
}

quant::SyntheticSpec keyTensor(int headDim, quant::ElementType activations)
{
    quant::SyntheticSpec spec;
    spec.kind = quant::SyntheticKind::Gaussian;
    spec.rows = 4096;
    spec.cols = headDim;
    spec.seed = 2;
    spec.standardDeviation = 1.0;
    spec.channelScale = 10;
    spec.storedAs = activations;
    return spec;
}

quant::Scheme fp8(bool unitScale)
{
    quant::Scheme s;
    s.kind = quant::SchemeKind::Fp8E4M3;
    s.unitScale = unitScale;
    return s;
}

const CompareRow &row(const Comparison &c, const char *key)
{
    for (const CompareRow &r : c.rows)
        if (compareRowKey(r.id) == QLatin1String(key))
            return r;
    qFatal("no row %s", key);
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

    AccuracyCache m_cache; // shared, as a view would keep it
    std::optional<Comparison> m_seed;

    const Comparison &seed()
    {
        if (!m_seed)
            m_seed = compare(seedQuestionColumns(llama8bOnH100()), m_cache);
        return *m_seed;
    }

private Q_SLOTS:
    void accuracyIsTheSimulatorsOnTheSameTensor()
    {
        Scenario s = llama8bOnH100();
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        s.kvCacheDtype = KvCacheDtype::Fp8;
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);

        // Weights: o_proj of Llama-3.1-8B is [hidden 4096, 32 heads x 128].
        QCOMPARE(a.weights.tensor.rows, 4096);
        QCOMPARE(a.weights.tensor.cols, 4096);
        QCOMPARE(a.weights.tensor.stands, QStringLiteral("model.layers.0.self_attn.o_proj.weight"));
        QVERIFY(a.weights.tensor.clipping.isEmpty());
        QVERIFY(std::get<quant::SyntheticSpec>(a.weights.tensor.source) == weightTensor(4096, 4096));
        quant::Scheme awq; // AutoAWQ: int4, zero point, groups of 128, scales searched on activations
        awq.kind = quant::SchemeKind::Int;
        awq.bits = 4;
        awq.groupSize = 128;
        awq.method = quant::IntMethod::Awq;
        // Compare fits on the quantization view's 2,048 synthetic calibration rows and measures
        // the output on 64 held-out rows (the view: 256), and says so.
        quant::SyntheticActivations activations;
        activations.heldOutRows = 64;
        const quant::SchemeResult weights = simulated(weightTensor(4096, 4096), awq, activations);
        QVERIFY(a.weights.error);
        QCOMPARE(a.weights.error->scheme, QStringLiteral("awq-int4-g128"));
        QCOMPARE(a.weights.error->sqnrDb, weights.metrics.sqnrDb);
        QCOMPARE(a.weights.error->relativeError, std::pow(10.0, -weights.metrics.sqnrDb / 20.0));
        // AWQ itself, on synthetic activations, with the output error it is fitted for, and says so.
        QVERIFY(a.weights.error->outputSqnrDb && weights.outputSqnrDb);
        QCOMPARE(*a.weights.error->outputSqnrDb, *weights.outputSqnrDb);
        QVERIFY(*a.weights.error->outputSqnrDb > a.weights.error->sqnrDb);
        QVERIFY(a.weights.notes.join(u' ').contains(QStringLiteral("AWQ's activation-aware scale search")));
        QVERIFY(a.weights.notes.join(u' ').contains(QStringLiteral("fitted on 2048 rows")));
        QVERIFY(a.weights.notes.join(u' ').contains(QStringLiteral("on 64 held-out rows")));

        // Keys: one head of 128 with outlier channels, FP8 E4M3 at vLLM's scale 1.0 and calibrated.
        // vLLM runs AWQ in float16 (AWQConfig.get_supported_act_dtypes), so float16 activations.
        QCOMPARE(planMemory(s).dtype, WeightDtype::Float16);
        const quant::SyntheticSpec keys = keyTensor(128, quant::ElementType::Float16);
        QVERIFY(std::get<quant::SyntheticSpec>(a.kv.keyTensor.source) == keys);
        const quant::SchemeResult engine = simulated(keys, fp8(true));
        const quant::SchemeResult calibrated = simulated(keys, fp8(false));
        QVERIFY(a.kv.keys && a.kv.calibratedKeys && a.kv.values);
        QCOMPARE(a.kv.keys->sqnrDb, engine.metrics.sqnrDb);
        QCOMPARE(a.kv.keys->fp8Scale, 1.0);
        QCOMPARE(a.kv.calibratedKeys->sqnrDb, calibrated.metrics.sqnrDb);
        QVERIFY(a.kv.engineScale.contains(QStringLiteral("1.0")));
        // Combined: the energies of keys and values together, between the two SQNRs.
        const double low = std::min(a.kv.keys->sqnrDb, a.kv.values->sqnrDb);
        const double high = std::max(a.kv.keys->sqnrDb, a.kv.values->sqnrDb);
        QVERIFY(*a.kv.combinedSqnrDb >= low && *a.kv.combinedSqnrDb <= high);
        // About 6 dB per bit: INT4 with groups lands near 20 dB, FP8 E4M3 (3 mantissa bits) near 31.
        QVERIFY2(a.weights.error->sqnrDb > 15 && a.weights.error->sqnrDb < 25,
                 qPrintable(QString::number(a.weights.error->sqnrDb)));
        QVERIFY(a.kv.keys->sqnrDb > 28 && a.kv.keys->sqnrDb < 34);
    }

    void nvfp4KvIsTheSimulatorsNvfp4()
    {
        // vLLM's NVFP4 cache (a Blackwell GPU): the same key tensor through the simulator's NVFP4,
        // E2M1 in blocks of 16 with an E4M3 block scale over the layer's k/v scale (1.0 as vLLM
        // defaults, or amax / (448 x 6) calibrated): about 4 bits, so near 20 dB where FP8 is 31.
        Scenario s = llama8bOnH100();
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("b200"));
        s.kvCacheDtype = KvCacheDtype::Nvfp4;
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);
        quant::Scheme nvfp4;
        nvfp4.kind = quant::SchemeKind::Nvfp4;
        nvfp4.unitScale = true;
        const quant::SyntheticSpec keys = keyTensor(128, quant::ElementType::BFloat16);
        QVERIFY(std::get<quant::SyntheticSpec>(a.kv.keyTensor.source) == keys);
        QVERIFY(a.kv.keys && a.kv.calibratedKeys);
        QCOMPARE(a.kv.keys->sqnrDb, simulated(keys, nvfp4).metrics.sqnrDb);
        nvfp4.unitScale = false;
        QCOMPARE(a.kv.calibratedKeys->sqnrDb, simulated(keys, nvfp4).metrics.sqnrDb);
        QVERIFY2(a.kv.keys->sqnrDb > 17 && a.kv.keys->sqnrDb < 24,
                 qPrintable(QString::number(a.kv.keys->sqnrDb)));
        QVERIFY(!a.kv.attention.isEmpty());
    }

    void sglangFp4MxBlock16KvHasNoScaleToCalibrate()
    {
        // SGLang's fp4_mx_block16 cache on an H100: each block of 16 takes a power-of-two scale from its
        // own maximum (FP4MXBlock16KVQuantizeUtil, python/sglang/srt/layers/quantization/kvfp4_tensor.py),
        // so the engine's figure is the simulator's fp4-mx-block16 and there is no calibrated one.
        Scenario s = llama8bOnH100();
        s.engine = Engine::Sglang;
        s.kvCacheDtype = KvCacheDtype::Fp4MxBlock16;
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);
        quant::Scheme block16;
        block16.kind = quant::SchemeKind::Fp4MxBlock16;
        const quant::SyntheticSpec keys = keyTensor(128, quant::ElementType::BFloat16);
        QVERIFY(a.kv.keys && !a.kv.calibratedKeys);
        QCOMPARE(a.kv.keys->sqnrDb, simulated(keys, block16).metrics.sqnrDb);
        QVERIFY2(a.kv.keys->sqnrDb > 15 && a.kv.keys->sqnrDb < 24,
                 qPrintable(QString::number(a.kv.keys->sqnrDb)));
        QVERIFY(!a.kv.attention.isEmpty());
    }

    void attentionOfTheKvCache()
    {
        // What FP8 keys and values do to attention: 16 decode queries against the Compare tensors
        // extended to 8,192 tokens, logits scaled by 1/sqrt(128), at 1,024, 4,096 and 8,192 tokens;
        // diffuse queries (N(0, 1)) and queries on the keys' four outlier channels at the keys'
        // multipliers (Jin et al. 2025, arXiv 2502.01563: massive values in Q and K, not V); under
        // vLLM's scale 1.0 and a calibrated one.
        Scenario s = llama8bOnH100();
        s.kvCacheDtype = KvCacheDtype::Fp8;
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);
        QCOMPARE(a.kv.attention.size(), 4);
        const QList<std::int64_t> contexts{1024, 4096, 8192};
        quant::SyntheticSpec keys = keyTensor(128, quant::ElementType::BFloat16);
        quant::SyntheticSpec values = keys;
        values.seed = 3;
        values.channelScale = 0;
        keys.rows = values.rows = 8192;
        const quant::TensorData k = quant::generateSynthetic(keys);
        const quant::TensorData v = quant::generateSynthetic(values);
        const auto floats = [](const quant::TensorData &t) { return t.floats(0, t.elements(), nullptr); };
        qsizetype run = 0;
        for (const bool calibrated : {false, true}) {
            const std::vector<float> kq = quant::dequantizeTensor(k, quant::scanTensor(k), fp8(!calibrated));
            const std::vector<float> vq = quant::dequantizeTensor(v, quant::scanTensor(v), fp8(!calibrated));
            for (const quant::QueryModel model :
                 {quant::QueryModel::Diffuse, quant::QueryModel::KeyOutliers}) {
                const std::vector<float> queries = quant::syntheticQueries(keys, model, 16, 4);
                const QList<quant::AttentionErrorAt> expected =
                    quant::attentionErrors({queries.data(), 16, 128, 128},
                                           {{floats(k), 8192, 128, 128},
                                            {floats(v), 8192, 128, 128},
                                            {kq.data(), 8192, 128, 128},
                                            {vq.data(), 8192, 128, 128}},
                                           contexts, 1.0 / std::sqrt(128.0));
                const AttentionRun &got = a.kv.attention.at(run++);
                QCOMPARE(got.queries, model);
                QCOMPARE(got.calibratedScale, calibrated);
                for (qsizetype i = 0; i < 3; ++i) {
                    QCOMPARE(got.errors.at(i).contextTokens, contexts.at(i));
                    QCOMPARE(got.errors.at(i).outputSqnrDb, expected.at(i).outputSqnrDb);
                    QCOMPARE(got.errors.at(i).massMoved, expected.at(i).massMoved);
                }
            }
        }
        // Queries on the keys' large channels make large logits, and the keys' rounding in those
        // channels a large logit error: the attention is sharper and moves more.
        const AttentionRun &diffuse = a.kv.attention.at(0);
        const AttentionRun &sharp = a.kv.attention.at(1);
        QVERIFY(sharp.errors.last().logitStd > 4 * diffuse.errors.last().logitStd);
        QVERIFY(sharp.errors.last().logitErrorRms > 4 * diffuse.errors.last().logitErrorRms);
        QVERIFY(sharp.errors.last().massMoved > diffuse.errors.last().massMoved);
        // The first 4,096 rows of the extended keys are the tensor the element error is simulated on.
        const quant::TensorData shorter =
            quant::generateSynthetic(keyTensor(128, quant::ElementType::BFloat16));
        QVERIFY(std::equal(floats(shorter), floats(shorter) + shorter.elements(), floats(k)));
        // E5M2 keeps 2 mantissa bits to E4M3's 3: about twice the logit error.
        s.kvCacheDtype = KvCacheDtype::Fp8E5M2;
        const Accuracy e5m2 = estimateAccuracy(s, planMemory(s), m_cache);
        for (qsizetype r = 0; r < 2; ++r)
            QVERIFY2(e5m2.kv.attention.at(r).errors.last().logitErrorRms >
                         1.6 * a.kv.attention.at(r).errors.last().logitErrorRms,
                     qPrintable(QStringLiteral("%1 vs %2")
                                    .arg(e5m2.kv.attention.at(r).errors.last().logitErrorRms)
                                    .arg(a.kv.attention.at(r).errors.last().logitErrorRms)));
        // A 16-bit cache: nothing to simulate.
        s.kvCacheDtype = KvCacheDtype::Auto;
        QVERIFY(estimateAccuracy(s, planMemory(s), m_cache).kv.attention.isEmpty());
    }

    void losslessChoicesGiveNull()
    {
        const Scenario s = llama8bOnH100(); // BF16 checkpoint, --dtype auto, KV auto
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);
        QVERIFY(a.weights.lossless);
        QVERIFY(!a.weights.error);
        QVERIFY(a.kv.lossless);
        QVERIFY(!a.kv.combinedSqnrDb);
        const QJsonObject json = accuracyToJson(a);
        QVERIFY(json.value(u"weights").toObject().value(u"sqnr_db").isNull());
        QVERIFY(json.value(u"kv_cache").toObject().value(u"sqnr_db").isNull());
        // Why null is right: the simulator finds no error for BF16 values cast to BF16.
        quant::Scheme bf16;
        bf16.kind = quant::SchemeKind::Bf16;
        QVERIFY(std::isinf(simulated(weightTensor(256, 256), bf16).metrics.sqnrDb));
    }

    void float16OfABfloat16CheckpointIsACast()
    {
        Scenario s = llama8bOnH100();
        s.dtype = WeightDtype::Float16;
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);
        QVERIFY(!a.weights.lossless);
        quant::Scheme fp16;
        fp16.kind = quant::SchemeKind::Fp16;
        QCOMPARE(a.weights.error->sqnrDb, simulated(weightTensor(4096, 4096), fp16).metrics.sqnrDb);
        // BF16 values fit FP16's 11-bit mantissa; only those below 2^-14 lose bits.
        QVERIFY(a.weights.error->sqnrDb > 60);
        // KV auto follows --dtype: FP16 activations in an FP16 cache.
        QVERIFY(a.kv.lossless);
    }

    void aLargeLayerIsSimulatedOnASample()
    {
        Scenario s;
        s.model = test::preset(QStringLiteral("llama-3.1-405b")); // o_proj [16384, 128 heads x 128]
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
        s.tensorParallelSize = 8;
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        AccuracyCache cache;
        const Accuracy a = estimateAccuracy(s, planMemory(s), cache);
        // A synthetic weight tensor is a 4096 x 4096 sample of the layer's distribution, and says so.
        QCOMPARE(a.weights.tensor.rows, 4096);
        QCOMPARE(a.weights.tensor.cols, 4096);
        QCOMPARE(a.weights.tensor.clipping,
                 QStringLiteral("[16384, 16384] simulated as a [4096, 4096] sample of its distribution"));
        QVERIFY(std::get<quant::SyntheticSpec>(a.weights.tensor.source) == weightTensor(4096, 4096));
        QCOMPARE(a.weights.error->scheme, QStringLiteral("fp8-e4m3+a-fp8-token")); // W8A8 on an H100
    }

    void realTensorFromAModelFolder()
    {
        // A model folder whose o_proj is a real F32 tensor [64, 4 x 16] with known values.
        QTemporaryDir dir;
        QByteArray data;
        for (int i = 0; i < 64 * 64; ++i) {
            const float v = 0.001f * float((i * 37) % 101 - 50);
            data.append(reinterpret_cast<const char *>(&v), 4);
        }
        const QString shard = writeTinyLlamaFolder(dir, data);
        Scenario s = llama8bOnH100();
        s.model = importModel(dir.path()).model;
        s.quantization = defaultSpecFor(QuantMethod::Int8);
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);
        QVERIFY(a.weights.tensor.fromCheckpoint);
        QCOMPARE(a.weights.tensor.rows, 64);
        QCOMPARE(a.weights.tensor.cols, 64);
        quant::Scheme int8;
        int8.kind = quant::SchemeKind::Int8;
        const quant::TensorFile file{QDir(dir.path()).filePath(QStringLiteral("model.safetensors")),
                                     QStringLiteral("model.layers.0.self_attn.o_proj.weight")};
        QCOMPARE(shard, file.path);
        QCOMPARE(a.weights.error->sqnrDb, simulated(file, int8).metrics.sqnrDb);
        // The layer output is the checkpoint's own layer's: its weights times Compare's activations,
        // quantized per token as an INT8 W8A8 kernel does on the H100.
        quant::QuantRequest request;
        request.source = file;
        int8.activations = quant::ActivationQuantization::Int8PerToken;
        request.schemes = {int8};
        quant::SyntheticActivations activations;
        activations.heldOutRows = 64;
        request.activations = activations;
        QCOMPARE(*a.weights.error->outputSqnrDb,
                 *quant::runQuantization(request).results.first().outputSqnrDb);
    }

    void aFifoForAnIndexNeverBlocks()
    {
        // The folder imported, then its index replaced by a FIFO: opening a FIFO with no
        // writer blocks forever, so the index must be refused, not opened.
        QTemporaryDir dir;
        writeTinyLlamaFolder(dir, QByteArray(64 * 64 * 4, '\0'));
        Scenario s = llama8bOnH100();
        s.model = importModel(dir.path()).model;
        s.quantization = defaultSpecFor(QuantMethod::Int8);
        const QString index = QDir(dir.path()).filePath(QStringLiteral("model.safetensors.index.json"));
        QVERIFY(mkfifo(QFile::encodeName(index).constData(), 0600) == 0);
        // Blocked, it would never answer: opening a FIFO waits for a writer.
        const AccuracyAnswer answer = accuracyWithin(s, std::chrono::seconds(30));
        QVERIFY2(answer.accuracy,
                 qPrintable(QStringLiteral("estimateAccuracy with a FIFO for its index: ") + answer.failure));
        const Accuracy &a = *answer.accuracy;
        QVERIFY(!a.weights.tensor.fromCheckpoint);
        QVERIFY2(a.weights.notes.join(u'\n').contains(QLatin1String("not a regular file")),
                 qPrintable(a.weights.notes.join(u'\n')));
    }

    void notModelledFormatsSayWhy()
    {
        Scenario s = llama8bOnH100();
        s.quantization = nvfp4();
        const Accuracy a = estimateAccuracy(s, planMemory(s), m_cache);
        QVERIFY(!a.weights.lossless);
        QVERIFY(!a.weights.error);
        QVERIFY(a.weights.notes.join(u' ').contains(QStringLiteral("NVFP4 is not modelled")));
    }

    void scenarioTensorChoiceIsWhatTheComparisonSimulates()
    {
        // The Quantization view's "From the scenario": AWQ's int4 with zero points
        // (the picker's "awq-int4") and its groups of 128, on the o_proj of Llama-3.1-8B.
        Scenario s = llama8bOnH100();
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        const MemoryPlan plan = planMemory(s);
        QuantizationChoices base;
        base.bins = 64; // the view's own settings stay
        base.groupSize = 32;
        base.schemes = {QStringLiteral("nf4"), QStringLiteral("int8")};
        const ScenarioTensorChoice c = scenarioTensorChoice(s, plan, base);
        QCOMPARE(c.choices.schemes, QStringList{QStringLiteral("awq-int4")});
        QCOMPARE(c.choices.groupSize, 128);
        QCOMPARE(c.choices.bins, 64);
        QVERIFY(!c.lossless);
        // The tensor the comparison's weight SQNR comes from, as the picker can hold it.
        const Accuracy a = estimateAccuracy(s, plan, m_cache);
        QCOMPARE(c.tensor.stands, a.weights.tensor.stands);
        QCOMPARE(c.tensor.rows, a.weights.tensor.rows);
        QCOMPARE(c.tensor.cols, a.weights.tensor.cols);
        QCOMPARE(c.choices.input, QStringLiteral("synthetic:student-t"));
        QCOMPARE(c.choices.rows, 4096);
        QCOMPARE(c.choices.cols, 4096);
        QCOMPARE(c.choices.seed, std::uint64_t(1));
        QCOMPARE(c.choices.standardDeviation, 0.02);
        // The picker has no outlier channels: the choice says so instead of passing for the same tensor.
        QVERIFY(c.notes.join(u' ').contains(QStringLiteral("no outlier channels")));

        // GPTQ (symmetric, AutoGPTQ's sym=True): "gptq-int4".
        s.quantization = defaultSpecFor(QuantMethod::Gptq);
        QCOMPARE(scenarioTensorChoice(s, planMemory(s), base).choices.schemes,
                 QStringList{QStringLiteral("gptq-int4")});
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        QCOMPARE(scenarioTensorChoice(s, planMemory(s), base).choices.schemes,
                 QStringList{QStringLiteral("fp8-e4m3")});
        QCOMPARE(scenarioTensorChoice(s, planMemory(s), base).choices.groupSize, 32); // no groups: kept

        // BF16 weights of a BF16 checkpoint: their own dtype, lossless.
        const Scenario plain = llama8bOnH100();
        const ScenarioTensorChoice lossless = scenarioTensorChoice(plain, planMemory(plain), base);
        QVERIFY(lossless.lossless);
        QCOMPARE(lossless.choices.schemes, QStringList{QStringLiteral("bf16")});

        // A format the simulator does not model is refused, naming it.
        s.quantization = nvfp4();
        try {
            scenarioTensorChoice(s, planMemory(s), base);
            QFAIL("NVFP4 has no scheme in the simulator");
        } catch (const Error &error) {
            QVERIFY2(error.message().contains(QStringLiteral("NVFP4")), qPrintable(error.message()));
        }
    }

    void scenarioTensorChoiceOfAModelFolderIsItsTensor()
    {
        QTemporaryDir dir;
        const QByteArray data(64 * 64 * 4, '\0');
        const QString shard = writeTinyLlamaFolder(dir, data);
        Scenario s = llama8bOnH100();
        s.model = importModel(dir.path()).model;
        s.quantization = defaultSpecFor(QuantMethod::Int8);
        const ScenarioTensorChoice c = scenarioTensorChoice(s, planMemory(s), QuantizationChoices());
        QVERIFY(c.tensor.fromCheckpoint);
        QCOMPARE(c.choices.input, shard);
        QCOMPARE(c.choices.tensor, QStringLiteral("model.layers.0.self_attn.o_proj.weight"));
        QCOMPARE(c.choices.schemes, QStringList{QStringLiteral("int8")});
    }

    void seedQuestionFourColumns()
    {
        const Comparison &c = seed();
        QCOMPARE(c.columns.size(), 4);
        QCOMPARE(c.columns.at(0).label, QStringLiteral("BF16 + BF16 KV"));
        QCOMPARE(c.columns.at(1).label, QStringLiteral("BF16 + FP8 KV"));
        // vLLM runs AWQ in float16, so "auto" KV is FP16 there (same bytes as BF16).
        QCOMPARE(c.columns.at(2).label, QStringLiteral("AWQ INT4 + FP16 KV"));
        QCOMPARE(c.columns.at(3).label, QStringLiteral("AWQ INT4 + FP8 KV"));
        const MemoryPlan &bf16 = c.columns.at(0).plan;
        const MemoryPlan &fp8Kv = c.columns.at(1).plan;
        const MemoryPlan &awq = c.columns.at(2).plan;
        // FP8 KV halves the bytes per token: 32 layers x 2 x 8 heads x 128 x 1 B = 65,536 (BF16: 131,072).
        QCOMPARE(bf16.kv.bytesPerToken, 131'072);
        QCOMPARE(fp8Kv.kv.bytesPerToken, 65'536);
        QCOMPARE(fp8Kv.kv.cacheBytes * 2, bf16.kv.cacheBytes);
        // ... and about doubles the capacity (the same available memory, half the page).
        const double ratio = double(fp8Kv.kv.capacityTokens) / double(bf16.kv.capacityTokens);
        QVERIFY2(ratio > 1.99 && ratio < 2.01, qPrintable(QString::number(ratio)));
        // AWQ frees weight memory without changing KV bytes per token.
        QVERIFY(awq.weights.bytesPerGpu < bf16.weights.bytesPerGpu / 2);
        QCOMPARE(awq.kv.bytesPerToken, bf16.kv.bytesPerToken);
        QVERIFY(awq.kv.capacityTokens > bf16.kv.capacityTokens);
        QVERIFY(c.columns.at(2).notes.join(u' ').contains(QStringLiteral("checkpoint stored that way")));
    }

    void sameKvFormatFromAnotherSourceIsExplained()
    {
        // BF16 + FP8 KV casts bfloat16 keys and values to FP8, AWQ INT4 + FP8 KV float16 ones
        // (vLLM runs AWQ in float16): the same format reads two SQNRs, and one note says why.
        const Comparison &c = seed();
        const double bf16Source = *c.columns.at(1).accuracy.kv.combinedSqnrDb;
        const double fp16Source = *c.columns.at(3).accuracy.kv.combinedSqnrDb;
        QVERIFY(bf16Source != fp16Source);
        QCOMPARE(c.notes.size(), 1);
        const QString &note = c.notes.first();
        for (const QString &word :
             {QStringLiteral("“BF16 + FP8 KV”"), QStringLiteral("“AWQ INT4 + FP8 KV”"),
              QStringLiteral("bfloat16"), QStringLiteral("float16"), QStringLiteral("FP8")})
            QVERIFY2(note.contains(word), qPrintable(note));
        const QJsonArray notes = comparisonToJson(c).value(u"notes").toArray();
        QCOMPARE(notes.size(), 1);
        QCOMPARE(notes.first().toString(), note);
        // Columns of one source dtype have nothing to explain.
        Scenario bf16 = llama8bOnH100();
        bf16.kvCacheDtype = KvCacheDtype::Fp8;
        Scenario longer = bf16;
        longer.seqLen *= 2;
        QVERIFY(compare(labelledColumns({bf16, longer}), m_cache).notes.isEmpty());
    }

    void sglangColumnsNameSglang()
    {
        // An SGLang comparison's lines name SGLang: the AWQ checkpoint note and the FP8 KV scale.
        Scenario s = llama8bOnH100();
        s.engine = Engine::Sglang;
        const Comparison c = compare(seedQuestionColumns(s), m_cache);
        const QString awqNote = c.columns.at(2).notes.join(u' ');
        QVERIFY2(awqNote.contains(QLatin1String("SGLang loads AWQ weights only from a checkpoint")),
                 qPrintable(awqNote));
        const QString scale = c.columns.at(1).accuracy.kv.engineScale;
        QVERIFY2(scale.contains(QLatin1String("SGLang's k/v scale")), qPrintable(scale));
        // Its source is SGLang's own code, not vLLM's documentation.
        QVERIFY2(scale.contains(QLatin1String("python/sglang/srt/layers/quantization/kv_cache.py")) &&
                     !scale.contains(QLatin1String("vllm")),
                 qPrintable(scale));
        for (const ComparedColumn &column : c.columns) {
            const QString said = (column.notes + column.accuracy.weights.notes + column.accuracy.kv.notes +
                                  column.plan.notes + QStringList{column.accuracy.kv.engineScale})
                                     .join(u' ');
            QVERIFY2(!said.contains(QLatin1String("vLLM loads")) && !said.contains(QLatin1String("vLLM's")),
                     qPrintable(said));
        }
        QCOMPARE(compareRowLabel(CompareRowId::KvCapacityTokens),
                 QStringLiteral("KV capacity as the engine logs it"));
    }

    void columnsEqualTheIndividualPlans()
    {
        const Comparison &c = seed();
        // One cache apart from the comparison's: each column's figures are simulated again, and a
        // tensor two columns share (AWQ's weights, FP8's cache) once.
        AccuracyCache fresh;
        for (const ComparedColumn &column : c.columns) {
            const MemoryPlan alone = planMemory(column.scenario);
            QCOMPARE(column.plan.weights.bytesPerGpu, alone.weights.bytesPerGpu);
            QCOMPARE(column.plan.kv.capacityTokens, alone.kv.capacityTokens);
            QCOMPARE(column.plan.headroomBytes, alone.headroomBytes);
            QCOMPARE(column.plan.speed.decodeTokensPerSecond, alone.speed.decodeTokensPerSecond);
            const Accuracy accuracy = estimateAccuracy(column.scenario, alone, fresh);
            QCOMPARE(column.accuracy.kv.combinedSqnrDb, accuracy.kv.combinedSqnrDb);
            QCOMPARE(column.accuracy.weights.lossless, accuracy.weights.lossless);
        }
    }

    void deltasAndBestPerRow()
    {
        const Comparison &c = seed();
        const CompareRow &kvPerToken = row(c, "kv_bytes_per_token");
        QCOMPARE(*kvPerToken.cells.at(1).delta, -65'536.0);
        QCOMPARE(*kvPerToken.cells.at(1).deltaPercent, -50.0);
        QCOMPARE(*kvPerToken.cells.at(2).delta, 0.0);
        QCOMPARE(kvPerToken.best, (QList<int>{1, 3})); // less memory is better; ties all count
        const CompareRow &weights = row(c, "weights_bytes");
        QCOMPARE(weights.best, (QList<int>{2, 3}));
        const double freed =
            double(c.columns.at(2).plan.weights.bytesPerGpu - c.columns.at(0).plan.weights.bytesPerGpu);
        QCOMPARE(*weights.cells.at(2).delta, freed);
        const CompareRow &capacity = row(c, "kv_capacity_tokens");
        QCOMPARE(capacity.best, (QList<int>{3})); // more capacity is better
        QCOMPARE(*capacity.cells.at(0).delta, 0.0);
        // SQNR: lossless (null) beats every finite figure.
        const CompareRow &weightSqnr = row(c, "weight_sqnr_db");
        QVERIFY(weightSqnr.cells.at(0).lossless && !weightSqnr.cells.at(0).value);
        QCOMPARE(weightSqnr.best, (QList<int>{0, 1}));
        QVERIFY(!weightSqnr.cells.at(2).delta); // no difference to a lossless figure
        const CompareRow &kvSqnr = row(c, "kv_sqnr_db");
        QCOMPARE(kvSqnr.best, (QList<int>{0, 2}));
        // The same KV format on activations rounded to bfloat16 (column 2) or float16 (AWQ, column 4):
        // different tensors, so not the same figure, but within a tenth of a dB.
        QVERIFY(*kvSqnr.cells.at(1).value != *kvSqnr.cells.at(3).value);
        QVERIFY(std::fabs(*kvSqnr.cells.at(1).value - *kvSqnr.cells.at(3).value) < 0.1);
        // Figures equal up to rounding have no difference, and a row where all tie has no best.
        const CompareRow &ttft = row(c, "prefill_seconds");
        for (const CompareCell &cell : ttft.cells)
            QCOMPARE(*cell.delta, 0.0);
        QCOMPARE(ttft.best, QList<int>{});
        QCOMPARE(row(c, "decode_bound").best, QList<int>{});
        // The errors where they matter: the AWQ columns' layer output (AWQ fitted to the activations
        // lowers it far below the weights' own), and the FP8 caches' attention output.
        const CompareRow &layer = row(c, "layer_output_sqnr_db");
        QVERIFY(layer.cells.at(0).lossless && layer.cells.at(1).lossless);
        QCOMPARE(*layer.cells.at(2).value, *c.columns.at(2).accuracy.weights.error->outputSqnrDb);
        QVERIFY(*layer.cells.at(2).value > *row(c, "weight_sqnr_db").cells.at(2).value + 10.0);
        const CompareRow &attention = row(c, "attention_output_sqnr_db");
        QVERIFY(attention.cells.at(0).lossless && attention.cells.at(2).lossless);
        QCOMPARE(*attention.cells.at(1).value,
                 *attentionOutputSqnrDb(c.columns.at(1).accuracy.kv, quant::QueryModel::Diffuse));
        QVERIFY(*attention.cells.at(1).value < *kvSqnr.cells.at(1).value);
        // The verdict first: all four fit an 80 GB H100.
        QCOMPARE(c.rows.size(), 15);
        QCOMPARE(c.rows.first().id, CompareRowId::Runs);
        for (const CompareCell &cell : c.rows.first().cells)
            QCOMPARE(cell.text, QStringLiteral("fits"));
    }

    void comparisonJson()
    {
        const QJsonObject json = comparisonToJson(seed());
        const QJsonArray variants = json.value(u"variants").toArray();
        QCOMPARE(variants.size(), 4);
        const QJsonObject first = variants.at(0).toObject();
        QVERIFY(first.value(u"weight_sqnr_db").isNull());
        QVERIFY(first.value(u"kv_sqnr_db").isNull());
        QCOMPARE(first.value(u"kv_bytes_per_token").toInteger(), 131'072);
        QVERIFY(first.contains(u"decode_tokens_per_second"));
        const QJsonObject fourth = variants.at(3).toObject();
        QVERIFY(fourth.value(u"weight_sqnr_db").isDouble());
        QCOMPARE(fourth.value(u"options").toObject().value(u"kv-cache-dtype").toString(),
                 QStringLiteral("fp8"));
        QCOMPARE(fourth.value(u"options").toObject().value(u"quantization").toString(),
                 QStringLiteral("awq"));
    }

    void overridesRoundTrip()
    {
        const Scenario base = llama8bOnH100();
        Scenario changed = base;
        changed.gpu = *GpuLibrary::builtin().find(QStringLiteral("a100-80gb"));
        changed.kvCacheDtype = KvCacheDtype::Fp8E5M2;
        changed.quantization = defaultSpecFor(QuantMethod::Gptq);
        changed.quantization->groupSize = 64;
        changed.gpuMemoryUtilizationPpm = 850'000;
        changed.batchSize = 48;
        changed.maxModelLen = 32'768;
        const ScenarioValues diff = differingValues(base, changed);
        QCOMPARE(diff.value(QStringLiteral("gpu")), QStringLiteral("a100-80gb"));
        QCOMPARE(diff.value(QStringLiteral("group-size")), QStringLiteral("64"));
        QCOMPARE(diff.value(QStringLiteral("gpu-memory-utilization")), QStringLiteral("0.85"));
        QCOMPARE(diff.size(), 7);
        const Scenario back = applyValues(base, diff);
        QVERIFY(differingValues(changed, back).isEmpty());
        QCOMPARE(back.quantization->groupSize, 64);
        // And back to the default context: "auto" spells 0.
        QCOMPARE(differingValues(changed, base).value(QStringLiteral("max-model-len")),
                 QStringLiteral("auto"));
        QCOMPARE(applyValues(changed, differingValues(changed, base)).maxModelLen, 0);
    }

    void overrideErrorsNameTheOption()
    {
        const Scenario base = llama8bOnH100();
        KVSCOPE_VERIFY_ERROR(applyValues(base, {{QStringLiteral("kv-cache-dtype"), QStringLiteral("fp9")}}),
                             QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp9"));
        KVSCOPE_VERIFY_ERROR(applyValues(base, {{QStringLiteral("batch-size"), QStringLiteral("-3")}}),
                             QStringLiteral("--batch-size"), QStringLiteral("'-3'"));
        KVSCOPE_VERIFY_ERROR(applyValues(base, {{QStringLiteral("colour"), QStringLiteral("red")}}),
                             QStringLiteral("--colour"), QStringLiteral("unknown option"));
        KVSCOPE_VERIFY_ERROR(
            variantColumns(base, {{}, {{QStringLiteral("group-size"), QStringLiteral("64")}}}),
            QStringLiteral("variant 2"), QStringLiteral("--group-size"));
    }

    void labelsTellEqualPrecisionsApart()
    {
        const QList<ComparisonColumn> columns =
            variantColumns(llama8bOnH100(), {{}, {{QStringLiteral("batch-size"), QStringLiteral("64")}}});
        QCOMPARE(columns.at(0).label, QStringLiteral("BF16 + BF16 KV"));
        QCOMPARE(columns.at(1).label, QStringLiteral("BF16 + BF16 KV (--batch-size 64)"));
        // In the engine's own flags: SGLang's attention groups are --dp-size.
        Scenario sglang = llama8bOnH100();
        sglang.model = test::preset(QStringLiteral("qwen3-30b-a3b"));
        sglang.engine = Engine::Sglang;
        sglang.tensorParallelSize = 4;
        const QList<ComparisonColumn> groups =
            variantColumns(sglang, {{},
                                    {{QStringLiteral("data-parallel-size"), QStringLiteral("2")},
                                     {QStringLiteral("enable-dp-attention"), QStringLiteral("true")}}});
        QCOMPARE(groups.at(1).label, QStringLiteral("BF16 + BF16 KV (--dp-size 2 --enable-dp-attention)"));
        // Columns whose precisions differ say what else differs too (a chart's legend on a slide is all
        // that tells them apart), never the precision options the label already names.
        const QList<ComparisonColumn> mixed = variantColumns(
            llama8bOnH100(), {{},
                              {{QStringLiteral("kv-cache-dtype"), QStringLiteral("fp8")},
                               {QStringLiteral("model"), QStringLiteral("qwen2.5-7b")}},
                              {{QStringLiteral("quantization"), QStringLiteral("awq")},
                               {QStringLiteral("group-size"), QStringLiteral("64")},
                               {QStringLiteral("tensor-parallel-size"), QStringLiteral("2")}}});
        QCOMPARE(mixed.at(0).label, QStringLiteral("BF16 + BF16 KV"));
        QCOMPARE(mixed.at(1).label, QStringLiteral("BF16 + FP8 KV (--model qwen2.5-7b)"));
        QCOMPARE(mixed.at(2).label, QStringLiteral("AWQ INT4 + FP16 KV (--tensor-parallel-size 2)"));
        // The seed question's columns differ in their precisions alone: their labels stay bare.
        for (const ComparisonColumn &column : seedQuestionColumns(llama8bOnH100()))
            QVERIFY2(!column.label.contains(QLatin1Char('(')), qPrintable(column.label));
    }

    // The serving features' preset: the bare deployment, then each feature alone, each with the
    // figures the issue quotes for Llama-3.1-8B on one H100 at 8,192 tokens.
    void servingFeaturesEachAlone()
    {
        Scenario s = llama8bOnH100();
        s.seqLen = 8192;
        s.maxLoras = 2; // the explorer's own features do not leak into the bare column
        const QList<ComparisonColumn> columns = servingFeatureColumns(s);
        QCOMPARE(columns.size(), 4);
        const Scenario &bare = columns.at(0).scenario;
        QCOMPARE(bare.maxLoras, 0);
        QVERIFY(!bare.speculative.enabled());
        QCOMPARE(bare.sharedPrefixLen, 0);
        QCOMPARE(bare.seqLen, 8192);

        // The drafter: the model's EAGLE-3 draft (resources/presets/drafts.json) with 3 drafts a
        // step; its layer joins the pool (131,072 -> 135,168 B a token, one layer of 8 KV heads x 128
        // in 16 bits more) and its weights load with the model's.
        const MemoryPlan drafted = planMemory(columns.at(1).scenario);
        QCOMPARE(columns.at(1).scenario.speculative.method, SpeculativeMethod::Eagle3);
        QCOMPARE(columns.at(1).scenario.speculative.numSpeculativeTokens, ServingFeatureDrafts);
        QCOMPARE(drafted.kv.bytesPerToken, 135'168);
        QCOMPARE(drafted.weights.draftBytes, std::int64_t(850'159'616));
        QVERIFY(drafted.speed.speculative);

        // 4 LoRA slots of rank 64: 5 MiB per slot per unit of rank in 16 bits (core/plan/lora.h),
        // 4 x 64 x 5 MiB = 1.25 GiB.
        const MemoryPlan adapted = planMemory(columns.at(2).scenario);
        QCOMPARE(adapted.weights.loraBytes, std::int64_t(4) * 64 * 5 * 1024 * 1024);
        QCOMPARE(columns.at(2).label, QStringLiteral("BF16 + BF16 KV (--max-loras 4 --max-lora-rank 64)"));

        // A system prompt of half the sequence, 4,096 tokens = 256 blocks of 16, held once: a request
        // then needs 256 blocks of its own where it needed 512, so the pool holds about twice the
        // requests (the pool's blocks less the shared ones, over 256).
        const MemoryPlan plain = planMemory(bare);
        const MemoryPlan shared = planMemory(columns.at(3).scenario);
        QCOMPARE(columns.at(3).scenario.sharedPrefixLen, 4096);
        const std::int64_t poolBlocks = plain.kv.numGpuBlocks;
        QCOMPARE(shared.kv.numGpuBlocks, poolBlocks);
        QCOMPARE(plain.largestBatchThatFits, poolBlocks / 512);
        QCOMPARE(shared.largestBatchThatFits, (poolBlocks - 256) / 256);
        QCOMPARE(plain.largestBatchThatFits, 54); // README: 54 -> 108
        QCOMPARE(shared.largestBatchThatFits, 108);

        // Under SGLang: the bare column, the EAGLE-3 drafter (its own pool), SGLang's LoRA pool (the same
        // 1.25 GiB, named by SGLang's flag) and the shared prefix.
        Scenario sglang = s;
        sglang.engine = Engine::Sglang;
        sglang.maxLoras = 0;
        const QList<ComparisonColumn> sglangColumns = servingFeatureColumns(sglang);
        QCOMPARE(sglangColumns.size(), 4);
        QCOMPARE(sglangColumns.at(1).scenario.speculative.method, SpeculativeMethod::Eagle3);
        QCOMPARE(planMemory(sglangColumns.at(2).scenario).weights.loraBytes,
                 std::int64_t(4) * 64 * 5 * 1024 * 1024);
        QCOMPARE(sglangColumns.at(2).label,
                 QStringLiteral("BF16 + BF16 KV (--max-loras-per-batch 4 --max-lora-rank 64)"));
        QCOMPARE(sglangColumns.at(3).scenario.sharedPrefixLen, 4096);

        // gpt-oss's sliding-window layers keep other tokens than its full ones: no shared prefix; its
        // drafter is n-gram, and its LoRA slots wrap its fused experts (FusedMoE3DWithLoRA).
        Scenario oss = s;
        oss.maxLoras = 0;
        oss.model = test::preset(QStringLiteral("gpt-oss-20b"));
        int loraColumns = 0;
        for (const ComparisonColumn &column : servingFeatureColumns(oss)) {
            QCOMPARE(column.scenario.sharedPrefixLen, 0);
            loraColumns += column.scenario.maxLoras > 0 ? 1 : 0;
        }
        QCOMPARE(loraColumns, 1);
    }

    void quantizedCheckpointsAndColumnCounts()
    {
        Scenario s = llama8bOnH100();
        s.model = test::preset(QStringLiteral("gpt-oss-20b")); // MXFP4 experts in the checkpoint
        const QList<ComparisonColumn> columns = seedQuestionColumns(s);
        QCOMPARE(columns.size(), 2);
        QCOMPARE(columns.at(1).scenario.kvCacheDtype, KvCacheDtype::Fp8);
        QVERIFY(!columns.at(0).scenario.quantization);
        KVSCOPE_VERIFY_ERROR(compare(columns.mid(0, 1), m_cache), QStringLiteral("comparison"),
                             QStringLiteral("2 to 4 columns, got 1"));
    }

    // The closest published results first: of the scenario's model family (Llama for the seed's
    // Llama-3.1-8B), then the rest; a format nothing published measures is named.
    void publishedResultsOfTheFamilyComeFirst()
    {
        const Comparison &c = seed();
        const QList<PublishedResult> &awq = c.columns.at(2).published;
        QVERIFY(!awq.isEmpty());
        QCOMPARE(modelFamily(c.columns.at(2).scenario.model), QStringLiteral("llama"));
        bool other = false;
        int same = 0;
        for (const PublishedResult &r : awq) {
            QCOMPARE(r.sameFamily, r.model.contains(QStringLiteral("llama"), Qt::CaseInsensitive));
            QVERIFY2(!(other && r.sameFamily), qPrintable(r.model)); // no family entry after another's
            other = other || !r.sameFamily;
            same += r.sameFamily ? 1 : 0;
        }
        QVERIFY(same >= 2); // the AWQ paper's Llama-2 rows
        QVERIFY(other);     // and Qwen2's, after them
        QCOMPARE(publishedResultToJson(awq.first()).value(QLatin1String("same_family")).toBool(), true);
        // A Qwen model with AWQ weights: Qwen2's row comes before the file's earlier Llama-2 rows.
        Scenario qwen = c.columns.at(2).scenario;
        qwen.model = resolveModel(QStringLiteral("qwen2.5-7b"));
        const QList<PublishedResult> forQwen = publishedResultsFor(qwen, planMemory(qwen));
        QVERIFY(forQwen.size() > 1);
        QVERIFY2(forQwen.first().model.startsWith(QStringLiteral("Qwen")), qPrintable(forQwen.first().model));
        const auto firstAwq =
            std::find_if(publishedResults().cbegin(), publishedResults().cend(),
                         [](const PublishedResult &r) { return r.format == QLatin1String("awq"); });
        QVERIFY(firstAwq->model.startsWith(QStringLiteral("Llama"))); // the file's order puts Llama first
        // bitsandbytes NF4 weights: a published result measures them (Qwen-7B's, another family's), so
        // nothing is missing; a bfloat16 run of a float16 checkpoint nothing published measures, and the
        // column says so.
        Scenario s = c.columns.at(0).scenario;
        QuantizationSpec nf4;
        nf4.method = QuantMethod::BitsAndBytesNf4;
        s.quantization = nf4;
        const MemoryPlan plan = planMemory(s);
        QVERIFY(formatsWithoutPublishedResults(s, plan).isEmpty());
        QVERIFY(!publishedResultsFor(s, plan).isEmpty());
        Scenario cast = c.columns.at(0).scenario;
        cast.model.checkpointDtype = WeightDtype::Float16;
        cast.dtype = WeightDtype::BFloat16;
        QCOMPARE(formatsWithoutPublishedResults(cast, planMemory(cast)),
                 QStringList{dtypeName(WeightDtype::BFloat16)});
        QVERIFY(formatsWithoutPublishedResults(c.columns.at(2).scenario, c.columns.at(2).plan).isEmpty());
    }

    void publishedResultsHaveSources()
    {
        const QList<PublishedResult> &all = publishedResults();
        QVERIFY(all.size() >= 10);
        for (const PublishedResult &r : all) {
            QVERIFY2(r.source.startsWith(QStringLiteral("https://")), qPrintable(r.model));
            QVERIFY(r.aspect == QLatin1String("weights") || r.aspect == QLatin1String("kv_cache"));
        }
        // The AWQ paper's Table 4: Llama-2-7B WikiText-2 perplexity 5.47 (FP16) -> 5.60 (AWQ INT4 g128).
        const Comparison &c = seed();
        bool awq7b = false;
        for (const PublishedResult &r : c.columns.at(2).published) {
            QCOMPARE(r.format, QStringLiteral("awq"));
            awq7b = awq7b ||
                    (r.model == QLatin1String("Llama-2-7B") && r.baseline == 5.47 && r.quantized == 5.60);
        }
        QVERIFY(awq7b);
        QVERIFY(c.columns.at(0).published.isEmpty()); // lossless: nothing to look up
        bool vllmFp8 = false;
        for (const PublishedResult &r : c.columns.at(1).published)
            vllmFp8 = vllmFp8 || r.source.endsWith(QStringLiteral("/pull/23647"));
        QVERIFY(vllmFp8);
        KVSCOPE_VERIFY_ERROR(
            publishedResultsFromJson(R"({"results": [{"aspect": "weights", "format": "awq", "model": "m",
                "benchmark": "b", "baseline": {"value": 1}, "quantized": {"value": 2}}]})",
                                     QStringLiteral("test.json")),
            QStringLiteral("test.json"), QStringLiteral("'source'"));
    }

    void publishedChangeWithItsUncertainty()
    {
        // llm-compressor's NVFP4 Llama-3.1-8B: GSM8K 0.7710 ± 0.0116 -> 0.7248 ± 0.0123. The change
        // -0.0462, its standard error sqrt(0.0116² + 0.0123²) = 0.01691: more than twice it, worse.
        // A perplexity (lower is better) 6.232 ± 0.04 -> 6.234 ± 0.04: +0.002 ± 0.0566, within twice it.
        // (The JSON is built here: moc misreads a raw string that holds "//".)
        const auto entry = [](const char *aspect, const char *format, bool higherIsBetter, double baseline,
                              double baselineStderr, double quantized, double quantizedStderr) {
            QJsonObject b{{QStringLiteral("value"), baseline}};
            QJsonObject q{{QStringLiteral("value"), quantized}};
            if (baselineStderr != 0)
                b.insert(u"stderr", baselineStderr);
            if (quantizedStderr != 0)
                q.insert(u"stderr", quantizedStderr);
            return QJsonObject{{QStringLiteral("aspect"), QLatin1String(aspect)},
                               {QStringLiteral("format"), QLatin1String(format)},
                               {QStringLiteral("model"), QStringLiteral("m")},
                               {QStringLiteral("benchmark"), QStringLiteral("b")},
                               {QStringLiteral("higher_is_better"), higherIsBetter},
                               {QStringLiteral("baseline"), b},
                               {QStringLiteral("quantized"), q},
                               {QStringLiteral("source"), QStringLiteral("https://example.org")}};
        };
        const QJsonArray entries{entry("weights", "compressed-tensors", true, 0.7710, 0.0116, 0.7248, 0.0123),
                                 entry("kv_cache", "q8_0", false, 6.232, 0.04, 6.234, 0.04),
                                 entry("kv_cache", "q8_0", false, 5.47, 0, 5.6, 0)};
        const QList<PublishedResult> r = publishedResultsFromJson(
            QJsonDocument(QJsonObject{{QStringLiteral("results"), entries}}).toJson(),
            QStringLiteral("test.json"));
        QVERIFY(std::fabs(publishedChange(r.at(0)) + 0.0462) < 1e-12);
        QVERIFY(std::fabs(*publishedChangeStderr(r.at(0)) - std::sqrt(0.0116 * 0.0116 + 0.0123 * 0.0123)) <
                1e-15);
        QCOMPARE(publishedChangeText(r.at(0)), QStringLiteral("\u22120.0462 \u00b1 0.0169, worse"));
        QCOMPARE(publishedChangeText(r.at(1)),
                 QStringLiteral("+0.002 \u00b1 0.057, within twice its standard error"));
        // No printed standard errors: the change alone, and no verdict.
        QVERIFY(!publishedChangeStderr(r.at(2)));
        QCOMPARE(publishedChangeText(r.at(2)), QStringLiteral("+0.13"));
        const QJsonObject o = publishedResultToJson(r.at(0));
        QCOMPARE(o.value(u"quantized").toObject().value(u"stderr").toDouble(), 0.0123);
        QCOMPARE(o.value(u"change").toDouble(), publishedChange(r.at(0)));
        QCOMPARE(o.value(u"change_stderr").toDouble(), *publishedChangeStderr(r.at(0)));
        QVERIFY(publishedResultToJson(r.at(2)).value(u"change_stderr").isNull());
        const QByteArray negative =
            QJsonDocument(QJsonObject{{QStringLiteral("results"),
                                       QJsonArray{entry("weights", "awq", true, 1, -1, 2, 0)}}})
                .toJson();
        KVSCOPE_VERIFY_ERROR(publishedResultsFromJson(negative, QStringLiteral("test.json")),
                             QStringLiteral("test.json"), QStringLiteral("'stderr'"));
    }

    void publishedResultsDocumentHasEveryEntry()
    {
        // docs/published-results.md is the text form of the built-in file: one row per entry, same figures.
        QFile file(test::sourceTreePath(QStringLiteral("docs/published-results.md")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        for (const PublishedResult &r : publishedResults()) {
            const QStringList cells{
                QStringLiteral("`%1`").arg(r.format),
                r.model,
                r.benchmark,
                QStringLiteral("%1: %2").arg(r.baselineLabel, publishedValueText(r.baseline)),
                QStringLiteral("%1: %2").arg(r.quantizedLabel, publishedValueText(r.quantized)),
                QStringLiteral("<%1>").arg(r.source)};
            const bool found = std::any_of(lines.cbegin(), lines.cend(), [&](const QString &line) {
                return std::all_of(cells.cbegin(), cells.cend(),
                                   [&](const QString &c) { return line.contains(c); });
            });
            QVERIFY2(found,
                     qPrintable(QStringLiteral("no row for %1 %2 %3").arg(r.format, r.model, r.benchmark)));
        }
        QCOMPARE(publishedValueText(6.232196), QStringLiteral("6.232196"));
        QCOMPARE(publishedValueText(5.60), QStringLiteral("5.6"));
    }

    void mxfp8ActivationsOfTheMxfp4MoeKernel()
    {
        // gpt-oss-120b's MXFP4 experts on a B200: with 16-bit activations the weights' error alone; under
        // the MXFP4 x MXFP8 MoE kernel the experts' inputs are MXFP8 (FlashInfer's mxfp8_quantize: E4M3
        // with a power-of-two scale per 32 values), not FP8 with one scale per token.
        Scenario s = llama8bOnH100();
        s.model = test::preset(QStringLiteral("gpt-oss-120b"));
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("b200"));
        const Accuracy bf16 = estimateAccuracy(s, planMemory(s), m_cache);
        QCOMPARE(bf16.weights.error->scheme, QStringLiteral("mxfp4"));
        s.moeMxfp8Activations = true;
        const Accuracy mxfp8 = estimateAccuracy(s, planMemory(s), m_cache);
        QCOMPARE(mxfp8.weights.error->scheme, QStringLiteral("mxfp4+a-mxfp8"));
        QCOMPARE(mxfp8.weights.error->sqnrDb, bf16.weights.error->sqnrDb); // the same weights
        QVERIFY(*mxfp8.weights.error->outputSqnrDb < *bf16.weights.error->outputSqnrDb);
        QVERIFY2(mxfp8.weights.notes.join(QLatin1Char(' ')).contains(QLatin1String("MXFP8")),
                 qPrintable(mxfp8.weights.notes.join(QLatin1Char('\n'))));
    }

    void layerOutputOfEveryWeightFormat()
    {
        // Every simulated weight format reports the layer output's error on Compare's activations,
        // and a W8A8 kernel's includes the activations' own rounding: FP8 per token on an H100
        // (vLLM fp8.py), weight-only through Marlin on an A100 (no FP8 tensor cores).
        // Qwen2.5-0.5B: its o_proj [896, 896] simulates in a twentieth of Llama-3.1-8B's time.
        Scenario s = llama8bOnH100();
        s.model = test::preset(QStringLiteral("qwen2.5-0.5b"));
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        const Accuracy h100 = estimateAccuracy(s, planMemory(s), m_cache);
        QCOMPARE(h100.weights.error->scheme, QStringLiteral("fp8-e4m3+a-fp8-token"));
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("a100-80gb"));
        const Accuracy a100 = estimateAccuracy(s, planMemory(s), m_cache);
        QCOMPARE(a100.weights.error->scheme, QStringLiteral("fp8-e4m3"));
        QCOMPARE(a100.weights.error->sqnrDb, h100.weights.error->sqnrDb); // the same weights
        QVERIFY2(*h100.weights.error->outputSqnrDb < *a100.weights.error->outputSqnrDb - 1.0,
                 qPrintable(QStringLiteral("%1 %2")
                                .arg(*h100.weights.error->outputSqnrDb)
                                .arg(*a100.weights.error->outputSqnrDb)));
        // The same figure from the simulator directly, on the tensor and activations the notes name.
        quant::QuantRequest request;
        request.source = h100.weights.tensor.source;
        quant::Scheme fp8 = quant::parseScheme(QStringLiteral("fp8-e4m3"));
        fp8.activations = quant::ActivationQuantization::Fp8PerToken;
        request.schemes = {fp8};
        quant::SyntheticActivations activations;
        activations.heldOutRows = 64;
        request.activations = activations;
        QCOMPARE(*quant::runQuantization(request).results.first().outputSqnrDb,
                 *h100.weights.error->outputSqnrDb);
        // INT8 W8A8: one scale per token, stretched by the 20-100x outlier channels, costs the layer
        // output far more than the weights' own rounding (SmoothQuant's motivation).
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
        s.quantization = defaultSpecFor(QuantMethod::Int8);
        const Accuracy int8 = estimateAccuracy(s, planMemory(s), m_cache);
        QCOMPARE(int8.weights.error->scheme, QStringLiteral("int8+a-int8-token"));
        QVERIFY(*int8.weights.error->outputSqnrDb < int8.weights.error->sqnrDb - 5.0);
        // Weight-only NF4: its output error alone, noted.
        s.quantization = defaultSpecFor(QuantMethod::BitsAndBytesNf4);
        const Accuracy nf4 = estimateAccuracy(s, planMemory(s), m_cache);
        QVERIFY(nf4.weights.error->outputSqnrDb.has_value());
        QVERIFY(std::any_of(nf4.weights.notes.cbegin(), nf4.weights.notes.cend(), [](const QString &n) {
            return n.startsWith(QStringLiteral("the layer output's SQNR is on 64 rows"));
        }));
    }

    void warmCacheSimulatesNothing()
    {
        // Knob changes that keep the formats (batch, GPU) reuse every result: no tensor is loaded.
        Scenario s = llama8bOnH100();
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        s.kvCacheDtype = KvCacheDtype::Fp8;
        (void)estimateAccuracy(s, planMemory(s), m_cache);
        const int simulated = m_cache.simulatedCount();
        s.batchSize = 64;
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("a100-80gb"));
        const Accuracy again = estimateAccuracy(s, planMemory(s), m_cache);
        QVERIFY(again.weights.error && again.kv.keys && !again.kv.attention.isEmpty());
        QCOMPARE(m_cache.simulatedCount(), simulated);
    }

    void cancelledBeforeAndDuring()
    {
        const QList<ComparisonColumn> columns = seedQuestionColumns(llama8bOnH100());
        std::atomic<bool> cancel{true};
        quant::RunControl control;
        control.cancel = &cancel;
        // Set before: even with every figure cached, nothing is computed.
        QVERIFY_THROWS_EXCEPTION(quant::Cancelled, compare(columns, m_cache, control));
        // Set while the first column's accuracy runs (a fresh cache: real simulations).
        cancel = false;
        double reached = 0;
        control.progress = [&](double fraction) {
            reached = std::max(reached, fraction);
            if (fraction > 0.05)
                cancel = true;
        };
        AccuracyCache fresh;
        QVERIFY_THROWS_EXCEPTION(quant::Cancelled, compare(columns, fresh, control));
        QVERIFY2(reached < 0.5, qPrintable(QString::number(reached)));
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
