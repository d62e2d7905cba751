// SPDX-License-Identifier: MIT
// Export and share in the window: every chart's export actions, the files
// they write (PNG of the requested size and dpi, SVG that parses, one-page
// PDF, CSV and JSON equal to the core's), the report, scenario files
// (byte-exact round trip, refusals that change nothing) and the
// unsaved-changes prompt.
#include "core/analysis/fixes.h"
#include "core/common/atomicfile.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/compare/comparechart.h"
#include "core/compare/comparetext.h"
#include "core/document/scenariofile.h"
#include "core/library/library.h"
#include "core/output/breakdown.h"
#include "core/output/calcjson.h"
#include "core/output/chartcsv.h"
#include "core/output/planjson.h"
#include "core/output/speedchart.h"
#include "core/output/stepbreakdown.h"
#include "tests/testsupport.h"
#include "tests/ui/uitestsupport.h"
#include "ui/charts/breakdownchart.h"
#include "ui/charts/chartview.h"
#include "ui/charts/comparememorychart.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/speedpanel.h"
#include "ui/export/chartactions.h"
#include "ui/export/chartcatalogue.h"
#include "ui/export/exportdialog.h"
#include "ui/export/figurerenderer.h"
#include "ui/export/reportpage.h"
#include "ui/quantization/quantizationview.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/scenariosession.h"
#include "ui/state/translations.h"
#include "ui/state/userlibrary.h"
#include "ui/style/theme.h"
#include "ui/window/mainwindow.h"

#include <memory>

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QComboBox>
#include <QDropEvent>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QScopeGuard>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QXmlStreamReader>

using namespace kvscope;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The text an SVG shows (its <text> and <title> contents), after checking that it parses as XML.
QString svgText(const QByteArray &svg, QString *error)
{
    QXmlStreamReader xml(svg);
    QString text;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isCharacters())
            text += xml.text().toString() + QLatin1Char(' ');
    }
    if (xml.hasError())
        *error = xml.errorString();
    return text;
}

