// SPDX-License-Identifier: MIT
#include "ui/widgets/logsliderbox.h"

#include <algorithm>
#include <limits>

#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

namespace kvscope {

LogSliderBox::LogSliderBox(QWidget *parent)
    : QWidget(parent), m_slider(new QSlider(Qt::Horizontal, this)), m_spinBox(new QSpinBox(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spinBox);
    m_slider->setPageStep(10);
    m_spinBox->setGroupSeparatorShown(true);
    m_spinBox->setKeyboardTracking(false);
    m_spinBox->setAccelerated(true);

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        if (position >= 0 && position < m_stops.size())
            takeUserValue(m_stops.at(position));
    });
    connect(m_spinBox, &QSpinBox::valueChanged, this, [this](int value) { takeUserValue(value); });
    setRange(1, 4096);
}

QList<std::int64_t> LogSliderBox::stopsBetween(std::int64_t minimum, std::int64_t maximum)
{
    QList<std::int64_t> stops;
    // 1..99, then 100, 110, ... 990, 1000, 1100, ...: two significant digits.
    for (std::int64_t step = 1, value = 1; value <= maximum;) {
        if (value >= minimum)
            stops << value;
        value += step;
        if (value >= step * 100)
            step *= 10;
    }
    for (std::int64_t power = 1; power > 0 && power <= maximum; power *= 2)
        if (power >= minimum)
            stops << power;
    stops << minimum << maximum;
    std::sort(stops.begin(), stops.end());
    stops.erase(std::unique(stops.begin(), stops.end()), stops.end());
    return stops;
}

void LogSliderBox::setRange(std::int64_t minimum, std::int64_t maximum)
{
    maximum = std::min<std::int64_t>(maximum, std::numeric_limits<int>::max());
    minimum = std::clamp<std::int64_t>(minimum, 1, maximum);
    m_stops = stopsBetween(minimum, maximum);
    const QSignalBlocker sliderBlocker(m_slider);
    const QSignalBlocker spinBlocker(m_spinBox);
    m_slider->setRange(0, int(m_stops.size()) - 1);
    m_spinBox->setRange(int(minimum), int(maximum));
    setValue(std::clamp(m_value, minimum, maximum));
}

void LogSliderBox::setValue(std::int64_t value)
{
    m_value = value;
    const QSignalBlocker sliderBlocker(m_slider);
    const QSignalBlocker spinBlocker(m_spinBox);
    m_slider->setValue(nearestStop(value));
    m_spinBox->setValue(int(std::clamp<std::int64_t>(value, m_spinBox->minimum(), m_spinBox->maximum())));
}

int LogSliderBox::nearestStop(std::int64_t value) const
{
    const auto it = std::lower_bound(m_stops.begin(), m_stops.end(), value);
    if (it == m_stops.end())
        return int(m_stops.size()) - 1;
    if (it != m_stops.begin() && value - *(it - 1) < *it - value)
        return int(it - m_stops.begin()) - 1;
    return int(it - m_stops.begin());
}

void LogSliderBox::takeUserValue(std::int64_t value)
{
    if (value == m_value)
        return;
    setValue(value);
    Q_EMIT valueChanged(value);
}

} // namespace kvscope
