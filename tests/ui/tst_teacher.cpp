// SPDX-License-Identifier: MIT
// What a teacher uses in front of a room: the formula panel (the core's formula
// sheet, live, each value tied to its control), the vLLM launch line, the
// counterfactual lines of the growth chart, presentation mode (zoom, contrast,
// the scenario strip) and the window opened on a scenario from the command line.
// The suite runs on an offscreen screen of 1920 x 1080 (main() below), the size
// of a projector, so presentation mode's full screen is that size.
#include "core/analysis/formula.h"
#include "core/analysis/growth.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/output/planjson.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"
#include "tests/ui/uitestsupport.h"
#include "ui/charts/comparebarschart.h"
#include "ui/charts/comparememorychart.h"
#include "ui/charts/growthchart.h"
#include "ui/compare/compareview.h"
#include "ui/explorer/accuracyrunner.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/fitbanner.h"
#include "ui/explorer/formulapanel.h"
#include "ui/explorer/parameterpanel.h"
#include "ui/explorer/scenariostrip.h"
#include "ui/quantization/attentionpanel.h"
#include "ui/quantization/quantizationview.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/settingkeys.h"
#include "ui/state/translations.h"
#include "ui/state/userlibrary.h"
#include "ui/style/theme.h"
#include "ui/style/zoomstyle.h"
#include "ui/widgets/elidingcombobox.h"
#include "ui/window/mainwindow.h"

#include <memory>
#include <tuple>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStyleOptionFrame>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolButton>
#include <QValueAxis>

using namespace kvscope;

namespace {

Scenario scenarioOf(const char *model, const char *gpu, int tp = 1)
{
    Scenario s = ScenarioController::defaultScenario();
    s.model = resolveModel(QLatin1String(model));
    s.gpu = resolveGpu(QLatin1String(gpu));
    s.tensorParallelSize = tp;
    return s;
}

/// Where the anchor `href` is drawn in `browser`'s viewport (the middle of its first character).
QPoint anchorPosition(QTextBrowser *browser, const QString &href)
{
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.charFormat().anchorHref() != href)
                continue;
            QTextCursor cursor(browser->document());
            cursor.setPosition(fragment.position() + 1);
            browser->ensureCursorVisible();
            const QRect r = browser->cursorRect(cursor);
            return QPoint(r.left() - 2, r.center().y());
        }
    return {-1, -1};
}

/// The mouse moving over `widget` to `at`, as the window system delivers it.
void hover(QWidget *widget, const QPoint &at)
{
    QMouseEvent move(QEvent::MouseMove, at, widget->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(widget, &move);
}

/// Text on screen that does not get the room it asks for: a label or button narrower
/// or lower than its size hint (a wrapping label: lower than its height for its width).
QStringList clippedTexts(QWidget *window)
{
    QStringList clipped;
    const auto shown = [window](QWidget *w) {
        if (!w->isVisibleTo(window) || w->geometry().isEmpty())
            return false;
        // Inside a scroll area the page scrolls to it: only what the viewport shows counts.
        return !w->visibleRegion().isEmpty();
    };
    for (QLabel *label : window->findChildren<QLabel *>()) {
        if (!shown(label) || label->text().isEmpty() || label->pixmap().isNull() == false)
            continue;
        const QSize hint = label->sizeHint();
        const bool tooLow = label->wordWrap() ? label->height() < label->heightForWidth(label->width())
                                              : label->height() < label->minimumSizeHint().height();
        const bool tooNarrow = !label->wordWrap() && label->width() < hint.width();
        if (tooLow || tooNarrow)
            clipped << QStringLiteral("%1 '%2': %3x%4, needs %5x%6")
                           .arg(label->objectName(), label->text().left(60))
                           .arg(label->width())
                           .arg(label->height())
                           .arg(hint.width())
                           .arg(label->wordWrap() ? label->heightForWidth(label->width()) : hint.height());
    }
    for (QAbstractButton *button : window->findChildren<QAbstractButton *>()) {
        if (!shown(button) || button->text().isEmpty())
            continue;
        const QSize hint = button->minimumSizeHint();
        if (button->width() < hint.width() || button->height() < hint.height())
            clipped << QStringLiteral("button %1 '%2': %3x%4, needs %5x%6")
                           .arg(button->objectName(), button->text())
                           .arg(button->width())
                           .arg(button->height())
                           .arg(hint.width())
                           .arg(hint.height());
    }
    // A combo box or spin box narrower than the text it shows.
    for (QComboBox *combo : window->findChildren<QComboBox *>()) {
        if (!shown(combo) || combo->currentText().isEmpty())
            continue;
        QStyleOptionComboBox option;
        option.initFrom(combo);
        option.editable = combo->isEditable();
        const QRect field =
            combo->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo);
        // A combo that elides paints its shortened text (ending in an ellipsis), the whole one in its
        // tooltip.
        const auto *eliding = qobject_cast<const ElidingComboBox *>(combo);
        const int needed =
            combo->fontMetrics().horizontalAdvance(eliding ? eliding->displayedText() : combo->currentText());
        if (field.width() < needed)
            clipped << QStringLiteral("combo %1 '%2': %3 px for %4 px of text")
                           .arg(combo->objectName(), combo->currentText())
                           .arg(field.width())
                           .arg(needed);
    }
    for (QAbstractSpinBox *spin : window->findChildren<QAbstractSpinBox *>()) {
        if (!shown(spin))
            continue;
        const QLineEdit *edit = spin->findChild<QLineEdit *>();
        const int needed = spin->fontMetrics().horizontalAdvance(spin->text());
        if (edit && edit->width() < needed)
            clipped << QStringLiteral("spin box %1 '%2': %3 px for %4 px of text")
                           .arg(spin->objectName(), spin->text())
                           .arg(edit->width())
                           .arg(needed);
    }
    // An empty field's placeholder says what goes in it: shortened, it says less.
    for (QLineEdit *edit : window->findChildren<QLineEdit *>()) {
        const bool ownsTheField = !qobject_cast<QAbstractSpinBox *>(edit->parentWidget()) &&
                                  !qobject_cast<QComboBox *>(edit->parentWidget());
        if (!ownsTheField || !shown(edit) || !edit->text().isEmpty() || edit->placeholderText().isEmpty())
            continue;
        QStyleOptionFrame option;
        option.initFrom(edit);
        option.lineWidth = edit->hasFrame() ? edit->style()->pixelMetric(QStyle::PM_DefaultFrameWidth) : 0;
        const QRect contents = edit->style()->subElementRect(QStyle::SE_LineEditContents, &option, edit);
        // QLineEdit keeps 2 px between its contents' edges and the text (QLineEditPrivate::horizontalMargin).
        const int room = contents.width() - 2 * 2 - edit->textMargins().left() - edit->textMargins().right();
        // As QLineEdit::paintEvent shortens it.
        const QString shownText =
            edit->fontMetrics().elidedText(edit->placeholderText(), Qt::ElideRight, room);
        if (shownText != edit->placeholderText())
            clipped << QStringLiteral("field %1 '%2': shows '%3' in %4 px")
                           .arg(edit->objectName(), edit->placeholderText(), shownText)
                           .arg(room);
    }
    // A scroll area without a horizontal scroll bar cuts what is wider than its viewport.
    for (QWidget *w : window->findChildren<QWidget *>()) {
        const bool control = qobject_cast<QLabel *>(w) || qobject_cast<QAbstractButton *>(w) ||
                             qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) ||
                             qobject_cast<QSlider *>(w);
        if (!control || !shown(w))
            continue;
        for (QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
            auto *area = qobject_cast<QScrollArea *>(p);
            if (!area)
                continue;
            const QRect r(w->mapTo(area->viewport(), QPoint(0, 0)), w->size());
            if (r.left() < 0 || r.right() >= area->viewport()->width())
                clipped << QStringLiteral("%1 %2 cut by its column: x %3 to %4 of %5")
                               .arg(QLatin1String(w->metaObject()->className()), w->objectName())
                               .arg(r.left())
                               .arg(r.right())
                               .arg(area->viewport()->width());
            break;
        }
    }
    return clipped;
}

} // namespace

