// SPDX-License-Identifier: MIT
// CSV as the charts' "Copy data" and `kvscope export --out FILE.csv` write it
// (RFC 4180): one header row, then one row per record, exact figures.
#pragma once

#include <cstdint>
#include <initializer_list>

#include <QByteArray>
#include <QString>

namespace kvscope::csv {

/// One line: the cells joined with commas, ended by a line feed.
QByteArray row(std::initializer_list<QByteArray> cells);

/// A text cell; one with a comma, quote or line break is quoted, quotes doubled.
QByteArray field(const QString &text);

/// An integer, in full.
QByteArray integer(std::int64_t value);

/// A double in its shortest exact spelling, as JSON writes it (1215.4, 1.5e-05).
QByteArray decimal(double value);

} // namespace kvscope::csv
