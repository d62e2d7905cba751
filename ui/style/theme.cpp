// SPDX-License-Identifier: MIT
#include "ui/style/theme.h"

#include "ui/style/zoomstyle.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QLegend>
#include <QWidget>

namespace kvscope::theme {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QPalette darkPalette()
{
    const QColor window(0x20, 0x20, 0x24), base(0x18, 0x18, 0x1b), text(0xe4, 0xe4, 0xe7);
    const QColor button(0x2a, 0x2a, 0x2e), mid(0x52, 0x52, 0x5b), highlight(0x25, 0x63, 0xeb);
    QPalette p(button, window);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, button);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xa1, 0xa1, 0xaa));
    p.setColor(QPalette::Mid, mid);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x60, 0xa5, 0xfa));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x71, 0x71, 0x7a));
    return p;
}

QColor partColor(MemoryPart part, const QPalette &palette)
{
    const bool dark = isDark(palette);
    switch (part) {
    case MemoryPart::Weights:
        return dark ? QColor(0x60, 0xa5, 0xfa) : QColor(0x25, 0x63, 0xeb);
    case MemoryPart::Activations:
        return dark ? QColor(0xfb, 0xbf, 0x24) : QColor(0xd9, 0x77, 0x06);
    case MemoryPart::Overhead:
        return dark ? QColor(0xa1, 0xa1, 0xaa) : QColor(0x71, 0x71, 0x7a);
    case MemoryPart::CudaGraphs: // a slate beside the overhead's grey: it is overhead too
        return dark ? QColor(0x64, 0x74, 0x8b) : QColor(0x33, 0x41, 0x55);
    case MemoryPart::KvCache:
        return dark ? QColor(0x34, 0xd3, 0x99) : QColor(0x05, 0x96, 0x69);
    case MemoryPart::RecurrentState:
        return dark ? QColor(0xf4, 0x72, 0xb6) : QColor(0xdb, 0x27, 0x77);
    case MemoryPart::Headroom:
        return dark ? QColor(0x3f, 0x3f, 0x46) : QColor(0xe4, 0xe4, 0xe7);
    case MemoryPart::Overflow:
        return warningColor(palette);
    }
    return palette.color(QPalette::Text);
}

QColor stepTermColor(StepTerm term, const QPalette &palette)
{
    // The reads in the memory bar's colours; their conversions in a lighter (dark mode: deeper)
    // shade of them, the engine in greys.
    if (term == StepTerm::Weights)
        return partColor(MemoryPart::Weights, palette);
    if (term == StepTerm::KvCache)
        return partColor(MemoryPart::KvCache, palette);
    struct Shades
    {
        StepTerm term;
        QRgb light, dark;
    };
    static const Shades shades[] = {
        {StepTerm::Dequantization, 0x93c5fd, 0x1d4ed8},   {StepTerm::KvDequantization, 0x6ee7b7, 0x047857},
        {StepTerm::Compute, 0x7c3aed, 0xa78bfa},          {StepTerm::AllReduce, 0xea580c, 0xfb923c},
        {StepTerm::MoeOverhead, 0xdb2777, 0xf472b6},      {StepTerm::StepOverhead, 0x52525b, 0xa1a1aa},
        {StepTerm::SequenceOverhead, 0xa1a1aa, 0x71717a}, {StepTerm::RequestOverhead, 0xca8a04, 0xfacc15},
        {StepTerm::VisionEncoder, 0x65a30d, 0xa3e635},    {StepTerm::AllToAll, 0x0891b2, 0x22d3ee},
        {StepTerm::PipelineTransfer, 0x9f1239, 0xfb7185}, {StepTerm::PipelineWait, 0x78716c, 0xd6d3d1},
    };
    for (const Shades &s : shades)
        if (s.term == term)
            return QColor(isDark(palette) ? s.dark : s.light);
    return palette.color(QPalette::Text);
}

QColor precisionColor(KvCacheDtype dtype, const QPalette &palette)
{
    const bool dark = isDark(palette);
    const double bits = kvBitsPerElement(dtype);
    if (bits >= 32)
        return dark ? QColor(0xc0, 0x84, 0xfc) : QColor(0x93, 0x33, 0xea);
    if (bits >= 16)
        return partColor(MemoryPart::KvCache, palette);
    if (bits >= 8)
        return dark ? QColor(0x22, 0xd3, 0xee) : QColor(0x08, 0x91, 0xb2);
    return dark ? QColor(0xfb, 0x92, 0x3c) : QColor(0xea, 0x58, 0x0c);
}

QColor columnColor(int column, const QPalette &palette)
{
    static const QRgb light[] = {0x4f46e5, 0x0891b2, 0xd97706, 0xdb2777};
    static const QRgb dark[] = {0x818cf8, 0x22d3ee, 0xfbbf24, 0xf472b6};
    const int i = ((column % 4) + 4) % 4;
    return QColor(isDark(palette) ? dark[i] : light[i]);
}

QColor bestTint(const QPalette &palette)
{
    QColor tint = partColor(MemoryPart::KvCache, palette);
    tint.setAlpha(isDark(palette) ? 70 : 45);
    return tint;
}

QColor textOn(const QColor &fill)
{
    // Relative luminance (WCAG 2, sRGB approximated by gamma 2.2). The labels are
    // bold: white keeps WCAG's 3:1 for bold text up to 0.3, dark text above it.
    const auto linear = [](double c) { return std::pow(c, 2.2); };
    const double luminance =
        0.2126 * linear(fill.redF()) + 0.7152 * linear(fill.greenF()) + 0.0722 * linear(fill.blueF());
    return luminance > 0.3 ? QColor(0x11, 0x18, 0x27) : QColor(Qt::white);
}

