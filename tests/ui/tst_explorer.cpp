// SPDX-License-Identifier: MIT
// The explorer window driven through its widgets (by objectName) under the
// offscreen platform: every figure on screen must equal the core's.
#include "core/common/units.h"
#include "core/compare/accuracy.h"
#include "core/library/library.h"
#include "core/output/breakdown.h"
#include "core/plan/planner.h"
#include "core/plan/speculativedecoding.h"
#include "tests/testsupport.h"
#include "tests/ui/uitestsupport.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/chartcallout.h"
#include "ui/charts/growthchart.h"
#include "ui/charts/speedchart.h"
#include "ui/charts/stepbreakdownchart.h"
#include "ui/explorer/accuracyrunner.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/figurespanel.h"
#include "ui/explorer/fitbanner.h"
#include "ui/explorer/fixproposer.h"
#include "ui/explorer/speedpanel.h"
#include "ui/state/appsettings.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/setting.h"
#include "ui/state/translations.h"
#include "ui/style/theme.h"
#include "ui/widgets/groupedcombobox.h"
#include "ui/widgets/logsliderbox.h"
#include "ui/window/mainwindow.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <QAction>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalStackedBarSeries>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QValueAxis>

using namespace kvscope;

class TestExplorer : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;

    template <typename T> T *child(const char *name) const
    {
        T *widget = m_window->findChild<T *>(QLatin1String(name));
        if (!widget)
            qFatal("no child %s", name);
        return widget;
    }

    ScenarioController *controller() const { return m_window->controller(); }
    ExplorerView *explorer() const { return m_window->explorer(); }

    double kvBar() const { return explorer()->breakdownChart()->barSet(MemoryPart::KvCache)->at(0); }

    void openWindow(bool defaultSize = true) { m_window = test::openWindow(defaultSize); }

    StepBreakdownChartView *stepBars() const { return explorer()->speedPanel()->breakdownChart(); }
    double decodeSegment(StepTerm term) const
    {
        return stepBars()->drawnMilliseconds(StepPass::Decode, term);
    }

    /// Reads both bars back: a segment per term that takes time, as long as its
    /// seconds, its label its own time and inside it, the total after the bar.
    void expectBarsAreThePlans() const
    {
        StepBreakdownChartView *bars = stepBars();
        const SpeedPlan &speed = controller()->plan().speed;
        QStringList drawn; // the terms with a set in the series
        for (const QBarSet *set : bars->series()->barSets())
            drawn << set->label();
        QStringList taking; // the terms that take time in either pass
        for (const StepPass pass : {StepPass::Decode, StepPass::Prefill}) {
            const ForwardCost &cost = pass == StepPass::Decode ? speed.decode : speed.prefill;
            const int category = pass == StepPass::Decode ? 1 : 0; // the decode step is the upper bar
            const double pixelsPerMs = bars->chart()->plotArea().width() / bars->valueAxis(pass)->max();
            double sum = 0;
            double barEnd = 0;
            for (std::size_t t = 0; t < StepTermCount; ++t) {
                const StepTerm term = StepTerm(t);
                const QString key = stepTermKey(term);
                const double seconds = cost.breakdown[term];
                if (seconds == 0) {
                    // No segment at all: no set, or the other pass's set with nothing in this bar.
                    QVERIFY2(!bars->barSet(pass, term), qPrintable(key));
                    for (const QBarSet *set : bars->series()->barSets())
                        if (set->label() == key)
                            QCOMPARE(set->at(category), 0.0);
                    QVERIFY(!bars->segmentLabel(pass, term)->isVisible());
                    QVERIFY(bars->segmentRect(pass, term).isEmpty());
                    continue;
                }
                if (!taking.contains(key))
                    taking << key;
                QVERIFY2(bars->barSet(pass, term), qPrintable(key));
                const double ms = bars->drawnMilliseconds(pass, term);
                QVERIFY2(qFuzzyCompare(ms, seconds * 1000), qPrintable(key));
                sum += ms / 1000;
                // The segment's length is its time on the axis, to the pixel.
                const QRectF rect = bars->segmentRect(pass, term);
                QVERIFY2(std::abs(rect.width() - seconds * 1000 * pixelsPerMs) < 1, qPrintable(key));
                barEnd = std::max(barEnd, rect.right());
                // Its label says its own time, inside it, or it is not shown.
                QGraphicsSimpleTextItem *label = bars->segmentLabel(pass, term);
                if (label->isVisible()) {
                    QCOMPARE(label->text(), formatDuration(seconds));
                    const QRectF box(label->pos(), label->boundingRect().size());
                    QVERIFY2(rect.contains(box), qPrintable(key));
                }
            }
            QVERIFY(qFuzzyCompare(sum, cost.seconds));
            QGraphicsSimpleTextItem *total = bars->totalLabel(pass);
            QCOMPARE(total->text(), formatDuration(cost.seconds));
            QVERIFY(total->pos().x() >= barEnd);
            QVERIFY(total->pos().x() + total->boundingRect().width() <=
                    bars->chart()->plotArea().right() + 1);
            // The axis is a round length just long enough: bar and total fill at least half the plot.
            const QRectF plot = bars->chart()->plotArea();
            QVERIFY2(total->pos().x() + total->boundingRect().width() - plot.left() >= 0.45 * plot.width(),
                     qPrintable(QStringLiteral("%1 ms on a %2 ms axis")
                                    .arg(cost.seconds * 1000)
                                    .arg(bars->valueAxis(pass)->max())));
        }
        drawn.sort();
        taking.sort();
        QCOMPARE(drawn, taking);
    }

    static void selectComboData(QComboBox *combo, const QString &data)
    {
        const bool grouped = qobject_cast<GroupedComboBox *>(combo) != nullptr;
        const int index = combo->findData(data, grouped ? GroupedComboBox::KeyRole : int(Qt::UserRole));
        QVERIFY2(index >= 0, qPrintable(data));
        combo->setCurrentIndex(index);
        Q_EMIT combo->activated(index);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::isolateSettings(QStringLiteral("kvscope-tests"));
    } // never the user's settings

    void init()
    {
        test::resetState();
        openWindow();
    }

    void cleanup() { m_window.reset(); }

    void defaultScenario()
    {
        // The explorer's default (README, "Command line"): Llama-3.1-8B on one H100, BF16, batch 16, 8k
        // tokens.
        const Scenario &s = controller()->scenario();
        QCOMPARE(s.model.id, QStringLiteral("llama-3.1-8b"));
        QCOMPARE(s.gpu.id, QStringLiteral("h100-sxm"));
        QCOMPARE(s.tensorParallelSize, 1);
        QCOMPARE(controller()->plan().dtype, WeightDtype::BFloat16);
        QCOMPARE(child<QSpinBox>("batchSpin")->value(), 16);
        QCOMPARE(child<QSpinBox>("seqLenSpin")->value(), 8192);
        QCOMPARE(child<QComboBox>("modelPicker")->currentText(), QStringLiteral("Llama-3.1-8B"));
    }

    void theKvCacheMemoryBoxFixesThePool()
    {
        QSpinBox *box = child<QSpinBox>("kvCacheMemorySpin");
        QCOMPARE(box->value(), 0); // "profiled", vLLM's default
        box->setValue(10);
        // 10 GiB of 131,072-byte tokens: 81,920 (core/plan/vllmrules.cpp, fixKvBudget).
        QCOMPARE(controller()->scenario().kvCacheMemoryBytes, std::int64_t(10) << 30);
        QCOMPARE(controller()->plan().kv.capacityTokens, std::int64_t(81'920));
        box->setValue(0);
        QCOMPARE(controller()->scenario().kvCacheMemoryBytes, std::int64_t(0));
    }

    void theEagerBoxTradesGraphsForKvCache()
    {
        // --enforce-eager: no CUDA-graph estimate out of the budget (0.84 GiB on an H100 from vLLM 0.21;
        // tst_engines), and no speed figure (kvscope's step model is calibrated with graphs).
        QCheckBox *eager = child<QCheckBox>("enforceEager");
        QVERIFY(!eager->isChecked());
        const MemoryPlan graphs = controller()->plan();
        QVERIFY(graphs.cudaGraphBytes > 0);
        QVERIFY(graphs.speed.available);
        eager->setChecked(true);
        QVERIFY(controller()->scenario().enforceEager);
        QCOMPARE(controller()->plan().cudaGraphBytes, std::int64_t(0));
        QCOMPARE(controller()->plan().kv.availableBytes, graphs.kv.availableBytes + graphs.cudaGraphBytes);
        QVERIFY(!controller()->plan().speed.available);
        eager->setChecked(false);
        QVERIFY(!controller()->scenario().enforceEager);
    }

    void theWarmStartBoxPlansModelRunnerV2sOwnPeak()
    {
        // --compile-cache warm: the newest release runs Llama-3.1-8B on Model Runner V2, whose warm start
        // profiles the larger of the forward pass and the sampler's logits with their float32 copy
        // (tst_engines): on an H100, 8,192 x 4,096 x 2 + 1,024 x 128,256 x (2 + 4) = 855,113,728 B, where a
        // cold start keeps V1's sampler term, 1,024 x 128,256 x 15 + 8,192 x 4,096 x 2 = 2,037,121,024 B.
        QCheckBox *warm = child<QCheckBox>("warmCompileCache");
        QVERIFY(!warm->isChecked());
        const MemoryPlan cold = controller()->plan();
        QVERIFY(cold.modelRunnerV2);
        QCOMPARE(cold.activationBytes, std::int64_t(2'037'121'024));
        warm->setChecked(true);
        QCOMPARE(controller()->scenario().compileCache, CompileCache::Warm);
        QCOMPARE(controller()->plan().activationBytes, std::int64_t(855'113'728));
        QVERIFY(controller()->plan().kv.capacityTokens > cold.kv.capacityTokens);
        warm->setChecked(false);
        QCOMPARE(controller()->scenario().compileCache, CompileCache::Cold);
    }

    void theCudaGraphBoxSetsTheLargestCapturedBatch()
    {
        // --max-cudagraph-capture-size: fewer graphs, a smaller estimate out of the budget (Llama-3.1-8B on
        // an H100 at 64 tokens: 270,532,608 B where vLLM's default 512 takes 903,872,512; tst_engines, by
        // hand).
        QSpinBox *box = child<QSpinBox>("cudaGraphSizeSpin");
        QVERIFY(box->isEnabled());
        QCOMPARE(box->value(), 0); // vLLM's default
        const MemoryPlan byDefault = controller()->plan();
        box->setValue(64);
        QCOMPARE(controller()->scenario().maxCudagraphCaptureSize, std::int64_t(64));
        QCOMPARE(controller()->plan().cudaGraphProfile.piecewiseGraphs, std::int64_t(11));
        QCOMPARE(controller()->plan().kv.availableBytes, byDefault.kv.availableBytes +
                                                             byDefault.cudaGraphBytes -
                                                             controller()->plan().cudaGraphBytes);
        // Eager captures nothing: the box has nothing to set.
        child<QCheckBox>("enforceEager")->setChecked(true);
        QVERIFY(!box->isEnabled());
        child<QCheckBox>("enforceEager")->setChecked(false);
        box->setValue(0);
        QCOMPARE(controller()->scenario().maxCudagraphCaptureSize, std::int64_t(0));
    }

    void theReleaseBoxPlansAVllmRelease()
    {
        // The vLLM release a plan follows (--vllm-version): the newest modelled by default, any modelled
        // profile otherwise. vLLM 0.19 keeps the CUDA-graph estimate in the KV cache; 0.21 on takes it out of
        // the budget (0.84 GiB on an H100; tst_engines).
        QComboBox *release = child<QComboBox>("vllmReleaseCombo");
        QVERIFY(release->isEnabled());
        QCOMPARE(release->currentData().toString(), QString()); // the newest, the default
        QVERIFY(controller()->plan().cudaGraphBytes > 0);
        release->setCurrentIndex(release->findData(QStringLiteral("0.19")));
        Q_EMIT release->activated(release->currentIndex());
        QCOMPARE(controller()->scenario().vllmVersion, QStringLiteral("0.19"));
        QCOMPARE(controller()->plan().engineVersion, QStringLiteral("0.19"));
        QCOMPARE(controller()->plan().cudaGraphBytes, std::int64_t(0));
        // A scenario's release shows in the box; SGLang has none.
        Scenario s = controller()->scenario();
        s.vllmVersion = QStringLiteral("0.25");
        QVERIFY(controller()->setScenario(s));
        QCOMPARE(release->currentData().toString(), QStringLiteral("0.25"));
        s.engine = Engine::Sglang;
        s.vllmVersion.clear();
        QVERIFY(controller()->setScenario(s));
        QVERIFY(!release->isEnabled());
    }

    void theLoraBoxesAllocateSlots()
    {
        QSpinBox *slots = child<QSpinBox>("loraSlotsSpin");
        QComboBox *rank = child<QComboBox>("loraRankCombo");
        QCOMPARE(slots->value(), 0); // off
        QVERIFY(!rank->isEnabled());
        rank->setCurrentIndex(rank->findData(qlonglong(64)));
        slots->setValue(4);
        // 4 slots of rank 64 on Llama-3.1-8B: 1.25 GiB (tst_planner, by hand).
        QCOMPARE(controller()->scenario().maxLoras, std::int64_t(4));
        QCOMPARE(controller()->scenario().maxLoraRank, std::int64_t(64));
        QCOMPARE(controller()->plan().weights.loraBytes, std::int64_t(1'342'177'280));
        QVERIFY(rank->isEnabled());
    }

    void theOffloadingBoxesAddHostBlocks()
    {
        QSpinBox *size = child<QSpinBox>("offloadingSpin");
        QComboBox *backend = child<QComboBox>("offloadingBackendCombo");
        QCOMPARE(size->value(), 0); // off
        QVERIFY(!backend->isEnabled());
        const std::int64_t gpuTokens = controller()->plan().kv.capacityTokens;
        size->setValue(64);
        // 64 GiB of Llama-3.1-8B's 131,072-byte tokens in whole blocks: 524,288 (tst_planner, by hand);
        // the GPU's capacity and concurrency do not change.
        QCOMPARE(controller()->scenario().kvOffloadingMilliGiB, std::int64_t(64'000));
        QCOMPARE(controller()->plan().kv.cpuCapacityTokens, std::int64_t(524'288));
        QCOMPARE(controller()->plan().kv.capacityTokens, gpuTokens);
        const QString detail = explorer()->figuresPanel()->detailLabel(QStringLiteral("kvCapacity"))->text();
        QVERIFY2(detail.contains(formatCount(524'288)), qPrintable(detail));
        QVERIFY(backend->isEnabled());
        backend->setCurrentIndex(backend->findData(int(KvOffloadingBackend::Lmcache)));
        Q_EMIT backend->activated(backend->currentIndex());
        QCOMPARE(controller()->scenario().kvOffloadingBackend, KvOffloadingBackend::Lmcache);
        size->setValue(0);
        QCOMPARE(controller()->plan().kv.cpuCapacityTokens, std::int64_t(0));
    }

    void theSharedPrefixBoxHoldsThePrefixOnce()
    {
        controller()->setMaxModelLen(8192);
        QSpinBox *prefix = child<QSpinBox>("sharedPrefixSpin");
        QCOMPARE(prefix->value(), 0);      // none
        QCOMPARE(prefix->maximum(), 8191); // less than the sequence
        prefix->setValue(4096);
        // 256 shared blocks held once: (28,096 - 256) / (512 - 256) requests (tst_planner, by hand).
        QCOMPARE(controller()->plan().kv.sharedPrefixBlocks, std::int64_t(256));
        QCOMPARE(controller()->plan().kv.maxConcurrency, (28'096.0 - 256) / 256);
    }

    void theUtilizationBoxStartsAtTheReleasesDefault()
    {
        // No share given: vLLM 0.21's 0.92 (vllm-project/vllm#38284), shown as the box's default; a step
        // up from it gives 0.93, a share of its own that the launch line then names.
        auto *utilization = child<QDoubleSpinBox>("utilizationSpin");
        controller()->setGpuMemoryUtilizationPpm(0);
        QCOMPARE(utilization->text(), QStringLiteral("default (0.92)"));
        QCOMPARE(controller()->plan().gpuMemoryUtilizationPpm, std::int64_t(920'000));
        utilization->stepUp();
        QCOMPARE(controller()->scenario().gpuMemoryUtilizationPpm, std::int64_t(930'000));
        utilization->setValue(utilization->minimum());
        QCOMPARE(controller()->scenario().gpuMemoryUtilizationPpm, std::int64_t(0));
        QCOMPARE(utilization->text(), QStringLiteral("default (0.92)"));
        // Under SGLang the same box is its --mem-fraction-static: SGLang's default for the GPU and TP
        // (0.835 on one H100), a step from it SGLang's own share. --block-size is vLLM's alone: SGLang's
        // pages are its own (--page-size, 1 token here), and the box does not offer a size SGLang ignores.
        auto *blockSize = child<QComboBox>("blockSizeCombo");
        QVERIFY(utilization->isEnabled());
        QVERIFY(blockSize->isEnabled());
        Scenario sglang = controller()->scenario();
        sglang.engine = Engine::Sglang;
        sglang.gpuMemoryUtilizationPpm = 0;
        QVERIFY(controller()->setScenario(sglang));
        QVERIFY(utilization->isEnabled());
        QCOMPARE(utilization->text(), QStringLiteral("default (0.835)"));
        const auto labelOf = [&] {
            auto *form = qobject_cast<QFormLayout *>(utilization->parentWidget()->layout());
            auto *label = form ? qobject_cast<QLabel *>(form->labelForField(utilization)) : nullptr;
            return label ? label->text() : QString();
        };
        QVERIFY2(labelOf().contains(QLatin1String("Static memory fraction")), qPrintable(labelOf()));
        // The longest request is SGLang's --context-length.
        auto *maxModelLen = child<QSpinBox>("maxModelLenSpin");
        QVERIFY2(maxModelLen->toolTip().contains(QLatin1String("--context-length")),
                 qPrintable(maxModelLen->toolTip()));
        auto *servingForm = qobject_cast<QFormLayout *>(maxModelLen->parentWidget()->layout());
        auto *lengthLabel =
            servingForm ? qobject_cast<QLabel *>(servingForm->labelForField(maxModelLen)) : nullptr;
        QVERIFY(lengthLabel && lengthLabel->text().contains(QLatin1String("Context length")));
        utilization->setValue(0.9);
        QCOMPARE(controller()->scenario().memFractionStaticPpm, std::int64_t(900'000));
        QCOMPARE(controller()->scenario().gpuMemoryUtilizationPpm, std::int64_t(0));
        QCOMPARE(controller()->plan().memFractionStaticPpm, std::int64_t(900'000));
        // SGLang's shares take three decimals (its defaults are rounded so, 0.835): shown as given, and
        // kept when the box is edited.
        Scenario threeDecimals = controller()->scenario();
        threeDecimals.memFractionStaticPpm = 864'000;
        QVERIFY(controller()->setScenario(threeDecimals));
        QCOMPARE(utilization->text(), QStringLiteral("0.864"));
        utilization->setValue(0.871);
        QCOMPARE(controller()->scenario().memFractionStaticPpm, std::int64_t(871'000));
        QVERIFY(!blockSize->isEnabled());
        QCOMPARE(controller()->plan().blockSize, 1);
        sglang = controller()->scenario();
        sglang.engine = Engine::Vllm;
        sglang.memFractionStaticPpm = 0;
        QVERIFY(controller()->setScenario(sglang));
        QVERIFY(utilization->isEnabled());
        QCOMPARE(utilization->text(), QStringLiteral("default (0.92)"));
        QVERIFY2(labelOf().contains(QLatin1String("GPU memory utilization")), qPrintable(labelOf()));
        QVERIFY(blockSize->isEnabled());
    }

    void theImageBoxesAddTheImagesTokens()
    {
        QSpinBox *images = child<QSpinBox>("imagesSpin");
        QComboBox *size = child<QComboBox>("imageSizeBox");
        QVERIFY(!images->isEnabled()); // the default model takes no images
        controller()->setModel(test::preset(QStringLiteral("qwen2.5-vl-7b")));
        QVERIFY(images->isEnabled());
        QVERIFY(!size->isEnabled()); // no images yet
        images->setValue(2);
        QCOMPARE(controller()->scenario().imagesPerRequest, std::int64_t(2));
        QVERIFY(size->isEnabled());
        // 1024 x 1024 on Qwen2.5-VL: 1,369 patches of 28 pixels and two markers (tst_imagetokens).
        QCOMPARE(size->currentText(), QStringLiteral("1024x1024 · 1,371 tokens"));
        QCOMPARE(controller()->plan().seqLen, controller()->scenario().seqLen + 2 * 1371);
        size->setCurrentIndex(size->findData(QSize(1920, 1080)));
        Q_EMIT size->activated(size->currentIndex());
        QCOMPARE(controller()->scenario().imageWidth, std::int64_t(1920));
        QCOMPARE(controller()->plan().imageTokensPerImage, std::int64_t(2691 + 2));
        // A text model's requests are text: the images go with the model that took them.
        controller()->setModel(test::preset(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(controller()->scenario().imagesPerRequest, std::int64_t(0));
        QCOMPARE(images->value(), 0);
        QVERIFY(!images->isEnabled());
    }

    void theStageBoxSplitsTheModel()
    {
        QComboBox *stages = child<QComboBox>("stageCount");
        QCOMPARE(stages->currentText(), QStringLiteral("1"));
        stages->setCurrentIndex(stages->findData(2));
        Q_EMIT stages->activated(stages->currentIndex());
        QCOMPARE(controller()->scenario().pipelineParallelSize, std::int64_t(2));
        QCOMPARE(controller()->plan().pipelineStages.size(), 2);
    }

    // A model whose stages kvscope does not plan (Gemma 3n's KV-sharing layers) is still a
    // model the user can pick with two stages set: the stages fall back to what it takes, as the GPU
    // count does, rather than the model choice being refused.
    void aModelWithoutStagesTakesTheLayoutItCan()
    {
        QSignalSpy errors(controller(), &ScenarioController::errorOccurred);
        controller()->setPipelineParallelSize(4);
        QCOMPARE(controller()->scenario().pipelineParallelSize, std::int64_t(4));
        // Sliding-window and recurrent layers and vision towers take stages.
        for (const char *id : {"gpt-oss-120b", "qwen3-next-80b-a3b", "qwen2.5-vl-7b"}) {
            controller()->setModel(test::preset(QLatin1String(id)));
            QCOMPARE(controller()->scenario().pipelineParallelSize, std::int64_t(4));
        }
        const ModelArch gemma3n = test::preset(QStringLiteral("gemma-3n-e4b"));
        controller()->setModel(gemma3n);
        QCOMPARE(controller()->scenario().model.name, gemma3n.name);
        QCOMPARE(controller()->scenario().pipelineParallelSize, std::int64_t(1));
        QCOMPARE(child<QComboBox>("stageCount")->currentText(), QStringLiteral("1"));
        controller()->setPipelineParallelSize(2); // refused: the box offers 1 alone
        QCOMPARE(errors.size(), 1);
        // A model that takes stages keeps the count it is given.
        controller()->setModel(test::preset(QStringLiteral("llama-3.1-70b")));
        controller()->setPipelineParallelSize(4);
        controller()->setModel(test::preset(QStringLiteral("qwen3-32b")));
        QCOMPARE(controller()->scenario().pipelineParallelSize, std::int64_t(4));
        QCOMPARE(errors.size(), 1);
    }

    // The same for the serving features a model refuses: a shared prefix on a model whose layers cache
    // in several groups (Gemma 3's window and global layers), a drafter trained for another model's
    // vocabulary. Choosing the model drops them rather than the choice; a model that takes them keeps them.
    void aModelDropsTheServingFeaturesItRefuses()
    {
        QSignalSpy errors(controller(), &ScenarioController::errorOccurred);
        const SpeculativeConfig eagle = speculativeChoices(controller()->scenario(), 3).value(0);
        QCOMPARE(eagle.method, SpeculativeMethod::Eagle3); // Llama-3.1-8B's first drafter
        controller()->setSpeculative(eagle);
        QVERIFY(controller()->scenario().speculative.enabled());
        controller()->setModel(test::preset(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(controller()->scenario().speculative, eagle);
        controller()->setModel(test::preset(QStringLiteral("qwen3-8b")));
        QCOMPARE(controller()->scenario().model.name, test::preset(QStringLiteral("qwen3-8b")).name);
        QVERIFY(!controller()->scenario().speculative.enabled());

        controller()->setSpeculative({});
        controller()->setSharedPrefixLen(1024);
        QCOMPARE(controller()->scenario().sharedPrefixLen, std::int64_t(1024));
        controller()->setModel(test::preset(QStringLiteral("qwen3-8b")));
        QCOMPARE(controller()->scenario().sharedPrefixLen, std::int64_t(1024));
        controller()->setModel(test::preset(QStringLiteral("gemma-3-27b")));
        QCOMPARE(controller()->scenario().model.name, test::preset(QStringLiteral("gemma-3-27b")).name);
        QCOMPARE(controller()->scenario().sharedPrefixLen, std::int64_t(0));
        QCOMPARE(child<QSpinBox>("sharedPrefixSpin")->value(), 0);
        QCOMPARE(errors.size(), 0);
    }

    // EPLB likewise goes where a weight format's expert kernels or a GPU do not run it (vLLM's AWQ MoE
    // kernels, a Gaudi), as it goes with a GPU count that no longer takes it, instead of the
    // quantization or the GPU being refused.
    void eplbGoesWhereTheFormatOrGpuDoesNotRunIt()
    {
        QSignalSpy errors(controller(), &ScenarioController::errorOccurred);
        controller()->setModel(test::preset(QStringLiteral("qwen3-30b-a3b")));
        controller()->setTensorParallelSize(2);
        controller()->setExpertParallel(true);
        controller()->setEplb(true);
        QVERIFY(controller()->scenario().enableEplb);
        QuantizationSpec awq;
        awq.method = QuantMethod::Awq;
        controller()->setQuantization(awq);
        QCOMPARE(controller()->scenario().quantization, std::optional<QuantizationSpec>(awq));
        QVERIFY(!controller()->scenario().enableEplb);

        controller()->setQuantization(std::nullopt);
        controller()->setEplb(true);
        QVERIFY(controller()->scenario().enableEplb);
        controller()->setGpu(resolveGpu(QStringLiteral("gaudi3")));
        QCOMPARE(controller()->scenario().gpu.id, QStringLiteral("gaudi3"));
        QVERIFY(!controller()->scenario().enableEplb);
        QCOMPARE(errors.size(), 0);
    }

    void sglangsAttentionGroupsTakeTheExpertSwitchsPlace()
    {
        QCheckBox *expert = child<QCheckBox>("expertParallel");
        QCheckBox *groups = child<QCheckBox>("dpAttention");
        QComboBox *ranks = child<QComboBox>("dataParallel");
        controller()->setModel(test::preset(QStringLiteral("qwen3-30b-a3b")));
        QVERIFY(!expert->isHidden());
        QVERIFY(groups->isHidden()); // vLLM's switch, not SGLang's
        Scenario sglang = controller()->scenario();
        sglang.engine = Engine::Sglang;
        sglang.tensorParallelSize = 4;
        QVERIFY(controller()->setScenario(sglang));
        QVERIFY(expert->isHidden());
        QVERIFY(!groups->isHidden());
        QCOMPARE(ranks->count(), 1); // SGLang's ranks come with the groups only
        groups->setChecked(true);
        QVERIFY(controller()->scenario().enableDpAttention);
        QCOMPARE(ranks->findData(3), -1); // the groups divide the 4 GPUs
        ranks->setCurrentIndex(ranks->findData(2));
        Q_EMIT ranks->activated(ranks->currentIndex());
        QVERIFY(controller()->plan().attentionDataParallel);
        QCOMPARE(controller()->plan().kv.bytesPerToken, std::int64_t(49'152)); // 2 KV heads a GPU
        // The groups' two layout flags show with them and reach the plan.
        QCheckBox *lmHead = child<QCheckBox>("dpLmHead");
        QCheckBox *dense = child<QCheckBox>("denseMlpsWhole");
        QVERIFY(!lmHead->isHidden() && !dense->isHidden());
        const std::int64_t headBefore = controller()->plan().weights.byComponent[int(Component::LmHead)];
        lmHead->setChecked(true);
        QVERIFY(controller()->scenario().enableDpLmHead);
        QCOMPARE(controller()->plan().weights.byComponent[int(Component::LmHead)], 2 * headBefore);
        dense->setChecked(true);
        QCOMPARE(controller()->scenario().moeDenseTpSize, std::int64_t(1));
        // Off again: the ranks go with it (SGLang's --dp-size alone is copies kvscope does not plan), and
        // the LM head by group, which SGLang turns off without them.
        groups->setChecked(false);
        QCOMPARE(controller()->scenario().dataParallelSize, std::int64_t(1));
        QVERIFY(!controller()->plan().attentionDataParallel);
        QVERIFY(!controller()->scenario().enableDpLmHead);
        dense->setChecked(false);
        QCOMPARE(controller()->scenario().moeDenseTpSize, std::int64_t(0));
        QVERIFY(lmHead->isHidden());
    }

    void theLoadBalancerFollowsTheExpertSwitch()
    {
        QCheckBox *expert = child<QCheckBox>("expertParallel");
        QCheckBox *eplb = child<QCheckBox>("eplb");
        QComboBox *redundant = child<QComboBox>("redundantExperts");
        QVERIFY(!eplb->isVisibleTo(eplb->parentWidget())); // Llama-3.1-8B has no routed experts
        controller()->setModel(test::preset(QStringLiteral("qwen3-30b-a3b")));
        controller()->setTensorParallelSize(4);
        QVERIFY(!eplb->isHidden());
        QVERIFY(!eplb->isEnabled()); // vLLM: EPLB needs expert parallelism
        expert->setChecked(true);
        QVERIFY(eplb->isEnabled());
        QVERIFY(redundant->isHidden());
        eplb->setChecked(true);
        QVERIFY(controller()->scenario().enableEplb);
        QVERIFY(!redundant->isHidden());
        // 128 experts over 4 GPUs: copies in fours keep them dividing.
        QCOMPARE(redundant->itemData(1).toInt(), 4);
        QCOMPARE(redundant->findData(2), -1);
        redundant->setCurrentIndex(redundant->findData(8));
        Q_EMIT redundant->activated(redundant->currentIndex());
        QCOMPARE(controller()->scenario().eplb.numRedundantExperts, std::int64_t(8));
        QCOMPARE(controller()->plan().localExperts, (128 + 8) / 4);
        // Two GPUs still divide 136; three would not, and the copies step back to the fewest that do.
        controller()->setTensorParallelSize(2);
        QCOMPARE(controller()->scenario().eplb.numRedundantExperts, std::int64_t(8));
        // Expert parallelism off: the balancer goes with it.
        expert->setChecked(false);
        QVERIFY(!controller()->scenario().enableEplb);
        QCOMPARE(controller()->scenario().eplb.numRedundantExperts, std::int64_t(0));
        QVERIFY(!eplb->isChecked());
    }

    void theAllToAllBackendShowsWhereItsKernelsRun()
    {
        QComboBox *backend = child<QComboBox>("all2allBackend");
        controller()->setModel(test::preset(QStringLiteral("deepseek-v2-lite")));
        QVERIFY(backend->isHidden()); // one GPU, no data-parallel ranks: no all-to-all kernels
        controller()->setExpertParallel(true);
        controller()->setDataParallelSize(2);
        QVERIFY(!backend->isHidden());
        QCOMPARE(backend->currentData().toInt(), int(All2AllBackend::AllgatherReducescatter));
        const std::int64_t before = controller()->plan().kv.availableBytes;
        backend->setCurrentIndex(backend->findData(int(All2AllBackend::DeepepHighThroughput)));
        Q_EMIT backend->activated(backend->currentIndex());
        QCOMPARE(controller()->scenario().all2allBackend, All2AllBackend::DeepepHighThroughput);
        QCOMPARE(before - controller()->plan().kv.availableBytes, controller()->plan().all2allBufferBytes);
        QVERIFY(controller()->plan().all2allBufferBytes > 0);
    }

    void aPlanWithoutSpeedHidesTheTimeChart()
    {
        // A custom GPU without a bandwidth has no speed figure (core/plan/speed.cpp says why on every
        // card): the "where the time goes" chart would be an empty axis, so it and its legend step aside.
        controller()->setModel(test::preset(QStringLiteral("llama-3.1-8b")));
        QVERIFY(!stepBars()->isHidden());
        const GpuSpec h100 = controller()->scenario().gpu;
        controller()->setGpu(resolveGpu(QStringLiteral("custom:80")));
        QVERIFY(!controller()->plan().speed.available);
        QVERIFY(stepBars()->isHidden());
        QVERIFY(child<QWidget>("stepBreakdownLegend")->isHidden());
        controller()->setGpu(h100);
        QVERIFY(controller()->plan().speed.available);
        QVERIFY(!stepBars()->isHidden());
        QVERIFY(!child<QWidget>("stepBreakdownLegend")->isHidden());
    }

    void pipelineStagesShowTheirHandover()
    {
        // Two pipeline stages: a speed figure, each step handing the tokens' hidden states from stage to
        // stage, a bar of its own in "where the time goes".
        controller()->setModel(test::preset(QStringLiteral("llama-3.1-8b")));
        controller()->setPipelineParallelSize(2);
        QVERIFY(controller()->plan().speed.available);
        QVERIFY(!stepBars()->isHidden());
        QVERIFY(controller()->plan().speed.decode.breakdown[StepTerm::PipelineTransfer] > 0);
        QVERIFY(stepBars()->barSet(StepPass::Decode, StepTerm::PipelineTransfer));
        // The default 16 sequences run as two batches of 8, one a stage.
        QVERIFY2(explorer()
                     ->speedPanel()
                     ->detailLabel(QStringLiteral("decodeTokensPerSecond"))
                     ->text()
                     .contains(QStringLiteral("2 batches of 8 sequences in flight")),
                 qPrintable(
                     explorer()->speedPanel()->detailLabel(QStringLiteral("decodeTokensPerSecond"))->text()));
        controller()->setPipelineParallelSize(1);
    }

    void dataParallelRanksShowTheirTokenExchange()
    {
        // vLLM's data-parallel ranks of a MoE: a speed figure, with the token exchange between ranks as a bar
        // of its own in "where the time goes".
        controller()->setModel(test::preset(QStringLiteral("deepseek-v2-lite")));
        controller()->setExpertParallel(true);
        controller()->setDataParallelSize(2);
        QVERIFY(controller()->plan().speed.available);
        QVERIFY(!stepBars()->isHidden());
        QVERIFY(controller()->plan().speed.decode.breakdown[StepTerm::AllToAll] > 0);
        QVERIFY(stepBars()->barSet(StepPass::Decode, StepTerm::AllToAll));
        QVERIFY2(explorer()
                     ->speedPanel()
                     ->detailLabel(QStringLiteral("decodeTokensPerSecond"))
                     ->text()
                     .contains(QStringLiteral("2 ranks of 8 sequences")),
                 qPrintable(
                     explorer()->speedPanel()->detailLabel(QStringLiteral("decodeTokensPerSecond"))->text()));
        // What the figure rests on is said under the cards.
        auto *notes = child<QLabel>("speedNotes");
        QVERIFY(!notes->isHidden());
        QVERIFY2(notes->text().contains(QStringLiteral("not validated")), qPrintable(notes->text()));
        controller()->setDataParallelSize(1);
        controller()->setExpertParallel(false);
    }

    void batchSliderDrivesTheKvBar()
    {
        QSlider *slider = child<QSlider>("batchSlider");
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Right); // one stop: 16 -> 17
        QCOMPARE(controller()->scenario().batchSize, 17);
        Scenario expected = ScenarioController::defaultScenario();
        expected.batchSize = 17;
        const MemoryPlan plan = planMemory(expected);
        QCOMPARE(kvBar(), toGiB(plan.kv.cacheBytes));
        QCOMPARE(kvBar(), 17.0); // 17 x 8192 tokens x 128 KiB = 17 GiB exactly

        QTest::keyClick(slider, Qt::Key_PageUp); // ten stops further
        QCOMPARE(controller()->scenario().batchSize, 27);
        QCOMPARE(child<QSpinBox>("batchSpin")->value(), 27);
        QCOMPARE(kvBar(), 27.0);
    }

    void spinBoxAndSliderAgree()
    {
        QSpinBox *spin = child<QSpinBox>("seqLenSpin");
        spin->setValue(100'000);
        QCOMPARE(controller()->scenario().seqLen, 100'000);
        const QSlider *slider = child<QSlider>("seqLenSlider");
        const QList<std::int64_t> stops = LogSliderBox::stopsBetween(128, 131'072);
        QCOMPARE(stops.at(slider->value()), 100'000); // 100,000 is a round stop
    }

    void promptLengthSetsTheServingWorkload()
    {
        // By default the prompt is the whole sequence: no output, no serving figures.
        auto *prompt = child<QSpinBox>("promptLenSpin");
        QCOMPARE(prompt->value(), 0);
        QCOMPARE(prompt->maximum(), 8192);
        QVERIFY(!controller()->plan().speed.serving);
        SpeedPanel *speed = explorer()->speedPanel();
        QVERIFY(!speed->valueLabel(QStringLiteral("serving"))->isVisibleTo(speed));
        prompt->setValue(1024);
        QCOMPARE(controller()->scenario().promptLen, 1024);
        const MemoryPlan &plan = controller()->plan();
        QVERIFY(plan.speed.serving);
        QCOMPARE(plan.speed.serving->outputLen, 8192 - 1024);
        // The serving card shows the core's figures.
        QVERIFY(speed->valueLabel(QStringLiteral("serving"))->isVisibleTo(speed));
        QCOMPARE(speed->valueLabel(QStringLiteral("serving"))->text(),
                 QStringLiteral("%1 tokens/s")
                     .arg(formatRate(plan.speed.serving->outputTokensPerSecond, QLocale())));
        QVERIFY(speed->detailLabel(QStringLiteral("serving"))
                    ->text()
                    .contains(formatDuration(plan.speed.serving->interTokenSeconds)));
        QVERIFY(speed->figuresText().contains(QStringLiteral("Serving 16 users")));
        QCOMPARE(plan.speed.prefill.seconds, planMemory(controller()->scenario()).speed.prefill.seconds);
        // A sequence shorter than the prompt shortens the prompt with it: no error.
        QSignalSpy errors(controller(), &ScenarioController::errorOccurred);
        child<QSpinBox>("seqLenSpin")->setValue(512);
        QCOMPARE(controller()->scenario().promptLen, 512);
        QCOMPARE(prompt->maximum(), 512);
        QCOMPARE(prompt->value(), 512);
        QCOMPARE(errors.count(), 0);
    }

    void requestRateServesWhatItKeepsInFlight()
    {
        // --request-rate in the window: the serving card says how many requests the rate keeps
        // in flight (the core's figure) and, past what the server completes, that it saturates.
        child<QSpinBox>("seqLenSpin")->setValue(2048);
        child<QSpinBox>("promptLenSpin")->setValue(1024);
        auto *rate = child<QDoubleSpinBox>("requestRateSpin");
        QCOMPARE(rate->value(), 0.0); // a closed loop by default
        rate->setValue(2.5);
        QCOMPARE(controller()->scenario().requestRateMilli, 2500);
        const ServingCost serving = *controller()->plan().speed.serving;
        QCOMPARE(serving.requestRate, 2.5);
        SpeedPanel *speed = explorer()->speedPanel();
        const QString detail = speed->detailLabel(QStringLiteral("serving"))->text();
        QVERIFY2(detail.contains(QStringLiteral("%1 requests in flight")
                                     .arg(formatDecimal(serving.requestsInFlight, 1, QLocale()))),
                 qPrintable(detail));
        QVERIFY(speed->figuresText().contains(QStringLiteral("Serving 2.5 requests a second")));
        rate->setValue(100000);
        QVERIFY(controller()->plan().speed.serving->saturated);
        QCOMPARE(speed->valueLabel(QStringLiteral("serving"))->text(), QStringLiteral("saturated"));
        rate->setValue(0);
        QCOMPARE(controller()->scenario().requestRateMilli, 0);
        QVERIFY(speed->figuresText().contains(QStringLiteral("Serving 16 users")));
    }

    void fp8HalvesTheKvBar()
    {
        const double bf16 = kvBar();
        selectComboData(child<QComboBox>("kvCacheDtypeCombo"), QStringLiteral("fp8"));
        QCOMPARE(controller()->plan().kvCacheDtype, KvCacheDtype::Fp8E4M3);
        QCOMPARE(kvBar() * 2, bf16);
        QCOMPARE(child<QSlider>("precisionSlider")->value(), 2);
        // The precision slider walks back to 16-bit.
        child<QSlider>("precisionSlider")->setValue(1);
        QCOMPARE(kvBar(), bf16);
        QCOMPARE(child<QSlider>("precisionSlider")->value(), 1);
    }

    // Before: the explorer answered memory, capacity and speed; accuracy only in Compare.
    // The card shows what estimateAccuracy() gives for the scenario (as Compare's SQNR
    // rows do), simulated off the UI thread, and a slider move starts no simulation.
    void accuracyCardIsTheScenariosSimulation()
    {
        AccuracyRunner *runner = explorer()->accuracyRunner();
        // The runner's cache is the test's: the expected figures below reuse what the runner
        // simulated for this scenario (a stale scenario's run would miss it and be recomputed).
        const auto cache = std::make_shared<AccuracyCache>();
        runner->setCache(cache);
        FiguresPanel *figures = explorer()->figuresPanel();
        QLabel *value = figures->valueLabel(QStringLiteral("accuracy"));
        // Qwen2.5-0.5B: its 896-wide layers simulate AWQ in a twentieth of Llama-3.1-8B's time
        // (the sanitizer build runs this suite).
        Scenario small = controller()->scenario();
        small.model = test::preset(QStringLiteral("qwen2.5-0.5b"));
        QVERIFY(controller()->setScenario(small));
        QTRY_VERIFY_WITH_TIMEOUT(!runner->isRunning(), test::BackgroundWorkTimeoutMs);
        QCOMPARE(value->text(), QStringLiteral("lossless · lossless")); // BF16 weights and cache

        selectComboData(child<QComboBox>("quantizationCombo"), QStringLiteral("awq"));
        selectComboData(child<QComboBox>("kvCacheDtypeCombo"), QStringLiteral("fp8"));
        QTRY_VERIFY_WITH_TIMEOUT(!runner->isRunning(), test::BackgroundWorkTimeoutMs);
        const Accuracy expected = estimateAccuracy(controller()->scenario(), controller()->plan(), *cache);
        QVERIFY(expected.weights.error && expected.kv.combinedSqnrDb);
        const QLocale locale;
        QCOMPARE(value->text(), QStringLiteral("%1 dB · %2 dB")
                                    .arg(formatDecimal(expected.weights.error->sqnrDb, 2, locale),
                                         formatDecimal(*expected.kv.combinedSqnrDb, 2, locale)));
        const QString detail = figures->detailLabel(QStringLiteral("accuracy"))->text();
        QVERIFY(detail.contains(expected.weights.format));
        // Where the errors matter, under them: AWQ's layer output and the FP8 cache's attention output.
        QVERIFY2(detail.contains(QStringLiteral("layer output: %1 dB")
                                     .arg(formatDecimal(*expected.weights.error->outputSqnrDb, 2, locale))),
                 qPrintable(detail));
        QVERIFY2(detail.contains(
                     QStringLiteral("attention output: %1 dB")
                         .arg(formatDecimal(*attentionOutputSqnrDb(expected.kv, quant::QueryModel::Diffuse),
                                            2, locale))),
                 qPrintable(detail));

        const int runs = runner->startedRuns();
        QSlider *batch = child<QSlider>("batchSlider");
        batch->setValue(batch->value() + 3);
        QCOMPARE(runner->startedRuns(), runs);
        QVERIFY(!runner->isRunning());
    }

    void speedBreakdownBarsAreThePlans()
    {
        // Llama-3.1-8B on one H100, BF16 weights and cache: nothing to dequantize, no
        // all-reduce, no MoE layer, and no new request in a decode step.
        expectBarsAreThePlans();
        if (QTest::currentTestFailed())
            return;
        for (const StepTerm absent : {StepTerm::Dequantization, StepTerm::KvDequantization,
                                      StepTerm::AllReduce, StepTerm::MoeOverhead, StepTerm::RequestOverhead})
            QVERIFY(!stepBars()->barSet(StepPass::Decode, absent));
        QVERIFY(stepBars()->barSet(StepPass::Prefill, StepTerm::RequestOverhead));
        // The tooltip: the term, its time and its share of the step.
        const SpeedPlan &speed = controller()->plan().speed;
        const double weights = speed.decode.breakdown[StepTerm::Weights];
        const QString tip = QStringLiteral("Weights read: %1 (%2 %)")
                                .arg(formatDuration(weights))
                                .arg(qRound(100 * weights / speed.decode.seconds));
        QCOMPARE(stepBars()->segmentToolTip(StepPass::Decode, StepTerm::Weights), tip);
        QBarSet *weightsSet = stepBars()->barSet(StepPass::Decode, StepTerm::Weights);
        Q_EMIT stepBars()->series()->hovered(true, 1, weightsSet); // category 1: the decode step
        QCOMPARE(stepBars()->toolTip(), tip);
        QVERIFY(explorer()->figuresText().contains(tip));

        // An FP8 cache: the KV segment halves (plus its conversion); the weights and the
        // engine's overheads stay as they were.
        const double kv = decodeSegment(StepTerm::KvCache), weightsMs = decodeSegment(StepTerm::Weights),
                     overhead = decodeSegment(StepTerm::StepOverhead);
        selectComboData(child<QComboBox>("kvCacheDtypeCombo"), QStringLiteral("fp8"));
        expectBarsAreThePlans();
        if (QTest::currentTestFailed())
            return;
        QVERIFY(qFuzzyCompare(decodeSegment(StepTerm::KvCache) * 2, kv));
        QVERIFY(decodeSegment(StepTerm::KvDequantization) > 0);
        QCOMPARE(decodeSegment(StepTerm::Weights), weightsMs);
        QCOMPARE(decodeSegment(StepTerm::StepOverhead), overhead);
        // Back to BF16: the conversion's segment goes.
        selectComboData(child<QComboBox>("kvCacheDtypeCombo"), QStringLiteral("auto"));
        QVERIFY(!stepBars()->barSet(StepPass::Decode, StepTerm::KvDequantization));

        // Mixtral-8x7B on 8 GPUs: all-reduces and MoE routing join the bars.
        Scenario moe = controller()->scenario();
        moe.model = test::preset(QStringLiteral("mixtral-8x7b"));
        moe.tensorParallelSize = 8;
        QVERIFY(controller()->setScenario(moe));
        expectBarsAreThePlans();
        if (QTest::currentTestFailed())
            return;
        QVERIFY(stepBars()->barSet(StepPass::Decode, StepTerm::AllReduce));
        QVERIFY(stepBars()->barSet(StepPass::Decode, StepTerm::MoeOverhead));
        QStringList legend;
        for (const LegendStrip::Entry &entry : stepBars()->legendEntries())
            legend << entry.text;
        QVERIFY2(legend.contains(QStringLiteral("MoE routing")), qPrintable(legend.join(QLatin1Char(','))));

        // A chart given its figures before it is laid out (as at start-up, or for an export) fits its
        // axes once it has its size: each bar and its total fill at least half of the plot.
        {
            StepBreakdownChartView fresh;
            fresh.showBreakdown(stepBreakdownChartData(controller()->plan().speed));
            fresh.resize(900, 240);
            fresh.show();
            QApplication::processEvents();
            const QRectF plot = fresh.chart()->plotArea();
            for (const StepPass pass : {StepPass::Decode, StepPass::Prefill}) {
                const QGraphicsSimpleTextItem *total = fresh.totalLabel(pass);
                QVERIFY2(total->pos().x() + total->boundingRect().width() - plot.left() >=
                             0.45 * plot.width(),
                         qPrintable(QString::number(fresh.valueAxis(pass)->max())));
            }
        }

        // In Chinese, at the sizes a classroom uses, in a dark palette: the same.
        child<QAction>("actionLanguage_zh_CN")->trigger();
        QTRY_COMPARE(child<QTabWidget>("viewTabs")->tabText(0), QStringLiteral("探索"));
        const QPalette original = QApplication::palette();
        QApplication::setPalette(theme::darkPalette());
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
            m_window->resize(size);
            QApplication::processEvents();
            expectBarsAreThePlans();
            if (QTest::currentTestFailed())
                break;
        }
        QApplication::setPalette(original);
        child<QAction>("actionLanguage_en")->trigger();
    }

    void aServerThatDoesNotStartShowsNoCapacity()
    {
        // vLLM refuses an NVFP4 cache on an H100 before it sizes anything: the capacity and
        // concurrency cards show no figure, the reason instead (as the speed cards and Compare do).
        selectComboData(child<QComboBox>("kvCacheDtypeCombo"), QStringLiteral("nvfp4"));
        const MemoryPlan &plan = controller()->plan();
        QVERIFY(!plan.engineStarts);
        QVERIFY(plan.startFailure.contains(QLatin1String("Blackwell")));
        FiguresPanel *figures = explorer()->figuresPanel();
        for (const QString &card : {QStringLiteral("kvCapacity"), QStringLiteral("maxConcurrency")}) {
            QCOMPARE(figures->valueLabel(card)->text(), QStringLiteral("—"));
            QCOMPARE(figures->detailLabel(card)->text(), plan.startFailure);
        }
        // The same cache on a B200 starts and shows its capacity.
        Scenario b200 = controller()->scenario();
        b200.gpu = resolveGpu(QStringLiteral("b200"));
        QVERIFY(controller()->setScenario(b200));
        QVERIFY(controller()->plan().engineStarts);
        QCOMPARE(figures->valueLabel(QStringLiteral("kvCapacity"))->text(),
                 QStringLiteral("%1 tokens").arg(formatCount(controller()->plan().kv.capacityTokens)));
    }

    void overBudgetShowsWarningAndSuggestion()
    {
        QVERIFY(!explorer()->fitBanner()->showsWarning());
        const QColor warning = theme::warningColor(explorer()->breakdownChart()->palette());
        QCOMPARE(test::pixelsNear(explorer()->breakdownChart()->grab().toImage(), warning), 0);

        child<QSpinBox>("batchSpin")->setValue(512); // 512 x 8192 x 128 KiB = 512 GiB
        const MemoryPlan &plan = controller()->plan();
        QVERIFY(!plan.fits);
        FitBanner *banner = explorer()->fitBanner();
        QVERIFY(banner->showsWarning());
        QTRY_VERIFY(!banner->fixesPending()); // the proposals, worked out off the UI thread
        QVERIFY2(banner->text().contains(formatCount(plan.largestBatchThatFits)), qPrintable(banner->text()));
        QVERIFY(banner->text().contains(formatCount(plan.largestSeqLenThatFits)));
        QVERIFY(banner->text().contains(formatGiB(-plan.headroomBytes)));
        // The KV cache is drawn whole, past the budget line, where the overflow is hatched in the
        // warning colour.
        BreakdownChartView *chart = explorer()->breakdownChart();
        QCOMPARE(chart->barSet(MemoryPart::KvCache)->at(0), 512.0);
        QVERIFY(chart->overflowRegion()->isVisible());
        QCOMPARE(chart->barSet(MemoryPart::Headroom)->at(0), 0.0);
        QApplication::processEvents();
        QVERIFY(test::pixelsNear(chart->grab().toImage(), warning) > 200);
    }

    // The proposals plan the scenario again on other GPUs, precisions and parallel sizes: a slider
    // step does not wait for them. They are worked out off the UI thread, a newer scenario cancels
    // the older one's, and the banner ends with the current scenario's, the ones the core proposes.
    void proposalsAreWorkedOutOffTheUiThread()
    {
        FixProposer *proposer = explorer()->fixProposer();
        FitBanner *banner = explorer()->fitBanner();
        QTRY_VERIFY(!proposer->isRunning());
        child<QSpinBox>("batchSpin")->setValue(512);
        QVERIFY(!controller()->plan().fits);
        // Started, not done: the banner says so rather than that nothing makes it fit.
        QVERIFY(proposer->isRunning());
        QVERIFY(banner->fixesPending());
        QVERIFY2(banner->plainText().contains(QLatin1String("Looking for changes")),
                 qPrintable(banner->plainText()));
        const int runs = proposer->startedRuns();
        child<QSpinBox>("batchSpin")->setValue(384); // supersedes it
        QCOMPARE(proposer->startedRuns(), runs + 1);
        QTRY_VERIFY(!proposer->isRunning());
        QVERIFY(!banner->fixesPending());
        const QList<Fix> expected =
            proposeFixes(controller()->scenario(), controller()->plan(), GpuLibrary::builtin().presets());
        QVERIFY(!expected.isEmpty());
        QCOMPARE(banner->fixes().size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QVERIFY2(banner->fixes().at(i).scenario == expected.at(i).scenario,
                     qPrintable(QString::number(i)));
        QVERIFY(banner->plainText().contains(formatCount(controller()->plan().largestBatchThatFits)));
        // A refresh that changes nothing they depend on (the growth chart's axis) starts no run.
        controller()->setGrowthAxis(controller()->growthAxis() == GrowthAxis::SequenceLength
                                        ? GrowthAxis::BatchSize
                                        : GrowthAxis::SequenceLength);
        QCOMPARE(proposer->startedRuns(), runs + 1);
        QVERIFY(!banner->fixesPending());
        // A copy of the figures taken before the proposals come holds the current ones.
        child<QSpinBox>("batchSpin")->setValue(448);
        QVERIFY(proposer->isRunning());
        explorer()->copyFigures();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.contains(formatCount(controller()->plan().largestBatchThatFits)), qPrintable(copied));
        QVERIFY(!copied.contains(QLatin1String("Looking for changes")));
    }

    // A fixed pool the batch outgrows (16 x 8,192 tokens of 128 KiB = 16 GiB in 10 GiB): the banner
    // proposes the pool it needs, named by its flag, and no proposal without words.
    void aFixedPoolIsProposedByItsFlag()
    {
        controller()->setSeqLen(8192);
        controller()->setBatchSize(16);
        controller()->setKvCacheMemoryBytes(std::int64_t(10) << 30);
        FitBanner *banner = explorer()->fitBanner();
        QVERIFY(banner->showsWarning());
        QTRY_VERIFY(!banner->fixesPending());
        const QString text = banner->plainText();
        QVERIFY2(text.contains(QStringLiteral("--kv-cache-memory-bytes 16.00 GiB")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("· ·")) && !text.contains(QStringLiteral(", .")),
                 qPrintable(text));
        for (const Fix &fix : banner->fixes())
            QVERIFY(!FitBanner::fixText(fix).isEmpty());
    }

    // The banner measures and draws its own copy of the text (QLabel would lay its document out a
    // dozen times for each step's new figures): it must look and measure as QLabel would, and a
    // step must not lay QLabel's document out at all.
    void fitBannerDrawsAndMeasuresAsQLabelWould()
    {
        FitBanner *banner = explorer()->fitBanner();
        // Over budget (a verdict, proposals as links), then back within it: each text measured anew.
        for (const int batch : {512, 16}) {
            child<QSpinBox>("batchSpin")->setValue(batch);
            QTRY_VERIFY(!banner->fixesPending());
            QApplication::processEvents();
            // QLabel's document still holds whatever it was last asked for, not this step's text.
            const auto *labelsOwn = banner->findChild<QTextDocument *>();
            QVERIFY(labelsOwn);
            QVERIFY(labelsOwn->toPlainText() != banner->plainText());

            QLabel qts(banner->parentWidget());
            qts.setWordWrap(true);
            qts.setTextFormat(Qt::RichText);
            qts.setTextInteractionFlags(banner->textInteractionFlags());
            qts.setMargin(banner->margin());
            qts.setContentsMargins(banner->contentsMargins());
            qts.setFont(banner->font());
            qts.setPalette(banner->palette());
            qts.setAutoFillBackground(true);
            qts.setText(banner->text());
            QCOMPARE(banner->indent(), qts.indent());
            for (const int width : {240, 480, 777, 1200})
                QVERIFY2(banner->heightForWidth(width) == qts.heightForWidth(width),
                         qPrintable(QStringLiteral("batch %1, width %2").arg(batch).arg(width)));
            QCOMPARE(banner->minimumSizeHint().width(), qts.minimumSizeHint().width());
            qts.resize(banner->size());
            qts.show();
            // Drawn alike, right of the accent bar only the banner draws.
            const QImage ours = banner->grab().toImage();
            const QImage theirs = qts.grab().toImage();
            const QRect text(8, 0, ours.width() - 8, ours.height());
            QCOMPARE(ours.copy(text), theirs.copy(text));
            QVERIFY(labelsOwn->toPlainText() != banner->plainText()); // the measuring did not use it either
        }
    }

    // A proposal applies its change when clicked, and when reached with Tab and Enter: QLabel's own
    // document, which the banner leaves to the mouse and the keyboard, is brought up to date for them.
    void fitBannerProposalsWorkByMouseAndKeyboard()
    {
        child<QSpinBox>("batchSpin")->setValue(512);
        FitBanner *banner = explorer()->fitBanner();
        QTRY_VERIFY(!banner->fixesPending());
        QVERIFY(banner->fixes().size() >= 2);
        QApplication::processEvents();
        const QList<Fix> fixes = banner->fixes();
        QList<Scenario> chosen;
        const QMetaObject::Connection record = connect(
            banner, &FitBanner::fixChosen, this, [&chosen](const Scenario &scenario) { chosen << scenario; });

        // Where the second proposal's link is, read from QLabel's document laid out as QLabel lays it.
        (void)banner->QLabel::heightForWidth(banner->width());
        const auto *labelsOwn = banner->findChild<QTextDocument *>();
        QTextCursor link = labelsOwn->find(FitBanner::fixText(fixes.at(1)).left(6));
        QVERIFY(!link.isNull());
        const QTextBlock block = link.block();
        const QTextLine line = block.layout()->lineForTextPosition(link.position() - block.position());
        const QPointF inDocument =
            block.layout()->position() +
            QPointF(line.cursorToX(link.position() - block.position()) - 3, line.y() + line.height() / 2);
        const QPoint inBanner =
            (inDocument + banner->contentsRect().topLeft() + QPointF(banner->margin(), banner->margin()))
                .toPoint();
        QTest::mouseClick(banner, Qt::LeftButton, {}, inBanner);
        QCOMPARE(chosen.size(), 1);
        QVERIFY(chosen.first() == fixes.at(1).scenario);

        // Clicking applied the proposal: over budget again, with that scenario's proposals.
        child<QSpinBox>("batchSpin")->setValue(4096);
        QTRY_VERIFY(!banner->fixesPending());
        QVERIFY(!banner->fixes().isEmpty());
        const Scenario first = banner->fixes().at(0).scenario;
        banner->setFocus(Qt::OtherFocusReason);
        QTest::keyClick(banner, Qt::Key_Tab);
        QVERIFY(banner->hasFocus());
        QTest::keyClick(banner, Qt::Key_Return);
        QCOMPARE(chosen.size(), 2);
        QVERIFY(chosen.last() == first);
        disconnect(record);
    }

    /// `accent` laid at `alpha` over `under`, as a translucent tint is drawn.
    static QColor blend(const QColor &accent, const QColor &under, int alpha)
    {
        const auto mix = [alpha](int a, int u) { return (a * alpha + u * (255 - alpha)) / 255; };
        return QColor(mix(accent.red(), under.red()), mix(accent.green(), under.green()),
                      mix(accent.blue(), under.blue()));
    }

    static int colourDistance(const QColor &a, const QColor &b)
    {
        return std::max(
            {std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
    }

    /// Reads the banner back as drawn: its tint (a pixel in its bottom-right margin), its icon
    /// (the verdict's first character) and its words all say the same, fits or not.
    void expectBannerSays(bool fits)
    {
        FitBanner *banner = explorer()->fitBanner();
        QApplication::processEvents();
        const QPalette surrounding = banner->parentWidget()->palette();
        const QColor under = surrounding.color(QPalette::Window);
        const QColor fitsTint = blend(theme::partColor(MemoryPart::KvCache, surrounding), under, 40);
        const QColor warningTint = blend(theme::warningColor(surrounding), under, 40);
        // From the window, with what lies under the banner (a translucent tint shows it).
        const QImage drawn =
            m_window->grab(QRect(banner->mapTo(m_window.get(), QPoint(0, 0)), banner->size())).toImage();
        const QColor tint = drawn.pixelColor(drawn.width() - 3, drawn.height() - 3);
        const QString words = banner->plainText();
        QVERIFY2(colourDistance(tint, fits ? fitsTint : warningTint) <= 3,
                 qPrintable(QStringLiteral("tint %1, expected %2 for '%3'")
                                .arg(tint.name(), (fits ? fitsTint : warningTint).name(), words.left(40))));
        QCOMPARE(banner->showsWarning(), !fits);
        QVERIFY2(words.startsWith(fits ? QChar(0x2713) : QChar(0x26A0)), qPrintable(words.left(40)));
        QVERIFY2(words.contains(fits ? QStringLiteral("Fits.") : QStringLiteral("do not fit")),
                 qPrintable(words.left(80)));
        // The proposals are links: readable on the tint (WCAG AA, 4.5:1 for normal text).
        const double linkContrast = theme::contrastRatio(banner->palette().color(QPalette::Link), tint);
        QVERIFY2(linkContrast >= 4.5, qPrintable(QString::number(linkContrast)));
    }

    void fitBannerTintFollowsTheVerdictBothWays()
    {
        // The contrast ratio against WCAG's own figures: 21:1 for black on white, and #767676 on
        // white, the lightest grey WebAIM's contrast checker passes for AA, 4.54:1.
        QCOMPARE(theme::contrastRatio(Qt::black, Qt::white), 21.0);
        QVERIFY(std::abs(theme::contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white) - 4.54) < 0.005);
        Scenario small = ScenarioController::defaultScenario(); // Llama-3.1-8B on one H100: fits
        Scenario large = small;
        large.model = resolveModel(QStringLiteral("llama-3.1-70b")); // 141 GB of BF16 weights on 80 GB
        const QPalette original = QApplication::palette();
        for (const QPalette &palette : {original, theme::darkPalette()}) {
            QApplication::setPalette(palette);
            QVERIFY(controller()->setScenario(small));
            expectBannerSays(true);
            QVERIFY(controller()->setScenario(large));
            expectBannerSays(false);
            QVERIFY(controller()->setScenario(small));
            expectBannerSays(true);
            if (QTest::currentTestFailed())
                break;
        }
        QApplication::setPalette(original);
    }

    void growthChartMarksCurrentPointAndCrossing()
    {
        const MemoryPlan &plan = controller()->plan();
        GrowthChartView *growth = explorer()->growthChart();
        int drawn = 0;
        for (const QLineSeries *line : growth->kvLines())
            drawn += line->count() > 0 ? 1 : 0;
        QCOMPARE(drawn, 3); // FP32, BF16, FP8
        QCOMPARE(growth->crossingText(),
                 QStringLiteral("fits up to %1 tokens").arg(formatCount(plan.largestSeqLenThatFits)));
        const QPointF current = growth->currentPoint()->at(0);
        QCOMPARE(current.y(), toGiB(plan.budgetBytes - plan.headroomBytes));
        QCOMPARE(growth->budgetLine()->at(0).y(), toGiB(plan.budgetBytes));
        // Told apart without colour: under deuteranopia the red crossing and the green current point are
        // the same olive, so they differ in shape and each carries its words.
        QVERIFY(growth->currentPoint()->markerShape() != growth->crossingPoint()->markerShape());
        QVERIFY(growth->currentLabel()->isVisible() && growth->crossingLabel()->isVisible());
        QVERIFY(growth->crossingLabel()->text().contains(growth->crossingText()));
        QVERIFY(growth->currentLabel()->text().contains(formatCount(controller()->scenario().seqLen)));

        selectComboData(child<QComboBox>("growthAxisCombo"), QString::number(int(GrowthAxis::BatchSize)));
        QCOMPARE(controller()->growthAxis(), GrowthAxis::BatchSize);
        QCOMPARE(growth->crossingText(),
                 QStringLiteral("fits up to %1 sequences").arg(formatCount(plan.largestBatchThatFits)));
    }

    void figuresEqualTheCommandLine()
    {
        // Same settings through `kvscope calc --json`: every card must agree.
        child<QSpinBox>("batchSpin")->setValue(32);
        selectComboData(child<QComboBox>("kvCacheDtypeCombo"), QStringLiteral("fp8"));
        const test::Run calc = test::runKvscope({QStringLiteral("calc"), QStringLiteral("--json"),
                                                 QStringLiteral("--batch-size"), QStringLiteral("32"),
                                                 QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8")});
        QVERIFY2(calc.exitCode == 0, calc.describe().constData());
        const QJsonObject json = QJsonDocument::fromJson(calc.out).object();
        FiguresPanel *figures = explorer()->figuresPanel();
        QCOMPARE(figures->valueLabel(QStringLiteral("kvBytesPerToken"))->text(),
                 QStringLiteral("%1 B").arg(
                     formatCount(json.value(QLatin1String("kv_bytes_per_token")).toInteger())));
        QCOMPARE(figures->valueLabel(QStringLiteral("kvCacheBytes"))->text(),
                 formatGiB(json.value(QLatin1String("kv_cache_bytes")).toInteger()));
        QCOMPARE(figures->valueLabel(QStringLiteral("kvCapacity"))->text(),
                 QStringLiteral("%1 tokens")
                     .arg(formatCount(json.value(QLatin1String("kv_capacity_tokens")).toInteger())));
        QCOMPARE(figures->valueLabel(QStringLiteral("maxConcurrency"))->text(),
                 QString::number(json.value(QLatin1String("max_concurrency")).toDouble(), 'f', 2) +
                     QStringLiteral("×"));
        QCOMPARE(figures->valueLabel(QStringLiteral("weights"))->text(),
                 formatGiB(json.value(QLatin1String("weights_bytes")).toInteger()));
        QVERIFY(figures->detailLabel(QStringLiteral("weights"))
                    ->text()
                    .startsWith(formatParameterCount(json.value(QLatin1String("params_total")).toInteger())));
        // Copy as JSON gives the same object as the command line.
        explorer()->copyJson();
        QJsonObject copied = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(copied, json);
    }

    void modelAndGpuPickers()
    {
        selectComboData(child<QComboBox>("modelPicker"), QStringLiteral("deepseek-v3"));
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("deepseek-v3"));
        QCOMPARE(controller()->plan().kv.bytesPerToken, 70'272); // MLA latent, 61 x 576 x 2
        selectComboData(child<QComboBox>("gpuPicker"), QStringLiteral("h200"));
        QCOMPARE(controller()->scenario().gpu.id, QStringLiteral("h200"));
        QComboBox *gpus = child<QComboBox>("gpuCount");
        selectComboData(gpus, QStringLiteral("8"));
        QCOMPARE(controller()->scenario().tensorParallelSize, 8);
        QCOMPARE(controller()->plan().kv.bytesPerToken, 70'272); // replicated on every GPU
        QVERIFY(m_window->windowTitle().contains(QLatin1String("DeepSeek-V3")));
    }

    void gpuCountOffersOnlyValidSizes()
    {
        QComboBox *gpus = child<QComboBox>("gpuCount");
        QStringList offered;
        for (int i = 0; i < gpus->count(); ++i)
            offered << gpus->itemText(i);
        QCOMPARE(offered, (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4"),
                                       QStringLiteral("8"), QStringLiteral("16"), QStringLiteral("32")}));
    }

    void rejectedChangeKeepsState()
    {
        QSignalSpy errors(controller(), &ScenarioController::errorOccurred);
        const Scenario before = controller()->scenario();
        controller()->setTensorParallelSize(3);
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.first().first().toString().contains(QLatin1String("--tensor-parallel-size: 3")));
        QCOMPARE(controller()->scenario().tensorParallelSize, before.tensorParallelSize);
        QCOMPARE(child<QComboBox>("gpuCount")->currentText(), QStringLiteral("1"));
    }

    void settingsRoundTrip()
    {
        child<QSpinBox>("batchSpin")->setValue(48);
        child<QSpinBox>("seqLenSpin")->setValue(32'768);
        child<QSpinBox>("promptLenSpin")->setValue(30'000);
        selectComboData(child<QComboBox>("modelPicker"), QStringLiteral("qwen3-30b-a3b"));
        selectComboData(child<QComboBox>("kvCacheDtypeCombo"), QStringLiteral("fp8_e5m2"));
        selectComboData(child<QComboBox>("growthAxisCombo"), QString::number(int(GrowthAxis::BatchSize)));
        m_window->resize(1000, 700);
        QApplication::processEvents();
        auto *splitter = child<QSplitter>("explorerSplitter");
        // The parameters, the charts, and the formula panel (hidden: no width).
        const QList<int> sizes{splitter->sizes().first() + 40, splitter->sizes().at(1) - 40, 0};
        splitter->setSizes(sizes);
        QCOMPARE(splitter->sizes(), sizes);
        QVERIFY(m_window->showView(QStringLiteral("quantization")));
        m_window->close(); // saves
        m_window.reset();

        openWindow(false);
        const Scenario &s = controller()->scenario();
        QCOMPARE(s.model.id, QStringLiteral("qwen3-30b-a3b"));
        QCOMPARE(s.batchSize, 48);
        QCOMPARE(s.seqLen, 32'768);
        QCOMPARE(s.promptLen, 30'000);
        QCOMPARE(child<QSpinBox>("promptLenSpin")->value(), 30'000);
        QCOMPARE(s.kvCacheDtype, KvCacheDtype::Fp8E5M2);
        QCOMPARE(controller()->growthAxis(), GrowthAxis::BatchSize);
        QCOMPARE(m_window->size(), QSize(1000, 700));
        QCOMPARE(child<QTabWidget>("viewTabs")->currentWidget()->objectName(),
                 QStringLiteral("quantizationTab"));
        m_window->showView(QStringLiteral("explorer"));
        QApplication::processEvents();
        QCOMPARE(child<QSplitter>("explorerSplitter")->sizes(), sizes);
        QVERIFY(m_window->restoreProblems().isEmpty());
    }

    void growthAxisComboMatchesTheChartAfterRestart()
    {
        selectComboData(child<QComboBox>("growthAxisCombo"), QString::number(int(GrowthAxis::BatchSize)));
        m_window->close(); // saves
        m_window.reset();

        openWindow();
        auto *combo = child<QComboBox>("growthAxisCombo");
        QCOMPARE(controller()->growthAxis(), GrowthAxis::BatchSize);
        QVERIFY2(explorer()->growthChart()->chart()->title().contains(QLatin1String("vs batch size")),
                 qPrintable(explorer()->growthChart()->chart()->title()));
        QCOMPARE(combo->currentText(), QStringLiteral("vs batch size"));
        QCOMPARE(GrowthAxis(combo->currentData().toInt()), controller()->growthAxis());
    }

    void corruptSettingsFallBackToDefaults()
    {
        m_window.reset();
        const QString path = QSettings().fileName();
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[scenario]\nmodel=llama-99b\nbatchSize=-4\ngpuMemoryUtilization=7\nseqLen=\x01\x02\xff\n"
                   "\x00\x00garbage[[[\n");
        file.close();
        openWindow();
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        QCOMPARE(controller()->scenario().batchSize, 16);
        QCOMPARE(controller()->scenario().gpuMemoryUtilizationPpm, 0); // the release's default
        const QString problems = m_window->restoreProblems().join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QLatin1String("scenario/model = 'llama-99b' ignored")),
                 qPrintable(problems));
        QVERIFY2(problems.contains(QLatin1String("scenario/batchSize")), qPrintable(problems));
        // Each line is in the status bar too.
        const QString shown = m_window->statusBar()->currentMessage();
        QVERIFY2(shown.contains(QLatin1String("scenario/model = 'llama-99b' ignored")), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("scenario/gpuMemoryUtilization = '7' ignored")),
                 qPrintable(shown));

        // A combination that is invalid as a whole (TP 3 for 32 heads) also falls back.
        m_window.reset();
        appsettings::reset();
        QSettings().setValue(QStringLiteral("scenario/tensorParallelSize"), 3);
        openWindow();
        QCOMPARE(controller()->scenario().tensorParallelSize, 1);
        QVERIFY(!m_window->restoreProblems().isEmpty());
    }

    void binarySettingsFileIsReported()
    {
        // A settings file of bytes no INI text holds: QSettings reads no error and no
        // known key from it, so without a check of the file nothing would be said.
        m_window.reset();
        QFile file(QSettings().fileName());
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray junk;
        for (int i = 0; i < 512; ++i)
            junk += char((i * 151 + 7) % 256);
        file.write(junk);
        file.close();
        openWindow();
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        const QString shown = m_window->statusBar()->currentMessage();
        QVERIFY2(shown.contains(QLatin1String("not a settings file")), qPrintable(shown));
        QVERIFY2(shown.contains(QSettings().fileName()), qPrintable(shown));
    }

    void corruptWindowStateFallsBack()
    {
        m_window.reset();
        {
            QSettings settings;
            settings.setValue(QStringLiteral("window/geometry"), QByteArray("not a geometry"));
            settings.setValue(QStringLiteral("window/explorerSplitter"), QStringLiteral("sideways"));
            settings.setValue(QStringLiteral("window/tab"), 7);
            settings.setValue(QStringLiteral("ui/language"), QStringLiteral("tlh"));
            settings.setValue(QStringLiteral("explorer/growthAxis"), QStringLiteral("diagonal"));
        }
        m_window = std::make_unique<MainWindow>();
        QCOMPARE(m_window->size(), QSize(1280, 720)); // the default size
        QCOMPARE(child<QTabWidget>("viewTabs")->currentIndex(), 0);
        QCOMPARE(translations::current(), QStringLiteral("en"));
        QCOMPARE(controller()->growthAxis(), GrowthAxis::SequenceLength);
        const QString problems = m_window->restoreProblems().join(QLatin1Char('\n'));
        for (const char *line : {"window/geometry = 'not a geometry' ignored",
                                 "window/explorerSplitter = 'sideways' ignored", "window/tab = '7' ignored",
                                 "ui/language = 'tlh' ignored", "explorer/growthAxis = 'diagonal' ignored"})
            QVERIFY2(problems.contains(QLatin1String(line)), qPrintable(problems));
        QCOMPARE(m_window->restoreProblems().size(), 5); // one line each, nothing else
        QVERIFY(
            m_window->statusBar()->currentMessage().contains(QLatin1String("ui/language = 'tlh' ignored")));
    }

    void switchesLanguageLive()
    {
        auto *tabs = child<QTabWidget>("viewTabs");
        QCOMPARE(tabs->tabText(0), QStringLiteral("Explorer"));
        child<QAction>("actionLanguage_zh_CN")->trigger(); // LanguageChange is posted to the windows
        QTRY_COMPARE(tabs->tabText(0), QStringLiteral("探索"));
        QTRY_VERIFY(explorer()->fitBanner()->text().contains(QStringLiteral("放得下")));
        settings::SettingsReader saved;
        QCOMPARE(appsettings::language(saved), QStringLiteral("zh_CN"));
        child<QAction>("actionLanguage_en")->trigger();
        QTRY_COMPARE(tabs->tabText(0), QStringLiteral("Explorer"));
    }

    void aReasonInPlaceOfTheFiguresStaysInsideTheChart()
    {
        // A server that does not start, or a GPU without a figure, leaves the speed charts a sentence
        // instead of lines: at a narrow width (a projector, the report's half page) it wraps inside the
        // plot rather than running past both edges.
        const QString reason = QStringLiteral(
            "the weights alone (131.45 GiB per GPU) exceed the 72.85 GiB budget by 58.59 GiB, and a longer "
            "sentence so that it needs several lines at this width");
        StepBreakdownChartData bars;
        bars.notes = {reason};
        StepBreakdownChartView breakdown;
        breakdown.showBreakdown(bars);
        SpeedChartData curves;
        curves.notes = {reason};
        SpeedChartView speed;
        speed.showSpeed(curves);
        for (QChartView *view : std::initializer_list<QChartView *>{&breakdown, &speed}) {
            view->resize(420, 300);
            view->show();
        }
        QApplication::processEvents();
        const auto inside = [](QChartView *view, const ChartCallout *label) {
            const QRectF plot = view->chart()->plotArea();
            const QRectF box = label->sceneBoundingRect();
            return label->isVisible() && box.left() >= plot.left() - 1 && box.right() <= plot.right() + 1 &&
                   box.top() >= plot.top() - 1 && box.bottom() <= plot.bottom() + 1;
        };
        QVERIFY(breakdown.reasonLabel()->text().contains(reason));
        QVERIFY2(inside(&breakdown, breakdown.reasonLabel()),
                 qPrintable(QStringLiteral("%1 in %2")
                                .arg(breakdown.reasonLabel()->sceneBoundingRect().width())
                                .arg(breakdown.chart()->plotArea().width())));
        QVERIFY(speed.currentLabel()->text().contains(reason));
        QVERIFY2(inside(&speed, speed.currentLabel()),
                 qPrintable(QStringLiteral("%1 in %2")
                                .arg(speed.currentLabel()->sceneBoundingRect().width())
                                .arg(speed.chart()->plotArea().width())));
    }

    void windowRendersAtSeveralSizes()
    {
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080), QSize(960, 720)}) {
            m_window->resize(size);
            QApplication::processEvents();
            const QImage image = m_window->grab().toImage();
            QCOMPARE(image.size() / image.devicePixelRatio(), size);
            // Not blank: the KV cache and weights colours both appear.
            const QPalette palette = explorer()->breakdownChart()->palette();
            QVERIFY(test::pixelsNear(image, theme::partColor(MemoryPart::KvCache, palette)) > 100);
            QVERIFY(test::pixelsNear(image, theme::partColor(MemoryPart::Weights, palette)) > 100);
        }
    }

    void followsADarkPalette()
    {
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
        dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x1b));
        dark.setColor(QPalette::WindowText, QColor(0xe4, 0xe4, 0xe7));
        dark.setColor(QPalette::Text, QColor(0xe4, 0xe4, 0xe7));
        dark.setColor(QPalette::Button, QColor(0x2a, 0x2a, 0x2e));
        dark.setColor(QPalette::ButtonText, QColor(0xe4, 0xe4, 0xe7));
        const QPalette original = QApplication::palette();
        QApplication::setPalette(dark);
        QApplication::processEvents();
        BreakdownChartView *chart = explorer()->breakdownChart();
        QVERIFY(theme::isDark(chart->palette()));
        QCOMPARE(chart->chart()->backgroundBrush().color(), dark.color(QPalette::Base));
        const QImage image = m_window->grab().toImage();
        if (qEnvironmentVariableIsSet("KVSCOPE_TEST_SCREENSHOTS"))
            image.save(qEnvironmentVariable("KVSCOPE_TEST_SCREENSHOTS") +
                       QStringLiteral("/explorer-dark.png"));
        // Dark-mode colours are used: the lighter KV green of the dark palette appears.
        QVERIFY(test::pixelsNear(image, theme::partColor(MemoryPart::KvCache, dark)) > 100);
        QApplication::setPalette(original);
    }

    void keyboardShortcuts()
    {
        QTest::keyClick(m_window.get(), Qt::Key_K, Qt::ControlModifier); // next KV precision: BF16 -> FP8
        QCOMPARE(controller()->plan().kvCacheDtype, KvCacheDtype::Fp8E4M3);
        QTest::keyClick(m_window.get(), Qt::Key_T, Qt::ControlModifier);
        QCOMPARE(controller()->growthAxis(), GrowthAxis::BatchSize);
        QTest::keyClick(m_window.get(), Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), child<QSlider>("batchSlider"));
    }
};

QTEST_MAIN(TestExplorer)
#include "tst_explorer.moc"
