// SPDX-License-Identifier: MIT
#include "ui/explorer/figurespanel.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "ui/widgets/cardcolumns.h"
#include "ui/widgets/figurecard.h"

#include <cmath>

#include <QEvent>
#include <QGridLayout>
#include <QLabel>

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
         {"kvBytesPerToken", "kvCacheBytes", "kvCapacity", "maxConcurrency", "weights", "accuracy"}) {
        auto *card = new FigureCard(QLatin1String(key), this);
        card->captionLabel()->setWordWrap(true); // six captions a row share the page
        m_cards << card;
    }
    // Two figures in one value: at a presentation zoom they take two lines rather than
    // widening every card.
    valueLabel(QStringLiteral("accuracy"))->setWordWrap(true);
    reflow();
}

void FiguresPanel::setCard(const QString &key, const QString &caption, const QString &value,
                           const QString &detail)
{
    if (FigureCard *card = FigureCard::find(m_cards, key))
        card->setTexts(caption, value, detail);
}

QLabel *FiguresPanel::detailLabel(const QString &key) const
{
    FigureCard *card = FigureCard::find(m_cards, key);
    return card ? card->detailLabel() : nullptr;
}

QLabel *FiguresPanel::valueLabel(const QString &key) const
{
    FigureCard *card = FigureCard::find(m_cards, key);
    return card ? card->valueLabel() : nullptr;
}

namespace {

QString bytes(std::int64_t value)
{
    return formatBytes(value, QLocale());
}

QString joined(QStringList parts)
{
    parts.removeAll(QString()); // a part with nothing to say leaves no separator behind
    return parts.join(QStringLiteral(" · "));
}

} // namespace

QString FiguresPanel::elementText(const KvCacheMemory &kv)
{
    // llama.cpp's block types store fractional bits per value (q8_0: 8.5).
    return kv.bytesPerElement > 0 ? tr("%1 B").arg(kv.bytesPerElement)
                                  : tr("%1 bits").arg(formatDecimal(kv.bitsPerElement, 1, QLocale()));
}

QString FiguresPanel::tokenStructure(const MemoryPlan &p)
{
    const KvCacheMemory &kv = p.kv;
    if (kv.mlaLatentRank > 0) {
        QString latent =
            kv.fp8DsMla ? tr("MLA latent (%1 + %2) as fp8_ds_mla").arg(kv.mlaLatentRank).arg(kv.mlaRopeDim)
                        : tr("MLA latent (%1 + %2) × %3")
                              .arg(kv.mlaLatentRank)
                              .arg(kv.mlaRopeDim)
                              .arg(elementText(kv));
        if (kv.indexerKeyBytes > 0)
            latent += QLatin1Char(' ') + tr("+ %1 B indexer key").arg(kv.indexerKeyBytes);
        if (p.tensorParallelSize > 1)
            latent += tr(", replicated on every GPU");
        return latent;
    }
    const QString heads =
        kv.numKvHeads < kv.numQueryHeads
            ? tr("GQA: %1 KV heads for %2 query heads").arg(kv.numKvHeads).arg(kv.numQueryHeads)
            : tr("%1 KV heads").arg(kv.numKvHeads);
    const QString perGpu = kv.headsReplicated ? tr("%1 per GPU, replicated").arg(kv.kvHeadsPerGpu)
                                              : tr("%1 per GPU").arg(kv.kvHeadsPerGpu);
    return tr("%1; %2 × (K %3 + V %4 dims) × %5")
        .arg(heads, perGpu)
        .arg(kv.keyHeadDim)
        .arg(kv.valueHeadDim)
        .arg(elementText(kv));
}

