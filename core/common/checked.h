// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/error.h"

#include <cstdint>
#include <limits>

#include <QtNumeric>

namespace kvscope {

/// A signed 64-bit integer whose arithmetic throws instead of wrapping.
/// Byte and token figures are built from it so that absurd inputs
/// (batch 10^9 × 10^12 tokens) end in a clear error, never a wrong number.
class Checked
{
public:
    constexpr Checked(std::int64_t value = 0) : m_value(value) {}

    constexpr std::int64_t value() const { return m_value; }

    friend Checked operator+(Checked a, Checked b)
    {
        std::int64_t r;
        if (qAddOverflow(a.m_value, b.m_value, &r))
            overflow();
        return r;
    }
    friend Checked operator-(Checked a, Checked b)
    {
        std::int64_t r;
        if (qSubOverflow(a.m_value, b.m_value, &r))
            overflow();
        return r;
    }
    friend Checked operator*(Checked a, Checked b)
    {
        std::int64_t r;
        if (qMulOverflow(a.m_value, b.m_value, &r))
            overflow();
        return r;
    }
    Checked &operator+=(Checked b) { return *this = *this + b; }
    Checked &operator-=(Checked b) { return *this = *this - b; }
    Checked &operator*=(Checked b) { return *this = *this * b; }

    [[noreturn]] static void overflow()
    {
        throw Error(QStringLiteral("a figure exceeds 2^63 (8 EiB) and cannot be represented"));
    }

private:
    std::int64_t m_value;
};

/// bytes(), or an Error saying message() when its arithmetic passes 2^63: for the caller that knows which
/// option to blame.
template <class Bytes, class Message> auto withOverflowMessage(Bytes &&bytes, Message &&message)
{
    try {
        return bytes();
    } catch (const Error &) {
        throw Error(message());
    }
}

/// Ceiling division for non-negative numerators and positive denominators.
constexpr std::int64_t ceilDiv(std::int64_t numerator, std::int64_t denominator)
{
    return numerator / denominator + (numerator % denominator != 0 ? 1 : 0);
}

/// value x factor / divisor, floored, for non-negative value and factor and a positive
/// divisor: exact, and without the product, which overflows long before the result
/// (1 PiB x 900,000 ppm is 2^69.8; the budget it gives is 2^49.8).
inline std::int64_t mulDivFloor(std::int64_t value, std::int64_t factor, std::int64_t divisor)
{
    const Checked whole = Checked(value / divisor) * factor;
    const std::int64_t part = (Checked(value % divisor) * factor).value() / divisor;
    return (whole + part).value();
}

/// Floor division that rounds toward negative infinity (headroom can be negative).
constexpr std::int64_t floorDiv(std::int64_t numerator, std::int64_t denominator)
{
    const std::int64_t q = numerator / denominator;
    return (numerator % denominator != 0 && ((numerator < 0) != (denominator < 0))) ? q - 1 : q;
}

} // namespace kvscope
