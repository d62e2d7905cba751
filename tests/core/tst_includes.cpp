// SPDX-License-Identifier: MIT
// The architecture's rules, checked on the sources.
//
// Folders in one order: a file may include the headers of its own folder and
// of the folders before it, never of one after it (FolderOrder below, the map
// in CONTRIBUTING.md). An include names its folder from the repository root
// ("core/plan/planner.h"), so the check reads it off the include itself.
//
// Options are identities (ScenarioField), spelled in one table: no string
// literal under ui/ or core/ spells a flag except in that table's file, neither
// as the whole literal ("--dtype") nor inside a sentence ("set by --dtype").
//
// The core's rule "QtCore only": every Qt header a
// file under core/ includes must be one of QtCore's. The link check in
// core/CMakeLists.txt does not see includes: <QtGui/QColor> compiles through
// Qt's top include folder, which QtCore's target adds, and what is inline in
// it needs no QtGui library. Each include of a Qt header (<QColor>,
// <QtGui/QColor>, <qcolor.h>) is resolved against QtCore's include folder,
// KVSCOPE_QTCORE_INCLUDE_DIR; ctest sets it and KVSCOPE_SOURCE_DIR.
#include <algorithm>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QTest>

namespace {

/// Lowest first: each folder builds on the ones before it. common: errors,
/// checked integers, units; precision: vLLM's precision knobs; formats: file
/// headers; model: architectures and how they are read; gpu; quantization: the
/// simulator; library: presets and the user's models; engine: each engine's facts
/// and versions; scenario: the Scenario and how it is spelled (options, launch
/// line); plan: planMemory and planSpeed; analysis: what-if and inverse questions
/// (growth, fixes, fit, formula); output: JSON, CSV, chart data, labels;
/// document: the scenario file; compare: precisions side by side.
///
/// ui/state: what the window holds but does not draw (controller, session,
/// settings, user library, importer, translations: QtCore only); style: palette,
/// fonts, zoom; widgets: generic widgets; charts; then one folder per feature,
/// each knowing only those before it; window: the main window, which puts the
/// features together (and installs the export actions on their charts).
/// app/cli: the headless commands; app: main() and --screenshot.
const QStringList FolderOrder = {
    QStringLiteral("core/common"),   QStringLiteral("core/precision"),  QStringLiteral("core/formats"),
    QStringLiteral("core/model"),    QStringLiteral("core/gpu"),        QStringLiteral("core/quantization"),
    QStringLiteral("core/library"),  QStringLiteral("core/engine"),     QStringLiteral("core/scenario"),
    QStringLiteral("core/plan"),     QStringLiteral("core/analysis"),   QStringLiteral("core/output"),
    QStringLiteral("core/document"), QStringLiteral("core/compare"),    QStringLiteral("ui/state"),
    QStringLiteral("ui/style"),      QStringLiteral("ui/widgets"),      QStringLiteral("ui/charts"),
    QStringLiteral("ui/library"),    QStringLiteral("ui/fit"),          QStringLiteral("ui/explainlog"),
    QStringLiteral("ui/explorer"),   QStringLiteral("ui/quantization"), QStringLiteral("ui/compare"),
    QStringLiteral("ui/export"),     QStringLiteral("ui/window"),       QStringLiteral("app/cli"),
    QStringLiteral("app"),
};

/// The index in FolderOrder of the folder holding `path` (the longest that
/// matches), or -1 outside them.
qsizetype folderRank(const QString &path)
{
    qsizetype rank = -1;
    for (qsizetype i = 0; i < FolderOrder.size(); ++i)
        if (path.startsWith(FolderOrder.at(i) + QLatin1Char('/')) &&
            (rank < 0 || FolderOrder.at(i).size() > FolderOrder.at(rank).size()))
            rank = i;
    return rank;
}

/// "file:line: \"header\" is in FOLDER, after FOLDER" for every include in
/// `text` (the source `file`, a path from the repository root) of a folder
/// that comes after the file's own.
QStringList upwardIncludes(const QString &text, const QString &file)
{
    static const QRegularExpression include(QStringLiteral(R"re(^\s*#\s*include\s*"([^"]+)")re"));
    const qsizetype own = folderRank(file);
    QStringList found;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QRegularExpressionMatch match = include.match(lines.at(i));
        if (!match.hasMatch())
            continue;
        const qsizetype target = folderRank(match.captured(1));
        if (own >= 0 && target > own)
            found << QStringLiteral("%1:%2: \"%3\" is in %4, after %5")
                         .arg(file)
                         .arg(i + 1)
                         .arg(match.captured(1), FolderOrder.at(target), FolderOrder.at(own));
    }
    return found;
}

/// `text` with its // and /* */ comments blanked out (string literals kept).
QString withoutComments(const QString &text)
{
    static const QRegularExpression comments(QStringLiteral(R"re(//[^\n]*|/\*[\s\S]*?\*/)re"));
    QString code = text;
    return code.replace(comments, QStringLiteral(" "));
}

/// "file:line: connect(...)" for every call of connect() in `text` with fewer
/// than four arguments: a functor connected without a context object, which
/// keeps running after the object it uses is gone. (QT_NO_CONTEXTLESS_CONNECT
/// forbids these only from Qt 6.7; on Qt 6.4 this test is the rule.)
QStringList contextlessConnects(const QString &text, const QString &file)
{
    static const QRegularExpression call(QStringLiteral(R"re((?<![\w:])(?:QObject::)?connect\()re"));
    const QString code = withoutComments(text);
    QStringList found;
    for (QRegularExpressionMatchIterator it = call.globalMatch(code); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        int depth = 1;
        int arguments = 1;
        qsizetype i = match.capturedEnd();
        for (; depth > 0 && i < code.size(); ++i) {
            const QChar c = code.at(i);
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
                for (++i; i < code.size() && code.at(i) != c; ++i)
                    if (code.at(i) == QLatin1Char('\\'))
                        ++i;
            } else if (c == QLatin1Char('(') || c == QLatin1Char('[') || c == QLatin1Char('{')) {
                ++depth;
            } else if (c == QLatin1Char(')') || c == QLatin1Char(']') || c == QLatin1Char('}')) {
                --depth;
            } else if (c == QLatin1Char(',') && depth == 1) {
                ++arguments;
            }
        }
        if (arguments < 4)
            found << QStringLiteral("%1:%2: %3")
                         .arg(file)
                         .arg(code.left(match.capturedStart()).count(QLatin1Char('\n')) + 1)
                         .arg(code.mid(match.capturedStart(), i - match.capturedStart()).simplified());
    }
    return found;
}

/// The file that spells every option flag (the table of core/common/scenariofield.h).
const QString FlagTable = QStringLiteral("core/common/scenariofield.cpp");

/// A string literal of a source: the text between its quotes, escapes as written.
struct Literal
{
    QString text;
    qsizetype line = 0; ///< where it starts, from 1
};

/// Whether the quote at `quote` in `code` opens a raw string: R"delimiter(...)delimiter",
/// with or without an encoding prefix (u8R, uR, UR, LR).
bool opensRawString(const QString &code, qsizetype quote)
{
    static const QStringList prefixes = {QStringLiteral("R"), QStringLiteral("u8R"), QStringLiteral("uR"),
                                         QStringLiteral("UR"), QStringLiteral("LR")};
    qsizetype word = quote;
    while (word > 0 && (code.at(word - 1).isLetterOrNumber() || code.at(word - 1) == QLatin1Char('_')))
        --word;
    return prefixes.contains(code.mid(word, quote - word));
}

/// The string literals of `code` outside its // and /* */ comments, in order. A '
/// opens a character literal ('"' starts no string) unless a letter or digit comes
/// before it (a digit separator: 1'000).
QList<Literal> stringLiterals(const QString &code)
{
    const qsizetype size = code.size();
    qsizetype line = 1;
    qsizetype counted = 0; // the newlines before it are in `line`
    const auto lineOf = [&](qsizetype at) {
        line += QStringView(code).sliced(counted, at - counted).count(QLatin1Char('\n'));
        counted = at;
        return line;
    };
    // Just past the quoted literal opened at `open`: after its closing quote, or
    // after the end of its line when it has none.
    const auto pastQuoted = [&](qsizetype open) {
        qsizetype at = open + 1;
        while (at < size && code.at(at) != code.at(open) && code.at(at) != QLatin1Char('\n'))
            at += code.at(at) == QLatin1Char('\\') ? 2 : 1;
        return std::min(at + 1, size);
    };

    QList<Literal> literals;
    qsizetype i = 0;
    while (i < size) {
        const QChar c = code.at(i);
        const QChar next = i + 1 < size ? code.at(i + 1) : QChar();
        if (c == QLatin1Char('/') && next == QLatin1Char('/')) {
            i = code.indexOf(QLatin1Char('\n'), i);
        } else if (c == QLatin1Char('/') && next == QLatin1Char('*')) {
            i = code.indexOf(QLatin1String("*/"), i + 2);
            i = i < 0 ? i : i + 2;
        } else if (c == QLatin1Char('"') && opensRawString(code, i)) {
            const qsizetype open = code.indexOf(QLatin1Char('('), i);
            const QString close = QLatin1Char(')') + code.mid(i + 1, open - i - 1) + QLatin1Char('"');
            const qsizetype end = open < 0 ? -1 : code.indexOf(close, open);
            if (end >= 0)
                literals << Literal{code.mid(open + 1, end - open - 1), lineOf(i)};
            i = end < 0 ? end : end + close.size();
        } else if (c == QLatin1Char('"')) {
            const qsizetype end = pastQuoted(i);
            literals << Literal{code.mid(i + 1, end - i - 2), lineOf(i)};
            i = end;
        } else if (c == QLatin1Char('\'') && (i == 0 || !code.at(i - 1).isLetterOrNumber())) {
            i = pastQuoted(i);
        } else {
            ++i;
        }
        if (i < 0) // a comment or raw string to the end of the file
            break;
    }
    return literals;
}

/// "file:line: text" for every line of `text` where a string literal spells an
/// option flag, outside comments: a literal that starts with two dashes
/// ("--batch-size"), or two dashes and a lower-case letter after a space or a
/// bracket inside one ("set by --kv-cache-dtype", "Weights (--dtype)").
QStringList optionFlagLiterals(const QString &text, const QString &file)
{
    static const QRegularExpression flag(QStringLiteral("^--|[ (]--[a-z]"));
    const QStringList lines = text.split(QLatin1Char('\n'));
    QStringList found;
    qsizetype reported = 0;
    for (const Literal &literal : stringLiterals(text))
        if (literal.line != reported && flag.match(literal.text).hasMatch()) {
            reported = literal.line;
            found << QStringLiteral("%1:%2: %3")
                         .arg(file, QString::number(literal.line), lines.at(literal.line - 1).trimmed());
        }
    return found;
}

/// The text of every .h and .cpp under `folders` of the source tree, by path from its root.
QMap<QString, QString> sources(const QStringList &folders)
{
    const QDir root(qEnvironmentVariable("KVSCOPE_SOURCE_DIR"));
    QMap<QString, QString> texts;
    for (const QString &folder : folders) {
        QDirIterator it(root.filePath(folder), {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            if (file.open(QIODevice::ReadOnly))
                texts.insert(root.relativeFilePath(file.fileName()), QString::fromUtf8(file.readAll()));
        }
    }
    return texts;
}

/// Whether `header`, written between `open` and its closing mark, names a Qt
/// header: a Qt module path (QtGui/QColor), a class header (QColor, QtNumeric)
/// or, in angle brackets, a lower-case Qt file (qcolor.h). The project's own
/// headers are lower case and in a folder ("quantization/scheme.h").
bool isQtHeader(const QString &header, QChar open)
{
    if (header.contains(QLatin1Char('/')))
        return header.startsWith(QLatin1String("Qt"));
    if (header.startsWith(QLatin1Char('Q')))
        return true;
    return open == QLatin1Char('<') && header.startsWith(QLatin1Char('q')) &&
           header.endsWith(QLatin1String(".h"));
}

/// Whether QtCore's include folder `qtCore` holds `header` (QtCore/QString or QString).
bool inQtCore(const QString &header, const QDir &qtCore)
{
    QString name = header;
    if (header.contains(QLatin1Char('/'))) {
        if (header.section(QLatin1Char('/'), 0, 0) != QLatin1String("QtCore"))
            return false;
        name = header.section(QLatin1Char('/'), 1);
    }
    return QFileInfo(qtCore.filePath(name)).isFile();
}

/// "file:line: <header>" for every Qt header `text` includes that QtCore does not hold.
QStringList foreignQtIncludes(const QString &text, const QString &file, const QDir &qtCore)
{
    static const QRegularExpression include(QStringLiteral(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])"));
    QStringList found;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QRegularExpressionMatch match = include.match(lines.at(i));
        if (!match.hasMatch())
            continue;
        const QChar open = match.captured(1).at(0);
        const QString header = match.captured(2).trimmed();
        if (isQtHeader(header, open) && !inQtCore(header, qtCore))
            found << QStringLiteral("%1:%2: %3%4%5 is not a QtCore header")
                         .arg(file)
                         .arg(i + 1)
                         .arg(open, header,
                              open == QLatin1Char('<') ? QStringLiteral(">") : QStringLiteral("\""));
    }
    return found;
}

QDir qtCoreIncludes()
{
    return QDir(qEnvironmentVariable("KVSCOPE_QTCORE_INCLUDE_DIR"));
}

} // namespace

class TestIncludes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // A wrong folder would let every include fail, or none be checked.
        QVERIFY2(QFileInfo(qtCoreIncludes().filePath(QStringLiteral("QString"))).isFile(),
                 "KVSCOPE_QTCORE_INCLUDE_DIR must be QtCore's include folder");
        QVERIFY2(QFileInfo(QDir(qEnvironmentVariable("KVSCOPE_SOURCE_DIR"))
                               .filePath(QStringLiteral("core/CMakeLists.txt")))
                     .isFile(),
                 "KVSCOPE_SOURCE_DIR must be the repository's root");
    }

    void recognizesEveryForm()
    {
        const QString text = QStringLiteral("#include \"quantization/scheme.h\"\n"
                                            "#include <cstdint>\n"
                                            "#include <QString>\n"
                                            "#  include <QtCore/QJsonObject>\n"
                                            "#include <qstring.h>\n"
                                            "#include <QtNumeric>\n"
                                            "#include <QtCore>\n"
                                            "#include <QColor>\n"
                                            "#include <QtGui/QColor>\n"
                                            "# include <qcolor.h>\n"
                                            "#include \"QWidget\"\n"
                                            "#include <QtConcurrent>\n"
                                            "#include <QtCore/QNoSuchHeader>\n");
        QCOMPARE(foreignQtIncludes(text, QStringLiteral("x.cpp"), qtCoreIncludes()),
                 QStringList({QStringLiteral("x.cpp:8: <QColor> is not a QtCore header"),
                              QStringLiteral("x.cpp:9: <QtGui/QColor> is not a QtCore header"),
                              QStringLiteral("x.cpp:10: <qcolor.h> is not a QtCore header"),
                              QStringLiteral("x.cpp:11: \"QWidget\" is not a QtCore header"),
                              QStringLiteral("x.cpp:12: <QtConcurrent> is not a QtCore header"),
                              QStringLiteral("x.cpp:13: <QtCore/QNoSuchHeader> is not a QtCore header")}));
    }

    void coreIncludesQtCoreOnly()
    {
        const QMap<QString, QString> core = sources({QStringLiteral("core")});
        QVERIFY(core.size() > 50);
        QStringList found;
        for (auto it = core.cbegin(); it != core.cend(); ++it)
            found += foreignQtIncludes(it.value(), it.key(), qtCoreIncludes());
        QVERIFY2(found.isEmpty(), qPrintable(QLatin1Char('\n') + found.join(QLatin1Char('\n'))));
    }

    void findsAnUpwardInclude()
    {
        const QString text = QStringLiteral("#include \"core/common/error.h\"\n"
                                            "#include \"core/plan/memoryplan.h\"\n"
                                            "#include \"core/plan/kvcache.h\"\n"
                                            "#include <QString>\n"
                                            "#include \"core/analysis/growth.h\"\n"
                                            "  #  include \"ui/style/theme.h\"\n"
                                            "#include \"tst_x.moc\"\n");
        QCOMPARE(upwardIncludes(text, QStringLiteral("core/plan/planner.cpp")),
                 QStringList(
                     {QStringLiteral("core/plan/planner.cpp:5: \"core/analysis/growth.h\" is in "
                                     "core/analysis, after core/plan"),
                      QStringLiteral(
                          "core/plan/planner.cpp:6: \"ui/style/theme.h\" is in ui/style, after core/plan")}));
        // The longest folder wins: app/cli comes before app.
        QCOMPARE(
            upwardIncludes(QStringLiteral("#include \"app/screenshot.h\"\n"),
                           QStringLiteral("app/cli/x.cpp")),
            QStringList({QStringLiteral("app/cli/x.cpp:1: \"app/screenshot.h\" is in app, after app/cli")}));
        QVERIFY(
            upwardIncludes(QStringLiteral("#include \"app/cli/cliio.h\"\n"), QStringLiteral("app/main.cpp"))
                .isEmpty());
    }

    /// Every include goes to the file's own folder or one before it.
    void foldersIncludeDownwardOnly()
    {
        const QMap<QString, QString> all =
            sources({QStringLiteral("core"), QStringLiteral("ui"), QStringLiteral("app")});
        QStringList found;
        int placed = 0;
        for (auto it = all.cbegin(); it != all.cend(); ++it) {
            found += upwardIncludes(it.value(), it.key());
            placed += folderRank(it.key()) >= 0;
        }
        QCOMPARE(placed, all.size()); // every source is in a folder of the order
        QVERIFY2(found.isEmpty(), qPrintable(QLatin1Char('\n') + found.join(QLatin1Char('\n'))));
    }
    void findsAContextlessConnect()
    {
        const QString text = QStringLiteral("connect(a, &A::changed, this, [this] { f(\"),\"); });\n"
                                            "// connect(a, &A::changed, [] {});\n"
                                            "QObject::connect(a, &A::changed, [a] { a->g(1, 2); });\n"
                                            "disconnect(a, &A::changed, b);\n"
                                            "connect(a, &A::changed, b, &B::update, Qt::QueuedConnection);\n"
                                            "connect(a, &A::changed, &free);\n");
        QCOMPARE(
            contextlessConnects(text, QStringLiteral("x.cpp")),
            QStringList({QStringLiteral("x.cpp:3: QObject::connect(a, &A::changed, [a] { a->g(1, 2); })"),
                         QStringLiteral("x.cpp:6: connect(a, &A::changed, &free)")}));
    }

    /// Every connection names the object whose lifetime bounds it.
    void connectsHaveAContext()
    {
        const QMap<QString, QString> all =
            sources({QStringLiteral("core"), QStringLiteral("ui"), QStringLiteral("app")});
        QStringList found;
        int calls = 0;
        for (auto it = all.cbegin(); it != all.cend(); ++it) {
            found += contextlessConnects(it.value(), it.key());
            calls += int(withoutComments(it.value()).count(QStringLiteral("connect(")));
        }
        QVERIFY(calls > 100); // the scan sees the window's connections
        QVERIFY2(found.isEmpty(), qPrintable(QLatin1Char('\n') + found.join(QLatin1Char('\n'))));
    }

    void findsAnOptionFlag()
    {
        const QString text =
            QStringLiteral("// \"--batch-size\" in a comment\n"
                           "x = f(a); // then \"--seq-len\"\n"
                           "y = QStringLiteral(\"--dtype\");\n"
                           "z = tr(\"%1: the dtype\").arg(optionFlag(ScenarioField::Dtype));\n"
                           "w = tr(\"requests of --max-model-len tokens\");\n"
                           "v = tr(\"Weights (--dtype)\");\n"
                           "u = g('\"', --i, '\"', 1'000) + tr(\"a--b, 1 -- 2, -v, --Upper, (%1)\");\n"
                           "t = tr(\"vLLM's \\\"Maximum concurrency\\\" for --max-model-len\");\n"
                           "s = QStringLiteral(\"https://example.org --dtype\");\n"
                           "/* a block comment: tr(\"see --seq-len\")\n"
                           "   and \"--batch-size\" */ r = QStringLiteral(R\"re(a \" --tp-size)re\");\n");
        QCOMPARE(optionFlagLiterals(text, QStringLiteral("ui/x.cpp")),
                 QStringList(
                     {QStringLiteral("ui/x.cpp:3: y = QStringLiteral(\"--dtype\");"),
                      QStringLiteral("ui/x.cpp:5: w = tr(\"requests of --max-model-len tokens\");"),
                      QStringLiteral("ui/x.cpp:6: v = tr(\"Weights (--dtype)\");"),
                      QStringLiteral(
                          "ui/x.cpp:8: t = tr(\"vLLM's \\\"Maximum concurrency\\\" for --max-model-len\");"),
                      QStringLiteral("ui/x.cpp:9: s = QStringLiteral(\"https://example.org --dtype\");"),
                      QStringLiteral("ui/x.cpp:11: and \"--batch-size\" */ r = QStringLiteral(R\"re(a \" "
                                     "--tp-size)re\");")}));
    }

    /// The window and the core name options by ScenarioField: only the table spells a flag,
    /// as a literal of its own or inside a sentence.
    void uiSpellsNoOptionFlags()
    {
        const QMap<QString, QString> all = sources({QStringLiteral("core"), QStringLiteral("ui")});
        QVERIFY(all.contains(FlagTable));
        QStringList found;
        for (auto it = all.cbegin(); it != all.cend(); ++it)
            if (it.key() != FlagTable)
                found += optionFlagLiterals(it.value(), it.key());
        QVERIFY2(found.isEmpty(), qPrintable(QLatin1Char('\n') + found.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestIncludes)
#include "tst_includes.moc"
