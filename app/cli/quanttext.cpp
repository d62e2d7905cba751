// SPDX-License-Identifier: MIT
#include "app/cli/quanttext.h"

#include "core/common/units.h"

#include <algorithm>

namespace kvscope::cli {

using namespace kvscope::quant;

namespace {

QString percent(double share)
{
    return formatFigure(100.0 * share, 'f', 2) + QStringLiteral(" %");
}

} // namespace

QString resultsText(const TensorData &tensor, const TensorStats &stats, const QList<SchemeResult> &results,
                    const std::optional<ActivationSummary> &activations)
{
    QString text = QStringLiteral("%1: %2 [%3, %4] %5, %6 elements, range [%7, %8]\n\n")
                       .arg(tensor.origin(), tensor.name())
                       .arg(tensor.rows())
                       .arg(tensor.cols())
                       .arg(elementTypeName(tensor.type()), formatCount(tensor.elements()),
                            QString::number(stats.min, 'g', 5), QString::number(stats.max, 'g', 5));
    // The scheme column is left-aligned and as wide as its longest id ("fp8-e4m3+a-fp8-token"), the
    // figures right-aligned.
    qsizetype schemeWidth = 16;
    for (const SchemeResult &r : results)
        schemeWidth = std::max(schemeWidth, r.scheme.id().size());
    const auto row = [schemeWidth](const QStringList &cells) {
        static const int widths[] = {0, 8, 11, 8, 11, 10, 9, 9, 10};
        QString line;
        for (int i = 0; i < cells.size(); ++i) {
            const int width = i == 0 ? -int(schemeWidth) : widths[i];
            line += (i ? QStringLiteral("  ") : QString()) +
                    (width < 0 ? cells[i].leftJustified(-width) : cells[i].rightJustified(width));
        }
        return line + QLatin1Char('\n');
    };
    QStringList header{QStringLiteral("scheme"),  QStringLiteral("bits/w"),  QStringLiteral("MSE"),
                       QStringLiteral("SQNR dB"), QStringLiteral("max |e|"), QStringLiteral("cosine"),
                       QStringLiteral("clipped"), QStringLiteral("flushed")};
    if (activations)
        header << QStringLiteral("out SQNR");
    text += row(header);
    for (const SchemeResult &r : results) {
        const ErrorMetrics &m = r.metrics;
        QStringList cells{r.scheme.id(),
                          formatFigure(r.bitsPerWeight, 'f', 4),
                          formatFigure(m.mse, 'e', 3),
                          formatFigure(m.sqnrDb, 'f', 2),
                          formatFigure(m.maxAbsError, 'e', 3),
                          formatFigure(m.cosineSimilarity, 'f', 6),
                          percent(m.clippedShare()),
                          percent(m.flushedShare())};
        if (r.outputSqnrDb)
            cells << formatFigure(*r.outputSqnrDb, 'f', 2);
        text += row(cells);
    }
    if (activations)
        text +=
            QStringLiteral("\nout SQNR: of the layer output Y = X W^T, on %1.\n").arg(activations->text());
    for (const SchemeResult &r : results)
        if (r.awqAlpha >= 0)
            text += QStringLiteral(
                        "%1: the scale search chose alpha = %2 (s = mean|x|^alpha per input channel).\n")
                        .arg(r.scheme.id(), formatFigure(r.awqAlpha, 'f', 2));
    for (const SchemeResult &r : results)
        if (r.metrics.nonFinite > 0)
            text += QStringLiteral("\n%1: %2 values overflowed to NaN/inf; the error is unbounded.\n")
                        .arg(r.scheme.id())
                        .arg(formatCount(r.metrics.nonFinite));
    return text;
}

QString tensorListText(const QList<TensorInfo> &tensors)
{
    QString text;
    for (const TensorInfo &t : tensors) {
        text += QStringLiteral("%1  %2  %3").arg(t.name, t.dtype.leftJustified(5), t.shapeText());
        if (!t.unusableReason.isEmpty())
            text += QStringLiteral("  (unusable: %1)").arg(t.unusableReason);
        text += QLatin1Char('\n');
    }
    return text;
}

} // namespace kvscope::cli
