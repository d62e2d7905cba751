// SPDX-License-Identifier: MIT
#pragma once

#include <QDoubleSpinBox>

namespace kvscope {

/// A spin box whose minimum stands for "the default" (its special value text says which value that
/// is): stepping up from it counts from the default's value, not from the minimum.
class DefaultDoubleSpinBox : public QDoubleSpinBox
{
    Q_OBJECT

public:
    explicit DefaultDoubleSpinBox(QWidget *parent = nullptr);

    /// The value the minimum stands for, where a step up from it starts.
    void setDefaultValue(double value) { m_defaultValue = value; }
    double defaultValue() const { return m_defaultValue; }

    void stepBy(int steps) override;

private:
    double m_defaultValue = 0.0;
};

} // namespace kvscope
