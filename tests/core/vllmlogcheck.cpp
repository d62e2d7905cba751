// SPDX-License-Identifier: MIT
#include "tests/core/vllmlogcheck.h"

#include "core/common/error.h"
#include "core/common/units.h"
#include "core/library/library.h"
#include "core/model/hfconfig.h"
#include "core/plan/pipelineparallel.h"
#include "core/plan/planner.h"

#include <algorithm>
#include <cmath>

#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>

namespace kvscope::validation {

namespace {

const QStringList optionKeys = {QStringLiteral("model"),
                                QStringLiteral("model_config"),
                                QStringLiteral("model_config_source"),
                                QStringLiteral("gpu"),
                                QStringLiteral("tensor_parallel_size"),
                                QStringLiteral("pipeline_parallel_size"),
                                QStringLiteral("data_parallel_size"),
                                QStringLiteral("enable_expert_parallel"),
                                QStringLiteral("enforce_eager"),
                                QStringLiteral("compile_cache"),
                                QStringLiteral("max_loras"),
                                QStringLiteral("max_lora_rank"),
                                QStringLiteral("images_per_request"),
                                QStringLiteral("gpu_memory_utilization"),
                                QStringLiteral("max_model_len"),
                                QStringLiteral("dtype"),
                                QStringLiteral("quantization"),
                                QStringLiteral("kv_cache_dtype"),
                                QStringLiteral("max_num_seqs"),
                                QStringLiteral("max_num_batched_tokens"),
                                QStringLiteral("block_size"),
                                QStringLiteral("engine"),
                                QStringLiteral("mem_fraction_static"),
                                QStringLiteral("assumptions"),
                                QStringLiteral("miss")};

/// A whole-number option; `fallback` when absent or null.
std::int64_t integer(const QJsonObject &options, const char *key, std::int64_t fallback,
                     const QString &origin)
{
    const QJsonValue v = options.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return fallback;
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 1 || d != std::floor(d))
        throw Error(QStringLiteral("%1.%2: expected a positive integer").arg(origin, QLatin1String(key)));
    return std::int64_t(d);
}

QString text(const QJsonObject &options, const char *key, const QString &fallback)
{
    return options.value(QLatin1String(key)).toString(fallback);
}

/// The release an entry's "vllm_version" names: "0.19.0", "~0.11.0 (inferred...)",
/// "0.6.4.post2.dev"; all zero when it names none.
EngineVersion loggedVllmVersion(const QJsonObject &entry)
{
    static const QRegularExpression version(QStringLiteral("^~?\\s*(\\d+)\\.(\\d+)(?:\\.(\\d+))?"));
    const QRegularExpressionMatch match =
        version.match(entry.value(QLatin1String("vllm_version")).toString());
    if (!match.hasMatch())
        return {};
    return {match.captured(1).toInt(), match.captured(2).toInt(), match.captured(3).toInt()};
}

} // namespace

Tolerances tolerancesFor(LogClass logClass)
{
    switch (logClass) {
    case LogClass::Calibration:
    case LogClass::CalibrationRepeat:
        return {0.01, 0.04, 0.04, 0.005, 0.005, 0.005};
    case LogClass::ModelledVersion:
        return {0.03, 0.05, 0.05, 0.01, 0.01, 0.01};
    case LogClass::Sglang:
        return {0.03, 0.05, 0.05, 0.03, 0.03, 0.03};
    case LogClass::OtherVersion:
        break;
    }
    return {0.05, 0.05, 0.05, 0.05, 0.05, 0.05};
}

QString className(LogClass logClass)
{
    switch (logClass) {
    case LogClass::Calibration:
        return QStringLiteral("calibration");
    case LogClass::CalibrationRepeat:
        return QStringLiteral("calibration repeats");
    case LogClass::ModelledVersion:
        return QStringLiteral("modelled versions");
    case LogClass::Sglang:
        return QStringLiteral("SGLang");
    case LogClass::OtherVersion:
        break;
    }
    return QStringLiteral("older versions");
}

const QList<int> &calibrationIds()
{
    static const QList<int> ids = {1, 3, 6, 8, 11};
    return ids;
}

bool Figure::within() const
{
    if (!logged)
        return true;
    // The epsilon keeps a difference of exactly one rounding step (0.25 vs 0.24) inside.
    return std::abs(predicted - *logged) <= std::max(tolerance * std::abs(*logged), floor) + 1e-9;
}

double Figure::relativeError() const
{
    if (!logged || *logged == 0)
        return 0;
    return (predicted - *logged) / std::abs(*logged);
}

