// SPDX-License-Identifier: MIT
// The core's rule "QtCore only", checked on its sources: every Qt header a
// file under core/ includes must be one of QtCore's. The link check in
// core/CMakeLists.txt does not see includes: <QtGui/QColor> compiles through
// Qt's top include folder, which QtCore's target adds, and what is inline in
// it needs no QtGui library. Each include of a Qt header (<QColor>,
// <QtGui/QColor>, <qcolor.h>) is resolved against QtCore's include folder,
// KVSCOPE_QTCORE_INCLUDE_DIR; ctest sets it and KVSCOPE_CORE_DIR.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

namespace {

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

class TestCoreIncludes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // A wrong folder would let every include fail, or none be checked.
        QVERIFY2(QFileInfo(qtCoreIncludes().filePath(QStringLiteral("QString"))).isFile(),
                 "KVSCOPE_QTCORE_INCLUDE_DIR must be QtCore's include folder");
        QVERIFY2(
            QFileInfo(
                QDir(qEnvironmentVariable("KVSCOPE_CORE_DIR")).filePath(QStringLiteral("CMakeLists.txt")))
                .isFile(),
            "KVSCOPE_CORE_DIR must be the core's source folder");
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
        const QDir core(qEnvironmentVariable("KVSCOPE_CORE_DIR"));
        QStringList found;
        int files = 0;
        QDirIterator it(core.path(), {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
            found +=
                foreignQtIncludes(QString::fromUtf8(file.readAll()),
                                  QStringLiteral("core/") + core.relativeFilePath(path), qtCoreIncludes());
            ++files;
        }
        QVERIFY(files > 50);
        QVERIFY2(found.isEmpty(), qPrintable(QLatin1Char('\n') + found.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestCoreIncludes)
#include "tst_coreincludes.moc"
