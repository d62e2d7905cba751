// SPDX-License-Identifier: MIT
#include "core/compare/comparetext.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/compare/kvhead.h"
#include "core/precision/dtypes.h"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace kvscope {

namespace {

/// The minus sign typeset, as the table shows differences.
constexpr char16_t Minus = u'\u2212';

QString magnitude(const CompareRow &row, double value, const QLocale &locale)
{
    const QString unit = row.unit;
    if (unit == QLatin1String("bytes"))
        return formatBytes(std::llabs(std::llround(value)), locale);
    if (unit == QLatin1String("tokens"))
        return CompareText::tr("%1 tokens").arg(formatCount(std::llabs(std::llround(value)), locale));
    if (unit == QLatin1String("sequences"))
        return CompareText::tr("%1 sequences").arg(formatCount(std::llabs(std::llround(value)), locale));
    if (unit == QLatin1String("x"))
        return formatDecimal(std::fabs(value), 2, locale) + QStringLiteral("×");
    if (unit == QLatin1String("tokens/s"))
        return CompareText::tr("%1 tokens/s").arg(formatRate(std::fabs(value), locale));
    if (unit == QLatin1String("seconds"))
        return formatDuration(std::fabs(value));
    if (unit == QLatin1String("dB"))
        return CompareText::tr("%1 dB").arg(formatDecimal(std::fabs(value), 2, locale));
    return formatDecimal(std::fabs(value), 2, locale);
}

} // namespace

QString CompareText::rowLabel(CompareRowId id)
{
    QString label = tr(compareRowLabel(id).toUtf8().constData());
    // The command line's labels start in lower case; a table's headers do not.
    if (!label.isEmpty())
        label[0] = label[0].toUpper();
    return label;
}

QString CompareText::rowToolTip(CompareRowId id)
{
    switch (id) {
    case CompareRowId::Runs:
        return tr("Whether the engine starts and holds the whole batch at once; a column that does not "
                  "start has no headroom, capacity or speed.");
    case CompareRowId::WeightsBytes:
        return tr("The weights as stored, per GPU.");
    case CompareRowId::KvBytesPerToken:
        return tr("One token's KV cache over every layer, per GPU: set by %1, not by the weight format.")
            .arg(optionFlag(ScenarioField::KvCacheDtype));
    case CompareRowId::KvCacheBytes:
        return tr("The KV cache of the whole batch at its sequence length, per GPU.");
    case CompareRowId::HeadroomBytes:
        return tr("What the budget leaves after weights, activations, overhead and the batch's KV cache.");
    case CompareRowId::KvCapacityTokens:
        return tr("Tokens the KV cache holds, as the engine logs them: vLLM's \"GPU KV cache size\", "
                  "SGLang's \"KV Cache is allocated. #tokens\".");
    case CompareRowId::MaxConcurrency:
        return tr("Requests of %1 tokens that fit at once.").arg(optionFlag(ScenarioField::MaxModelLen));
    case CompareRowId::LargestBatchThatFits:
        return tr("The largest batch of sequences at this length whose KV cache fits.");
    case CompareRowId::DecodeTokensPerSecond:
        return tr("Tokens per second of the whole batch, from the roofline with the efficiencies.");
    case CompareRowId::PrefillSeconds:
        return tr("One request's prompt alone on the GPU(s): its prefill.");
    case CompareRowId::DecodeBound:
        return tr("Which roof limits a decode step: memory bandwidth or compute.");
    case CompareRowId::WeightSqnrDb:
        return tr("Simulated quantization error of the weight format on a tensor shaped like the model's "
                  "(higher is better; lossless has none). A proxy, not end quality.");
    case CompareRowId::KvSqnrDb:
        return tr("Simulated error of the KV cache dtype on synthetic keys and values, at the scale the "
                  "engine uses (higher is better; lossless has none).");
    case CompareRowId::LayerOutputSqnrDb:
        return tr("Simulated error of the layer output X·Wᵀ on activations with outlier channels, the "
                  "activations quantized too where the kernel is W8A8: what AWQ and GPTQ lower.");
    case CompareRowId::AttentionOutputSqnrDb:
        return tr("Simulated error of the attention output softmax(qKᵀ/√d)·V over 4,096 cached tokens "
                  "(diffuse queries, the engine's scale): where a key's rounding becomes a logit error.");
    }
    return {};
}

QString CompareText::value(const CompareRow &row, double value, const QLocale &locale)
{
    const QString text = magnitude(row, value, locale);
    return value < 0 ? QString(QChar(Minus)) + text : text;
}

