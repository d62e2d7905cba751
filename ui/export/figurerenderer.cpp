// SPDX-License-Identifier: MIT
#include "ui/export/figurerenderer.h"

#include "core/common/atomicfile.h"
#include "core/common/error.h"
#include "core/common/imagesize.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/compare/accuracy.h"
#include "core/compare/kvhead.h"
#include "core/output/scenariolabel.h"
#include "ui/charts/chartview.h"
#include "ui/export/reportpage.h"
#include "ui/style/theme.h"
#include "ui/widgets/legendstrip.h"

#include <memory>
#include <optional>

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImageWriter>
#include <QLabel>
#include <QPainter>
#include <QPdfWriter>
#include <QStyle>
#include <QSvgGenerator>
#include <QVBoxLayout>

namespace kvscope {

namespace {

/// Figures are laid out and painted at 96 dpi, the logical resolution of
/// Qt's offscreen platform and of desktop screens at 100 %.
constexpr int LogicalDpi = 96;
constexpr double InchesPerMeter = 1 / 0.0254;
constexpr int PageMargin = 16;

QPalette figurePalette(bool dark)
{
    QPalette palette = dark ? theme::darkPalette() : QApplication::style()->standardPalette();
    // One background from edge to edge: the chart's.
    palette.setColor(QPalette::Window, palette.color(QPalette::Base));
    return palette;
}

/// The figure, never shown on screen: the chart (or the report page), its
/// legend strip when it has one, and the caption.
std::unique_ptr<QWidget> newFigure(const ChartEntry &entry, const ChartSource &source,
                                   const FigureOptions &options)
{
    auto figure = std::make_unique<QWidget>();
    figure->setAttribute(Qt::WA_DontShowOnScreen);
    figure->setAutoFillBackground(true);
    figure->setPalette(figurePalette(options.dark));
    auto *layout = new QVBoxLayout(figure.get());
    layout->setContentsMargins(PageMargin, PageMargin, PageMargin, PageMargin / 2);
    if (entry.build) {
        ChartView *chart = entry.build(source);
        chart->setParent(figure.get()); // takes the figure's palette (and applies it)
        layout->addWidget(chart, 1);
        if (!chart->legendEntries().isEmpty())
            layout->addWidget(chart->makeLegend(figure.get()));
    } else {
        layout->addWidget(newReportPage(source, figure.get()), 1);
    }
    if (options.caption) {
        auto *caption = new QLabel(figureCaption(entry, source), figure.get());
        caption->setObjectName(QStringLiteral("figureCaption"));
        caption->setWordWrap(true);
        QPalette muted = caption->palette();
        muted.setColor(QPalette::WindowText, theme::mutedTextColor(caption->palette()));
        caption->setPalette(muted);
        layout->addWidget(caption);
    }
    return figure;
}

/// Lays the figure out at `size`: resize and show (never on screen), then
/// let the posted layout requests and the charts' geometry settle. With updates
/// off meanwhile: a shown widget paints itself into a backing store of its
/// size (512 MiB at 16384 x 8192), which an SVG or a PDF never needs.
void settle(QWidget *figure, QSize size)
{
    figure->setUpdatesEnabled(false);
    figure->resize(size);
    figure->show();
    for (int pass = 0; pass < 3; ++pass) {
        figure->layout()->activate();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    }
    // render() draws only a widget whose updates are on; nothing processes the update this
    // posts before the figure is drawn and deleted.
    figure->setUpdatesEnabled(true);
}

QImage paintImage(QWidget *figure, QSize size, int scale)
{
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        throw Error(
            QCoreApplication::translate("kvscope::FigureRenderer", "not enough memory for a %1 × %2 image")
                .arg(size.width() * scale)
                .arg(size.height() * scale));
    image.setDevicePixelRatio(scale);
    // Text in points is sized by the device's dpi: paint at the logical 96.
    image.setDotsPerMeterX(qRound(LogicalDpi * InchesPerMeter));
    image.setDotsPerMeterY(qRound(LogicalDpi * InchesPerMeter));
    image.fill(figure->palette().color(QPalette::Window));
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                               QPainter::SmoothPixmapTransform);
        figure->render(&painter);
    }
    // The file records the print resolution: 96 dpi per logical pixel.
    image.setDotsPerMeterX(qRound(LogicalDpi * scale * InchesPerMeter));
    image.setDotsPerMeterY(qRound(LogicalDpi * scale * InchesPerMeter));
    return image;
}

QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image))
        throw Error(QCoreApplication::translate("kvscope::FigureRenderer", "cannot encode the PNG: %1")
                        .arg(writer.errorString()));
    return bytes;
}

