// SPDX-License-Identifier: MIT
// The command-line examples of the user guide are what kvscope prints: every
// "$ kvscope …" block of docs/user-guide.md is run, and each line the block
// shows (all but the "..." that elide the rest) must be a line of the output.
// A figure the model changes can then not stay stale in the guide, as the AWQ
// column of `kvscope compare` once did (5.37 GiB shown, 5.45 GiB printed).
#include "tests/sourcetree.h"
#include "tests/support/kvscoperun.h"

#include <QFile>
#include <QProcess>
#include <QTest>

using namespace kvscope;

namespace {

/// One "$ kvscope …" block: the line it starts on, the command and the lines it shows.
struct Example
{
    int line = 0;
    QString command;
    QStringList shown;
};

QString withoutTrailingSpace(const QString &text)
{
    qsizetype end = text.size();
    while (end > 0 && text.at(end - 1).isSpace())
        --end;
    return text.left(end);
}

QList<Example> examplesOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("%s: %s", qPrintable(path), qPrintable(file.errorString()));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    QList<Example> examples;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!lines.at(i).startsWith(QLatin1String("$ kvscope ")))
            continue;
        Example example;
        example.line = int(i + 1);
        example.command = lines.at(i).mid(2);
        for (++i; i < lines.size() && !lines.at(i).startsWith(QLatin1String("```")); ++i) {
            const QString shown = withoutTrailingSpace(lines.at(i));
            if (!shown.isEmpty() && shown != QLatin1String("..."))
                example.shown << shown;
        }
        examples << example;
    }
    return examples;
}

} // namespace

class TestDocExamples : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariableIsEmpty("KVSCOPE_BINARY"), "ctest sets KVSCOPE_BINARY");
    }

    void everyExampleIsWhatKvscopePrints_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("shown");
        const QList<Example> examples =
            examplesOf(test::sourceTreePath(QStringLiteral("docs/user-guide.md")));
        // calc twice, compare, fit twice and quant: a block the parser stopped finding fails here.
        QVERIFY(examples.size() >= 6);
        for (const Example &e : examples) {
            QVERIFY2(!e.shown.isEmpty(), qPrintable(QStringLiteral("line %1 shows no output").arg(e.line)));
            QTest::newRow(qPrintable(QStringLiteral("user-guide.md:%1").arg(e.line))) << e.command << e.shown;
        }
    }

    void everyExampleIsWhatKvscopePrints()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, shown);
        QStringList arguments = QProcess::splitCommand(command);
        QCOMPARE(arguments.takeFirst(), QStringLiteral("kvscope"));
        const test::Run run = test::runKvscope(arguments);
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        QStringList printed;
        for (const QString &line : QString::fromUtf8(run.out).split(QLatin1Char('\n')))
            printed << withoutTrailingSpace(line);
        for (const QString &line : shown)
            QVERIFY2(printed.contains(line),
                     qPrintable(QStringLiteral("the guide shows a line kvscope does not print:\n%1\n"
                                               "kvscope prints:\n%2")
                                    .arg(line, printed.join(QLatin1Char('\n')))));
    }
};

QTEST_GUILESS_MAIN(TestDocExamples)
#include "tst_docexamples.moc"
