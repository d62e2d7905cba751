// SPDX-License-Identifier: MIT
// The median the validation documents report.
#pragma once

#include <algorithm>

#include <QList>

namespace kvscope::validation {

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
inline double median(QList<double> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype middle = values.size() / 2;
    return values.size() % 2 ? values.at(middle) : (values.at(middle - 1) + values.at(middle)) / 2;
}

} // namespace kvscope::validation
