// SPDX-License-Identifier: MIT
#include "plan/optionoverrides.h"

#include "common/error.h"
#include "library/library.h"

#include <algorithm>

namespace kvscope {

namespace {

int clampedInt(std::int64_t value)
{
    return int(std::min<std::int64_t>(value, 1 << 20));
}

void applyGroupSize(Scenario &s, const QString &text, const QString &option)
{
    bool ok = false;
    const int group = text.toInt(&ok);
    if (!ok || (group <= 0 && group != -1))
        throw Error(QStringLiteral("%1: must be a positive integer or -1, got '%2'").arg(option, text));
    QuantizationSpec spec = s.quantization.value_or(s.model.checkpointQuantization);
    if (!spec.takesGroupSize())
        throw Error(QStringLiteral("%1: applies to awq, gptq and compressed-tensors, not to quantization '%2'")
                        .arg(option, quantMethodName(spec.method)));
    spec.groupSize = group;
    s.quantization = spec;
}

/// One option: its name and how its text sets the scenario.
struct OptionField
{
    const char *name;
    void (*apply)(Scenario &s, const QString &text, const QString &option);
};

// In the order they apply: the model before --quantization (which keeps the
// checkpoint's own spec when it names the same method), --quantization before
// --group-size.
const OptionField optionFields[] = {
    {"--model", [](Scenario &s, const QString &text, const QString &) { s.model = resolveModel(text); }},
    {"--gpu", [](Scenario &s, const QString &text, const QString &) { s.gpu = resolveGpu(text); }},
    {"--dtype",
     [](Scenario &s, const QString &text, const QString &option) { s.dtype = parseWeightDtype(text, option); }},
    {"--kv-cache-dtype",
     [](Scenario &s, const QString &text, const QString &option) {
         s.kvCacheDtype = parseKvCacheDtype(text, option);
     }},
    // Read lower-cased, so an error names the method in lower case.
    {"--quantization",
     [](Scenario &s, const QString &text, const QString &option) {
         s.quantization = parseQuantizationChoice(text.trimmed().toLower(), s.model.checkpointQuantization, option);
     }},
    {"--group-size", applyGroupSize},
    {"--gpu-memory-utilization",
     [](Scenario &s, const QString &text, const QString &option) {
         s.gpuMemoryUtilizationPpm = parseUtilization(text, option);
     }},
    {"--tensor-parallel-size",
     [](Scenario &s, const QString &text, const QString &option) {
         s.tensorParallelSize = clampedInt(parsePositive(text, option));
     }},
    {"--max-model-len",
     [](Scenario &s, const QString &text, const QString &option) { s.maxModelLen = parsePositive(text, option); }},
    {"--block-size",
     [](Scenario &s, const QString &text, const QString &option) {
         s.blockSize = clampedInt(parsePositive(text, option));
     }},
    {"--mamba-ssm-cache-dtype",
     [](Scenario &s, const QString &text, const QString &option) {
         s.mambaSsmCacheDtype = parseWeightDtype(text, option);
     }},
    {"--max-num-seqs",
     [](Scenario &s, const QString &text, const QString &option) { s.maxNumSeqs = parsePositive(text, option); }},
    {"--max-num-batched-tokens",
     [](Scenario &s, const QString &text, const QString &option) {
         s.maxNumBatchedTokens = parsePositive(text, option);
     }},
    {"--batch-size",
     [](Scenario &s, const QString &text, const QString &option) { s.batchSize = parsePositive(text, option); }},
    {"--seq-len",
     [](Scenario &s, const QString &text, const QString &option) { s.seqLen = parsePositive(text, option); }},
    {"--prompt-len",
     [](Scenario &s, const QString &text, const QString &option) { s.promptLen = parsePositive(text, option); }},
    {"--bandwidth-efficiency",
     [](Scenario &s, const QString &text, const QString &option) {
         s.bandwidthEfficiencyPpm = parseUtilization(text, option);
     }},
    {"--compute-efficiency",
     [](Scenario &s, const QString &text, const QString &option) {
         s.computeEfficiencyPpm = parseUtilization(text, option);
     }},
};

} // namespace

QStringList scenarioOptionNames()
{
    QStringList names;
    for (const OptionField &field : optionFields)
        names << QLatin1String(field.name);
    return names;
}

Scenario applyOverrides(const Scenario &base, const OptionValues &options)
{
    const QStringList known = scenarioOptionNames();
    for (auto it = options.cbegin(); it != options.cend(); ++it)
        if (!known.contains(it.key()))
            throw Error(QStringLiteral("%1: unknown option").arg(it.key()));
    Scenario s = base;
    for (const OptionField &field : optionFields) {
        const QString name = QLatin1String(field.name);
        const auto it = options.constFind(name);
        if (it != options.cend())
            field.apply(s, it.value(), name);
    }
    return s;
}

} // namespace kvscope
