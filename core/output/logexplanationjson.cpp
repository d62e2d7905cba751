// SPDX-License-Identifier: MIT
#include "core/output/logexplanationjson.h"

#include "core/analysis/logexplanation.h"
#include "core/engine/engine.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"

#include <QJsonArray>

namespace kvscope {

namespace {

QJsonValue optionalNumber(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonValue optionalCount(const std::optional<std::int64_t> &value)
{
    return value ? QJsonValue(qint64(*value)) : QJsonValue(QJsonValue::Null);
}

QJsonArray strings(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

} // namespace

QJsonObject logExplanationJson(const LogExplanation &e)
{
    const MemoryPlan &p = e.plan;
    QJsonObject inferred{
        {QStringLiteral("model"), p.modelId},
        {QStringLiteral("gpu"), p.gpuId},
        {QStringLiteral("gpu_memory_bytes"), qint64(p.gpuMemoryBytes)},
        {QStringLiteral("tensor_parallel_size"), p.tensorParallelSize},
        {QStringLiteral("pipeline_parallel_size"), p.pipelineParallelSize},
        // Each engine's own share; the other engine's is null.
        {QStringLiteral("gpu_memory_utilization"),
         p.engine == Engine::Vllm ? QJsonValue(double(p.gpuMemoryUtilizationPpm) / 1e6) : QJsonValue()},
        {QStringLiteral("mem_fraction_static"),
         p.engine == Engine::Sglang ? QJsonValue(double(p.memFractionStaticPpm) / 1e6) : QJsonValue()},
        {QStringLiteral("max_model_len"), qint64(p.maxModelLen)},
        {QStringLiteral("max_num_seqs"), qint64(p.maxNumSeqs)},
        {QStringLiteral("max_num_batched_tokens"), qint64(p.maxNumBatchedTokens)},
        {QStringLiteral("dtype"), dtypeName(p.dtype)},
        {QStringLiteral("quantization"), quantMethodName(p.quantization.method)},
        {QStringLiteral("kv_cache_dtype"), dtypeName(p.kvCacheDtype)},
        {QStringLiteral("block_size"), p.blockSize},
        {QStringLiteral("all_reduce_rms_norm_fused"), p.allReduceRmsNormFused},
        {QStringLiteral("model_runner_v2"), p.modelRunnerV2},
        {QStringLiteral("compile_cache_warm"), p.warmCompileCache},
    };
    QJsonArray components;
    for (const LogComponent &c : e.components)
        components << QJsonObject{{QStringLiteral("name"), c.key},
                                  {QStringLiteral("logged_bytes"), optionalCount(c.loggedBytes())},
                                  {QStringLiteral("predicted_bytes"), qint64(c.predictedBytes)},
                                  {QStringLiteral("agrees"), c.agrees()}};
    QJsonArray levers;
    for (const KvLever &l : e.levers)
        levers << QJsonObject{{QStringLiteral("what"), l.what},
                              {QStringLiteral("options"), strings(calcArguments(l.changes))},
                              {QStringLiteral("kv_capacity_tokens"), qint64(l.tokens)},
                              {QStringLiteral("launch"), l.launch}};
    return QJsonObject{
        {QStringLiteral("log"), e.log.origin},
        {QStringLiteral("engine"), engineName(p.engine)},
        {QStringLiteral("engine_version"), p.engineVersion},
        {QStringLiteral("logged_engine_version"),
         e.log.vllmVersion.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(e.log.vllmVersion)},
        {QStringLiteral("logged_fuse_allreduce_rms"),
         e.log.allReduceRmsFusion ? QJsonValue(*e.log.allReduceRmsFusion) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("inferred"), inferred},
        {QStringLiteral("read"), strings(e.read)},
        {QStringLiteral("assumed"), strings(e.assumed)},
        {QStringLiteral("components"), components},
        {QStringLiteral("disagreeing"), strings(e.disagreeing())},
        {QStringLiteral("kv_capacity_tokens"),
         QJsonObject{{QStringLiteral("logged"), optionalCount(e.loggedKvTokens)},
                     {QStringLiteral("predicted"), qint64(p.kv.capacityTokens)}}},
        {QStringLiteral("max_concurrency"),
         QJsonObject{{QStringLiteral("logged"), optionalNumber(e.loggedMaxConcurrency)},
                     {QStringLiteral("predicted"), p.kv.maxConcurrency}}},
        // A multimodal model's encoder in vLLM's profiling run: "Encoder cache will be initialized with a
        // budget of N tokens, and profiled with M image items".
        {QStringLiteral("encoder_cache_size"),
         QJsonObject{{QStringLiteral("logged"), optionalCount(e.log.encoderBudget)},
                     {QStringLiteral("predicted"), qint64(p.encoder.budget)}}},
        {QStringLiteral("encoder_profile_items"),
         QJsonObject{{QStringLiteral("logged"), optionalCount(e.log.encoderProfileItems)},
                     {QStringLiteral("predicted"), qint64(p.encoder.items)}}},
        {QStringLiteral("max_running_requests"),
         QJsonObject{{QStringLiteral("logged"), optionalCount(e.loggedMaxRunningRequests)},
                     {QStringLiteral("predicted"), qint64(p.maxNumSeqs)}}},
        {QStringLiteral("engine_starts"),
         QJsonObject{{QStringLiteral("logged"), e.log.refusedToStart || !e.log.startFailure.isEmpty()
                                                    ? QJsonValue(false)
                                                : e.loggedKvTokens ? QJsonValue(true)
                                                                   : QJsonValue(QJsonValue::Null)},
                     {QStringLiteral("predicted"), p.engineStarts}}},
        {QStringLiteral("explanation"), strings(e.explanation)},
        {QStringLiteral("levers"), levers},
        {QStringLiteral("options"), strings(calcArguments(e.options))},
    };
}

} // namespace kvscope
