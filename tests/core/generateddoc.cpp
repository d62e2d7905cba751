// SPDX-License-Identifier: MIT
#include "tests/core/generateddoc.h"

#include "core/common/atomicfile.h"
#include "core/common/error.h"

#include <algorithm>

#include <QFile>

namespace kvscope::validation {

namespace {

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(QStringLiteral("%1: %2").arg(path, file.errorString()));
    return QString::fromUtf8(file.readAll());
}

/// The first line where two texts differ, for a readable failure.
QString firstDifference(const QString &expected, const QString &actual)
{
    const QStringList a = expected.split(QLatin1Char('\n')), b = actual.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i)
        if (a.value(i) != b.value(i))
            return QStringLiteral("line %1 of the generated section:\n  now:   %2\n  in doc: %3")
                .arg(i + 1)
                .arg(a.value(i), b.value(i));
    return {};
}

qsizetype sectionStart(const GeneratedDocument &doc, const QString &document)
{
    return document.indexOf(doc.beginMarker) + doc.beginMarker.size() + 1; // after the marker's line
}

} // namespace

QString markdownCell(QString text)
{
    return text.replace(QLatin1Char('|'), QStringLiteral("\\|")).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

QString generatedSection(const GeneratedDocument &doc, const QString &document)
{
    const qsizetype begin = document.indexOf(doc.beginMarker);
    const qsizetype end = document.indexOf(doc.endMarker);
    if (begin < 0 || end < begin)
        throw Error(QStringLiteral("%1: the markers '%2' and '%3' are missing")
                        .arg(doc.name, doc.beginMarker, doc.endMarker));
    const qsizetype start = sectionStart(doc, document);
    return document.mid(start, end - start);
}

QString withGeneratedSection(const GeneratedDocument &doc, const QString &document, const QString &generated)
{
    const QString old = generatedSection(doc, document);
    const qsizetype start = sectionStart(doc, document);
    return document.left(start) + generated + document.mid(start + old.size());
}

QString checkGeneratedSection(const GeneratedDocument &doc, const QString &generated,
                              const QString &testBinary)
{
    const QString document = readText(doc.path);
    const QString target = qEnvironmentVariable(qPrintable(doc.writeEnv));
    if (!target.isEmpty()) {
        writeFileAtomically(target, withGeneratedSection(doc, document, generated).toUtf8());
        qInfo("wrote %s", qPrintable(target));
        return {};
    }
    const QString current = generatedSection(doc, document);
    if (current == generated)
        return {};
    return QStringLiteral("%1 is stale; regenerate it with %2=%1 %3 (from the source directory). First "
                          "difference at ")
               .arg(doc.name, doc.writeEnv, testBinary) +
           firstDifference(generated, current);
}

} // namespace kvscope::validation
