// SPDX-License-Identifier: MIT
// The step model fitted to one inter-token latency the user measured: one
// scale on both bandwidth efficiencies of the GPU (weight reads and KV reads),
// chosen so that the decode step at the measured concurrency and context
// equals the measurement (docs/methodology.md, "Speed").
#pragma once

#include "core/scenario/scenario.h"

#include <cstdint>

#include <QDate>
#include <QString>

namespace kvscope {

struct MemoryPlan;

/// One inter-token latency measured on the scenario's model and GPU.
struct SpeedMeasurement
{
    double interTokenSeconds = 0; ///< the median gap between two tokens of one sequence
    std::int64_t concurrency = 0; ///< sequences decoding at once
    std::int64_t contextLen = 0;  ///< tokens per sequence at a typical step
    QString origin;               ///< where the figure came from, for messages: an option or a file
};

/// What calibrateSpeed() fitted.
struct SpeedCalibration
{
    SpeedMeasurement measurement;
    std::int64_t scalePpm = 0; ///< the scale in millionths (Scenario::speedCalibration)
    double scale = 1;
    double publicWeightBandwidthEfficiency = 0; ///< the public calibration of the GPU's generation
    double publicKvBandwidthEfficiency = 0;
    double weightBandwidthEfficiency = 0; ///< the public ones times the scale
    double kvBandwidthEfficiency = 0;
    double stepSecondsBefore = 0; ///< the model's step at the measured concurrency and context, uncalibrated
    double stepSecondsAfter = 0;  ///< the same, calibrated: the measurement
};

/// Lowest bandwidth efficiency a calibration may give: a slower measurement
/// says more about the setup (another GPU, a busy server) than about the kernels.
inline constexpr double MinCalibratedEfficiency = 0.05;

/// Fits the scale for `scenario` (its model, GPU, precision and engine) and the
/// measurement. Throws kvscope::Error "ORIGIN: ..." naming the measured value
/// and what the model says when it cannot explain it: faster than the datasheet
/// bandwidth allows, slower than 5 % of it, not a positive finite time, a
/// concurrency or context below 1, a GPU without a bandwidth figure, or an
/// explicit --bandwidth-efficiency (which would override the calibration).
SpeedCalibration calibrateSpeed(const Scenario &scenario, const MemoryPlan &plan,
                                const SpeedMeasurement &measurement);

/// "your measurement: 12.3 ms at concurrency 8, llama-3.1-8b, 2026-12-02".
QString measurementSource(const SpeedMeasurement &measurement, const QString &modelId, const QDate &date);

/// The scenario's field for the calibration: this GPU, this scale, this source.
MeasuredSpeedScale measuredSpeedScale(const SpeedCalibration &calibration, const Scenario &scenario,
                                      const QDate &date);

} // namespace kvscope
