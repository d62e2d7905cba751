// SPDX-License-Identifier: MIT
#pragma once

#include "plan/breakdown.h"
#include "precision/dtypes.h"

#include <QColor>
#include <QFont>
#include <QPalette>

class QChart;

namespace kvscope::theme {

/// True when the palette's window is dark (the system is in dark mode).
bool isDark(const QPalette &palette);

/// A dark palette (zinc greys): `kvscope --palette dark` where the platform offers
/// none (the offscreen one, Qt 6.4 on many desktops), and the dark-mode tests.
QPalette darkPalette();

/// Colour of a part of the memory bar; the overflow is the warning colour.
QColor partColor(MemoryPart part, const QPalette &palette);

/// Colour of a KV precision's line in the growth chart (by bytes per element).
QColor precisionColor(KvCacheDtype dtype, const QPalette &palette);

/// Colour of a Compare view column (0 to 3), the same in its bars and its header.
QColor columnColor(int column, const QPalette &palette);

/// Background of the best figure of a Compare view row: a light tint of the highlight.
QColor bestTint(const QPalette &palette);

/// Text drawn on a bar of colour `fill`: near-black on a light fill, white on a dark one.
QColor textOn(const QColor &fill);

/// The warning colour (over budget) and the budget line colour.
QColor warningColor(const QPalette &palette);
QColor budgetColor(const QPalette &palette);

/// Secondary text: between the text and the background colour, legible in both modes.
QColor mutedTextColor(const QPalette &palette);

/// Fonts sized to be read from the back of a room.
QFont chartTitleFont();
QFont chartLabelFont();

/// Sets a chart's title only when it changes (a new title re-lays out the chart).
void setTitle(QChart *chart, const QString &title);

/// Background, title and legend colours of a chart from the palette.
void applyToChart(QChart *chart, const QPalette &palette);

} // namespace kvscope::theme
