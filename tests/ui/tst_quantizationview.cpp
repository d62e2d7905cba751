// SPDX-License-Identifier: MIT
// The Quantization view under the offscreen platform, driven through its
// widgets' objectNames: results arrive asynchronously, match the core's
// figures exactly, a newer request wins, a bad file leaves results alone,
// the rendered view is not blank, a live language switch reaches every text
// without touching state or results, and the settings survive a restart
// (garbage and vanished files falling back to the defaults).
#include "core/compare/attentionpicture.h"
#include "core/library/library.h"
#include "core/plan/planner.h"
#include "core/quantization/inspection.h"
#include "core/quantization/quantrun.h"
#include "core/quantization/simulator.h"
#include "core/quantization/synthetic.h"
#include "tests/tensorfiles.h"
#include "tests/ui/uitestsupport.h"
#include "ui/quantization/attentioncharts.h"
#include "ui/quantization/attentionpanel.h"
#include "ui/quantization/errorhistogramchart.h"
#include "ui/quantization/figuresmodel.h"
#include "ui/quantization/quantizationview.h"
#include "ui/quantization/schemecolors.h"
#include "ui/quantization/sourcepicker.h"
#include "ui/quantization/sqnrchart.h"
#include "ui/quantization/valueschart.h"
#include "ui/state/quantsettings.h"
#include "ui/style/theme.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QProgressBar>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTranslator>
#include <QValueAxis>

using namespace kvscope;

