// SPDX-License-Identifier: MIT
#include "ui/explorer/fitbanner.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "ui/style/theme.h"
#include "ui/widgets/textshaping.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QEvent>
#include <QPainter>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QTextLayout>
#include <QtMath>

namespace kvscope {

namespace {

constexpr int AccentBarWidth = 5;
/// How strongly the accent tints the background (of 255).
constexpr int TintAlpha = 40;
/// WCAG 2 AA for normal text.
constexpr double ReadableContrast = 4.5;

/// `top` laid over `under` at `alpha` (of 255): the opaque colour a translucent fill shows.
QColor over(const QColor &top, const QColor &under, int alpha)
{
    const auto mix = [alpha](int t, int u) { return (t * alpha + u * (255 - alpha)) / 255; };
    return QColor(mix(top.red(), under.red()), mix(top.green(), under.green()),
                  mix(top.blue(), under.blue()));
}

/// `color`, or the nearest shade of it towards black or white (whichever the background is
/// further from) that reads on `background`: the palette's dark blue link is lost on a dark red.
QColor readableOn(const QColor &color, const QColor &background)
{
    const QColor target =
        theme::contrastRatio(Qt::white, background) > theme::contrastRatio(Qt::black, background) ? Qt::white
                                                                                                  : Qt::black;
    for (int alpha = 0; alpha <= 255; alpha += 15) {
        const QColor shade = over(target, color, alpha);
        if (theme::contrastRatio(shade, background) >= ReadableContrast)
            return shade;
    }
    return target;
}

} // namespace

FitBanner::FitBanner(QWidget *parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("fitBanner"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextBrowserInteraction);
    setOpenExternalLinks(false);
    setMargin(8);
    setContentsMargins(AccentBarWidth, 0, 0, 0); // room for the accent bar paintEvent() draws
    setAutoFillBackground(true);
    // The drawn copy set as QLabel sets its document (QLabelPrivate::ensureTextLayouted): no margin
    // round the text, the label's alignment, wrapped at words.
    m_drawn.setUndoRedoEnabled(false);
    m_drawn.setDocumentMargin(0);
    QTextOption option = m_drawn.defaultTextOption();
    option.setAlignment(alignment());
    option.setWrapMode(QTextOption::WordWrap);
    m_drawn.setDefaultTextOption(option);
    keepTextShaping(&m_drawn);
    theme::setScaledFont(this, 1.1);
    connect(this, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(QLatin1String("fix:")))
            chooseFix(link.mid(4).toInt());
    });
}

void FitBanner::showPlan(const MemoryPlan &plan)
{
    // A limit ("room for up to ...") is no repair, nor a repair a limit.
    if (!m_fixes.isEmpty() && m_fixes.first().limit != plan.works())
        m_fixes.clear();
    m_plan = plan;
    m_fixesPending = true;
    render();
}

void FitBanner::showFixes(const QList<Fix> &fixes)
{
    m_fixes = fixes;
    m_fixesPending = false;
    render();
}

void FitBanner::showPlan(const MemoryPlan &plan, const QList<Fix> &fixes)
{
    m_plan = plan;
    showFixes(fixes);
}

void FitBanner::render()
{
    m_warning = !m_plan.works();
    m_look = look();
    QString text = m_look.icon + QLatin1Char(' ') + verdict();
    const QString offered = proposals();
    if (!offered.isEmpty())
        text += QStringLiteral("<br>") + offered;
    text += notes();
    setText(text);
    m_drawnStale = true; // parsed and laid out when next measured or drawn: once for both
    m_heightForTextWidth.clear();
    restyle();
}

QString FitBanner::verdict() const
{
    const MemoryPlan &p = m_plan;
    if (!p.weightsFit)
        return tr("<b>The weights alone do not fit:</b> %1 of weights per GPU against a %2 budget, %3 over "
                  "before any activations, overhead or KV cache.")
            .arg(localMemory(p.weights.bytesPerGpu), localMemory(p.budgetBytes),
                 localMemory(p.weightsOverBudgetBytes));
    if (p.kv.shortfallBytes > 0)
        return tr("<b>No room for a KV cache:</b> weights, activations and runtime overhead exceed the %1 "
                  "budget per GPU by %2.")
            .arg(localMemory(p.budgetBytes), localMemory(p.kv.shortfallBytes));
    if (!p.fits)
        return tr("<b>Does not fit:</b> %1 over the %2 budget per GPU.")
            .arg(localMemory(-p.headroomBytes), localMemory(p.budgetBytes));
    if (!p.engineStarts)
        return tr("<b>The batch fits, but %3 would refuse to start</b> (see the note below). %1 headroom "
                  "of the %2 budget per GPU.")
            .arg(localMemory(p.headroomBytes), localMemory(p.budgetBytes), engineDisplayName(p.engine));
    return tr("<b>Fits.</b> %1 headroom of the %2 budget per GPU.")
        .arg(localMemory(p.headroomBytes), localMemory(p.budgetBytes));
}

