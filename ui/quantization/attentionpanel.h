// SPDX-License-Identifier: MIT
// The Quantization view's attention tab: one decode query of the explorer's
// model attending to a short context, through a 16-bit and an FP8 KV cache
// side by side (core: attentionPicture()), with the logit error of each key
// and the output error — the picture behind Compare's attention figures.
// The picture is drawn off the GUI thread; a newer choice cancels the run
// before it, and a hidden tab draws nothing until it is shown.
#pragma once

#include "core/compare/attentionpicture.h"
#include "ui/state/backgroundjob.h"

#include <optional>

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace kvscope {

class AttentionWeightsChart;
class LogitErrorChart;

class AttentionPanel : public QWidget
{
    Q_OBJECT

public:
    explicit AttentionPanel(QWidget *parent = nullptr);

    /// The model whose KV head is drawn, its activations' dtype, and the
    /// scenario's KV cache dtype (an FP8 one becomes the tab's format).
    void setModel(const ModelArch &model, WeightDtype activations, KvCacheDtype scenarioKvCache);
    AttentionPictureChoices choices() const;
    void setChoices(const AttentionPictureChoices &choices);
    /// The picture on screen, if any.
    const std::optional<AttentionPicture> &picture() const { return m_picture; }
    /// True while a picture is being drawn, or due while the tab is shown.
    bool isBusy() const { return (m_due && isVisible()) || m_job.isRunning(); }

Q_SIGNALS:
    void pictureShown();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void retranslate();
    /// Draws the picture for the current choices now, or when the tab is next shown.
    void redraw();
    void start();
    void finish(JobOutcome<AttentionPicture> outcome);
    void showFigures();

    QComboBox *m_format = nullptr;
    QComboBox *m_scale = nullptr;
    QComboBox *m_queries = nullptr;
    QSpinBox *m_tokens = nullptr;
    QSpinBox *m_query = nullptr;
    QList<QLabel *> m_labels; ///< the controls' labels, in the controls' order
    QLabel *m_note = nullptr;
    QLabel *m_figures = nullptr;
    AttentionWeightsChart *m_weights = nullptr;
    LogitErrorChart *m_logits = nullptr;

    ModelArch m_model;
    WeightDtype m_activations = WeightDtype::BFloat16;
    bool m_due = true;
    QString m_failure;
    BackgroundJob<AttentionPicture> m_job;
    std::optional<AttentionPicture> m_picture;
};

} // namespace kvscope
