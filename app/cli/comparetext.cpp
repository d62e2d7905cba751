// SPDX-License-Identifier: MIT
#include "app/cli/comparetext.h"

#include "app/cli/plantext.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/compare/comparetext.h"

#include <algorithm>
#include <cmath>

namespace kvscope::cli {

namespace {

QString withoutTrailingBlanks(QString text)
{
    while (text.endsWith(QLatin1Char(' ')))
        text.chop(1);
    return text;
}

QString signedText(double delta, const QString &magnitude)
{
    return differenceSign(delta, magnitude) + magnitude;
}

/// A figure of a row in its unit; `delta` formats a difference (with its sign).
QString valueText(const CompareRow &row, double value, bool delta)
{
    const double magnitude = delta ? std::fabs(value) : value;
    QString text;
    if (row.unit == QLatin1String("bytes"))
        text = (magnitude < 0 ? QStringLiteral("-") : QString()) +
               formatBytes(std::llabs(std::llround(magnitude)));
    else if (row.unit == QLatin1String("tokens") || row.unit == QLatin1String("sequences"))
        text = formatCount(std::llround(magnitude));
    else if (row.unit == QLatin1String("x"))
        text = QString::number(magnitude, 'f', 2) + QLatin1Char('x');
    else if (row.unit == QLatin1String("tokens/s"))
        text = formatRate(magnitude);
    else if (row.unit == QLatin1String("seconds"))
        text = formatDuration(magnitude);
    else if (row.unit == QLatin1String("dB"))
        text = QString::number(magnitude, 'f', 2) + QStringLiteral(" dB");
    else
        text = QString::number(magnitude);
    return delta ? signedText(value, text) : text;
}

QString cellText(const CompareRow &row, const CompareCell &cell, bool first)
{
    if (!cell.text.isEmpty())
        return cell.text;
    if (cell.lossless)
        return QStringLiteral("lossless");
    if (!cell.value)
        return QStringLiteral("—");
    QString text = valueText(row, *cell.value, false);
    if (!first && cell.delta) {
        if (*cell.delta == 0)
            text += QStringLiteral(" (=)");
        else if (cell.deltaPercent)
            text += QStringLiteral(" (%1, %2 %)")
                        .arg(valueText(row, *cell.delta, true),
                             signedText(*cell.deltaPercent,
                                        QString::number(std::fabs(*cell.deltaPercent), 'f', 1)));
        else
            text += QStringLiteral(" (%1)").arg(valueText(row, *cell.delta, true));
    }
    return text;
}

/// " [n]": the number of `note` among the notes under the table, added if new (a column's
/// start failure marks its verdict and every figure it blanks with one number).
QString footnoteMark(QStringList &footnotes, const QString &note)
{
    qsizetype index = footnotes.indexOf(note);
    if (index < 0) {
        footnotes << note;
        index = footnotes.size() - 1;
    }
    return QStringLiteral(" [%1]").arg(index + 1);
}

void accuracySection(QString &out, const Comparison &comparison)
{
    out += QStringLiteral("\nAccuracy (%1)\n").arg(CompareText::accuracyCaveat());
    QStringList tensors;
    for (const ComparedColumn &c : comparison.columns) {
        out += printableLine(QStringLiteral("  %1").arg(c.label));
        for (const AccuracyLine &line : CompareText::accuracyLines(c.accuracy))
            out += printableLine(line.part.isEmpty()
                                     ? QStringLiteral("    %1").arg(line.text)
                                     : QStringLiteral("    %1 %2").arg(line.part, -9).arg(line.text));
        for (const QString &note : CompareText::accuracyNotes(c.accuracy) + c.notes)
            out += printableLine(QStringLiteral("    note: %1").arg(note));
        CompareText::addSimulatedOn(tensors, c.accuracy);
    }
    for (const QString &note : comparison.notes)
        out += printableLine(QStringLiteral("  note: %1").arg(note));
    out += QStringLiteral("  simulated on:\n");
    for (const QString &t : std::as_const(tensors))
        out += printableLine(QStringLiteral("    %1").arg(t));
}

void publishedSection(QString &out, const Comparison &comparison)
{
    QStringList sameFamily, lines, unpublished;
    for (const ComparedColumn &c : comparison.columns) {
        for (const QString &format : c.unpublishedFormats)
            if (!unpublished.contains(format))
                unpublished << format;
        for (const PublishedResult &r : c.published) {
            const QString line = QStringLiteral("  %1%2 %3: %4, %5: %6 %7 -> %8 %9 (%10; %11)")
                                     .arg(r.sameFamily ? QStringLiteral("[same family] ") : QString())
                                     .arg(r.aspect == QLatin1String("weights") ? QStringLiteral("weights")
                                                                               : QStringLiteral("KV"),
                                          r.format, r.model, r.benchmark, r.baselineLabel)
                                     .arg(publishedValueText(r.baseline))
                                     .arg(r.quantizedLabel)
                                     .arg(publishedValueText(r.quantized))
                                     .arg(publishedChangeText(r), r.source);
            QStringList &list = r.sameFamily ? sameFamily : lines;
            if (!list.contains(line))
                list << line;
        }
    }
    lines = sameFamily + lines;
    if (!lines.isEmpty()) {
        out += QStringLiteral("\nPublished results for these formats (what real evaluations found; the "
                              "model's family first)\n");
        for (const QString &line : std::as_const(lines))
            out += printableLine(line);
    }
    if (!unpublished.isEmpty())
        out += printableLine(
            QStringLiteral("No published result measures: %1").arg(unpublished.join(QStringLiteral(", "))));
}

} // namespace

QString comparisonAsText(const Comparison &comparison)
{
    const MemoryPlan &first = comparison.columns.first().plan;
    QString out = printableLine(QStringLiteral("%1 on %2 x %3, batch %4 x %5 tokens")
                                    .arg(first.modelName, first.gpuName)
                                    .arg(first.gpuCount())
                                    .arg(formatCount(first.batchSize), formatCount(first.seqLen)));
    out += QStringLiteral("%1 Differences are to the first column; * marks the best of a row.\n\n")
               .arg(unitsConvention());

    // Columns as wide as their widest cell.
    QList<QStringList> cells;
    int labelWidth = 0;
    for (const CompareRow &row : comparison.rows)
        labelWidth = std::max(labelWidth, int(compareRowLabel(row.id).size()));
    // Labels and cells escaped before they are measured: a column is as wide as it is shown.
    QStringList labels;
    QList<int> widths;
    for (const ComparedColumn &c : comparison.columns) {
        labels << printableText(c.label);
        widths << int(labels.constLast().size());
    }
    // A reason is too long for a cell: a numbered line under the table.
    QStringList footnotes;
    for (const CompareRow &row : comparison.rows) {
        QStringList texts;
        for (qsizetype i = 0; i < row.cells.size(); ++i) {
            QString text = printableText(cellText(row, row.cells.at(i), i == 0));
            if (row.best.contains(int(i)))
                text += QStringLiteral(" *");
            if (const QString &reason = row.cells.at(i).reason; !reason.isEmpty())
                text += footnoteMark(footnotes,
                                     QStringLiteral("%1: %2").arg(comparison.columns.at(i).label, reason));
            widths[i] = std::max(widths.at(i), int(text.size()));
            texts << text;
        }
        cells << texts;
    }
    QString header(labelWidth + 2, QLatin1Char(' '));
    for (qsizetype i = 0; i < comparison.columns.size(); ++i)
        header += labels.at(i).leftJustified(widths.at(i) + 3);
    out += withoutTrailingBlanks(header) + QLatin1Char('\n');
    for (qsizetype r = 0; r < comparison.rows.size(); ++r) {
        QString line = compareRowLabel(comparison.rows.at(r).id).leftJustified(labelWidth + 2);
        for (qsizetype i = 0; i < cells.at(r).size(); ++i)
            line += cells.at(r).at(i).leftJustified(widths.at(i) + 3);
        out += withoutTrailingBlanks(line) + QLatin1Char('\n');
    }
    for (qsizetype i = 0; i < footnotes.size(); ++i)
        out += printableLine(QStringLiteral("[%1] %2").arg(i + 1).arg(footnotes.at(i)));
    accuracySection(out, comparison);
    publishedSection(out, comparison);
    return out;
}

} // namespace kvscope::cli
