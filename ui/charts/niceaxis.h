// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

class QValueAxis;

namespace kvscope {

/// Gives `axis` the range 0 to `top` rounded up to a step of 1, 2 or 5 × 10^n
/// (about `ticks` ticks), the "nice numbers" of QValueAxis::applyNiceNumbers(),
/// and sets it only when it differs from the axis's own. A slider step rarely
/// moves the rounded top, and setting a range lays out every axis label again
/// (setRange then applyNiceNumbers did so twice a step).
void setNiceRangeFromZero(QValueAxis *axis, double top, int ticks = 5);

/// How many ticks (3 to 5) an axis `length` px long takes when each label needs
/// `labelSpacing` px of it. Qt Charts leaves out a label that would overlap the
/// one before it, so too many ticks on a short axis lose labels.
int ticksThatFit(double length, double labelSpacing);

/// An axis of whole items 1 to `count` (tokens), each centred on its number:
/// the range [0.5, count + 0.5] with a tick every 1, 2 or 5 × 10^n items,
/// about eight of them.
void setItemAxis(QValueAxis *axis, std::int64_t count);

} // namespace kvscope
