// SPDX-License-Identifier: MIT
#include "ui/explorer/fitbanner.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "ui/style/theme.h"

#include <QApplication>
#include <QEvent>
#include <QTextDocumentFragment>

namespace kvscope {

FitBanner::FitBanner(QWidget *parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("fitBanner"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextBrowserInteraction);
    setOpenExternalLinks(false);
    setMargin(8);
    setAutoFillBackground(true);
    theme::setScaledFont(this, 1.1);
    connect(this, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(QLatin1String("fix:")))
            chooseFix(link.mid(4).toInt());
    });
}

void FitBanner::showPlan(const MemoryPlan &plan, const QList<Fix> &fixes)
{
    m_plan = plan;
    m_fixes = fixes;
    m_warning = !plan.works();
    QString text = verdict();
    const QString offered = proposals();
    if (!offered.isEmpty())
        text += QStringLiteral("<br>") + offered;
    text += notes();
    setText(text);
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
        return tr("<b>The batch fits, but vLLM would refuse to start</b> (see the note below). %1 headroom "
                  "of "
                  "the %2 budget per GPU.")
            .arg(localMemory(p.headroomBytes), localMemory(p.budgetBytes));
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
        case ScenarioField::SeqLen:
            parts << tr("%1 tokens").arg(localCount(change.value.toInteger()));
            break;
        case ScenarioField::MaxModelLen:
            parts << QStringLiteral("%1 %2").arg(optionFlag(change.option),
                                                 localCount(change.value.toInteger()));
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
    if (m_fixes.isEmpty())
        return m_plan.works()
                   ? QString()
                   : tr("Nothing kvscope tries makes it fit: a smaller batch or sequence, a narrower "
                        "KV cache, quantized weights, more GPUs or a GPU with more memory.");
    QStringList links;
    for (qsizetype i = 0; i < m_fixes.size(); ++i) {
        const Fix &fix = m_fixes.at(i);
        QString words = fixText(fix);
        if (fix.limit)
            words = fix.kind == FixKind::BatchSize
                        ? tr("batch %1 at %2 tokens")
                              .arg(localCount(fix.scenario.batchSize), localCount(fix.scenario.seqLen))
                        : tr("%1 tokens at batch %2")
                              .arg(localCount(fix.scenario.seqLen), localCount(fix.scenario.batchSize));
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

void FitBanner::restyle()
{
    // Decide colours from the surrounding palette; ours has the tinted background.
    const QPalette surrounding = parentWidget() ? parentWidget()->palette() : QApplication::palette();
    QPalette pal = surrounding;
    const QColor accent = m_warning ? theme::warningColor(pal) : theme::partColor(MemoryPart::KvCache, pal);
    QColor background = accent;
    background.setAlpha(40);
    pal.setColor(QPalette::Window, background);
    setPalette(pal);
    // The text colour too: a style sheet takes unset colours from the application's palette, which
    // an export in the other theme does not share.
    setStyleSheet(QStringLiteral("QLabel#fitBanner { border-left: 5px solid %1; color: %2; }")
                      .arg(accent.name(), surrounding.color(QPalette::WindowText).name()));
}

void FitBanner::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        showPlan(m_plan, m_fixes);
    QLabel::changeEvent(event);
}

} // namespace kvscope