QString CompareText::cell(const CompareRow &row, const CompareCell &cell, const QLocale &locale)
{
    if (cell.text == QLatin1String("memory"))
        return tr("memory-bound");
    if (cell.text == QLatin1String("compute"))
        return tr("compute-bound");
    if (cell.text == QLatin1String("fits"))
        return tr("fits");
    if (cell.text == QLatin1String("batch does not fit"))
        return tr("batch does not fit");
    if (cell.text == QLatin1String("does not start"))
        return tr("does not start");
    if (!cell.text.isEmpty())
        return cell.text;
    if (cell.lossless)
        return tr("lossless");
    if (!cell.value)
        return QStringLiteral("—");
    return value(row, *cell.value, locale);
}

QString CompareText::delta(const CompareRow &row, const CompareCell &cell, const QLocale &locale)
{
    if (!cell.delta)
        return {};
    if (*cell.delta == 0)
        return tr("same");
    const QString shown = magnitude(row, *cell.delta, locale);
    QString absolute = differenceSign(*cell.delta, shown, QChar(Minus)) + shown;
    if (!cell.deltaPercent)
        return absolute;
    const QString percent = formatDecimal(std::fabs(*cell.deltaPercent), 1, locale);
    // A no-break space: a narrow table cell wraps before the bracket, never before "%".
    const QString signedPercent =
        differenceSign(*cell.deltaPercent, percent, QChar(Minus)) + percent + QChar(QChar::Nbsp) + u'%';
    return tr("%1 (%2)", "a difference to the first column: absolute (percentage)")
        .arg(absolute, signedPercent);
}

QString CompareText::note(const CompareRow &row, const CompareCell &cell)
{
    return row.id == CompareRowId::Runs || cell.value ? cell.reason : QString();
}

