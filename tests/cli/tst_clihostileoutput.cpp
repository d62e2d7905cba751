// SPDX-License-Identifier: MIT
// Output an input can forge, exit codes and export, through the binary: names
// from a GGUF file or a folder holding terminal escapes and line breaks reach
// stdout and stderr escaped, the launch line quoted as a POSIX shell reads it
// back; --variant read as a shell reads words; a file size limit, symbolic
// link loops and a missing terminal each with their own message; export
// validating every option it is given.
#include "tests/filewriters.h"
#include "tests/support/kvscoperun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSize>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope::test;

namespace {

/// What a hostile name carries: a window title (ESC ] 0 ; … BEL), a clear
/// screen (ESC [ 2 J) and a line break that starts a forged table line.
const QString Forgery = QStringLiteral("\x1b]0;pwned\x07\x1b[2J\nforged: fits");
/// The same as kvscope shows it: each control character as \xHH (printableText).
const QString ShownForgery = QStringLiteral("\\x1b]0;pwned\\x07\\x1b[2J\\x0aforged: fits");

/// A Llama-shaped config.json, enough for a model folder.
QByteArray configJson()
{
    return QJsonDocument(
               QJsonObject{{QStringLiteral("architectures"), QJsonArray{QStringLiteral("LlamaForCausalLM")}},
                           {QStringLiteral("model_type"), QStringLiteral("llama")},
                           {QStringLiteral("hidden_size"), 256},
                           {QStringLiteral("num_hidden_layers"), 2},
                           {QStringLiteral("num_attention_heads"), 4},
                           {QStringLiteral("num_key_value_heads"), 2},
                           {QStringLiteral("intermediate_size"), 512},
                           {QStringLiteral("vocab_size"), 1000},
                           {QStringLiteral("max_position_embeddings"), 4096},
                           {QStringLiteral("torch_dtype"), QStringLiteral("bfloat16")}})
        .toJson();
}

/// Why `text` could act on a terminal or forge a line: the first control byte
/// other than a line break, or a line that starts with the forged text. Empty if none.
QByteArray forgeryIn(const QByteArray &text)
{
    for (const char c : text)
        if ((quint8(c) < 0x20 && c != '\n') || quint8(c) == 0x7f)
            return "raw control byte 0x" + QByteArray::number(quint8(c), 16);
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith("forged"))
            return "forged line: " + line;
    return {};
}

/// Whether a run printed one error line on stderr, escaped, naming `message`.
bool oneEscapedErrorLine(const Run &run, const QString &message)
{
    return run.err.startsWith("kvscope: error: ") && run.err.count('\n') == 1 &&
           forgeryIn(run.err).isEmpty() && QString::fromUtf8(run.err).contains(message);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// A PNG's size from its IHDR chunk (PNG specification 11.2.2), or (-1, -1).
QSize pngSize(const QByteArray &png)
{
    if (!png.startsWith("\x89PNG\r\n\x1a\n") || png.mid(12, 4) != "IHDR")
        return QSize(-1, -1);
    const auto bigEndian = [&](qsizetype at) {
        quint32 value = 0;
        for (qsizetype i = 0; i < 4; ++i)
            value = value << 8 | quint8(png.at(at + i));
        return int(value);
    };
    return QSize(bigEndian(16), bigEndian(20));
}

} // namespace

