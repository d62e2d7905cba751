// SPDX-License-Identifier: MIT
// The safetensors reader on files the test writes itself: good files, and
// every way a header can lie about the file (format: huggingface/safetensors
// README, "Format" section: u64 little-endian N, N bytes of JSON, data).
#include "core/common/error.h"
#include "core/formats/safetensors.h"
#include "tests/tensorfiles.h"

#include <cstring>

#include <QBuffer>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace kvscope;

namespace {

QByteArray fileBytes(const QByteArray &header, const QByteArray &data, qint64 declaredLength = -1)
{
    return test::safetensorsBytes(header, data, declaredLength);
}

QByteArray floats(std::initializer_list<float> values)
{
    return test::floatBytes(values);
}

} // namespace

class TestSafetensors : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes)
    {
        return test::writeFile(m_dir, name, bytes);
    }

private Q_SLOTS:
    void readsTensorsAndData()
    {
        const QByteArray header = R"({"__metadata__": {"format": "pt"},
            "b": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]},
            "a": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}})";
        const QString path =
            write(QStringLiteral("good.safetensors"), fileBytes(header, floats({1.0f, -2.0f, 0.5f, 4.0f})));
        const SafetensorsFile file = SafetensorsFile::open(path);
        QCOMPARE(file.tensors().size(), 2);
        QCOMPARE(file.tensors().at(0).name, QStringLiteral("a")); // data order
        QCOMPARE(file.header().metadata.value(QStringLiteral("format")), QStringLiteral("pt"));
        const SafetensorsEntry *b = file.header().find(QStringLiteral("b"));
        QVERIFY(b);
        QCOMPARE(b->elements(), 2);
        float values[2];
        std::memcpy(values, file.data(*b), 8);
        QCOMPARE(values[0], 0.5f);
        QCOMPARE(values[1], 4.0f);
        // Header-only read gives the same entries without mapping.
        QCOMPARE(readSafetensorsHeader(path).tensors.size(), 2);
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray ok = R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";
        const QByteArray data = floats({1.0f, 2.0f});
        QTest::newRow("shorter than 8 bytes") << QByteArray("abc") << "shorter than the 8-byte header length";
        QTest::newRow("header length past the end") << fileBytes(ok, data, 1'000'000) << "runs past the end";
        QTest::newRow("huge header length") << fileBytes(ok, data, qint64(1) << 62) << "runs past the end";
        QTest::newRow("header not JSON") << fileBytes("{nope", data) << "header is not valid JSON";
        QTest::newRow("header an array") << fileBytes("[1]", data) << "not a JSON object";
        QTest::newRow("offsets out of range")
            << fileBytes(R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 800]}})", data)
            << "data_offsets [0, 800] run past the 8-byte data section";
        QTest::newRow("begin after end")
            << fileBytes(R"({"w": {"dtype": "F32", "shape": [0], "data_offsets": [8, 0]}})", data)
            << "data_offsets";
        QTest::newRow("shape does not match bytes")
            << fileBytes(R"({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", data)
            << "tensor 'w' is 8 bytes but shape x F32 needs 12";
        QTest::newRow("negative shape")
            << fileBytes(R"({"w": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}})", data)
            << "shape entries";
        QTest::newRow("overflowing shape")
            << fileBytes(
                   R"({"w": {"dtype": "F32", "shape": [4294967296, 4294967296, 4294967296], "data_offsets": [0, 8]}})",
                   data)
            << "shape is too large";
        QTest::newRow("missing dtype")
            << fileBytes(R"({"w": {"shape": [2], "data_offsets": [0, 8]}})", data) << "has no dtype";
        QTest::newRow("overlapping tensors")
            << fileBytes(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                             "b": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})",
                         data)
            << "overlap";
    }

    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString path = write(QStringLiteral("bad.safetensors"), bytes);
        try {
            SafetensorsFile::open(path);
            QFAIL("no error");
        } catch (const Error &error) {
            QVERIFY2(error.message().startsWith(path), qPrintable(error.message()));
            QVERIFY2(error.message().contains(message), qPrintable(error.message()));
        }
    }

    void headerFromAnyDevice()
    {
        // The header-only reader works on any device (the fuzzer feeds memory).
        QByteArray bytes = fileBytes(R"({"w": {"dtype": "BF16", "shape": [2, 2], "data_offsets": [0, 8]}})",
                                     QByteArray(8, '\0'));
        QBuffer buffer(&bytes);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        const SafetensorsHeader header =
            readSafetensorsHeader(buffer, bytes.size(), QStringLiteral("memory"));
        QCOMPARE(header.tensors.size(), 1);
        QCOMPARE(header.tensors.first().elements(), 4);
        QCOMPARE(header.dataBytes, 8LL);
        QBuffer shortBuffer(&bytes);
        QVERIFY(shortBuffer.open(QIODevice::ReadOnly));
        QVERIFY_THROWS_EXCEPTION(Error, readSafetensorsHeader(shortBuffer, 7, QStringLiteral("memory")));
    }

    void missingFile()
    {
        QVERIFY_THROWS_EXCEPTION(Error,
                                 SafetensorsFile::open(m_dir.filePath(QStringLiteral("none.safetensors"))));
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
