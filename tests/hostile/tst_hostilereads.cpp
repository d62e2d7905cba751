// SPDX-License-Identifier: MIT
// Hostile reads: devices and FIFOs given where a file is expected. Every
// reader refuses what is not a regular file, by name and before opening it
// (a FIFO blocks an open, /dev/zero never ends), and whole-file reads stop
// at their limit whatever the file system reports.
#include "core/common/regularfile.h"
#include "core/document/scenariofile.h"
#include "core/formats/gguf.h"
#include "core/formats/npy.h"
#include "core/formats/safetensors.h"
#include "core/model/hfconfig.h"
#include "core/model/modelimport.h"
#include "core/quantization/tensorsource.h"
#include "tests/filewriters.h"
#include "tests/hostile/hostilesupport.h"
#include "tests/testsupport.h"

#include <functional>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

namespace {

/// A reader of the core, called on a path.
using Reader = std::function<void(const QString &)>;

const char *smallConfig = R"({"model_type": "qwen2", "num_hidden_layers": 24, "hidden_size": 896,
  "num_attention_heads": 14, "num_key_value_heads": 2, "intermediate_size": 4864, "vocab_size": 151936,
  "max_position_embeddings": 32768, "tie_word_embeddings": true, "torch_dtype": "bfloat16"})";

/// The one line a refused path gives on stderr.
QByteArray refusalLine(const QString &path, const char *kind)
{
    return "kvscope: error: " + path.toUtf8() + ": not a regular file (" + kind + ")\n";
}

} // namespace

Q_DECLARE_METATYPE(Reader)

