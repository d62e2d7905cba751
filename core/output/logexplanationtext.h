// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

struct LogExplanation;

/// An explained start-up log cell by cell, computed once and laid out by
/// logExplanationText() (the terminal) and logExplanationHtml() (the window).
struct LogExplanationLayout
{
    struct Section
    {
        QString title;
        QStringList lines;
    };
    struct Lever
    {
        QString effect; ///< "an FP8 KV cache (--kv-cache-dtype fp8): 888,817 tokens (×2.00)"
        QString launch; ///< the engine's command line with it
    };
    QList<Section> head;      ///< what was read, what was assumed
    QString plannedAs;        ///< "Planned as: kvscope calc ..."
    QList<QStringList> table; ///< the header row, then one row per part: label, logged, kvscope, difference
    QList<bool> differs;      ///< per row: a part kvscope does not reproduce
    Section why;              ///< why the KV cache has this size
    QString leversTitle;      ///< "To hold more"
    QList<Lever> levers;
};

LogExplanationLayout logExplanationLayout(const LogExplanation &explanation);

/// `kvscope explain-log` as text: what was read and assumed, the calc line that plans
/// it, each component per GPU logged beside planned with the difference (one outside
/// its tolerance says "differs"), the KV cache's tokens and concurrency, why the cache
/// has that size and what would hold more, each with its launch line. Columns padded
/// by display width (a CJK character takes two).
QString logExplanationText(const LogExplanation &explanation);

/// The same for the window: a rich-text document whose parts are a real table, so that
/// its columns line up in any font and language; the table, the reasons and the levers
/// come first, what was read and assumed after them.
QString logExplanationHtml(const LogExplanation &explanation);

} // namespace kvscope