namespace {

template <class T> T *child(const QWidget &view, const char *name)
{
    T *found = view.findChild<T *>(QLatin1String(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

void chooseSchemes(const QWidget &view, const QStringList &names)
{
    for (QCheckBox *box : view.findChildren<QCheckBox *>())
        if (box->objectName().startsWith(QLatin1String("scheme_")))
            box->setChecked(names.contains(box->objectName().mid(7)));
}

void setSize(const QWidget &view, int rows, int cols)
{
    child<QSpinBox>(view, "rows")->setValue(rows);
    child<QSpinBox>(view, "cols")->setValue(cols);
}

/// Shows the view wide enough for every panel and asks for a tensor and schemes.
void showWith(QuantizationView &view, int rows, int cols, const QStringList &schemes)
{
    view.resize(1400, 900);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        qFatal("view not exposed");
    setSize(view, rows, cols);
    chooseSchemes(view, schemes);
}

/// Shows the view and starts, at once, a run of seconds (two schemes on 2048 x 2048).
void startLongRun(QuantizationView &view)
{
    view.show();
    chooseSchemes(view, {QStringLiteral("int4"), QStringLiteral("nf4")});
    setSize(view, 2048, 2048);
    view.simulate();
}

bool showing(const QuantizationView &view, std::int64_t rows, int schemes)
{
    return !view.isBusy() && view.outcome() && view.outcome()->tensor.data.rows() == rows &&
           view.outcome()->results.size() == schemes;
}

/// Marks every string the app's own classes ask for: "«source»". Qt's
/// strings stay as they are, and so does any text that bypasses tr().
class MarkingTranslator : public QTranslator
{
public:
    QString translate(const char *context, const char *sourceText, const char *, int) const override
    {
        if (!QByteArray(context).startsWith("kvscope::"))
            return {};
        return marked(QString::fromUtf8(sourceText));
    }
    bool isEmpty() const override { return false; }

    static QString marked(const QString &text) { return QStringLiteral("«") + text + QStringLiteral("»"); }
};

/// Every text the view shows, keyed by widget (objectName, else class, and
/// position among the children) and what the text is.
QMap<QString, QString> visibleTexts(const QWidget &view)
{
    QMap<QString, QString> texts;
    int position = 0;
    for (QWidget *w : view.findChildren<QWidget *>()) {
        const QString name =
            w->objectName().isEmpty() ? QLatin1String(w->metaObject()->className()) : w->objectName();
        const QString where = QStringLiteral("%1#%2 ").arg(name).arg(position++);
        const auto add = [&](const QString &what, const QString &text) {
            if (!text.isEmpty())
                texts.insert(where + what, text);
        };
        add(QStringLiteral("tooltip"), w->toolTip());
        if (auto *label = qobject_cast<QLabel *>(w))
            add(QStringLiteral("text"), label->text());
        if (auto *button = qobject_cast<QAbstractButton *>(w))
            add(QStringLiteral("text"), button->text());
        if (auto *box = qobject_cast<QGroupBox *>(w))
            add(QStringLiteral("title"), box->title());
        if (auto *edit = qobject_cast<QLineEdit *>(w))
            add(QStringLiteral("placeholder"), edit->placeholderText());
        if (auto *spin = qobject_cast<QAbstractSpinBox *>(w))
            add(QStringLiteral("special"), spin->specialValueText());
        if (auto *combo = qobject_cast<QComboBox *>(w))
            for (int i = 0; i < combo->count(); ++i)
                add(QStringLiteral("item%1").arg(i), combo->itemText(i));
        if (auto *table = qobject_cast<QTableView *>(w))
            for (int c = 0; c < table->model()->columnCount(); ++c)
                add(QStringLiteral("header%1").arg(c),
                    table->model()->headerData(c, Qt::Horizontal).toString());
        if (auto *chartView = qobject_cast<QChartView *>(w)) {
            add(QStringLiteral("title"), chartView->chart()->title());
            int i = 0;
            for (QAbstractAxis *axis : chartView->chart()->axes())
                add(QStringLiteral("axis%1").arg(i++), axis->titleText());
            i = 0;
            for (QAbstractSeries *series : chartView->chart()->series()) {
                add(QStringLiteral("series%1").arg(i++), series->name());
                if (auto *bars = qobject_cast<QAbstractBarSeries *>(series))
                    for (QBarSet *set : bars->barSets())
                        add(QStringLiteral("set%1").arg(i++), set->label());
            }
        }
    }
    return texts;
}

/// Texts that are data, not language: format names and the core's scheme
/// descriptions, tensor names, numbers and symbols.
bool isData(const QString &where, const QString &text)
{
    static const QRegularExpression letter(QStringLiteral("\\p{L}"));
    return !text.contains(letter) || where.startsWith(QLatin1String("scheme_")) ||
           where.startsWith(QLatin1String("inspectScheme#")) ||
           where.startsWith(QLatin1String("tensorName#")) ||
           where.startsWith(QLatin1String("attentionFormat#")) || // vLLM's --kv-cache-dtype values
           (where.startsWith(QLatin1String("errorChart#")) && where.contains(QLatin1String(" series")));
}

/// What a user set in the view, by control.
QVariantMap settingsShown(const QWidget &view)
{
    QVariantMap s;
    s[QStringLiteral("synthetic")] = child<QRadioButton>(view, "sourceSynthetic")->isChecked();
    s[QStringLiteral("file")] = child<QRadioButton>(view, "sourceFile")->isChecked();
    s[QStringLiteral("kind")] = child<QComboBox>(view, "syntheticKind")->currentIndex();
    for (const char *name : {"rows", "cols", "seed", "bins"})
        s[QLatin1String(name)] = child<QSpinBox>(view, name)->value();
    s[QStringLiteral("std")] = child<QDoubleSpinBox>(view, "std")->value();
    s[QStringLiteral("path")] = child<QLineEdit>(view, "filePath")->text();
    s[QStringLiteral("tensor")] = child<QComboBox>(view, "tensorName")->currentData();
    for (QCheckBox *box : view.findChildren<QCheckBox *>())
        s[box->objectName()] = box->isChecked(); // schemes, FP8 switches, log counts
    s[QStringLiteral("groupSize")] = child<QSlider>(view, "groupSize")->value();
    s[QStringLiteral("errorKind")] = child<QComboBox>(view, "errorKind")->currentIndex();
    return s;
}

void compareSettings(const QVariantMap &actual, const QVariantMap &expected)
{
    QCOMPARE(actual.keys(), expected.keys());
    for (auto it = expected.cbegin(); it != expected.cend(); ++it)
        QVERIFY2(actual[it.key()] == it.value(),
                 qPrintable(QStringLiteral("%1: %2, expected %3")
                                .arg(it.key(), actual[it.key()].toString(), it.value().toString())));
}

/// The figures table's texts, row by row.
QStringList figureTexts(const QWidget &view)
{
    const QAbstractItemModel *model = child<QTableView>(view, "figuresTable")->model();
    QStringList texts;
    for (int r = 0; r < model->rowCount(); ++r)
        for (int c = 0; c < model->columnCount(); ++c)
            texts << model->index(r, c).data().toString();
    return texts;
}

QVariantMap defaultSettings()
{
    appsettings::reset();
    const QuantizationView view;
    return settingsShown(view);
}

} // namespace

class TestQuantizationView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { test::isolateSettings(QStringLiteral("tst_quantizationview")); }

    /// Every test starts from the defaults, whatever the one before saved.
    void init() { appsettings::reset(); }

    void figuresMatchTheCore()
    {
        QuantizationView view;
        showWith(view, 256, 384, {QStringLiteral("fp8-e4m3"), QStringLiteral("int4"), QStringLiteral("nf4")});
        child<QSpinBox>(view, "seed")->setValue(3);
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 256, 3), 20000);

        QCOMPARE(child<ErrorHistogramChart>(view, "errorChart")->seriesCount(), 3);
        QCOMPARE(child<SqnrChart>(view, "sqnrChart")->barCount(), 3);

        // The same tensor and schemes through the core directly.
        quant::SyntheticSpec spec;
        spec.rows = 256;
        spec.cols = 384;
        spec.seed = 3;
        const quant::TensorData tensor = quant::generateSynthetic(spec);
        const quant::TensorStats stats = quant::scanTensor(tensor);
        const QAbstractItemModel *model = child<QTableView>(view, "figuresTable")->model();
        QCOMPARE(model->rowCount(), 3);
        const QStringList ids{QStringLiteral("fp8-e4m3"), QStringLiteral("int4-g128"), QStringLiteral("nf4")};
        for (int row = 0; row < 3; ++row) {
            quant::SimulationOptions options;
            options.bins = child<QSpinBox>(view, "bins")->value();
            const quant::SchemeResult core =
                quant::simulateScheme(tensor, stats, quant::parseScheme(ids[row]), options);
            QCOMPARE(model->index(row, FiguresModel::Scheme).data().toString(), ids[row]);
            QCOMPARE(model->index(row, FiguresModel::SqnrDb).data(Qt::UserRole).toDouble(),
                     core.metrics.sqnrDb);
            QCOMPARE(model->index(row, FiguresModel::Mse).data(Qt::UserRole).toDouble(), core.metrics.mse);
            QCOMPARE(model->index(row, FiguresModel::BitsPerWeight).data(Qt::UserRole).toDouble(),
                     core.bitsPerWeight);
        }
        // Each SQNR bar is labelled with its value as the table writes it (2 decimals: 20.00 once
        // showed as "20" beside "20.7").
        QStringList drawn;
        SqnrChart *sqnr = child<SqnrChart>(view, "sqnrChart");
        QApplication::processEvents();
        for (const QGraphicsItem *item : sqnr->scene()->items()) {
            if (!item->isVisible())
                continue;
            if (const auto *simple = dynamic_cast<const QGraphicsSimpleTextItem *>(item))
                drawn << simple->text();
            if (const auto *rich = dynamic_cast<const QGraphicsTextItem *>(item))
                drawn << rich->toPlainText();
        }
        for (int row = 0; row < 3; ++row) {
            const QString table = model->index(row, FiguresModel::SqnrDb).data().toString();
            QVERIFY2(drawn.contains(table),
                     qPrintable(table + QStringLiteral(" not among ") + drawn.join(u' ')));
        }

        // The inspector shows the core's worked example for row 3, group 1, weight 5,
        // and the values chart draws that group's 16 grid values.
        child<QSpinBox>(view, "inspectRow")->setValue(3);
        child<QSpinBox>(view, "inspectGroup")->setValue(1);
        child<QSpinBox>(view, "inspectWeight")->setValue(5);
        const quant::GroupInspection group =
            quant::inspectGroup(tensor, quant::parseScheme(QStringLiteral("int4")), 3, 1, 5);
        QCOMPARE(child<QLabel>(view, "workedExample")->text(),
                 QStringLiteral("w′ = ") + group.workedExample());
        QCOMPARE(child<ValuesChart>(view, "valuesChart")->gridLines(), 16);

        // In the window at 1280 x 800 (the view 1280 x 740) every column of the group's table is in
        // view and as wide as its widest cell: w′ was cut.
        view.resize(1280, 740);
        QApplication::processEvents();
        auto *table = child<QTableWidget>(view, "groupTable");
        const QHeaderView *header = table->horizontalHeader();
        QVERIFY2(header->length() <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 px of columns in %2 px")
                                .arg(header->length())
                                .arg(table->viewport()->width())));
        for (int c = 0; c < table->columnCount(); ++c)
            for (int r = 0; r < table->rowCount(); ++r) {
                const int text = table->fontMetrics().horizontalAdvance(table->item(r, c)->text());
                QVERIFY2(header->sectionSize(c) >= text,
                         qPrintable(QStringLiteral("column %1: %2 px for '%3'")
                                        .arg(c)
                                        .arg(header->sectionSize(c))
                                        .arg(table->item(r, c)->text())));
            }