class TestHostileReads : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"));
    }

    void readersRefuseAFifo_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<Reader>("reader");
        QTest::newRow("importModel config")
            << "fifo-config.json" << Reader([](const QString &p) { importModel(p); });
        QTest::newRow("importModel gguf") << "fifo.gguf" << Reader([](const QString &p) { importModel(p); });
        QTest::newRow("loadHfConfigFile")
            << "config-fifo.json" << Reader([](const QString &p) { loadHfConfigFile(p); });
        QTest::newRow("readGgufFile") << "read.gguf" << Reader([](const QString &p) { readGgufFile(p); });
        QTest::newRow("readSafetensorsHeader")
            << "header.safetensors" << Reader([](const QString &p) { readSafetensorsHeader(p); });
        QTest::newRow("SafetensorsFile::open")
            << "open.safetensors" << Reader([](const QString &p) { SafetensorsFile::open(p); });
        QTest::newRow("NpyFile::open") << "open.npy" << Reader([](const QString &p) { NpyFile::open(p); });
        QTest::newRow("listTensors npy")
            << "list.npy" << Reader([](const QString &p) { quant::listTensors(p); });
        QTest::newRow("listTensors no extension")
            << "list-tensors" << Reader([](const QString &p) { quant::listTensors(p); });
        QTest::newRow("openTensor safetensors")
            << "tensor.safetensors" << Reader([](const QString &p) { quant::openTensor(p); });
        QTest::newRow("readScenarioFile")
            << "saved.kvscope" << Reader([](const QString &p) { readScenarioFile(p); });
    }

    void readersRefuseAFifo()
    {
        QFETCH(QString, name);
        QFETCH(Reader, reader);
        const QString path = m_dir.filePath(name);
        QVERIFY(test::makeFifo(path));
        // Before the fix the reader blocked in open(); the watch then hands it
        // an end of file, and counts that it had the FIFO open.
        test::FifoWatch watch(path);
        KVSCOPE_VERIFY_ERROR(reader(path), path, QStringLiteral("not a regular file (a FIFO)"));
        QCOMPARE(watch.readersSeen(), 0);

        // A symbolic link to the FIFO is the FIFO.
        const QString link = m_dir.filePath(QStringLiteral("link-to-") + name);
        QVERIFY(QFile::link(path, link));
        KVSCOPE_VERIFY_ERROR(reader(link), link, QStringLiteral("not a regular file (a FIFO)"));
        QCOMPARE(watch.readersSeen(), 0);
    }

    void readersRefuseADevice_data() { readersRefuseAFifo_data(); }

    void readersRefuseADevice()
    {
        // /dev/null reads as empty, harmlessly, even before the fix; the
        // same readers given /dev/zero read forever (the CLI tests below).
        QFETCH(QString, name);
        QFETCH(Reader, reader);
        const QString link = m_dir.filePath(QStringLiteral("null-") + name);
        QVERIFY(QFile::link(QStringLiteral("/dev/null"), link));
        KVSCOPE_VERIFY_ERROR(reader(link), link, QStringLiteral("not a regular file (a character device)"));
    }

    void modelFolderIndexThatIsAFifo()
    {
        QTemporaryDir folder;
        QVERIFY(test::writeFile(folder.filePath(QStringLiteral("config.json")), smallConfig));
        const QString index = folder.filePath(QStringLiteral("model.safetensors.index.json"));
        QVERIFY(test::makeFifo(index));
        test::FifoWatch watch(index);
        KVSCOPE_VERIFY_ERROR(importModel(folder.path()), index,
                             QStringLiteral("not a regular file (a FIFO)"));
        QCOMPARE(watch.readersSeen(), 0);
    }

    void boundedReadStopsAtItsLimit()
    {
        const QString path = m_dir.filePath(QStringLiteral("bounded.json"));
        QVERIFY(test::writeFile(path, QByteArray(1000, 'x')));
        QCOMPARE(readRegularFile(path, 1000, QStringLiteral("a test file")).size(), 1000);
        KVSCOPE_VERIFY_ERROR(readRegularFile(path, 999, QStringLiteral("a test file")), path,
                             QStringLiteral("1000 bytes is too large for a test file"));
        KVSCOPE_VERIFY_ERROR(readRegularFile(m_dir.filePath(QStringLiteral("absent.json")), 10, QString()),
                             m_dir.filePath(QStringLiteral("absent.json")), QStringLiteral("cannot open"));
    }

    void regularFileStartsWithNeverOpensAFifo()
    {
        const QString path = m_dir.filePath(QStringLiteral("magic-fifo"));
        QVERIFY(test::makeFifo(path));
        test::FifoWatch watch(path);
        QVERIFY(!regularFileStartsWith(path, "GGUF"));
        QVERIFY(!looksLikeGguf(path));
        QCOMPARE(watch.readersSeen(), 0);
        const QString gguf = m_dir.filePath(QStringLiteral("magic.bin"));
        QVERIFY(test::writeFile(gguf, "GGUF and more"));
        QVERIFY(regularFileStartsWith(gguf, "GGUF"));
    }

    // The command line: before the fix, --model /dev/zero grew past 7 GB in
    // 20 s; the watch kills it at 600 MiB and the test fails.
    void calcModelDevice_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero");
        QTest::newRow("/dev/urandom") << QStringLiteral("/dev/urandom");
    }

    void calcModelDevice()
    {
        QFETCH(QString, device);
        const test::WatchedRun run =
            test::runWatched({QStringLiteral("calc"), QStringLiteral("--model"), device});
        QVERIFY2(run.exitCode == 1 && !run.tooLarge && !run.timedOut, run.describe().constData());
        QCOMPARE(run.err, refusalLine(device, "a character device"));
        QVERIFY(run.out.isEmpty());
    }

    void calcModelFifo()
    {
        const QString path = m_dir.filePath(QStringLiteral("calc-fifo.json"));
        QVERIFY(test::makeFifo(path));
        test::FifoWatch watch(path);
        const test::WatchedRun run =
            test::runWatched({QStringLiteral("calc"), QStringLiteral("--model"), path});
        QVERIFY2(run.exitCode == 1 && !run.timedOut, run.describe().constData());
        QCOMPARE(run.err, refusalLine(path, "a FIFO"));
        QCOMPARE(watch.readersSeen(), 0);
    }

    void quantInputFifo_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("list");
        QTest::newRow("npy") << QStringLiteral("input.npy") << false;
        QTest::newRow("safetensors") << QStringLiteral("input.safetensors") << false;
        QTest::newRow("no extension") << QStringLiteral("input") << false;
        QTest::newRow("--list") << QStringLiteral("listed.safetensors") << true;
    }

    void quantInputFifo()
    {
        QFETCH(QString, name);
        QFETCH(bool, list);
        const QString path = m_dir.filePath(QStringLiteral("quant-") + name);
        QVERIFY(test::makeFifo(path));
        test::FifoWatch watch(path);
        QStringList arguments{QStringLiteral("quant"), QStringLiteral("--input"), path};
        if (list)
            arguments << QStringLiteral("--list");
        const test::WatchedRun run = test::runWatched(arguments);
        QVERIFY2(run.exitCode == 1 && !run.timedOut, run.describe().constData());
        QCOMPARE(run.err, refusalLine(path, "a FIFO"));
        QCOMPARE(watch.readersSeen(), 0);
    }

    // kvscope export --scenario read a FIFO's open (blocked) and /dev/zero
    // until memory ran out.
    void exportScenarioFifoAndDevice()
    {
        const QString fifo = m_dir.filePath(QStringLiteral("export-fifo.kvscope"));
        QVERIFY(test::makeFifo(fifo));
        test::FifoWatch watch(fifo);
        const QString png = m_dir.filePath(QStringLiteral("never.png"));
        for (const QString &path : {fifo, QStringLiteral("/dev/zero")}) {
            const test::WatchedRun run = test::runWatched(
                {QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                 QStringLiteral("--out"), png, QStringLiteral("--scenario"), path});
            QVERIFY2(run.exitCode == 1 && !run.tooLarge && !run.timedOut, run.describe().constData());
            QCOMPARE(run.err, refusalLine(path, path == fifo ? "a FIFO" : "a character device"));
        }
        QCOMPARE(watch.readersSeen(), 0);
        QVERIFY(!QFile::exists(png));
    }

    void quantInputDevice()
    {
        const test::WatchedRun run = test::runWatched(
            {QStringLiteral("quant"), QStringLiteral("--input"), QStringLiteral("/dev/zero")});
        QVERIFY2(run.exitCode == 1 && !run.tooLarge && !run.timedOut, run.describe().constData());
        QCOMPARE(run.err, refusalLine(QStringLiteral("/dev/zero"), "a character device"));
    }
};

QTEST_GUILESS_MAIN(TestHostileReads)
#include "tst_hostilereads.moc"