/// Pages in a PDF: its page objects (/Type /Page, not /Pages).
int pdfPages(const QByteArray &pdf)
{
    int pages = 0;
    for (qsizetype at = pdf.indexOf("/Type /Page"); at >= 0; at = pdf.indexOf("/Type /Page", at + 1))
        if (pdf.mid(at + 11, 1) != "s")
            ++pages;
    return pages;
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;

    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

    /// A scenario file naming Qwen2.5-7B on an A100 (not the window's default), every other option default.
    QString writeQwenScenario(const char *name) const
    {
        ScenarioDocument document;
        document.scenario = {{QStringLiteral("model"), QStringLiteral("qwen2.5-7b")},
                             {QStringLiteral("gpu"), QStringLiteral("a100-80gb")}};
        writeScenarioFile(path(name), document);
        return path(name);
    }
    ChartSource explorerSource() const { return m_window->explorer()->chartSource(); }
    ChartView *chart(const char *name) const
    {
        auto *view = m_window->findChild<ChartView *>(QLatin1String(name));
        if (!view)
            qFatal("no chart %s", name);
        return view;
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::isolateSettings(QStringLiteral("kvscope-export-tests"));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        test::resetState();
        // A small tensor: the simulator's results arrive in a moment.
        QSettings settings;
        settings.setValue(QStringLiteral("quantization/synthetic/rows"), 256);
        settings.setValue(QStringLiteral("quantization/synthetic/cols"), 512);
        settings.sync();
        m_window = test::openWindow();
    }

    void cleanup() { m_window.reset(); }

    void everyChartHasItsExportActions()
    {
        QVERIFY(m_window->showView(QStringLiteral("quantization")));
        QuantizationView *quantization = m_window->quantization();
        QTRY_VERIFY_WITH_TIMEOUT(quantization->outcome().has_value() && !quantization->isBusy(),
                                 test::BackgroundWorkTimeoutMs);
        const QList<ChartView *> charts = m_window->findChildren<ChartView *>();
        QStringList exported;
        for (ChartView *view : charts) {
            auto *actions = view->findChild<ChartExportActions *>();
            QVERIFY2(actions, qPrintable(view->objectName()));
            exported << actions->chartName();
            for (const char *name : {"actionSaveImage", "actionCopyImage", "actionCopyData"}) {
                auto *action = view->findChild<QAction *>(QLatin1String(name));
                QVERIFY2(action && view->actions().contains(action), name);
                QVERIFY(!action->text().isEmpty());
            }
            auto *button = view->findChild<QToolButton *>(QStringLiteral("exportButton"));
            QVERIFY(button && button->menu());
            QCOMPARE(button->menu()->actions().size(), 3);
        }
        // Every catalogue chart the window shows, each once; the explorer's memory chart twice,
        // as one bar and as a bar per pipeline stage (one of them shown at a time).
        QCOMPARE(exported.count(QStringLiteral("memory")), 2);
        exported.removeOne(QStringLiteral("memory"));
        QStringList expected = chartNames();
        expected.removeAll(QStringLiteral("report"));
        exported.sort();
        expected.sort();
        QCOMPARE(exported, expected);
    }

    void saveImageThroughTheDialogWritesTheFile()
    {
        const QString target = path("dialog.png");
        QFile::remove(target);
        QTimer::singleShot(0, this, [target] {
            auto *dialog = qobject_cast<ExportDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->setPath(target);
            dialog->findChild<QComboBox *>(QStringLiteral("exportSize"))->setCurrentIndex(1);  // 1280 x 720
            dialog->findChild<QComboBox *>(QStringLiteral("exportScale"))->setCurrentIndex(1); // 2x
            dialog->accept();
        });
        chart("breakdownChart")->findChild<QAction *>(QStringLiteral("actionSaveImage"))->trigger();
        const QImage image(target);
        QCOMPARE(image.size(), QSize(2560, 1440));
    }

    void pngHasTheSizeDpiAndSeriesColours_data()
    {
        QTest::addColumn<int>("scale");
        QTest::addColumn<bool>("dark");
        QTest::newRow("1x light") << 1 << false;
        QTest::newRow("2x light") << 2 << false;
        QTest::newRow("3x dark") << 3 << true;
    }

    void pngHasTheSizeDpiAndSeriesColours()
    {
        QFETCH(int, scale);
        QFETCH(bool, dark);
        FigureOptions options;
        options.size = QSize(900, 500);
        options.scale = scale;
        options.dark = dark;
        const QString target = path("memory.png");
        exportFigure(target, *findChart(QStringLiteral("memory")), explorerSource(), options);
        QImageReader reader(target);
        const QImage image = reader.read();
        QCOMPARE(image.size(), QSize(900 * scale, 500 * scale));
        // The PNG's pHYs: 96 dpi per logical pixel (dots per metre, rounded).
        QVERIFY2(qAbs(image.dotsPerMeterX() - 96.0 * scale / 0.0254) < 2,
                 qPrintable(QString::number(image.dotsPerMeterX())));
        QVERIFY(test::colourCount(image) > 20);
        const QPalette palette = dark ? theme::darkPalette() : QApplication::style()->standardPalette();
        for (const MemoryPart part : {MemoryPart::Weights, MemoryPart::KvCache, MemoryPart::Activations})
            QVERIFY2(test::pixelsNear(image, theme::partColor(part, palette)) > 50,
                     qPrintable(QString::number(int(part))));
        // The background is the palette's.
        QCOMPARE(image.pixelColor(2, 2), palette.color(QPalette::Base));
    }

    void svgParsesAndHoldsTitleAndAxisText()
    {
        const ChartEntry &growth = *findChart(QStringLiteral("growth"));
        const QByteArray svg = renderFigure(growth, explorerSource(), FigureOptions(), FigureFormat::Svg);
        QString error;
        const QString text = svgText(svg, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(text.contains(QStringLiteral("Memory per GPU vs sequence length")),
                 qPrintable(text.left(400)));
        QVERIFY(text.contains(QStringLiteral("Sequence length (tokens)")));
        QVERIFY(text.contains(QStringLiteral("kvscope 0.1.0"))); // the caption
    }

    void pdfIsOnePage()
    {
        for (const char *name : {"memory", "report"}) {
            const QByteArray pdf = renderFigure(*findChart(QLatin1String(name)), explorerSource(),
                                                FigureOptions(), FigureFormat::Pdf);
            QVERIFY(pdf.startsWith("%PDF"));
            QCOMPARE(pdfPages(pdf), 1);
        }
    }

    void csvAndJsonAreTheCoresFigures()
    {
        const ChartSource source = explorerSource();
        const ChartEntry &memory = *findChart(QStringLiteral("memory"));
        QCOMPARE(renderFigure(memory, source, {}, FigureFormat::Csv),
                 breakdownCsv(memoryBreakdown(source.plan)));
        // The JSON is kvscope calc --json's: the plan and the fixes that the core proposes.
        const QList<Fix> fixes = proposeFixes(source.scenario, source.plan, GpuLibrary::builtin().presets());
        const QByteArray calc =
            QJsonDocument(calcJson(source.scenario, source.plan, fixes)).toJson(QJsonDocument::Indented);
        QCOMPARE(renderFigure(memory, source, {}, FigureFormat::Json), calc);
        // Copy data puts the same CSV on the clipboard.
        chart("growthChart")->findChild<QAction *>(QStringLiteral("actionCopyData"))->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text().toUtf8(),
                 growthCsv(growthChartData(source.scenario, source.plan, source.growthAxis, 96,
                                           source.growthScale)));
    }

    void aPipelineDrawsAndExportsABarPerStage()
    {
        m_window->controller()->setPipelineParallelSize(2);
        const ChartSource source = explorerSource();
        QCOMPARE(source.plan.pipelineStages.size(), 2);
        ExplorerView *explorer = m_window->explorer();
        QVERIFY(explorer->stageBreakdownChart()->isVisibleTo(explorer));
        QVERIFY(!explorer->breakdownChart()->isVisibleTo(explorer));
        // Each stage's KV bar is the core's: the batch's cache on that stage's layers.
        const CompareMemoryChartData stages = stageMemoryChartData(source.plan);
        QCOMPARE(explorer->stageBreakdownChart()->data().bars.size(), 2);
        for (int stage = 0; stage < 2; ++stage)
            QCOMPARE(stages.bars.at(stage).segment(MemoryPart::KvCache)->bytes,
                     source.plan.pipelineStages.at(stage).cacheBytes);
        const ChartEntry &memory = *findChart(QStringLiteral("memory"));
        QCOMPARE(renderFigure(memory, source, {}, FigureFormat::Csv), compareMemoryCsv(stages));
        QVERIFY(renderFigure(memory, source, {}, FigureFormat::Png).startsWith("\x89PNG"));
        m_window->controller()->setPipelineParallelSize(1);
        QVERIFY(explorer->breakdownChart()->isVisibleTo(explorer));
        QVERIFY(!explorer->stageBreakdownChart()->isVisibleTo(explorer));
    }

    void speedAndComparisonChartsExport()
    {
        ChartSource source = explorerSource();
        const ChartEntry &speed = *findChart(QStringLiteral("speed"));
        QCOMPARE(renderFigureImage(speed, source, FigureOptions()).size(), QSize(1280, 720));
        QCOMPARE(renderFigure(speed, source, {}, FigureFormat::Csv),
                 speedCsv(speedChartData(source.scenario, source.plan)));

        // Without a comparison the comparison charts refuse, naming what is missing.
        const ChartEntry &memory = *findChart(QStringLiteral("compare-memory"));
        const ChartEntry &bars = *findChart(QStringLiteral("compare-speed"));
        QVERIFY_THROWS_EXCEPTION(Error, renderFigure(memory, source, {}, FigureFormat::Csv));
        AccuracyCache cache;
        const Comparison comparison = compare(seedQuestionColumns(source.scenario), cache);
        source.comparison = comparison;
        FigureOptions options;
        options.size = QSize(1000, 500);
        options.scale = 2;
        for (const ChartEntry *entry : {&memory, &bars}) {
            const QImage image = renderFigureImage(*entry, source, options);
            QCOMPARE(image.size(), QSize(2000, 1000));
            QVERIFY2(test::colourCount(image) > 20, entry->name);
            QCOMPARE(renderFigure(*entry, source, {}, FigureFormat::Json),
                     QJsonDocument(comparisonToJson(comparison)).toJson(QJsonDocument::Indented));
        }
        QCOMPARE(renderFigure(memory, source, {}, FigureFormat::Csv),
                 compareMemoryCsv(compareMemoryChartData(comparison)));
        QCOMPARE(renderFigure(bars, source, {}, FigureFormat::Csv),
                 compareSpeedCsv(compareSpeedChartData(comparison)));
        // The column colours are drawn: each column's bars in the palette's colour for it.
        const QImage image = renderFigureImage(bars, source, FigureOptions());
        const QPalette palette = QApplication::style()->standardPalette();
        for (int column = 0; column < 4; ++column)
            QVERIFY2(test::pixelsNear(image, theme::columnColor(column, palette)) > 50,
                     qPrintable(QString::number(column)));
        // The report adds the comparison's table.
        std::unique_ptr<QWidget> page(newReportPage(source, nullptr));
        auto *table = page->findChild<QLabel *>(QStringLiteral("reportComparison"));
        QVERIFY(table);
        for (const ComparedColumn &column : comparison.columns)
            QVERIFY(table->text().contains(column.label.toHtmlEscaped()));
    }

    void speedBreakdownExports()
    {
        const ChartSource source = explorerSource();
        const SpeedPlan &speed = source.plan.speed;
        const ChartEntry &entry = *findChart(QStringLiteral("speed-breakdown"));
        // The image: both bars in the terms' colours.
        const QImage image = renderFigureImage(entry, source, FigureOptions());
        QCOMPARE(image.size(), QSize(1280, 720));
        const QPalette palette = QApplication::style()->standardPalette();
        for (const StepTerm term : {StepTerm::Weights, StepTerm::KvCache})
            QVERIFY2(test::pixelsNear(image, theme::stepTermColor(term, palette)) > 50,
                     qPrintable(stepTermKey(term)));
        QString error;
        const QString svg = svgText(renderFigure(entry, source, FigureOptions(), FigureFormat::Svg), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(svg.contains(QStringLiteral("Where the time goes, per GPU")), qPrintable(svg.left(400)));

        // The CSV: each pass's terms add up to the pass, and to the plan's step and first token.
        const QByteArray csv = renderFigure(entry, source, {}, FigureFormat::Csv);
        QList<QByteArray> rows = csv.split('\n');
        QCOMPARE(rows.takeFirst(), QByteArray("pass,term,seconds,share_of_pass"));
        QMap<QByteArray, double> sums, shares, totals;
        for (const QByteArray &row : std::as_const(rows)) {
            if (row.isEmpty())
                continue;
            const QList<QByteArray> cells = row.split(',');
            QCOMPARE(cells.size(), 4);
            if (cells.at(1) == "total") {
                totals[cells.at(0)] = cells.at(2).toDouble();
                continue;
            }
            QVERIFY2(cells.at(2).toDouble() > 0, row.constData()); // no zero term
            sums[cells.at(0)] += cells.at(2).toDouble();
            shares[cells.at(0)] += cells.at(3).toDouble();
        }
        QCOMPARE(sums.keys(), (QList<QByteArray>{"decode", "prefill"}));
        QVERIFY(qFuzzyCompare(sums["decode"], speed.decode.seconds));
        QVERIFY(qFuzzyCompare(sums["prefill"], speed.prefill.seconds));
        QCOMPARE(totals["decode"], speed.decode.seconds);
        QCOMPARE(totals["prefill"], speed.prefill.seconds);
        QVERIFY(qFuzzyCompare(shares["decode"], 1.0));
        QVERIFY(qFuzzyCompare(shares["prefill"], 1.0));
        QCOMPARE(csv, stepBreakdownCsv(stepBreakdownChartData(speed)));

        // The report: a table of the terms of both passes, with their totals.
        std::unique_ptr<QWidget> page(newReportPage(source, nullptr));
        auto *table = page->findChild<QLabel *>(QStringLiteral("reportStepBreakdown"));
        QVERIFY(table);
        QVERIFY(table->text().contains(formatDuration(speed.decode.seconds)));
        QVERIFY(table->text().contains(formatDuration(speed.prefill.seconds)));
        QVERIFY(table->text().contains(QStringLiteral("Weights read")));
        QVERIFY(table->text().contains(formatDuration(speed.decode.breakdown[StepTerm::KvCache])));
        QVERIFY(!table->text().contains(QStringLiteral("MoE routing"))); // a term neither pass has
    }

    void reportStepTableFitsTheSlideAndTheA4Page_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("beside");
        QTest::newRow("slide") << QSize(1880, 1000) << true; // 1920 x 1080 within the margins
        QTest::newRow("a4") << QSize(754, 1080) << false;    // 794 x 1123 within the margins
    }

    void reportStepTableFitsTheSlideAndTheA4Page()
    {
        // The table stands beside the growth chart where the page is wide, under it where beside it
        // would make the page wider than the paper.
        QFETCH(QSize, size);
        QFETCH(bool, beside);
        std::unique_ptr<QWidget> page(newReportPage(explorerSource(), nullptr));
        page->setAttribute(Qt::WA_DontShowOnScreen);
        page->resize(size);
        page->show();
        for (int pass = 0; pass < 3; ++pass)
            QApplication::processEvents();
        QCOMPARE(page->width(), size.width());
        auto *table = page->findChild<QLabel *>(QStringLiteral("reportStepBreakdown"));
        auto *growth = page->findChild<ChartView *>(QStringLiteral("growthChart"));
        QVERIFY(table && growth);
        const QRect tableBox(table->mapTo(page.get(), QPoint(0, 0)), table->size());
        const QRect growthBox(growth->mapTo(page.get(), QPoint(0, 0)), growth->size());
        QVERIFY2(tableBox.right() < size.width(), qPrintable(QString::number(tableBox.right())));
        QCOMPARE(tableBox.left() > growthBox.right(), beside);
        QCOMPARE(tableBox.top() > growthBox.bottom(), !beside);
    }

    void copyImagePutsPngAndSvgOnTheClipboard()
    {
        chart("breakdownChart")->findChild<QAction *>(QStringLiteral("actionCopyImage"))->trigger();
        const QMimeData *data = QGuiApplication::clipboard()->mimeData();
        QVERIFY(data->hasImage());
        QVERIFY(data->data(QStringLiteral("image/svg+xml")).contains("<svg"));
    }

    void quantizationChartsExport()
    {
        QVERIFY(m_window->showView(QStringLiteral("quantization")));
        QuantizationView *view = m_window->quantization();
        QTRY_VERIFY_WITH_TIMEOUT(view->outcome().has_value() && !view->isBusy(),
                                 test::BackgroundWorkTimeoutMs);
        for (const char *name : {"error-histogram", "values", "sqnr"}) {
            const QImage image =
                renderFigureImage(*findChart(QLatin1String(name)), view->chartSource(), FigureOptions());
            QCOMPARE(image.size(), QSize(1280, 720));
            QVERIFY2(test::colourCount(image) > 20, name);
        }
    }

    void reportPages()
    {
        FigureOptions options;
        options.page = ReportPage::A4;
        const QImage a4 = renderFigureImage(*findChart(QStringLiteral("report")), explorerSource(), options);
        QCOMPARE(a4.size(), QSize(794, 1123));
        options.page = ReportPage::Slide;
        const QImage slide =
            renderFigureImage(*findChart(QStringLiteral("report")), explorerSource(), options);
        QCOMPARE(slide.size(), QSize(1920, 1080));
        QVERIFY(test::colourCount(slide) > 20);
        // A dark page from a light window: every text is drawn light, the fit banner's too (no black).
        options.dark = true;
        const QImage dark =
            renderFigureImage(*findChart(QStringLiteral("report")), explorerSource(), options);
        QCOMPARE(dark.pixelColor(2, 2), theme::darkPalette().color(QPalette::Base));
        QCOMPARE(test::pixelsNear(dark, Qt::black), 0);
    }

    void reportOfAServerThatDoesNotStartHasNoSpeedFigure()
    {
        // Llama-3.1-70B in BF16 on one H100: 141 GB of weights against a 72 GB budget. vLLM does
        // not start: the report's speed says so as the window's cards do, with no figure.
        m_window->controller()->setModel(resolveModel(QStringLiteral("llama-3.1-70b")));
        const ChartSource source = explorerSource();
        QVERIFY(!source.plan.engineStarts);
        QVERIFY(!source.plan.startFailure.isEmpty());
        QVERIFY(!stepBreakdownChartData(source.plan.speed).available);
        std::unique_ptr<QWidget> page(newReportPage(source, nullptr));
        QVERIFY(!page->findChild<QLabel *>(QStringLiteral("reportStepBreakdown")));
        auto *speed = page->findChild<SpeedPanel *>(QStringLiteral("speedPanel"));
        QVERIFY(speed);
        for (const char *key :
             {"decodeTokensPerSecond", "decodePerSequence", "timeToFirstToken", "decodeBound"}) {
            QCOMPARE(speed->valueLabel(QLatin1String(key))->text(), QStringLiteral("—"));
            QVERIFY2(speed->detailLabel(QLatin1String(key))->text().contains(source.plan.startFailure), key);
        }

        // The 8B model starts: the same cards hold the plan's figures, and the step table is there.
        m_window->controller()->setModel(resolveModel(QStringLiteral("llama-3.1-8b")));
        page.reset(newReportPage(explorerSource(), nullptr));
        speed = page->findChild<SpeedPanel *>(QStringLiteral("speedPanel"));
        QCOMPARE(speed->valueLabel(QStringLiteral("timeToFirstToken"))->text(),
                 formatDuration(explorerSource().plan.speed.prefill.seconds));
        QVERIFY(page->findChild<QLabel *>(QStringLiteral("reportStepBreakdown")));
    }

    void chartsOfAServerThatDoesNotStartSayWhy()
    {
        // The same server that never starts: its decode chart drew every precision's curve with
        // "batch 16: 259.2 tokens/s", its breakdown two empty bars. Both now draw no figure and say why,
        // in the planner's words, and the decode chart's CSV has no row.
        m_window->controller()->setModel(resolveModel(QStringLiteral("llama-3.1-70b")));
        const ChartSource source = explorerSource();
        QVERIFY(!source.plan.engineStarts);
        for (const char *name : {"speed", "speed-breakdown"}) {
            const ChartEntry &entry = *findChart(QLatin1String(name));
            QString error;
            const QString svg =
                svgText(renderFigure(entry, source, FigureOptions(), FigureFormat::Svg), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            // The SVG escapes nothing in this message but may break it: compare its words.
            QVERIFY2(svg.contains(QStringLiteral("No speed figures")), name);
            QVERIFY2(svg.contains(QStringLiteral("exceed the")), name);
            QVERIFY2(!svg.contains(QStringLiteral("tokens/s:")), name);
        }
        const QList<QByteArray> rows =
            renderFigure(*findChart(QStringLiteral("speed")), source, {}, FigureFormat::Csv)
                .trimmed()
                .split('\n');
        QCOMPARE(rows.size(), 1); // the header alone
    }

    void reportShowsTheScenariosAccuracy()
    {
        // BF16 weights with an FP8 cache: the weights are lossless, the keys and values are not.
        m_window->controller()->setKvCacheDtype(KvCacheDtype::Fp8);
        ChartSource source = explorerSource();
        AccuracyCache cache;
        source.accuracy = estimateAccuracy(source.scenario, source.plan, cache);
        QVERIFY(source.accuracy->kv.keys && source.accuracy->kv.values);
        std::unique_ptr<QWidget> page(newReportPage(source, nullptr));
        auto *accuracy = page->findChild<QLabel *>(QStringLiteral("reportAccuracy"));
        QVERIFY(accuracy);
        const QString text = accuracy->text();
        QVERIFY2(text.contains(CompareText::simulatedError(*source.accuracy->kv.keys).toHtmlEscaped()),
                 qPrintable(text));
        QVERIFY(text.contains(CompareText::simulatedError(*source.accuracy->kv.values).toHtmlEscaped()));
        QVERIFY(text.contains(QStringLiteral("lossless")));
        QVERIFY(text.contains(CompareText::accuracyCaveat().toHtmlEscaped()));
        // Without the accuracy, no section.
        page.reset(newReportPage(explorerSource(), nullptr));
        QVERIFY(!page->findChild<QLabel *>(QStringLiteral("reportAccuracy")));
    }

    void captionsPrintResolvedPrecisionsInTheirLanguage()
    {
        // The window's scenario leaves --dtype, --quantization and --kv-cache-dtype at auto;
        // Llama-3.1-8B's checkpoint is bfloat16, unquantized, so the cache is bfloat16 too.
        const ChartSource source = explorerSource();
        QCOMPARE(source.scenario.dtype, WeightDtype::Auto);
        QCOMPARE(source.scenario.kvCacheDtype, KvCacheDtype::Auto);
        for (const char *name : {"memory", "report"}) {
            const QString caption = figureCaption(*findChart(QLatin1String(name)), source);
            QVERIFY2(!caption.contains(QStringLiteral("auto")), qPrintable(caption));
            QVERIFY2(caption.contains(
                         QStringLiteral("--dtype bfloat16 --quantization none --kv-cache-dtype bfloat16")),
                     qPrintable(caption));
        }
        std::unique_ptr<QWidget> page(newReportPage(source, nullptr));
        const QString summary = page->findChild<QLabel *>(QStringLiteral("reportSummary"))->text();
        QVERIFY2(!summary.contains(QStringLiteral("auto")) && summary.contains(QStringLiteral("bfloat16")),
                 qPrintable(summary));

        // In Chinese, no English "batch" in any caption or the report's summary.
        translations::apply(QStringLiteral("zh_CN"));
        const auto restore = qScopeGuard([] { translations::apply(QStringLiteral("en")); });
        AccuracyCache cache;
        ChartSource compared = source;
        compared.comparison = compare(seedQuestionColumns(source.scenario), cache);
        for (const char *name : {"memory", "report", "compare-memory"}) {
            const QString caption = figureCaption(*findChart(QLatin1String(name)), compared);
            QVERIFY2(!caption.contains(QStringLiteral("batch"), Qt::CaseInsensitive), qPrintable(caption));
            QVERIFY2(caption.contains(QStringLiteral("批次")), qPrintable(caption));
        }
        page.reset(newReportPage(source, nullptr));
        const QString chinese = page->findChild<QLabel *>(QStringLiteral("reportSummary"))->text();
        QVERIFY2(!chinese.contains(QStringLiteral("batch"), Qt::CaseInsensitive), qPrintable(chinese));
    }

    void accuracyChartExports()
    {
        ChartSource source = explorerSource();
        AccuracyCache cache;
        const Comparison comparison = compare(seedQuestionColumns(source.scenario), cache);
        source.comparison = comparison;
        const ChartEntry &entry = *findChart(QStringLiteral("compare-accuracy"));
        QCOMPARE(entry.inputs, ChartInputs::Comparison);
        const QImage image = renderFigureImage(entry, source, FigureOptions());
        QCOMPARE(image.size(), QSize(1280, 720));
        const QPalette palette = QApplication::style()->standardPalette();
        // The AWQ columns have a weight bar, the FP8 ones a KV bar: columns 1 to 3 are drawn.
        for (int column = 1; column < 4; ++column)
            QVERIFY2(test::pixelsNear(image, theme::columnColor(column, palette)) > 50,
                     qPrintable(QString::number(column)));
        QCOMPARE(renderFigure(entry, source, {}, FigureFormat::Csv),
                 compareAccuracyCsv(compareAccuracyChartData(comparison)));
        QString error;
        const QString svg = svgText(renderFigure(entry, source, FigureOptions(), FigureFormat::Svg), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(svg.contains(QStringLiteral("Accuracy by column")), qPrintable(svg.left(400)));
    }

    void refusalsWriteNothing_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("scale");
        QTest::addColumn<QString>("part");
        QTest::newRow("bad extension") << QStringLiteral("chart.bmp") << QSize(800, 600) << 1
                                       << QStringLiteral("unsupported extension '.bmp'");
        QTest::newRow("unwritable directory") << QStringLiteral("plain-file/chart.png") << QSize(800, 600)
                                              << 1 << QStringLiteral("cannot write");
        QTest::newRow("side too long") << QStringLiteral("wide.png") << QSize(20000, 600) << 1
                                       << QStringLiteral("each side must be from 200 to 16384");
        // The image drawn is size × scale pixels, bounded as every picture is (core/common/imagesize).
        QTest::newRow("scaled side too long")
            << QStringLiteral("scaled.png") << QSize(9000, 600) << 2
            << QStringLiteral("18000x1200 is too large: at most 16384 pixels a side");
        QTest::newRow("too many pixels") << QStringLiteral("huge.png") << QSize(12000, 12000) << 1
                                         << QStringLiteral("144000000 pixels, too many: at most 134217728");
    }

    void refusalsWriteNothing()
    {
        QFETCH(QString, file);
        QFETCH(QSize, size);
        QFETCH(int, scale);
        QFETCH(QString, part);
        writeFileAtomically(path("plain-file"), "a file, not a directory");
        FigureOptions options;
        options.size = size;
        options.scale = scale;
        const QString target = m_dir.filePath(file);
        KVSCOPE_VERIFY_ERROR(
            exportFigure(target, *findChart(QStringLiteral("memory")), explorerSource(), options), QString(),
            part);
        QVERIFY(!QFile::exists(target));
    }

    void scenarioFileRoundTripsByteForByte()
    {
        m_window->controller()->setBatchSize(48);
        m_window->controller()->setGrowthAxis(GrowthAxis::BatchSize);
        const QString first = path("first.kvscope");
        QVERIFY(m_window->session()->path().isEmpty());
        m_window->session()->save(first);
        m_window.reset();
        test::resetState();
        m_window = test::openWindow();
        QVERIFY(m_window->openScenarioFile(first));
        QCOMPARE(m_window->controller()->scenario().batchSize, 48);
        QCOMPARE(m_window->controller()->growthAxis(), GrowthAxis::BatchSize);
        QVERIFY(!m_window->session()->isModified());
        QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("first.kvscope")));
        // The status bar names the file as the title does, not the folder it came from
        // (a temporary path on a slide or a screenshot says nothing).
        QCOMPARE(m_window->statusBar()->currentMessage(), QStringLiteral("Opened first.kvscope"));
        const QString second = path("second.kvscope");
        m_window->session()->save(second);
        QCOMPARE(readAll(second), readAll(first));
    }

    void corruptOrNewerFileChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("part");
        QTest::newRow("corrupt") << QByteArray("{\"format\": \"kvscope-scenario\", \"vers")
                                 << QStringLiteral("malformed JSON");
        QTest::newRow("newer") << QByteArray(
                                      R"({"format": "kvscope-scenario", "version": 3, "scenario": {}})")
                               << QStringLiteral("newer kvscope");
        QTest::newRow("bad value") << QByteArray(R"({"format": "kvscope-scenario", "version": 1,
                              "scenario": {"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch-size": -2}})")
                                   << QStringLiteral(
                                          "scenario.batch-size: must be a positive integer, got '-2'");
    }

    void corruptOrNewerFileChangesNothing()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, part);
        m_window->controller()->setBatchSize(40);
        const QString file = path("bad.kvscope");
        writeFileAtomically(file, bytes);
        m_window->hide(); // no message box: the refusal goes to the status bar
        QVERIFY(!m_window->openScenarioFile(file));
        QVERIFY2(m_window->statusBar()->currentMessage().contains(part),
                 qPrintable(m_window->statusBar()->currentMessage()));
        QVERIFY(m_window->statusBar()->currentMessage().startsWith(file));
        QCOMPARE(m_window->controller()->scenario().batchSize, 40);
        QVERIFY(m_window->session()->path().isEmpty());
    }

    void commandLineOpensAScenarioFile()
    {
        // kvscope FILE.kvscope, as the desktop entry and a file manager start it.
        const QString good = writeQwenScenario("cli.kvscope");
        QTemporaryDir config;
        const QStringList shot{QStringLiteral("--screenshot"), path("cli.png"), QStringLiteral("--size"),
                               QStringLiteral("800x600")};
        const test::WindowRun opened = test::runWindow(config, QStringList{good} + shot);
        QVERIFY2(opened.exitCode == 0, opened.err.constData());
        const QString bad = path("cli-bad.kvscope");
        writeFileAtomically(bad, "{\"format\": \"kvscope-scenario\"");
        const test::WindowRun refused = test::runWindow(config, QStringList{bad} + shot);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(bad.toUtf8() + ": malformed JSON"), refused.err.constData());
    }

    void dropOpensAScenarioFileAndRemembersIt()
    {
        const QString file = writeQwenScenario("dropped.kvscope");
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(file)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_window.get(), &drop);
        QTRY_COMPARE(m_window->controller()->scenario().model.id, QStringLiteral("qwen2.5-7b"));
        QCOMPARE(m_window->session()->path(), file);
        QCOMPARE(m_window->library()->recentFiles().value(0), file);
    }

    void unsavedChangesPrompt()
    {
        const QString file = path("prompted.kvscope");
        m_window->session()->save(file);
        const QString other = path("other.kvscope");
        m_window->controller()->setBatchSize(64);
        m_window->session()->save(other); // now the open file is other.kvscope, batch 64
        m_window->controller()->setBatchSize(8);
        QVERIFY(m_window->session()->isModified());
        QVERIFY(m_window->isWindowModified());

        int asked = 0;
        QMessageBox::StandardButton answer = QMessageBox::Cancel;
        m_window->setUnsavedChangesPrompt([&](QWidget *, const QString &name) {
            ++asked;
            // The question names the open file.
            [&] { QCOMPARE(name, QFileInfo(m_window->session()->path()).fileName()); }();
            return answer;
        });
        // Cancel: nothing opens, nothing closes, the change stays.
        QVERIFY(!m_window->openScenarioFile(file));
        QVERIFY(!m_window->close());
        QCOMPARE(asked, 2);
        QCOMPARE(m_window->controller()->scenario().batchSize, 8);

        // Save: the change is written, then the other file opens.
        answer = QMessageBox::Save;
        QVERIFY(m_window->openScenarioFile(file));
        QCOMPARE(asked, 3);
        QCOMPARE(readScenarioFile(other).scenario.value(QStringLiteral("batch-size")), QStringLiteral("8"));
        QCOMPARE(m_window->controller()->scenario().batchSize, 16);

        // Discard: the change is dropped.
        m_window->controller()->setBatchSize(99);
        answer = QMessageBox::Discard;
        QVERIFY(m_window->openScenarioFile(other));
        QCOMPARE(asked, 4);
        QCOMPARE(m_window->controller()->scenario().batchSize, 8);
        QVERIFY(m_window->close()); // unchanged since opened: no question
        QCOMPARE(asked, 4);
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
