// SPDX-License-Identifier: MIT
#include "ui/quantization/schemepicker.h"

#include "core/quantization/histogram.h"

#include <QCheckBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kvscope {

SchemePicker::SchemePicker(QWidget *parent) : QGroupBox(parent)
{
    const SchemeChoice defaults;
    auto *grid = new QGridLayout;
    for (const quant::SchemeEntry &e : quant::schemeEntries()) {
        const QString name = QLatin1String(e.name);
        // Format names and the core's descriptions are not translated.
        auto *box = new QCheckBox(e.label ? QLatin1String(e.label) : name, this);
        box->setObjectName(QStringLiteral("scheme_") + name);
        box->setChecked(defaults.names.contains(name));
        box->setToolTip(quant::parseScheme(name).description());
        const int index = int(m_choices.size());
        grid->addWidget(box, index / 2, index % 2);
        m_choices << Choice{name, box};
        connect(box, &QCheckBox::toggled, this, &SchemePicker::changed);
    }

    m_groupSize = new QSlider(Qt::Horizontal, this);
    m_groupSize->setObjectName(QStringLiteral("groupSize"));
    m_groupSize->setRange(0, int(quant::groupSizeStops().size()) - 1);
    m_groupSize->setValue(int(quant::groupSizeStops().indexOf(defaults.groupSize)));
    m_groupSize->setPageStep(1);
    m_groupSize->setTickPosition(QSlider::TicksBelow);
    m_groupLabel = new QLabel(this);
    m_groupLabel->setObjectName(QStringLiteral("groupSizeLabel"));
    m_groupLabel->setMinimumWidth(m_groupLabel->fontMetrics().horizontalAdvance(QStringLiteral("0000")));
    m_groupTitle = new QLabel(this);
    m_bins = new QSpinBox(this);
    m_bins->setObjectName(QStringLiteral("bins"));
    m_bins->setRange(quant::MinHistogramBins, quant::MaxHistogramBins);
    m_bins->setValue(defaults.bins);
    m_binsTitle = new QLabel(this);
    m_saturate = new QCheckBox(this);
    m_saturate->setObjectName(QStringLiteral("fp8Saturate"));
    m_saturate->setChecked(defaults.saturate);
    m_unitScale = new QCheckBox(this);
    m_unitScale->setObjectName(QStringLiteral("fp8UnitScale"));
    m_unitScale->setChecked(defaults.unitScale);

    auto *groupRow = new QHBoxLayout;
    groupRow->addWidget(m_groupSize, 1);
    groupRow->addWidget(m_groupLabel);
    auto *form = new QFormLayout;
    form->addRow(m_groupTitle, groupRow);
    form->addRow(m_binsTitle, m_bins);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(grid);
    layout->addLayout(form);
    layout->addWidget(m_saturate);
    layout->addWidget(m_unitScale);
    retranslate();

    connect(m_groupSize, &QSlider::valueChanged, this, [this] {
        showGroupSize();
        Q_EMIT changed();
    });
    connect(m_bins, &QSpinBox::valueChanged, this, &SchemePicker::changed);
    connect(m_saturate, &QCheckBox::toggled, this, &SchemePicker::changed);
    connect(m_unitScale, &QCheckBox::toggled, this, &SchemePicker::changed);
}

void SchemePicker::retranslate()
{
    setTitle(tr("Schemes"));
    m_groupTitle->setText(tr("INT group"));
    m_binsTitle->setText(tr("Bins"));
    m_saturate->setText(tr("FP8 saturates (vLLM)"));
    m_saturate->setToolTip(tr("Off: overflow becomes NaN (E4M3) or ±inf (E5M2), as ml_dtypes converts"));
    m_unitScale->setText(tr("FP8 scale fixed at 1.0"));
    m_unitScale->setToolTip(
        tr("vLLM's default KV-cache scale: small values fall into subnormals or to zero"));
    showGroupSize();
}

void SchemePicker::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QGroupBox::changeEvent(event);
}

void SchemePicker::showGroupSize()
{
    const int g = groupSize();
    m_groupLabel->setText(g == quant::WholeRow ? tr("row") : QString::number(g));
}

int SchemePicker::groupSize() const
{
    return quant::groupSizeStops().value(m_groupSize->value());
}

int SchemePicker::bins() const
{
    return m_bins->value();
}

QList<quant::Scheme> SchemePicker::schemes() const
{
    quant::SchemeDefaults defaults;
    defaults.groupSize = groupSize();
    defaults.saturate = m_saturate->isChecked();
    defaults.unitScale = m_unitScale->isChecked();
    QList<quant::Scheme> list;
    for (const Choice &c : m_choices)
        if (c.box->isChecked())
            list << quant::parseScheme(c.name, defaults);
    return list;
}

SchemeChoice SchemePicker::choice() const
{
    SchemeChoice c;
    c.names.clear();
    for (const Choice &entry : m_choices)
        if (entry.box->isChecked())
            c.names << entry.name;
    c.groupSize = groupSize();
    c.bins = bins();
    c.saturate = m_saturate->isChecked();
    c.unitScale = m_unitScale->isChecked();
    return c;
}

void SchemePicker::setChoice(const SchemeChoice &c)
{
    for (const Choice &entry : m_choices)
        entry.box->setChecked(c.names.contains(entry.name));
    if (const qsizetype stop = quant::groupSizeStops().indexOf(c.groupSize); stop >= 0)
        m_groupSize->setValue(int(stop));
    m_bins->setValue(c.bins);
    m_saturate->setChecked(c.saturate);
    m_unitScale->setChecked(c.unitScale);
}

} // namespace kvscope
