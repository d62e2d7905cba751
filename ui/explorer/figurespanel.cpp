// SPDX-License-Identifier: MIT
#include "explorer/figurespanel.h"

#include "common/units.h"
#include "theme.h"

#include <algorithm>

#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace kvscope {

QString FiguresPanel::quantizationSummary(const QuantizationSpec &spec)
{
    switch (spec.method) {
    case QuantMethod::None:
        return tr("unquantized");
    case QuantMethod::Fp8:
        return spec.blockRows > 0 ? tr("FP8, %1×%2 block scales").arg(spec.blockRows).arg(spec.blockCols)
                                  : tr("FP8, per-tensor scale");
    case QuantMethod::Int8:
        return tr("INT8, per-channel scales");
    case QuantMethod::Awq:
        return tr("AWQ INT%1, group %2").arg(spec.bits).arg(spec.groupSize);
    case QuantMethod::Gptq:
        return tr("GPTQ INT%1, group %2").arg(spec.bits).arg(spec.groupSize);
    case QuantMethod::BitsAndBytesNf4:
        return tr("NF4, blocks of 64");
    case QuantMethod::Mxfp4:
        return tr("MXFP4 experts, blocks of 32");
    case QuantMethod::CompressedTensors:
        return spec.scheme.isEmpty() ? tr("compressed-tensors")
                                     : tr("compressed-tensors %1").arg(spec.scheme);
    }
    return {};
}

FiguresPanel::FiguresPanel(QWidget *parent) : QWidget(parent), m_grid(new QGridLayout(this))
{
    setObjectName(QStringLiteral("figuresPanel"));
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    for (const char *key :
         {"kvBytesPerToken", "kvCacheBytes", "kvCapacity", "maxConcurrency", "weights", "parameters"})
        addCard(QLatin1String(key));
    reflow();
}

void FiguresPanel::addCard(const QString &key)
{
    Card card;
    card.key = key;
    auto *frame = new QFrame(this);
    frame->setObjectName(key + QStringLiteral("Card"));
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setAutoFillBackground(true);
    frame->setBackgroundRole(QPalette::Base);
    auto *layout = new QVBoxLayout(frame);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(0);
    card.frame = frame;
    card.caption = new QLabel(frame);
    card.value = new QLabel(frame);
    card.detail = new QLabel(frame);
    card.value->setObjectName(key);
    QFont captionFont = card.caption->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 0.9);
    card.caption->setFont(captionFont);
    QFont valueFont = card.value->font();
    valueFont.setPointSizeF(valueFont.pointSizeF() * 1.6);
    valueFont.setBold(true);
    card.value->setFont(valueFont);
    card.detail->setWordWrap(true);
    card.detail->setFont(captionFont);
    for (QLabel *label : {card.caption, card.value, card.detail}) {
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(label);
    }
    m_cards.append(card);
    applyPalette();
}

void FiguresPanel::applyPalette()
{
    for (const Card &card : m_cards) {
        for (QLabel *label : {card.caption, card.detail}) {
            QPalette pal = palette();
            pal.setColor(QPalette::WindowText, theme::mutedTextColor(palette()));
            label->setPalette(pal);
        }
    }
}

void FiguresPanel::setCard(const QString &key, const QString &caption, const QString &value,
                           const QString &detail)
{
    for (Card &card : m_cards) {
        if (card.key == key) {
            card.caption->setText(caption);
            card.value->setText(value);
            card.detail->setText(detail);
            card.frame->setToolTip(detail);
        }
    }
}

QLabel *FiguresPanel::valueLabel(const QString &key) const
{
    for (const Card &card : m_cards)
        if (card.key == key)
            return card.value;
    return nullptr;
}

