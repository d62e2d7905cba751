// SPDX-License-Identifier: MIT
// What a comparison says about its columns taken together, beside the figures:
// why two columns' figures differ where their formats do not (the same FP8 KV
// cache cast from float16 in one column, from bfloat16 in another). Computed
// once by compare(); the Compare view, `kvscope compare` and its JSON show them.
#pragma once

#include "core/compare/comparison.h"

#include <QList>
#include <QStringList>

namespace kvscope {

/// One sentence per column whose KV cache shares its format with an earlier
/// column's but is cast from another 16-bit activation dtype, naming both
/// columns and both dtypes; empty when no two columns are alike so.
QStringList comparisonNotes(const QList<ComparedColumn> &columns);

} // namespace kvscope
