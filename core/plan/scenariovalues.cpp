// SPDX-License-Identifier: MIT
#include "plan/scenariovalues.h"

#include "common/error.h"
#include "library/library.h"

#include <algorithm>

#include <QRegularExpression>

namespace kvscope {

namespace {

std::int64_t positive(const QString &text, const char *name)
{
    return parsePositive(text, QStringLiteral("--") + QLatin1String(name));
}

int positiveInt(const QString &text, const char *name)
{
    return int(std::min<std::int64_t>(positive(text, name), 1 << 20));
}

} // namespace

std::int64_t parsePositive(const QString &text, const QString &option)
{
    static const QRegularExpression digits(QStringLiteral("^\\s*\\d{1,18}\\s*$"));
    if (!digits.match(text).hasMatch() || text.trimmed().toLongLong() <= 0)
        throw Error(QStringLiteral("%1: must be a positive integer, got '%2'").arg(option, text));
    return text.trimmed().toLongLong();
}

const QList<ScenarioOption> &scenarioOptions()
{
    static const QList<ScenarioOption> options = {
        {"model", OptionKind::Text},
        {"gpu", OptionKind::Text},
        {"engine", OptionKind::Text},
        {"vllm-version", OptionKind::Text, OptionEngine::Vllm},
        {"dtype", OptionKind::Text},
        {"quantization", OptionKind::Text},
        {"group-size", OptionKind::Count},
        {"kv-cache-dtype", OptionKind::Text},
        {"gpu-memory-utilization", OptionKind::Ratio, OptionEngine::Vllm},
        {"mem-fraction-static", OptionKind::Ratio, OptionEngine::Sglang},
        {"tensor-parallel-size", OptionKind::Count},
        {"tp-size", OptionKind::Count, OptionEngine::Sglang, "tensor-parallel-size"},
        {"max-model-len", OptionKind::Count},
        {"context-length", OptionKind::Count, OptionEngine::Sglang, "max-model-len"},
        {"block-size", OptionKind::Count, OptionEngine::Vllm},
        {"mamba-ssm-cache-dtype", OptionKind::Text, OptionEngine::Vllm},
        {"max-num-seqs", OptionKind::Count, OptionEngine::Vllm},
        {"max-running-requests", OptionKind::Count, OptionEngine::Sglang, "max-num-seqs"},
        {"max-num-batched-tokens", OptionKind::Count, OptionEngine::Vllm},
        {"batch-size", OptionKind::Count},
        {"seq-len", OptionKind::Count},
        {"prompt-len", OptionKind::Count},
        {"bandwidth-efficiency", OptionKind::Ratio},
        {"compute-efficiency", OptionKind::Ratio},
    };
    return options;
}

const ScenarioOption *findScenarioOption(const QString &name)
{
    for (const ScenarioOption &option : scenarioOptions())
        if (name == QLatin1String(option.name))
            return &option;
    return nullptr;
}

ScenarioResolvers builtinResolvers()
{
    return {resolveModel, resolveGpu};
}

namespace {

QString engineOptionName(OptionEngine engine)
{
    return engine == OptionEngine::Sglang ? QStringLiteral("SGLang") : QStringLiteral("vLLM");
}

/// The values with SGLang's spellings under their shared names, after checking
/// that every option belongs to `engine`.
ScenarioValues canonicalValues(const ScenarioValues &values, Engine engine)
{
    ScenarioValues canonical = values;
    for (auto it = values.begin(); it != values.end(); ++it) {
        const ScenarioOption *option = findScenarioOption(it.key());
        if (!option || option->engine == OptionEngine::Any)
            continue;
        const bool belongs = (option->engine == OptionEngine::Sglang) == (engine == Engine::Sglang);
        if (!belongs)
            throw Error(QStringLiteral("--%1: is a %2 option; it does not apply with --engine %3 (got '%4')")
                            .arg(it.key(), engineOptionName(option->engine), engineName(engine), it.value()));
        if (!option->sameAs)
            continue;
        const QString shared = QLatin1String(option->sameAs);
        if (values.contains(shared) && values.value(shared) != it.value())
            throw Error(QStringLiteral("--%1: '%2' contradicts --%3 '%4' (the same setting); give one")
                            .arg(it.key(), it.value(), shared, values.value(shared)));
        canonical.remove(it.key());
        canonical.insert(shared, it.value());
    }
    return canonical;
}

} // namespace

Scenario scenarioFromValues(const ScenarioValues &rawValues, const ScenarioResolvers &resolve)
{
    const Engine engine = rawValues.contains(QStringLiteral("engine"))
                              ? parseEngine(rawValues.value(QStringLiteral("engine")))
                              : Engine::Vllm;
    const ScenarioValues values = canonicalValues(rawValues, engine);
    const auto given = [&](const char *name) { return values.contains(QLatin1String(name)); };
    const auto value = [&](const char *name) { return values.value(QLatin1String(name)); };
    for (const char *required : {"model", "gpu"})
        if (!given(required))
            throw Error(QStringLiteral("--%1: not given").arg(QLatin1String(required)));

    Scenario s;
    s.engine = engine;
    s.model = resolve.model(value("model"));
    s.gpu = resolve.gpu(value("gpu"));
    if (given("vllm-version")) {
        s.vllmVersion = value("vllm-version").trimmed();
        resolveVllmVersion(s.vllmVersion); // junk and releases before 0.10 fail here, naming the option
    }
    if (given("mem-fraction-static"))
        s.memFractionStaticPpm =
            parseUtilization(value("mem-fraction-static"), QStringLiteral("--mem-fraction-static"));
    if (given("dtype"))
        s.dtype = parseWeightDtype(value("dtype"));
    if (given("kv-cache-dtype"))
        s.kvCacheDtype = parseKvCacheDtype(value("kv-cache-dtype"));

    // Read lower-cased, so an error names the method in lower case.
    if (given("quantization"))
        s.quantization = parseQuantizationChoice(value("quantization").trimmed().toLower(),
                                                 s.model.checkpointQuantization);
    if (given("group-size")) {
        bool ok = false;
        const int group = value("group-size").toInt(&ok);
        if (!ok || (group <= 0 && group != -1))
            throw Error(QStringLiteral("--group-size: must be a positive integer or -1, got '%1'")
                            .arg(value("group-size")));
        QuantizationSpec spec = s.quantization.value_or(s.model.checkpointQuantization);
        if (!spec.takesGroupSize())
            throw Error(QStringLiteral("--group-size: applies to awq, gptq and compressed-tensors, not to "
                                       "quantization '%1'")
                            .arg(quantMethodName(spec.method)));
        spec.groupSize = group;
        s.quantization = spec;
    }

    if (given("gpu-memory-utilization"))
        s.gpuMemoryUtilizationPpm = parseUtilization(value("gpu-memory-utilization"));
    if (given("tensor-parallel-size"))
        s.tensorParallelSize = positiveInt(value("tensor-parallel-size"), "tensor-parallel-size");
    if (given("max-model-len"))
        s.maxModelLen = positive(value("max-model-len"), "max-model-len");
    if (given("block-size"))
        s.blockSize = positiveInt(value("block-size"), "block-size");
    if (given("mamba-ssm-cache-dtype"))
        s.mambaSsmCacheDtype =
            parseWeightDtype(value("mamba-ssm-cache-dtype"), QStringLiteral("--mamba-ssm-cache-dtype"));
    if (given("max-num-seqs"))
        s.maxNumSeqs = positive(value("max-num-seqs"), "max-num-seqs");
    if (given("max-num-batched-tokens"))
        s.maxNumBatchedTokens = positive(value("max-num-batched-tokens"), "max-num-batched-tokens");
    if (given("batch-size"))
        s.batchSize = positive(value("batch-size"), "batch-size");
    if (given("seq-len"))
        s.seqLen = positive(value("seq-len"), "seq-len");
    if (given("prompt-len"))
        s.promptLen = positive(value("prompt-len"), "prompt-len");
    if (given("bandwidth-efficiency"))
        s.bandwidthEfficiencyPpm =
            parseUtilization(value("bandwidth-efficiency"), QStringLiteral("--bandwidth-efficiency"));
    if (given("compute-efficiency"))
        s.computeEfficiencyPpm =
            parseUtilization(value("compute-efficiency"), QStringLiteral("--compute-efficiency"));
    return s;
}

ScenarioValues scenarioToValues(const Scenario &s)
{
    ScenarioValues v;
    const auto count = [&v](const char *name, std::int64_t value) {
        v.insert(QLatin1String(name), QString::number(value));
    };
    const bool vllm = s.engine == Engine::Vllm;
    v.insert(QStringLiteral("model"), s.model.id);
    v.insert(QStringLiteral("gpu"), s.gpu.id);
    v.insert(QStringLiteral("engine"), engineName(s.engine));
    if (vllm && !s.vllmVersion.isEmpty())
        v.insert(QStringLiteral("vllm-version"), s.vllmVersion);
    if (!vllm && s.memFractionStaticPpm > 0)
        v.insert(QStringLiteral("mem-fraction-static"), formatUtilization(s.memFractionStaticPpm));
    v.insert(QStringLiteral("dtype"), dtypeName(s.dtype));
    v.insert(QStringLiteral("quantization"), quantizationChoiceName(s.quantization));
    if (s.quantization && s.quantization->takesGroupSize())
        count("group-size", s.quantization->groupSize);
    v.insert(QStringLiteral("kv-cache-dtype"), dtypeName(s.kvCacheDtype));
    if (vllm)
        v.insert(QStringLiteral("gpu-memory-utilization"), formatUtilization(s.gpuMemoryUtilizationPpm));
    count("tensor-parallel-size", s.tensorParallelSize);
    if (s.maxModelLen > 0)
        count("max-model-len", s.maxModelLen);
    if (vllm) {
        count("block-size", s.blockSize);
        v.insert(QStringLiteral("mamba-ssm-cache-dtype"), dtypeName(s.mambaSsmCacheDtype));
    }
    if (s.maxNumSeqs > 0)
        count(vllm ? "max-num-seqs" : "max-running-requests", s.maxNumSeqs);
    if (vllm && s.maxNumBatchedTokens > 0)
        count("max-num-batched-tokens", s.maxNumBatchedTokens);
    count("batch-size", s.batchSize);
    count("seq-len", s.seqLen);
    if (s.promptLen > 0)
        count("prompt-len", s.promptLen);
    v.insert(QStringLiteral("bandwidth-efficiency"), formatUtilization(s.bandwidthEfficiencyPpm));
    v.insert(QStringLiteral("compute-efficiency"), formatUtilization(s.computeEfficiencyPpm));
    return v;
}

} // namespace kvscope