QString FiguresPanel::batchStructure(const MemoryPlan &p)
{
    const KvCacheMemory &kv = p.kv;
    QStringList parts;
    const int layers = kv.cacheLayers + kv.recurrentLayers + kv.sharedLayers;
    if (kv.slidingLayers > 0)
        parts << tr("%1 of %2 layers slide over a %3-token window")
                     .arg(kv.slidingLayers)
                     .arg(layers)
                     .arg(localCount(kv.slidingWindow));
    if (kv.chunkedLayers > 0)
        parts << tr("%1 of %2 layers keep only their %3-token chunk")
                     .arg(kv.chunkedLayers)
                     .arg(layers)
                     .arg(localCount(kv.attentionChunkSize));
    if (kv.sharedLayers > 0)
        parts << tr("%1 of %2 layers reuse earlier layers' caches").arg(kv.sharedLayers).arg(layers);
    if (kv.recurrentLayers > 0)
        parts << tr("%1 of %2 layers are %3: %4 of fixed state per sequence")
                     .arg(kv.recurrentLayers)
                     .arg(layers)
                     .arg(kv.recurrentKind == RecurrentKind::Mamba2 ? tr("Mamba-2") : tr("Gated DeltaNet"))
                     .arg(bytes(kv.stateBytesPerSequence));
    if (p.blockSize > 1)
        parts << tr("whole blocks of %1 tokens").arg(p.blockSize);
    if (kv.swaPoolRatioPpm > 0)
        parts << tr("SGLang keeps the window layers in a pool of their own");
    if (p.kv.sharedPrefixBlocks > 0)
        parts << tr("%1 blocks of shared prefix held once").arg(formatCount(p.kv.sharedPrefixBlocks));
    if (kv.paddingLayers > 0)
        parts << tr("vLLM pads its layer groups with %1 empty slots").arg(kv.paddingLayers);
    if (kv.workspaceBytesPerToken > 0)
        parts << tr("SGLang's FP4 pool adds %1 B a token of dequantization workspace")
                     .arg(localCount(kv.workspaceBytesPerToken));
    return joined(parts);
}

