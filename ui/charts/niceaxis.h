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

/// An axis's tick count that follows its plot's length (ticksThatFit), chosen
/// again only once the length has moved by a label's spacing since the last
/// choice. The labels a count brings move the plot by a few pixels: chosen at
/// every move, five ticks left room for four and four for five at some widths,
/// each choice laying the chart out again inside the last.
class AxisTickFit
{
public:
    /// Chooses for `length`; true when the count changed.
    bool update(double length, double labelSpacing);
    int ticks() const { return m_ticks; }
    /// The next update() chooses afresh (a new range).
    void reset() { m_ticks = 0; }

private:
    int m_ticks = 0;
    double m_length = 0; ///< the length of the last choice
};

/// An axis of whole items 1 to `count` (tokens), each centred on its number:
/// the range [0.5, count + 0.5] with a tick every 1, 2 or 5 × 10^n items,
/// about eight of them.
void setItemAxis(QValueAxis *axis, std::int64_t count);

} // namespace kvscope
