// SPDX-License-Identifier: MIT
#include "plan/optionoverrides.h"

#include "common/error.h"
#include "library/library.h"

#include <algorithm>

#include <QFileInfo>

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
        throw Error(
            QStringLiteral("%1: applies to awq, gptq and compressed-tensors, not to quantization '%2'")
                .arg(option, quantMethodName(spec.method)));
    spec.groupSize = group;
    s.quantization = spec;
}

/// The optional counts (0 = the default) also read "auto", so that every value has a spelling.
std::int64_t parseOptionalCount(const QString &text, const QString &option)
{
    if (text.trimmed().compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
        return 0;
    return parsePositive(text, option);
}

QString optionalCountText(std::int64_t value)
{
    return value > 0 ? QString::number(value) : QStringLiteral("auto");
}

QString modelText(const ModelArch &m)
{
    if (const ModelArch *preset = ModelLibrary::builtin().find(m.id); preset && preset->source == m.source)
        return m.id;
    if (QFileInfo::exists(m.source))
        return m.source;
    throw Error(
        QStringLiteral("--model: '%1' (%2) has no spelling an option can read").arg(m.name, m.source));
}

QString gpuText(const GpuSpec &gpu)
{
    if (gpu.id.startsWith(QLatin1String("custom:")) || GpuLibrary::builtin().find(gpu.id))
        return gpu.id;
    throw Error(QStringLiteral("--gpu: '%1' has no spelling an option can read").arg(gpu.name));
}

QString groupSizeText(const Scenario &s)
{
    return s.quantization && s.quantization->takesGroupSize() ? QString::number(s.quantization->groupSize)
                                                              : QString();
}

using Apply = void (*)(Scenario &s, const QString &text, const QString &option);
using Spell = QString (*)(const Scenario &s);

using Same = bool (*)(const Scenario &a, const Scenario &b);

/// One option: its name, how its text sets the scenario, and how the scenario spells it back
/// (`same` compares the field where spelling it may fail; else the spellings are compared).
struct OptionField
{
    const char *name;
    Apply apply;
    Spell text;
    Same same = nullptr;
};

// In the order they apply: the model before --quantization (which keeps the
// checkpoint's own spec when it names the same method), --quantization before
// --group-size.
const OptionField optionFields[] = {
    {"--model", [](Scenario &s, const QString &text, const QString &) { s.model = resolveModel(text); },
     [](const Scenario &s) { return modelText(s.model); },
     [](const Scenario &a, const Scenario &b) {
         return a.model.id == b.model.id && a.model.source == b.model.source;
     }},
    {"--gpu", [](Scenario &s, const QString &text, const QString &) { s.gpu = resolveGpu(text); },
     [](const Scenario &s) { return gpuText(s.gpu); },
     [](const Scenario &a, const Scenario &b) { return a.gpu == b.gpu; }},
    {"--dtype",
     [](Scenario &s, const QString &text, const QString &o) { s.dtype = parseWeightDtype(text, o); },
     [](const Scenario &s) { return dtypeName(s.dtype); }},
    {"--kv-cache-dtype",
     [](Scenario &s, const QString &text, const QString &o) { s.kvCacheDtype = parseKvCacheDtype(text, o); },
     [](const Scenario &s) { return dtypeName(s.kvCacheDtype); }},
    // Read lower-cased, so an error names the method in lower case.
    {"--quantization",
     [](Scenario &s, const QString &text, const QString &o) {
         s.quantization =
             parseQuantizationChoice(text.trimmed().toLower(), s.model.checkpointQuantization, o);
     },
     [](const Scenario &s) { return quantizationChoiceName(s.quantization); }},
    {"--group-size", applyGroupSize, groupSizeText},
    {"--gpu-memory-utilization",
     [](Scenario &s, const QString &text, const QString &o) {
         s.gpuMemoryUtilizationPpm = parseUtilization(text, o);
     },
     [](const Scenario &s) { return formatUtilization(s.gpuMemoryUtilizationPpm); }},
    {"--tensor-parallel-size",
     [](Scenario &s, const QString &text, const QString &o) {
         s.tensorParallelSize = clampedInt(parsePositive(text, o));
     },
     [](const Scenario &s) { return QString::number(s.tensorParallelSize); }},
    {"--max-model-len",
     [](Scenario &s, const QString &text, const QString &o) { s.maxModelLen = parseOptionalCount(text, o); },
     [](const Scenario &s) { return optionalCountText(s.maxModelLen); }},
    {"--block-size",
     [](Scenario &s, const QString &text, const QString &o) {
         s.blockSize = clampedInt(parsePositive(text, o));
     },
     [](const Scenario &s) { return QString::number(s.blockSize); }},
    {"--mamba-ssm-cache-dtype",
     [](Scenario &s, const QString &text, const QString &o) {
         s.mambaSsmCacheDtype = parseWeightDtype(text, o);
     },
     [](const Scenario &s) { return dtypeName(s.mambaSsmCacheDtype); }},
    {"--max-num-seqs",
     [](Scenario &s, const QString &text, const QString &o) { s.maxNumSeqs = parseOptionalCount(text, o); },
     [](const Scenario &s) { return optionalCountText(s.maxNumSeqs); }},
    {"--max-num-batched-tokens",
     [](Scenario &s, const QString &text, const QString &o) {
         s.maxNumBatchedTokens = parseOptionalCount(text, o);
     },
     [](const Scenario &s) { return optionalCountText(s.maxNumBatchedTokens); }},
    {"--batch-size",
     [](Scenario &s, const QString &text, const QString &o) { s.batchSize = parsePositive(text, o); },
     [](const Scenario &s) { return QString::number(s.batchSize); }},
    {"--seq-len",
     [](Scenario &s, const QString &text, const QString &o) { s.seqLen = parsePositive(text, o); },
     [](const Scenario &s) { return QString::number(s.seqLen); }},
    {"--prompt-len",
     [](Scenario &s, const QString &text, const QString &o) { s.promptLen = parseOptionalCount(text, o); },
     [](const Scenario &s) { return optionalCountText(s.promptLen); }},
    {"--bandwidth-efficiency",
     [](Scenario &s, const QString &text, const QString &o) {
         s.bandwidthEfficiencyPpm = parseUtilization(text, o);
     },
     [](const Scenario &s) { return formatUtilization(s.bandwidthEfficiencyPpm); }},
    {"--compute-efficiency",
     [](Scenario &s, const QString &text, const QString &o) {
         s.computeEfficiencyPpm = parseUtilization(text, o);
     },
     [](const Scenario &s) { return formatUtilization(s.computeEfficiencyPpm); }},
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

OptionValues differingOptions(const Scenario &base, const Scenario &changed)
{
    OptionValues options;
    for (const OptionField &field : optionFields) {
        if (field.same ? field.same(base, changed) : field.text(base) == field.text(changed))
            continue;
        // No spelling: the option does not apply (a group size without a grouped
        // quantization); the option before it already changed the field.
        const QString text = field.text(changed);
        if (!text.isEmpty())
            options.insert(QLatin1String(field.name), text);
    }
    return options;
}

} // namespace kvscope
