// SPDX-License-Identifier: MIT
#include "ui/quantization/attentionpanel.h"

#include "core/compare/accuracy.h"
#include "core/compare/kvhead.h"
#include "core/library/library.h"
#include "ui/quantization/attentioncharts.h"
#include "ui/style/theme.h"
#include "ui/widgets/flowlayout.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kvscope {

namespace {

const KvCacheDtype Formats[] = {KvCacheDtype::Fp8E4M3, KvCacheDtype::Fp8E5M2};
const quant::QueryModel Queries[] = {quant::QueryModel::KeyOutliers, quant::QueryModel::Diffuse};

/// A labelled control for the flow of controls.
QWidget *labelled(QLabel *label, QWidget *control)
{
    auto *box = new QWidget;
    auto *layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    label->setBuddy(control);
    layout->addWidget(label);
    layout->addWidget(control);
    return box;
}

} // namespace

AttentionPanel::AttentionPanel(QWidget *parent)
    : QWidget(parent),
      m_job(this, [this](JobOutcome<AttentionPicture> outcome) { finish(std::move(outcome)); })
{
    setObjectName(QStringLiteral("attentionPanel"));
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("attentionFormat"));
    for (KvCacheDtype format : Formats)
        m_format->addItem(dtypeName(format));
    m_scale = new QComboBox(this);
    m_scale->setObjectName(QStringLiteral("attentionScale"));
    m_scale->addItem(QString()); // the engine's 1.0; texts in retranslate()
    m_scale->addItem(QString()); // calibrated
    m_queries = new QComboBox(this);
    m_queries->setObjectName(QStringLiteral("attentionQueries"));
    m_queries->addItem(QString());
    m_queries->addItem(QString());
    m_tokens = new QSpinBox(this);
    m_tokens->setObjectName(QStringLiteral("attentionTokens"));
    m_tokens->setRange(2, int(AttentionPictureMaxTokens));
    m_query = new QSpinBox(this);
    m_query->setObjectName(QStringLiteral("attentionQuery"));
    m_query->setRange(1, int(AttentionQueries));
    setChoices(AttentionPictureChoices());

    auto *controls = new FlowLayout;
    for (QWidget *control :
         std::initializer_list<QWidget *>{m_format, m_scale, m_queries, m_tokens, m_query}) {
        auto *label = new QLabel(this);
        m_labels << label;
        controls->addWidget(labelled(label, control));
    }
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("attentionNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures = new QLabel(this);
    m_figures->setObjectName(QStringLiteral("attentionFigures"));
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_weights = new AttentionWeightsChart(this);
    m_weights->setCatalogueName(QStringLiteral("attention"));
    m_logits = new LogitErrorChart(this);
    m_logits->setCatalogueName(QStringLiteral("attention-logits"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_note);
    layout->addWidget(m_figures);
    layout->addWidget(m_weights, 3);
    layout->addWidget(m_logits, 2);

    if (const ModelArch *seed = ModelLibrary::builtin().find(QStringLiteral("llama-3.1-8b")))
        m_model = *seed; // until the window hands over the explorer's model
    for (QComboBox *combo : {m_format, m_scale, m_queries}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToContents); // the texts change with the language
        connect(combo, &QComboBox::currentIndexChanged, this, &AttentionPanel::redraw);
    }
    for (QSpinBox *spin : {m_tokens, m_query})
        connect(spin, &QSpinBox::valueChanged, this, &AttentionPanel::redraw);
    retranslate();
}

void AttentionPanel::setModel(const ModelArch &model, WeightDtype activations, KvCacheDtype scenarioKvCache)
{
    const int format = scenarioKvCache == KvCacheDtype::Fp8E5M2 ? 1
                       : scenarioKvCache == KvCacheDtype::Fp8 || scenarioKvCache == KvCacheDtype::Fp8E4M3
                           ? 0
                           : -1;
    const KvHead head = kvHead(model, activations);
    const KvHead shown = kvHead(m_model, m_activations);
    // Every explorer step (a slider's too) comes here: only another head, or another model's name
    // in the note, draws again.
    const bool samePicture = head.keys == shown.keys && head.values == shown.values &&
                             head.logitScale == shown.logitScale && model.name == m_model.name &&
                             model.id == m_model.id;
    m_model = model;
    m_activations = activations;
    if (format >= 0 && format != m_format->currentIndex())
        m_format->setCurrentIndex(format); // redraws
    else if (!samePicture)
        redraw();
}

AttentionPictureChoices AttentionPanel::choices() const
{
    AttentionPictureChoices c;
    c.format = Formats[std::max(m_format->currentIndex(), 0)];
    c.calibratedScale = m_scale->currentIndex() == 1;
    c.queries = Queries[std::max(m_queries->currentIndex(), 0)];
    c.tokens = m_tokens->value();
    c.query = m_query->value();
    return c;
}

void AttentionPanel::setChoices(const AttentionPictureChoices &c)
{
    m_format->setCurrentIndex(c.format == KvCacheDtype::Fp8E5M2 ? 1 : 0);
    m_scale->setCurrentIndex(c.calibratedScale ? 1 : 0);
    m_queries->setCurrentIndex(c.queries == quant::QueryModel::Diffuse ? 1 : 0);
    m_tokens->setValue(int(c.tokens));
    m_query->setValue(c.query);
}

void AttentionPanel::retranslate()
{
    const QStringList labels{tr("KV cache:"), tr("Scale:"), tr("Query:"), tr("Cached tokens:"),
                             tr("Query number:")};
    for (qsizetype i = 0; i < m_labels.size(); ++i)
        m_labels[i]->setText(labels.at(i));
    m_scale->setItemText(0, tr("engine's 1.0 (no calibration)"));
    m_scale->setItemText(1, tr("calibrated (amax / max)"));
    m_queries->setItemText(0, tr("on the keys' outlier channels"));
    m_queries->setItemText(1, tr("diffuse"));
    m_query->setToolTip(tr("Which of the %1 decode queries Compare averages over").arg(AttentionQueries));
    showFigures();
}

void AttentionPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void AttentionPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_due)
        start();
}

void AttentionPanel::redraw()
{
    m_due = true;
    if (isVisible())
        start();
}

void AttentionPanel::start()
{
    m_due = false;
    const AttentionPictureChoices c = choices();
    // Supersedes the running job: it stops at its next check.
    m_job.start([model = m_model, activations = m_activations, c](const quant::RunControl &control) {
        return attentionPicture(model, activations, c, control);
    });
}

void AttentionPanel::finish(JobOutcome<AttentionPicture> outcome)
{
    if (!outcome.result) {
        m_failure = outcome.failure.message;
        showFigures();
        return;
    }
    m_failure.clear();
    m_picture = std::move(outcome.result);
    m_weights->setPicture(*m_picture);
    m_logits->setPicture(*m_picture);
    showFigures();
    Q_EMIT pictureShown();
}

void AttentionPanel::showFigures()
{
    if (!m_failure.isEmpty()) {
        m_figures->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                               .arg(theme::warningColor(palette()).name(), m_failure.toHtmlEscaped()));
        return;
    }
    if (!m_picture) {
        m_note->clear();
        m_figures->clear();
        return;
    }
    const AttentionPicture &p = *m_picture;
    m_note->setText(tr("%1: one KV head (keys of %2 values with four outlier channels 2.5–10× the rest, as "
                       "Compare simulates them); query %3 of the %4 Compare averages over.")
                        .arg(p.modelName)
                        .arg(p.keyWidth)
                        .arg(p.choices.query)
                        .arg(AttentionQueries));
    m_figures->setText(attentionPictureFigures(p));
}

} // namespace kvscope
