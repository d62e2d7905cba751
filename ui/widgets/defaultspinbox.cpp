// SPDX-License-Identifier: MIT
#include "ui/widgets/defaultspinbox.h"

#include <algorithm>

namespace kvscope {

DefaultDoubleSpinBox::DefaultDoubleSpinBox(QWidget *parent) : QDoubleSpinBox(parent) {}

void DefaultDoubleSpinBox::stepBy(int steps)
{
    if (value() > minimum() || steps <= 0 || m_defaultValue <= minimum()) {
        QDoubleSpinBox::stepBy(steps);
        return;
    }
    // Up from "default (0.92)" to 0.93: the steps count from the default, not from the minimum.
    setValue(std::min(maximum(), m_defaultValue + singleStep() * steps));
}

} // namespace kvscope
