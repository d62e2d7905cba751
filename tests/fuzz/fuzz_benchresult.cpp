// SPDX-License-Identifier: MIT
// A `vllm bench serve --save-result` file -> the result reader -> the speed
// calibration of a fixed scenario (Llama-3.1-8B on an H100, calc's
// --bench-result path) -> the calibrated speed plan. What an accepted result must
// give: a concurrency and context of at least 1, a positive finite latency;
// a calibration keeps both efficiencies between MinCalibratedEfficiency and
// the datasheet, its step is the measurement, and the calibrated scenario's
// speed is planned with it.
#include "core/common/error.h"
#include "core/formats/benchresult.h"
#include "core/plan/planner.h"
#include "core/plan/speed.h"
#include "core/plan/speedcalibration.h"
#include "core/scenario/scenario.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

#include <QByteArray>
#include <QDate>

namespace kvscope::fuzz {

namespace {

const Scenario &calibratedScenario()
{
    static const Scenario scenario =
        scenarioFromValues({{QStringLiteral("model"), QStringLiteral("llama-3.1-8b")},
                            {QStringLiteral("gpu"), QStringLiteral("h100-sxm")}},
                           presetResolvers());
    return scenario;
}

bool withinEfficiencyBounds(double efficiency)
{
    // scaledEfficiency rounds through millionths of the scale: a hair of slack.
    return efficiency >= MinCalibratedEfficiency * (1 - 1e-9) && efficiency <= 1 + 1e-9;
}

} // namespace

void benchresult(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    BenchResult result;
    try {
        result = parseBenchResult(bytes, QStringLiteral("fuzz.json"));
    } catch (const Error &) {
        return;
    }
    if (result.concurrency < 1 || result.contextLen < 1 || !std::isfinite(result.medianItlMs) ||
        !(result.medianItlMs > 0))
        violated(
            "an accepted bench result has a concurrency and context of at least 1 and a positive latency",
            QStringLiteral("concurrency %1, context %2, median ITL %3 ms")
                .arg(result.concurrency)
                .arg(result.contextLen)
                .arg(result.medianItlMs));

    Scenario scenario = calibratedScenario();
    const SpeedMeasurement measured{result.medianItlMs / 1e3, result.concurrency, result.contextLen,
                                    result.origin};
    SpeedCalibration calibration;
    try {
        calibration = calibrateSpeed(scenario, planMemory(scenario), measured);
    } catch (const Error &) {
        return;
    }
    if (!withinEfficiencyBounds(calibration.weightBandwidthEfficiency) ||
        !withinEfficiencyBounds(calibration.kvBandwidthEfficiency))
        violated("a calibration keeps the efficiencies between the floor and the datasheet",
                 QStringLiteral("weights %1, KV %2")
                     .arg(calibration.weightBandwidthEfficiency)
                     .arg(calibration.kvBandwidthEfficiency));
    if (std::abs(calibration.stepSecondsAfter - measured.interTokenSeconds) >
        1e-3 * measured.interTokenSeconds)
        violated("a calibrated step is the measurement", QStringLiteral("measured %1 s, calibrated step %2 s")
                                                             .arg(measured.interTokenSeconds)
                                                             .arg(calibration.stepSecondsAfter));
    scenario.speedCalibration = measuredSpeedScale(calibration, scenario, QDate(2026, 1, 1));
    const SpeedPlan speed = planSpeed(scenario, planMemory(scenario));
    if (!speed.available || speed.calibrationSource.isEmpty())
        violated("a scenario with its own calibration plans its speed with it", speed.notes.join(u"; "));
}

} // namespace kvscope::fuzz