void FiguresPanel::showPlan(const MemoryPlan &p)
{
    m_plan = p;
    QString layersText =
        tr("%1 layers × %2 B").arg(p.kv.cacheLayers).arg(formatCount(p.kv.bytesPerTokenPerLayer));
    if (p.kv.recurrentLayers > 0)
        layersText = tr("%1 attention layers × %2 B/token; %3 %4 layers × %5 state per sequence")
                         .arg(p.kv.cacheLayers)
                         .arg(formatCount(p.kv.bytesPerTokenPerLayer))
                         .arg(p.kv.recurrentLayers)
                         .arg(p.kv.recurrentKind == RecurrentKind::Mamba2 ? tr("Mamba-2") : tr("DeltaNet"))
                         .arg(formatBytes(p.kv.stateBytesPerLayer));
    if (p.kv.chunkedLayers > 0)
        layersText += tr("; %1 of them chunked").arg(p.kv.chunkedLayers);
    if (p.kv.sharedLayers > 0)
        layersText += tr("; %1 layers share earlier caches").arg(p.kv.sharedLayers);
    setCard(QStringLiteral("kvBytesPerToken"), tr("KV cache per token"),
            tr("%1 B").arg(formatCount(p.kv.bytesPerToken)),
            tr("%1 · %2 · %3 KV head(s)/GPU%4")
                .arg(formatBytes(p.kv.bytesPerToken), layersText)
                .arg(p.kv.kvHeadsPerGpu)
                .arg(p.kv.headsReplicated ? tr(", replicated") : QString()));
    setCard(QStringLiteral("kvCacheBytes"), tr("KV cache for the batch"), formatGiB(p.kv.cacheBytes),
            tr("%1 × %2 tokens, %3")
                .arg(formatCount(p.batchSize), formatCount(p.seqLen), dtypeName(p.kvCacheDtype)));
    setCard(QStringLiteral("kvCapacity"), tr("KV capacity"),
            tr("%1 tokens").arg(formatCount(p.kv.capacityTokens)),
            tr("%1 blocks of %2 tokens · %3 available")
                .arg(formatCount(p.kv.numGpuBlocks))
                .arg(p.blockSize)
                .arg(formatGiB(p.kv.availableBytes)));
    setCard(QStringLiteral("maxConcurrency"), tr("Max concurrency"),
            QString::number(p.kv.maxConcurrency, 'f', 2) + QStringLiteral("×"),
            tr("requests of %1 tokens (--max-model-len)").arg(formatCount(p.maxModelLen)));
    QString storage = p.modelFileType.isEmpty() ? quantizationSummary(p.quantization)
                                                : QStringLiteral("GGUF %1").arg(p.modelFileType);
    if (p.weights.budgetUsesMeasured)
        storage += QStringLiteral(" · ") + tr("measured from checkpoint");
    else if (p.weights.measuredBytesPerGpu > 0)
        storage += QStringLiteral(" · ") +
                   tr("measured from checkpoint: %1").arg(formatGiB(p.weights.measuredBytesPerGpu));
    setCard(QStringLiteral("weights"), tr("Weights per GPU"), formatGiB(p.weights.bytesPerGpu),
            tr("%1 bits/weight · %2").arg(QString::number(p.weights.bitsPerWeight, 'f', 2), storage));
    setCard(QStringLiteral("parameters"), tr("Parameters"), formatParameterCount(p.params.total),
            p.params.active != p.params.total
                ? tr("%1 total · %2 active per token")
                      .arg(formatCount(p.params.total), formatCount(p.params.active))
                : tr("%1 total").arg(formatCount(p.params.total)));
}

QString FiguresPanel::figuresText() const
{
    QString text = QStringLiteral("%1 on %2 x %3\n")
                       .arg(m_plan.modelName, m_plan.gpuName)
                       .arg(m_plan.tensorParallelSize);
    for (const Card &card : m_cards)
        text += QStringLiteral("%1: %2 (%3)\n")
                    .arg(card.caption->text(), card.value->text(), card.detail->text());
    return text + unitsConvention() + QLatin1Char('\n');
}

void FiguresPanel::reflow()
{
    // Six cards in balanced rows: 6, 3 or 2 per row, each at least 200 px wide.
    int columns = 2;
    for (int candidate : {6, 3})
        if (width() / candidate >= 200) {
            columns = candidate;
            break;
        }
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (const Card &card : m_cards)
        m_grid->removeWidget(card.frame);
    for (int i = 0; i < m_cards.size(); ++i)
        m_grid->addWidget(m_cards.at(i).frame, i / columns, i % columns);
    for (int c = 0; c < 6; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
}

void FiguresPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    reflow();
}

void FiguresPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        showPlan(m_plan);
    else if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QWidget::changeEvent(event);
}

} // namespace kvscope
