// SPDX-License-Identifier: MIT
// The schemes and int group sizes a picker offers, in display order.
#pragma once

#include <QList>

namespace kvscope::quant {

/// A scheme a picker offers (a name parseScheme() reads), whether it starts checked, and
/// the shorter text its check box shows where the name would widen the picker (else the name).
struct SchemeEntry
{
    const char *name;
    bool checkedByDefault;
    const char *label = nullptr;
};

/// The schemes a picker offers, in display order.
QList<SchemeEntry> schemeEntries();
/// The int group sizes a picker offers: powers of two, then WholeRow.
QList<int> groupSizeStops();

} // namespace kvscope::quant
