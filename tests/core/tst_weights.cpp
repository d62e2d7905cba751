// SPDX-License-Identifier: MIT
// Weight storage per quantization method: scales and zero points counted,
// unquantized layers kept in --dtype, tensor-parallel sharding.
#include "core/library/library.h"
#include "core/model/inventory.h"
#include "core/plan/planner.h"
#include "core/plan/weights.h"
#include "tests/testsupport.h"

#include <cmath>
#include <utility>

#include <QTest>

using namespace kvscope;
using kvscope::test::preset;

class TestWeights : public QObject
{
    Q_OBJECT

private:
    static WeightMemory weightsOf(const QString &id, QuantMethod method, int tp = 1,
                                  WeightDtype dtype = WeightDtype::BFloat16)
    {
        const ModelArch &m = preset(id);
        return weightMemory(m, tensorInventory(m), defaultSpecFor(method), dtype, tp);
    }

private Q_SLOTS:
    void matrixBytes_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::addColumn<qint64>("bytes");
        // 4096 x 4096 matrix, hand computed from each format's storage layout
        // (docs/quantization-formats.md §1, §3, §4, §5, §7).
        const qint64 n = 4096LL * 4096;
        QTest::newRow("none, bf16") << int(QuantMethod::None) << 4096LL << 4096LL << n * 2;
        QTest::newRow("fp8 per-tensor: 1 B + one fp32 scale")
            << int(QuantMethod::Fp8) << 4096LL << 4096LL << n + 4;
        QTest::newRow("int8 per-channel: 1 B + fp32 per row")
            << int(QuantMethod::Int8) << 4096LL << 4096LL << n + 4096 * 4;
        // AWQ g128: n/2 qweight + 32 groups x 4096 rows x (2 B scale + 0.5 B zero)
        QTest::newRow("awq int4 g128")
            << int(QuantMethod::Awq) << 4096LL << 4096LL << n / 2 + 32 * 4096 * 2 + 32 * 4096 / 2;
        QTest::newRow("gptq int4 g128 + int32 g_idx")
            << int(QuantMethod::Gptq) << 4096LL << 4096LL << n / 2 + 32 * 4096 * 2 + 32 * 4096 / 2 + 4096 * 4;
        // NF4 + double quantization: n/2 + n/64 int8 absmax + (n/64)/256 fp32 + 4 B offset
        QTest::newRow("nf4 double-quant") << int(QuantMethod::BitsAndBytesNf4) << 4096LL << 4096LL
                                          << n / 2 + n / 64 + (n / 64 / 256) * 4 + 4;
        QTest::newRow("mxfp4: n/2 + one E8M0 per 32")
            << int(QuantMethod::Mxfp4) << 4096LL << 4096LL << n / 2 + n / 32;
    }

    void matrixBytes()
    {
        QFETCH(int, method);
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        QFETCH(qint64, bytes);
        QCOMPARE(quantizedMatrixBytes(defaultSpecFor(QuantMethod(method)), rows, cols, 2), bytes);
    }

    void awqBitsPerWeight()
    {
        // docs/quantization-formats.md §4: 4 + 16/128 + 4/128 = 4.15625 bits.
        const WeightMemory w =
            weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::Awq, 1, WeightDtype::Float16);
        QCOMPARE(w.quantizedBitsPerWeight, 4.15625);
        // Quantized: every decoder linear layer; embeddings, lm_head and norms stay fp16.
        QCOMPARE(w.quantizedParams, 32LL * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336));
        const qint64 unquantized = 2 * 128'256LL * 4096 + 32 * 2 * 4096 + 4096;
        QCOMPARE(w.checkpointBytes,
                 w.quantizedParams * 133 / 256 + unquantized * 2); // 4.15625 / 8 = 133 / 256
        QVERIFY(w.bitsPerWeight > 5.6 && w.bitsPerWeight < 5.8);   // effective over the whole model
    }

    void storageSplit_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<qint64>("values");
        QTest::addColumn<qint64>("scales");
        QTest::addColumn<qint64>("zeros");
        QTest::addColumn<qint64>("other");
        // The same 4096 x 4096 matrices as matrixBytes, split by what the bytes hold.
        const qint64 n = 4096LL * 4096;
        QTest::newRow("none") << int(QuantMethod::None) << n * 2 << 0LL << 0LL << 0LL;
        QTest::newRow("fp8") << int(QuantMethod::Fp8) << n << 4LL << 0LL << 0LL;
        QTest::newRow("awq") << int(QuantMethod::Awq) << n / 2 << 32LL * 4096 * 2 << 32LL * 4096 / 2 << 0LL;
        QTest::newRow("gptq") << int(QuantMethod::Gptq) << n / 2 << 32LL * 4096 * 2 << 32LL * 4096 / 2
                              << 4096LL * 4;
        QTest::newRow("nf4") << int(QuantMethod::BitsAndBytesNf4) << n / 2 << n / 64 + (n / 64 / 256) * 4 + 4
                             << 0LL << 0LL;
        QTest::newRow("mxfp4") << int(QuantMethod::Mxfp4) << n / 2 << n / 32 << 0LL << 0LL;
    }

    void storageSplit()
    {
        QFETCH(int, method);
        QFETCH(qint64, values);
        QFETCH(qint64, scales);
        QFETCH(qint64, zeros);
        QFETCH(qint64, other);
        const QuantizationSpec spec = defaultSpecFor(QuantMethod(method));
        const MatrixStorage storage = quantizedMatrixStorage(spec, 4096, 4096, 2);
        QCOMPARE(storage.values, values);
        QCOMPARE(storage.scales, scales);
        QCOMPARE(storage.zeros, zeros);
        QCOMPARE(storage.other, other);
        QCOMPARE(storage.total(), quantizedMatrixBytes(spec, 4096, 4096, 2));
    }

    void awqBitsSplitAndUnquantizedShare()
    {
        // AWQ g128: per quantized weight 4 value bits, 16/128 scale bits, 4/128 zero-point bits;
        // the embedding, lm_head (128,256 x 4,096 each) and norms stay fp16.
        const WeightMemory w =
            weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::Awq, 1, WeightDtype::Float16);
        const MatrixStorage &q = w.quantizedStorage;
        QCOMPARE(8.0 * double(q.values) / double(w.quantizedParams), 4.0);
        QCOMPARE(8.0 * double(q.scales) / double(w.quantizedParams), 16.0 / 128);
        QCOMPARE(8.0 * double(q.zeros) / double(w.quantizedParams), 4.0 / 128);
        QCOMPARE(q.other, 0LL);
        QCOMPARE(q.total(), w.quantizedBytes);
        const qint64 unquantized = 2 * 128'256LL * 4096 + 32 * 2 * 4096 + 4096;
        QCOMPARE(w.unquantizedParams, unquantized);
        QCOMPARE(w.unquantizedBytes, unquantized * 2);
        QCOMPARE(w.quantizedBytes + w.unquantizedBytes, w.checkpointBytes);
    }

    void gptqAddsGroupIndex()
    {
        // GPTQ stores g_idx (int32 per input channel): + 32/out bits per weight.
        const WeightMemory awq = weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::Awq);
        const WeightMemory gptq = weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::Gptq);
        // Per layer: q,k,v,o,gate,up take 4096 inputs, down 14336.
        const qint64 gIdxBytes = 32LL * 4 * (6 * 4096 + 14336);
        QCOMPARE(gptq.checkpointBytes - awq.checkpointBytes, gIdxBytes);
    }

    void mxfp4OnlyOnExperts()
    {
        // gpt-oss: MXFP4 on MoE experts; attention, router, embeddings, lm_head in bf16.
        const ModelArch &m = preset(QStringLiteral("gpt-oss-120b"));
        const WeightMemory w = weightsOf(QStringLiteral("gpt-oss-120b"), QuantMethod::Mxfp4);
        const qint64 expertWeights = 36LL * 128 * (2 * 2880 * 2880 + 2880 * 2880);
        QCOMPARE(w.quantizedParams, expertWeights);
        QCOMPARE(w.quantizedBitsPerWeight, 4.25); // quantization-formats.md §7: 4 + 8/32
        const qint64 others = countParameters(m).total - expertWeights;
        QCOMPARE(w.checkpointBytes, expertWeights * 17 / 32 + others * 2);
    }

    void mxfp4OnDenseModelChangesNothing()
    {
        const WeightMemory none = weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::None);
        const WeightMemory mx = weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::Mxfp4);
        QCOMPARE(mx.bytesPerGpu, none.bytesPerGpu);
        QCOMPARE(mx.quantizedParams, 0LL);
    }

    void deepSeekFp8Blocks()
    {
        // DeepSeek-V3 ships FP8 with one fp32 scale per 128x128 block
        // (config.json quantization_config.weight_block_size).
        const ModelArch &m = preset(QStringLiteral("deepseek-v3"));
        QCOMPARE(m.checkpointQuantization.method, QuantMethod::Fp8);
        QCOMPARE(m.checkpointQuantization.blockRows, 128);
        const WeightMemory w =
            weightMemory(m, tensorInventory(m), m.checkpointQuantization, WeightDtype::BFloat16, 1);
        QVERIFY(w.quantizedBitsPerWeight > 8.0 && w.quantizedBitsPerWeight < 8.0 + 32.0 / 16384 + 0.001);
        // The published FP8 checkpoint is 642 GiB-ish for 671B: 1 byte per weight dominates.
        QVERIFY(w.checkpointBytes > 671'000'000'000LL && w.checkpointBytes < 700'000'000'000LL);
    }

    void nf4LeavesLmHead()
    {
        const WeightMemory w = weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::BitsAndBytesNf4);
        // QLoRA: 4 + 8/64 + 32/(64 x 256) = 4.127 bits (+ one fp32 offset per tensor).
        QVERIFY(qAbs(w.quantizedBitsPerWeight - 4.127) < 0.001);
        QCOMPARE(w.byComponent[int(Component::LmHead)], 128'256LL * 4096 * 2);
    }

    void tensorParallelSharding()
    {
        // Llama-3.1-8B at TP2: linear layers split in half; norms replicated;
        // vocab 128256 is a multiple of 64 so embeddings split exactly.
        const WeightMemory one = weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::None, 1);
        const WeightMemory two = weightsOf(QStringLiteral("llama-3.1-8b"), QuantMethod::None, 2);
        const qint64 norms = (32LL * 2 * 4096 + 4096) * 2;
        QCOMPARE(two.bytesPerGpu - two.buffersBytes,
                 (one.bytesPerGpu - one.buffersBytes - norms) / 2 + norms);
        // vLLM log (tests/data/vllm-logs.json id 3): "Model loading took 7.51 GiB" at TP2.
        QCOMPARE(QString::number(double(two.bytesPerGpu) / (1 << 30), 'f', 2), QStringLiteral("7.51"));
        QCOMPARE(QString::number(double(one.bytesPerGpu) / (1 << 30), 'f', 2), QStringLiteral("14.99"));
    }

    // vLLM loads Mistral-Small-3.1 in Mistral's own format (its preset says so, with the source), whose
    // Pixtral tower was built of nn.Linear layers until vllm-project/vllm#36963: under vLLM 0.19 every
    // rank holds the whole tower, from 0.20 it is split as the text layers are; SGLang loads the HF
    // format and splits it. The sweep's vLLM 0.19.0 runs log "Model loading took" 22.80 GiB at TP 2 and
    // 11.86 at TP 4 (tests/data/vllm-logs.json ids 144 and 145), 44.76 at TP 1 (id 10).
    void aMistralFormatTowerIsWholeOnEveryRankUntilVllm020()
    {
        const auto plan = [](int tp, const char *version, Engine engine) {
            Scenario s = test::layoutScenario(QStringLiteral("mistral-small-3.1-24b"),
                                              QStringLiteral("h100-sxm"), tp, 1, false);
            s.engine = engine;
            s.vllmVersion = QLatin1String(version);
            return planMemory(s);
        };
        const auto gib = [](std::int64_t bytes) {
            return QString::number(double(bytes) / (1 << 30), 'f', 2);
        };
        const std::int64_t tower = plan(1, "0.19", Engine::Vllm).weights.byComponent[int(Component::Vision)];
        QVERIFY(tower > 0);
        for (const int tp : {2, 4}) {
            QCOMPARE(plan(tp, "0.19", Engine::Vllm).weights.byComponent[int(Component::Vision)], tower);
            // Split: a TP-th of the tower's linear layers, and its patch convolution and norms whole.
            const std::int64_t split =
                plan(tp, "0.20", Engine::Vllm).weights.byComponent[int(Component::Vision)];
            QVERIFY(split > tower / tp && split < tower / tp * 21 / 20);
            QCOMPARE(plan(tp, "", Engine::Sglang).weights.byComponent[int(Component::Vision)], split);
        }
        // Within 0.2 % of the logged loads; split over the ranks instead, 1.7 and 5.2 % short.
        for (const auto &[tp, logged] : {std::pair{1, 44.76}, std::pair{2, 22.80}, std::pair{4, 11.86}}) {
            const double planned = double(plan(tp, "0.19", Engine::Vllm).weights.bytesPerGpu) / (1 << 30);
            QVERIFY2(std::abs(planned / logged - 1) < 0.002,
                     qPrintable(gib(std::int64_t(planned * (1 << 30)))));
        }
    }

    void rotaryBuffer()
    {
        // 131072 positions x 128 rotary dims x 2 B = 32 MiB (vLLM cos_sin_cache in the model dtype).
        QCOMPARE(rotaryBufferBytes(preset(QStringLiteral("llama-3.1-8b")), WeightDtype::BFloat16,
                                   VllmMultimodalRopeScale),
                 32LL << 20);
        // Gemma 3's global layers scale their positions linearly by 8 (rope_scaling {"factor": 8.0,
        // "rope_type": "linear"}): vLLM's LinearScalingRotaryEmbedding builds max_position x factor rows
        // (vllm/model_executor/layers/rotary_embedding/linear_scaling_rope.py: "max_len =
        // self.max_position_embeddings * scaling_factor"), 1,048,576 x 256 x 2 B = 512 MiB, beside the
        // local layers' unscaled 131,072 x 256 x 2 B = 64 MiB: 576 MiB where an unscaled count gives 128.
        QCOMPARE(rotaryBufferBytes(preset(QStringLiteral("gemma-3-12b")), WeightDtype::BFloat16,
                                   VllmMultimodalRopeScale),
                 (131'072LL * 8 + 131'072) * 256 * 2);
        // YaRN builds original_max_position_embeddings x factor rows: DeepSeek-V3's 4,096 x 40 = 163,840,
        // its max_position_embeddings.
        QCOMPARE(rotaryBufferBytes(preset(QStringLiteral("deepseek-v3")), WeightDtype::BFloat16,
                                   VllmMultimodalRopeScale),
                 163'840LL * 64 * 2);
        // Qwen2.5-VL's multimodal rope: vLLM's MRotaryEmbedding builds 4 x 128,000 rows for long videos
        // (cache_max_position_num, vllm/model_executor/layers/rotary_embedding/mrope.py), SGLang's
        // 128,000 (python/sglang/srt/layers/rotary_embedding/mrope.py), which it keeps in float32.
        const ModelArch vl = preset(QStringLiteral("qwen2.5-vl-7b"));
        QCOMPARE(rotaryBufferBytes(vl, WeightDtype::BFloat16, VllmMultimodalRopeScale),
                 4 * 128'000LL * 128 * 2);
        Scenario s;
        s.model = vl;
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
        QCOMPARE(planMemory(s).weights.buffersBytes, 4 * 128'000LL * 128 * 2);
        s.engine = Engine::Sglang;
        QCOMPARE(planMemory(s).weights.buffersBytes, 128'000LL * 128 * 4);
    }

    void parameterTensorsAsTheModelClassesCreateThem()
    {
        // Llama-3.1-8B at TP 2 in 16 bits, as vLLM's and SGLang's LlamaForCausalLM create its parameters:
        // the embedding (128,256 / 2 x 4,096), then layer by layer q, k and v as one qkv_proj ((4,096 + 2 x
        // 1,024) / 2 x 4,096), o_proj (4,096 x 2,048), gate and up as one gate_up_proj (2 x 7,168 x 4,096),
        // down_proj (4,096 x 7,168) and the two norms (4,096); the final norm and lm_head.
        const ModelArch &m = preset(QStringLiteral("llama-3.1-8b"));
        const QList<std::int64_t> tensors =
            parameterTensorBytes(m, tensorInventory(m), QuantizationSpec{}, WeightDtype::BFloat16, 2);
        QCOMPARE(tensors.size(), 1 + 32 * 6 + 2);
        QCOMPARE(tensors.first(), 64'128LL * 4096 * 2);
        const QList<std::int64_t> layer = tensors.mid(1, 6);
        QCOMPARE(layer, (QList<std::int64_t>{3072LL * 4096 * 2, 4096LL * 2048 * 2, 14'336LL * 4096 * 2,
                                             4096LL * 7168 * 2, 4096 * 2, 4096 * 2}));
        // Together they are the weights weightMemory() counts, less the rotary table.
        std::int64_t sum = 0;
        for (const std::int64_t bytes : tensors)
            sum += bytes;
        const WeightMemory w =
            weightMemory(m, tensorInventory(m), QuantizationSpec{}, WeightDtype::BFloat16, 2);
        QCOMPARE(sum, w.bytesPerGpu - w.buffersBytes);
    }

    void vllmLoadCountsTheAllocatorsBlocks()
    {
        // vLLM logs "Model loading took" as torch.cuda.memory_allocated() after the load less before it
        // (DeviceMemoryProfiler, vllm/utils/mem_utils.py; CudaPlatform.get_current_memory_usage), and the
        // caching allocator counts a block whole where splitting it would leave 1 MiB or less
        // (core/plan/cachingallocator.h). Qwen2.5-72B at TP 4 in 16 bits: each layer's gate_up_proj
        // (2 x 7,392 x 8,192 x 2 B = 231 MiB) holds a 232 MiB block and its down_proj (115.5 MiB) a 116 MiB
        // one; every other tensor fills its block (the embedding and head 594 MiB, qkv_proj 40 MiB, o_proj
        // 32 MiB, the rotary table 8 MiB in a 20 MiB segment split): 80 x 1.5 MiB more than the tensors.
        Scenario s;
        s.model = preset(QStringLiteral("qwen2.5-72b"));
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
        s.tensorParallelSize = 4;
        const MemoryPlan four = planMemory(s);
        constexpr std::int64_t MiB = std::int64_t(1) << 20;
        QCOMPARE(four.weights.loadSlackBytes, 80 * 3 * MiB / 2);
        QCOMPARE(four.weights.bytesPerGpu - four.weights.loadSlackBytes,
                 weightMemory(s.model, tensorInventory(s.model), QuantizationSpec{}, WeightDtype::BFloat16, 4)
                     .bytesPerGpu);
        // vLLM 0.19 logged 34.01 GiB for it (tests/data/vllm-logs.json id 65, Kimi-Dev-72B, the same
        // tensors); the tensors alone are 33.89 GiB.
        QCOMPARE(QString::number(double(four.weights.bytesPerGpu) / (1 << 30), 'f', 2),
                 QStringLiteral("34.01"));
        // The plan says so where it moves the weights' figure as shown (hundredths of a GiB).
        const auto saysSo = [](const MemoryPlan &plan) {
            return plan.notes.join(u'\n').contains(QStringLiteral("counts PyTorch's allocator blocks whole"));
        };
        QVERIFY(saysSo(four));
        // At TP 2 the gate_up_proj fills its 462 MiB and the down_proj (231 MiB) holds 232: 80 MiB.
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).weights.loadSlackBytes, 80 * MiB);
        // Llama-3.1-8B on one GPU: every tensor a whole multiple of 2 MiB, nothing more. At TP 2 its
        // embedding and head (64,128 x 4,096 x 2 B = 501 MiB each) hold 502 MiB blocks: 2 MiB.
        s.model = preset(QStringLiteral("llama-3.1-8b"));
        s.tensorParallelSize = 1;
        QCOMPARE(planMemory(s).weights.loadSlackBytes, std::int64_t(0));
        s.tensorParallelSize = 2;
        QCOMPARE(planMemory(s).weights.loadSlackBytes, 2 * MiB);
        QVERIFY(!saysSo(planMemory(s))); // 2 MiB: 7.51 GiB either way
    }
};

QTEST_GUILESS_MAIN(TestWeights)
#include "tst_weights.moc"
