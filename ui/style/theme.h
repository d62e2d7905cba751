// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/growthoptions.h"
#include "core/common/scenariofield.h"
#include "core/output/breakdown.h"
#include "core/plan/stepterms.h"
#include "core/precision/dtypes.h"

#include <QColor>
#include <QFont>
#include <QPalette>

class QChart;
class QWidget;

namespace kvscope::theme {

/// True when the palette's window is dark (the system is in dark mode).
bool isDark(const QPalette &palette);

/// A dark palette (zinc greys): `kvscope --palette dark` where the platform offers
/// none (the offscreen one, Qt 6.4 on many desktops), and the dark-mode tests.
QPalette darkPalette();

/// Colour of a part of the memory bar; the overflow is the warning colour.
QColor partColor(MemoryPart part, const QPalette &palette);

/// Colour of a term of the speed breakdown: the weights and the KV cache in their
/// memory-bar colours, their dequantization in a lighter shade of them, the
/// engine's overheads in greys.
QColor stepTermColor(StepTerm term, const QPalette &palette);

/// Colour of a KV precision's line in the growth chart (by bytes per element).
QColor precisionColor(KvCacheDtype dtype, const QPalette &palette);

/// Colour of a Compare view column (0 to 3), the same in its bars and its header.
QColor columnColor(int column, const QPalette &palette);

/// Background of the best figure of a Compare view row: a light tint of the highlight.
QColor bestTint(const QPalette &palette);

/// Text drawn on a bar of colour `fill`: near-black on a light fill, white on a dark one.
QColor textOn(const QColor &fill);
/// The WCAG 2 contrast ratio of two colours, from 1 to 21 (AA asks 4.5 for normal text).
double contrastRatio(const QColor &a, const QColor &b);
/// Colour of a counterfactual line of the growth chart ("as if MHA", "as if every layer full").
QColor counterfactualColor(Counterfactual kind, const QPalette &palette);

/// The warning colour (over budget) and the budget line colour.
QColor warningColor(const QPalette &palette);
QColor budgetColor(const QPalette &palette);

/// Colour of a formula value by the option that sets it: the model's config, the
/// GPUs, the precision flags, the serving knobs; text colour for computed values.
QColor termColor(std::optional<ScenarioField> option, const QPalette &palette);

/// Secondary text: between the text and the background colour, legible in both modes.
QColor mutedTextColor(const QPalette &palette);

/// A palette with the strongest contrast, for a projector: black on white, or
/// white on black when `dark`.
QPalette highContrastPalette(bool dark);

/// Fonts sized to be read from the back of a room (relative to the application font).
QFont chartTitleFont();
QFont chartLabelFont();

/// Gives `widget` the application font times `factor` (bold if asked), and keeps it
/// so when the zoom changes the application font.
void setScaledFont(QWidget *widget, double factor, bool bold = false);

/// Presentation zoom: scales the application font (and every font set with
/// setScaledFont) from the font the application started with. Widgets that draw
/// lines and markers scale them with lineWidth() on QEvent::ApplicationFontChange.
void setZoom(double zoom);
double zoom();
/// A pen width or marker size at the current zoom.
double lineWidth(double width);

/// Sets a chart's title only when it changes (a new title re-lays out the chart).
void setTitle(QChart *chart, const QString &title);

/// Background, title and legend colours of a chart from the palette.
void applyToChart(QChart *chart, const QPalette &palette);

} // namespace kvscope::theme
