// SPDX-License-Identifier: MIT
// Draws a catalogue entry (chartcatalogue.h) as a figure — the chart, its
// legend and a caption line saying what it shows — into an image, an SVG or
// a PDF page at a requested size, or writes its data as CSV or JSON. The
// figure is a fresh widget that is never shown on screen, laid out at that
// size and painted (QWidget::render into QImage, QSvgGenerator, QPdfWriter):
// no screen is grabbed, so an export is the same with or without a display
// and whatever the window's size.
#pragma once

#include "core/common/imagesize.h"
#include "ui/export/chartcatalogue.h"

#include <optional>

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

namespace kvscope {

enum class FigureFormat
{
    Png,
    Svg,
    Pdf,
    Csv,
    Json
};

/// The format named "png", "svg", "pdf", "csv" or "json" (any case), if any.
std::optional<FigureFormat> formatNamed(const QString &name);

/// The format a file name's extension names (.png, .svg, .pdf, .csv,
/// .json, any case); throws kvscope::Error naming the file otherwise.
FigureFormat formatForPath(const QString &path);

/// The report's page: a 16:9 slide or an A4 handout (portrait).
enum class ReportPage
{
    Slide,
    A4
};

/// A figure's size in logical pixels (at 96 dpi), for a chart or a report page.
QSize reportPageSize(ReportPage page);

inline constexpr int MinFigureSide = 200;
inline constexpr int MaxFigureSide = int(MaxImageSide);
inline constexpr int MaxFigureScale = 4;

struct FigureOptions
{
    QSize size{1280, 720}; ///< logical pixels; an image has size × scale pixels
    int scale = 1;         ///< 1 to MaxFigureScale; a PNG records 96 × scale dpi
    bool dark = false;     ///< the dark palette, else the light one
    bool caption = true;   ///< a line under the figure: model, GPU, precisions, batch, length, version
    ReportPage page = ReportPage::Slide; ///< the report's page (its size replaces `size`)
    std::optional<QSize> pageSize; ///< the report's size when not its page's (export's --width/--height)
};

/// The size an entry's figure is drawn at, in logical pixels: `options.size`, or the
/// report's (`pageSize`, else its page's).
QSize figureSize(const ChartEntry &entry, const FigureOptions &options);

/// Throws kvscope::Error unless each side is MinFigureSide..MaxFigureSide,
/// the scale 1..MaxFigureScale and the scaled image within checkImageSize().
void checkFigureOptions(const FigureOptions &options);

/// The caption line of an entry's figure.
QString figureCaption(const ChartEntry &entry, const ChartSource &source);

/// The figure as an image (size × scale pixels, 96 × scale dpi recorded).
QImage renderFigureImage(const ChartEntry &entry, const ChartSource &source, const FigureOptions &options);

/// The figure (or its data) in `format`; throws kvscope::Error when the
/// options are out of bounds or the source lacks what the entry draws.
QByteArray renderFigure(const ChartEntry &entry, const ChartSource &source, const FigureOptions &options,
                        FigureFormat format);

/// Renders in the format of the path's extension and writes the file
/// atomically (nothing is written on any error).
void exportFigure(const QString &path, const ChartEntry &entry, const ChartSource &source,
                  const FigureOptions &options);
/// The same in `format`, whatever the path ("-" is standard output: writeFileAtomically).
void exportFigure(const QString &path, FigureFormat format, const ChartEntry &entry,
                  const ChartSource &source, const FigureOptions &options);

} // namespace kvscope
