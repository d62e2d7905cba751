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
        {"dtype", OptionKind::Text},
        {"quantization", OptionKind::Text},
        {"group-size", OptionKind::Count},
        {"kv-cache-dtype", OptionKind::Text},
        {"gpu-memory-utilization", OptionKind::Ratio},
        {"tensor-parallel-size", OptionKind::Count},
        {"max-model-len", OptionKind::Count},
        {"block-size", OptionKind::Count},
        {"mamba-ssm-cache-dtype", OptionKind::Text},
        {"max-num-seqs", OptionKind::Count},
        {"max-num-batched-tokens", OptionKind::Count},
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

Scenario scenarioFromValues(const ScenarioValues &values, const ScenarioResolvers &resolve)
{
    const auto given = [&](const char *name) { return values.contains(QLatin1String(name)); };
    const auto value = [&](const char *name) { return values.value(QLatin1String(name)); };
    for (const char *required : {"model", "gpu"})
        if (!given(required))
            throw Error(QStringLiteral("--%1: not given").arg(QLatin1String(required)));

    Scenario s;
    s.model = resolve.model(value("model"));
    s.gpu = resolve.gpu(value("gpu"));
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
    v.insert(QStringLiteral("model"), s.model.id);
    v.insert(QStringLiteral("gpu"), s.gpu.id);
    v.insert(QStringLiteral("dtype"), dtypeName(s.dtype));
    v.insert(QStringLiteral("quantization"), quantizationChoiceName(s.quantization));
    if (s.quantization && s.quantization->takesGroupSize())
        count("group-size", s.quantization->groupSize);
    v.insert(QStringLiteral("kv-cache-dtype"), dtypeName(s.kvCacheDtype));
    v.insert(QStringLiteral("gpu-memory-utilization"), formatUtilization(s.gpuMemoryUtilizationPpm));
    count("tensor-parallel-size", s.tensorParallelSize);
    if (s.maxModelLen > 0)
        count("max-model-len", s.maxModelLen);
    count("block-size", s.blockSize);
    v.insert(QStringLiteral("mamba-ssm-cache-dtype"), dtypeName(s.mambaSsmCacheDtype));
    if (s.maxNumSeqs > 0)
        count("max-num-seqs", s.maxNumSeqs);
    if (s.maxNumBatchedTokens > 0)
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
