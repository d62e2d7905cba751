// SPDX-License-Identifier: MIT
#include "core/output/calcjson.h"

#include "core/common/enumtable.h"
#include "core/common/scenariofield.h"
#include "core/output/planjson.h"
#include "core/scenario/launchline.h"

#include <cmath>

namespace kvscope {

namespace {

const EnumSpelling<FixKind> fixKindNames[] = {
    {FixKind::BatchSize, "batch_size"},
    {FixKind::SeqLen, "seq_len"},
    {FixKind::MaxModelLen, "max_model_len"},
    {FixKind::KvCacheDtype, "kv_cache_dtype"},
    {FixKind::Quantization, "quantization"},
    {FixKind::TensorParallel, "tensor_parallel_size"},
    {FixKind::DataParallel, "data_parallel_size"},
    {FixKind::Gpu, "gpu"},
    {FixKind::KvCacheMemory, "kv_cache_memory_bytes"},
};

double rounded(double value, double perUnit)
{
    return std::round(value * perUnit) / perUnit;
}

/// The calibration the plan used: what this run fitted (the measurement, the step
/// before), or the scenario's own (its scale and source only); null for none.
QJsonValue calibrationJson(const Scenario &scenario, const MemoryPlan &plan,
                           const std::optional<SpeedCalibration> &fitted)
{
    if (plan.speed.calibrationSource.isEmpty())
        return QJsonValue::Null;
    const auto known = [&](double value) {
        return fitted ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
    };
    return QJsonObject{
        {QStringLiteral("scale"), double(scenario.speedCalibration.scalePpm) / 1e6},
        {QStringLiteral("weight_bandwidth_efficiency"), rounded(plan.speed.bandwidthEfficiency, 1e4)},
        {QStringLiteral("kv_bandwidth_efficiency"), rounded(plan.speed.kvBandwidthEfficiency, 1e4)},
        {QStringLiteral("measured_itl_ms"), known(fitted ? fitted->measurement.interTokenSeconds * 1e3 : 0)},
        {QStringLiteral("predicted_itl_ms_before"),
         known(fitted ? rounded(fitted->stepSecondsBefore * 1e3, 1e3) : 0)},
        {QStringLiteral("source"), plan.speed.calibrationSource},
    };
}

} // namespace

QString fixKindName(FixKind kind)
{
    return enumName(fixKindNames, kind);
}

QJsonObject calcJson(const Scenario &scenario, const MemoryPlan &plan, const QList<Fix> &fixes,
                     const std::optional<SpeedCalibration> &calibration)
{
    QJsonObject json = planToJson(plan);
    json.insert(QStringLiteral("speed_calibration"), calibrationJson(scenario, plan, calibration));
    json.insert(QStringLiteral("fixes"), fixesToJson(fixes));
    const LaunchLine line = launchLine(scenario);
    const QString key =
        engineName(scenario.engine) + QStringLiteral("_command"); // vllm_command, sglang_command
    json.insert(key, line.command());
    json.insert(key + QStringLiteral("_caveats"), QJsonArray::fromStringList(line.caveats));
    return json;
}

QJsonArray fixesToJson(const QList<Fix> &fixes)
{
    QJsonArray array;
    for (const Fix &fix : fixes) {
        QJsonObject change;
        for (const OptionChange &option : fix.changes)
            change.insert(optionFlag(option.option), option.value);
        array.append(QJsonObject{
            {QStringLiteral("change"), change},
            {QStringLiteral("fits"), fix.plan.fits},
            {QStringLiteral("headroom_bytes"), qint64(fix.plan.headroomBytes)},
            {QStringLiteral("kind"), fixKindName(fix.kind)},
            {QStringLiteral("limit"), fix.limit},
            {QStringLiteral("weights_bytes"), qint64(fix.plan.weights.bytesPerGpu)},
            {QStringLiteral("needs_quantized_checkpoint"), fix.needsQuantizedCheckpoint},
        });
    }
    return array;
}

} // namespace kvscope