class TestTeacher : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;

    ScenarioController *controller() const { return m_window->controller(); }
    ExplorerView *explorer() const { return m_window->explorer(); }
    FormulaPanel *formulas() const { return explorer()->formulaPanel(); }
    template <typename T> T *child(const char *name) const
    {
        T *widget = m_window->findChild<T *>(QLatin1String(name));
        if (!widget)
            qFatal("no child %s", name);
        return widget;
    }
    QAction *action(const char *name) const { return child<QAction>(name); }

    void show(const Scenario &s)
    {
        QVERIFY(controller()->setScenario(s));
        QApplication::processEvents();
    }

    static QString calcOutput(const QStringList &arguments)
    {
        const test::Run calc = test::runKvscope(QStringList{QStringLiteral("calc")} + arguments);
        if (calc.exitCode != 0)
            qFatal("kvscope calc failed: %s", calc.describe().constData());
        return QString::fromUtf8(calc.out);
    }

    /// The window on a 1280 x 800 projector (not this screen) in `language`, on `view`.
    bool showOnProjector(const QString &language, const QString &view)
    {
        translations::apply(language);
        m_window->setPresentationFullScreen(false);
        m_window->resize(1280, 800);
        return m_window->showView(view);
    }

    /// Llama-3.1-8B on an H100 in the explorer, presented on a 1280 x 800 projector in `language`.
    bool presentLlamaOnProjector(const QString &language)
    {
        if (!showOnProjector(language, QStringLiteral("explorer")) ||
            !controller()->setScenario(scenarioOf("llama-3.1-8b", "h100-sxm")))
            return false;
        m_window->setPresentationMode(true);
        return true;
    }

    /// The quantization simulator with its first results, presented on a 1280 x 800 projector in `language`.
    bool presentQuantizationOnProjector(const QString &language)
    {
        if (!showOnProjector(language, QStringLiteral("quantization")))
            return false;
        m_window->setPresentationMode(true);
        auto *view = child<QuantizationView>("quantizationView");
        const QAbstractItemModel *figures = child<QTableView>("figuresTable")->model();
        const bool shown = QTest::qWaitFor([&] { return figures->rowCount() > 0 && !view->isBusy(); },
                                           test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        return shown;
    }

private Q_SLOTS:
    void initTestCase() { test::isolateSettings(QStringLiteral("kvscope-tests-teacher")); }

    void init()
    {
        test::resetState();
        m_window = test::openWindow();
    }

    void cleanup()
    {
        if (m_window && m_window->presentationMode())
            m_window->setPresentationMode(false);
        m_window.reset();
        translations::apply(QStringLiteral("en"));
    }

    void formulaPanelShowsTheCoreSheetLive()
    {
        QVERIFY(formulas()->isHidden());
        child<QPushButton>("formulaToggle")->click();
        QVERIFY(formulas()->isVisible());
        QVERIFY(action("actionFormulaPanel")->isChecked());
        // Beside the charts, in the same splitter.
        QCOMPARE(explorer()->splitter()->indexOf(formulas()), 2);
        // Wide enough for a formula line, up to a third of the page.
        const auto wideEnough = [this] {
            return formulas()->width() >=
                   std::min(formulas()->preferredWidth(), explorer()->splitter()->width() / 3) - 2;
        };
        QTRY_VERIFY(wideEnough());

        // Llama-3.1-8B, 16 x 8,192 tokens, BF16: 32 layers x 2 x 8 KV heads x 128 dims x 2 bytes.
        const FormulaLine *usual = formulas()->sheet().line(QStringLiteral("total_bytes"));
        QVERIFY(usual);
        QCOMPARE(usual->symbolic(), QStringLiteral("batch_size × sequence_length × num_layers × 2 × "
                                                   "num_key_value_heads × head_dim × precision_bytes"));
        QCOMPARE(usual->substituted(), QStringLiteral("16 × 8,192 × 32 × 2 × 8 × 128 × 2"));
        QCOMPARE(usual->result.value, 16LL * 8192 * 32 * 2 * 8 * 128 * 2);
        // Every number is the core's: the panel shows the sheet of the controller's plan.
        const MemoryPlan &plan = controller()->plan();
        QCOMPARE(formulas()->sheet().text(), formulaSheet(controller()->scenario(), plan).text());
        QCOMPARE(formulas()->sheet().line(QStringLiteral("kv_cache_bytes"))->result.value,
                 plan.kv.cacheBytes);
        QCOMPARE(formulas()->sheet().line(QStringLiteral("num_gpu_blocks"))->result.value,
                 plan.kv.numGpuBlocks);
        QCOMPARE(formulas()->sheet().line(QStringLiteral("kv_capacity_tokens"))->result.value,
                 plan.kv.capacityTokens);
        QCOMPARE(formulas()->sheet().line(QStringLiteral("max_concurrency"))->result.real,
                 plan.kv.maxConcurrency);
        const QString shown = formulas()->browser()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("16 × 8,192 × 32 × 2 × 8 × 128 × 2")), qPrintable(shown));
        QVERIFY(shown.contains(QStringLiteral("17,179,869,184 B (16.00 GiB)")));
        // The same text as the command line prints.
        QCOMPARE(formulas()->plainText(), calcOutput({QStringLiteral("--formulas")}));

        // Live: a larger batch and an FP8 cache rewrite the numbers at once.
        child<QSpinBox>("batchSpin")->setValue(32);
        QApplication::processEvents();
        QCOMPARE(formulas()->sheet().line(QStringLiteral("total_bytes"))->substituted(),
                 QStringLiteral("32 × 8,192 × 32 × 2 × 8 × 128 × 2"));
        QVERIFY(formulas()->browser()->toPlainText().contains(
            QStringLiteral("32 × 8,192 × 32 × 2 × 8 × 128 × 2")));
        QCOMPARE(formulas()->sheet().text(),
                 formulaSheet(controller()->scenario(), controller()->plan()).text());

        // Closed with its action; the choice is remembered.
        action("actionFormulaPanel")->trigger();
        QVERIFY(formulas()->isHidden());
        action("actionFormulaPanel")->trigger();
        m_window->saveSettings();
        m_window.reset();
        m_window = test::openWindow();
        QVERIFY(formulas()->isVisible());
        QTRY_VERIFY(wideEnough());
    }

    void formulaVariantsForMlaAndSlidingWindows()
    {
        explorer()->setFormulaPanelShown(true);
        show(scenarioOf("deepseek-v3", "h200", 8));
        const QString mla = formulas()->browser()->toPlainText();
        QVERIFY2(mla.contains(QStringLiteral("(kv_lora_rank + qk_rope_head_dim)")), qPrintable(mla));
        QVERIFY(mla.contains(QStringLiteral("(512 + 64)")));
        show(scenarioOf("gemma-3-27b", "h100-sxm"));
        const QString gemma = formulas()->browser()->toPlainText();
        QVERIFY(gemma.contains(QStringLiteral("min(sequence_length, sliding_window)")));
        QVERIFY(gemma.contains(QStringLiteral("min(8,192, 1,024)")));
        QCOMPARE(formulas()->sheet().line(QStringLiteral("kv_cache_bytes"))->result.value,
                 controller()->plan().kv.cacheBytes);
    }

    void formulaSheetUpdatedInPlaceReadsAsRebuilt()
    {
        // A slider step writes the new values into the sheet shown (same lines, new
        // numbers and notes); it must read exactly as a sheet built from scratch.
        explorer()->setFormulaPanelShown(true);
        Scenario s = scenarioOf("llama-3.1-8b", "h100-sxm");
        show(s);
        const int built = formulas()->sheetsBuilt();
        for (const auto &[batch, seqLen, shown] :
             {std::tuple{3LL, 5'000LL, "5,000"}, std::tuple{64LL, 99'000LL, "99,000"}}) {
            s.batchSize = batch;
            s.seqLen = seqLen;
            show(s);
            QCOMPARE(formulas()->sheetsBuilt(), built); // written in place, not built again
            FormulaPanel rebuilt;
            rebuilt.showPlan(controller()->scenario(), controller()->plan());
            QCOMPARE(formulas()->browser()->toPlainText(), rebuilt.browser()->toPlainText());
            QVERIFY(formulas()->browser()->toPlainText().contains(QLatin1String(shown)));
        }
        // A rewritten value keeps its link: the text under the batch size's link is the new batch.
        const QString link = formulas()->linkOf(QStringLiteral("total_bytes"), QStringLiteral("batch_size"));
        QStringList linked;
        for (QTextBlock block = formulas()->browser()->document()->begin(); block.isValid();
             block = block.next())
            for (auto it = block.begin(); !it.atEnd(); ++it)
                if (it.fragment().charFormat().anchorHref() == link)
                    linked << it.fragment().text();
        QCOMPARE(linked, QStringList{QStringLiteral("64")});
    }

    void formulaPanelNamesThePlansEngine()
    {
        explorer()->setFormulaPanelShown(true);
        Scenario s = scenarioOf("llama-3.1-8b", "h100-sxm");
        s.engine = Engine::Sglang;
        show(s);
        const QString sglang =
            formulas()->launchCaption()->text() + u'\n' + formulas()->browser()->toPlainText();
        QVERIFY2(!sglang.contains(QStringLiteral("vLLM")), qPrintable(sglang));
        QVERIFY(sglang.startsWith(QStringLiteral("SGLang launch line")));
        QVERIFY(sglang.contains(QStringLiteral("SGLang's budget and capacity")));
        QVERIFY(formulas()->launch().command().contains(QStringLiteral("sglang.launch_server")));
        auto *precision = m_window->findChild<QGroupBox *>(QStringLiteral("precisionGroup"));
        QVERIFY(precision);
        QCOMPARE(precision->title(), QStringLiteral("Precision (SGLang flags)"));
        s.engine = Engine::Vllm;
        show(s);
        QCOMPARE(formulas()->launchCaption()->text(), QStringLiteral("vLLM launch line"));
        QCOMPARE(precision->title(), QStringLiteral("Precision (vLLM flags)"));
        QVERIFY(formulas()->browser()->toPlainText().contains(QStringLiteral("vLLM's budget and capacity")));
    }

    void weightBitsSplitForAwq()
    {
        explorer()->setFormulaPanelShown(true);
        Scenario s = ScenarioController::defaultScenario();
        s.quantization = defaultSpecFor(QuantMethod::Awq);
        show(s);
        const QString text = formulas()->browser()->toPlainText();
        // 4 value bits + 16/128 scale bits + 4/128 zero-point bits over the linear layers;
        // the fp16 embeddings and lm_head raise the whole model's average.
        QVERIFY2(text.contains(QStringLiteral("value_bits + scale_bits + zero_point_bits")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("4 + 0.125 + 0.03125")));
        QCOMPARE(formulas()->sheet().line(QStringLiteral("bits_per_weight"))->result.real,
                 controller()->plan().weights.bitsPerWeight);
        QCOMPARE(formulas()->sheet().line(QStringLiteral("bits_per_weight"))->result.text,
                 QStringLiteral("5.706"));
    }

    void hoveringATermLightsItsControl()
    {
        explorer()->setFormulaPanelShown(true);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTextBrowser *browser = formulas()->browser();
        ParameterPanel *panel = explorer()->parameterPanel();
        const QString link = formulas()->linkOf(QStringLiteral("total_bytes"), QStringLiteral("batch_size"));
        QVERIFY(!link.isEmpty());
        const QPoint at = anchorPosition(browser, link);
        QVERIFY(at.x() >= 0);
        hover(browser->viewport(), at);
        QTRY_COMPARE(panel->highlightedOption(), std::optional(ScenarioField::BatchSize));
        QWidget *batch = panel->controlFor(ScenarioField::BatchSize);
        QVERIFY(batch->property("formulaHighlight").toBool());
        QVERIFY(browser->toolTip().contains(QStringLiteral("--batch-size")));

        // Another term moves the light; a click gives its control the focus.
        const QString kv =
            formulas()->linkOf(QStringLiteral("total_bytes"), QStringLiteral("precision_bytes"));
        const QPoint kvAt = anchorPosition(browser, kv);
        hover(browser->viewport(), kvAt);
        QTRY_COMPARE(panel->highlightedOption(), std::optional(ScenarioField::KvCacheDtype));
        QVERIFY(!batch->property("formulaHighlight").toBool());
        QVERIFY(panel->controlFor(ScenarioField::KvCacheDtype)->property("formulaHighlight").toBool());
        QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, kvAt);
        QTRY_VERIFY(panel->controlFor(ScenarioField::KvCacheDtype)->hasFocus());

        // Off the values, nothing is lit.
        hover(browser->viewport(), QPoint(browser->viewport()->width() - 2, 2));
        QTRY_VERIFY(!panel->highlightedOption());
    }

    void launchLineIsCopyable()
    {
        explorer()->setFormulaPanelShown(true);
        Scenario s = scenarioOf("llama-3.1-70b", "h100-sxm", 4);
        s.kvCacheDtype = KvCacheDtype::Fp8;
        show(s);
        const QString expected = QStringLiteral(
            "vllm serve meta-llama/Llama-3.1-70B --tensor-parallel-size 4 --kv-cache-dtype fp8");
        QCOMPARE(launchLine(controller()->scenario()).command(), expected);
        QVERIFY2(formulas()->launchLabel()->text().contains(expected),
                 qPrintable(formulas()->launchLabel()->text()));
        QGuiApplication::clipboard()->clear();
        child<QPushButton>("copyLaunchLineButton")->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), expected);
        // In the JSON as calc --json writes it.
        explorer()->copyJson();
        const QJsonObject json =
            QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(json.value(QLatin1String("vllm_command")).toString(), expected);
    }

    void counterfactualLinesFromTheCore()
    {
        GrowthChartView *growth = explorer()->growthChart();
        QCheckBox *check = child<QCheckBox>("counterfactualCheck");
        QVERIFY(!check->isChecked());
        QVERIFY(growth->counterfactualLines().at(0)->points().isEmpty());
        check->click();
        QVERIFY(controller()->counterfactuals());
        // Llama-3.1-8B (GQA, no window): one line, as if MHA, 32 / 8 = 4 times the KV cache.
        const GrowthChartData data =
            growthChartData(controller()->scenario(), controller()->plan(), controller()->growthAxis(), 96,
                            controller()->growthScale(), true);
        QCOMPARE(data.counterfactuals.size(), 1);
        const QList<QPointF> mha = growth->counterfactualLines().at(0)->points();
        QCOMPARE(mha.size(), data.counterfactuals.first().x.size());
        QCOMPARE(mha.last().y(), toGiB(data.counterfactuals.first().kvBytes.last()));
        QCOMPARE(mha.last().y(), 4 * growth->kvLines().at(data.currentCurve)->points().last().y());
        QVERIFY(growth->counterfactualLines().at(0)->name().contains(QStringLiteral("as if MHA")));
        QVERIFY(growth->counterfactualLines().at(1)->points().isEmpty());

        // Gemma-3-27B slides over 1,024 tokens in 52 of 62 layers: a second line, as if no window.
        show(scenarioOf("gemma-3-27b", "h100-sxm"));
        const QList<QPointF> full = growth->counterfactualLines().at(1)->points();
        QVERIFY(!full.isEmpty());
        QVERIFY(growth->counterfactualLines().at(1)->name().contains(QStringLiteral("every layer full")));
        const int current = growthChartData(controller()->scenario(), controller()->plan(),
                                            controller()->growthAxis(), 96, controller()->growthScale())
                                .currentCurve;
        QVERIFY(full.last().y() > 3 * growth->kvLines().at(current)->points().last().y());

        // Off again, and remembered.
        check->click();
        QVERIFY(growth->counterfactualLines().at(1)->points().isEmpty());
        check->click();
        m_window->saveSettings();
        m_window.reset();
        m_window = test::openWindow();
        QVERIFY(child<QCheckBox>("counterfactualCheck")->isChecked());
        QVERIFY(!explorer()->growthChart()->counterfactualLines().at(0)->points().isEmpty());
    }

    void presentationModeZoomsAndContrasts()
    {
        QCOMPARE(action("actionPresentation")->shortcut(), QKeySequence(Qt::Key_F5));
        QCOMPARE(action("actionFullScreen")->shortcut(), QKeySequence(QKeySequence::FullScreen));
        const double baseSize = QApplication::font().pointSizeF();
        const QPalette normal = QApplication::palette();
        QLabel *value = explorer()->findChild<QLabel *>(QStringLiteral("kvCacheBytes"));
        QVERIFY(value);
        const double valueSize = value->font().pointSizeF();
        const double lineWidth = explorer()->growthChart()->budgetLine()->pen().widthF();

        action("actionPresentation")->trigger();
        QVERIFY(m_window->presentationMode());
        QTRY_VERIFY(m_window->isFullScreen());
        QTRY_COMPARE(m_window->size(), QSize(1920, 1080));
        const double zoom = m_window->presentationZoom();
        QCOMPARE(zoom, 1.5); // the default
        QCOMPARE(QApplication::font().pointSizeF(), baseSize * zoom);
        QCOMPARE(value->font().pointSizeF(), valueSize * zoom); // the enlarged figures, enlarged again
        QCOMPARE(explorer()->growthChart()->budgetLine()->pen().widthF(), lineWidth * zoom);
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 theme::highContrastPalette(false).color(QPalette::Window));

        // Ctrl + and Ctrl − step the zoom, remembered; Ctrl 0 goes back to 100 %.
        action("actionZoomIn")->trigger();
        QCOMPARE(m_window->presentationZoom(), zoom + settings::PresentationZoomStep);
        QCOMPARE(QApplication::font().pointSizeF(), baseSize * (zoom + settings::PresentationZoomStep));
        QCOMPARE(QSettings().value(QStringLiteral("presentation/zoom")).toDouble(),
                 zoom + settings::PresentationZoomStep);
        QVERIFY(action("actionZoomIn")->shortcuts().contains(QKeySequence(QKeySequence::ZoomIn)));
        QVERIFY(action("actionZoomOut")->shortcuts().contains(QKeySequence(QKeySequence::ZoomOut)));
        QCOMPARE(action("actionZoomReset")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_0));
        action("actionZoomOut")->trigger();
        action("actionZoomOut")->trigger();
        QCOMPARE(m_window->presentationZoom(), zoom - settings::PresentationZoomStep);
        action("actionZoomReset")->trigger();
        QCOMPARE(m_window->presentationZoom(), 1.0);
        QCOMPARE(QApplication::font().pointSizeF(), baseSize);
        action("actionZoomIn")->trigger();

        // F5 again: the window as it was.
        action("actionPresentation")->trigger();
        QVERIFY(!m_window->presentationMode());
        QTRY_VERIFY(!m_window->isFullScreen());
        QCOMPARE(QApplication::font().pointSizeF(), baseSize);
        QCOMPARE(value->font().pointSizeF(), valueSize);
        QCOMPARE(QApplication::palette().color(QPalette::Window), normal.color(QPalette::Window));
        QCOMPARE(explorer()->growthChart()->budgetLine()->pen().widthF(), lineWidth);
        // The zoom is the one left last time.
        m_window.reset();
        m_window = test::openWindow();
        QCOMPARE(m_window->presentationZoom(), 1.25);
    }

    void presentationModeStaysOnTheView()
    {
        auto *tabs = child<QTabWidget>("viewTabs");
        for (const QString &view : {QStringLiteral("compare"), QStringLiteral("quantization")}) {
            QVERIFY(m_window->showView(view));
            QWidget *shown = tabs->currentWidget();
            action("actionPresentation")->trigger(); // F5
            QVERIFY(m_window->presentationMode());
            QCOMPARE(tabs->currentWidget(), shown);
            action("actionPresentation")->trigger();
            QCOMPARE(tabs->currentWidget(), shown);
        }
    }

    void compareFitsAProjector_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << "en";
        QTest::newRow("zh_CN") << "zh_CN";
    }

    // Before: presented at 1280 x 800 the table filled the screen and every chart was
    // below the fold; the page scrolled to reach them.
    void compareFitsAProjector()
    {
        QFETCH(QString, language);
        translations::apply(language);
        m_window->setPresentationFullScreen(false); // a 1280 x 800 projector, not this screen
        m_window->resize(1280, 800);
        QVERIFY(m_window->showView(QStringLiteral("compare")));
        m_window->setPresentationMode(true);
        auto *compare = child<CompareView>("compareView");
        // The comparison is computed off the UI thread: wait as for any background work (a loaded CI
        // machine took 5.4 s here, past QTRY's default 5).
        QTRY_VERIFY_WITH_TIMEOUT(compare->shownComparison().has_value(), test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        QCOMPARE(m_window->size(), QSize(1280, 800));

        // Shown, and not cut by any parent (a scroll area's viewport, the window's edge).
        const auto wholeOnScreen = [this](QWidget *w) {
            if (!w->isVisibleTo(m_window.get()))
                return false;
            for (QWidget *p = w->parentWidget(); p; p = p->parentWidget())
                if (!p->rect().contains(QRect(w->mapTo(p, QPoint(0, 0)), w->size())))
                    return false;
            return true;
        };
        // The table: every figure row on screen, no row scrolled out.
        auto *pages = child<QStackedWidget>("comparePages");
        pages->setCurrentWidget(child<QWidget>("compareFiguresPage"));
        QApplication::processEvents();
        QTableWidget *table = compare->table();
        QVERIFY(wholeOnScreen(table));
        QVERIFY2(table->rowViewportPosition(table->rowCount() - 1) +
                         table->rowHeight(table->rowCount() - 1) <=
                     table->viewport()->height(),
                 "the last figure row is below the table's fold");
        QStringList clipped = clippedTexts(m_window.get());
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));

        // The charts: each with its legend, whole, without scrolling; accuracy beside its notes.
        for (const char *page : {"compareChartsPage", "compareAccuracyPage"}) {
            pages->setCurrentWidget(child<QWidget>(page));
            QApplication::processEvents();
            const bool memoryAndSpeed = pages->currentIndex() == 1;
            const QStringList legends = memoryAndSpeed ? QStringList{QStringLiteral("compareMemoryLegend"),
                                                                     QStringLiteral("compareSpeedLegend")}
                                                       : QStringList{QStringLiteral("compareAccuracyLegend")};
            for (const QString &name : legends) {
                QWidget *legend = m_window->findChild<QWidget *>(name);
                QVERIFY2(wholeOnScreen(legend), qPrintable(name));
                QVERIFY2(legend->height() >= legend->heightForWidth(legend->width()), qPrintable(name));
            }
            const QList<QWidget *> charts =
                memoryAndSpeed ? QList<QWidget *>{compare->memoryChart(), compare->speedChart()}
                               : QList<QWidget *>{compare->accuracyChart()};
            for (QWidget *chart : charts) {
                QVERIFY(wholeOnScreen(chart));
                QVERIFY2(chart->height() >= 400, qPrintable(QString::number(chart->height())));
            }
            clipped = clippedTexts(m_window.get());
            QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
        }
        QVERIFY(child<QLabel>("compareNotes")->isVisible());

        // Editing the columns is a click away; its rows fold away again, with the output rows (the
        // accuracy chart shows those while presenting).
        auto *knobs = child<QAbstractButton>("compareKnobsButton");
        QVERIFY(!knobs->isChecked());
        QVERIFY(table->isRowHidden(0));
        const QList<CompareRow> &rows = compare->shownComparison()->rows;
        QList<int> detailRows;
        for (int r = 0; r < rows.size(); ++r)
            if (CompareView::isDetailRow(rows.at(r).id))
                detailRows << CompareView::FirstFigureRow + r;
        QCOMPARE(detailRows.size(), 2);
        for (int r : detailRows)
            QVERIFY(table->isRowHidden(r));
        knobs->click();
        QVERIFY(!table->isRowHidden(0));
        for (int r : detailRows)
            QVERIFY(!table->isRowHidden(r));
        m_window->setPresentationMode(false);
        QVERIFY(knobs->isChecked()); // outside presentation the knobs show
    }

    // Before: presented at 1280 x 800 the explorer's pane was wider than the screen (three
    // cards a row, the growth chart's choices in one row): "Formulas" and "1,030,832 tokens"
    // were cut, and accuracy was not answered at all.
    void explorerFitsAProjector()
    {
        QFETCH(QString, language);
        QVERIFY(presentLlamaOnProjector(language));
        QTRY_VERIFY_WITH_TIMEOUT(!explorer()->accuracyRunner()->isRunning(), test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        // Nothing wider than the pane (a few pixels of height the layout takes from wrapped
        // cards below the fold are not what this looks at).
        const QStringList cut = clippedTexts(m_window.get()).filter(QStringLiteral("cut by its column"));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        for (const char *name : {"formulaToggle", "copyJsonButton", "kvCapacity", "accuracy"}) {
            auto *w = child<QWidget>(name);
            QVERIFY2(w->width() >= w->minimumSizeHint().width(), name);
        }
        // Memory, capacity and accuracy on the first screen, whole.
        auto *area = child<QScrollArea>("explorerFiguresScroll");
        for (const char *card : {"weightsCard", "kvCapacityCard", "accuracyCard"}) {
            auto *frame = child<QWidget>(card);
            const QRect r(frame->mapTo(area->viewport(), QPoint(0, 0)), frame->size());
            QVERIFY2(area->viewport()->rect().contains(r), card);
        }
    }

    void explorerFitsAProjector_data() { compareFitsAProjector_data(); }

    // Before: presented at 1280 x 800 with the formulas open, the formula column took its third of
    // the page from the figures' column below their minimum: "Copy figures", "Copy JSON" and
    // "Formulas" and the cards' right edges were cut. The formulas, which wrap, give way instead.
    void explorerWithFormulasFitsAProjector()
    {
        QFETCH(QString, language);
        QVERIFY(presentLlamaOnProjector(language));
        auto *toggle = child<QAbstractButton>("formulaToggle");
        if (!toggle->isChecked())
            toggle->click();
        QTRY_VERIFY_WITH_TIMEOUT(!explorer()->accuracyRunner()->isRunning(), test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        QApplication::processEvents(); // the columns' minimums follow the plan's texts once laid out
        QVERIFY(formulas()->isVisible());
        QCOMPARE(m_window->size(), QSize(1280, 800));
        // The figures' page is never wider than its column (below the fold included).
        auto *area = child<QScrollArea>("explorerFiguresScroll");
        QVERIFY2(area->viewport()->width() >= area->widget()->minimumSizeHint().width(),
                 qPrintable(QStringLiteral("%1 px for a page of %2")
                                .arg(area->viewport()->width())
                                .arg(area->widget()->minimumSizeHint().width())));
        const QStringList cut = clippedTexts(m_window.get()).filter(QStringLiteral("cut by its column"));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        for (const char *name :
             {"formulaToggle", "copyJsonButton", "copyFiguresButton", "copyFormulasButton"}) {
            auto *w = child<QWidget>(name);
            QVERIFY2(w->width() >= w->minimumSizeHint().width(), name);
        }
        // The formula column keeps a readable width, and is inside the window.
        QVERIFY2(formulas()->width() >= 280, qPrintable(QString::number(formulas()->width())));
        const QRect inWindow(formulas()->mapTo(m_window.get(), QPoint(0, 0)), formulas()->size());
        QVERIFY(m_window->rect().contains(inWindow));
        toggle->click();
        QVERIFY(!formulas()->isVisible());
    }

    void explorerWithFormulasFitsAProjector_data() { compareFitsAProjector_data(); }

    // A MoE with its expert rows (EP, EPLB, the all-to-all backend) on a 1280 x 800 projector: the
    // parameter column grows with the rows and the language, so no control of it is cut.
    void aMoesExpertRowsFitAProjector()
    {
        QFETCH(QString, language);
        QVERIFY(showOnProjector(language, QStringLiteral("explorer")));
        Scenario s = scenarioOf("deepseek-v2-lite", "h100-sxm");
        s.dataParallelSize = 2;
        s.enableExpertParallel = true;
        s.enableEplb = true;
        s.all2allBackend = All2AllBackend::DeepepHighThroughput;
        QVERIFY(controller()->setScenario(s));
        QTRY_VERIFY_WITH_TIMEOUT(!explorer()->accuracyRunner()->isRunning(), test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        QVERIFY(child<QWidget>("all2allBackend")->isVisible());
        const QStringList cut = clippedTexts(m_window.get()).filter(QStringLiteral("cut by its column"));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
    }

    void aMoesExpertRowsFitAProjector_data() { compareFitsAProjector_data(); }

    // Before: presented at 1280 x 800 the quantization simulator cut its controls ("Gaussian weig",
    // "Brow"), its figures table elided every MSE and error ("2....") and clipped its headers
    // ("3its/weight"). The controls' column follows the zoom, and the table's columns are as wide as their
    // texts (the table scrolls sideways when the page is narrower than them).
    void quantizationFitsAProjector()
    {
        QFETCH(QString, language);
        QVERIFY(presentQuantizationOnProjector(language));
        QCOMPARE(m_window->size(), QSize(1280, 800));
        const QStringList cut = clippedTexts(m_window.get()).filter(QStringLiteral("cut by its column"));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        auto *table = child<QTableView>("figuresTable");
        const QAbstractItemModel *model = table->model();
        const QHeaderView *header = table->horizontalHeader();
        const int margin = 2 * table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table);
        for (int c = 0; c < model->columnCount(); ++c) {
            const QString title = model->headerData(c, Qt::Horizontal).toString();
            int widest = header->fontMetrics().horizontalAdvance(title) +
                         2 * table->style()->pixelMetric(QStyle::PM_HeaderMargin);
            for (int r = 0; r < model->rowCount(); ++r)
                widest = std::max(
                    widest,
                    table->fontMetrics().horizontalAdvance(model->index(r, c).data().toString()) + margin);
            QVERIFY2(
                header->sectionSize(c) >= widest,
                qPrintable(
                    QStringLiteral("%1: %2 px of %3").arg(title).arg(header->sectionSize(c)).arg(widest)));
        }
    }

    void quantizationFitsAProjector_data() { compareFitsAProjector_data(); }

    // Before: at 1280 x 800 in Chinese the tensor file's field showed ".safetensors 或 .n…", its
    // placeholder cut by the Browse button beside it. Presented or not, every text is whole.
    void quantizationControlsAreWhole()
    {
        QFETCH(QString, language);
        QFETCH(bool, presenting);
        QVERIFY(showOnProjector(language, QStringLiteral("quantization")));
        m_window->setPresentationMode(presenting);
        // The controls' column follows the presentation's fonts once their change is delivered.
        QWidget *picker = child<QWidget>("sourcePicker");
        QTRY_VERIFY2(clippedTexts(picker).isEmpty(),
                     qPrintable(clippedTexts(picker).join(QLatin1Char('\n'))));
    }

    void quantizationControlsAreWhole_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<bool>("presenting");
        for (const char *language : {"en", "zh_CN"})
            for (const bool presenting : {false, true})
                QTest::addRow("%s%s", language, presenting ? ", presented" : "")
                    << QString::fromLatin1(language) << presenting;
    }

    // Before: presented at 1280 x 800 the error histogram's tick labels ran into each other ("-0... -0...",
    // "0.010.02") and the SQNR chart's title was cut ("SQNR by scheme (dB, high..."): the ticks are as many
    // as their labels leave room for, and the title is whole.
    void quantizationChartsFitAProjector()
    {
        QFETCH(QString, language);
        QVERIFY(presentQuantizationOnProjector(language));
        for (const char *name : {"errorChart", "valuesChart", "sqnrChart"}) {
            auto *chartView = child<QChartView>(name);
            QChart *chart = chartView->chart();
            // The title spans the chart less its margins; a longer one is elided.
            const QFontMetrics titleMetrics(chart->titleFont());
            const qreal titleRoom =
                chart->size().width() - chart->margins().left() - chart->margins().right();
            QVERIFY2(titleMetrics.horizontalAdvance(chart->title()) <= titleRoom,
                     qPrintable(QStringLiteral("%1: '%2' in %3 px")
                                    .arg(QLatin1String(name), chart->title())
                                    .arg(titleRoom)));
            for (QAbstractAxis *axis : chart->axes(Qt::Horizontal)) {
                auto *values = qobject_cast<QValueAxis *>(axis);
                if (!values)
                    continue;
                // Each label (at most "-0.000" wide in the axis' %.3g) within its share of the plot.
                const QFontMetrics labels(values->labelsFont());
                const double share = chart->plotArea().width() / std::max(1, values->tickCount() - 1);
                const int widest = std::max(labels.horizontalAdvance(QString::number(values->min(), 'g', 3)),
                                            labels.horizontalAdvance(QString::number(values->max(), 'g', 3)));
                QVERIFY2(widest < share, qPrintable(QStringLiteral("%1: %2 ticks, %3 px apart, labels %4 px")
                                                        .arg(QLatin1String(name))
                                                        .arg(values->tickCount())
                                                        .arg(share)
                                                        .arg(widest)));
            }
        }
    }

    void quantizationChartsFitAProjector_data() { compareFitsAProjector_data(); }

    // Before: presented at 1280 x 800 in English the attention weights' axis title was cut ("attention
    // w..."): the chart's title says whose weights they are, the axis says "weight".
    void attentionChartsFitAProjector()
    {
        QFETCH(QString, language);
        QVERIFY(showOnProjector(language, QStringLiteral("attention")));
        m_window->setPresentationMode(true);
        auto *panel = child<AttentionPanel>("attentionPanel");
        QTRY_VERIFY_WITH_TIMEOUT(panel->picture().has_value() && !panel->isBusy(),
                                 test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        for (const char *name : {"attentionWeightsChart", "logitErrorChart"}) {
            QChart *chart = child<QChartView>(name)->chart();
            for (QAbstractAxis *axis : chart->axes(Qt::Vertical)) {
                const int title = QFontMetrics(axis->titleFont()).horizontalAdvance(axis->titleText());
                QVERIFY2(title <= chart->plotArea().height(),
                         qPrintable(QStringLiteral("%1: '%2' is %3 px along a %4 px axis")
                                        .arg(QLatin1String(name), axis->titleText())
                                        .arg(title)
                                        .arg(chart->plotArea().height())));
                // Qt Charts leaves out a tick label that would overlap the one before it: presented at
                // 1280 x 800, labels 24 px apart on a 22 px line lost every other one (the weights' 0.4
                // and 0.8, the Chinese logit errors' ±0.5), 26.6 px apart all showed. Each needs its
                // line and the 2 px margins above and below it that Qt Charts gives a label.
                const auto *values = qobject_cast<QValueAxis *>(axis);
                QVERIFY(values);
                const double gap = chart->plotArea().height() / (values->tickCount() - 1);
                const int label = QFontMetrics(values->labelsFont()).height() + 4;
                QVERIFY2(gap >= label,
                         qPrintable(QStringLiteral("%1: %2 ticks %3 px apart, labels %4 px high")
                                        .arg(QLatin1String(name))
                                        .arg(values->tickCount())
                                        .arg(gap)
                                        .arg(label)));
            }
        }
    }

    void attentionChartsFitAProjector_data() { compareFitsAProjector_data(); }

    // Whatever the scenario sets after the window opens (a larger GPU's name, LoRA slots of a hybrid
    // MoE), the parameter column keeps room for its controls on a 1280 x 800 projector.
    void aLaterScenarioFitsThePanel()
    {
        QFETCH(QString, language);
        // As the program opens it: the language, then the window on the command line's scenario.
        m_window.reset();
        appsettings::setLanguage(language);
        const auto englishAgain = qScopeGuard([] { appsettings::setLanguage(QStringLiteral("en")); });
        m_window = std::make_unique<MainWindow>();
        Scenario s = scenarioOf("qwen3-next-80b-a3b", "h200");
        s.tensorParallelSize = 4;
        s.maxLoras = 2;
        s.maxLoraRank = 16;
        m_window->showCommandLineScenario(s);
        m_window->setPresentationFullScreen(false);
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QTRY_VERIFY_WITH_TIMEOUT(!explorer()->accuracyRunner()->isRunning(), test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        const QStringList cut = clippedTexts(m_window.get()).filter(QStringLiteral("cut by its column"));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
    }

    void aLaterScenarioFitsThePanel_data() { compareFitsAProjector_data(); }

    // A drafter's name (its repository) is longer than the column: shortened with an ellipsis, never cut
    // mid-letter, and whole in the tooltip and the list.
    void aDrafterNameIsElidedNotCut()
    {
        QFETCH(QString, language);
        QVERIFY(showOnProjector(language, QStringLiteral("explorer")));
        Scenario s = scenarioOf("llama-3.1-8b", "h100-sxm");
        s = applyValues(
            s,
            {{QStringLiteral("speculative-config"),
              QStringLiteral(R"({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", )"
                             R"("num_speculative_tokens": 3})")}},
            m_window->library()->resolvers());
        QVERIFY(controller()->setScenario(s));
        QTRY_VERIFY_WITH_TIMEOUT(!explorer()->accuracyRunner()->isRunning(), test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        const QStringList clipped = clippedTexts(m_window.get());
        QVERIFY2(clipped.filter(QStringLiteral("speculative")).isEmpty(),
                 qPrintable(clipped.join(QLatin1Char('\n'))));
        const auto *drafter = child<ElidingComboBox>("speculativeCombo");
        QVERIFY(drafter->currentText().contains(QStringLiteral("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")));
        QVERIFY(drafter->displayedText().endsWith(QChar(0x2026)));
        QVERIFY(drafter->toolTipText().startsWith(drafter->currentText()));
        QVERIFY(drafter->toolTipText().endsWith(drafter->toolTip())); // and what the box is for
    }

    void aDrafterNameIsElidedNotCut_data() { compareFitsAProjector_data(); }

    // Compare's drafter knob in a column of a 1280 x 800 projector: elided as the explorer's is.
    void comparesDrafterKnobIsElidedNotCut()
    {
        QFETCH(QString, language);
        QVERIFY(showOnProjector(language, QStringLiteral("compare")));
        child<QAbstractButton>("servingFeaturesButton")->click();
        auto *compare = child<CompareView>("compareView");
        QTRY_VERIFY_WITH_TIMEOUT(compare->shownComparison().has_value() && !compare->isBusy(),
                                 test::BackgroundWorkTimeoutMs);
        compare->setKnobsShown(true);
        QApplication::processEvents();
        const auto *drafter = child<ElidingComboBox>("speculative-configCombo1");
        QVERIFY(drafter->currentText().startsWith(QStringLiteral("EAGLE-3")));
        const QStringList clipped = clippedTexts(m_window.get()).filter(QStringLiteral("speculative-config"));
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
    }

    void comparesDrafterKnobIsElidedNotCut_data() { compareFitsAProjector_data(); }

    // The attention tab presented on a 1280 x 800 projector, in both languages: the window keeps
    // its size (the charts' minimum heights grow with the zoom), no text is cut, and both charts
    // are whole on screen.
    void attentionFitsAProjector()
    {
        QFETCH(QString, language);
        QVERIFY(showOnProjector(language, QStringLiteral("attention")));
        m_window->setPresentationMode(true);
        AttentionPanel *panel = m_window->quantization()->attention();
        QTRY_VERIFY_WITH_TIMEOUT(panel->picture() && !panel->isBusy(), test::BackgroundWorkTimeoutMs);
        QApplication::processEvents();
        QCOMPARE(m_window->size(), QSize(1280, 800));
        const QStringList clipped = clippedTexts(m_window.get());
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
        for (const char *name : {"attentionWeightsChart", "logitErrorChart"}) {
            auto *chart = child<QWidget>(name);
            QVERIFY2(chart->isVisible() && m_window->rect().contains(QRect(
                                               chart->mapTo(m_window.get(), QPoint(0, 0)), chart->size())),
                     name);
            QVERIFY2(chart->height() >= 200, qPrintable(QString::number(chart->height())));
        }
    }

    void attentionFitsAProjector_data() { compareFitsAProjector_data(); }

    void presentationScreenshotHonoursTheSize()
    {
        // The program: --present --view compare and --view fit, each at the size asked (full screen would
        // be the offscreen platform's 800 x 600; the fit dialog was always 1120 x 560).
        QTemporaryDir config;
        const QString png = config.filePath(QStringLiteral("window.png"));
        for (const QStringList &view :
             {QStringList{QStringLiteral("--present"), QStringLiteral("--view"), QStringLiteral("compare")},
              QStringList{QStringLiteral("--view"), QStringLiteral("fit")}}) {
            const test::WindowRun run = test::runWindow(
                config, view + QStringList{QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                                           QStringLiteral("1280x800")});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            const QImage image(png);
            QCOMPARE(image.size() / image.devicePixelRatio(), QSize(1280, 800));
        }
    }

    void indicatorsAndIconsGrowWithTheZoom()
    {
        auto *box = m_window->findChild<QCheckBox *>();
        auto *exportButton = m_window->findChild<QToolButton *>(QStringLiteral("exportButton"));
        QVERIFY(box && exportButton);
        const int indicator = box->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, box);
        const QSize icon = exportButton->iconSize();
        m_window->setPresentationZoom(2.0);
        m_window->setPresentationMode(true);
        QApplication::processEvents();
        QCOMPARE(box->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, box), 2 * indicator);
        QCOMPARE(exportButton->iconSize(), 2 * icon);
        m_window->setPresentationMode(false);
        QApplication::processEvents();
        QCOMPARE(box->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, box), indicator);
        QCOMPARE(exportButton->iconSize(), icon);
    }

    void checkBoxesShowOnTheDarkPalette()
    {
        // Fusion frames an indicator in the window colour darkened by 40 %, which on the dark palette is
        // all but the window's own: the application's style redraws it in the palette's mid tone.
        QCheckBox box(QStringLiteral("eager"));
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(theme::darkPalette());
        ZoomStyle::install();
        box.setPalette(theme::darkPalette());
        box.resize(box.sizeHint());
        const QImage image = box.grab().toImage();
        QVERIFY2(
            test::pixelsNear(image, theme::darkPalette().color(QPalette::Mid)) >= 8,
            qPrintable(QString::number(test::pixelsNear(image, theme::darkPalette().color(QPalette::Mid)))));
        QApplication::setPalette(QApplication::style()->standardPalette());
    }

    void zoomedWindowClipsNoText_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<double>("zoom");
        QTest::newRow("en 150%") << "en" << 1.5;
        QTest::newRow("en 200%") << "en" << 2.0;
        QTest::newRow("zh_CN 150%") << "zh_CN" << 1.5;
    }

    void zoomedWindowClipsNoText()
    {
        QFETCH(QString, language);
        QFETCH(double, zoom);
        translations::apply(language);
        explorer()->setFormulaPanelShown(true);
        // The scenario the README shows: the weights alone over the budget, proposals in the banner.
        show(scenarioOf("llama-3.1-70b", "h100-sxm"));
        m_window->setPresentationZoom(zoom);
        m_window->setPresentationMode(true);
        QTRY_COMPARE(m_window->size(), QSize(1920, 1080));
        QApplication::processEvents();
        const QStringList clipped = clippedTexts(m_window.get());
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
        // The check sees a label squeezed below its text.
        {
            QLabel squeezed(QStringLiteral("a label squeezed below its text"),
                            explorer()->fitBanner()->parentWidget());
            squeezed.setFixedWidth(40);
            squeezed.show();
            QCOMPARE(clippedTexts(m_window.get()).size(), 1);
        }
    }

    void scenarioStripStepsWithPageKeys()
    {
        ScenarioStrip *strip = explorer()->scenarioStrip();
        QVERIFY(strip->scenarios().isEmpty());
        const QList<Scenario> lesson = {scenarioOf("llama-3.1-8b", "h100-sxm"),
                                        scenarioOf("llama-3.1-70b", "h100-sxm"),
                                        scenarioOf("llama-3.1-70b", "h100-sxm", 4)};
        for (const Scenario &s : lesson) {
            show(s);
            action("actionAddToStrip")->trigger();
        }
        QCOMPARE(strip->scenarios().size(), 3);
        QCOMPARE(strip->chips().size(), 3);
        QVERIFY(strip->chips().at(2)->text().contains(QStringLiteral("4×H100")));
        QCOMPARE(strip->currentIndex(), 2);

        // Page Up / Page Down are the strip's while presenting (the sliders' otherwise).
        QVERIFY(!action("actionNextScenario")->isEnabled());
        QCOMPARE(action("actionPreviousScenario")->shortcut(), QKeySequence(Qt::Key_PageUp));
        QCOMPARE(action("actionNextScenario")->shortcut(), QKeySequence(Qt::Key_PageDown));
        m_window->setPresentationMode(true);
        action("actionPreviousScenario")->trigger();
        QCOMPARE(controller()->scenario().tensorParallelSize, 1);
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-70b"));
        action("actionPreviousScenario")->trigger();
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        QCOMPARE(strip->currentIndex(), 0);
        action("actionNextScenario")->trigger();
        action("actionNextScenario")->trigger();
        QCOMPARE(controller()->scenario().tensorParallelSize, 4);
        // A chip chosen by a click, too.
        strip->chips().at(0)->click();
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        m_window->setPresentationMode(false);

        // The strip is saved with the settings and comes back.
        m_window.reset();
        m_window = test::openWindow();
        QCOMPARE(explorer()->scenarioStrip()->scenarios().size(), 3);
        QVERIFY(explorer()->scenarioStrip()->scenarios().at(2) == lesson.at(2));
        // Removing a chip.
        explorer()->scenarioStrip()->removeScenario(0);
        QCOMPARE(explorer()->scenarioStrip()->scenarios().size(), 2);
    }

    void scenarioFromTheCommandLineIsNotSavedUntilChanged()
    {
        // The user's saved scenario.
        Scenario saved = scenarioOf("qwen2.5-7b", "a100-80gb");
        show(saved);
        m_window->saveSettings();

        // Opened on another, as `kvscope --model llama-3.1-70b --gpu h100-sxm -- ...` does.
        Scenario given = scenarioOf("llama-3.1-70b", "h100-sxm", 2);
        given.kvCacheDtype = KvCacheDtype::Fp8;
        m_window.reset();
        m_window = test::openWindow();
        m_window->showCommandLineScenario(given);
        QVERIFY(controller()->scenario() == given);
        m_window->saveSettings();
        QCOMPARE(QSettings().value(QStringLiteral("scenario/model")).toString(),
                 QStringLiteral("qwen2.5-7b"));
        // Once the user changes something, the scenario on screen is theirs.
        child<QSpinBox>("batchSpin")->setValue(8);
        m_window->saveSettings();
        QCOMPARE(QSettings().value(QStringLiteral("scenario/model")).toString(),
                 QStringLiteral("llama-3.1-70b"));
        QCOMPARE(QSettings().value(QStringLiteral("scenario/batchSize")).toLongLong(), 8);
    }

    void windowCommandLine()
    {
        // The program: the calc options open the window on that scenario; the screenshot shows it;
        // the saved settings stay as they were.
        QTemporaryDir config;
        const QString png = config.filePath(QStringLiteral("window.png"));
        const QByteArray settings = "[scenario]\nmodel=qwen2.5-7b\nbatchSize=4\n";
        const test::WindowRun run = test::runWindow(
            config,
            {QStringLiteral("--model"), QStringLiteral("llama-3.1-70b"), QStringLiteral("--gpu"),
             QStringLiteral("h100-sxm"), QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8"),
             QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("1280x720")},
            settings);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(!QImage(png).isNull());
        const QSettings after(test::settingsFile(config), QSettings::IniFormat);
        QCOMPARE(after.value(QStringLiteral("scenario/model")).toString(), QStringLiteral("qwen2.5-7b"));
        QCOMPARE(after.value(QStringLiteral("scenario/batchSize")).toLongLong(), 4);
        QVERIFY(!after.contains(QStringLiteral("scenario/kvCacheDtype")));

        // A bad value is named, and no window opens.
        const test::WindowRun bad =
            test::runWindow(config, {QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp7"),
                                     QStringLiteral("--screenshot"), png});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("--kv-cache-dtype") && bad.err.contains("fp7"), bad.err.constData());
    }

    // In front of a room the keyboard drives the menus: Alt+V then a letter
    // must reach one action only (Zoom &out and F&ormula panel once shared O).
    void menuMnemonicsAreUniqueInEachMenu_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void menuMnemonicsAreUniqueInEachMenu()
    {
        QFETCH(QString, language);
        translations::apply(language);
        QApplication::processEvents();
        QStringList clashes;
        const auto checkUnique = [&clashes](const QString &where, const QList<QAction *> &actions) {
            QHash<QString, QString> seen;
            for (const QAction *a : actions) {
                const QString key = QKeySequence::mnemonic(a->text()).toString();
                if (a->isSeparator() || key.isEmpty())
                    continue;
                if (seen.contains(key))
                    clashes << QStringLiteral("%1: '%2' and '%3' share %4")
                                   .arg(where, seen.value(key), a->text(), key);
                seen.insert(key, a->text());
            }
        };
        const QList<QAction *> menus = m_window->menuBar()->actions();
        checkUnique(QStringLiteral("menu bar"), menus);
        for (const QAction *menu : menus)
            checkUnique(menu->text(), menu->menu()->actions());
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    }

    void panelsAreTranslated()
    {
        explorer()->setFormulaPanelShown(true);
        translations::apply(QStringLiteral("zh_CN"));
        QApplication::processEvents();
        const QString text = formulas()->browser()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("KV 缓存")), qPrintable(text.left(200)));
        QVERIFY(!child<QPushButton>("formulaToggle")->text().contains(QLatin1String("Formulas")));
        QVERIFY(!action("actionPresentation")->text().contains(QLatin1String("Presentation")));
        // The notes are the core's, worded in Chinese.
        QVERIFY(
            !formulas()->sheet().line(QStringLiteral("total_bytes"))->note.contains(QLatin1String("usual")));
    }
};

int main(int argc, char *argv[])
{
    // A projector's screen: offscreen's own is 800 x 600 (full screen would be that).
    QTemporaryDir screenDir;
    QFile screen(screenDir.filePath(QStringLiteral("screen.json")));
    const QByteArray layout = R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1920,
        "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})";
    if (!screen.open(QIODevice::WriteOnly) || screen.write(layout) != layout.size())
        qFatal("cannot write %s", qPrintable(screen.fileName()));
    screen.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + screen.fileName().toLocal8Bit());
    QApplication app(argc, argv);
    QApplication::setAttribute(Qt::AA_Use96Dpi, true); // as QTEST_MAIN
    TestTeacher test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_teacher.moc"