void FiguresPanel::showPlan(const MemoryPlan &p)
{
    m_plan = p;
    QString layersText =
        tr("%1 layers × %2 B").arg(p.kv.cacheLayers).arg(localCount(p.kv.bytesPerTokenPerLayer));
    setCard(QStringLiteral("kvBytesPerToken"), tr("KV cache per token"),
            tr("%1 B").arg(localCount(p.kv.bytesPerToken)),
            joined({bytes(p.kv.bytesPerToken), layersText, tokenStructure(p)}));
    setCard(
        QStringLiteral("kvCacheBytes"), tr("KV cache for the batch"), localMemory(p.kv.cacheBytes),
        joined({tr("%1 × %2 tokens, %3")
                        .arg(localCount(p.rankBatchSize), localCount(p.seqLen), dtypeName(p.kvCacheDtype)) +
                    (p.dataParallelSize > 1
                         ? QStringLiteral(" · ") +
                               tr("this rank's share of %1 sequences").arg(localCount(p.batchSize))
                         : QString()),
                batchStructure(p)}));
    const bool noRoom = p.kv.shortfallBytes > 0;
    QString capacityDetail =
        noRoom ? tr("no room: weights, activations and overhead exceed the budget by %1")
                     .arg(localMemory(p.kv.shortfallBytes))
        : p.kv.swaPoolRatioPpm > 0
            ? tr("full layers' pool; the window layers' pool holds %1 (%2 × it, %3) · %4 available")
                  .arg(localCount(p.kv.swaPoolTokens), formatUtilization(p.kv.swaPoolRatioPpm),
                       sglangFlag(ScenarioField::SwaFullTokensRatio), localMemory(p.kv.availableBytes))
        : p.blockSize == 1
            ? tr("a pool of single tokens · %1 available").arg(localMemory(p.kv.availableBytes))
            : tr("%1 blocks of %2 tokens · %3 available")
                  .arg(localCount(p.kv.numGpuBlocks))
                  .arg(p.blockSize)
                  .arg(localMemory(p.kv.availableBytes));
    if (!noRoom && p.kv.numGroups > 1)
        capacityDetail +=
            QStringLiteral(" · ") +
            tr("each block serves a group of %1 layers (%2 groups)").arg(p.kv.groupSize).arg(p.kv.numGroups);
    if (!noRoom && p.kv.statePoolSlots > 0)
        capacityDetail += QStringLiteral(" · ") +
                          tr("%1 requests' recurrent states in a pool of their own (%2)")
                              .arg(localCount(p.kv.statePoolSlots), localMemory(p.kv.statePoolBytes));
    if (!noRoom && p.kv.cpuCapacityTokens > 0)
        capacityDetail += QStringLiteral(" · ") + tr("%1 tokens more in host memory for reuse (%2)")
                                                      .arg(localCount(p.kv.cpuCapacityTokens),
                                                           optionFlag(ScenarioField::KvOffloadingSize));
    // A hybrid's logged capacity shares the blocks evenly among its groups: say so, and what attention holds.
    const bool hybrid = p.kv.numGroups > 1;
    if (!noRoom && hybrid)
        capacityDetail +=
            QStringLiteral(" · ") + tr("the pool holds %1 attention tokens at this length (%2 × %3)")
                                        .arg(localCount(p.kv.attentionTokensHeld),
                                             localCount(p.largestBatchThatFits), localCount(p.seqLen));
    const bool ranks = p.dataParallelSize > 1;
    if (!noRoom && ranks)
        capacityDetail +=
            QStringLiteral(" · ") + tr("one of %1 data-parallel ranks; the deployment holds %2 tokens")
                                        .arg(p.dataParallelSize)
                                        .arg(localCount(p.deploymentCapacityTokens));
    const QString capacityTitle = hybrid ? tr("vLLM's logged KV capacity") : tr("KV capacity");
    if (!p.engineStarts && !noRoom) {
        // A server that does not start holds nothing: no capacity, as no speed; the reason instead.
        setCard(QStringLiteral("kvCapacity"), capacityTitle, QStringLiteral("—"), p.startFailure);
        setCard(QStringLiteral("maxConcurrency"), tr("Max concurrency"), QStringLiteral("—"), p.startFailure);
    } else {
        setCard(QStringLiteral("kvCapacity"), capacityTitle,
                noRoom ? tr("none") : tr("%1 tokens").arg(localCount(p.kv.capacityTokens)), capacityDetail);
        setCard(QStringLiteral("maxConcurrency"), tr("Max concurrency"),
                noRoom ? tr("none") : formatDecimal(p.kv.maxConcurrency, 2, QLocale()) + QStringLiteral("×"),
                (noRoom ? tr("not one request of %1 tokens (%2)") : tr("requests of %1 tokens (%2)"))
                        .arg(localCount(p.maxModelLen), optionFlag(ScenarioField::MaxModelLen, p.engine)) +
                    (ranks && !noRoom ? QStringLiteral(" · ") +
                                            tr("%1× over the %2 ranks")
                                                .arg(formatDecimal(p.deploymentMaxConcurrency, 2, QLocale()))
                                                .arg(p.dataParallelSize)
                                      : QString()));
    }
    QString storage = p.modelFileType.isEmpty() ? quantizationSummary(p.quantization)
                                                : QStringLiteral("GGUF %1").arg(p.modelFileType);
    if (p.weights.budgetUsesMeasured)
        storage += QStringLiteral(" · ") + tr("measured from checkpoint");
    else if (p.weights.measuredBytesPerGpu > 0)
        storage += QStringLiteral(" · ") +
                   tr("measured from checkpoint: %1").arg(localMemory(p.weights.measuredBytesPerGpu));
    if (!p.weightsFit)
        storage +=
            QStringLiteral(" · ") + tr("%1 over the budget alone").arg(localMemory(p.weightsOverBudgetBytes));
    const QString parameters =
        p.params.active != p.params.total
            ? tr("%1 parameters, %2 active per token")
                  .arg(formatParameterCount(p.params.total), formatParameterCount(p.params.active))
            : tr("%1 parameters").arg(formatParameterCount(p.params.total));
    setCard(QStringLiteral("weights"), tr("Weights per GPU"), localMemory(p.weights.bytesPerGpu),
            tr("%1 · %2 bits/weight · %3")
                .arg(parameters, formatDecimal(p.weights.bitsPerWeight, 2, QLocale()), storage));
    reflow(); // new texts, new widths
}