QList<const Figure *> LogCheck::figures() const
{
    return {&kvTokens, &kvMemory, &concurrency, &weights, &activation, &nonTorch};
}

bool LogCheck::withinTolerance() const
{
    for (const Figure *figure : figures())
        if (!figure->within())
            return false;
    return startsAsLogged();
}

QJsonArray readLogs(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(QStringLiteral("%1: %2").arg(path, file.errorString()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (!doc.isArray())
        throw Error(QStringLiteral("%1: not a JSON array (%2 at offset %3)")
                        .arg(path, error.errorString())
                        .arg(error.offset));
    return doc.array();
}

Scenario scenarioFor(const QJsonObject &options, const QString &vllmVersion, const QString &origin)
{
    for (const QString &key : options.keys())
        if (!optionKeys.contains(key))
            throw Error(QStringLiteral("%1: unknown option '%2'").arg(origin, key));
    Scenario s;
    s.engine = parseEngine(text(options, "engine", QStringLiteral("vllm")));
    s.vllmVersion = vllmVersion;
    const QJsonValue fraction = options.value(QLatin1String("mem_fraction_static"));
    if (!fraction.isUndefined())
        s.memFractionStaticPpm = parseUtilization(QString::number(fraction.toDouble(), 'g', 12),
                                                  origin + QStringLiteral(".mem_fraction_static"));
    if (options.contains(QLatin1String("model_config")))
        s.model = parseHfConfig(options.value(QLatin1String("model_config")).toObject(),
                                origin + QStringLiteral(".model_config"));
    else
        s.model = resolveModel(text(options, "model", {}));
    s.gpu = resolveGpu(text(options, "gpu", {}));
    s.dtype =
        parseWeightDtype(text(options, "dtype", QStringLiteral("auto")), origin + QStringLiteral(".dtype"));
    s.kvCacheDtype = parseKvCacheDtype(text(options, "kv_cache_dtype", QStringLiteral("auto")),
                                       origin + QStringLiteral(".kv_cache_dtype"));
    const QString method = text(options, "quantization", QStringLiteral("auto"));
    if (method != QLatin1String("auto"))
        s.quantization = defaultSpecFor(parseQuantMethod(method, origin + QStringLiteral(".quantization")));
    const QJsonValue utilization = options.value(QLatin1String("gpu_memory_utilization"));
    if (!utilization.isUndefined())
        s.gpuMemoryUtilizationPpm = parseUtilization(QString::number(utilization.toDouble(), 'g', 12),
                                                     origin + QStringLiteral(".gpu_memory_utilization"));
    s.tensorParallelSize = int(integer(options, "tensor_parallel_size", 1, origin));
    s.pipelineParallelSize = integer(options, "pipeline_parallel_size", 1, origin);
    s.dataParallelSize = integer(options, "data_parallel_size", 1, origin);
    s.enableExpertParallel = options.value(QLatin1String("enable_expert_parallel")).toBool(false);
    s.enforceEager = options.value(QLatin1String("enforce_eager")).toBool(false);
    if (options.contains(QLatin1String("compile_cache")))
        s.compileCache = parseCompileCache(options.value(QLatin1String("compile_cache")).toString(),
                                           origin + QStringLiteral(".compile_cache"));
    s.maxLoras = integer(options, "max_loras", 0, origin);
    s.maxLoraRank = integer(options, "max_lora_rank", 16, origin);
    s.imagesPerRequest = integer(options, "images_per_request", 0, origin); // --limit-mm-per-prompt's images
    s.maxModelLen = integer(options, "max_model_len", 0, origin);
    s.blockSize = int(integer(options, "block_size", 16, origin));
    s.maxNumSeqs = integer(options, "max_num_seqs", 0, origin);
    s.maxNumBatchedTokens = integer(options, "max_num_batched_tokens", 0, origin);
    return s;
}

LogCheck checkLog(const QJsonObject &entry)
{
    LogCheck c;
    c.id = entry.value(QLatin1String("id")).toInt();
    c.entry = entry;
    const QJsonObject options = entry.value(QLatin1String("kvscope")).toObject();
    c.scenario = scenarioFor(options, plannedVllmVersion(entry),
                             QStringLiteral("tests/data/vllm-logs.json [id %1].kvscope").arg(c.id));
    if (c.scenario.model.name.isEmpty())
        c.scenario.model.name = entry.value(QLatin1String("model")).toString();
    c.plan = planMemory(c.scenario);
    c.miss = text(options, "miss", {});
    c.assumptions = text(options, "assumptions", {});

    if (calibrationIds().contains(c.id))
        c.logClass = LogClass::Calibration;
    else if (calibrationIds().contains(entry.value(QLatin1String("repeats_calibration_log")).toInt()))
        c.logClass = LogClass::CalibrationRepeat;
    else if (c.scenario.engine == Engine::Sglang)
        c.logClass = LogClass::Sglang;
    else if (loggedVllmVersion(entry) >= OldestVllmVersion)
        c.logClass = LogClass::ModelledVersion;
    const Tolerances t = tolerancesFor(c.logClass);

    const QJsonObject logged = entry.value(QLatin1String("logged")).toObject();
    const auto figure = [&](const char *label, const char *key, double predicted, double tolerance,
                            double floor, int decimals) {
        Figure f;
        f.label = QLatin1String(label);
        if (logged.contains(QLatin1String(key)))
            f.logged = logged.value(QLatin1String(key)).toDouble();
        f.predicted = predicted;
        f.tolerance = tolerance;
        f.floor = floor;
        f.decimals = decimals;
        return f;
    };
    const MemoryPlan &p = c.plan;
    // A pipeline's log prints its per-GPU lines from the first stage's workers.
    const PipelineStagePlan stage = firstPipelineStage(p);
    c.kvTokens = figure("KV cache tokens", "kv_cache_tokens", double(p.kv.capacityTokens), t.kvTokens, 0, 0);
    c.kvMemory = figure("available KV GiB", "kv_cache_gib", toGiB(stage.availableBytes), t.kvMemory, 0.01, 2);
    c.concurrency = figure("concurrency", "max_concurrency", p.kv.maxConcurrency, t.concurrency, 0.01, 2);
    c.weights = figure("weights GiB", "weights_gib", toGiB(stage.weightBytes), t.weights, 0.01, 2);
    c.activation =
        figure("activation GiB", "activation_peak_gib", toGiB(stage.activationBytes), t.activation, 0.01, 2);
    c.nonTorch = figure("non-torch GiB", "non_torch_gib", toGiB(p.overheadBytes), t.nonTorch, 0.01, 2);
    if (logged.contains(QLatin1String("startup_failed")))
        c.loggedStarts = !logged.value(QLatin1String("startup_failed")).toBool();
    return c;
}

HeldOutKvAgreement heldOutKvAgreement(const QList<LogCheck> &checks)
{
    HeldOutKvAgreement agreement;
    for (const LogCheck &c : checks) {
        const Figure &kv = c.kvTokens.isLogged() ? c.kvTokens : c.kvMemory;
        if (c.logClass != LogClass::ModelledVersion || !kv.isLogged())
            continue;
        ++agreement.logs;
        // A start kvscope gets wrong (a log of a failed start it plans as starting) agrees on nothing.
        const double error = c.startsAsLogged() ? std::abs(kv.relativeError()) : 1.0;
        agreement.withinOnePercent += error <= 0.01;
        agreement.withinThreePercent += error <= 0.03;
    }
    return agreement;
}

QList<CudaGraphEstimateCheck> cudaGraphEstimateChecks(const QList<LogCheck> &checks)
{
    QList<CudaGraphEstimateCheck> out;
    for (const LogCheck &c : checks) {
        const QJsonValue logged =
            c.entry.value(QLatin1String("logged")).toObject().value(QLatin1String("cudagraph_estimated_gib"));
        if (logged.isDouble() && logged.toDouble() > 0)
            out.append({&c, logged.toDouble(), double(c.plan.cudaGraphProfile.estimateBytes) / double(GiB)});
    }
    return out;
}

QString engineVersion(const QJsonObject &entry)
{
    if (entry.value(QLatin1String("engine")).toString() == QLatin1String("SGLang"))
        return QStringLiteral("SGLang");
    const EngineVersion version = loggedVllmVersion(entry);
    if (version == EngineVersion{})
        return {};
    return QStringLiteral("vLLM %1.%2").arg(version.major).arg(version.minor);
}

QString plannedVllmVersion(const QJsonObject &entry)
{
    if (entry.value(QLatin1String("engine")).toString() == QLatin1String("SGLang"))
        return {};
    return std::max(loggedVllmVersion(entry), OldestVllmVersion).text();
}

QString sourceUrl(const QJsonObject &entry)
{
    static const QRegularExpression url(QStringLiteral("https?://\\S+"));
    return url.match(entry.value(QLatin1String("source")).toString()).captured(0);
}

} // namespace kvscope::validation