        // Drawn, not blank: the charts hold many colours (series, labels, grid).
        QCoreApplication::processEvents();
        QVERIFY(test::colourCount(child<ErrorHistogramChart>(view, "errorChart")->grab().toImage()) > 20);
        QVERIFY(test::colourCount(child<ValuesChart>(view, "valuesChart")->grab().toImage()) > 20);
        QVERIFY(test::colourCount(view.grab().toImage()) > 50);
    }

    void outputSqnrOfTheLayerInTheTable()
    {
        // Without activations (round-to-nearest alone) the output column says "—"; a W8A8 scheme
        // brings the synthetic activations, and the table gives every scheme's layer output as the
        // core computes it: int8 with its activations quantized per token below int8 weight-only.
        QuantizationView view;
        showWith(view, 128, 256, {QStringLiteral("int8")});
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 128, 1), 20000);
        const QAbstractItemModel *model = child<QTableView>(view, "figuresTable")->model();
        QCOMPARE(model->index(0, FiguresModel::OutputSqnrDb).data().toString(), QStringLiteral("—"));
        QVERIFY(!child<QCheckBox>(view, "scheme_int8+a-int8-token")->text().contains(QLatin1Char('+')));
        chooseSchemes(view, {QStringLiteral("int8"), QStringLiteral("int8+a-int8-token")});
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() == 2 && !view.isBusy(), 20000);
        quant::QuantRequest request;
        quant::SyntheticSpec spec;
        spec.rows = 128;
        spec.cols = 256;
        request.source = spec;
        request.schemes = {quant::parseScheme(QStringLiteral("int8")),
                           quant::parseScheme(QStringLiteral("int8+a-int8-token"))};
        request.options.bins = child<QSpinBox>(view, "bins")->value();
        const quant::QuantOutcome core = quant::runQuantization(request);
        for (int row = 0; row < 2; ++row)
            QCOMPARE(model->index(row, FiguresModel::OutputSqnrDb).data(Qt::UserRole).toDouble(),
                     *core.results.at(row).outputSqnrDb);
        QVERIFY(model->index(1, FiguresModel::OutputSqnrDb).data(Qt::UserRole).toDouble() <
                model->index(0, FiguresModel::OutputSqnrDb).data(Qt::UserRole).toDouble());
        QCOMPARE(model->headerData(FiguresModel::OutputSqnrDb, Qt::Horizontal).toString(),
                 QStringLiteral("Output SQNR (dB)"));
    }

    void displayOptionsRedrawWithoutRerun()
    {
        QuantizationView view;
        showWith(view, 64, 256, {QStringLiteral("int8"), QStringLiteral("mxfp4")});
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 64, 2), 20000);
        auto *chart = child<ErrorHistogramChart>(view, "errorChart");
        QCOMPARE(chart->chart()->axes(Qt::Vertical).first()->type(), QAbstractAxis::AxisTypeLogValue);
        child<QCheckBox>(view, "logY")->setChecked(false);
        QCOMPARE(chart->chart()->axes(Qt::Vertical).first()->type(), QAbstractAxis::AxisTypeValue);
        child<QComboBox>(view, "errorKind")->setCurrentIndex(1);
        QCOMPARE(chart->seriesCount(), 2);
        QVERIFY(!view.isBusy()); // display options redraw; nothing is simulated again
    }

    // The histogram's x ticks follow the plot's width, and their labels move the plot by a few pixels:
    // at some widths five ticks left room for four and four for five, each choice laying the chart out
    // again inside the last (a stack overflow, at 1280 x 800 once the controls' column grew). Every
    // width settles on one count.
    void histogramTicksSettleAtEveryWidth()
    {
        QuantizationView view;
        showWith(view, 64, 256, {QStringLiteral("int8"), QStringLiteral("mxfp4")});
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 64, 2), 20000);
        auto *chart = child<ErrorHistogramChart>(view, "errorChart");
        chart->setMinimumSize(0, 0);
        auto *x = qobject_cast<QValueAxis *>(chart->chart()->axes(Qt::Horizontal).first());
        QVERIFY(x);
        for (int width = 240; width <= 720; ++width) {
            chart->resize(width, 320);
            QApplication::processEvents();
            const int ticks = x->tickCount();
            QApplication::processEvents();
            QCOMPARE(x->tickCount(), ticks);
            QVERIFY2(ticks >= 3 && ticks <= 5, qPrintable(QString::number(ticks)));
        }
    }

    void newerRequestWins()
    {
        QuantizationView view;
        startLongRun(view); // then superseded
        setSize(view, 96, 128);
        view.simulate();
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 96, 2), 20000);
        QTest::qWait(300);
        QCOMPARE(view.outcome()->tensor.data.rows(), 96); // the 2048-row run never lands
    }

    // Before the fix clearing the schemes or the tensor left the run going: when
    // it ended, its figures replaced the status that asked for a scheme or a
    // tensor.
    void clearingTheSchemesOrTheTensorCancelsTheRun_data()
    {
        QTest::addColumn<QString>("cleared");
        QTest::addColumn<QString>("status");
        QTest::newRow("schemes") << QStringLiteral("schemes") << QStringLiteral("Pick at least one scheme.");
        QTest::newRow("tensor") << QStringLiteral("tensor")
                                << QStringLiteral("Pick a file and one of its tensors.");
    }

    void clearingTheSchemesOrTheTensorCancelsTheRun()
    {
        QFETCH(QString, cleared);
        QFETCH(QString, status);
        QuantizationView view;
        startLongRun(view);
        auto *progress = child<QProgressBar>(view, "progress");
        QVERIFY(view.isBusy());
        QVERIFY(progress->isVisibleTo(&view));
        if (cleared == QLatin1String("schemes"))
            chooseSchemes(view, {});
        else
            child<QRadioButton>(view, "sourceFile")->setChecked(true); // no file: no tensor
        view.simulate();
        QCOMPARE(child<QLabel>(view, "status")->text(), status);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), test::BackgroundWorkTimeoutMs);
        QTest::qWait(300);
        QCOMPARE(child<QLabel>(view, "status")->text(), status);
        QVERIFY(!view.outcome());
        QVERIFY(!progress->isVisibleTo(&view));
    }

    void badTensorKeepsResults()
    {
        QuantizationView view;
        view.show();
        setSize(view, 32, 64);
        chooseSchemes(view, {QStringLiteral("int8")});
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 32, 1), 20000);

        // A valid file whose tensor holds NaN: the scan refuses it.
        const QString path = test::writeFile(
            m_dir, QStringLiteral("nan.safetensors"),
            test::safetensorsBytes(R"({"w": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}})",
                                   test::floatBytes({1.0f, NAN})));
        QSignalSpy failed(&view, &QuantizationView::failed);
        child<QLineEdit>(view, "filePath")->setText(path);
        QMetaObject::invokeMethod(child<QLineEdit>(view, "filePath"), "editingFinished");
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY(failed.first().first().toString().contains(QLatin1String("non-finite")));
        QVERIFY(child<QLabel>(view, "status")->text().contains(QLatin1String("non-finite")));
        QCOMPARE(view.outcome()->tensor.data.rows(), 32); // still the last good results

        // An unreadable file is reported under the path and nothing runs.
        child<QLineEdit>(view, "filePath")->setText(m_dir.filePath(QStringLiteral("missing.npy")));
        QMetaObject::invokeMethod(child<QLineEdit>(view, "filePath"), "editingFinished");
        QVERIFY(child<QLabel>(view, "fileMessage")->isVisibleTo(&view));
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), test::BackgroundWorkTimeoutMs);
        QCOMPARE(failed.count(), 1);
    }

    void switchesLanguageLive()
    {
        QuantizationView view;
        showWith(view, 64, 256, {QStringLiteral("fp8-e4m3"), QStringLiteral("int8"), QStringLiteral("int4")});
        auto *groupSize = child<QSlider>(view, "groupSize");
        groupSize->setValue(groupSize->maximum()); // one group per row: its label is a word
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 64, 3), 20000);
        child<QComboBox>(view, "errorKind")->setCurrentIndex(1);
        child<QSpinBox>(view, "inspectRow")->setValue(3);
        child<QSpinBox>(view, "inspectWeight")->setValue(5);

        const QMap<QString, QString> before = visibleTexts(view);
        const QVariantMap settings = settingsShown(view);
        const QStringList figures = figureTexts(view);
        auto *chart = child<ErrorHistogramChart>(view, "errorChart");
        auto *form = qobject_cast<QFormLayout *>(view.findChild<SourcePicker *>()->layout());
        auto *kindLabel =
            qobject_cast<QLabel *>(form->labelForField(child<QComboBox>(view, "syntheticKind")));
        QVERIFY(kindLabel);
        const QAbstractItemModel *model = child<QTableView>(view, "figuresTable")->model();
        const QString status = child<QLabel>(view, "status")->text();
        const QString example = child<QLabel>(view, "workedExample")->text();
        const QString title = chart->chart()->title();
        const QString header = model->headerData(FiguresModel::Scheme, Qt::Horizontal).toString();
        const QString kindText = kindLabel->text();
        const QString errorKindText = child<QComboBox>(view, "errorKind")->itemText(1);
        const double sqnr = view.outcome()->results.at(2).metrics.sqnrDb;
        QSignalSpy rerun(&view, &QuantizationView::resultsShown);
        QSignalSpy headers(model, &QAbstractItemModel::headerDataChanged); // the header repaints

        MarkingTranslator marker;
        QCoreApplication::installTranslator(&marker);
        QTRY_COMPARE(child<QLabel>(view, "status")->text(), MarkingTranslator::marked(status));
        QCOMPARE(child<QLabel>(view, "workedExample")->text(), MarkingTranslator::marked(example));
        QCOMPARE(chart->chart()->title(), MarkingTranslator::marked(title));
        QCOMPARE(model->headerData(FiguresModel::Scheme, Qt::Horizontal).toString(),
                 MarkingTranslator::marked(header));
        QCOMPARE(kindLabel->text(), MarkingTranslator::marked(kindText));
        QCOMPARE(child<QComboBox>(view, "errorKind")->itemText(1), MarkingTranslator::marked(errorKindText));
        QVERIFY(headers.count() > 0);
        // The grid's legend entry and the unit it names (made by the view) both follow.
        const QList<QAbstractSeries *> values = child<ValuesChart>(view, "valuesChart")->chart()->series();
        QCOMPARE(values.last()->name().count(QStringLiteral("«")), 2);

        // Every other text follows too, except what is data.
        const QMap<QString, QString> during = visibleTexts(view);
        QCOMPARE(during.keys(), before.keys());
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            const QString now = during[it.key()];
            if (isData(it.key(), it.value()))
                QCOMPARE(now, it.value());
            else
                QVERIFY2(now.startsWith(QStringLiteral("«")),
                         qPrintable(it.key() + QStringLiteral(": ") + now));
        }

        // Nothing was chosen or simulated again.
        compareSettings(settingsShown(view), settings);
        QCOMPARE(child<QSpinBox>(view, "inspectRow")->value(), 3);
        QCOMPARE(child<QSpinBox>(view, "inspectWeight")->value(), 5);
        QCOMPARE(figureTexts(view), figures);
        QTest::qWait(300); // longer than the view's debounce
        QVERIFY(!view.isBusy());
        QCOMPARE(rerun.count(), 0);
        QCOMPARE(view.outcome()->results.at(2).metrics.sqnrDb, sqnr);

        // And back: exactly the texts there were.
        QCoreApplication::removeTranslator(&marker);
        QTRY_COMPARE(child<QLabel>(view, "status")->text(), status);
        QCOMPARE(visibleTexts(view), before);
    }

    void chartsFollowADarkPalette()
    {
        QuantizationView view;
        showWith(view, 64, 256, {QStringLiteral("int8"), QStringLiteral("mxfp4")});
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 64, 2), 20000);
        auto *errors = child<ErrorHistogramChart>(view, "errorChart");
        QList<QColor> pens;
        for (QAbstractSeries *series : errors->chart()->series())
            pens << qobject_cast<QLineSeries *>(series)->pen().color();

        // The palette changes while the charts exist, as when the system turns dark.
        const QPalette original = QApplication::palette();
        const QPalette dark = theme::darkPalette();
        QApplication::setPalette(dark);
        QApplication::processEvents();
        const QColor base = dark.color(QPalette::Base);
        for (const char *name : {"errorChart", "valuesChart", "sqnrChart"}) {
            auto *chartView = child<QChartView>(view, name);
            QCOMPARE(chartView->chart()->backgroundBrush().color(), base);
            // Most of the chart is drawn in the background colour; white is at most a bar's label.
            const QImage image = chartView->grab().toImage();
            const double sampled = double(image.width()) * double(image.height());
            const double background = test::pixelsNear(image, base) / sampled;
            const double white = test::pixelsNear(image, Qt::white) / sampled;
            QVERIFY2(background > 0.6 && white < 0.001,
                     qPrintable(QStringLiteral("%1: %2 background, %3 white")
                                    .arg(QLatin1String(name))
                                    .arg(background)
                                    .arg(white)));
        }
        if (qEnvironmentVariableIsSet("KVSCOPE_TEST_SCREENSHOTS"))
            view.grab().save(qEnvironmentVariable("KVSCOPE_TEST_SCREENSHOTS") +
                             QStringLiteral("/quantization-dark.png"));
        // The schemes keep their colours through the dark theme, except what would vanish on it.
        QList<QColor> darkPens;
        for (QAbstractSeries *series : errors->chart()->series())
            darkPens << qobject_cast<QLineSeries *>(series)->pen().color();
        QCOMPARE(darkPens.size(), 2);
        QCOMPARE(darkPens.first(), pens.first());   // int8 green
        QVERIFY(darkPens.last().lightness() > 128); // mxfp4 is black on light, light on dark
        QApplication::setPalette(original);
    }

    void screenshotShowsTheResults()
    {
        // kvscope --screenshot waits for the simulator: the int8 curve is in the picture.
        QTemporaryDir config;
        const QString png = config.filePath(QStringLiteral("quantization.png"));
        const test::WindowRun run = test::runWindow(
            config,
            {QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("1200x800"),
             QStringLiteral("--view"), QStringLiteral("quantization")},
            "[quantization]\nsynthetic\\rows=64\nsynthetic\\cols=256\nschemes=int8\n");
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1200, 800));
        const QColor int8 = schemeColor(quant::parseScheme(QStringLiteral("int8")), QApplication::palette());
        QVERIFY(test::pixelsNear(image, int8) > 200); // the curve, not only its legend entry

        // A picture that cannot be written: exit 1, and why.
        const QString nowhere = config.filePath(QStringLiteral("no/such/folder/x.png"));
        const test::WindowRun unwritable = test::runWindow(config, {QStringLiteral("--screenshot"), nowhere});
        QCOMPARE(unwritable.exitCode, 1);
        QVERIFY2(unwritable.err.contains(nowhere.toUtf8() + ": cannot write: No such file or directory"),
                 unwritable.err.constData());
    }

    void settingsSurviveARestart()
    {
        const QVariantMap defaults = defaultSettings();
        QVariantMap changed;
        {
            QuantizationView view;
            // Display options first: they save at once, the rest is left to the view's end.
            child<QCheckBox>(view, "logY")->toggle();
            child<QComboBox>(view, "errorKind")->setCurrentIndex(1);
            child<QComboBox>(view, "syntheticKind")->setCurrentIndex(2);
            setSize(view, 48, 80);
            child<QSpinBox>(view, "seed")->setValue(7);
            child<QDoubleSpinBox>(view, "std")->setValue(0.05);
            chooseSchemes(view, {QStringLiteral("bf16"), QStringLiteral("int3"), QStringLiteral("nf4")});
            child<QSlider>(view, "groupSize")->setValue(1);
            child<QSpinBox>(view, "bins")->setValue(300);
            child<QCheckBox>(view, "fp8Saturate")->toggle();
            child<QCheckBox>(view, "fp8UnitScale")->toggle();
            changed = settingsShown(view);
        }
        // Each control moved, so a setting the restart dropped would show.
        for (const char *key :
             {"kind", "rows", "cols", "seed", "std", "scheme_bf16", "scheme_int3", "scheme_int4", "groupSize",
              "bins", "fp8Saturate", "fp8UnitScale", "logY", "errorKind"})
            QVERIFY2(changed[QLatin1String(key)] != defaults[QLatin1String(key)], key);

        const QuantizationView restored;
        compareSettings(settingsShown(restored), changed);
    }

    void fileSourceSurvivesARestart()
    {
        const QString path = test::writeFile(
            m_dir, QStringLiteral("two.safetensors"),
            test::safetensorsBytes(R"({"a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},)"
                                   R"( "b": {"dtype": "F32", "shape": [4, 2], "data_offsets": [24, 56]}})",
                                   test::floatBytes({1, 2, 3, 4, 5, 6, 1, -1, 2, -2, 3, -3, 4, -4})));
        {
            QuantizationView view;
            setSize(view, 24, 40);
            chooseSchemes(view, {QStringLiteral("int8")});
            child<QLineEdit>(view, "filePath")->setText(path);
            QMetaObject::invokeMethod(child<QLineEdit>(view, "filePath"), "editingFinished");
            auto *tensor = child<QComboBox>(view, "tensorName");
            QCOMPARE(tensor->currentData().toString(), QStringLiteral("a")); // not by chance below
            tensor->setCurrentIndex(tensor->findData(QStringLiteral("b")));
        }
        {
            QuantizationView view;
            view.show();
            QVERIFY(child<QRadioButton>(view, "sourceFile")->isChecked());
            QCOMPARE(child<QLineEdit>(view, "filePath")->text(), path);
            QCOMPARE(child<QComboBox>(view, "tensorName")->currentData().toString(), QStringLiteral("b"));
            QTRY_VERIFY_WITH_TIMEOUT(showing(view, 4, 1), 20000);
            QCOMPARE(view.outcome()->tensor.data.cols(), 2);
        }

        // The file goes away: the synthetic settings take over, quietly.
        QVERIFY(QFile::remove(path));
        QuantizationView view;
        view.show();
        QSignalSpy failed(&view, &QuantizationView::failed);
        QVERIFY(child<QRadioButton>(view, "sourceSynthetic")->isChecked());
        QCOMPARE(child<QLineEdit>(view, "filePath")->text(), path); // kept for the user to see
        QVERIFY(!child<QLabel>(view, "fileMessage")->isVisibleTo(&view));
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 24, 1), 20000);
        QCOMPARE(view.outcome()->tensor.data.cols(), 40);
        QCOMPARE(failed.count(), 0);
        for (QWidget *w : QApplication::topLevelWidgets())
            QVERIFY(!(qobject_cast<QDialog *>(w) && w->isVisible()));
    }

    void corruptSettingsFallBack()
    {
        QVariantMap expected = defaultSettings();
        {
            QSettings settings;
            settings.setValue(QStringLiteral("quantization/source"), QStringLiteral("banana"));
            settings.setValue(QStringLiteral("quantization/synthetic/kind"), QStringLiteral("cauchy"));
            settings.setValue(QStringLiteral("quantization/synthetic/rows"), -3);
            settings.setValue(QStringLiteral("quantization/synthetic/cols"), 99999);
            settings.setValue(QStringLiteral("quantization/synthetic/seed"), QStringLiteral("seven"));
            settings.setValue(QStringLiteral("quantization/synthetic/std"), QStringLiteral("nan"));
            settings.setValue(QStringLiteral("quantization/schemes"),
                              QStringList{QStringLiteral("int4"), QStringLiteral("int5")});
            settings.setValue(QStringLiteral("quantization/groupSize"), 100);
            settings.setValue(QStringLiteral("quantization/fp8Saturate"), QStringLiteral("maybe"));
            settings.setValue(QStringLiteral("quantization/fp8UnitScale"), QStringLiteral("yes"));
            settings.setValue(QStringLiteral("quantization/histogram"), QStringLiteral("sideways"));
            settings.setValue(QStringLiteral("quantization/logY"), QVariantList{1, 2});
            // One good value among the bad: it is kept.
            settings.setValue(QStringLiteral("quantization/bins"), 333);
        }
        expected[QStringLiteral("bins")] = 333;
        const QuantizationView view;
        compareSettings(settingsShown(view), expected);
        QVERIFY(!child<QLabel>(view, "fileMessage")->isVisibleTo(&view));

        // Each unusable value is reported once, by key and value; the good one is not.
        const QStringList problems = view.restoreProblems();
        const QString all = problems.join(QLatin1Char('\n'));
        for (const char *line :
             {"quantization/source = 'banana' ignored", "quantization/synthetic/kind = 'cauchy' ignored",
              "quantization/synthetic/rows = '-3' ignored", "quantization/synthetic/cols = '99999' ignored",
              "quantization/synthetic/seed = 'seven' ignored", "quantization/synthetic/std = 'nan' ignored",
              "quantization/schemes = 'int4, int5' ignored: no scheme 'int5'",
              "quantization/groupSize = '100' ignored", "quantization/fp8Saturate = 'maybe' ignored",
              "quantization/fp8UnitScale = 'yes' ignored", "quantization/histogram = 'sideways' ignored",
              "quantization/logY = '[1, 2]' ignored"})
            QVERIFY2(all.contains(QLatin1String(line)),
                     qPrintable(QLatin1String(line) + QStringLiteral("\nin\n") + all));
        QCOMPARE(problems.size(), 12);
        QVERIFY(!all.contains(QLatin1String("quantization/bins")));
    }

    void attentionTabDrawsTheCoresPicture()
    {
        QuantizationView view;
        view.resize(1280, 800);
        view.show();
        AttentionPanel *panel = view.attention();
        // A hidden tab draws nothing: the simulator's page is in front.
        QVERIFY(!panel->picture() && !panel->isBusy());
        view.showAttention();
        QTRY_VERIFY_WITH_TIMEOUT(panel->picture() && !panel->isBusy(), test::BackgroundWorkTimeoutMs);
        // The window's seed model until it hands over the explorer's: Llama-3.1-8B, FP8 E4M3 at
        // the engine's scale, a query on the keys' outlier channels over 64 tokens.
        const ModelArch llama = *ModelLibrary::builtin().find(QStringLiteral("llama-3.1-8b"));
        const AttentionPicture core =
            attentionPicture(llama, WeightDtype::BFloat16, AttentionPictureChoices());
        QCOMPARE(panel->picture()->weights.quantizedWeights, core.weights.quantizedWeights);
        QCOMPARE(child<QLabel>(view, "attentionFigures")->text(), attentionPictureFigures(core));
        // The bars are the core's weights: token t's bar stands at its weight.
        const auto *bars = qobject_cast<QAreaSeries *>(
            child<AttentionWeightsChart>(view, "attentionWeightsChart")->chart()->series().at(1));
        const QList<QPointF> upper = bars->upperSeries()->points();
        QCOMPARE(upper.size(), 64 * 4);
        QCOMPARE(upper.at(4 * 28 + 1).y(), core.weights.quantizedWeights[28]);
        const auto *errors = qobject_cast<QAreaSeries *>(
            child<LogitErrorChart>(view, "logitErrorChart")->chart()->series().at(0));
        QCOMPARE(errors->upperSeries()->points().at(4 * 5 + 2).y(), core.weights.logitErrors()[5]);

        // A choice redraws: 16 diffuse tokens, the third query.
        child<QComboBox>(view, "attentionQueries")->setCurrentIndex(1);
        child<QSpinBox>(view, "attentionTokens")->setValue(16);
        child<QSpinBox>(view, "attentionQuery")->setValue(3);
        QTRY_VERIFY_WITH_TIMEOUT(panel->picture()->choices.tokens == 16 &&
                                     panel->picture()->choices.query == 3 && !panel->isBusy(),
                                 test::BackgroundWorkTimeoutMs);
        QCOMPARE(panel->picture()->choices.queries, quant::QueryModel::Diffuse);
        QCOMPARE(bars->upperSeries()->points().size(), 16 * 4);

        // Another model with the same KV head (Llama-3.1-70B's keys are 128 wide too): the same
        // tensors, but the note names the model now shown.
        Scenario seventy;
        seventy.model = *ModelLibrary::builtin().find(QStringLiteral("llama-3.1-70b"));
        seventy.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
        seventy.tensorParallelSize = 8;
        view.followScenario(seventy, planMemory(seventy));
        QTRY_VERIFY_WITH_TIMEOUT(panel->picture()->modelName == seventy.model.name && !panel->isBusy(),
                                 test::BackgroundWorkTimeoutMs);
        QVERIFY(child<QLabel>(view, "attentionNote")->text().startsWith(seventy.model.name));

        // The explorer's model and an FP8 E5M2 cache: Qwen2.5-0.5B's keys are 64 wide.
        Scenario s;
        s.model = *ModelLibrary::builtin().find(QStringLiteral("qwen2.5-0.5b"));
        s.gpu = *GpuLibrary::builtin().find(QStringLiteral("h100-sxm"));
        s.kvCacheDtype = KvCacheDtype::Fp8E5M2;
        view.followScenario(s, planMemory(s));
        QTRY_VERIFY_WITH_TIMEOUT(panel->picture()->keyWidth == s.model.headDim && !panel->isBusy(),
                                 test::BackgroundWorkTimeoutMs);
        QCOMPARE(panel->picture()->choices.format, KvCacheDtype::Fp8E5M2);
        QVERIFY2(child<QLabel>(view, "attentionNote")->text().startsWith(s.model.name),
                 qPrintable(child<QLabel>(view, "attentionNote")->text()));
        // What the window exports is the picture on screen.
        QCOMPARE(view.chartSource().attention->weights.logits, panel->picture()->weights.logits);
    }

    void windowReportsTheTabsSettings()
    {
        test::resetState();
        QSettings().setValue(QStringLiteral("quantization/bins"), 0);
        const std::unique_ptr<MainWindow> window = test::openWindow();
        QVERIFY(window->restoreProblems().isEmpty()); // the tab's settings are read when it opens
        QVERIFY(window->showView(QStringLiteral("quantization")));
        const QuantizationView *view = window->quantization();
        QCOMPARE(child<QSpinBox>(*view, "bins")->value(), SchemeChoice().bins);
        const QString line = QStringLiteral("quantization/bins = '0' ignored: not an integer from 1 to 4096");
        QCOMPARE(window->restoreProblems(), QStringList{line});
        QVERIFY2(window->statusBar()->currentMessage().contains(line),
                 qPrintable(window->statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestQuantizationView)
#include "tst_quantizationview.moc"
