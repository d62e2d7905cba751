// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QList>
#include <QWidget>

class QSlider;
class QSpinBox;

namespace kvscope {

/// A slider over a wide integer range in logarithmic steps, paired with an
/// editable spin box. The slider stops at round values (1-99, then two
/// significant digits, plus every power of two); the spin box takes any value.
/// Arrow keys move one stop, Page Up/Down ten.
class LogSliderBox : public QWidget
{
    Q_OBJECT

public:
    explicit LogSliderBox(QWidget *parent = nullptr);

    void setRange(std::int64_t minimum, std::int64_t maximum);
    std::int64_t minimum() const { return m_stops.value(0, 1); }
    std::int64_t maximum() const { return m_stops.isEmpty() ? 1 : m_stops.last(); }

    std::int64_t value() const { return m_value; }
    /// Shows `value` without emitting valueChanged.
    void setValue(std::int64_t value);

    QSlider *slider() const { return m_slider; }
    QSpinBox *spinBox() const { return m_spinBox; }

    /// Round stops between two values (exposed for tests).
    static QList<std::int64_t> stopsBetween(std::int64_t minimum, std::int64_t maximum);

Q_SIGNALS:
    void valueChanged(std::int64_t value);

private:
    int nearestStop(std::int64_t value) const;
    void takeUserValue(std::int64_t value);

    QSlider *m_slider;
    QSpinBox *m_spinBox;
    QList<std::int64_t> m_stops;
    std::int64_t m_value = 1;
};

} // namespace kvscope
