// SPDX-License-Identifier: MIT
// The command-line examples of the user guide are what kvscope prints: every
// "$ kvscope …" block of docs/user-guide.md is run, and each line the block
// shows (all but the "..." that elide the rest) must be a line of the output.
// A figure the model changes can then not stay stale in the guide, as the AWQ
// column of `kvscope compare` once did (5.37 GiB shown, 5.45 GiB printed). The
// README's compare table is checked against `kvscope compare` the same way, and the
// figures of its explorer caption against `kvscope calc` of that scenario.
#include "tests/sourcetree.h"
#include "tests/support/kvscoperun.h"

#include <algorithm>

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
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

/// The cells of a markdown table row: "| a | b |" -> {"a", "b"}.
QStringList markdownCells(const QString &row)
{
    QStringList cells = row.trimmed().split(QLatin1Char('|'));
    cells.removeFirst();
    cells.removeLast();
    for (QString &cell : cells)
        cell = cell.trimmed();
    return cells;
}

/// A row label without its trailing parenthesis: "KV capacity as the engine logs it (tokens)" -> the
/// label `kvscope compare` prints.
QString withoutParenthesis(const QString &label)
{
    const qsizetype open = label.lastIndexOf(QLatin1String(" ("));
    return open > 0 && label.endsWith(QLatin1Char(')')) ? label.left(open) : label;
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

    void theReadmeCompareTableIsWhatKvscopePrints()
    {
        // README's table of the seed question: each cell must begin the cell kvscope compare prints
        // for its row and column (which goes on with the difference to the first column).
        QFile readme(test::sourceTreePath(QStringLiteral("README.md")));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(readme.readAll()).split(QLatin1Char('\n'));
        const auto header = std::find_if(lines.begin(), lines.end(), [](const QString &line) {
            return line.startsWith(QLatin1String("| Llama-3.1-8B, one H100, batch 16"));
        });
        QVERIFY2(header != lines.end(), "README's compare table");
        const QStringList columns = markdownCells(*header).mid(1);
        QCOMPARE(columns.size(), 4);

        const test::Run run = test::runKvscope({QStringLiteral("compare"), QStringLiteral("--model"),
                                                QStringLiteral("llama-3.1-8b"), QStringLiteral("--gpu"),
                                                QStringLiteral("h100-sxm")});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        const QStringList printed = QString::fromUtf8(run.out).split(QLatin1Char('\n'));
        // The printed table's columns start where its header names them.
        const auto printedHeader = std::find_if(printed.begin(), printed.end(), [&](const QString &line) {
            return line.contains(columns.first()) && line.contains(columns.last());
        });
        QVERIFY2(printedHeader != printed.end(), run.out.constData());
        QList<qsizetype> starts;
        for (const QString &column : columns)
            starts << printedHeader->indexOf(column);
        QVERIFY(std::is_sorted(starts.begin(), starts.end()) && starts.first() > 0);

        int rows = 0;
        for (auto row = header + 2; row != lines.end() && row->startsWith(QLatin1Char('|')); ++row, ++rows) {
            const QStringList cells = markdownCells(*row);
            const QString label = withoutParenthesis(cells.first());
            const auto line = std::find_if(printed.begin(), printed.end(), [&](const QString &l) {
                return l.startsWith(label + QLatin1String("  "));
            });
            QVERIFY2(line != printed.end(), qPrintable(QStringLiteral("no printed row '%1'").arg(label)));
            for (int c = 0; c < columns.size(); ++c) {
                const qsizetype end = c + 1 < columns.size() ? starts.at(c + 1) : line->size();
                const QString printedCell = line->mid(starts.at(c), end - starts.at(c)).trimmed();
                QVERIFY2(printedCell.startsWith(cells.at(c + 1)),
                         qPrintable(QStringLiteral("README's %1 / %2 shows '%3', kvscope prints '%4'")
                                        .arg(label, columns.at(c), cells.at(c + 1), printedCell)));
            }
        }
        QVERIFY(rows >= 8);
    }

    void theReadmeExplorerCaptionIsWhatKvscopePrints()
    {
        // The caption under README's first screenshot states the default scenario's figures
        // (headroom, KV tokens, concurrency, decode tokens/s): each figure with a decimal point or a
        // thousands separator must be printed by kvscope calc for that scenario.
        QFile readme(test::sourceTreePath(QStringLiteral("README.md")));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        const qsizetype start =
            text.indexOf(QLatin1String("*The explorer: Llama-3.1-8B on one H100 SXM, BF16"));
        QVERIFY2(start >= 0, "README's explorer caption");
        const QString caption = text.mid(start, text.indexOf(QLatin1String(".*"), start) - start);
        const test::Run run = test::runKvscope(
            {QStringLiteral("calc"), QStringLiteral("--model"), QStringLiteral("llama-3.1-8b")});
        QVERIFY2(run.exitCode == 0, run.describe().constData());
        const QString printed = QString::fromUtf8(run.out);
        static const QRegularExpression figure(QStringLiteral("\\d+(?:[.,]\\d+)+"));
        int figures = 0;
        for (const QRegularExpressionMatch &m : figure.globalMatch(caption)) {
            if (m.captured() == QLatin1String("3.1")) // the model's name, Llama-3.1-8B
                continue;
            ++figures;
            QVERIFY2(printed.contains(m.captured()),
                     qPrintable(QStringLiteral("README's caption says %1; kvscope calc prints:\n%2")
                                    .arg(m.captured(), printed)));
        }
        QVERIFY(figures >= 5);
    }
};

QTEST_GUILESS_MAIN(TestDocExamples)
#include "tst_docexamples.moc"
