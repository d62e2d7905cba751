// SPDX-License-Identifier: MIT
// How the Compare view, its charts and the report word a comparison's
// figures: row labels translated (the comparison's own are English, for the
// command line), each figure in its row's unit, differences to the first column.
// Only formats the core's figures.
#pragma once

#include "core/compare/comparison.h"

#include <QCoreApplication>
#include <QLocale>
#include <QString>

namespace kvscope {

/// One line of a scenario's accuracy: what it is about ("weights", "keys"; empty for a line
/// of its own) and what it says.
struct AccuracyLine
{
    QString part;
    QString text;
};

/// What the accuracy figures assume, and the columns it is about (none named: the comparison's own).
struct AccuracyCaveat
{
    QStringList columns;
    QString text;
};

class CompareText
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::CompareText)

public:
    /// The row's label in the window's language, capitalized: "Weights per GPU".
    static QString rowLabel(CompareRowId id);
    /// What the row's figure means, for its tooltip.
    static QString rowToolTip(CompareRowId id);
    /// A figure in the row's unit: "14.99 GiB", "443,456 tokens", "1,215 tokens/s", "252 ms", "17.14 dB".
    static QString value(const CompareRow &row, double value, const QLocale &locale = QLocale());
    /// A cell's figure: its value, "lossless", "memory-bound", or "—" where the core has none.
    static QString cell(const CompareRow &row, const CompareCell &cell, const QLocale &locale = QLocale());
    /// A cell's difference to the first column: "−64.00 KiB (−50.0 %)", "same" when
    /// equal; empty where there is no difference to give. (The first column's own is
    /// "same": callers leave it out.)
    static QString delta(const CompareRow &row, const CompareCell &cell, const QLocale &locale = QLocale());
    /// What a cell says under its figure: the verdict's reason, or what qualifies a figure
    /// (a hybrid's attention tokens); empty for a blanked figure (its reason is the verdict's).
    static QString note(const CompareRow &row, const CompareCell &cell);
    /// The whole comparison as an HTML table (the report page): a row per figure,
    /// a column per column, differences under the figures, the best in bold.
    static QString htmlTable(const Comparison &comparison, const QLocale &locale = QLocale());

    /// What the accuracy figures are: "simulated quantization error; SQNR is a proxy for end quality".
    static QString accuracyCaveat();
    /// A simulated error: "int4-g128 17.14 dB, relative error 13.90 %, scale 1, 0.012 % clipped".
    static QString simulatedError(const SimulatedError &error);
    /// What a figure was simulated on: "[4096, 4096] like model.layers.0.self_attn.o_proj.weight:
    /// Student-t ...", with its clipping when cut to the simulator's size.
    static QString simulatedTensor(const AccuracyTensor &tensor);
    /// A scenario's accuracy line by line: the weights' format and error; the KV cache's keys and
    /// values (or MLA latent) under the engine's scale and, for FP8, with a calibrated scale beside
    /// it; or the KV cache dtype, lossless or not modelled.
    static QList<AccuracyLine> accuracyLines(const Accuracy &accuracy);
    /// What the weights' and the KV cache's figures assume, in that order.
    static QStringList accuracyNotes(const Accuracy &accuracy);
    /// The FP8 KV cache's SQNR with a calibrated scale beside the engine's; empty for other caches.
    static QString calibratedKv(const KvAccuracy &kv);
    /// "diffuse queries, engine's scale: output 20.58 / 17.59 / 18.47 dB at 1,024 / 4,096 / 8,192
    /// tokens; 2.38 / 2.55 / 2.44 % of the attention moves (logit error 0.047 rms, logits' std 1.75)"
    static QString attention(const AttentionRun &run);
    /// One sentence for the view: the attention output's SQNR at 4,096 tokens for both query
    /// models under the engine's scale, beside the cache's own; empty without them.
    static QString attentionSummary(const KvAccuracy &kv);
    /// What a comparison's accuracy figures assume, each caveat once with the columns it
    /// concerns, in column order: the calibrated FP8 KV figure, the weights' and the KV
    /// cache's notes, the column's own (a format the engine loads only from a quantized
    /// checkpoint); then the comparison's notes, of no one column.
    static QList<AccuracyCaveat> accuracyCaveats(const Comparison &comparison);
    /// The tensors and the KV scale `accuracy`'s figures were simulated on, added to
    /// `simulatedOn` when not already there.
    static void addSimulatedOn(QStringList &simulatedOn, const Accuracy &accuracy);
};

} // namespace kvscope