class TestCliHostileOutput : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    /// A GGUF named "Evil" + Forgery.
    QString evilGguf() const
    {
        const QString file = path(QStringLiteral("evil.gguf"));
        if (!QFile::exists(file))
            writeFile(file, tinyLlamaGguf(QStringLiteral("Evil") + Forgery).bytes());
        return file;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"), "ctest sets KVSCOPE_BINARY");
        QVERIFY(m_dir.isValid());
    }

    // --- Names from a file or a folder reach stdout escaped -------------------------------

    void stdoutEscapesAGgufName_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("calc") << QStringList{QStringLiteral("calc")};
        QTest::newRow("calc --formulas") << QStringList{QStringLiteral("calc"), QStringLiteral("--formulas")};
        QTest::newRow("compare") << QStringList{QStringLiteral("compare")};
        QTest::newRow("fit") << QStringList{QStringLiteral("fit"),      QStringLiteral("--concurrency"),
                                            QStringLiteral("1"),        QStringLiteral("--gpu"),
                                            QStringLiteral("h100-sxm"), QStringLiteral("--max-gpus"),
                                            QStringLiteral("1")};
    }

    void stdoutEscapesAGgufName()
    {
        QFETCH(QStringList, arguments);
        const Run run = runKvscope(arguments + QStringList{QStringLiteral("--model"), evilGguf()});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        QVERIFY2(forgeryIn(run.out).isEmpty(), forgeryIn(run.out).constData());
        // The launch line names the file (its name is safe); the tables name the model.
        if (!arguments.contains(QStringLiteral("--formulas")))
            QVERIFY2(QString::fromUtf8(run.out).contains(QStringLiteral("Evil") + ShownForgery),
                     run.out.constData());
    }

    void stdoutEscapesAGgufArchitecture()
    {
        // An unknown architecture is read with the generic decoder fields, with a note naming it.
        const QString file = path(QStringLiteral("evil-architecture.gguf"));
        QVERIFY(writeFile(file,
                          tinyLlamaGguf(QStringLiteral("Tiny"), QStringLiteral("llama") + Forgery).bytes()));
        const Run run = runKvscope({QStringLiteral("calc"), QStringLiteral("--model"), file});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        QVERIFY2(forgeryIn(run.out).isEmpty(), forgeryIn(run.out).constData());
        QVERIFY2(QString::fromUtf8(run.out).contains(QStringLiteral("llama") + ShownForgery),
                 run.out.constData());
    }

    void launchLineQuotesAFolderAsAShellReadsIt()
    {
        // A folder named it's<ESC>[2J<LF>evil: single quotes around the text, '\'' for the quote,
        // each control character as $'\xHH' (bash, zsh, ksh, POSIX.1-2024), which a shell reads
        // back as that byte.
        const QString folder = path(QStringLiteral("it's\x1b[2J\nevil"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(writeFile(folder + QStringLiteral("/config.json"), configJson()));
        const Run run = runKvscope({QStringLiteral("calc"), QStringLiteral("--model"), folder});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        QVERIFY2(forgeryIn(run.out).isEmpty(), forgeryIn(run.out).constData());
        const QString expected =
            QStringLiteral("vllm serve '%1/it'\\''s'$'\\x1b''[2J'$'\\x0a''evil'\n").arg(m_dir.path());
        QVERIFY2(QString::fromUtf8(run.out).contains(QStringLiteral("\nLaunch\n") + expected),
                 run.out.constData());
        // The table's first line names the model by its folder, escaped.
        QVERIFY2(run.out.startsWith("it's\\x1b[2J\\x0aevil on "), run.out.constData());
    }

    // --- Values echoed on stderr are escaped ------------------------------------------------

    void stderrEscapesEchoedValues_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString clear = QStringLiteral("\x1b[2J\nforged");
        const QString shown = QStringLiteral("\\x1b[2J\\x0aforged");
        QTest::newRow("--variant prefix")
            << QStringList{QStringLiteral("compare"), QStringLiteral("--variant"), clear,
                           QStringLiteral("--variant"), QString()}
            << QStringLiteral("--variant 1 (\"%1\")").arg(shown);
        QTest::newRow("--lang") << QStringList{QStringLiteral("--lang"), clear}
                                << QStringLiteral("--lang: unknown language '%1'").arg(shown);
        QTest::newRow("export --lang") << QStringList{QStringLiteral("export"),
                                                      QStringLiteral("--chart"),
                                                      QStringLiteral("memory"),
                                                      QStringLiteral("--out"),
                                                      QStringLiteral("a.png"),
                                                      QStringLiteral("--lang"),
                                                      clear}
                                       << QStringLiteral("--lang: unknown language '%1'").arg(shown);
        QTest::newRow("--chart") << QStringList{QStringLiteral("export"), QStringLiteral("--chart"), clear,
                                                QStringLiteral("--out"), QStringLiteral("a.png")}
                                 << QStringLiteral("--chart: unknown chart '%1'").arg(shown);
        QTest::newRow("--view") << QStringList{QStringLiteral("--view"), clear}
                                << QStringLiteral("--view: unknown view '%1'").arg(shown);
        QTest::newRow("--palette") << QStringList{QStringLiteral("--palette"), clear}
                                   << QStringLiteral("--palette: unknown palette '%1'").arg(shown);
        QTest::newRow("--size")
            << QStringList{QStringLiteral("--size"), clear}
            << QStringLiteral("--size: expected WIDTHxHEIGHT such as 1280x720, got '%1'").arg(shown);
        QTest::newRow("unknown command")
            << QStringList{clear} << QStringLiteral("unknown command '%1'").arg(shown);
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("--") + clear} << QStringLiteral("Unknown option '%1'").arg(shown);
        QTest::newRow("calc: unknown option")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--") + clear}
            << QStringLiteral("calc: Unknown option '%1'").arg(shown);
    }

    void stderrEscapesEchoedValues()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        RunOptions options;
        options.workingDirectory = m_dir.path();
        const Run run = runWithoutDisplay(arguments, options);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(oneEscapedErrorLine(run, message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // --- --variant is read as a POSIX shell reads words -----------------------------------

    void variantReadsQuotesAsAShellDoes_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::newRow("single quotes") << QStringLiteral("--kv-cache-dtype 'fp8'");
        QTest::newRow("double quotes") << QStringLiteral("--kv-cache-dtype \"fp8\"");
        QTest::newRow("backslash") << QStringLiteral("--kv-cache-dtype fp\\8");
        QTest::newRow("adjacent quotes") << QStringLiteral("'--kv-cache-dtype' 'f'\"p\"8");
        QTest::newRow("quoted value") << QStringLiteral("--kv-cache-dtype=fp8 --model 'llama-3.1-8b'");
    }

    void variantReadsQuotesAsAShellDoes()
    {
        // Each spelling is the words "--kv-cache-dtype" "fp8": vLLM's fp8 KV cache is fp8_e4m3.
        QFETCH(QString, variant);
        const Run run =
            runKvscope({QStringLiteral("compare"), QStringLiteral("--json"), QStringLiteral("--variant"),
                        QString(), QStringLiteral("--variant"), variant});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        const QJsonArray variants =
            QJsonDocument::fromJson(run.out).object().value(QLatin1String("variants")).toArray();
        QCOMPARE(variants.size(), 2);
        QCOMPARE(variants.at(1).toObject().value(QLatin1String("kv_cache_dtype")).toString(),
                 QStringLiteral("fp8_e4m3"));
    }

    void variantRefusesAnOpenQuote_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("problem");
        QTest::newRow("double") << QStringLiteral("--kv-cache-dtype \"fp8")
                                << QStringLiteral("a \" quote is not closed");
        QTest::newRow("single") << QStringLiteral("--kv-cache-dtype 'fp8")
                                << QStringLiteral("a ' quote is not closed");
        QTest::newRow("backslash") << QStringLiteral("--kv-cache-dtype fp8\\")
                                   << QStringLiteral("a \\ at the end escapes nothing");
    }

    void variantRefusesAnOpenQuote()
    {
        QFETCH(QString, variant);
        QFETCH(QString, problem);
        const Run run = runKvscope({QStringLiteral("compare"), QStringLiteral("--variant"), QString(),
                                    QStringLiteral("--variant"), variant});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(oneEscapedErrorLine(run, QStringLiteral("--variant 2 (\"%1\"): %2").arg(variant, problem)),
                 run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // --- A file size limit, and export's sizes --------------------------------------------

    void fileSizeLimitIsReportedNotFatal_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("message");
        QTest::newRow("standard output")
            << QStringList{QStringLiteral("calc"), QStringLiteral("--json")} << QStringLiteral("calc.json")
            << QStringLiteral("standard output: cannot write: File too large");
        QTest::newRow("export --out")
            << QStringList{QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                           QStringLiteral("--out"), QStringLiteral("limited.png")}
            << QString() << QStringLiteral("limited.png: cannot write: File too large");
    }

    void fileSizeLimitIsReportedNotFatal()
    {
        // `ulimit -f 1` (512 bytes) with SIGXFSZ at its default, which kills the writer: kvscope
        // ignores it and reports the short write (EFBIG) as any other, exit 1.
        QFETCH(QStringList, arguments);
        QFETCH(QString, output);
        QFETCH(QString, message);
        RunOptions options;
        options.fileSizeLimitBlocks = 1;
        options.ignoreFileSizeSignal = false;
        options.workingDirectory = m_dir.path();
        if (!output.isEmpty())
            options.standardOutputFile = path(output);
        const Run run = runWithoutDisplay(arguments, options);
        QVERIFY2(!run.crashed && run.exitCode == 1, run.describe().constData());
        QVERIFY2(oneEscapedErrorLine(run, message), run.err.constData());
        QVERIFY(!QFile::exists(path(QStringLiteral("limited.png"))));
    }

    void exportSizeErrorsAreUsageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const auto option = [](const char *name, const char *value) {
            return QStringList{QLatin1String(name), QLatin1String(value)};
        };
        QTest::newRow("--width past the limit")
            << option("--width", "16385") << QStringLiteral("--width: 16385 is larger than 16384");
        QTest::newRow("--width past 2^63")
            << option("--width", "9223372036854775808")
            << QStringLiteral("--width: 9223372036854775808 is larger than 16384");
        QTest::newRow("--height") << option("--height", "99999")
                                  << QStringLiteral("--height: 99999 is larger than 16384");
        QTest::newRow("--width below the least")
            << option("--width", "199") << QStringLiteral("size 199 × 720: each side must be from 200");
        QTest::newRow("--scale") << option("--scale", "5") << QStringLiteral("--scale: 5 is larger than 4");
        QTest::newRow("scaled image")
            << option("--width", "16384") + option("--height", "16384") + option("--scale", "2")
            << QStringLiteral("32768x32768 is too large: at most 16384 pixels a side");
    }

    void exportSizeErrorsAreUsageErrors()
    {
        // docs/methodology.md, "Sizes are bounded": beyond the bounds kvscope says so and exits 2.
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run run = runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                                      QStringLiteral("memory"), QStringLiteral("--out"),
                                                      path(QStringLiteral("sized.png"))} +
                                          arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(oneEscapedErrorLine(run, message), run.err.constData());
        QVERIFY(!QFile::exists(path(QStringLiteral("sized.png"))));
    }

    // --- Symbolic link loops, links to nothing, no terminal -------------------------------

    void outRefusesASymbolicLinkLoop()
    {
        // loop.png -> loop.png: writing through it fails with ELOOP; renaming over it would
        // replace the link with a regular file.
        const QString loop = path(QStringLiteral("loop.png"));
        QVERIFY(QFile::link(QStringLiteral("loop.png"), loop));
        const Run run = runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"),
                                           QStringLiteral("memory"), QStringLiteral("--out"), loop});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(oneEscapedErrorLine(run, loop + QStringLiteral(": cannot write: a symbolic link loop")),
                 run.err.constData());
        QVERIFY(QFileInfo(loop).isSymLink());
    }

    void readingALinkSaysWhatItIs_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("link");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("what");
        const QStringList open;
        const QStringList calc{QStringLiteral("calc"), QStringLiteral("--model")};
        QTest::newRow("open: loop") << open << QStringLiteral("loop.kvscope")
                                    << QStringLiteral("loop.kvscope")
                                    << QStringLiteral("a symbolic link loop");
        QTest::newRow("open: to nothing")
            << open << QStringLiteral("dangling.kvscope") << QStringLiteral("missing.kvscope")
            << QStringLiteral("a symbolic link to a missing target (%1)");
        QTest::newRow("calc: loop") << calc << QStringLiteral("loop-model") << QStringLiteral("loop-model")
                                    << QStringLiteral("a symbolic link loop");
        QTest::newRow("calc: to nothing")
            << calc << QStringLiteral("dangling-model") << QStringLiteral("missing-model")
            << QStringLiteral("a symbolic link to a missing target (%1)");
    }

    void readingALinkSaysWhatItIs()
    {
        // Not "no file or folder of that name": the name is there, and what it leads to is named.
        QFETCH(QStringList, command);
        QFETCH(QString, link);
        QFETCH(QString, target);
        QFETCH(QString, what);
        QVERIFY(QFile::link(target, path(link)));
        const Run run = runWithoutDisplay(command + QStringList{path(link)});
        QCOMPARE(run.exitCode, 1);
        const QString message = path(link) + QStringLiteral(": ") +
                                (what.contains(QLatin1String("%1")) ? what.arg(path(target)) : what);
        QVERIFY2(oneEscapedErrorLine(run, message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void outToTheTerminalWithoutOne()
    {
        // In a session of its own kvscope has no controlling terminal: opening /dev/tty fails
        // with ENXIO, which is no FIFO without a reader.
        RunOptions options;
        options.withoutTerminal = true;
        const Run run =
            runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                               QStringLiteral("--out"), QStringLiteral("/dev/tty"),
                               QStringLiteral("--format"), QStringLiteral("csv")},
                              options);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(oneEscapedErrorLine(run, QStringLiteral("/dev/tty: cannot write: no controlling terminal")),
                 run.err.constData());
    }

    // --- An empty --vllm-version is no release --------------------------------------------

    void emptyVllmVersionIsRefused_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("empty") << QString();
        QTest::newRow("blank") << QStringLiteral(" ");
    }

    void emptyVllmVersionIsRefused()
    {
        // Not the newest release: that is "auto" or leaving the option out.
        QFETCH(QString, version);
        const Run run = runKvscope({QStringLiteral("calc"), QStringLiteral("--vllm-version"), version});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(
            oneEscapedErrorLine(
                run, QStringLiteral("--vllm-version: expected a release such as 0.19 or 0.10.1, got '%1'")
                         .arg(version)),
            run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // --- calc's table names the engine's own flags ----------------------------------------

    void tableHeaderNamesTheEnginesFlags_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QStringList>("foreign");
        // Llama-3.1-8B: max_position_embeddings 131072 (its config.json). vLLM's defaults:
        // --gpu-memory-utilization 0.9, --block-size 16 (CUDA). SGLang's server_args:
        // --context-length, --mem-fraction-static, --page-size (default 1).
        QTest::newRow("vllm") << QStringLiteral("vllm")
                              << QStringList{QStringLiteral("--gpu-memory-utilization 0.9"),
                                             QStringLiteral("--max-model-len 131072"),
                                             QStringLiteral("--block-size 16")}
                              << QStringList{QStringLiteral("--mem-fraction-static"),
                                             QStringLiteral("--page-size"),
                                             QStringLiteral("--context-length")};
        QTest::newRow("sglang") << QStringLiteral("sglang")
                                << QStringList{QStringLiteral("--mem-fraction-static 0."),
                                               QStringLiteral("--context-length 131072"),
                                               QStringLiteral("--page-size 1")}
                                << QStringList{QStringLiteral("--gpu-memory-utilization"),
                                               QStringLiteral("--max-model-len"),
                                               QStringLiteral("--block-size")};
    }

    void tableHeaderNamesTheEnginesFlags()
    {
        QFETCH(QString, engine);
        QFETCH(QStringList, flags);
        QFETCH(QStringList, foreign);
        const Run run = runKvscope({QStringLiteral("calc"), QStringLiteral("--engine"), engine});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        const QString header = QString::fromUtf8(run.out.split('\n').value(1));
        for (const QString &flag : flags)
            QVERIFY2(header.contains(flag), qPrintable(header));
        for (const QString &flag : foreign)
            QVERIFY2(!header.contains(flag), qPrintable(header));
    }

    // --- Vector output draws vectors ------------------------------------------------------

    void largeVectorExportDrawsNoBitmap_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("svg") << QStringLiteral("large.svg");
        QTest::newRow("pdf") << QStringLiteral("large.pdf");
    }

    void largeVectorExportDrawsNoBitmap()
    {
        // 16384 x 8192 at 4 bytes a pixel is 512 MiB: an SVG or a PDF of that size must not
        // allocate it (a run killed past 320 MiB; a small export takes about 40 MiB).
        QFETCH(QString, file);
        RunOptions options;
        options.maxResidentBytes = qint64(320) << 20;
        const Run run =
            runWithoutDisplay({QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
                               QStringLiteral("--out"), path(file), QStringLiteral("--width"),
                               QStringLiteral("16384"), QStringLiteral("--height"), QStringLiteral("8192")},
                              options);
        QVERIFY2(!run.tooLarge && run.exitCode == 0, run.describe().constData());
        const QByteArray drawn = readAll(path(file));
        if (file.endsWith(QLatin1String(".svg"))) {
            QVERIFY2(drawn.contains("<path") || drawn.contains("<polyline"), "no vector element");
            QVERIFY2(!drawn.contains("<image"), "an embedded bitmap");
        } else {
            QVERIFY(drawn.startsWith("%PDF-"));
            QVERIFY2(!drawn.contains("/Subtype /Image"), "an embedded bitmap");
        }
    }

    // --- export checks every option given, and names those its chart does not use ---------

    void exportChecksOptionsItDoesNotUse_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const auto words = [](std::initializer_list<const char *> list) {
            QStringList out;
            for (const char *word : list)
                out << QLatin1String(word);
            return out;
        };
        QTest::newRow("memory: quant options")
            << words({"--chart", "memory", "--scheme", "int9", "--rows", "0"}) << 1
            << QStringLiteral("--scheme: unknown scheme 'int9'");
        QTest::newRow("sqnr: calc options") << words({"--chart", "sqnr", "--gpu", "nope"}) << 1
                                            << QStringLiteral("--gpu: unknown GPU 'nope'");
        QTest::newRow("memory: growth options")
            << words({"--chart", "memory", "--growth-axis", "sideways"}) << 1
            << QStringLiteral("--growth-axis: expected 'sequence' or 'batch'");
        QTest::newRow("memory: one variant")
            << words({"--chart", "memory", "--variant", "--kv-cache-dtype fp9"}) << 2
            << QStringLiteral("--variant: give 2 to 4 variants, got 1");
    }

    void exportChecksOptionsItDoesNotUse()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString out = path(QStringLiteral("unused.png"));
        QFile::remove(out);
        const Run run = runWithoutDisplay(
            QStringList{QStringLiteral("export"), QStringLiteral("--out"), out} + arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(oneEscapedErrorLine(run, message), run.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void exportNamesOptionsItDoesNotUse()
    {
        // Valid but unused: drawn all the same, with one warning line naming them in the order given.
        const QString out = path(QStringLiteral("warned.png"));
        const Run run = runWithoutDisplay(
            {QStringLiteral("export"), QStringLiteral("--chart"), QStringLiteral("memory"),
             QStringLiteral("--out"), out, QStringLiteral("--scheme"), QStringLiteral("int8"),
             QStringLiteral("--rows"), QStringLiteral("64"), QStringLiteral("--page"), QStringLiteral("a4"),
             QStringLiteral("--batch-size"), QStringLiteral("8")});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        QCOMPARE(run.err,
                 QByteArray("kvscope: warning: --chart memory does not use --scheme, --rows, --page\n"));
        QVERIFY(QFile::exists(out));
    }

    void reportHonoursWidthAndHeight_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QSize>("size");
        // The report's pages at 96 dpi: a slide 1920 x 1080; A4, 210 x 297 mm, 794 x 1123.
        QTest::newRow("both") << QStringList{QStringLiteral("--width"), QStringLiteral("1000"),
                                             QStringLiteral("--height"), QStringLiteral("1400")}
                              << QSize(1000, 1400);
        QTest::newRow("width of a4") << QStringList{QStringLiteral("--page"), QStringLiteral("a4"),
                                                    QStringLiteral("--width"), QStringLiteral("900")}
                                     << QSize(900, 1123);
        QTest::newRow("height of a slide")
            << QStringList{QStringLiteral("--height"), QStringLiteral("1200")} << QSize(1920, 1200);
        QTest::newRow("page alone") << QStringList{QStringLiteral("--page"), QStringLiteral("a4")}
                                    << QSize(794, 1123);
    }

    void reportHonoursWidthAndHeight()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QSize, size);
        const QString out = path(QStringLiteral("report.png"));
        const Run run =
            runWithoutDisplay(QStringList{QStringLiteral("export"), QStringLiteral("--chart"),
                                          QStringLiteral("report"), QStringLiteral("--out"), out} +
                              arguments);
        QVERIFY2(run.exitCode == 0 && run.err.isEmpty(), run.describe().constData());
        QCOMPARE(pngSize(readAll(out)), size);
    }
};

QTEST_GUILESS_MAIN(TestCliHostileOutput)
#include "tst_clihostileoutput.moc"