QString FitBanner::fixText(const Fix &fix)
{
    QStringList parts;
    for (const OptionChange &change : fix.changes) {
        switch (change.option) {
        case ScenarioField::BatchSize:
            parts << tr("batch %1").arg(localCount(change.value.toInteger()));
            break;
        case ScenarioField::SeqLen: // the tokens a sequence then holds, its images' among them
            parts << tr("%1 tokens").arg(localCount(fix.plan.seqLen));
            break;
        case ScenarioField::MaxModelLen:
            parts << QStringLiteral("%1 %2").arg(optionFlag(change.option),
                                                 localCount(change.value.toInteger()));
            break;
        case ScenarioField::KvCacheMemoryBytes:
            parts << QStringLiteral("%1 %2").arg(optionFlag(change.option),
                                                 localMemory(change.value.toInteger()));
            break;
        case ScenarioField::KvCacheDtype:
            parts << tr("%1 KV cache").arg(change.value.toString().toUpper());
            break;
        case ScenarioField::Quantization: {
            const QString method = shortName(fix.plan.quantization);
            parts << (fix.needsQuantizedCheckpoint ? tr("%1 weights %2 (needs a checkpoint stored as %1)")
                                                   : tr("%1 weights %2"))
                         .arg(method, localMemory(fix.plan.weights.bytesPerGpu));
            break;
        }
        case ScenarioField::TensorParallelSize:
            parts << tr("%1 GPUs (tensor parallel)").arg(change.value.toInteger());
            break;
        case ScenarioField::DataParallelSize:
            parts << tr("%1 data-parallel ranks, experts divided").arg(change.value.toInteger());
            break;
        case ScenarioField::Gpu:
            parts << fix.scenario.gpu.name;
            break;
        default:
            break; // proposals change no other option
        }
    }
    return parts.join(QStringLiteral(", "));
}

QString FitBanner::proposals() const
{
    if (m_fixes.isEmpty() && m_plan.works())
        return {};
    if (m_fixes.isEmpty() && m_fixesPending)
        return tr("Looking for changes that make it fit…");
    if (m_fixes.isEmpty())
        return tr("Nothing kvscope tries makes it fit: a smaller batch or sequence, a narrower "
                  "KV cache, quantized weights, more GPUs or a GPU with more memory.");
    QStringList links;
    for (qsizetype i = 0; i < m_fixes.size(); ++i) {
        const Fix &fix = m_fixes.at(i);
        QString words = fixText(fix);
        if (fix.limit)
            words = fix.kind == FixKind::BatchSize
                        ? tr("batch %1 at %2 tokens")
                              .arg(localCount(fix.scenario.batchSize), localCount(fix.plan.seqLen))
                        : tr("%1 tokens at batch %2")
                              .arg(localCount(fix.plan.seqLen), localCount(fix.scenario.batchSize));
        links << QStringLiteral("<a href=\"fix:%1\">%2</a>").arg(i).arg(words.toHtmlEscaped());
    }
    const QString list = links.join(QStringLiteral(" · "));
    return m_plan.works() ? tr("Room for up to %1.").arg(list) : tr("It would fit with: %1.").arg(list);
}

QString FitBanner::notes() const
{
    if (m_plan.notes.isEmpty())
        return {};
    QString lines;
    for (const QString &note : m_plan.notes)
        lines += QStringLiteral("<br>• ") + note.toHtmlEscaped();
    return QStringLiteral("<span style=\"font-size:small\">%1</span>").arg(lines);
}

QString FitBanner::plainText() const
{
    return QTextDocumentFragment::fromHtml(text()).toPlainText();
}

void FitBanner::chooseFix(int index)
{
    if (index >= 0 && index < m_fixes.size())
        Q_EMIT fixChosen(m_fixes.at(index).scenario);
}

QPalette FitBanner::surroundingPalette() const
{
    // The parent's (an export in the other theme has its own); ours is the tinted one.
    return parentWidget() ? parentWidget()->palette() : QApplication::palette();
}

FitBanner::Look FitBanner::look() const
{
    const QPalette surrounding = surroundingPalette();
    Look l;
    l.accent =
        m_warning ? theme::warningColor(surrounding) : theme::partColor(MemoryPart::KvCache, surrounding);
    l.tint = over(l.accent, surrounding.color(QPalette::Window), TintAlpha);
    l.text = readableOn(surrounding.color(QPalette::WindowText), l.tint);
    l.link = readableOn(surrounding.color(QPalette::Link), l.tint);
    l.icon = m_warning ? QStringLiteral("\u26A0") : QStringLiteral("\u2713"); // ⚠ or ✓
    return l;
}

