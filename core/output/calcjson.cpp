// SPDX-License-Identifier: MIT
#include "core/output/calcjson.h"

#include "core/common/scenariofield.h"
#include "core/output/planjson.h"
#include "core/scenario/launchline.h"

namespace kvscope {

QString fixKindName(FixKind kind)
{
    switch (kind) {
    case FixKind::BatchSize:
        return QStringLiteral("batch_size");
    case FixKind::SeqLen:
        return QStringLiteral("seq_len");
    case FixKind::MaxModelLen:
        return QStringLiteral("max_model_len");
    case FixKind::KvCacheDtype:
        return QStringLiteral("kv_cache_dtype");
    case FixKind::Quantization:
        return QStringLiteral("quantization");
    case FixKind::TensorParallel:
        return QStringLiteral("tensor_parallel_size");
    case FixKind::Gpu:
        return QStringLiteral("gpu");
    }
    return {};
}

QJsonObject calcJson(const Scenario &scenario, const MemoryPlan &plan, const QList<Fix> &fixes)
{
    QJsonObject json = planToJson(plan);
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
