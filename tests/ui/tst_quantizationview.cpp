// SPDX-License-Identifier: MIT
// The Quantization view under the offscreen platform, driven through its
// widgets' objectNames: results arrive asynchronously, match the core's
// figures exactly, a newer request wins, a bad file leaves results alone,
// and the rendered view is not blank.
#include "errorhistogramchart.h"
#include "figuresmodel.h"
#include "quant/inspection.h"
#include "quant/simulator.h"
#include "quant/synthetic.h"
#include "quantizationview.h"
#include "sqnrchart.h"
#include "tensorfiles.h"
#include "valueschart.h"

#include <set>

#include <QAbstractAxis>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

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

bool showing(const QuantizationView &view, std::int64_t rows, int schemes)
{
    return !view.isBusy() && view.outcome() && view.outcome()->tensor.data.rows() == rows &&
           view.outcome()->results.size() == schemes;
}

/// Distinct colours in an image: a blank or single-colour widget has few.
int colourCount(const QImage &image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

} // namespace

class TestQuantizationView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void figuresMatchTheCore()
    {
        QuantizationView view;
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        setSize(view, 256, 384);
        child<QSpinBox>(view, "seed")->setValue(3);
        chooseSchemes(view, {QStringLiteral("fp8-e4m3"), QStringLiteral("int4"), QStringLiteral("nf4")});
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

        // Drawn, not blank: the charts hold many colours (series, labels, grid).
        QCoreApplication::processEvents();
        QVERIFY(colourCount(child<ErrorHistogramChart>(view, "errorChart")->grab().toImage()) > 20);
        QVERIFY(colourCount(child<ValuesChart>(view, "valuesChart")->grab().toImage()) > 20);
        QVERIFY(colourCount(view.grab().toImage()) > 50);
    }

    void displayOptionsRedrawWithoutRerun()
    {
        QuantizationView view;
        view.resize(1200, 800);
        view.show();
        setSize(view, 64, 256);
        chooseSchemes(view, {QStringLiteral("int8"), QStringLiteral("mxfp4")});
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 64, 2), 20000);
        auto *chart = child<ErrorHistogramChart>(view, "errorChart");
        QCOMPARE(chart->chart()->axes(Qt::Vertical).first()->type(), QAbstractAxis::AxisTypeLogValue);
        child<QCheckBox>(view, "logY")->setChecked(false);
        QCOMPARE(chart->chart()->axes(Qt::Vertical).first()->type(), QAbstractAxis::AxisTypeValue);
        child<QComboBox>(view, "errorKind")->setCurrentIndex(1);
        QCOMPARE(chart->seriesCount(), 2);
        QVERIFY(!view.isBusy()); // display options redraw; nothing is simulated again
    }

    void newerRequestWins()
    {
        QuantizationView view;
        view.show();
        chooseSchemes(view, {QStringLiteral("int4"), QStringLiteral("nf4")});
        setSize(view, 2048, 2048);
        view.simulate(); // starts at once, then is superseded
        setSize(view, 96, 128);
        view.simulate();
        QTRY_VERIFY_WITH_TIMEOUT(showing(view, 96, 2), 20000);
        QTest::qWait(300);
        QCOMPARE(view.outcome()->tensor.data.rows(), 96); // the 2048-row run never lands
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
        QTRY_VERIFY(!view.isBusy());
        QCOMPARE(failed.count(), 1);
    }
};

QTEST_MAIN(TestQuantizationView)
#include "tst_quantizationview.moc"
