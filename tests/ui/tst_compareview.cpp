// SPDX-License-Identifier: MIT
// The Compare view driven by objectName under the offscreen platform: the
// seed preset's four columns, adding, editing and removing columns, the
// columns saved in scenario files and settings, a run cancelled when the
// columns change under it; and the explorer's speed cards and decode chart
// against the core. Every figure on screen must equal the core's.
#include "core/common/units.h"
#include "core/compare/accuracy.h"
#include "core/compare/comparechart.h"
#include "core/compare/comparetext.h"
#include "core/document/scenariofile.h"
#include "core/library/library.h"
#include "core/output/speedchart.h"
#include "core/plan/expertparallel.h"
#include "core/plan/speed.h"
#include "tests/ui/uitestsupport.h"
#include "ui/charts/comparebarschart.h"
#include "ui/charts/comparememorychart.h"
#include "ui/charts/speedchart.h"
#include "ui/compare/comparecolumns.h"
#include "ui/compare/compareview.h"
#include "ui/compare/comparisonrunner.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/speedpanel.h"
#include "ui/quantization/quantizationview.h"
#include "ui/state/appsettings.h"
#include "ui/state/quantsettings.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/scenariosession.h"
#include "ui/state/translations.h"
#include "ui/state/userlibrary.h"
#include "ui/window/mainwindow.h"

#include <memory>

#include <QBarSet>
#include <QComboBox>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTest>

using namespace kvscope;

namespace {

/// Picks a knob's choice by its value, as a user's click does (activated, which the view listens to).
void choose(QComboBox *combo, const QString &value)
{
    const int index = combo->findData(value);
    QVERIFY2(index >= 0, qPrintable(value));
    combo->setCurrentIndex(index);
    Q_EMIT combo->activated(index);
}

} // namespace

class TestCompareView : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;

    template <typename T> T *child(const QString &name) const
    {
        T *widget = m_window->findChild<T *>(name);
        if (!widget)
            qFatal("no child %s", qPrintable(name));
        return widget;
    }
    CompareView *view() const { return m_window->compare(); }
    QTableWidget *table() const { return child<QTableWidget>(QStringLiteral("compareTable")); }
    const Scenario &base() const { return m_window->controller()->scenario(); }

    /// Waits for the view's comparison of its current columns.
    bool waitForComparison() const
    {
        return QTest::qWaitFor(
            [this] { return !view()->isBusy() && view()->currentComparison().has_value(); },
            test::BackgroundWorkTimeoutMs);
    }

    /// What the core gives for the view's columns, computed here on its own.
    Comparison expected() const
    {
        AccuracyCache cache;
        return compare(
            labelledColumns(columnScenarios(base(), view()->columns(), m_window->library()->resolvers())),
            cache);
    }

    /// Every figure cell and header against `comparison`: values exact, texts as CompareText words them.
    void checkTable(const Comparison &comparison) const
    {
        QTableWidget *t = table();
        QCOMPARE(t->columnCount(), int(comparison.columns.size()));
        QCOMPARE(t->rowCount(), CompareView::FirstFigureRow + int(comparison.rows.size()));
        for (int c = 0; c < comparison.columns.size(); ++c) {
            // On screen with non-breaking hyphens (a wrapped label breaks between options).
            QCOMPARE(t->horizontalHeaderItem(c)->text().replace(QChar(0x2011), u'-'),
                     comparison.columns.at(c).label);
            QCOMPARE(t->horizontalHeaderItem(c)->toolTip(), comparison.columns.at(c).label);
        }
        for (int r = 0; r < comparison.rows.size(); ++r) {
            const CompareRow &row = comparison.rows.at(r);
            QCOMPARE(t->verticalHeaderItem(CompareView::FirstFigureRow + r)->text(),
                     CompareText::rowLabel(row.id));
            for (int c = 0; c < row.cells.size(); ++c) {
                const CompareCell &cell = row.cells.at(c);
                const QTableWidgetItem *item = t->item(CompareView::FirstFigureRow + r, c);
                QVERIFY(item);
                const QVariant value = item->data(CompareView::ValueRole);
                QCOMPARE(value.isValid(), cell.value.has_value());
                if (cell.value)
                    QCOMPARE(value.toDouble(), *cell.value);
                QVERIFY2(item->text().startsWith(CompareText::cell(row, cell)), qPrintable(item->text()));
                QCOMPARE(item->font().bold(), row.best.contains(c));
            }
        }
    }

