// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/accuracy.h"
#include "core/plan/memoryplan.h"

#include <QList>
#include <QWidget>

class QGridLayout;
class QLabel;

namespace kvscope {

class FigureCard;

/// The headline figures of a plan as large, selectable cards: KV bytes per
/// token, KV cache for the batch, KV capacity, maximum concurrency, weights
/// and bits per weight, parameters. Cards reflow with the width.
class FiguresPanel : public QWidget
{
    Q_OBJECT

public:
    explicit FiguresPanel(QWidget *parent = nullptr);

    void showPlan(const MemoryPlan &plan);
    /// The accuracy card: the simulated error of the weights and of the KV cache.
    void showAccuracy(const Accuracy &accuracy);
    /// The accuracy card while its simulation runs, or why it could not run.
    void showAccuracyPending();
    void showAccuracyFailure(const QString &message);

    /// The cards as "caption: value (detail)" lines, for the clipboard.
    QString figuresText() const;
    /// The value label of a card by its key ("kvBytesPerToken", "kvCapacity", ...).
    QLabel *valueLabel(const QString &key) const;
    /// The detail line under a card's value.
    QLabel *detailLabel(const QString &key) const;

    /// Short, translated description of a weight quantization.
    static QString quantizationSummary(const QuantizationSpec &spec);
    /// What one token's cache is made of: "GQA: 8 KV heads for 32 query heads; 8 per GPU × (K 128
    /// + V 128 dims) × 2 B", "MLA latent (512 + 64) × 2 B, replicated on every GPU".
    static QString tokenStructure(const MemoryPlan &plan);
    /// What shapes the batch's cache: windows, chunks, shared layers, recurrent state, blocks.
    static QString batchStructure(const MemoryPlan &plan);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    static QString elementText(const KvCacheMemory &kv);

    void setCard(const QString &key, const QString &caption, const QString &value, const QString &detail);
    void reflow();

    QGridLayout *m_grid;
    QList<FigureCard *> m_cards;
    MemoryPlan m_plan;
    int m_columns = 0;
};

} // namespace kvscope
