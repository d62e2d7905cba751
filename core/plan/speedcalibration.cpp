// SPDX-License-Identifier: MIT
#include "core/plan/speedcalibration.h"

#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/plan/memoryplan.h"
#include "core/plan/speed.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QLocale>

namespace kvscope {

/// The translation context of the refusals (lupdate reads CalibrationText::tr): the
/// calibration dialog shows them in the window's language.
class CalibrationText
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::CalibrationText)
};

namespace {

QString milliseconds(double seconds)
{
    return QLocale::c().toString(seconds * 1e3, 'f', seconds < 0.01 ? 2 : 1);
}

QString percent(double share)
{
    return QString::number(std::round(share * 100));
}

/// The scenario with its GPU's public efficiencies times `scalePpm` (0: as published).
Scenario scaled(const Scenario &scenario, std::int64_t scalePpm)
{
    Scenario s = scenario;
    s.speedCalibration = {s.gpu.id, scalePpm, QStringLiteral("the calibration being fitted")};
    return s;
}

/// The scenario's step model at the measurement: its concurrency, its context.
class MeasuredStep
{
public:
    MeasuredStep(const Scenario &scenario, const MemoryPlan &plan, const SpeedMeasurement &measurement)
        : m_scenario(scenario), m_plan(plan), m_concurrency(measurement.concurrency),
          m_origin(measurement.origin)
    {
        m_plan.seqLen = measurement.contextLen;
    }

    SpeedPlan publicFigures() const
    {
        SpeedPlan speed;
        const SpeedModel model(scaled(m_scenario, 0), m_plan);
        model.describe(speed);
        speed.available = model.available();
        return speed;
    }

    double seconds(std::int64_t scalePpm) const
    {
        try {
            return SpeedModel(scaled(m_scenario, scalePpm), m_plan).decode(m_concurrency).seconds;
        } catch (const Error &error) { // bytes past 2^63 at this concurrency and context
            failAt(m_origin, error.message());
        }
    }

private:
    Scenario m_scenario;
    MemoryPlan m_plan;
    std::int64_t m_concurrency;
    QString m_origin;
};

/// The scaled efficiency, computed as SpeedModel computes it.
double scaledEfficiency(double efficiency, std::int64_t scalePpm)
{
    return efficiency * (double(scalePpm) / 1e6);
}

void checkMeasurement(const Scenario &s, const SpeedMeasurement &m)
{
    if (!std::isfinite(m.interTokenSeconds) || m.interTokenSeconds <= 0)
        failAt(m.origin,
               CalibrationText::tr("an inter-token latency must be a positive number of milliseconds, got %1")
                   .arg(m.interTokenSeconds * 1e3));
    if (m.concurrency < 1)
        failAt(m.origin,
               CalibrationText::tr("the concurrency must be at least 1, got %1").arg(m.concurrency));
    if (m.contextLen < 1)
        failAt(m.origin,
               CalibrationText::tr("the context must be at least 1 token, got %1").arg(m.contextLen));
    if (!(s.gpu.bandwidthGBs > 0))
        failAt(m.origin, CalibrationText::tr(
                             "%1 lists no memory bandwidth, so no measurement can calibrate its speed; give "
                             "the GPU's bandwidth")
                             .arg(s.gpu.name));
    if (s.bandwidthEfficiencyPpm > 0)
        failAt(m.origin,
               CalibrationText::tr("%1 %2 is given and overrides any calibration; leave it out to calibrate")
                   .arg(optionFlag(ScenarioField::BandwidthEfficiency),
                        formatUtilization(s.bandwidthEfficiencyPpm)));
}

} // namespace

SpeedCalibration calibrateSpeed(const Scenario &scenario, const MemoryPlan &plan, const SpeedMeasurement &m)
{
    checkMeasurement(scenario, m);
    const MeasuredStep step(scenario, plan, m);
    const SpeedPlan published = step.publicFigures();
    if (!published.available)
        failAt(m.origin, published.notes.join(QStringLiteral("; ")));
    const double highest = std::max(published.bandwidthEfficiency, published.kvBandwidthEfficiency);
    const double lowest = std::min(published.bandwidthEfficiency, published.kvBandwidthEfficiency);

    // The scales at the datasheet bandwidth and at 5 % of it, in whole millionths.
    std::int64_t fastest = std::int64_t(std::floor(1e6 / highest));
    while (scaledEfficiency(highest, fastest) > 1)
        --fastest;
    std::int64_t slowest = std::int64_t(std::ceil(MinCalibratedEfficiency * 1e6 / lowest));
    while (scaledEfficiency(lowest, slowest) < MinCalibratedEfficiency)
        ++slowest;

    const double measured = m.interTokenSeconds;
    const QString at =
        CalibrationText::tr("%1 ms at concurrency %2").arg(milliseconds(measured)).arg(m.concurrency);
    const QString bandwidth =
        QLocale(QLocale::English).toString(std::round(scenario.gpu.bandwidthGBs), 'f', 0);
    const double fastestStep = step.seconds(fastest);
    if (measured < fastestStep)
        failAt(m.origin, CalibrationText::tr(
                             "%1 is faster than %2's %3 GB/s allows for this model (%4 ms at 100 % of the "
                             "bandwidth); check the GPU, precision and concurrency")
                             .arg(at, scenario.gpu.name, bandwidth, milliseconds(fastestStep)));
    const double slowestStep = step.seconds(slowest);
    if (measured > slowestStep)
        failAt(m.origin, CalibrationText::tr(
                             "%1 is slower than this model explains on %2 (%3 ms at %4 % of its %5 GB/s); "
                             "check the GPU, precision, concurrency and context")
                             .arg(at, scenario.gpu.name, milliseconds(slowestStep),
                                  percent(MinCalibratedEfficiency), bandwidth));

    // The step shrinks as the scale grows (its memory terms do; compute only
    // adds what the reads do not hide): bisection between the two bounds.
    std::int64_t slow = slowest, fast = fastest; // step(slow) >= measured >= step(fast)
    while (fast - slow > 1) {
        const std::int64_t middle = slow + (fast - slow) / 2;
        (step.seconds(middle) > measured ? slow : fast) = middle;
    }
    const bool slowIsCloser = step.seconds(slow) - measured < measured - step.seconds(fast);

    SpeedCalibration c;
    c.measurement = m;
    c.scalePpm = slowIsCloser ? slow : fast;
    c.scale = double(c.scalePpm) / 1e6;
    c.publicWeightBandwidthEfficiency = published.bandwidthEfficiency;
    c.publicKvBandwidthEfficiency = published.kvBandwidthEfficiency;
    c.weightBandwidthEfficiency = scaledEfficiency(published.bandwidthEfficiency, c.scalePpm);
    c.kvBandwidthEfficiency = scaledEfficiency(published.kvBandwidthEfficiency, c.scalePpm);
    c.stepSecondsBefore = step.seconds(0);
    c.stepSecondsAfter = step.seconds(c.scalePpm);
    return c;
}

QString measurementSource(const SpeedMeasurement &m, const QString &modelId, const QDate &date)
{
    return QStringLiteral("your measurement: %1 ms at concurrency %2, %3, %4")
        .arg(milliseconds(m.interTokenSeconds))
        .arg(m.concurrency)
        .arg(modelId, date.toString(Qt::ISODate));
}

MeasuredSpeedScale measuredSpeedScale(const SpeedCalibration &c, const Scenario &s, const QDate &date)
{
    return {s.gpu.id, c.scalePpm, measurementSource(c.measurement, s.model.id, date)};
}

} // namespace kvscope
