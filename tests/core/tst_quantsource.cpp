// SPDX-License-Identifier: MIT
// Tensors for the simulator from .safetensors and .npy files the test
// writes: element decoding (hand-chosen bit patterns), and one clear error
// for every way a file can be unusable.
#include "core/common/error.h"
#include "core/quantization/simulator.h"
#include "core/quantization/tensorsource.h"
#include "tests/tensorfiles.h"

#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace kvscope;
using namespace kvscope::quant;

namespace {

using test::floatBytes;
using test::halfBytes;
using test::npyBytes;
using test::safetensorsBytes;

} // namespace

class TestQuantSource : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes)
    {
        return test::writeFile(m_dir, name, bytes);
    }

    QString checkpoint()
    {
        // F16 [2, 2] = [1, -2, 65504, 2^-24] (0x3C00, 0xC000, 0x7BFF, 0x0001);
        // BF16 [1, 3] = [1, 3.140625, -123.5] (0x3F80, 0x4049, 0xC2F7);
        // F32 [1, 2] at offset 14, not 4-byte aligned; plus unusable tensors.
        const QByteArray header = R"({
            "half": {"dtype": "F16", "shape": [2, 2], "data_offsets": [0, 8]},
            "brain": {"dtype": "BF16", "shape": [1, 3], "data_offsets": [8, 14]},
            "single": {"dtype": "F32", "shape": [1, 2], "data_offsets": [14, 22]},
            "ints": {"dtype": "I8", "shape": [2, 1], "data_offsets": [22, 24]},
            "vector": {"dtype": "F32", "shape": [2], "data_offsets": [24, 32]},
            "empty": {"dtype": "F32", "shape": [0, 4], "data_offsets": [32, 32]}})";
        const QByteArray data = halfBytes({0x3C00, 0xC000, 0x7BFF, 0x0001}) +
                                halfBytes({0x3F80, 0x4049, 0xC2F7}) + floatBytes({0.25f, -8.0f}) +
                                QByteArray(2, '\x01') + floatBytes({1.0f, 2.0f});
        return write(QStringLiteral("model.safetensors"), safetensorsBytes(header, data));
    }

