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
};

} // namespace kvscope