QString CompareText::htmlTable(const Comparison &comparison, const QLocale &locale)
{
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th></th>");
    for (const ComparedColumn &column : comparison.columns)
        html += QStringLiteral("<th align=\"left\">%1</th>").arg(column.label.toHtmlEscaped());
    html += QStringLiteral("</tr>");
    for (const CompareRow &row : comparison.rows) {
        html += QStringLiteral("<tr><td>%1</td>").arg(rowLabel(row.id).toHtmlEscaped());
        for (int c = 0; c < row.cells.size(); ++c) {
            QString text = cell(row, row.cells.at(c), locale).toHtmlEscaped();
            if (row.best.contains(c))
                text = QStringLiteral("<b>%1</b>").arg(text);
            const QString difference = c > 0 ? delta(row, row.cells.at(c), locale) : QString();
            if (!difference.isEmpty())
                text += QStringLiteral(" <small>%1</small>").arg(difference.toHtmlEscaped());
            if (const QString under = note(row, row.cells.at(c)); !under.isEmpty())
                text += QStringLiteral("<br><small>%1</small>").arg(under.toHtmlEscaped());
            html += QStringLiteral("<td>%1</td>").arg(text);
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

QString CompareText::accuracyCaveat()
{
    return tr("simulated quantization error; SQNR is a proxy for end quality: the relative error of the "
              "simulated tensors in dB, not a measured accuracy");
}

QString CompareText::simulatedError(const SimulatedError &e)
{
    QString text = tr("%1 %2 dB, relative error %3 %")
                       .arg(e.scheme)
                       .arg(e.sqnrDb, 0, 'f', 2)
                       .arg(e.relativeError * 100.0, 0, 'f', 2);
    if (e.fp8Scale > 0)
        text += tr(", scale %1").arg(e.fp8Scale, 0, 'g', 4);
    if (e.clippedShare > 0)
        text += tr(", %1 % clipped").arg(e.clippedShare * 100.0, 0, 'f', 3);
    if (e.outputSqnrDb)
        text += tr("; layer output %1 dB").arg(*e.outputSqnrDb, 0, 'f', 2);
    return text;
}

QString CompareText::simulatedTensor(const AccuracyTensor &t)
{
    QString text = tr("[%1, %2] like %3: %4").arg(t.rows).arg(t.cols).arg(t.stands, t.description);
    if (!t.clipping.isEmpty())
        text += QStringLiteral("; ") + t.clipping;
    return text;
}

QList<AccuracyLine> CompareText::accuracyLines(const Accuracy &accuracy)
{
    const WeightAccuracy &w = accuracy.weights;
    const KvAccuracy &kv = accuracy.kv;
    QList<AccuracyLine> lines;
    lines.append({tr("weights"), QStringLiteral("%1: %2").arg(w.format, w.lossless ? tr("lossless")
                                                                        : w.error  ? simulatedError(*w.error)
                                                                                   : tr("not modelled"))});
    if (kv.lossless || (!kv.keys && !kv.values)) {
        lines.append({tr("KV cache"),
                      QStringLiteral("%1: %2").arg(dtypeName(kv.dtype),
                                                   kv.lossless ? tr("lossless") : tr("not modelled"))});
        return lines;
    }
    if (kv.keys)
        lines.append({kv.latent ? tr("MLA latent") : tr("keys"), simulatedError(*kv.keys)});
    if (kv.values)
        lines.append({tr("values"), simulatedError(*kv.values)});
    if (const QString calibrated = calibratedKv(kv); !calibrated.isEmpty())
        lines.append({QString(), calibrated});
    for (qsizetype i = 0; i < kv.attention.size(); ++i)
        lines.append({i == 0 ? tr("attention") : QString(), attention(kv.attention.at(i))});
    return lines;
}

QString CompareText::attentionSummary(const KvAccuracy &kv)
{
    const std::optional<double> diffuse = attentionOutputSqnrDb(kv, quant::QueryModel::Diffuse);
    const std::optional<double> sharp = attentionOutputSqnrDb(kv, quant::QueryModel::KeyOutliers);
    if (!diffuse || !sharp || !kv.combinedSqnrDb)
        return {};
    return tr("attention output over %1 tokens: %2 dB for diffuse queries, %3 dB for queries on the keys' "
              "outlier channels (the cache itself: %4 dB; a key's rounding becomes a logit error)")
        .arg(formatCount(KvTokens))
        .arg(*diffuse, 0, 'f', 2)
        .arg(*sharp, 0, 'f', 2)
        .arg(*kv.combinedSqnrDb, 0, 'f', 2);
}

QString CompareText::attention(const AttentionRun &run)
{
    QStringList tokens;
    QStringList output;
    QStringList moved;
    for (const quant::AttentionErrorAt &e : run.errors) {
        tokens << formatCount(e.contextTokens);
        output << (std::isfinite(e.outputSqnrDb) ? QString::number(e.outputSqnrDb, 'f', 2) : tr("exact"));
        moved << QString::number(e.massMoved * 100.0, 'f', 2);
    }
    const QString queries = run.queries == quant::QueryModel::Diffuse
                                ? tr("diffuse queries")
                                : tr("queries on the keys' outlier channels");
    const QString scale = run.calibratedScale ? tr("calibrated scale") : tr("engine's scale");
    const QString slash = QStringLiteral(" / ");
    return tr("%1, %2: output %3 dB at %4 tokens; %5 % of the attention moves (logit error %6 rms, logits' "
              "std %7)")
        .arg(queries, scale, output.join(slash), tokens.join(slash), moved.join(slash))
        .arg(run.errors.constLast().logitErrorRms, 0, 'f', 3)
        .arg(run.errors.constLast().logitStd, 0, 'f', 2);
}

QString CompareText::calibratedKv(const KvAccuracy &kv)
{
    if (!kv.calibratedCombinedSqnrDb)
        return {};
    return tr("KV with a calibrated amax scale: %1 dB (engine's scale: %2 dB)")
        .arg(*kv.calibratedCombinedSqnrDb, 0, 'f', 2)
        .arg(kv.combinedSqnrDb.value_or(0), 0, 'f', 2);
}

QList<AccuracyCaveat> CompareText::accuracyCaveats(const Comparison &comparison)
{
    QList<AccuracyCaveat> caveats;
    const auto add = [&caveats](const QString &column, const QString &text) {
        for (AccuracyCaveat &caveat : caveats)
            if (caveat.text == text) {
                caveat.columns << column;
                return;
            }
        caveats.append({{column}, text});
    };
    for (const ComparedColumn &c : comparison.columns) {
        if (const QString calibrated = calibratedKv(c.accuracy.kv); !calibrated.isEmpty())
            add(c.label, calibrated);
        if (const QString attention = attentionSummary(c.accuracy.kv); !attention.isEmpty())
            add(c.label, attention);
        for (const QString &note : accuracyNotes(c.accuracy) + c.notes)
            add(c.label, note);
    }
    for (const QString &note : comparison.notes)
        caveats.append({{}, note});
    return caveats;
}

QStringList CompareText::accuracyNotes(const Accuracy &accuracy)
{
    return accuracy.weights.notes + accuracy.kv.notes;
}

void CompareText::addSimulatedOn(QStringList &simulatedOn, const Accuracy &accuracy)
{
    for (const AccuracyTensor *t :
         {&accuracy.weights.tensor, &accuracy.kv.keyTensor, &accuracy.kv.valueTensor})
        if (t->rows > 0 && !simulatedOn.contains(simulatedTensor(*t)))
            simulatedOn << simulatedTensor(*t);
    const QString scale = tr("KV scale: %1").arg(accuracy.kv.engineScale);
    if (!accuracy.kv.engineScale.isEmpty() && !simulatedOn.contains(scale))
        simulatedOn << scale;
}

} // namespace kvscope
