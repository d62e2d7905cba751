// SPDX-License-Identifier: MIT
#include "core/output/calcjson.h"

#include "core/common/enumtable.h"
#include "core/common/scenariofield.h"
#include "core/output/planjson.h"
#include "core/scenario/launchline.h"

namespace kvscope {

namespace {

const EnumSpelling<FixKind> fixKindNames[] = {
    {FixKind::BatchSize, "batch_size"},
    {FixKind::SeqLen, "seq_len"},
    {FixKind::MaxModelLen, "max_model_len"},
    {FixKind::KvCacheDtype, "kv_cache_dtype"},
    {FixKind::Quantization, "quantization"},
    {FixKind::TensorParallel, "tensor_parallel_size"},
    {FixKind::Gpu, "gpu"},
};

} // namespace

QString fixKindName(FixKind kind)
{
    return enumName(fixKindNames, kind);
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
