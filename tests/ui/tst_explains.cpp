// SPDX-License-Identifier: MIT
// The explorer explains its figures: the core's notes and proposals in the
// banner, the structure behind each card, bars and curves true to scale,
// readable numbers and tooltips, everything on screen in "Copy figures".
#include "core/analysis/fixes.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/output/breakdown.h"
#include "core/plan/planner.h"
#include "tests/ui/uitestsupport.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/chartcallout.h"
#include "ui/charts/growthchart.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/figurespanel.h"
#include "ui/explorer/fitbanner.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/translations.h"
#include "ui/style/theme.h"
#include "ui/window/mainwindow.h"

#include <memory>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QBarSet>
#include <QCategoryAxis>
#include <QClipboard>
#include <QComboBox>
#include <QGraphicsRectItem>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolTip>

using namespace kvscope;

class TestExplains : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;

    ScenarioController *controller() const { return m_window->controller(); }
    ExplorerView *explorer() const { return m_window->explorer(); }
    FitBanner *banner() const { return explorer()->fitBanner(); }
    QString detail(const char *card) const
    {
        return explorer()->figuresPanel()->detailLabel(QLatin1String(card))->text();
    }
    QString value(const char *card) const
    {
        return explorer()->figuresPanel()->valueLabel(QLatin1String(card))->text();
    }

    static Scenario scenario(const char *model, const char *gpu, std::int64_t batch, std::int64_t seqLen)
    {
        Scenario s = ScenarioController::defaultScenario();
        s.model = resolveModel(QLatin1String(model));
        s.gpu = resolveGpu(QLatin1String(gpu));
        s.batchSize = batch;
        s.seqLen = seqLen;
        return s;
    }

    void show(const Scenario &s)
    {
        QVERIFY(controller()->setScenario(s));
        QTRY_VERIFY(!explorer()->isBusy()); // the banner's proposals, worked out off the UI thread
    }

    void switchLanguage(const char *code)
    {
        m_window->findChild<QAction *>(QStringLiteral("actionLanguage_") + QLatin1String(code))->trigger();
        QApplication::processEvents();
        QApplication::processEvents();
    }

    /// First and last x of pixels near `color` along row y of `image`.
    static std::pair<int, int> extent(const QImage &image, int y, const QColor &color)
    {
        int first = -1, last = -1;
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (qAbs(c.red() - color.red()) < 12 && qAbs(c.green() - color.green()) < 12 &&
                qAbs(c.blue() - color.blue()) < 12) {
                if (first < 0)
                    first = x;
                last = x;
            }
        }
        return {first, last};
    }

    /// Checks that a part's drawn length equals its bytes on the chart's axis, within 3 px.
    void expectTrueToScale(MemoryPart part, std::int64_t bytes)
    {
        BreakdownChartView *chart = explorer()->breakdownChart();
        QApplication::processEvents();
        const QImage image = chart->grab().toImage();
        QCOMPARE(image.devicePixelRatio(), 1.0);
        const QPointF origin = chart->chart()->mapToPosition(QPointF(0, 0), chart->chart()->series().first());
        const QPointF end =
            chart->chart()->mapToPosition(QPointF(toGiB(bytes), 0), chart->chart()->series().first());
        const MemoryBreakdown bar = memoryBreakdown(controller()->plan());
        // The segment starts where the parts before it end.
        double start = 0;
        for (const BreakdownSegment &segment : bar.segments) {
            if (segment.part == part)
                break;
            start += toGiB(segment.bytes);
        }
        const double left =
            chart->chart()->mapToPosition(QPointF(start, 0), chart->chart()->series().first()).x();
        // A row a quarter into the bar, clear of the centred value label.
        const int y = int(origin.y() - chart->chart()->plotArea().height() * 0.2);
        const auto [first, last] = extent(image, y, theme::partColor(part, chart->palette()));
        const double expected = end.x() - origin.x();
        QVERIFY2(first >= 0, "segment not drawn");
        QVERIFY2(qAbs(first - left) <= 3,
                 qPrintable(QStringLiteral("starts at %1, expected %2").arg(first).arg(left)));
        QVERIFY2(
            qAbs((last - first + 1) - expected) <= 3,
            qPrintable(QStringLiteral("%1 px drawn, %2 px on the axis").arg(last - first + 1).arg(expected)));
    }

