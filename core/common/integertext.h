// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QString>

namespace kvscope {

/// An integer as the user wrote it, compared with bounds before anything narrows it:
/// "2147483648" must be refused as itself, never as a wrapped -2147483648 or a clamp.
struct IntegerText
{
    bool isInteger = false; ///< digits with an optional sign, blanks around them
    bool fits = false;      ///< within 64 bits (then `value` holds it)
    bool negative = false;
    std::int64_t value = 0;

    static IntegerText read(const QString &text);

    bool above(std::int64_t maximum) const { return isInteger && (fits ? value > maximum : !negative); }
};

/// `text` as an integer in [minimum, maximum]. Throws kvscope::Error: "<option>: <text> is
/// larger than <maximum>" above it, `invalid` (a whole message) when `text` is no integer
/// or one below `minimum`.
std::int64_t parseInteger(const QString &text, const QString &option, std::int64_t minimum,
                          std::int64_t maximum, const QString &invalid);

} // namespace kvscope
