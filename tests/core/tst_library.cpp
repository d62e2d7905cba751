// SPDX-License-Identifier: MIT
// The model and GPU library: the picker's grouped listing and search, GPU
// preset fields, and custom GPUs (validation and the round trip the GUI
// uses to remember them).
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/engine/runtime.h"
#include "core/gpu/customgpu.h"
#include "core/library/library.h"
#include "core/output/presetlist.h"
#include "core/scenario/launchline.h"
#include "core/scenario/scenario.h"
#include "tests/tensorfiles.h"
#include "tests/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace kvscope;

class TestLibrary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void presetsGroupByFamilySmallestFirst()
    {
        const QList<PresetFamily> families = presetsByFamily(ModelLibrary::builtin().presets());
        int total = 0;
        QStringList names;
        for (const PresetFamily &f : families) {
            names << f.family;
            total += f.presets.size();
            for (qsizetype i = 1; i < f.presets.size(); ++i)
                QVERIFY(f.presets.at(i - 1).paramsTotal <= f.presets.at(i).paramsTotal);
        }
        QCOMPARE(total, ModelLibrary::builtin().presets().size());
        QCOMPARE(names.removeDuplicates(), 0);
        // Qwen3 holds the dense and MoE models, smallest first.
        const auto qwen3 = std::find_if(families.begin(), families.end(), [](const PresetFamily &f) {
            return f.family == QLatin1String("Qwen3");
        });
        QVERIFY(qwen3 != families.end());
        QCOMPARE(qwen3->presets.first().id, QStringLiteral("qwen3-0.6b"));
        QCOMPARE(qwen3->presets.last().id, QStringLiteral("qwen3-235b-a22b"));
    }

    void summaryFigures()
    {
        // Llama-3.1-8B: 8,030,261,248 parameters and 32 x 2 x 8 x 128 x 2 B (by hand from its preset's
        // config.json).
        const PresetSummary s = summarizePreset(test::preset(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(s.paramsTotal, 8'030'261'248LL);
        QCOMPARE(s.kvBytesPerTokenBf16, 131'072LL);
        QCOMPARE(s.maxPositionEmbeddings, 131'072LL);
        QVERIFY(!s.moe && !s.mla);
        const PresetSummary ds = summarizePreset(test::preset(QStringLiteral("deepseek-v3")));
        QVERIFY(ds.moe && ds.mla);
    }

    void search_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("ids");
        QTest::newRow("by repo id") << "meta-llama/Llama-3.3" << QStringList{QStringLiteral("llama-3.3-70b")};
        QTest::newRow("every word must match")
            << "gemma 27b" << QStringList{QStringLiteral("gemma-2-27b"), QStringLiteral("gemma-3-27b")};
        QTest::newRow("kind words") << "deepseek mla"
                                    << QStringList{QStringLiteral("deepseek-v3"),
                                                   QStringLiteral("deepseek-v2-lite"),
                                                   QStringLiteral("deepseek-r1"),
                                                   QStringLiteral("deepseek-v3.2-exp")};
        QTest::newRow("case-insensitive family")
            << "PHI-4" << QStringList{QStringLiteral("phi-4-mini"), QStringLiteral("phi-4")};
        QTest::newRow("hybrid recurrent models")
            << "hybrid"
            << QStringList{QStringLiteral("qwen3-next-80b-a3b"), QStringLiteral("granite-4.0-h-tiny"),
                           QStringLiteral("granite-4.0-h-small")};
        QTest::newRow("nothing") << "llama 9000" << QStringList{};
    }

    void search()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, ids);
        QStringList found;
        for (const PresetFamily &f : presetsByFamily(ModelLibrary::builtin().presets(), filter))
            for (const PresetSummary &p : f.presets)
                found << p.id;
        found.sort();
        ids.sort();
        QCOMPARE(found, ids);
    }

    void gpuSearch_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("ids");
        QTest::newRow("by alias") << "sxm5" << QStringList{QStringLiteral("h100-sxm")};
        QTest::newRow("by vendor") << "amd"
                                   << QStringList{QStringLiteral("mi300x"), QStringLiteral("mi325x")};
        QTest::newRow("every word must match, in any field")
            << "pcie 80gb" << QStringList{QStringLiteral("h100-pcie"), QStringLiteral("a100-pcie-80gb")};
        QTest::newRow("case-insensitive")
            << "apple ULTRA" << QStringList{QStringLiteral("apple-m2-ultra-192gb")};
        QTest::newRow("nothing") << "h100 40gb" << QStringList{};
    }

    void gpuSearch()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, ids);
        QStringList found;
        for (const GpuSpec &g : GpuLibrary::builtin().presets())
            if (presetMatches(g, filter))
                found << g.id;
        found.sort();
        ids.sort();
        QCOMPARE(found, ids);
        // An empty filter keeps every GPU.
        for (const GpuSpec &g : GpuLibrary::builtin().presets())
            QVERIFY(presetMatches(g, QStringLiteral("  ")));
    }

    void findsByEveryName()
    {
        // Id, display name or another name (repo id, alias), ignoring case and blanks around it.
        const ModelLibrary &models = ModelLibrary::builtin();
        for (const char *name : {"qwen3-8b", "QWEN3-8B ", " Qwen/Qwen3-8B-Base"}) {
            const ModelArch *m = models.find(QLatin1String(name));
            QVERIFY2(m && m->id == QLatin1String("qwen3-8b"), name);
        }
        QVERIFY(!models.find(QStringLiteral("Qwen/Qwen3")));
        const GpuLibrary &gpus = GpuLibrary::builtin();
        for (const char *name : {"h100-sxm", "NVIDIA H100 SXM 80GB", "H100-SXM5"}) {
            const GpuSpec *g = gpus.find(QLatin1String(name));
            QVERIFY2(g && g->id == QLatin1String("h100-sxm"), name);
        }
        QVERIFY(!gpus.find(QStringLiteral("h100-sxm6")));
    }

    void aRepoIdServesThatRepoWithItsOwnContext()
    {
        // Qwen2.5-72B-Instruct's config.json is set for 32,768 tokens where the base model's has
        // 131,072 (Qwen2.5 model cards, "Processing Long Texts"; the source is in the preset).
        const ModelArch instruct = resolveModel(QStringLiteral("qwen/qwen2.5-72b-instruct"));
        QCOMPARE(instruct.maxPositionEmbeddings, 32768);
        QCOMPARE(instruct.hfRepoIds.first(), QStringLiteral("Qwen/Qwen2.5-72B-Instruct"));
        QVERIFY(
            instruct.notes.join(QLatin1Char(' ')).contains(QLatin1String("max_position_embeddings 32,768")));
        Scenario s;
        s.model = instruct;
        QVERIFY(launchLine(s).command().startsWith(QLatin1String("vllm serve Qwen/Qwen2.5-72B-Instruct")));
        // The preset id and the base repository keep the base model's.
        for (const char *name : {"qwen2.5-72b", "Qwen/Qwen2.5-72B"}) {
            const ModelArch base = resolveModel(QLatin1String(name));
            QCOMPARE(base.maxPositionEmbeddings, 131072);
            QCOMPARE(base.hfRepoIds.first(), QStringLiteral("Qwen/Qwen2.5-72B"));
        }
        // A repo of a preset without its own context: only the served repository changes.
        const ModelArch llama = resolveModel(QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(llama.hfRepoIds.first(), QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(llama.maxPositionEmbeddings, 131072);
    }

    void malformedPresetsNameTheFile()
    {
        QCOMPARE(test::errorOf([] {
                     ModelLibrary::fromJson(R"({"models": [{"name": "x", "config": {}}]})",
                                            QStringLiteral("m.json"));
                 }),
                 QStringLiteral("m.json: a model entry has no id"));
        // The format vLLM loads a preset's repository in: Mistral's own, on a model with a vision tower only.
        const QString textOnly = QStringLiteral(
            R"({"models": [{"id": "t", "vllm_config_format": "%1", "config": {"model_type": "llama",
                "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
                "vocab_size": 256}}]})");
        for (const char *format : {"mistral", "hf"})
            QCOMPARE(
                test::errorOf([&] {
                    ModelLibrary::fromJson(textOnly.arg(QLatin1String(format)).toUtf8(),
                                           QStringLiteral("m.json"));
                }),
                QStringLiteral("m.json [t].vllm_config_format: expected \"mistral\" on a model with a vision "
                               "tower, got \"%1\"")
                    .arg(QLatin1String(format)));
        QVERIFY(resolveModel(QStringLiteral("mistral-small-3.1-24b")).vision.mistralFormat);
        QVERIFY(!resolveModel(QStringLiteral("qwen2.5-vl-7b")).vision.mistralFormat);
        QCOMPARE(test::errorOf(
                     [] { GpuLibrary::fromJson(R"({"gpus": [{"name": "x"}]})", QStringLiteral("g.json")); }),
                 QStringLiteral("g.json: a GPU entry has no id"));
        QCOMPARE(test::errorOf([] {
                     GpuLibrary::fromJson(R"({"gpus": [{"id": "x", "memory_gb_marketed": 0}]})",
                                          QStringLiteral("g.json"));
                 }),
                 QStringLiteral("g.json [x]: no memory size"));
        const GpuLibrary two = GpuLibrary::fromJson(
            R"({"gpus": [{"id": "a", "memory_mib_cuda": 1024}, {"id": "b", "memory_gb_marketed": 2}]})",
            QStringLiteral("g.json"));
        QCOMPARE(two.presets().size(), 2);
        QCOMPARE(two.find(QStringLiteral("B"))->memoryBytes, 2'000'000'000LL);
    }

    void gpuPresetsCarryEveryField()
    {
        // The data file names each field even where the value is unknown (null), with a source.
        QFile file(QStringLiteral(":/presets/gpus.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray gpus =
            QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("gpus")).toArray();
        QVERIFY(gpus.size() >= 20);
        for (const QJsonValue v : gpus) {
            const QJsonObject o = v.toObject();
            const QString id = o.value(QLatin1String("id")).toString();
            for (const char *key : {"memory_gb_marketed", "memory_mib_nvidia_smi", "memory_mib_cuda",
                                    "bandwidth_gbps", "tflops_bf16_dense", "tflops_fp8_dense",
                                    "tflops_int8_dense", "tflops_fp32_vector", "fp8_native", "source"})
                QVERIFY2(o.contains(QLatin1String(key)),
                         qPrintable(id + QLatin1Char(' ') + QLatin1String(key)));
            QVERIFY2(o.value(QLatin1String("bandwidth_gbps")).toDouble() > 0, qPrintable(id));
            // Every NVIDIA datasheet gives the FP32 (non-tensor) rate weight-only kernels unpack on.
            if (o.value(QLatin1String("vendor")).toString() == QLatin1String("NVIDIA"))
                QVERIFY2(o.value(QLatin1String("tflops_fp32_vector")).toDouble() > 0, qPrintable(id));
        }
        for (const GpuSpec &g : GpuLibrary::builtin().presets())
            QVERIFY2(g.memoryBytes > 0 && !g.source.isEmpty(), qPrintable(g.id));
        // Apple M-series: a device with N GB of unified memory, sold in GiB.
        const GpuSpec *m2 = GpuLibrary::builtin().find(QStringLiteral("apple-m2-ultra-192gb"));
        QVERIFY(m2);
        QCOMPARE(m2->memoryBytes, 192LL << 30);
        QCOMPARE(m2->memoryBasis, QStringLiteral("marketed"));
    }

    void customGpus()
    {
        CustomGpuInput in;
        in.name = QStringLiteral("Lab card 40G");
        in.memoryBytes = 40LL << 30;
        in.bandwidthGBs = 1500;
        in.tflopsBf16 = 300;
        in.tflopsFp8 = 600;
        in.tflopsFp32Vector = 60;
        in.fp8Native = true;
        const GpuSpec g = customGpu(in);
        QVERIFY(g.custom);
        QCOMPARE(g.id, QStringLiteral("custom-lab-card-40g"));
        QCOMPARE(g.memoryBytes, 40LL << 30);
        QCOMPARE(g.memoryBasis, QStringLiteral("custom"));
        // Remembered through JSON / QSettings and read back unchanged.
        QCOMPARE(customGpuFromJson(gpuToJson(g), QStringLiteral("settings")), g);
        QCOMPARE(g.tflopsFp32Vector.value_or(0), 60.0);
        in.tflopsFp32Vector = -1;
        QVERIFY(test::errorFrom([&] { customGpu(in); }).contains(QStringLiteral("FP32 vector TFLOPS")));
        in.tflopsFp32Vector = 60;
        QCOMPARE(customGpuFromVariantMap(gpuToVariantMap(g), QStringLiteral("settings")), g);
        QCOMPARE(customGpu(QString(), GiB).name, QStringLiteral("Custom GPU"));
        // --gpu custom:MEMORY_GIB[:BANDWIDTH[:TFLOPS]], exact to 10^-6 GiB.
        QCOMPARE(parseCustomGpuOption(QStringLiteral("custom:80")).memoryBytes, 80LL << 30);
        QCOMPARE(parseCustomGpuOption(QStringLiteral("custom:0.5:100")).memoryBytes, GiB / 2);
        QCOMPARE(parseCustomGpuOption(QStringLiteral("custom:0.5:100")).bandwidthGBs, 100.0);
        QCOMPARE(resolveGpu(QStringLiteral("custom:8:273:26")).tflopsBf16.value(), 26.0);
        // A fourth number is the GPU-to-GPU link in GB/s: 128 or less is PCIe, where vLLM keeps one GPU's
        // memory outside PyTorch at any TP (runtimeOverheadBytes: 0.25 GiB, not NVLink's 2.07).
        const GpuSpec pcie = resolveGpu(QStringLiteral("custom:95.01:1597:0:128"));
        QCOMPARE(pcie.interconnectGBs.value_or(-1), 128.0);
        QVERIFY(!resolveGpu(QStringLiteral("custom:95.01")).interconnectGBs);
        QCOMPARE(runtimeOverheadBytes(pcie, 2), runtimeOverheadBytes(pcie, 1));
        QCOMPARE(customGpuFromJson(gpuToJson(pcie), QStringLiteral("settings")).interconnectGBs,
                 pcie.interconnectGBs);
        QVERIFY(test::errorFrom([] {
                    resolveGpu(QStringLiteral("custom:95.01:1597:0:fast"));
                }).startsWith(QStringLiteral("--gpu: ")));
    }

    void presetsKnowTheNameTheirDriverReports()
    {
        // torch.cuda.get_device_name() as vLLM writes it into its fused-MoE config file names (spaces as
        // underscores; vllm/model_executor/layers/fused_moe/configs/*device_name=...json).
        QCOMPARE(gpuForDeviceName(QStringLiteral("NVIDIA_H100_80GB_HBM3"))->id, QStringLiteral("h100-sxm"));
        QCOMPARE(gpuForDeviceName(QStringLiteral("NVIDIA H100 80GB HBM3"))->id, QStringLiteral("h100-sxm"));
        QCOMPARE(gpuForDeviceName(QStringLiteral("NVIDIA_L40S"))->id, QStringLiteral("l40s"));
        QCOMPARE(gpuForDeviceName(QStringLiteral("NVIDIA_RTX_6000_Ada_Generation"))->id,
                 QStringLiteral("rtx-6000-ada"));
        QCOMPARE(gpuForDeviceName(QStringLiteral("Tesla_T4"))->id, QStringLiteral("t4"));
        QCOMPARE(gpuForDeviceName(QStringLiteral("NVIDIA_A100-SXM4-80GB"))->id, QStringLiteral("a100-80gb"));
        QVERIFY(!gpuForDeviceName(QStringLiteral("NVIDIA_H20")));
    }

    void aPresetWithTheMemoryItsHostReports()
    {
        // --gpu PRESET:MEMORY_GIB: the preset as it is, with the total its host's CUDA reports (drivers, ECC
        // and MIG move it: an L40S logged total_memory=44.42GiB where the preset has 44.52), exact to 10^-6
        // GiB.
        const GpuSpec &l40s = *GpuLibrary::builtin().find(QStringLiteral("l40s"));
        const GpuSpec g = resolveGpu(QStringLiteral("l40s:44.42"));
        QCOMPARE(g.memoryBytes, std::int64_t(44'420'000) * GiB / 1'000'000);
        QCOMPARE(g.id, QStringLiteral("l40s:44.42"));
        QCOMPARE(g.presetId, QStringLiteral("l40s"));
        QVERIFY2(g.name.contains(l40s.name) && g.name.contains(QStringLiteral("44.42")), qPrintable(g.name));
        QCOMPARE(g.bandwidthGBs, l40s.bandwidthGBs);
        QCOMPARE(g.interconnectGBs, l40s.interconnectGBs);
        QCOMPARE(g.arch, l40s.arch);
        QVERIFY(!g.custom);
        // An alias names the preset too; its id is the preset's.
        QCOMPARE(resolveGpu(QStringLiteral("L40S:44.42")).id, QStringLiteral("l40s:44.42"));
        // Refused, naming --gpu and the value: no such preset, no memory, more than 1 PiB.
        for (const QString &bad : {QStringLiteral("nosuch:44.42"), QStringLiteral("l40s:0"),
                                   QStringLiteral("l40s:lots"), QStringLiteral("l40s:2000000")})
            QVERIFY2(test::errorFrom([&] { resolveGpu(bad); }).startsWith(QStringLiteral("--gpu: ")),
                     qPrintable(bad));
    }

    void badCustomGpus_data()
    {
        QTest::addColumn<qint64>("memory");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<double>("tflops");
        QTest::addColumn<QString>("message");
        QTest::newRow("no memory") << 0LL << 0.0 << 0.0
                                   << "memory must be between 1 byte and 1 PiB, got 0 bytes";
        QTest::newRow("negative memory") << -5LL << 0.0 << 0.0 << "got -5 bytes";
        QTest::newRow("past 1 PiB") << (qint64(1) << 51) << 0.0 << 0.0 << "1 PiB";
        QTest::newRow("negative bandwidth")
            << qint64(GiB) << -1.0 << 0.0 << "bandwidth must be a number between 0";
        QTest::newRow("NaN bandwidth") << qint64(GiB) << std::nan("") << 0.0 << "bandwidth";
        QTest::newRow("infinite TFLOPS") << qint64(GiB) << 1.0 << HUGE_VAL << "BF16 TFLOPS must be a number";
    }

    void badCustomGpus()
    {
        QFETCH(qint64, memory);
        QFETCH(double, bandwidth);
        QFETCH(double, tflops);
        QFETCH(QString, message);
        KVSCOPE_VERIFY_ERROR(customGpu(QStringLiteral("x"), memory, bandwidth, tflops),
                             QLatin1String("custom GPU: "), message);
    }

    void badRememberedGpus()
    {
        QJsonObject o = gpuToJson(customGpu(QStringLiteral("x"), GiB));
        o.insert(QStringLiteral("memory_bytes"), QStringLiteral("lots"));
        KVSCOPE_VERIFY_ERROR(customGpuFromJson(o, QStringLiteral("settings")), QLatin1String("settings: "),
                             QLatin1String("field 'memory_bytes' must be a positive integer"));
        o.insert(QStringLiteral("memory_bytes"), 1e6);
        o.insert(QStringLiteral("bandwidth_gbps"), QStringLiteral("fast"));
        KVSCOPE_VERIFY_ERROR(customGpuFromJson(o, QStringLiteral("settings")), QLatin1String("settings: "),
                             QLatin1String("field 'bandwidth_gbps' must be a number"));
        for (const char *text :
             {"custom", "custom:", "custom:x", "custom:24:fast", "custom:24:1:2:3:4", "custom:-1"})
            KVSCOPE_VERIFY_ERROR(parseCustomGpuOption(QLatin1String(text)), QLatin1String("--gpu: "),
                                 QLatin1String("is not custom:MEMORY_GIB"));
    }
};

QTEST_GUILESS_MAIN(TestLibrary)
#include "tst_library.moc"