private Q_SLOTS:
    void decodesSafetensors()
    {
        const QString path = checkpoint();
        const TensorData half = openTensor(path, QStringLiteral("half"));
        QCOMPARE(half.type(), ElementType::Float16);
        QCOMPARE(half.at(0, 0), 1.0f);
        QCOMPARE(half.at(0, 1), -2.0f);
        QCOMPARE(half.at(1, 0), 65504.0f);
        QCOMPARE(half.at(1, 1), 0x1p-24f);
        const TensorData brain = openTensor(path, QStringLiteral("brain"));
        QCOMPARE(brain.cols(), 3);
        QCOMPARE(brain.at(0, 1), 3.140625f);
        QCOMPARE(brain.at(0, 2), -123.5f);
        const TensorData single = openTensor(path, QStringLiteral("single"));
        QCOMPARE(single.at(0, 0), 0.25f);
        QCOMPARE(single.at(0, 1), -8.0f);
        // The whole pipeline runs on a mapped half tensor: Σw² = 1 + 4 + 65504² + 2^-48.
        QCOMPARE(scanTensor(half).sumSquares, 1.0 + 4.0 + 65504.0 * 65504.0 + std::ldexp(1.0, -48));
        QCOMPARE(half.origin(), path);
        QCOMPARE(half.name(), QStringLiteral("half"));
    }

    void listsTensors()
    {
        const QList<TensorInfo> list = listTensors(checkpoint());
        QCOMPARE(list.size(), 6);
        QCOMPARE(list.at(0).name, QStringLiteral("half"));
        QCOMPARE(list.at(0).shapeText(), QStringLiteral("[2, 2]"));
        QVERIFY(list.at(0).unusableReason.isEmpty());
        QCOMPARE(list.at(3).dtype, QStringLiteral("I8"));
        QVERIFY(!list.at(3).unusableReason.isEmpty());
    }

    void safetensorsErrors_data()
    {
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("message");
        QTest::newRow("not found") << "missing"
                                   << "no tensor 'missing' (the file holds: half, brain, single, ints";
        QTest::newRow("unsupported dtype") << "ints"
                                           << "tensor 'ints': dtype I8 is not F32, F16 or BF16";
        QTest::newRow("not 2-D") << "vector"
                                 << "tensor 'vector': shape [2] is 1-D, the simulator needs a 2-D tensor";
        QTest::newRow("empty") << "empty"
                               << "tensor 'empty': shape [0, 4] has no elements";
        QTest::newRow("ambiguous") << ""
                                   << "holds 6 tensors; pick one with --tensor";
    }

    void safetensorsErrors()
    {
        QFETCH(QString, tensor);
        QFETCH(QString, message);
        const QString path = checkpoint();
        const QString error = test::errorOf([&] { openTensor(path, tensor); });
        QVERIFY2(error.startsWith(path + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void brokenSafetensors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray header = R"({"w": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}})";
        QTest::newRow("truncated data")
            << safetensorsBytes(header, floatBytes({1.0f})) << "run past the 4-byte data section";
        QByteArray pastEnd = safetensorsBytes(header, floatBytes({1.0f, 2.0f}));
        pastEnd[0] = char(0xFF);
        QTest::newRow("header length past the end") << pastEnd << "runs past the end";
        QTest::newRow("offsets out of range")
            << safetensorsBytes(R"({"w": {"dtype": "F32", "shape": [1, 2], "data_offsets": [8, 16]}})",
                                floatBytes({1, 2}))
            << "data_offsets [8, 16] run past";
    }

    void brokenSafetensors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString path = write(QStringLiteral("broken.safetensors"), bytes);
        const QString error = test::errorOf([&] { openTensor(path, QStringLiteral("w")); });
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void npyTensors()
    {
        const QString f32 = write(
            QStringLiteral("w.npy"),
            npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", floatBytes({1.5f, -3})));
        const TensorData t = openTensor(f32);
        QCOMPARE(t.name(), QStringLiteral("w"));
        QCOMPARE(t.at(0, 1), -3.0f);
        QCOMPARE(listTensors(f32).first().shapeText(), QStringLiteral("[1, 2]"));
        // np.save writes ml_dtypes.bfloat16 as a 2-byte void.
        const QString bf16 = write(QStringLiteral("b.npy"),
                                   npyBytes("{'descr': '<V2', 'fortran_order': False, 'shape': (2, 1), }",
                                            halfBytes({0x3F80, 0xC2F7})));
        QCOMPARE(openTensor(bf16).at(1, 0), -123.5f);
        // A file with another extension is recognised by its magic.
        const QString renamed = write(
            QStringLiteral("w.bin"),
            npyBytes("{'descr': '<f2', 'fortran_order': False, 'shape': (1, 1), }", halfBytes({0x3C00})));
        QCOMPARE(openTensor(renamed).at(0, 0), 1.0f);
    }

    void npyErrors_data()
    {
        QTest::addColumn<QByteArray>("dict");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("message");
        QTest::newRow("big-endian") << QByteArray(
                                           "{'descr': '>f4', 'fortran_order': False, 'shape': (1, 2), }")
                                    << ""
                                    << "descr '>f4' is big-endian";
        QTest::newRow("fortran order")
            << QByteArray("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }") << ""
            << "Fortran order";
        QTest::newRow("float64") << QByteArray("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }")
                                 << ""
                                 << "dtype <f8 is not F32, F16 or BF16";
        QTest::newRow("3-D") << QByteArray("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2), }")
                             << ""
                             << "is 3-D";
        QTest::newRow("named tensor")
            << QByteArray("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }") << "q_proj"
            << "a .npy file holds one array, 'e'; there is no tensor 'q_proj'";
    }

    void npyErrors()
    {
        QFETCH(QByteArray, dict);
        QFETCH(QString, tensor);
        QFETCH(QString, message);
        const QString path = write(QStringLiteral("e.npy"), npyBytes(dict, floatBytes({1, 2})));
        const QString error = test::errorOf([&] { openTensor(path, tensor); });
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void missingFile()
    {
        const QString error =
            test::errorOf([&] { openTensor(m_dir.filePath(QStringLiteral("none.safetensors"))); });
        QVERIFY2(error.endsWith(QLatin1String("no such file")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestQuantSource)
#include "tst_quantsource.moc"