QByteArray svgBytes(QWidget *figure, QSize size, const QString &title, const QString &description)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(LogicalDpi);
    svg.setTitle(title);
    svg.setDescription(description);
    QPainter painter(&svg);
    painter.fillRect(QRect(QPoint(0, 0), size), figure->palette().color(QPalette::Window));
    figure->render(&painter);
    painter.end();
    return bytes;
}

QByteArray pdfBytes(QWidget *figure, QSize size, const QString &title)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setResolution(LogicalDpi);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("kvscope %1").arg(QStringLiteral(KVSCOPE_VERSION)));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setPageSize(
        QPageSize(QSizeF(size) * 72.0 / LogicalDpi, QPageSize::Point, QString(), QPageSize::ExactMatch));
    QPainter painter(&pdf);
    // The page holds exactly the figure, whatever rounding the page size took.
    painter.scale(double(pdf.width()) / size.width(), double(pdf.height()) / size.height());
    painter.fillRect(QRect(QPoint(0, 0), size), figure->palette().color(QPalette::Window));
    figure->render(&painter);
    painter.end();
    return bytes;
}

/// The scenario with the precisions its plan resolved "auto" to.
QString scenarioCaption(const Scenario &s, const MemoryPlan &plan)
{
    const ResolvedPrecisions precisions = resolvedPrecisions(plan);
    return QCoreApplication::translate("kvscope::FigureRenderer",
                                       "%1 · %2 × %3 · %10 %4 %11 %5 %12 %6 · batch %7 · %8 tokens · "
                                       "kvscope %9")
        .arg(s.model.name, s.gpu.name, QString::number(s.gpuCount()), precisions.dtype,
             precisions.quantization, precisions.kvCacheDtype, formatCount(s.batchSize),
             formatCount(plan.seqLen), QStringLiteral(KVSCOPE_VERSION), optionFlag(ScenarioField::Dtype),
             optionFlag(ScenarioField::Quantization), optionFlag(ScenarioField::KvCacheDtype));
}

/// The shared scenario and the columns' labels.
QString comparisonCaption(const ChartSource &source)
{
    const Scenario &s = source.scenario;
    QStringList labels;
    // The tokens a sequence holds, its images' among them, as the columns planned it (they share the
    // workload).
    std::int64_t tokens = s.seqLen;
    if (source.comparison)
        for (const ComparedColumn &column : source.comparison->columns) {
            labels << column.label;
            tokens = column.plan.seqLen;
        }
    return QCoreApplication::translate("kvscope::FigureRenderer",
                                       "%1 · %2 × %3 · batch %4 · %5 tokens · %6 · kvscope %7")
        .arg(s.model.name, s.gpu.name, QString::number(s.gpuCount()), formatCount(s.batchSize),
             formatCount(tokens), labels.join(QStringLiteral(" | ")), QStringLiteral(KVSCOPE_VERSION));
}

QString quantizationCaption(const ChartSource &source)
{
    const QuantizationChoices &q = source.quantChoices;
    QString tensor = q.input;
    if (source.quant) {
        const quant::TensorData &t = source.quant->tensor.data;
        tensor = t.name().isEmpty() ? t.origin() : QStringLiteral("%1 %2").arg(t.origin(), t.name());
        tensor += QStringLiteral(" [%1 × %2]").arg(t.rows()).arg(t.cols());
    }
    return QCoreApplication::translate("kvscope::FigureRenderer",
                                       "%1 · schemes %2 · group %3 · %4 bins · kvscope %5")
        .arg(tensor, q.schemes.join(QStringLiteral(", ")),
             q.groupSize < 0 ? QCoreApplication::translate("kvscope::FigureRenderer", "whole row")
                             : QString::number(q.groupSize),
             QString::number(q.bins), QStringLiteral(KVSCOPE_VERSION));
}

QString attentionCaption(const ChartSource &source)
{
    if (!source.attention)
        return QStringLiteral("kvscope %1").arg(QStringLiteral(KVSCOPE_VERSION));
    const AttentionPicture &p = *source.attention;
    const AttentionPictureChoices &c = p.choices;
    return QCoreApplication::translate(
               "kvscope::FigureRenderer",
               "%1 · one KV head, keys of %2 values · %3, %4 scale · %5 query %6 of %7 · "
               "%8 tokens · kvscope %9")
        .arg(p.modelName)
        .arg(p.keyWidth)
        .arg(dtypeName(c.format), kvScaleName(c.calibratedScale), quant::queryModelName(c.queries))
        .arg(c.query)
        .arg(AttentionQueries)
        .arg(c.tokens)
        .arg(QStringLiteral(KVSCOPE_VERSION));
}

} // namespace