private Q_SLOTS:
    void differencesThatRoundToZeroHaveNoSign()
    {
        // The table on screen follows the command line's rule: a difference that rounds
        // away at the shown precision reads "0.00×", never "−0.00×" or "−0.0 %".
        CompareRow row;
        row.unit = QStringLiteral("x");
        CompareCell cell;
        cell.value = 12.4996;
        cell.delta = -0.0004;
        cell.deltaPercent = -0.0032;
        // A no-break space holds "%" to its number when a narrow cell wraps.
        QCOMPARE(CompareText::delta(row, cell, QLocale::c()), QStringLiteral("0.00× (0.0\u00a0%)"));
        cell.delta = -0.5;
        cell.deltaPercent = -4.0;
        QCOMPARE(CompareText::delta(row, cell, QLocale::c()),
                 QStringLiteral("\u22120.50× (\u22124.0\u00a0%)"));
    }

    void initTestCase()
    {
        test::isolateSettings(QStringLiteral("kvscope-compareview-tests"));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        test::resetState();
        m_window = test::openWindow();
        QVERIFY(m_window->showView(QStringLiteral("compare")));
    }

    void cleanup() { m_window.reset(); }

    void opensReadyOnTheSeedQuestion()
    {
        // A fresh window's Compare view holds the seed question's four columns for the explorer's
        // scenario (Llama-3.1-8B, a BF16 checkpoint), as `kvscope compare` does without --variant,
        // and shows their figures and charts without a click.
        QCOMPARE(view()->columns().size(), 4);
        QVERIFY(waitForComparison());
        const Comparison comparison = *view()->currentComparison();
        const QStringList labels{QStringLiteral("BF16 + BF16 KV"), QStringLiteral("BF16 + FP8 KV"),
                                 QStringLiteral("AWQ INT4 + FP16 KV"), QStringLiteral("AWQ INT4 + FP8 KV")};
        for (int c = 0; c < 4; ++c) {
            QCOMPARE(comparison.columns.at(c).label, labels.at(c));
            QCOMPARE(table()->horizontalHeaderItem(c)->text(), labels.at(c));
        }
        QVERIFY(!child<QLabel>(QStringLiteral("compareHint"))->isVisible());
        QCOMPARE(child<CompareMemoryChartView>(QStringLiteral("compareMemoryChart"))->data().bars.size(), 4);
        const CompareBarsChartData speed =
            child<CompareBarsChartView>(QStringLiteral("compareSpeedChart"))->data();
        QVERIFY(!speed.groups.isEmpty());
        QCOMPARE(speed.labels, labels);
        // The verdict row first: all four fit on an 80 GB H100 (16 GB of weights at most).
        QCOMPARE(table()->verticalHeaderItem(CompareView::FirstFigureRow)->text(), QStringLiteral("Runs?"));
        for (int c = 0; c < 4; ++c)
            QCOMPARE(table()->item(CompareView::FirstFigureRow, c)->text(), QStringLiteral("fits"));
        // Not the user's columns: nothing to save in a scenario file.
        QVERIFY(m_window->session()->comparison().isEmpty());
    }

    void accuracyCaveatsAreShownUnderTheChart()
    {
        // What the CLI prints beside the accuracy figures the window shows under them, wrapped:
        // what SQNR is, the calibrated FP8 KV figure, how INT4 is simulated, the checkpoint AWQ
        // needs, and why the same FP8 KV reads two SQNRs (the comparison's note).
        m_window->resize(1280, 800);
        QVERIFY(waitForComparison());
        const Comparison comparison = *view()->currentComparison();
        child<QStackedWidget>(QStringLiteral("comparePages"))
            ->setCurrentWidget(child<QWidget>(QStringLiteral("compareAccuracyPage")));
        auto *caveats = child<QLabel>(QStringLiteral("compareAccuracyCaveats"));
        QVERIFY(caveats->isVisible());
        QVERIFY(caveats->wordWrap());
        const QString text = caveats->text();
        QVERIFY(text.contains(CompareText::accuracyCaveat().toHtmlEscaped()));
        const QList<AccuracyCaveat> expected = CompareText::accuracyCaveats(comparison);
        QVERIFY(!expected.isEmpty());
        for (const AccuracyCaveat &caveat : expected)
            QVERIFY2(text.contains(caveat.text.toHtmlEscaped()), qPrintable(caveat.text));
        QVERIFY(
            text.contains(CompareText::calibratedKv(comparison.columns.at(1).accuracy.kv).toHtmlEscaped()));
        // What the FP8 cache does to attention, with the figures the core simulated.
        const KvAccuracy &fp8Kv = comparison.columns.at(1).accuracy.kv;
        const QString attention = CompareText::attentionSummary(fp8Kv);
        QVERIFY(text.contains(attention.toHtmlEscaped()));
        QVERIFY2(
            attention.contains(QString::number(fp8Kv.attention.at(0).errors.at(1).outputSqnrDb, 'f', 2)) &&
                attention.contains(
                    QString::number(fp8Kv.attention.at(1).errors.at(1).outputSqnrDb, 'f', 2)) &&
                attention.contains(QStringLiteral("4,096 tokens")),
            qPrintable(attention));
        QVERIFY(CompareText::attentionSummary(comparison.columns.at(0).accuracy.kv).isEmpty());
        for (const QString &note :
             comparison.columns.at(3).accuracy.weights.notes + comparison.columns.at(3).notes)
            QVERIFY2(text.contains(note.toHtmlEscaped()), qPrintable(note));
        QCOMPARE(comparison.notes.size(), 1);
        QVERIFY(text.contains(comparison.notes.first().toHtmlEscaped()));
        // Beside the accuracy chart, first in its notes, as wide as their column and as tall as
        // its wrapped text.
        auto *accuracy = child<CompareBarsChartView>(QStringLiteral("compareAccuracyChart"));
        const QWidget *page = child<QWidget>(QStringLiteral("compareAccuracyPage"));
        QVERIFY(caveats->mapTo(page, QPoint(0, 0)).x() >
                accuracy->mapTo(page, QPoint(accuracy->width(), 0)).x());
        QVERIFY(caveats->mapTo(page, QPoint(caveats->width(), 0)).x() <= page->width());
        QVERIFY(caveats->mapTo(page, QPoint(0, 0)).y() <
                child<QLabel>(QStringLiteral("compareNotes"))->mapTo(page, QPoint(0, 0)).y());
        QTRY_VERIFY(caveats->height() >= caveats->heightForWidth(caveats->width()));
    }

    void chineseAccuracyHasNoEnglish()
    {
        // In Chinese the accuracy text under the chart is Chinese: the core's notes, tensors and
        // the FP8 KV scale are translated, not left in English.
        QVERIFY(waitForComparison());
        translations::apply(QStringLiteral("zh_CN"));
        const auto restore = qScopeGuard([] { translations::apply(QStringLiteral("en")); });
        QVERIFY(waitForComparison());
        const QString text = child<QLabel>(QStringLiteral("compareAccuracyCaveats"))->text() +
                             child<QLabel>(QStringLiteral("compareNotes"))->text();
        for (const char *english :
             {"the keys of one KV head", "the values of one KV head", "synthetic",
              "simulated as round-to-nearest", "the baseline", "per-tensor 1.0", "checkpoint stored that way",
              "cast their KV cache", "calibrated amax scale", "proxy for end quality", "stored as",
              "degrees of freedom", "Gaussian", "channels", "seed", "like model.layers"})
            QVERIFY2(!text.contains(QLatin1String(english)), english);
    }

    void quantizationChoicesAreWordedInTheWindowsLanguage()
    {
        // "none" and "auto (checkpoint: none)" come from one core function, in Chinese too: the
        // Compare view's knobs and the explorer's list word them alike.
        QVERIFY(waitForComparison());
        translations::apply(QStringLiteral("zh_CN"));
        const auto restore = qScopeGuard([] { translations::apply(QStringLiteral("en")); });
        QVERIFY(waitForComparison());
        for (QComboBox *combo : {child<QComboBox>(QStringLiteral("quantizationCombo0")),
                                 child<QComboBox>(QStringLiteral("quantizationCombo"))}) {
            QCOMPARE(combo->itemText(combo->findData(QStringLiteral("none"))), QStringLiteral("无"));
            QCOMPARE(combo->itemText(combo->findData(QStringLiteral("auto"))),
                     QStringLiteral("auto（检查点：无）"));
            QCOMPARE(combo->itemText(combo->findData(QStringLiteral("awq"))), QStringLiteral("awq"));
        }
    }

    void defaultColumnsFollowTheModel()
    {
        // Unedited, the columns are the seed question of whatever the explorer holds: a 70B on one
        // H100 then has two 16-bit columns that cannot start (141 GB of weights > 72 GB budget).
        m_window->controller()->setModel(resolveModel(QStringLiteral("llama-3.1-70b")));
        QVERIFY(waitForComparison());
        const Comparison comparison = *view()->currentComparison();
        QCOMPARE(comparison.columns.size(), 4);
        QVERIFY(table()
                    ->item(CompareView::FirstFigureRow, 0)
                    ->text()
                    .startsWith(QStringLiteral("does not start")));
        const int decodeRow = CompareView::FirstFigureRow + 8;
        QCOMPARE(table()->verticalHeaderItem(decodeRow)->text(), QStringLiteral("Decode tokens/s"));
        QCOMPARE(table()->item(decodeRow, 0)->text(), QStringLiteral("—"));
        QCOMPARE(table()->item(decodeRow, 0)->toolTip(), comparison.columns.at(0).plan.startFailure);
        // Its memory bar runs past the budget line, hatched there; the INT4 + FP8 KV column's fits.
        auto *memory = child<CompareMemoryChartView>(QStringLiteral("compareMemoryChart"));
        QCOMPARE(memory->overflowRegions().size(), 4);
        QVERIFY(memory->overflowRegions().at(0)->isVisible());
        QCOMPARE(memory->overflowRegions().at(0)->brush().style(), Qt::BDiagPattern);
        QVERIFY(comparison.columns.at(3).plan.fits);
        QVERIFY(!memory->overflowRegions().at(3)->isVisible());
    }

    void seedPresetGivesTheFourColumnsOfTheCore()
    {
        child<QPushButton>(QStringLiteral("seedPresetButton"))->click();
        QVERIFY(waitForComparison());
        const Comparison comparison = *view()->currentComparison();
        // The seed question's columns, as the core makes them on the explorer's scenario.
        const QList<ComparisonColumn> seed = seedQuestionColumns(base());
        QCOMPARE(comparison.columns.size(), 4);
        for (int c = 0; c < 4; ++c) {
            QCOMPARE(comparison.columns.at(c).label, seed.at(c).label);
            QCOMPARE(view()->columns().at(c), columnValues(base(), seed.at(c).scenario));
        }
        checkTable(expected());
        // Llama-3.1-8B's KV bytes per token, by hand: 32 layers x 8 KV heads x 128 dims x (K + V) x
        // 2 bytes = 131,072 B in BF16; FP8 halves it. AWQ leaves it alone.
        const int kvRow = CompareView::FirstFigureRow + 2;
        QCOMPARE(table()->item(kvRow, 0)->data(CompareView::ValueRole).toDouble(), 131072.0);
        QCOMPARE(table()->item(kvRow, 1)->data(CompareView::ValueRole).toDouble(), 65536.0);
        QCOMPARE(table()->item(kvRow, 2)->data(CompareView::ValueRole).toDouble(), 131072.0);
        QVERIFY2(table()->item(kvRow, 1)->text().contains(QStringLiteral("(−50.0\u00a0%)")),
                 qPrintable(table()->item(kvRow, 1)->text()));
        // BF16 weights of a BF16 checkpoint have no error: shown as lossless, and the best.
        const int weightSqnrRow = CompareView::FirstFigureRow + 11;
        QCOMPARE(table()->item(weightSqnrRow, 0)->text(), QStringLiteral("lossless"));
        QVERIFY(table()->item(weightSqnrRow, 0)->font().bold());
        // The knobs show each column's precisions.
        QCOMPARE(child<QComboBox>(QStringLiteral("kv-cache-dtypeCombo1"))->currentData().toString(),
                 QStringLiteral("fp8"));
        QCOMPARE(child<QComboBox>(QStringLiteral("quantizationCombo2"))->currentData().toString(),
                 QStringLiteral("awq"));
        QVERIFY(child<QComboBox>(QStringLiteral("group-sizeCombo2"))->isEnabled());
        QVERIFY(!child<QComboBox>(QStringLiteral("group-sizeCombo0"))->isEnabled());
        // The charts draw the same comparison.
        auto *memory = child<CompareMemoryChartView>(QStringLiteral("compareMemoryChart"));
        QCOMPARE(memory->data().bars.size(), 4);
        QCOMPARE(memory->barSet(MemoryPart::KvCache)->at(3),
                 toGiB(comparison.columns.at(0).plan.kv.cacheBytes));
        auto *speed = child<CompareBarsChartView>(QStringLiteral("compareSpeedChart"));
        const CompareBarsChartData bars = compareSpeedChartData(comparison);
        QCOMPARE(speed->data().groups.size(), bars.groups.size());
        for (int c = 0; c < 4; ++c)
            QCOMPARE(speed->barSet(c)->at(bars.groups.size() - 1), bars.groups.first().length.at(c));
        // The accuracy chart's bars are the table's SQNR figures in dB, its labels the table's texts;
        // a lossless column has no bar. Groups are drawn last first: weight SQNR at the top.
        auto *accuracy = child<CompareBarsChartView>(QStringLiteral("compareAccuracyChart"));
        QCOMPARE(accuracy, view()->accuracyChart());
        QCOMPARE(accuracy->catalogueName(), QStringLiteral("compare-accuracy"));
        const int groups = int(accuracy->data().groups.size());
        QCOMPARE(groups, 4); // weight, layer output, KV, attention output: the table's last four rows
        for (int g = 0; g < groups; ++g) {
            const int tableRow = weightSqnrRow + g;
            for (int c = 0; c < 4; ++c) {
                const QTableWidgetItem *item = table()->item(tableRow, c);
                const QString figure = item->text().section(QLatin1Char('\n'), 0, 0);
                const double bar = accuracy->barSet(c)->at(groups - 1 - g);
                if (figure == QStringLiteral("lossless"))
                    QCOMPARE(bar, 0.0);
                else
                    QCOMPARE(bar, item->data(CompareView::ValueRole).toDouble());
                QCOMPARE(accuracy->valueLabels().at(g * 4 + c)->text(), figure);
            }
        }
    }

    void addEditAndRemoveColumns()
    {
        // From nothing: the seed question's columns removed one by one.
        while (!view()->columns().isEmpty())
            child<QPushButton>(QStringLiteral("removeColumnButton0"))->click();
        QCOMPARE(table()->rowCount(), CompareView::FirstFigureRow);
        auto *add = child<QPushButton>(QStringLiteral("addColumnButton"));
        add->click();
        QCOMPARE(view()->columns().size(), 1);
        QVERIFY(child<QLabel>(QStringLiteral("compareHint"))->isVisible());
        add->click();
        QVERIFY(waitForComparison());
        QCOMPARE(view()->currentComparison()->columns.size(), 2);
        checkTable(expected());

        // The second column's KV cache to FP8, through its combo.
        QComboBox *kv = child<QComboBox>(QStringLiteral("kv-cache-dtypeCombo1"));
        kv->setCurrentIndex(kv->findData(QStringLiteral("fp8")));
        Q_EMIT kv->activated(kv->currentIndex());
        QCOMPARE(view()->columns().at(1).value(QStringLiteral("kv-cache-dtype")), QStringLiteral("fp8"));
        QVERIFY(waitForComparison());
        const Comparison edited = expected();
        checkTable(edited);
        QCOMPARE(edited.columns.at(1).plan.kv.bytesPerToken * 2, edited.columns.at(0).plan.kv.bytesPerToken);

        // Its drafter to the model's EAGLE-3 draft, through the drafter row: the draft's weights, and
        // the decode row is the tokens a second the drafter brings (the table shows the core's).
        QComboBox *drafter = child<QComboBox>(QStringLiteral("speculative-configCombo1"));
        QCOMPARE(drafter->currentData().toString(), QStringLiteral("none"));
        const int eagle = drafter->findText(QStringLiteral("EAGLE-3: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"));
        QVERIFY(eagle > 0);
        drafter->setCurrentIndex(eagle);
        Q_EMIT drafter->activated(eagle);
        QVERIFY(view()
                    ->columns()
                    .at(1)
                    .value(QStringLiteral("speculative-config"))
                    .contains(QStringLiteral("eagle3")));
        QVERIFY(waitForComparison());
        const Comparison drafted = expected();
        checkTable(drafted);
        QCOMPARE(drafted.columns.at(1).plan.weights.draftBytes, std::int64_t(850'159'616));
        QVERIFY(drafted.columns.at(1).plan.speed.speculative);
        QCOMPARE(view()->currentComparison()->columns.at(1).plan.weights.draftBytes,
                 std::int64_t(850'159'616));

        // A knob the core refuses is refused, and the column stays as it was.
        const ScenarioValues before = view()->columns().at(0);
        QVERIFY(!view()->setColumnValue(0, ScenarioField::GroupSize, QStringLiteral("64")));
        QCOMPARE(view()->columns().at(0), before);
        QVERIFY(!child<QLabel>(QStringLiteral("compareStatus"))->text().isEmpty());

        // Four at most; then the button is off.
        add->click();
        add->click();
        QCOMPARE(view()->columns().size(), 4);
        QVERIFY(!add->isEnabled());
        add->click();
        QCOMPARE(view()->columns().size(), 4);

        // Remove the first: the FP8 column becomes the first.
        child<QPushButton>(QStringLiteral("removeColumnButton0"))->click();
        QCOMPARE(view()->columns().size(), 3);
        QVERIFY(add->isEnabled());
        QVERIFY(waitForComparison());
        checkTable(expected());
        QCOMPARE(view()->currentComparison()->columns.at(0).plan.kvCacheDtype,
                 KvCacheDtype::Fp8E4M3); // fp8, resolved
        child<QPushButton>(QStringLiteral("removeColumnButton2"))->click();
        child<QPushButton>(QStringLiteral("removeColumnButton1"))->click();
        QCOMPARE(view()->columns().size(), 1);
        QCOMPARE(table()->rowCount(), CompareView::FirstFigureRow);
        QVERIFY(!view()->currentComparison());
    }

    // The serving features' preset and the knobs that set a column's LoRA slots, their rank and
    // its shared prefix: what the core plans for the same values (servingFeatureColumns()).
    void servingFeaturesAndTheirKnobs()
    {
        m_window->controller()->setSeqLen(8192);
        child<QPushButton>(QStringLiteral("servingFeaturesButton"))->click();
        QCOMPARE(view()->columns(), servingFeatureColumnValues(base()));
        QCOMPARE(view()->columns().size(), 4);
        QVERIFY(waitForComparison());
        checkTable(expected());
        QCOMPARE(view()->currentComparison()->columns.at(2).plan.weights.loraBytes,
                 std::int64_t(4) * 64 * 5 * 1024 * 1024); // 5 MiB per slot per unit of rank, core/plan/lora.h

        // Each column's knobs say its features: LoRA off with no rank, then 4 slots of rank 64, and
        // the last column's shared prefix of half the sequence.
        auto *slots0 = child<QComboBox>(QStringLiteral("max-lorasCombo0"));
        QCOMPARE(slots0->currentData().toString(), QStringLiteral("auto"));
        QCOMPARE(slots0->currentText(), QStringLiteral("off"));
        QVERIFY(!child<QComboBox>(QStringLiteral("max-lora-rankCombo0"))->isEnabled());
        QCOMPARE(child<QComboBox>(QStringLiteral("max-lorasCombo2"))->currentData().toString(),
                 QStringLiteral("4"));
        QVERIFY(child<QComboBox>(QStringLiteral("max-lora-rankCombo2"))->isEnabled());
        QCOMPARE(child<QComboBox>(QStringLiteral("max-lora-rankCombo2"))->currentData().toString(),
                 QStringLiteral("64"));
        QCOMPARE(child<QComboBox>(QStringLiteral("shared-prefix-lenCombo0"))->currentText(),
                 QStringLiteral("none"));
        QCOMPARE(child<QComboBox>(QStringLiteral("shared-prefix-lenCombo3"))->currentData().toString(),
                 QStringLiteral("4096"));

        // The first column's LoRA slots to 2 through its combo: its rank knob opens.
        const int two = slots0->findData(QStringLiteral("2"));
        slots0->setCurrentIndex(two);
        Q_EMIT slots0->activated(two);
        QCOMPARE(view()->columns().at(0).value(QStringLiteral("max-loras")), QStringLiteral("2"));
        QVERIFY(child<QComboBox>(QStringLiteral("max-lora-rankCombo0"))->isEnabled());

        // The drafter's column's shared prefix to 2,048 through its combo: both features at once.
        auto *prefix1 = child<QComboBox>(QStringLiteral("shared-prefix-lenCombo1"));
        const int half = prefix1->findData(QStringLiteral("2048"));
        prefix1->setCurrentIndex(half);
        Q_EMIT prefix1->activated(half);
        QVERIFY(waitForComparison());
        const Comparison edited = expected();
        checkTable(edited);
        QCOMPARE(edited.columns.at(1).scenario.sharedPrefixLen, 2048);
        QVERIFY(edited.columns.at(1).scenario.speculative.enabled());

        // A prefix as long as the sequence is refused with the core's words; the column stays.
        const ScenarioValues before = view()->columns().at(3);
        QVERIFY(!view()->setColumnValue(3, ScenarioField::SharedPrefixLen, QStringLiteral("8192")));
        QCOMPARE(view()->columns().at(3), before);
        QVERIFY(child<QLabel>(QStringLiteral("compareStatus"))
                    ->text()
                    .contains(QStringLiteral("--shared-prefix-len")));

        // A column keeps its features when the explorer's change: the explorer's LoRA slots do not
        // reach the columns that have none.
        m_window->controller()->setLora(8, 16);
        QVERIFY(waitForComparison());
        QCOMPARE(view()->currentComparison()->columns.at(3).scenario.maxLoras, 0);
    }

    void columnsFollowTheExplorerButKeepTheirPrecisions()
    {
        child<QPushButton>(QStringLiteral("seedPresetButton"))->click();
        QVERIFY(waitForComparison());
        m_window->controller()->setBatchSize(64);
        m_window->controller()->setKvCacheDtype(KvCacheDtype::Fp8);
        QVERIFY(waitForComparison());
        const Comparison comparison = *view()->currentComparison();
        for (const ComparedColumn &column : comparison.columns)
            QCOMPARE(column.plan.batchSize, 64);
        QCOMPARE(comparison.columns.at(0).plan.kvCacheDtype, KvCacheDtype::BFloat16);
        checkTable(expected());
    }

    // A column's layout is a knob like its precisions: GPUs (TP), pipeline stages, data-parallel ranks
    // and expert parallelism, offered as the core accepts them for the model (a MoE's ranks only with
    // its experts divided or split evenly), and planned as the core plans them.
    void layoutKnobsSetAColumnsGpusRanksAndExperts()
    {
        const ModelArch *moe = m_window->library()->findModel(QStringLiteral("qwen3-30b-a3b"));
        QVERIFY(moe);
        m_window->controller()->setModel(*moe);
        child<QPushButton>(QStringLiteral("addColumnButton"))->click();
        child<QPushButton>(QStringLiteral("addColumnButton"))->click();
        QVERIFY(waitForComparison());

        // Both columns follow the explorer's one GPU; the data-parallel box offers what
        // validDataParallelSizes() accepts and the expert switch is off.
        auto *tp1 = child<QComboBox>(QStringLiteral("tensor-parallel-sizeCombo1"));
        auto *dp1 = child<QComboBox>(QStringLiteral("data-parallel-sizeCombo1"));
        auto *ep1 = child<QComboBox>(QStringLiteral("enable-expert-parallelCombo1"));
        QCOMPARE(tp1->currentData().toString(), QStringLiteral("1"));
        QCOMPARE(dp1->currentData().toString(), QStringLiteral("1"));
        QCOMPARE(ep1->currentData().toString(), QStringLiteral("false"));
        QCOMPARE(ep1->currentText(), QStringLiteral("off"));
        QVERIFY(dp1->isEnabled() && ep1->isEnabled());
        QVERIFY(!child<QComboBox>(QStringLiteral("enable-dp-attentionCombo1"))->isEnabled()); // SGLang's
        QList<int> offered;
        for (int i = 0; i < dp1->count(); ++i)
            offered << dp1->itemData(i).toInt();
        QCOMPARE(offered, validDataParallelSizes(*moe, 1, false, Engine::Vllm));

        // The second column as two ranks with the experts divided: planned as the core plans it.
        choose(dp1, QStringLiteral("2"));
        choose(child<QComboBox>(QStringLiteral("enable-expert-parallelCombo1")), QStringLiteral("true"));
        QCOMPARE(view()->columns().at(1).value(QStringLiteral("data-parallel-size")), QStringLiteral("2"));
        QCOMPARE(view()->columns().at(1).value(QStringLiteral("enable-expert-parallel")),
                 QStringLiteral("true"));
        QVERIFY(!view()->columns().at(0).contains(QStringLiteral("data-parallel-size")));
        QVERIFY(waitForComparison());
        const Comparison comparison = expected();
        checkTable(comparison);
        const MemoryPlan &ranks = comparison.columns.at(1).plan;
        QCOMPARE(ranks.dataParallelSize, 2);
        QCOMPARE(ranks.expertParallelSize, 2);
        QCOMPARE(ranks.localExperts, moe->moe.numExperts / 2);
        QCOMPARE(ranks.gpuCount(), 2);
        QCOMPARE(comparison.columns.at(0).plan.gpuCount(), 1);
        QCOMPARE(child<QComboBox>(QStringLiteral("enable-expert-parallelCombo1"))->currentText(),
                 QStringLiteral("on"));

        // vLLM's load balancer on the same column: its state counted with the column's weights.
        auto *eplb1 = child<QComboBox>(QStringLiteral("enable-eplbCombo1"));
        QCOMPARE(eplb1->currentData().toString(), QStringLiteral("false"));
        QCOMPARE(eplb1->currentText(), QStringLiteral("off"));
        choose(eplb1, QStringLiteral("true"));
        QCOMPARE(view()->columns().at(1).value(QStringLiteral("enable-eplb")), QStringLiteral("true"));
        QVERIFY(waitForComparison());
        const Comparison balanced = expected();
        checkTable(balanced);
        QVERIFY(balanced.columns.at(1).plan.weights.eplbBytes > 0);
        QCOMPARE(balanced.columns.at(1).plan.weights.eplbBytes,
                 balanced.columns.at(1).plan.eplbState.total());
        QCOMPARE(balanced.columns.at(0).plan.weights.eplbBytes, std::int64_t(0));
        choose(child<QComboBox>(QStringLiteral("enable-eplbCombo1")), QStringLiteral("false"));
        QVERIFY(waitForComparison());

        // The first column to two GPUs of tensor parallelism, and the explorer's own TP then leaves
        // it as it is: a column keeps the layout it was given.
        choose(child<QComboBox>(QStringLiteral("tensor-parallel-sizeCombo0")), QStringLiteral("2"));
        QVERIFY(waitForComparison());
        QCOMPARE(view()->currentComparison()->columns.at(0).plan.gpuCount(), 2);
        m_window->controller()->setTensorParallelSize(4);
        QVERIFY(waitForComparison());
        QCOMPARE(view()->currentComparison()->columns.at(0).plan.gpuCount(), 2);
        checkTable(expected());
    }

    // A hidden Compare tab lets the explorer's steps go by and shows its knobs for the scenario
    // as it is when the tab comes back: a model changed meanwhile offers that model's layouts.
    void knobsChangedWhileHiddenAreShownWithTheTab()
    {
        child<QPushButton>(QStringLiteral("addColumnButton"))->click();
        child<QPushButton>(QStringLiteral("addColumnButton"))->click();
        QVERIFY(waitForComparison());
        QVERIFY(!child<QComboBox>(QStringLiteral("enable-expert-parallelCombo1"))->isEnabled()); // dense

        QVERIFY(m_window->showView(QStringLiteral("explorer")));
        QVERIFY(!view()->isVisible());
        const ModelArch *moe = m_window->library()->findModel(QStringLiteral("qwen3-30b-a3b"));
        QVERIFY(moe);
        m_window->controller()->setModel(*moe);
        m_window->controller()->setBatchSize(32);
        QVERIFY(m_window->showView(QStringLiteral("compare")));

        auto *dp1 = child<QComboBox>(QStringLiteral("data-parallel-sizeCombo1"));
        QList<int> offered;
        for (int i = 0; i < dp1->count(); ++i)
            offered << dp1->itemData(i).toInt();
        QCOMPARE(offered, validDataParallelSizes(*moe, 1, false, Engine::Vllm));
        QVERIFY(child<QComboBox>(QStringLiteral("enable-expert-parallelCombo1"))->isEnabled());
        QVERIFY(waitForComparison());
        QCOMPARE(view()->currentComparison()->columns.at(1).plan.batchSize, 32);
        checkTable(expected());
    }

    // The seed question follows the explorer's model, and so does its column count: an MXFP4
    // checkpoint seeds two columns (its own weights with 16-bit or FP8 KV), and the table drops
    // the other two rather than keep their AWQ knobs with no figures under them. Shown or hidden.
    void aSeedOfAnotherColumnCountRebuildsTheTable_data()
    {
        QTest::addColumn<bool>("hidden");
        QTest::newRow("shown") << false;
        QTest::newRow("hidden") << true;
    }

    void aSeedOfAnotherColumnCountRebuildsTheTable()
    {
        QFETCH(bool, hidden);
        QVERIFY(waitForComparison());
        QCOMPARE(table()->columnCount(), 4);
        if (hidden)
            QVERIFY(m_window->showView(QStringLiteral("explorer")));
        const ModelArch *mxfp4 = m_window->library()->findModel(QStringLiteral("gpt-oss-120b"));
        QVERIFY(mxfp4);
        m_window->controller()->setModel(*mxfp4);
        const QList<ScenarioValues> seeded = seedColumnValues(base());
        QCOMPARE(seeded.size(), 2);
        QCOMPARE(view()->columns(), seeded);
        if (hidden)
            QVERIFY(m_window->showView(QStringLiteral("compare")));
        QVERIFY(waitForComparison());
        QCOMPARE(table()->columnCount(), 2);
        QVERIFY(!m_window->findChild<QComboBox *>(QStringLiteral("quantizationCombo2")));
        checkTable(expected());

        // Back to a 16-bit checkpoint: four columns again, each with its knobs.
        const ModelArch *dense = m_window->library()->findModel(QStringLiteral("llama-3.1-8b"));
        QVERIFY(dense);
        m_window->controller()->setModel(*dense);
        QVERIFY(waitForComparison());
        QCOMPARE(table()->columnCount(), 4);
        QCOMPARE(child<QComboBox>(QStringLiteral("quantizationCombo3"))->currentData().toString(),
                 QStringLiteral("awq"));
        checkTable(expected());
    }

    // Under SGLang the attention-groups switch is the knob, and the ranks divide the column's GPUs.
    void sglangColumnsTakeAttentionGroups()
    {
        const ModelArch *moe = m_window->library()->findModel(QStringLiteral("qwen3-30b-a3b"));
        QVERIFY(moe);
        Scenario sglang = m_window->controller()->scenario();
        sglang.model = *moe;
        sglang.engine = Engine::Sglang;
        sglang.tensorParallelSize = 4;
        QVERIFY(m_window->controller()->setScenario(sglang));
        child<QPushButton>(QStringLiteral("addColumnButton"))->click();
        QVERIFY(waitForComparison());
        auto *groups = child<QComboBox>(QStringLiteral("enable-dp-attentionCombo0"));
        QVERIFY(groups->isEnabled());
        QVERIFY(!child<QComboBox>(QStringLiteral("enable-expert-parallelCombo0"))->isEnabled()); // vLLM's
        // The other engine's rows are not shown at all: vLLM's expert switches under SGLang, SGLang's
        // attention groups, LM head, dense MLPs and EP size under vLLM.
        const auto rowShown = [&](ScenarioField knob) {
            return !table()->isRowHidden(int(columnKnobs().indexOf(knob)));
        };
        for (const ScenarioField knob : {ScenarioField::EnableExpertParallel, ScenarioField::EnableEplb})
            QVERIFY(!rowShown(knob));
        for (const ScenarioField knob :
             {ScenarioField::EnableDpAttention, ScenarioField::EnableDpLmHead, ScenarioField::MoeDenseTpSize,
              ScenarioField::ExpertParallelSize, ScenarioField::DataParallelSize, ScenarioField::MaxLoras})
            QVERIFY(rowShown(knob));
        QCOMPARE(groups->currentText(), QStringLiteral("off"));
        // SGLang's drafter and LoRA pool are planned per column as vLLM's are: off, and settable.
        auto *drafter = child<QComboBox>(QStringLiteral("speculative-configCombo0"));
        auto *slots = child<QComboBox>(QStringLiteral("max-lorasCombo0"));
        QVERIFY(drafter->isEnabled() && slots->isEnabled());
        QCOMPARE(drafter->currentData().toString(), QStringLiteral("none"));
        QCOMPARE(slots->currentText(), QStringLiteral("off"));
        choose(slots, QStringLiteral("4"));
        QVERIFY(waitForComparison());
        QVERIFY(expected().columns.at(0).plan.weights.loraBytes > 0); // SGLang's pool for Qwen3-MoE's experts
        choose(child<QComboBox>(QStringLiteral("max-lorasCombo0")), QStringLiteral("auto"));
        QVERIFY(waitForComparison());
        QCOMPARE(expected().columns.at(0).plan.weights.loraBytes, std::int64_t(0));
        // SGLang's LM-head and dense-MLP flags act on attention groups only: shown at their defaults,
        // disabled until the column has groups.
        QCOMPARE(child<QComboBox>(QStringLiteral("enable-dp-lm-headCombo0"))->currentText(),
                 QStringLiteral("off"));
        QVERIFY(!child<QComboBox>(QStringLiteral("enable-dp-lm-headCombo0"))->isEnabled());
        QCOMPARE(child<QComboBox>(QStringLiteral("moe-dense-tp-sizeCombo0"))->currentData().toString(),
                 QStringLiteral("auto"));
        QVERIFY(!child<QComboBox>(QStringLiteral("moe-dense-tp-sizeCombo0"))->isEnabled());
        QVERIFY(view()->setColumnValue(0, ScenarioField::EnableDpAttention, QStringLiteral("true")));
        QVERIFY(view()->setColumnValue(0, ScenarioField::DataParallelSize, QStringLiteral("2")));
        QVERIFY(waitForComparison());
        const Comparison comparison = expected();
        checkTable(comparison);
        const MemoryPlan &plan = comparison.columns.at(0).plan;
        QVERIFY(plan.attentionDataParallel);
        QCOMPARE(plan.tensorParallelSize, 2); // one group's
        QCOMPARE(plan.gpuCount(), 4);
        // With groups, the LM head over one group's two GPUs (Qwen3-MoE's SGLang file honours it): each
        // GPU holds half the head instead of a quarter, the difference the column's LM-head bytes show.
        auto *lmHead = child<QComboBox>(QStringLiteral("enable-dp-lm-headCombo0"));
        QVERIFY(lmHead->isEnabled());
        QVERIFY(child<QComboBox>(QStringLiteral("moe-dense-tp-sizeCombo0"))->isEnabled());
        choose(lmHead, QStringLiteral("true"));
        QCOMPARE(view()->columns().at(0).value(QStringLiteral("enable-dp-lm-head")), QStringLiteral("true"));
        QVERIFY(waitForComparison());
        const Comparison perGroup = expected();
        checkTable(perGroup);
        const MemoryPlan &headPerGroup = perGroup.columns.at(0).plan;
        QVERIFY(headPerGroup.lmHeadByAttentionGroup);
        QCOMPARE(headPerGroup.weights.byComponent[int(Component::LmHead)],
                 2 * plan.weights.byComponent[int(Component::LmHead)]);
        // Qwen3-30B-A3B has no dense layers: whole dense MLPs change nothing, and the column says so.
        choose(child<QComboBox>(QStringLiteral("moe-dense-tp-sizeCombo0")), QStringLiteral("1"));
        QCOMPARE(view()->columns().at(0).value(QStringLiteral("moe-dense-tp-size")), QStringLiteral("1"));
        QVERIFY(waitForComparison());
        QVERIFY(!expected().columns.at(0).plan.denseLayerMlpsWhole);
        // The knob rows name SGLang's flags: its LoRA slots are --max-loras-per-batch.
        const int loraRow = int(columnKnobs().indexOf(ScenarioField::MaxLoras));
        QVERIFY(
            table()->verticalHeaderItem(loraRow)->text().contains(QStringLiteral("--max-loras-per-batch")));
        // Back under vLLM its own rows return and SGLang's go; folded, every knob row is hidden.
        Scenario vllm = m_window->controller()->scenario();
        vllm.engine = Engine::Vllm;
        vllm.dataParallelSize = 1;
        vllm.enableDpAttention = false;
        vllm.enableDpLmHead = false;
        vllm.moeDenseTpSize = 0;
        view()->setColumns({}); // the column's attention groups are SGLang's
        QVERIFY(m_window->controller()->setScenario(vllm));
        child<QPushButton>(QStringLiteral("addColumnButton"))->click();
        QVERIFY(waitForComparison());
        QVERIFY(rowShown(ScenarioField::EnableExpertParallel) && rowShown(ScenarioField::EnableEplb));
        for (const ScenarioField knob : {ScenarioField::EnableDpAttention, ScenarioField::EnableDpLmHead,
                                         ScenarioField::MoeDenseTpSize, ScenarioField::ExpertParallelSize})
            QVERIFY(!rowShown(knob));
        view()->setKnobsShown(false);
        for (const ScenarioField knob : columnKnobs())
            QVERIFY(!rowShown(knob));
        view()->setKnobsShown(true);
        QVERIFY(rowShown(ScenarioField::EnableExpertParallel) && !rowShown(ScenarioField::EnableDpAttention));
    }

    void columnsPersistInScenarioFilesAndSettings()
    {
        child<QPushButton>(QStringLiteral("seedPresetButton"))->click();
        QVERIFY(view()->setColumnValue(3, ScenarioField::GroupSize, QStringLiteral("64")));
        const QList<ScenarioValues> columns = view()->columns();
        QCOMPARE(m_window->session()->comparison(), columns);

        // Saved with the scenario file: exactly the columns' values.
        const QString path = m_dir.filePath(QStringLiteral("compare.kvscope"));
        m_window->session()->save(path);
        QCOMPARE(readScenarioFile(path).comparison, columns);
        view()->setColumns({});
        QVERIFY(m_window->openScenarioFile(path));
        QCOMPARE(view()->columns(), columns);
        QVERIFY(waitForComparison());
        checkTable(expected());
        QCOMPARE(view()->currentComparison()->columns.at(3).plan.quantization.groupSize, 64);

        // A column changed since the file was saved marks it modified.
        QVERIFY(!m_window->session()->isModified());
        child<QPushButton>(QStringLiteral("removeColumnButton3"))->click();
        QVERIFY(m_window->session()->isModified());

        // And restored from the settings at the next start.
        m_window->saveSettings();
        m_window.reset();
        m_window = test::openWindow();
        QCOMPARE(view()->columns(), columns.mid(0, 3));
        QVERIFY(m_window->restoreProblems().isEmpty());
    }

    void badSavedColumnIsDroppedAndReported()
    {
        appsettings::saveComparison({{{QStringLiteral("kv-cache-dtype"), QStringLiteral("fp9")}},
                                     {{QStringLiteral("kv-cache-dtype"), QStringLiteral("fp8")}}});
        m_window.reset();
        m_window = test::openWindow();
        QCOMPARE(view()->columns().size(), 1);
        QCOMPARE(view()->columns().first().value(QStringLiteral("kv-cache-dtype")), QStringLiteral("fp8"));
        QCOMPARE(m_window->restoreProblems().size(), 1);
        QVERIFY2(m_window->restoreProblems().first().contains(QStringLiteral("compare/columns")),
                 qPrintable(m_window->restoreProblems().first()));
        QVERIFY(m_window->restoreProblems().first().contains(QStringLiteral("fp9")));
    }

    void aChangeMidRunCancelsIt()
    {
        QSignalSpy shown(view(), &CompareView::comparisonShown);
        ComparisonRunner *runner = view()->runner();
        // The first comparison (the seed question the view opens on) simulates every format
        // (seconds): still running when the knob changes.
        QVERIFY(runner->isRunning());
        QVERIFY(view()->setColumnValue(3, ScenarioField::KvCacheDtype, QStringLiteral("auto")));
        QCOMPARE(runner->startedRuns(), 2);
        QCOMPARE(runner->cancelledRuns(), 1);
        QVERIFY(waitForComparison());
        // Only the second run's comparison reached the screen, and it is the new columns'.
        QCOMPARE(shown.count(), 1);
        QCOMPARE(view()->currentComparison()->columns.at(3).plan.kvCacheDtype, KvCacheDtype::Float16);
        checkTable(expected());
        // While it runs, the old table stays: a change of batch keeps the figures on screen.
        m_window->controller()->setBatchSize(8);
        QVERIFY(!view()->currentComparison());
        QCOMPARE(table()->rowCount(), CompareView::FirstFigureRow + 15);
        QVERIFY(view()->shownComparison().has_value());
        QVERIFY(waitForComparison());
        QCOMPARE(view()->currentComparison()->columns.first().plan.batchSize, 8);
    }

    void quantizationViewTakesTheScenario()
    {
        m_window->controller()->setQuantization(defaultSpecFor(QuantMethod::Awq));
        QVERIFY(m_window->showView(QStringLiteral("quantization")));
        QuantizationView *quant = m_window->quantization();
        const QuantSettings before = quant->settings();
        child<QPushButton>(QStringLiteral("fromScenarioButton"))->click();
        const QuantSettings after = quant->settings();
        // AWQ int4 in groups of 128 on a synthetic o_proj of Llama-3.1-8B, [4096, 4096].
        QCOMPARE(after.schemes.names, QStringList{QStringLiteral("awq-int4")});
        QCOMPARE(after.schemes.groupSize, 128);
        QVERIFY(after.source.synthetic);
        QCOMPARE(after.source.spec.kind, quant::SyntheticKind::StudentT);
        QCOMPARE(after.source.spec.rows, 4096);
        QCOMPARE(after.source.spec.cols, 4096);
        QCOMPARE(after.schemes.bins, before.schemes.bins); // the view's own settings stay
        auto *note = child<QLabel>(QStringLiteral("scenarioNote"));
        QVERIFY(note->isVisibleTo(quant));
        QVERIFY2(note->text().contains(QStringLiteral("model.layers.0.self_attn.o_proj.weight")),
                 qPrintable(note->text()));
        // It runs the simulation of what it chose.
        QVERIFY(QTest::qWaitFor([quant] { return !quant->isBusy() && quant->outcome().has_value(); },
                                test::BackgroundWorkTimeoutMs));
        QCOMPARE(quant->outcome()->results.size(), 1);
        QCOMPARE(quant->outcome()->results.constFirst().scheme.id(), QStringLiteral("awq-int4-g128"));
        // An edit of the view's own makes the note go.
        quant->applySettings(before);
        QVERIFY(!note->isVisibleTo(quant));

        // A format without a scheme in the simulator: refused with the core's message, settings kept.
        QuantizationSpec nvfp4 = defaultSpecFor(QuantMethod::CompressedTensors);
        nvfp4.floatWeights = true;
        nvfp4.bits = 4;
        nvfp4.groupSize = 16;
        nvfp4.scheme = QStringLiteral("NVFP4");
        m_window->controller()->setQuantization(nvfp4);
        child<QPushButton>(QStringLiteral("fromScenarioButton"))->click();
        QCOMPARE(quant->settings().schemes.names, before.schemes.names);
        QVERIFY2(note->text().contains(QStringLiteral("NVFP4")), qPrintable(note->text()));
    }

    void speedCardsAndChartAreTheCores()
    {
        QVERIFY(m_window->showView(QStringLiteral("explorer")));
        m_window->controller()->setBatchSize(32);
        // The same scenario through kvscope calc --json: an independent path to the same figures.
        const test::Run calc = test::runKvscope({QStringLiteral("calc"), QStringLiteral("--json"),
                                                 QStringLiteral("--batch-size"), QStringLiteral("32")});
        QVERIFY2(calc.exitCode == 0, calc.describe().constData());
        const QJsonObject json = QJsonDocument::fromJson(calc.out).object();
        const QLocale locale;
        SpeedPanel *cards = m_window->explorer()->speedPanel();
        QCOMPARE(
            cards->valueLabel(QStringLiteral("decodeTokensPerSecond"))->text(),
            QStringLiteral("%1 tokens/s")
                .arg(formatRate(json.value(QLatin1String("decode_tokens_per_second")).toDouble(), locale)));
        QCOMPARE(
            cards->valueLabel(QStringLiteral("decodePerSequence"))->text(),
            QStringLiteral("%1 tokens/s")
                .arg(formatRate(json.value(QLatin1String("decode_tokens_per_second_per_sequence")).toDouble(),
                                locale)));
        QCOMPARE(cards->valueLabel(QStringLiteral("timeToFirstToken"))->text(),
                 formatDuration(json.value(QLatin1String("prefill_seconds")).toDouble()));
        QCOMPARE(json.value(QLatin1String("decode_bound")).toString(), QStringLiteral("memory"));
        QCOMPARE(cards->valueLabel(QStringLiteral("decodeBound"))->text(), QStringLiteral("memory-bound"));
        QVERIFY(cards->detailLabel(QStringLiteral("decodeTokensPerSecond"))
                    ->text()
                    .contains(formatRate(
                        json.value(QLatin1String("decode_tokens_per_second_ideal")).toDouble(), locale)));

        // The decode chart: the current point is the plan's, each line a curve of speedChartData().
        auto *chart = m_window->explorer()->speedChart();
        const MemoryPlan &plan = m_window->controller()->plan();
        const SpeedChartData data = speedChartData(m_window->controller()->scenario(), plan);
        QCOMPARE(chart->currentPoint()->points(),
                 QList<QPointF>{QPointF(32, plan.speed.decodeTokensPerSecond)});
        QCOMPARE(chart->lines().at(data.currentCurve)->count(),
                 data.curves.at(data.currentCurve).batch.size());
        for (qsizetype i = 0; i < data.curves.at(data.currentCurve).batch.size(); ++i)
            QCOMPARE(chart->lines().at(data.currentCurve)->at(i).y(),
                     data.curves.at(data.currentCurve).tokensPerSecond.at(i));
        QCOMPARE(chart->ridgePoints()->count(),
                 qsizetype(std::count_if(data.curves.begin(), data.curves.end(),
                                         [](const SpeedCurve &c) { return c.ridgeBatch > 0; })));
        // A GPU without a speed figure: the cards say why, with no number.
        GpuSpec gpu = m_window->controller()->scenario().gpu;
        gpu.id = QStringLiteral("custom:test");
        gpu.bandwidthGBs = 0;
        m_window->controller()->setGpu(gpu);
        QVERIFY(!m_window->controller()->plan().speed.available);
        QCOMPARE(cards->valueLabel(QStringLiteral("decodeTokensPerSecond"))->text(), QStringLiteral("—"));
        QVERIFY(!cards->detailLabel(QStringLiteral("decodeTokensPerSecond"))->text().isEmpty());
    }

    void speedCardsOfAServerThatDoesNotStartOrQueues()
    {
        QVERIFY(m_window->showView(QStringLiteral("explorer")));
        SpeedPanel *cards = m_window->explorer()->speedPanel();
        const QStringList keys{QStringLiteral("decodeTokensPerSecond"), QStringLiteral("decodePerSequence"),
                               QStringLiteral("timeToFirstToken"), QStringLiteral("decodeBound")};
        // Llama-3.1-70B in BF16 on one H100: 141 GB of weights against a 72 GB budget. vLLM does
        // not start, so there is no speed to show: a dash and why.
        m_window->controller()->setModel(resolveModel(QStringLiteral("llama-3.1-70b")));
        const MemoryPlan refused = m_window->controller()->plan();
        QVERIFY(!refused.engineStarts);
        QVERIFY(refused.startFailure.contains(QStringLiteral("weights alone")));
        for (const QString &key : keys) {
            QCOMPARE(cards->valueLabel(key)->text(), QStringLiteral("—"));
            QVERIFY2(cards->detailLabel(key)->text().contains(refused.startFailure),
                     qPrintable(cards->detailLabel(key)->text()));
        }

        // Llama-3.1-8B on an RTX 4090 at 8,192 tokens, batch 16: one sequence's KV cache is
        // 8,192 tokens x 131,072 B = 1 GiB, and the pool has room for fewer than 16 of them.
        // The engine starts (one 8,192-token request fits) and decodes as many as it holds.
        m_window->controller()->setModel(resolveModel(QStringLiteral("llama-3.1-8b")));
        m_window->controller()->setGpu(resolveGpu(QStringLiteral("rtx-4090")));
        m_window->controller()->setMaxModelLen(8'192);
        m_window->controller()->setSeqLen(8'192);
        m_window->controller()->setBatchSize(16);
        const MemoryPlan plan = m_window->controller()->plan();
        QVERIFY(plan.engineStarts);
        const std::int64_t held = plan.kv.availableBytes / (8'192LL * 131'072);
        QVERIFY2(held >= 1 && held < 16, qPrintable(QString::number(held)));
        QCOMPARE(plan.speed.batchSize, held);
        QCOMPARE(plan.speed.requestedBatchSize, 16);
        const QString cap = QStringLiteral("speed for %1 sequences: the KV cache holds %1 of 16").arg(held);
        QVERIFY2(cards->detailLabel(QStringLiteral("decodeTokensPerSecond"))->text().contains(cap),
                 qPrintable(cards->detailLabel(QStringLiteral("decodeTokensPerSecond"))->text()));
        // The figure is the decode speed of that many sequences: kvscope calc at that batch.
        const test::Run calc =
            test::runKvscope({QStringLiteral("calc"), QStringLiteral("--json"), QStringLiteral("--gpu"),
                              QStringLiteral("rtx-4090"), QStringLiteral("--max-model-len"),
                              QStringLiteral("8192"), QStringLiteral("--seq-len"), QStringLiteral("8192"),
                              QStringLiteral("--batch-size"), QString::number(held)});
        QVERIFY2(calc.exitCode == 0, calc.describe().constData());
        const QJsonObject json = QJsonDocument::fromJson(calc.out).object();
        QCOMPARE(cards->valueLabel(QStringLiteral("decodeTokensPerSecond"))->text(),
                 QStringLiteral("%1 tokens/s")
                     .arg(formatRate(json.value(QLatin1String("decode_tokens_per_second")).toDouble(),
                                     QLocale())));
    }
};

QTEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