private Q_SLOTS:
    void initTestCase() { test::isolateSettings(QStringLiteral("kvscope-tests-explains")); }

    void init()
    {
        test::resetState();
        m_window = test::openWindow();
    }

    void cleanup()
    {
        m_window.reset();
        translations::apply(QStringLiteral("en"));
    }

    void coreNotesReachTheBanner()
    {
        // A T4 (compute capability 7.5, no bfloat16) with --dtype auto, asked for a sequence longer
        // than --max-model-len: the core notes vLLM's float16 fallback and the length it rejects.
        Scenario s = scenario("llama-3.1-8b", "t4", 1, 8192);
        s.maxModelLen = 4096;
        show(s);
        const QStringList notes = controller()->plan().notes;
        QVERIFY(notes.size() >= 2);
        for (const QString &note : notes)
            QVERIFY2(banner()->plainText().contains(note), qPrintable(note));
        QVERIFY(banner()->plainText().contains(QLatin1String("has no bfloat16")));

        // In Chinese the core's notes are translated (the CLI keeps them English: tst_cli).
        switchLanguage("zh_CN");
        QTRY_VERIFY2(banner()->plainText().contains(QStringLiteral("不支持 bfloat16")),
                     qPrintable(banner()->plainText()));
        QVERIFY(!banner()->plainText().contains(QLatin1String("has no bfloat16")));

        // An A10 (8.6) runs FP8 weights weight-only: that note is translated too.
        s = scenario("llama-3.1-8b", "a10", 1, 4096);
        s.quantization = defaultSpecFor(QuantMethod::Fp8);
        show(s);
        QTRY_VERIFY2(banner()->plainText().contains(QStringLiteral("FP8 张量核心")),
                     qPrintable(banner()->plainText()));
    }

    void coreErrorsAreTranslated()
    {
        switchLanguage("zh_CN");
        QSignalSpy errors(controller(), &ScenarioController::errorOccurred);
        controller()->setBatchSize(0);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors.first().first().toString().contains(QStringLiteral("必须是正整数")),
                 qPrintable(errors.first().first().toString()));
    }

    void cardsStateTheStructure()
    {
        // Gemma 3 27B: 507,904 B per token over 62 layers, yet 16 x 32,768 tokens take far less
        // than 248 GiB: 52 of the 62 layers keep only a 1,024-token window.
        show(scenario("gemma-3-27b", "h200", 16, 32768));
        QVERIFY2(
            detail("kvCacheBytes").contains(QLatin1String("52 of 62 layers slide over a 1,024-token window")),
            qPrintable(detail("kvCacheBytes")));
        QVERIFY(detail("kvCacheBytes").contains(QLatin1String("whole blocks of 16 tokens")));
        // Under SGLang a token is its own page: nothing to say of blocks, and no separator left dangling.
        Scenario sglang = scenario("llama-3.1-8b", "h100-sxm", 16, 8192);
        sglang.engine = Engine::Sglang;
        show(sglang);
        QVERIFY2(!detail("kvCacheBytes").contains(QLatin1String("blocks")) &&
                     !detail("kvCacheBytes").trimmed().endsWith(QStringLiteral("·")),
                 qPrintable(detail("kvCacheBytes")));
        // SGLang's name for the longest request.
        QVERIFY2(detail("maxConcurrency").contains(QLatin1String("--context-length")),
                 qPrintable(detail("maxConcurrency")));
        show(scenario("gemma-3-27b", "h200", 16, 32768));
        QVERIFY2(detail("kvBytesPerToken").contains(QLatin1String("GQA: 16 KV heads for 32 query heads")),
                 qPrintable(detail("kvBytesPerToken")));

        // DeepSeek-V3 on 8 GPUs: one MLA latent of 512 + 64 values per token and layer, on every GPU.
        Scenario deepseek = scenario("deepseek-v3", "h200", 16, 8192);
        deepseek.tensorParallelSize = 8;
        show(deepseek);
        QVERIFY2(detail("kvBytesPerToken")
                     .contains(QStringLiteral("MLA latent (512 + 64) × 2 B, replicated on every GPU")),
                 qPrintable(detail("kvBytesPerToken")));
        QVERIFY(!detail("kvBytesPerToken").contains(QLatin1String("KV head")));

        // Qwen3-Next: 36 Gated DeltaNet layers of 48 with a fixed state; vLLM's grouped blocks.
        Scenario qwen = scenario("qwen3-next-80b-a3b", "h200", 4, 8192);
        qwen.tensorParallelSize = 4;
        show(qwen);
        QVERIFY2(detail("kvCacheBytes").contains(QLatin1String("36 of 48 layers are Gated DeltaNet")),
                 qPrintable(detail("kvCacheBytes")));
        QVERIFY2(detail("kvCapacity").contains(QLatin1String("groups")), qPrintable(detail("kvCapacity")));

        // Llama 4 Scout: 36 of 48 layers keep their 8,192-token chunk.
        show(scenario("llama-4-scout-17b-16e", "h200", 4, 32768));
        QVERIFY2(detail("kvCacheBytes")
                     .contains(QLatin1String("36 of 48 layers keep only their 8,192-token chunk")),
                 qPrintable(detail("kvCacheBytes")));
    }

    void weightsAloneOverTheBudget()
    {
        // Llama-3.1-70B in BF16 on one H100: 131.4 GiB of weights against a 71.27 GiB budget.
        show(scenario("llama-3.1-70b", "h100-sxm", 16, 8192));
        const MemoryPlan plan = controller()->plan();
        const QString text = banner()->plainText();
        QVERIFY2(text.contains(QLatin1String("The weights alone do not fit")), qPrintable(text));
        QVERIFY(text.contains(formatMemory(plan.weightsOverBudgetBytes, QLocale())));
        QVERIFY2(!text.contains(QLatin1String("batch 0")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("--max-model-len 0")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("4 GPUs (tensor parallel)")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("AWQ INT4")), qPrintable(text));
        QCOMPARE(value("kvCapacity"), QStringLiteral("none"));
        QCOMPARE(value("maxConcurrency"), QStringLiteral("none"));
        QVERIFY2(!detail("kvCapacity").contains(QLatin1Char('-')), qPrintable(detail("kvCapacity")));

        // One click applies a proposal: 4 GPUs, the batch as it was.
        const QList<Fix> fixes = banner()->fixes();
        int four = -1;
        for (int i = 0; i < fixes.size(); ++i)
            if (fixes.at(i).kind == FixKind::TensorParallel && fixes.at(i).scenario.tensorParallelSize == 4)
                four = i;
        QVERIFY(four >= 0);
        banner()->chooseFix(four);
        QCOMPARE(controller()->scenario().tensorParallelSize, 4);
        QCOMPARE(controller()->scenario().batchSize, 16);
        QVERIFY(controller()->plan().fits);
        QVERIFY(!banner()->showsWarning());
        QTRY_VERIFY(!banner()->fixesPending());
        QVERIFY2(banner()->plainText().contains(QLatin1String("Room for up to")),
                 qPrintable(banner()->plainText()));
    }

    void barSegmentsAreTrueToScale()
    {
        // Weights of 131.45 GiB are drawn 131.45 GiB long, past the 71.27 GiB budget line.
        show(scenario("llama-3.1-70b", "h100-sxm", 16, 8192));
        expectTrueToScale(MemoryPart::Weights, controller()->plan().weights.bytesPerGpu);
        // A large KV cache likewise: 512 x 8,192 tokens x 128 KiB = 512 GiB.
        show(scenario("llama-3.1-8b", "h100-sxm", 512, 8192));
        expectTrueToScale(MemoryPart::KvCache, 512 * GiB);
        // And the hatched overflow starts at the budget line.
        BreakdownChartView *chart = explorer()->breakdownChart();
        QVERIFY(chart->overflowRegion()->isVisible());
        const QPointF budget = chart->chart()->mapToPosition(
            QPointF(toGiB(controller()->plan().budgetBytes), 0), chart->chart()->series().first());
        QVERIFY(qAbs(chart->overflowRegion()->rect().left() - budget.x()) < 1);
    }

    void growthChartIsLinearByDefaultAndRemembersTheScale()
    {
        GrowthChartView *growth = explorer()->growthChart();
        QCOMPARE(controller()->growthScale(), AxisScale::Linear);
        // Linear: 8,192 tokens sit at 8,192 on the axis, and equal steps of tokens are equal lengths.
        QCOMPARE(growth->currentPoint()->at(0).x(), 8192.0);
        QCOMPARE(growth->xAxis()->titleText(), QStringLiteral("Sequence length (tokens)"));
        const QList<QPointF> kv = growth->kvLines().at(1)->points();
        const double slope = kv.last().y() / kv.last().x();
        for (const QPointF &p : kv)
            if (qint64(p.x()) % 16 == 0)
                QVERIFY(qAbs(p.y() - slope * p.x()) < 1e-9 * p.x() + 1e-12);
        // --max-model-len (131,072) lies beyond the range: marked at its edge with an arrow.
        QVERIFY(growth->maxModelLenLabel()->isVisible());
        QVERIFY2(growth->maxModelLenLabel()->text().endsWith(QStringLiteral("→")),
                 qPrintable(growth->maxModelLenLabel()->text()));
        QCOMPARE(growth->maxModelLenLine()->at(0).x(), double(growth->data().rangeMax));

        auto *scale = m_window->findChild<QComboBox *>(QStringLiteral("growthScaleCombo"));
        scale->setCurrentIndex(scale->findData(int(AxisScale::Logarithmic)));
        Q_EMIT scale->activated(scale->currentIndex());
        QCOMPARE(controller()->growthScale(), AxisScale::Logarithmic);
        QCOMPARE(growth->currentPoint()->at(0).x(), 13.0); // log2(8192)
        m_window->close();                                 // saves
        m_window = test::openWindow();
        QCOMPARE(controller()->growthScale(), AxisScale::Logarithmic);
        QCOMPARE(m_window->findChild<QComboBox *>(QStringLiteral("growthScaleCombo"))->currentData().toInt(),
                 int(AxisScale::Logarithmic));
    }

    void growthLabelsStayClearOfCurvesAndEachOther()
    {
        for (const char *language : {"en", "zh_CN"}) {
            switchLanguage(language);
            m_window->resize(1280, 720);
            QApplication::processEvents();
            GrowthChartView *growth = explorer()->growthChart();
            const QImage image = growth->grab().toImage();
            QList<ChartCallout *> labels{growth->currentLabel(), growth->crossingLabel(),
                                         growth->maxModelLenLabel()};
            for (ChartCallout *label : labels) {
                QVERIFY(label->isVisible());
                // The label's box is opaque: no curve colour inside it.
                const QRect box =
                    growth->mapFromScene(label->sceneBoundingRect()).boundingRect().adjusted(2, 2, -2, -2);
                const QImage inside = image.copy(box);
                for (const GrowthCurve &curve : growth->data().curves)
                    QCOMPARE(test::pixelsNear(inside,
                                              theme::precisionColor(curve.kvCacheDtype, growth->palette())),
                             0);
                // Inside the plot.
                QVERIFY(
                    growth->chart()->plotArea().adjusted(-1, -1, 1, 1).contains(label->sceneBoundingRect()));
            }
            for (int i = 0; i < labels.size(); ++i)
                for (int j = i + 1; j < labels.size(); ++j)
                    QVERIFY2(!labels.at(i)->sceneBoundingRect().intersects(labels.at(j)->sceneBoundingRect()),
                             qPrintable(labels.at(i)->text() + QStringLiteral(" / ") + labels.at(j)->text()));
        }
    }

    void markersOutsideTheRangeStayVisible()
    {
        // 4,096 sequences of 8,192 tokens: 4 TiB, far above the chart's top.
        show(scenario("llama-3.1-8b", "h100-sxm", 4096, 8192));
        GrowthChartView *growth = explorer()->growthChart();
        QCOMPARE(growth->currentPoint()->count(), 1);
        QCOMPARE(growth->currentPoint()->at(0).y(), toGiB(growth->data().yMaxBytes));
        QVERIFY2(growth->currentLabel()->text().startsWith(QStringLiteral("↑")),
                 qPrintable(growth->currentLabel()->text()));
        QVERIFY(growth->currentLabel()->text().contains(
            formatMemory(controller()->plan().budgetBytes - controller()->plan().headroomBytes, QLocale())));
    }

    void hugeFiguresStayReadable()
    {
        // 4,096 x 131,072 tokens x 128 KiB = 64 TiB of KV cache: 65,536 GiB, which is
        // 65,536 / 72.85 = 899.6 budgets of 0.92 x 81,090 MiB (vLLM 0.21's default share).
        show(scenario("llama-3.1-8b", "h100-sxm", 4096, 131'072));
        QCOMPARE(value("kvCacheBytes"), QStringLiteral("64.00 TiB"));
        const QStringList legend = explorer()->breakdownChart()->summaryText().split(QLatin1Char('\n'));
        const QString kv = legend.filter(QLatin1String("KV cache")).value(0);
        QVERIFY2(kv.contains(QStringLiteral("×900 the budget")), qPrintable(kv));
        for (const QString &line : legend)
            QVERIFY2(!line.contains(QRegularExpression(QStringLiteral("\\d{4,}[.%]"))), qPrintable(line));
        QVERIFY2(banner()->plainText().contains(QLatin1String("TiB over")),
                 qPrintable(banner()->plainText()));
        QCOMPARE(value("kvBytesPerToken"), QStringLiteral("131,072 B"));
    }

    void longToolTipsWrap()
    {
        QWidget *card = explorer()->figuresPanel();
        card->setToolTip(QString(QStringLiteral("A long explanation that goes on. ")).repeated(30));
        QHelpEvent event(QEvent::ToolTip, QPoint(10, 10), card->mapToGlobal(QPoint(10, 10)));
        QApplication::sendEvent(card, &event);
        QWidget *tip = nullptr;
        QTRY_VERIFY((tip = [] {
            for (QWidget *w : QApplication::topLevelWidgets())
                if (w->inherits("QTipLabel") && w->isVisible())
                    return w;
            return static_cast<QWidget *>(nullptr);
        }()));
        QVERIFY2(tip->width() <= 700, qPrintable(QString::number(tip->width())));
        QVERIFY(tip->height() > 3 * tip->fontMetrics().height()); // several lines
        QToolTip::hideText();
    }

    void modelPickerShowsManyModels()
    {
        auto *picker = m_window->findChild<QComboBox *>(QStringLiteral("modelPicker"));
        picker->showPopup();
        QApplication::processEvents();
        QAbstractItemView *view = picker->view();
        int visible = 0;
        for (int row = 0; row < picker->count(); ++row)
            if (view->viewport()->rect().contains(view->visualRect(picker->model()->index(row, 0))))
                ++visible;
        picker->hidePopup();
        QVERIFY2(visible >= 25, qPrintable(QString::number(visible)));
    }

    void quantizationFiguresAboveTheFold()
    {
        QVERIFY(m_window->showView(QStringLiteral("quantization")));
        QApplication::processEvents();
        auto *table = m_window->findChild<QTableView *>(QStringLiteral("figuresTable"));
        QVERIFY(table);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() > 0, test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        const QRect shown = QRect(table->mapTo(m_window.get(), QPoint(0, 0)), table->size());
        QVERIFY2(
            m_window->rect().contains(shown.topLeft() + QPoint(0, table->horizontalHeader()->height() * 3)),
            qPrintable(
                QStringLiteral("table at y %1 in a %2 px window").arg(shown.top()).arg(m_window->height())));
    }

    void copyFiguresCopiesEverythingOnScreen()
    {
        show(scenario("llama-3.1-70b", "h100-sxm", 16, 8192));
        explorer()->copyFigures();
        const QString copied = QGuiApplication::clipboard()->text();
        const MemoryPlan &plan = controller()->plan();
        QVERIFY2(copied.contains(QLatin1String("The weights alone do not fit")), qPrintable(copied));
        QVERIFY(copied.contains(QLatin1String("4 GPUs (tensor parallel)"))); // a proposal
        for (const QString &note : plan.notes)
            QVERIFY2(copied.contains(note), qPrintable(note)); // the notes
        QVERIFY2(copied.contains(
                     QStringLiteral("Weights %1").arg(formatMemory(plan.weights.bytesPerGpu, QLocale()))),
                 qPrintable(copied)); // the memory bar
        QVERIFY(copied.contains(QLatin1String("Over budget")));
        QVERIFY(copied.contains(explorer()->growthChart()->crossingText()));
        QVERIFY(copied.contains(QLatin1String("KV cache per token: 327,680 B")));
    }
};

QTEST_MAIN(TestExplains)
#include "tst_explains.moc"