namespace {

QString decibels(double db)
{
    return FiguresPanel::tr("%1 dB").arg(formatDecimal(db, 2, QLocale()));
}

/// "17.14 dB", "lossless", or "not modelled" (a format the simulator does not model).
QString sqnrText(bool lossless, const SimulatedError *error)
{
    if (lossless)
        return FiguresPanel::tr("lossless");
    return error ? decibels(error->sqnrDb) : FiguresPanel::tr("not modelled");
}

} // namespace

void FiguresPanel::showAccuracy(const Accuracy &a)
{
    const WeightAccuracy &w = a.weights;
    const KvAccuracy &kv = a.kv;
    const QString kvText = kv.lossless                     ? tr("lossless")
                           : kv.combinedSqnrDb.has_value() ? decibels(kv.combinedSqnrDb.value())
                                                           : tr("not modelled");
    QStringList detail{tr("weights: %1").arg(w.format), tr("KV cache: %1").arg(dtypeName(kv.dtype))};
    if (kv.calibratedCombinedSqnrDb.has_value())
        detail << tr("with calibrated scales: %1").arg(decibels(kv.calibratedCombinedSqnrDb.value()));
    // Where the errors matter: the layer's output and attention's.
    if (w.error && w.error->outputSqnrDb && std::isfinite(*w.error->outputSqnrDb))
        detail << tr("layer output: %1").arg(decibels(*w.error->outputSqnrDb));
    if (const std::optional<double> attention = attentionOutputSqnrDb(kv, quant::QueryModel::Diffuse))
        detail << tr("attention output: %1").arg(decibels(*attention));
    detail << tr("simulated error, a proxy for end quality");
    setCard(QStringLiteral("accuracy"), tr("Accuracy (SQNR), weights · KV"),
            sqnrText(w.lossless, w.error ? &*w.error : nullptr) + QStringLiteral(" · ") + kvText,
            detail.join(QStringLiteral(" · ")));
    reflow();
}

void FiguresPanel::showAccuracyPending()
{
    setCard(QStringLiteral("accuracy"), tr("Accuracy (SQNR), weights · KV"), QStringLiteral("…"),
            tr("simulating the quantization of the scenario's formats"));
    reflow();
}

void FiguresPanel::showAccuracyFailure(const QString &message)
{
    setCard(QStringLiteral("accuracy"), tr("Accuracy (SQNR), weights · KV"), QStringLiteral("—"), message);
    reflow();
}

QString FiguresPanel::figuresText() const
{
    QString text;
    for (FigureCard *card : m_cards)
        text += card->text() + QLatin1Char('\n');
    return text.trimmed();
}

void FiguresPanel::reflow()
{
    // Six cards in balanced rows: 6, 3, 2 or 1 per row, as many as their widest text
    // leaves room for (the speed panel's rule; at a presentation zoom on a 1280 x 800
    // projector three a row no longer fit).
    const int widest = widestMinimumWidth({m_cards.cbegin(), m_cards.cend()});
    // Set here, so the grid does not demand three cards' width of the column.
    setMinimumWidth(widest);
    const int columns = cardColumnsThatFit({6, 3, 2}, widest, m_grid->horizontalSpacing(), width());
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (FigureCard *card : std::as_const(m_cards))
        m_grid->removeWidget(card);
    for (int i = 0; i < m_cards.size(); ++i)
        m_grid->addWidget(m_cards.at(i), i / columns, i % columns);
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
    QWidget::changeEvent(event);
}

} // namespace kvscope