double contrastRatio(const QColor &a, const QColor &b)
{
    // https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio: relative luminances of the linearised
    // sRGB channels, (L1 + 0.05) / (L2 + 0.05).
    const auto channel = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const auto luminance = [&channel](const QColor &c) {
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor counterfactualColor(Counterfactual kind, const QPalette &palette)
{
    const bool dark = isDark(palette);
    if (kind == Counterfactual::AsIfMha)
        return dark ? QColor(0xf4, 0x72, 0xb6) : QColor(0xbe, 0x18, 0x5d); // pink
    return dark ? QColor(0xfa, 0xcc, 0x15) : QColor(0xa1, 0x62, 0x07);     // amber
}

QColor warningColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xf8, 0x71, 0x71) : QColor(0xdc, 0x26, 0x26);
}

QColor budgetColor(const QPalette &palette)
{
    return palette.color(QPalette::WindowText);
}

QColor termColor(std::optional<ScenarioField> option, const QPalette &palette)
{
    const bool dark = isDark(palette);
    if (!option)
        return palette.color(QPalette::Text);
    switch (*option) {
    case ScenarioField::Model:
        return partColor(MemoryPart::Weights, palette); // blue
    case ScenarioField::Dtype:
    case ScenarioField::Quantization:
    case ScenarioField::GroupSize:
    case ScenarioField::KvCacheDtype:
    case ScenarioField::MambaSsmCacheDtype:
        return dark ? QColor(0xfb, 0x92, 0x3c) : QColor(0xc2, 0x41, 0x0c); // precision: orange
    case ScenarioField::Gpu:
    case ScenarioField::TensorParallelSize:
        return dark ? QColor(0xc0, 0x84, 0xfc) : QColor(0x7e, 0x22, 0xce); // hardware: purple
    default:
        return dark ? QColor(0x34, 0xd3, 0x99) : QColor(0x04, 0x78, 0x57); // serving knobs: green
    }
}

QColor mutedTextColor(const QPalette &palette)
{
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    return QColor((text.red() * 2 + base.red()) / 3, (text.green() * 2 + base.green()) / 3,
                  (text.blue() * 2 + base.blue()) / 3);
}

QPalette highContrastPalette(bool dark)
{
    const QColor ink = dark ? Qt::white : Qt::black;
    const QColor paper = dark ? Qt::black : Qt::white;
    const QColor button = dark ? QColor(0x1c, 0x1c, 0x1c) : QColor(0xf0, 0xf0, 0xf0);
    QPalette p(button, paper);
    for (const QPalette::ColorRole role : {QPalette::Window, QPalette::Base, QPalette::AlternateBase})
        p.setColor(role, paper);
    for (const QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText})
        p.setColor(role, ink);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ToolTipBase, paper);
    p.setColor(QPalette::Mid, dark ? QColor(0xa0, 0xa0, 0xa0) : QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::PlaceholderText, dark ? QColor(0xc0, 0xc0, 0xc0) : QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::Highlight, dark ? QColor(0xff, 0xd0, 0x00) : QColor(0x00, 0x38, 0xb8));
    p.setColor(QPalette::HighlightedText, dark ? Qt::black : Qt::white);
    p.setColor(QPalette::Link, dark ? QColor(0x80, 0xc8, 0xff) : QColor(0x00, 0x30, 0xa0));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, dark ? QColor(0x90, 0x90, 0x90) : QColor(0x60, 0x60, 0x60));
    return p;
}

namespace {

const char *const FontScaleProperty = "kvscopeFontScale";
const char *const FontBoldProperty = "kvscopeFontBold";

double currentZoom = 1.0;
/// The application font before any zoom; empty until the first setZoom().
std::optional<QFont> baseFont;

void applyScaledFont(QWidget *widget)
{
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * widget->property(FontScaleProperty).toDouble());
    font.setBold(widget->property(FontBoldProperty).toBool());
    widget->setFont(font);
}

} // namespace

void setScaledFont(QWidget *widget, double factor, bool bold)
{
    widget->setProperty(FontScaleProperty, factor);
    widget->setProperty(FontBoldProperty, bold);
    applyScaledFont(widget);
}

void setZoom(double zoom)
{
    if (!baseFont)
        baseFont = QApplication::font();
    currentZoom = zoom;
    if (zoom != 1.0)
        ZoomStyle::install(); // check boxes and icons grow with the text
    QFont font = *baseFont;
    font.setPointSizeF(baseFont->pointSizeF() * zoom);
    QApplication::setFont(font);
    for (QWidget *widget : QApplication::allWidgets())
        if (widget->property(FontScaleProperty).isValid())
            applyScaledFont(widget);
}

double zoom()
{
    return currentZoom;
}

double lineWidth(double width)
{
    return width * currentZoom;
}

QFont chartTitleFont()
{
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * 1.25);
    font.setBold(true);
    return font;
}

QFont chartLabelFont()
{
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * 1.05);
    return font;
}

void setTitle(QChart *chart, const QString &title)
{
    if (chart->title() != title)
        chart->setTitle(title);
}

void applyToChart(QChart *chart, const QPalette &palette)
{
    chart->setTheme(isDark(palette) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundRoundness(4);
    chart->setTitleBrush(palette.color(QPalette::Text));
    chart->setTitleFont(chartTitleFont());
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
    chart->legend()->setFont(chartLabelFont());
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsColor(palette.color(QPalette::Text));
        axis->setLabelsFont(chartLabelFont());
        axis->setTitleBrush(palette.color(QPalette::Text));
        axis->setGridLineColor(palette.color(QPalette::Mid));
    }
}

} // namespace kvscope::theme
