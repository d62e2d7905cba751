// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/scheme.h"
#include "ui/state/quantsettings.h"

#include <QGroupBox>
#include <QList>

class QCheckBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace kvscope {

/// Which schemes to compare and their options: the int group size (a
/// slider over powers of two and "row"), the histogram bins, and FP8's
/// saturation and fixed unit scale.
class SchemePicker : public QGroupBox
{
    Q_OBJECT

public:
    explicit SchemePicker(QWidget *parent = nullptr);

    /// The checked schemes with the current options, in display order.
    QList<quant::Scheme> schemes() const;
    int bins() const;
    int groupSize() const;

    /// The state, for saving; setChoice() takes it back (unknown names and
    /// group sizes are ignored).
    SchemeChoice choice() const;
    void setChoice(const SchemeChoice &choice);

Q_SIGNALS:
    void changed();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void showGroupSize();

    struct Choice
    {
        QString name;
        QCheckBox *box;
    };
    QList<Choice> m_choices;
    QSlider *m_groupSize = nullptr;
    QLabel *m_groupLabel = nullptr;
    QLabel *m_groupTitle = nullptr;
    QSpinBox *m_bins = nullptr;
    QLabel *m_binsTitle = nullptr;
    QCheckBox *m_saturate = nullptr;
    QCheckBox *m_unitScale = nullptr;
};

} // namespace kvscope
