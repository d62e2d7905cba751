// SPDX-License-Identifier: MIT
// The .npy reader on files the test writes itself (format: numpy
// lib/format.py: "\x93NUMPY", major, minor, little-endian header length (u16
// in 1.0, u32 in 2.0/3.0), a Python dict literal padded with spaces and '\n').
#include "core/common/error.h"
#include "core/formats/npy.h"
#include "tests/tensorfiles.h"

#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace kvscope;

namespace {

using test::npyBytes;

QByteArray floatData(int count)
{
    QByteArray data;
    for (int i = 0; i < count; ++i) {
        const float v = float(i) * 0.5f;
        data.append(reinterpret_cast<const char *>(&v), 4);
    }
    return data;
}

} // namespace

class TestNpy : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QByteArray &bytes) { return test::writeFile(m_dir, QStringLiteral("t.npy"), bytes); }

private Q_SLOTS:
    void readsVersion1()
    {
        const QString path =
            write(npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", floatData(6)));
        const NpyFile f = NpyFile::open(path);
        QCOMPARE(f.header().descr, QStringLiteral("<f4"));
        QCOMPARE(f.header().shape, (QList<std::int64_t>{2, 3}));
        QCOMPARE(f.header().dataOffset % 64, 0);
        QCOMPARE(f.header().itemBytes(), 4);
        QCOMPARE(f.dataBytes(), 24);
        float last;
        std::memcpy(&last, f.data() + 20, 4);
        QCOMPARE(last, 2.5f);
    }

    void readsVersion2AndVariants()
    {
        // Version 2.0 (4-byte length), double quotes, Python 2 long, 1-D shape.
        const NpyFile f = NpyFile::open(write(npyBytes(
            "{\"descr\": \"<f2\", \"shape\": (4L,), \"fortran_order\": True}", QByteArray(8, '\0'), 2)));
        QCOMPARE(f.header().majorVersion, 2);
        QCOMPARE(f.header().shape, (QList<std::int64_t>{4}));
        QVERIFY(f.header().fortranOrder);
        // A scalar has shape () and one element.
        const NpyFile scalar = NpyFile::open(
            write(npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': ()}", floatData(1))));
        QCOMPARE(scalar.header().elements(), 1);
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
        QTest::newRow("no magic") << QByteArray("PK\x03\x04 a zip file") << "not a .npy file";
        QTest::newRow("empty") << QByteArray() << "not a .npy file";
        QByteArray v4 = npyBytes(ok, floatData(6));
        v4[6] = 4;
        QTest::newRow("version 4.0") << v4 << "unsupported .npy version 4.0";
        QTest::newRow("header length past the end")
            << npyBytes(ok, floatData(6), 1, 60000) << "header length 60000 runs past the end";
        QTest::newRow("huge v2 header length")
            << npyBytes(ok, floatData(6), 2, 0xFFFFFFF0) << "runs past the end";
        QTest::newRow("truncated data") << npyBytes(ok, floatData(5))
                                        << "data is truncated: shape x <f4 needs 24 bytes, the file holds 20";
        QTest::newRow("not a dict") << npyBytes("['descr']", floatData(6)) << "expected '{'";
        QTest::newRow("unknown key") << npyBytes("{'descr': '<f4', 'order': 'C'}", floatData(6))
                                     << "unknown key 'order'";
        QTest::newRow("missing shape")
            << npyBytes("{'descr': '<f4', 'fortran_order': False}", floatData(6)) << "lacks 'shape'";
        QTest::newRow("negative shape")
            << npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3)}", floatData(6))
            << "non-negative integers";
        QTest::newRow("overflowing shape")
            << npyBytes(
                   "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296)}",
                   floatData(6))
            << "shape is too large";
        QTest::newRow("bad bool") << npyBytes("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 3)}",
                                              floatData(6))
                                  << "must be True or False";
        QTest::newRow("unterminated string")
            << npyBytes("{'descr: <f4}", floatData(6)) << "unterminated string";
        QTest::newRow("descr without size")
            << npyBytes("{'descr': 'O', 'fortran_order': False, 'shape': (2, 3)}", floatData(6))
            << "descr 'O' has no item size";
        // Bytes a terminal would act on are shown escaped, never printed raw.
        QTest::newRow("control bytes in a key")
            << npyBytes(QByteArray("{'a\0b\x1b\x7f': '<f4'}", 16), floatData(6))
            << "unknown key 'a\\x00b\\x1b\\x7f'";
    }

    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString path = write(bytes);
        const QString error = test::errorOf([&] { NpyFile::open(path); });
        QVERIFY2(error.startsWith(path), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));
        for (const QChar c : error)
            QVERIFY2(c.isPrint(),
                     qPrintable(QStringLiteral("U+%1 in: %2").arg(c.unicode(), 4, 16).arg(error)));
    }
};

QTEST_GUILESS_MAIN(TestNpy)
#include "tst_npy.moc"