std::optional<FigureFormat> formatNamed(const QString &name)
{
    static const std::pair<const char *, FigureFormat> formats[] = {
        {"png", FigureFormat::Png}, {"svg", FigureFormat::Svg},   {"pdf", FigureFormat::Pdf},
        {"csv", FigureFormat::Csv}, {"json", FigureFormat::Json},
    };
    for (const auto &[formatName, format] : formats)
        if (name.toLower() == QLatin1String(formatName))
            return format;
    return std::nullopt;
}

FigureFormat formatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (const std::optional<FigureFormat> format = formatNamed(suffix))
        return *format;
    throw Error(
        QCoreApplication::translate("kvscope::FigureRenderer",
                                    "%1: unsupported extension '%2' (use .png, .svg, .pdf, .csv or .json)")
            .arg(path, suffix.isEmpty() ? QCoreApplication::translate("kvscope::FigureRenderer", "none")
                                        : QStringLiteral(".") + suffix));
}

QSize reportPageSize(ReportPage page)
{
    // A4 is 210 × 297 mm: 794 × 1123 px at 96 dpi.
    return page == ReportPage::A4 ? QSize(794, 1123) : QSize(1920, 1080);
}

QSize figureSize(const ChartEntry &entry, const FigureOptions &options)
{
    return entry.build ? options.size : options.pageSize.value_or(reportPageSize(options.page));
}

void checkFigureOptions(const FigureOptions &options)
{
    const QSize size = options.size;
    if (size.width() < MinFigureSide || size.height() < MinFigureSide || size.width() > MaxFigureSide ||
        size.height() > MaxFigureSide)
        throw Error(QCoreApplication::translate("kvscope::FigureRenderer",
                                                "size %1 × %2: each side must be from %3 to %4 pixels")
                        .arg(size.width())
                        .arg(size.height())
                        .arg(MinFigureSide)
                        .arg(MaxFigureSide));
    if (options.scale < 1 || options.scale > MaxFigureScale)
        throw Error(QCoreApplication::translate("kvscope::FigureRenderer", "scale %1: must be from 1 to %2")
                        .arg(options.scale)
                        .arg(MaxFigureScale));
    // The image drawn is size × scale pixels, bounded as every picture kvscope draws.
    checkImageSize(qint64(size.width()) * options.scale, qint64(size.height()) * options.scale,
                   QStringLiteral("image at scale %1").arg(options.scale));
}

QString figureCaption(const ChartEntry &entry, const ChartSource &source)
{
    switch (entry.inputs) {
    case ChartInputs::Quantization:
        return quantizationCaption(source);
    case ChartInputs::Comparison:
        return comparisonCaption(source);
    case ChartInputs::Attention:
        return attentionCaption(source);
    case ChartInputs::Scenario:
        break;
    }
    return scenarioCaption(source.scenario, source.plan);
}

QImage renderFigureImage(const ChartEntry &entry, const ChartSource &source, const FigureOptions &options)
{
    FigureOptions checked = options;
    checked.size = figureSize(entry, options);
    checkFigureOptions(checked);
    const std::unique_ptr<QWidget> figure = newFigure(entry, source, options);
    settle(figure.get(), checked.size);
    return paintImage(figure.get(), checked.size, checked.scale);
}

QByteArray renderFigure(const ChartEntry &entry, const ChartSource &source, const FigureOptions &options,
                        FigureFormat format)
{
    switch (format) {
    case FigureFormat::Csv:
        return entry.csv(source);
    case FigureFormat::Json:
        return entry.json(source);
    case FigureFormat::Png:
        return pngBytes(renderFigureImage(entry, source, options));
    case FigureFormat::Svg:
    case FigureFormat::Pdf:
        break;
    }
    FigureOptions checked = options;
    checked.size = figureSize(entry, options);
    checkFigureOptions(checked);
    const std::unique_ptr<QWidget> figure = newFigure(entry, source, options);
    settle(figure.get(), checked.size);
    const QString title = entry.translatedTitle();
    return format == FigureFormat::Svg
               ? svgBytes(figure.get(), checked.size, title, figureCaption(entry, source))
               : pdfBytes(figure.get(), checked.size, title);
}

void exportFigure(const QString &path, const ChartEntry &entry, const ChartSource &source,
                  const FigureOptions &options)
{
    exportFigure(path, formatForPath(path), entry, source, options);
}

void exportFigure(const QString &path, FigureFormat format, const ChartEntry &entry,
                  const ChartSource &source, const FigureOptions &options)
{
    writeFileAtomically(path, renderFigure(entry, source, options, format));
}

} // namespace kvscope
