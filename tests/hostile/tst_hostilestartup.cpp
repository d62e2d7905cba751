// SPDX-License-Identifier: MIT
// Hostile start-up: saved settings that name a FIFO, a device, a slow model
// or one on a hung mount, and window sizes no machine can draw. The window
// never waits on a saved path: saved models import in the background; one
// that fails is dropped with a message in the status bar, one that takes
// longer than a time limit is kept (said there too) and loaded when it arrives.
#include "core/common/imagesize.h"
#include "tests/filewriters.h"
#include "tests/hostile/hostilesupport.h"
#include "tests/testsupport.h"
#include "tests/ui/hungread.h"
#include "tests/ui/uitestsupport.h"
#include "ui/state/appsettings.h"
#include "ui/state/modelreader.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/userlibrary.h"
#include "ui/window/mainwindow.h"

#include <QImage>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;

namespace {

// A small Qwen2-style config: 24 layers x 2 x 2 KV heads x 64 x 2 B = 12,288 KV bytes per token.
const char *smallConfig = R"({"model_type": "qwen2", "num_hidden_layers": 24, "hidden_size": 896,
  "num_attention_heads": 14, "num_key_value_heads": 2, "intermediate_size": 4864, "vocab_size": 151936,
  "max_position_embeddings": 32768, "tie_word_embeddings": true, "torch_dtype": "bfloat16"})";

QVariantList importedEntries(const QStringList &paths)
{
    QVariantList list;
    for (const QString &path : paths)
        list << QVariantMap{{QStringLiteral("key"), QStringLiteral("imported:") + path}};
    return list;
}

/// The line a dropped saved model leaves among the restore problems.
QString droppedLine(const QString &path, const QString &reason)
{
    return QStringLiteral("library/imported = 'imported:%1' ignored: %1: %2").arg(path, reason);
}

/// The line a slow saved model leaves among the restore problems.
QString keptLine(const QString &path, const QString &reason)
{
    return QStringLiteral("library/imported = 'imported:%1' kept: %1: %2").arg(path, reason);
}

/// How many models the settings list (kept ones included).
qsizetype savedModelCount()
{
    return QSettings().value(QStringLiteral("library/imported")).toList().size();
}

/// Runs the kvscope window (offscreen, settings in `config`) to a screenshot.
test::WatchedRun runWindowWatched(const QTemporaryDir &config, const QStringList &arguments)
{
    test::RunOptions options;
    options.environment = {QStringLiteral("XDG_CONFIG_HOME=") + config.path()};
    return test::runWatched(arguments, options);
}

/// The settings file the kvscope binary reads under XDG_CONFIG_HOME `config`.
QSettings binarySettings(const QTemporaryDir &config)
{
    return QSettings(config.filePath(QStringLiteral("kvscope/kvscope.conf")), QSettings::IniFormat);
}

} // namespace

