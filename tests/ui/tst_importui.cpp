// SPDX-License-Identifier: MIT
// Importing models into the window (open, drag and drop, paste), custom
// GPUs, and what is remembered across a restart.
#include "core/analysis/logexplanation.h"
#include "core/analysis/startuplog.h"
#include "core/gpu/customgpu.h"
#include "core/output/logexplanationtext.h"
#include "core/plan/planner.h"
#include "core/plan/speedconstants.h"
#include "core/scenario/scenariovalues.h"
#include "tests/filewriters.h"
#include "tests/sourcetree.h"
#include "tests/throwers.h"
#include "tests/ui/hungread.h"
#include "tests/ui/uitestsupport.h"
#include "ui/explainlog/explainlogdialog.h"
#include "ui/explorer/explorerview.h"
#include "ui/explorer/speedpanel.h"
#include "ui/library/customgpudialog.h"
#include "ui/library/pasteconfigdialog.h"
#include "ui/library/speedcalibrationdialog.h"
#include "ui/state/appsettings.h"
#include "ui/state/modelimporter.h"
#include "ui/state/modelreader.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/translations.h"
#include "ui/state/userlibrary.h"
#include "ui/widgets/groupedcombobox.h"
#include "ui/window/mainwindow.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <QApplication>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QTimer>
#include <QUrl>

using namespace kvscope;

namespace {

/// What a rich-text explanation reads as in the window.
QString documentText(const QString &html)
{
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

// A Llama-3.1-8B-shaped config.json (the llama-3.1-8b preset of resources/presets/models.json, from
// huggingface.co/meta-llama/Llama-3.1-8B config.json): 32 x 2 x 8 x 128 x 2 = 131,072 KV bytes per token.
const char *llamaConfig = R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"],
  "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
  "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 131072, "torch_dtype": "bfloat16"})";

// A small Qwen2-style config: 24 layers x 2 x 2 KV heads x 64 x 2 B = 12,288 KV bytes per token.
const char *smallConfig = R"({"model_type": "qwen2", "num_hidden_layers": 24, "hidden_size": 896,
  "num_attention_heads": 14, "num_key_value_heads": 2, "intermediate_size": 4864, "vocab_size": 151936,
  "max_position_embeddings": 32768, "tie_word_embeddings": true, "torch_dtype": "bfloat16"})";

/// A model reader that throws what an addThrownRows() row names.
ModelReader throwingReader(const QString &thrown)
{
    return [thrown](const QString &) -> ImportedModel { test::throwNamed(thrown); };
}

/// Closes the next error message box once it is up. It polls rather than waiting a
/// fixed time: what comes before the box (a background import, a 1 MiB config laid
/// out and parsed) can take any time on a loaded machine, and a timer that fired too
/// early closed nothing, or the dialog before the box, and left the test waiting.
void closeNextModal()
{
    auto *poll = new QTimer(qApp);
    const QDeadlineTimer deadline(std::chrono::minutes(2));
    QObject::connect(poll, &QTimer::timeout, poll, [poll, deadline] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (box)
            box->close();
        if (box || deadline.hasExpired())
            poll->deleteLater();
    });
    poll->start(20);
}

} // namespace

class TestImportUi : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    QString writeFile(const QString &relative, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(relative);
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        file.write(bytes);
        return path;
    }

    void openWindow() { m_window = test::openWindow(); }

    /// Drags `path` over the window and drops it there; whether the window took the drag.
    bool dropOnTheWindow(const QString &path)
    {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &enter);
        if (!enter.isAccepted())
            return false;
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &drop);
        return true;
    }

    /// The message the window gives for an import of `path` it refuses (its
    /// message box closed), or a null string when none came.
    QString refusedImport(const QString &path)
    {
        QSignalSpy failed(m_window.get(), &MainWindow::importFailed);
        closeNextModal();
        m_window->importModelPath(path);
        if (!QTest::qWaitFor([&failed] { return !failed.isEmpty(); }, test::BackgroundWorkTimeoutMs))
            return {};
        return failed.first().first().toString();
    }

    ScenarioController *controller() const { return m_window->controller(); }

    GroupedComboBox *picker(const char *name) const
    {
        return m_window->findChild<GroupedComboBox *>(QLatin1String(name));
    }

    QStringList pickerGroups(const char *name) const
    {
        QStringList groups;
        const auto *model = qobject_cast<const QStandardItemModel *>(picker(name)->model());
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->item(row)->data(GroupedComboBox::KeyRole).toString().isEmpty())
                groups << model->item(row)->text();
        return groups;
    }

