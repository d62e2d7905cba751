// SPDX-License-Identifier: MIT
#include "core/compare/comparisonnotes.h"

#include "core/precision/dtypes.h"

#include <QCoreApplication>

namespace kvscope {

namespace {

/// The KV cache was quantized (it has an error) from the column's activations.
bool castsKv(const ComparedColumn &c)
{
    return c.accuracy.kv.combinedSqnrDb.has_value();
}

/// `later` casts the same KV format as `earlier` from another 16-bit source.
bool sameKvFromAnotherSource(const ComparedColumn &earlier, const ComparedColumn &later)
{
    return castsKv(earlier) && castsKv(later) && earlier.plan.kvCacheDtype == later.plan.kvCacheDtype &&
           earlier.plan.dtype != later.plan.dtype;
}

QString sourceNote(const ComparedColumn &earlier, const ComparedColumn &later)
{
    return QCoreApplication::translate("kvscope::Comparison",
                                       "“%1” and “%2” cast their KV cache to the same %3 from different "
                                       "16-bit activations (%4 and %5): their KV SQNR differs by that "
                                       "source tensor, not by the cache format")
        .arg(earlier.label, later.label, kvPrecisionName(later.plan.kvCacheDtype),
             dtypeName(earlier.plan.dtype), dtypeName(later.plan.dtype));
}

} // namespace

QStringList comparisonNotes(const QList<ComparedColumn> &columns)
{
    QStringList notes;
    for (qsizetype j = 1; j < columns.size(); ++j)
        for (qsizetype i = 0; i < j; ++i)
            if (sameKvFromAnotherSource(columns.at(i), columns.at(j))) {
                notes << sourceNote(columns.at(i), columns.at(j));
                break;
            }
    return notes;
}

} // namespace kvscope