class TestHostileStartup : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateSettings(QStringLiteral("kvscope-hostile-startup"));
    }

    void init() { test::resetState(); }

    void cleanup()
    {
        setModelReader({});
        UserLibrary::setStoredImportTimeLimit(UserLibrary::DefaultStoredImportTimeLimit);
    }

    // Before the fix the window's constructor opened the FIFO and waited
    // for a writer (forever; here the watch ends the wait and counts it).
    void savedFifoNeverBlocksTheWindow()
    {
        const QString fifo = m_dir.filePath(QStringLiteral("saved-model.json"));
        QVERIFY(test::makeFifo(fifo));
        test::FifoWatch watch(fifo);
        QSettings().setValue(QStringLiteral("library/imported"), importedEntries({fifo}));
        QSettings().setValue(QStringLiteral("scenario/model"), QStringLiteral("imported:") + fifo);
        const std::unique_ptr<MainWindow> window = test::openWindow();
        const QString line = droppedLine(fifo, QStringLiteral("not a regular file (a FIFO)"));
        QTRY_VERIFY2(window->restoreProblems().contains(line),
                     qPrintable(window->restoreProblems().join(QLatin1Char('\n'))));
        QVERIFY(window->library()->importedModels().isEmpty());
        QVERIFY(window->statusBar()->currentMessage().contains(fifo));
        QCOMPARE(window->controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        QCOMPARE(watch.readersSeen(), 0);
        // Dropped for good: the next start does not try it again.
        QCOMPARE(QSettings().value(QStringLiteral("library/imported")).toList().size(), 0);
    }

    // Before the fix a saved model was imported in the window's constructor:
    // the window appeared only once every saved model had been read.
    void savedModelsImportInTheBackground()
    {
        const QString folder = m_dir.filePath(QStringLiteral("background"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(test::writeFile(folder + QStringLiteral("/config.json"), smallConfig));
        const QString key = QStringLiteral("imported:") + folder;
        QSettings().setValue(QStringLiteral("library/imported"), importedEntries({folder}));
        QSettings().setValue(QStringLiteral("scenario/model"), key);
        QSettings().setValue(QStringLiteral("scenario/batchSize"), 3);

        const auto window = std::make_unique<MainWindow>();
        // Constructed without having imported it: the import reports from the event loop.
        QVERIFY(window->library()->importedModels().isEmpty());
        window->show();
        // Once it arrives, the saved scenario comes back whole.
        QTRY_COMPARE(window->controller()->scenario().model.id, key);
        QCOMPARE(window->controller()->scenario().batchSize, 3);
        QCOMPARE(window->controller()->plan().kv.bytesPerToken, 12'288);
        QVERIFY2(window->restoreProblems().isEmpty(),
                 qPrintable(window->restoreProblems().join(QLatin1Char('\n'))));
    }

    // Before the fix a saved model that took longer than the limit once was
    // dropped from the settings for good: slow is not broken.
    void aSlowSavedModelIsKeptAndLoadedWhenItArrives()
    {
        // 300 shards: measured one by one, far longer than the 1 ms allowed here.
        const QString folder = m_dir.filePath(QStringLiteral("slow"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(test::writeFile(folder + QStringLiteral("/config.json"), smallConfig));
        for (int i = 0; i < 300; ++i)
            QVERIFY(test::writeFile(
                folder + QStringLiteral("/part-%1.safetensors").arg(i, 3, 10, QLatin1Char('0')),
                test::safetensorsBytes({{QStringLiteral("t%1").arg(i), QStringLiteral("F16"), {2, 2}, 8}})));
        const QString fast = m_dir.filePath(QStringLiteral("fast/config.json"));
        QVERIFY(QDir().mkpath(QFileInfo(fast).path()));
        QVERIFY(test::writeFile(fast, smallConfig));
        const QString key = QStringLiteral("imported:") + folder;
        QSettings().setValue(QStringLiteral("library/imported"), importedEntries({folder, fast}));
        QSettings().setValue(QStringLiteral("scenario/model"), key);
        QSettings().setValue(QStringLiteral("scenario/batchSize"), 3);

        UserLibrary::setStoredImportTimeLimit(std::chrono::milliseconds(1));
        const std::unique_ptr<MainWindow> window = test::openWindow();
        UserLibrary::setStoredImportTimeLimit(UserLibrary::DefaultStoredImportTimeLimit);
        const QString line =
            keptLine(folder, QStringLiteral("not imported within 0.001 s; loaded when it arrives"));
        QTRY_VERIFY2(window->restoreProblems().contains(line),
                     qPrintable(window->restoreProblems().join(QLatin1Char('\n'))));
        QVERIFY(window->statusBar()->currentMessage().contains(folder));
        QCOMPARE(savedModelCount(), 2);
        // When it arrives, the saved scenario comes back whole.
        QTRY_VERIFY_WITH_TIMEOUT(window->library()->findModel(key), test::BackgroundWorkTimeoutMs);
        QTRY_COMPARE(window->controller()->scenario().model.id, key);
        QCOMPARE(window->controller()->scenario().batchSize, 3);
        QVERIFY(!window->library()->isImporting());
        QCOMPARE(savedModelCount(), 2);
    }

    // A saved model on a hung mount: the window opens and is ready, says the
    // model is kept, and closes without waiting for the read.
    void aHungSavedModelNeverHoldsTheWindow()
    {
        const QString folder = m_dir.filePath(QStringLiteral("hung"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(test::writeFile(folder + QStringLiteral("/config.json"), smallConfig));
        QSettings().setValue(QStringLiteral("library/imported"), importedEntries({folder}));
        const test::HungRead hung;
        setModelReader(hung.reader(10'000));
        UserLibrary::setStoredImportTimeLimit(std::chrono::milliseconds(50));
        std::unique_ptr<MainWindow> window = test::openWindow();
        const QString line =
            keptLine(folder, QStringLiteral("not imported within 0.05 s; loaded when it arrives"));
        QTRY_VERIFY2(window->restoreProblems().contains(line),
                     qPrintable(window->restoreProblems().join(QLatin1Char('\n'))));
        QVERIFY(!window->library()->isImporting()); // ready: --screenshot waits for no hung read
        QCOMPARE(savedModelCount(), 1);

        const qint64 closed = test::closeWindow(window);
        hung.comeBack();
        QVERIFY2(closed < 1'000, qPrintable(QStringLiteral("closing took %1 ms").arg(closed)));
        // The read ends with nobody to take it; the model stays saved.
        QVERIFY(hung.ended(test::BackgroundWorkTimeoutMs));
        QTest::qWait(50);
        QCOMPARE(savedModelCount(), 1);
    }

    // Before the fix the window read /dev/zero until it had taken 10 GB.
    void savedDevicesAreDroppedUnread()
    {
        QTemporaryDir config;
        {
            QSettings saved = binarySettings(config);
            saved.setValue(QStringLiteral("library/imported"),
                           importedEntries({QStringLiteral("/dev/zero"), QStringLiteral("/dev/urandom")}));
            saved.setValue(QStringLiteral("scenario/model"), QStringLiteral("imported:/dev/zero"));
            saved.setValue(QStringLiteral("ui/language"), QStringLiteral("en"));
        }
        const QString png = config.filePath(QStringLiteral("window.png"));
        const test::WatchedRun run = runWindowWatched(config, {QStringLiteral("--screenshot"), png});
        QVERIFY2(run.exitCode == 0 && !run.tooLarge && !run.timedOut, run.describe().constData());
        for (const char *device : {"/dev/zero", "/dev/urandom"})
            QVERIFY2(run.err.contains(droppedLine(QLatin1String(device),
                                                  QStringLiteral("not a regular file (a character device)"))
                                          .toUtf8()),
                     run.err.constData());
        QVERIFY(!QImage(png).isNull());
        QVERIFY(binarySettings(config).value(QStringLiteral("library/imported")).toList().isEmpty());
    }

    // Found by fuzz_settingsfile: a stored list or string whose QDataStream count claims billions of
    // elements. Qt 6.4 reserves from that count before reading (2.6 GB asked for by the fuzzer's input,
    // tests/fuzz/named/settingsfile/oom-stored-list-count.conf), finds the data short and hands back what
    // it read: nothing. The window must start, stay small and restore none of it; a stored value of a type
    // Qt cannot construct at all is named as unreadable.
    void storedValuesClaimingBillionsOfElementsAreSkipped()
    {
        QTemporaryDir config;
        QVERIFY(QDir().mkpath(config.filePath(QStringLiteral("kvscope"))));
        // @Variant(type 9 = QVariantList, not null, count 0xfffffff0), (type 10 = QString, 0xfffffffe bytes)
        // and (type 0x7fff1234: no such type).
        QVERIFY(test::writeFile(config.filePath(QStringLiteral("kvscope/kvscope.conf")),
                                "[library]\n"
                                "customGpus=@Variant(\\0\\0\\0\\t\\0\\xff\\xff\\xff\\xf0)\n"
                                "imported=@Variant(\\0\\0\\0\\n\\0\\xff\\xff\\xff\\xfe)\n"
                                "recentFiles=@Variant(\\x7f\\xff\\x12\\x34\\0)\n"
                                "[ui]\nlanguage=en\n"));
        const QString png = config.filePath(QStringLiteral("window.png"));
        const test::WatchedRun run = runWindowWatched(config, {QStringLiteral("--screenshot"), png});
        QVERIFY2(run.exitCode == 0 && !run.tooLarge && !run.timedOut, run.describe().constData());
        QVERIFY(!QImage(png).isNull());
        QVERIFY2(run.err.contains("library/imported = '' ignored: not a list of imported models"),
                 run.err.constData());
        QVERIFY2(run.err.contains("library/recentFiles = '' ignored: the stored value cannot be read"),
                 run.err.constData());
        QVERIFY2(!run.err.contains("library/customGpus"), run.err.constData()); // read as an empty list
        QVERIFY(binarySettings(config).value(QStringLiteral("library/customGpus")).toList().isEmpty());
    }

    void imageSizeBounds()
    {
        checkImageSize(MaxImageSide, MaxImagePixels / MaxImageSide, QStringLiteral("--size"));
        checkImageSize(100, MaxImageSide, QStringLiteral("--size"));
        KVSCOPE_VERIFY_ERROR(checkImageSize(MaxImageSide + 1, 100, QStringLiteral("--size")),
                             QStringLiteral("--size: 16385x100"),
                             QStringLiteral("at most 16384 pixels a side"));
        KVSCOPE_VERIFY_ERROR(
            checkImageSize(MaxImageSide, MaxImagePixels / MaxImageSide + 1, QStringLiteral("--size")),
            QStringLiteral("--size: 16384x8193"), QStringLiteral("at most 134217728 pixels"));
        KVSCOPE_VERIFY_ERROR(checkImageSize(0, 100, QStringLiteral("--width")),
                             QStringLiteral("--width: 0x100"), QStringLiteral("at least 1 pixel"));
    }

    // Before the fix 99999x99999 ended in SIGSEGV once the backing store's
    // allocation failed, and 16384x16384 took over a gigabyte.
    void screenshotSizeIsBounded_data()
    {
        QTest::addColumn<QString>("size");
        QTest::addColumn<QByteArray>("reason");
        QTest::newRow("99999x99999") << QStringLiteral("99999x99999")
                                     << QByteArray("at most 16384 pixels a side");
        QTest::newRow("16385x720") << QStringLiteral("16385x720")
                                   << QByteArray("at most 16384 pixels a side");
        QTest::newRow("16384x16384") << QStringLiteral("16384x16384")
                                     << QByteArray("at most 134217728 pixels");
    }

    void screenshotSizeIsBounded()
    {
        QFETCH(QString, size);
        QFETCH(QByteArray, reason);
        QTemporaryDir config;
        const QString png = config.filePath(QStringLiteral("huge.png"));
        const test::WatchedRun run =
            runWindowWatched(config, {QStringLiteral("--screenshot"), png, QStringLiteral("--size"), size});
        QVERIFY2(run.exitCode == 2 && !run.crashed && !run.tooLarge, run.describe().constData());
        QVERIFY2(run.err.startsWith("kvscope: error: --size: " + size.toUtf8()) && run.err.count('\n') == 1 &&
                     run.err.contains(reason),
                 run.err.constData());
        QVERIFY(!QFile::exists(png));
    }
};

QTEST_MAIN(TestHostileStartup)
#include "tst_hostilestartup.moc"