private Q_SLOTS:
    void initTestCase() { test::isolateSettings(QStringLiteral("kvscope-import-tests")); }

    void init()
    {
        test::resetState();
        openWindow();
    }

    void cleanup()
    {
        m_window.reset();
        setModelReader({});
    }

    void importsAConfigFileAndSelectsIt()
    {
        const QString path = writeFile(QStringLiteral("small/config.json"), smallConfig);
        QSignalSpy changed(controller(), &ScenarioController::planChanged);
        m_window->importModelPath(path);
        QTRY_VERIFY(controller()->scenario().model.id == QStringLiteral("imported:") + path);
        QCOMPARE(controller()->plan().kv.bytesPerToken, 24 * 2 * 2 * 64 * 2);
        QVERIFY(pickerGroups("modelPicker").contains(QStringLiteral("Imported")));
        QCOMPARE(picker("modelPicker")->currentKey(), QStringLiteral("imported:") + path);
        QCOMPARE(m_window->library()->recentFiles().first(), path);
    }

    void importsAModelFolder()
    {
        const QString folder = QFileInfo(writeFile(QStringLiteral("llama/config.json"), llamaConfig)).path();
        m_window->importModelPath(folder);
        QTRY_COMPARE(controller()->plan().params.total, 8'030'261'248LL);
        QCOMPARE(controller()->plan().kv.bytesPerToken, 131'072);
    }

    void badFileKeepsThePreviousModel()
    {
        const QString path = writeFile(QStringLiteral("bad/config.json"), "{\"num_hidden_layers\": 32,");
        const QString message = refusedImport(path);
        QVERIFY2(message.startsWith(path) && message.contains(QLatin1String("malformed JSON")),
                 qPrintable(message));
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        QVERIFY(!pickerGroups("modelPicker").contains(QStringLiteral("Imported")));
        QTRY_VERIFY(!QApplication::activeModalWidget());
    }

    // Before the fix only kvscope::Error was caught: anything else a read threw
    // reached the event loop and ended the program.
    void anyExceptionAnImportThrowsIsShown_data() { test::addThrownRows(); }

    void anyExceptionAnImportThrowsIsShown()
    {
        QFETCH(QString, thrown);
        QFETCH(QString, shown);
        const QString path = writeFile(QStringLiteral("throws/config.json"), smallConfig);
        setModelReader(throwingReader(thrown));
        QCOMPARE(refusedImport(path), path + QStringLiteral(": ") + shown);
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        QTRY_VERIFY(!QApplication::activeModalWidget());
    }

    void anyExceptionASavedImportThrowsIsShown_data() { test::addThrownRows(); }

    void anyExceptionASavedImportThrowsIsShown()
    {
        QFETCH(QString, thrown);
        QFETCH(QString, shown);
        m_window.reset();
        const QString path = writeFile(QStringLiteral("saved-throws/config.json"), smallConfig);
        QSettings().setValue(
            QStringLiteral("library/imported"),
            QVariantList{QVariantMap{{QStringLiteral("key"), QStringLiteral("imported:") + path}}});
        setModelReader(throwingReader(thrown));
        openWindow();
        QTRY_VERIFY(!m_window->library()->isImporting());
        QCOMPARE(
            m_window->restoreProblems(),
            QStringList{QStringLiteral("library/imported = 'imported:%1' ignored: %1: %2").arg(path, shown)});
        QVERIFY(m_window->library()->importedModels().isEmpty());
    }

    // Before the fix the importer's destructor waited for its read: a path on a
    // hung mount held the closing window for as long as the mount hung.
    void closingNeverWaitsForARead()
    {
        const QString path = writeFile(QStringLiteral("hung/config.json"), smallConfig);
        const test::HungRead hung;
        setModelReader(hung.reader(5'000));
        m_window->importModelPath(path);
        QVERIFY(hung.began(test::BackgroundWorkTimeoutMs));
        const qint64 closed = test::closeWindow(m_window);
        hung.comeBack(); // the read ends; the window it was for is gone
        QVERIFY2(closed < 1'000, qPrintable(QStringLiteral("closing took %1 ms").arg(closed)));
        // Its result has nobody to go to, and goes nowhere (the sanitizers watch).
        QVERIFY(hung.ended(test::BackgroundWorkTimeoutMs));
        QTest::qWait(50);
    }

    void dropAFolderOnTheWindow()
    {
        const QString folder =
            QFileInfo(writeFile(QStringLiteral("dropped/config.json"), smallConfig)).path();
        QVERIFY(dropOnTheWindow(folder));
        QTRY_COMPARE(controller()->scenario().model.id, QStringLiteral("imported:") + folder);
    }

    /// The Llama-3.1-8B log of tests/data/vllm-logs.json (id 1, its source cited there) as text.
    static QString llamaStartupLog()
    {
        QFile data(test::sourceTreePath(QStringLiteral("tests/data/vllm-logs.json")));
        if (!data.open(QIODevice::ReadOnly))
            return {};
        QStringList lines;
        for (const QJsonValue &line :
             QJsonDocument::fromJson(data.readAll()).array().first()[QLatin1String("verbatim")].toArray())
            lines << line.toString();
        return lines.join(QLatin1Char('\n'));
    }

    void dropALogOnTheWindowExplainsIt()
    {
        // A .log file dropped on the window is explained, not imported as a model: the
        // dialog shows the same text as kvscope explain-log (476,016 tokens logged).
        const QString log = writeFile(QStringLiteral("vllm.log"), llamaStartupLog().toUtf8());
        const QString modelBefore = controller()->scenario().model.id;
        QVERIFY(dropOnTheWindow(log));
        auto *dialog = m_window->findChild<ExplainLogDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->explanation()->toPlainText().contains(QStringLiteral("KV cache tokens")));
        const QString text = dialog->explanation()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("476,016")) &&
                     text.contains(QStringLiteral("Why the KV cache")),
                 qPrintable(text));
        QCOMPARE(text, documentText(logExplanationHtml(
                           explainStartupLog(readStartupLogFile(log), {}, builtinResolvers()))));
        QCOMPARE(controller()->scenario().model.id, modelBefore);
        dialog->close();
    }

    // "Calibrate from this log": the explained log's measured parts are kept in the library and
    // planned for its deployment from then on, at another utilization too, and after a restart;
    // another deployment keeps kvscope's estimates.
    void aLogCalibratesItsDeploymentInTheWindow()
    {
        const QString log = writeFile(QStringLiteral("vllm.log"), llamaStartupLog().toUtf8());
        m_window->showExplainLogDialog(log);
        auto *dialog = m_window->findChild<ExplainLogDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->calibrateButton()->isEnabled());
        dialog->calibrateButton()->click();
        QCOMPARE(m_window->library()->memoryCalibrations().size(), 1);
        QVERIFY(dialog->status()->text().contains(QStringLiteral("vllm.log")));
        dialog->close();

        const LogExplanation e = explainStartupLog(readStartupLogFile(log), {}, builtinResolvers());
        Scenario deployment = e.scenario;
        deployment.measuredMemory = {};
        QVERIFY(controller()->setScenario(deployment));
        const std::int64_t logged = std::llround(14.99 * 1073741824.0); // "Model loading took 14.99 GiB"
        QCOMPARE(controller()->plan().weights.bytesPerGpu, logged);
        QVERIFY(controller()->plan().memoryMeasuredFrom.startsWith(QStringLiteral("vllm.log")));
        controller()->setGpuMemoryUtilizationPpm(800'000);
        QCOMPARE(controller()->plan().weights.bytesPerGpu, logged);
        controller()->setTensorParallelSize(2);
        QVERIFY(controller()->plan().memoryMeasuredFrom.isEmpty());

        // Saved: a new window plans the deployment with it.
        m_window.reset();
        openWindow();
        QCOMPARE(m_window->library()->memoryCalibrations().size(), 1);
        QVERIFY(controller()->setScenario(deployment));
        QCOMPARE(controller()->plan().weights.bytesPerGpu, logged);
    }

    void pastedLogIsExplainedAndJunkRefused()
    {
        ExplainLogDialog dialog;
        QSignalSpy finished(&dialog, &ExplainLogDialog::finished);
        dialog.logText()->setPlainText(llamaStartupLog());
        dialog.findChild<QPushButton *>(QStringLiteral("explainStartupLogButton"))->click();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        const QString explained = dialog.explanation()->toPlainText();
        QVERIFY(explained.contains(QStringLiteral("Read from the pasted log")));
        // Text that is no start-up log: one message naming it, the last explanation kept.
        dialog.logText()->setPlainText(QStringLiteral("Available KV cache memory: 3.00 GiB"));
        dialog.findChild<QPushButton *>(QStringLiteral("explainStartupLogButton"))->click();
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(finished.at(1).at(0).toBool(), false);
        QVERIFY2(dialog.status()->text().startsWith(QStringLiteral("the pasted log: the log names no model")),
                 qPrintable(dialog.status()->text()));
        QCOMPARE(dialog.explanation()->toPlainText(), explained);
    }

    void modelAndGpuBoxesSettleWhatTheLogDoesNotSay()
    {
        // An SGLang log that names a model kvscope has no preset for and prints no free memory
        // (the kind of excerpt issue threads hold): refused, naming --gpu; with the model and
        // GPU chosen in the dialog, explained as explain-log --model --gpu explains it.
        const QString log = QStringLiteral(
            "python -m sglang.launch_server --model-path /home/me/my-llama --tp-size 2 "
            "--mem-fraction-static 0.85\n"
            "[2025-03-08 12:29:21 TP1] KV Cache is allocated. #tokens: 900000, K size: 27.47 GB, V size: "
            "27.47 GB\n");
        ExplainLogDialog dialog;
        QSignalSpy finished(&dialog, &ExplainLogDialog::finished);
        dialog.logText()->setPlainText(log);
        dialog.explainPastedText();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(dialog.status()->text().endsWith(QStringLiteral("give --gpu")),
                 qPrintable(dialog.status()->text()));

        dialog.modelOverride()->setCurrentText(QStringLiteral("llama-3.1-8b"));
        dialog.gpuOverride()->setCurrentIndex(dialog.gpuOverride()->findText(QStringLiteral("h100-sxm")));
        dialog.explainPastedText();
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(finished.at(1).at(0).toBool(), true);
        const LogExplanation expected = explainStartupLog(
            readStartupLog(log, QStringLiteral("the pasted log")),
            {QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), {}}, builtinResolvers());
        QCOMPARE(expected.plan.engine, Engine::Sglang);
        QCOMPARE(expected.plan.tensorParallelSize, 2);
        QCOMPARE(dialog.explanation()->toPlainText(), documentText(logExplanationHtml(expected)));
        QVERIFY(dialog.explanation()->toPlainText().contains(
            QStringLiteral("model llama-3.1-8b: given with --model")));
        // The vLLM box is explain-log's --vllm-version: it lists the modelled releases, and an
        // SGLang log refuses it, naming the option.
        QVERIFY(dialog.versionOverride()->findText(QStringLiteral("0.19")) > 0);
        dialog.versionOverride()->setCurrentIndex(dialog.versionOverride()->findText(QStringLiteral("0.19")));
        dialog.explainPastedText();
        QTRY_COMPARE(finished.size(), 3);
        QCOMPARE(finished.at(2).at(0).toBool(), false);
        QVERIFY2(dialog.status()->text().contains(QStringLiteral("--vllm-version 0.19")),
                 qPrintable(dialog.status()->text()));
    }

    void explanationIsInTheWindowsLanguage()
    {
        // In Chinese the explanation's headings, components and sentences are Chinese too
        // (the core's words were filed under a context its tr() did not ask for).
        translations::apply(QStringLiteral("zh_CN"));
        const auto restore = qScopeGuard([] { translations::apply(QStringLiteral("en")); });
        ExplainLogDialog dialog;
        QSignalSpy finished(&dialog, &ExplainLogDialog::finished);
        dialog.logText()->setPlainText(llamaStartupLog());
        dialog.explainPastedText();
        QTRY_COMPARE(finished.size(), 1);
        const QString text = dialog.explanation()->toPlainText();
        for (const char *chinese : {"每块 GPU", "性能剖析运行的激活峰值", "KV Cache 为何是这个大小"})
            QVERIFY2(text.contains(QString::fromUtf8(chinese)), chinese);
        for (const char *english : {"Activation peak", "Why the KV cache", "Per GPU", "gives the engine"})
            QVERIFY2(!text.contains(QLatin1String(english)), english);
        // The table's columns line up on screen in any font: the parts are a table whose second
        // column holds each logged figure (in a monospaced text a Chinese label strayed them).
        QTextTable *table = nullptr;
        for (QTextFrame *frame : dialog.explanation()->document()->rootFrame()->childFrames())
            if ((table = qobject_cast<QTextTable *>(frame)))
                break;
        QVERIFY(table);
        QCOMPARE(table->columns(), 4);
        const QString firstLabel = table->cellAt(1, 0).firstCursorPosition().block().text();
        QCOMPARE(firstLabel, QString::fromUtf8("权重"));
        // Qt's own button in Chinese too (qtbase_zh_CN.qm from qt6-translations-l10n, which
        // scripts/setup.sh installs and the package recommends).
        QCOMPARE(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Close)->text(),
                 QString::fromUtf8("关闭"));
        const QStringList logged{QStringLiteral("14.99 GiB"), QStringLiteral("1.89 GiB"),
                                 QStringLiteral("0.25 GiB")};
        for (int row = 1; row <= int(logged.size()); ++row)
            QCOMPARE(table->cellAt(row, 1).firstCursorPosition().block().text(), logged.at(row - 1));
    }

    void anUnknownModelIsRefusedInTheWindowsLanguage()
    {
        // The core's refusal of a model it does not know reaches the dialog in Chinese too.
        translations::apply(QStringLiteral("zh_CN"));
        const auto restore = qScopeGuard([] { translations::apply(QStringLiteral("en")); });
        ExplainLogDialog dialog;
        QSignalSpy finished(&dialog, &ExplainLogDialog::finished);
        dialog.logText()->setPlainText(
            QStringLiteral("vllm serve someone/no-such-model --gpu-memory-utilization 0.9\n"
                           "worker init memory snapshot: total_memory=79.19GiB"));
        dialog.explainPastedText();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString status = dialog.status()->text();
        QVERIFY2(status.contains(QStringLiteral("someone/no-such-model")) &&
                     status.contains(QString::fromUtf8("未知模型")),
                 qPrintable(status));
    }

    void pasteConfigDialog()
    {
        PasteConfigDialog dialog;
        dialog.findChild<QPlainTextEdit *>(QStringLiteral("pastedConfigText"))
            ->setPlainText(QStringLiteral("{ not json"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected)); // stays open with the error
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("pastedConfigError"))
                    ->text()
                    .contains(QLatin1String("malformed JSON")));

        dialog.findChild<QLineEdit *>(QStringLiteral("pastedConfigName"))
            ->setText(QStringLiteral("My Llama"));
        dialog.findChild<QPlainTextEdit *>(QStringLiteral("pastedConfigText"))
            ->setPlainText(QString::fromUtf8(llamaConfig));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QString key = m_window->library()->addImported(dialog.imported(), dialog.configText());
        QVERIFY(key.startsWith(QLatin1String("pasted:")));
        const ModelArch *model = m_window->library()->findModel(key);
        QVERIFY(model);
        QCOMPARE(model->name, QStringLiteral("My Llama"));
    }

    void oversizedPastedConfigKeepsTheModel()
    {
        // A valid config.json, padded past the 1 MiB a pasted config may keep
        // (a real one is a few KiB): it parses, but the library refuses it.
        QByteArray config = llamaConfig;
        // Whitespace between tokens, in short lines (one long line would take the text box minutes).
        config.insert(config.lastIndexOf('}'), (QByteArray(63, ' ') + '\n').repeated((1 << 20) / 64 + 1));
        QVERIFY(config.size() > (1 << 20));
        const Scenario before = controller()->scenario();
        QTimer::singleShot(0, [config] {
            auto *dialog = qobject_cast<PasteConfigDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                qFatal("no paste dialog");
            dialog->findChild<QPlainTextEdit *>(QStringLiteral("pastedConfigText"))
                ->setPlainText(QString::fromUtf8(config));
            closeNextModal(); // the error message that follows
            dialog->accept();
        });
        m_window->pasteConfig(); // returns once the dialog and the message are closed
        QCOMPARE(controller()->scenario().model.id, before.model.id);
        QVERIFY(m_window->library()->importedModels().isEmpty());
        const QString shown = m_window->statusBar()->currentMessage();
        QVERIFY2(shown.contains(QLatin1String("is too large to keep")), qPrintable(shown));
        QTRY_VERIFY(!QApplication::activeModalWidget());
    }

    void customGpuDialogAndPicker()
    {
        CustomGpuDialog dialog;
        dialog.findChild<QLineEdit *>(QStringLiteral("customGpuName"))->setText(QStringLiteral("Lab card"));
        dialog.findChild<QDoubleSpinBox *>(QStringLiteral("customGpuMemory"))->setValue(23.5);
        dialog.findChild<QDoubleSpinBox *>(QStringLiteral("customGpuBandwidth"))->setValue(936);
        dialog.findChild<QDoubleSpinBox *>(QStringLiteral("customGpuVectorTflops"))->setValue(35.6);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const GpuSpec gpu = dialog.gpu();
        QCOMPARE(gpu.memoryBytes, 23.5 * (1LL << 30)); // 23.5 GiB exactly
        QCOMPARE(gpu.tflopsFp32Vector.value_or(0), 35.6);
        QVERIFY(!gpu.tflopsBf16); // left at "unknown"
        QVERIFY(gpu.custom);

        const QString id = m_window->library()->addCustomGpu(gpu);
        controller()->setGpu(*m_window->library()->findGpu(id));
        QCOMPARE(controller()->plan().gpuMemoryBytes, gpu.memoryBytes);
        QVERIFY(pickerGroups("gpuPicker").contains(QStringLiteral("Custom")));
        QCOMPARE(picker("gpuPicker")->currentKey(), id);
    }

    void speedCalibrationDialog()
    {
        // Llama-3.1-8B on an H100, 16 x 8192 tokens: the fields start from the scenario, the
        // time from what the public calibration predicts for it (a scale of 1).
        const MemoryPlan plan = controller()->plan();
        SpeedCalibrationDialog dialog(controller()->scenario(), plan, std::nullopt);
        auto *itl = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("calibrationItl"));
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("calibrationConcurrency"))->value(), 16);
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("calibrationContext"))->value(), 8192);
        QVERIFY(std::abs(itl->value() - plan.speed.decode.seconds * 1e3) < 1e-3);
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("calibrationForget"))->isEnabled());
        // The public calibration's Hopper efficiency (docs/speed-validation.md), in whole percent.
        const QString hopper = QString::number(qRound(
            calibratedSpeedConstants().weightBandwidthEfficiency[std::size_t(GpuGeneration::Hopper)].value_or(
                0) *
            100));
        QVERIFY2(dialog.preview().startsWith(
                     QStringLiteral("NVIDIA H100 SXM 80GB: weights at %1 % of the datasheet "
                                    "bandwidth (public calibration %1 %)")
                         .arg(hopper)),
                 qPrintable(dialog.preview()));
        const auto *buttons = dialog.findChild<QDialogButtonBox *>();
        // Faster than 3,350 GB/s can read the weights: refused, Save disabled.
        itl->setValue(3);
        QVERIFY2(dialog.preview().contains(QLatin1String("3.00 ms at concurrency 16 is faster than")),
                 qPrintable(dialog.preview()));
        QVERIFY(!buttons->button(QDialogButtonBox::Save)->isEnabled());

        // A vllm bench serve result fills the fields: 16 at a time, 1024 + 256 / 2 tokens, 8.137 ms.
        const QString bench = test::sourceTreePath(QStringLiteral("tests/data/vllm-bench-result.json"));
        dialog.importBenchResult(bench);
        QCOMPARE(itl->value(), 8.137);
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("calibrationContext"))->value(), 1152);
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("calibrationWarning"))->isHidden());
        QVERIFY(buttons->button(QDialogButtonBox::Save)->isEnabled());
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const UserLibrary::StoredCalibration saved = dialog.calibration();
        QCOMPARE(saved.gpuId, QStringLiteral("h100-sxm"));
        QCOMPARE(saved.concurrency, std::int64_t(16));
        QCOMPARE(saved.origin, bench);

        // Saved: every plan on the H100 uses it, and the speed card says so.
        m_window->library()->saveSpeedCalibration(saved);
        QCOMPARE(controller()->scenario().speedCalibration.scalePpm, saved.scalePpm);
        const auto *speed = m_window->findChild<SpeedPanel *>();
        QVERIFY2(speed->figuresText().contains(QLatin1String("calibrated from your measurement")),
                 qPrintable(speed->figuresText()));
        SpeedCalibrationDialog again(controller()->scenario(), controller()->plan(), saved);
        QVERIFY(again.findChild<QPushButton *>(QStringLiteral("calibrationForget"))->isEnabled());
        QCOMPARE(again.findChild<QDoubleSpinBox *>(QStringLiteral("calibrationItl"))->value(), 8.137);
        m_window->library()->forgetSpeedCalibration(QStringLiteral("h100-sxm"));
        QCOMPARE(controller()->scenario().speedCalibration, MeasuredSpeedScale{});
        QVERIFY(!speed->figuresText().contains(QLatin1String("calibrated from your measurement")));
    }

    void rememberedAcrossRestart()
    {
        const QString path = writeFile(QStringLiteral("kept/config.json"), smallConfig);
        m_window->importModelPath(path);
        QTRY_COMPARE(controller()->scenario().model.id, QStringLiteral("imported:") + path);
        const QString gpuId =
            m_window->library()->addCustomGpu(customGpu(QStringLiteral("Remembered"), 40LL << 30, 1000));
        controller()->setGpu(*m_window->library()->findGpu(gpuId));
        m_window->close();
        m_window.reset();

        openWindow();
        // Saved models are imported again in the background.
        QTRY_COMPARE(controller()->scenario().model.id, QStringLiteral("imported:") + path);
        QCOMPARE(controller()->scenario().gpu.id, gpuId);
        QCOMPARE(m_window->library()->recentFiles().first(), path);
        QVERIFY(m_window->restoreProblems().isEmpty());

        // The file goes away: the entry is dropped with a message, the preset default returns.
        m_window->close();
        m_window.reset();
        QFile::remove(path);
        openWindow();
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        QTRY_VERIFY(!m_window->library()->isImporting());
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("llama-3.1-8b"));
        const QString problems = m_window->restoreProblems().join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QStringLiteral("library/imported = 'imported:%1' ignored: %1").arg(path)),
                 qPrintable(problems));
    }

    void corruptLibraryFallsBack()
    {
        m_window.reset();
        const QString kept = writeFile(QStringLiteral("good/config.json"), smallConfig);
        {
            QSettings settings;
            // One good entry and two bad ones: the good one stays.
            settings.setValue(
                QStringLiteral("library/imported"),
                QVariantList{QVariantMap{{QStringLiteral("key"), QStringLiteral("imported:") + kept}},
                             QVariantMap{{QStringLiteral("key"), QStringLiteral("stolen:1")}},
                             QStringLiteral("garbage")});
            QVariantMap badGpu = gpuToVariantMap(customGpu(QStringLiteral("Broken card"), 40LL << 30, 1000));
            badGpu[QStringLiteral("memory_bytes")] = -5;
            settings.setValue(QStringLiteral("library/customGpus"), QVariantList{badGpu});
            settings.setValue(QStringLiteral("library/recentFiles"),
                              QVariantMap{{QStringLiteral("not"), QStringLiteral("a list")}});
        }
        openWindow();
        UserLibrary *library = m_window->library();
        QTRY_VERIFY(!library->isImporting());
        QCOMPARE(library->importedModels().size(), 1);
        QCOMPARE(library->importedModels().first().key, QStringLiteral("imported:") + kept);
        QVERIFY(library->customGpus().isEmpty());
        QVERIFY(library->recentFiles().isEmpty());
        const QString problems = m_window->restoreProblems().join(QLatin1Char('\n'));
        for (const QString &line :
             {QStringLiteral("library/imported = 'stolen:1' ignored: not an imported model"),
              QStringLiteral("library/imported = 'garbage' ignored"),
              QStringLiteral("library/customGpus = 'Broken card' ignored: saved custom GPU: "
                             "field 'memory_bytes'"),
              QStringLiteral("library/recentFiles = '{not: a list}' ignored: not a list of "
                             "paths")})
            QVERIFY2(problems.contains(line), qPrintable(problems));
        QCOMPARE(m_window->restoreProblems().size(), 4);
        QVERIFY(m_window->statusBar()->currentMessage().contains(QLatin1String("library/customGpus")));

        // A list that is no list at all: nothing imported, one line.
        m_window.reset();
        appsettings::reset();
        QSettings().setValue(QStringLiteral("library/imported"), QStringLiteral("imported:/nowhere"));
        openWindow();
        QVERIFY(m_window->library()->importedModels().isEmpty());
        QCOMPARE(m_window->restoreProblems(),
                 QStringList{QStringLiteral("library/imported = 'imported:/nowhere' ignored: not a list of "
                                            "imported models")});
    }

    void aKeyTheLibraryAlreadyHoldsIsSkipped()
    {
        // Two saved models under one key (a hand-edited file): the first is kept, the
        // second reported, so saving keeps the order and every key names one model.
        m_window.reset();
        const QString path = writeFile(QStringLiteral("twice/config.json"), smallConfig);
        const auto pasted = [](const char *key, const char *name) {
            return QVariantMap{{QStringLiteral("key"), QLatin1String(key)},
                               {QStringLiteral("name"), QLatin1String(name)},
                               {QStringLiteral("config"), QByteArray(smallConfig)}};
        };
        const QVariantMap imported{{QStringLiteral("key"), QStringLiteral("imported:") + path}};
        QSettings().setValue(QStringLiteral("library/imported"),
                             QVariantList{pasted("pasted:1", "first"), imported, pasted("pasted:2", "second"),
                                          pasted("pasted:1", "third"), imported});
        openWindow();
        QTRY_VERIFY(!m_window->library()->isImporting());
        const auto keysAndNames = [this] {
            QStringList out;
            for (const UserLibrary::ImportedEntry &entry : m_window->library()->importedModels())
                out << entry.key + QLatin1Char('=') + entry.imported.model.name;
            return out;
        };
        QCOMPARE(keysAndNames().size(), 3);
        QCOMPARE(keysAndNames().at(0), QStringLiteral("pasted:1=first"));
        QVERIFY(keysAndNames().at(1).startsWith(QStringLiteral("imported:") + path + QLatin1Char('=')));
        QCOMPARE(keysAndNames().at(2), QStringLiteral("pasted:2=second"));
        const QStringList problems = m_window->restoreProblems();
        QCOMPARE(problems.size(), 2);
        for (const QString &key : {QStringLiteral("pasted:1"), QStringLiteral("imported:") + path})
            QVERIFY2(
                problems.contains(QStringLiteral("library/imported = '%1' ignored: an earlier saved model "
                                                 "has the same key")
                                      .arg(key)),
                qPrintable(problems.join(QLatin1Char('\n'))));

        // Saved (as on the library's next change; the file is not rewritten just for being
        // read) and restored: the same models in the same order, nothing to report.
        const QStringList before = keysAndNames();
        m_window->library()->save();
        m_window->close();
        m_window.reset();
        openWindow();
        QTRY_VERIFY(!m_window->library()->isImporting());
        QCOMPARE(keysAndNames(), before);
        QVERIFY2(m_window->restoreProblems().isEmpty(),
                 qPrintable(m_window->restoreProblems().join(QLatin1Char('\n'))));
    }

    void ggufModelOffersLlamaCppCacheTypes()
    {
        // A two-layer Llama-shaped GGUF written by the test (tests/filewriters.h):
        // 2 KV heads of 64 per layer.
        const QString path = m_dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::writeFile(path, test::tinyLlamaGguf().bytes()));
        m_window->importModelPath(path);
        QTRY_COMPARE(controller()->scenario().model.id, QStringLiteral("imported:") + path);
        QCOMPARE(controller()->plan().modelFormat, ModelFormat::Gguf);
        auto *kvCombo = m_window->findChild<QComboBox *>(QStringLiteral("kvCacheDtypeCombo"));
        const int q8 = kvCombo->findData(QStringLiteral("q8_0"));
        QVERIFY(q8 >= 0);
        kvCombo->setCurrentIndex(q8);
        Q_EMIT kvCombo->activated(q8);
        // q8_0: 34 bytes per 32 values (ggml-common.h block_q8_0):
        // 2 layers x (K + V) x 2 heads x 64 values x 34/32 = 544 bytes per token.
        QCOMPARE(controller()->plan().kv.bytesPerToken, 544);
        QCOMPARE(m_window->findChild<QSlider *>(QStringLiteral("precisionSlider"))->maximum(),
                 3); // F32 F16 Q8_0 Q4_0
        QVERIFY(!m_window->findChild<QComboBox *>(QStringLiteral("quantizationCombo"))->isEnabled());
        QVERIFY(controller()->plan().weights.budgetUsesMeasured);
    }

    void modelWithoutLlamaCppBlocksStillImports()
    {
        // Heads of 40 values: 2 KV heads x 40 = 80 values per row, which
        // llama.cpp's 32-value Q8_0/Q4_0 blocks cannot hold (ggml-common.h
        // QK8_0 = 32). The F16 plan is fine; the growth chart's Q8_0 and Q4_0
        // curves cannot be planned, and must not take the window down.
        test::GgufWriter gguf = test::tinyLlamaGguf();
        gguf.u32(QStringLiteral("llama.attention.key_length"), 40)
            .u32(QStringLiteral("llama.attention.value_length"), 40);
        const QString path = m_dir.filePath(QStringLiteral("odd-heads.gguf"));
        QVERIFY(test::writeFile(path, gguf.bytes()));
        QSignalSpy errors(m_window->explorer(), &ExplorerView::errorOccurred);
        m_window->importModelPath(path);
        QTRY_COMPARE(controller()->scenario().model.id, QStringLiteral("imported:") + path);
        // layers x (K + V) x KV heads x 40 values x 2 bytes (F16)
        QCOMPARE(controller()->plan().kv.bytesPerToken, 2 * 2 * 2 * 40 * 2);
        QVERIFY(!errors.isEmpty());
        QVERIFY2(errors.last().first().toString().contains(QLatin1String("q8_0 stores blocks of 32 values")),
                 qPrintable(errors.last().first().toString()));
        QVERIFY(m_window->isVisible());
    }

    void opensAFileGivenOnTheCommandLine()
    {
        // As the desktop entry starts it (Exec=kvscope %f): the window opens,
        // imports the file in the background and selects it.
        const QString path = writeFile(QStringLiteral("launched/config.json"), smallConfig);
        QTemporaryDir config;
        const QString png = config.filePath(QStringLiteral("window.png"));
        const test::WindowRun run = test::runWindow(config, {path, QStringLiteral("--screenshot"), png,
                                                             QStringLiteral("--lang"), QStringLiteral("en")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(!QImage(png).isNull());
        const QSettings saved(test::settingsFile(config), QSettings::IniFormat);
        QCOMPARE(saved.value(QStringLiteral("library/recentFiles")).toStringList(), QStringList{path});

        // A bad file: the window still opens, and says why (the screenshot then exits 1).
        const QString bad =
            writeFile(QStringLiteral("launched-bad/config.json"), "{\"num_hidden_layers\": 32,");
        const test::WindowRun refused = test::runWindow(config, {bad, QStringLiteral("--screenshot"), png});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("malformed JSON") && refused.err.contains(bad.toUtf8()),
                 refused.err.constData());
        QVERIFY(!QImage(png).isNull());
    }

    void newerImportSupersedesOlder()
    {
        const QString first = writeFile(QStringLiteral("first/config.json"), llamaConfig);
        const QString second = writeFile(QStringLiteral("second/config.json"), smallConfig);
        QSignalSpy imported(m_window->importer(), &ModelImporter::imported);
        m_window->importModelPath(first);
        m_window->importModelPath(second);
        QTRY_VERIFY(!m_window->importer()->busy() &&
                    controller()->scenario().model.id.endsWith(QLatin1String("second/config.json")));
        QTest::qWait(100);
        QCOMPARE(controller()->scenario().model.id, QStringLiteral("imported:") + second);
    }
};

QTEST_MAIN(TestImportUi)
#include "tst_importui.moc"