void FitBanner::restyle()
{
    // The palette alone, no style sheet: a style sheet's polish puts back the palette the widget had
    // when the sheet was first set, and the first verdict's tint stayed for good.
    QPalette pal = surroundingPalette();
    pal.setColor(QPalette::Window, m_look.tint);
    pal.setColor(QPalette::WindowText, m_look.text);
    pal.setColor(QPalette::Link, m_look.link);
    pal.setColor(QPalette::LinkVisited, m_look.link);
    setPalette(pal);
    update();
}

int FitBanner::textWidthFor(int width) const
{
    // QLabelPrivate::sizeForWidth and documentRect: the margin on every side inside the contents
    // margins; no indent, as the banner has no frame.
    const QMargins around = contentsMargins();
    return qMax(width - 2 * margin() - around.left() - around.right(), 0);
}

void FitBanner::layOutText(int textWidth) const
{
    if (m_drawnStale) {
        m_drawn.clear(); // so that the width and the font lay nothing out again
        m_drawn.setDefaultFont(font());
        m_drawn.setTextWidth(textWidth);
        m_drawn.setHtml(text());
        m_drawnStale = false;
    } else if (m_drawn.textWidth() != textWidth) {
        m_drawn.setTextWidth(textWidth);
    }
}

int FitBanner::heightForWidth(int width) const
{
    if (minimumWidth() > 0)
        width = qMax(width, minimumWidth());
    // Layouts ask the same few widths many times a frame: each text's heights are kept.
    const int textWidth = textWidthFor(width);
    auto known = m_heightForTextWidth.constFind(textWidth);
    if (known == m_heightForTextWidth.cend()) {
        layOutText(textWidth);
        known = m_heightForTextWidth.insert(textWidth, qCeil(m_drawn.size().height()));
    }
    const QMargins around = contentsMargins();
    return qMax(*known + 2 * margin() + around.top() + around.bottom(), minimumHeight());
}

QSize FitBanner::minimumSizeHint() const
{
    // As narrow as the widest word (QLabel's minimum), read from the layout the banner has rather
    // than laid out again at no width; one line high.
    ensurePolished();
    layOutText(m_drawnStale || m_drawn.textWidth() < 0 ? textWidthFor(width()) : qRound(m_drawn.textWidth()));
    qreal widestWord = 0;
    for (QTextBlock block = m_drawn.begin(); block.isValid(); block = block.next())
        widestWord = qMax(widestWord, block.layout()->minimumWidth());
    const QMargins around = contentsMargins();
    const QSize extra(2 * margin() + around.left() + around.right(),
                      2 * margin() + around.top() + around.bottom());
    return QSize(qCeil(widestWord), fontMetrics().lineSpacing()) + extra;
}

QSize FitBanner::sizeHint() const
{
    // Its width now and the height the text takes in it: the banner takes the width of its row.
    const int preferredWidth = qMax(width(), minimumSizeHint().width());
    return QSize(preferredWidth, heightForWidth(preferredWidth));
}

bool FitBanner::focusNextPrevChild(bool next)
{
    // Tabbing through the proposals reads QLabel's document: bring it up to date first.
    (void)QLabel::heightForWidth(width());
    return QLabel::focusNextPrevChild(next);
}

void FitBanner::paintEvent(QPaintEvent *event)
{
    if (hasFocus()) {
        // A proposal chosen with the keyboard is shown by QLabel's own drawing.
        keepTextShaping(this);
        QLabel::paintEvent(event);
    } else {
        // QLabel::paintEvent for a rich text, from the drawn copy.
        QPainter painter(this);
        drawFrame(&painter);
        const QRect textRect = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
        layOutText(textRect.width());
        const qreal textHeight = m_drawn.size().height();
        const qreal below =
            alignment() & Qt::AlignVCenter ? qMax((textRect.height() - textHeight) / 2, 0.0) : 0.0;
        const QRect laidOut =
            QRectF(textRect.x(), textRect.y() + below, textRect.width(), textRect.height()).toAlignedRect();
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette = palette();
        if (foregroundRole() != QPalette::Text && isEnabled())
            context.palette.setColor(QPalette::Text, context.palette.color(foregroundRole()));
        painter.translate(laidOut.topLeft());
        painter.setClipRect(laidOut.translated(-laidOut.topLeft()));
        m_drawn.documentLayout()->draw(&painter, context);
    }
    QPainter(this).fillRect(QRect(0, 0, AccentBarWidth, height()), m_look.accent);
}

void FitBanner::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        m_drawnStale = true;
        m_heightForTextWidth.clear();
    }
    if (event->type() == QEvent::LanguageChange)
        render();
    // A new theme (or presentation mode's palette) around us: the tint follows it. Our own
    // setPalette() comes back here too, finds the same look and stops.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        const Look now = look();
        if (!(now == m_look)) {
            m_look = now;
            restyle();
        }
    }
    QLabel::changeEvent(event);
}

} // namespace kvscope
