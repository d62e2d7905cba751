// SPDX-License-Identifier: MIT
#include "core/scenario/scenariovalues.h"

#include "core/common/error.h"
#include "core/common/integertext.h"
#include "core/library/library.h"
#include "core/scenario/scenario.h"

#include <limits>

#include <QRegularExpression>

namespace kvscope {

namespace {

constexpr char Auto[] = "auto";
constexpr char DefaultImageSize[] = "1024x1024"; // Scenario's imageWidth x imageHeight

QString optionalCountText(std::int64_t value)
{
    return value > 0 ? QString::number(value) : QLatin1String(Auto);
}

/// An efficiency override; the calibrated default (0) is left out, as
/// --mem-fraction-static's is: a scenario file holds ratios as numbers.
QString optionalRatioText(std::int64_t ppm)
{
    return ppm > 0 ? formatUtilization(ppm) : QString();
}

void applyGroupSize(Scenario &s, const QString &text, const QString &option)
{
    const QString invalid =
        QStringLiteral("%1: must be a positive integer or -1, got '%2'").arg(option, text);
    const std::int64_t group = parseInteger(text, option, std::numeric_limits<std::int64_t>::min(),
                                            std::numeric_limits<int>::max(), invalid);
    if (group <= 0 && group != -1)
        throw Error(invalid);
    QuantizationSpec spec = s.quantization.value_or(s.model.checkpointQuantization);
    if (!spec.takesGroupSize())
        throw Error(
            QStringLiteral("%1: applies to awq, gptq and compressed-tensors, not to quantization '%2'")
                .arg(option, quantMethodName(spec.method)));
    spec.groupSize = int(group);
    s.quantization = spec;
}

/// Empty where the quantization takes no group size: the option does not apply.
QString groupSizeText(const Scenario &s)
{
    return s.quantization && s.quantization->takesGroupSize() ? QString::number(s.quantization->groupSize)
                                                              : QString();
}

/// Empty under the other engine: the option does not apply there.
QString forEngine(const Scenario &s, Engine engine, const QString &text)
{
    return s.engine == engine ? text : QString();
}

constexpr char SwitchOn[] = "true";
constexpr char SwitchOff[] = "false";

/// A switch's value: "true" (what the command line gives when the flag is present) or "false".
bool parseSwitch(const QString &text, const QString &option)
{
    const QString value = text.trimmed();
    for (const bool on : {true, false})
        if (value.compare(switchText(on), Qt::CaseInsensitive) == 0)
            return on;
    throw Error(QStringLiteral("%1: must be true or false, got '%2'").arg(option, text));
}

/// "auto" (0): --mem-fraction-static's SGLang default for the GPU, the
/// efficiencies' calibrated values (as the command line spells it).
std::int64_t parseOptionalRatio(const QString &text, const QString &option)
{
    if (text.trimmed().compare(QLatin1String(Auto), Qt::CaseInsensitive) == 0)
        return 0;
    return parseUtilization(text, option);
}

using Apply = void (*)(Scenario &s, const QString &text, const QString &option,
                       const ScenarioResolvers &resolve);
using Spell = QString (*)(const Scenario &s);
using Same = bool (*)(const Scenario &a, const Scenario &b);

/// One option: its field and kind, how its text sets the scenario, and how the
/// scenario spells it back (`same` compares a field its spelling does not
/// capture whole; else the spellings are compared).
struct Field
{
    ScenarioOption option;
    Apply apply;
    Spell text;
    Same same = nullptr;
    /// A value scenarioToValues() leaves out, being the engine's default (differingValues() still
    /// writes it when a scenario returns to it).
    const char *omitted = nullptr;
};

// kvscope calc's order, which is also the order they apply in.
const Field fields[] = {
    {{ScenarioField::Model, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &, const ScenarioResolvers &r) {
         s.model = r.model(text);
     },
     [](const Scenario &s) { return s.model.id; },
     [](const Scenario &a, const Scenario &b) {
         return a.model.id == b.model.id && a.model.source == b.model.source;
     }},
    {{ScenarioField::Gpu, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &, const ScenarioResolvers &r) {
         s.gpu = r.gpu(text);
     },
     [](const Scenario &s) { return s.gpu.id; },
     [](const Scenario &a, const Scenario &b) { return a.gpu == b.gpu; }},
    {{ScenarioField::Engine, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &, const ScenarioResolvers &) {
         s.engine = parseEngine(text);
     },
     [](const Scenario &s) { return engineName(s.engine); }},
    // "auto": the newest modelled release. Junk, empty text and releases before 0.10 fail here,
    // naming the option (an empty vllmVersion means the newest only inside a Scenario).
    {{ScenarioField::VllmVersion, OptionKind::Text, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &, const ScenarioResolvers &) {
         const bool newest = text.trimmed().compare(QLatin1String(Auto), Qt::CaseInsensitive) == 0;
         if (!newest)
             parseVllmRelease(text);
         s.vllmVersion = newest ? QString() : text.trimmed();
     },
     [](const Scenario &s) {
         return forEngine(s, Engine::Vllm,
                          s.vllmVersion.isEmpty() ? QString::fromLatin1(Auto) : s.vllmVersion);
     }},
    {{ScenarioField::Dtype, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.dtype = parseWeightDtype(text, o);
     },
     [](const Scenario &s) { return dtypeName(s.dtype); }},
    // Read lower-cased, so an error names the method in lower case.
    {{ScenarioField::Quantization, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.quantization =
             parseQuantizationChoice(text.trimmed().toLower(), s.model.checkpointQuantization, o);
     },
     [](const Scenario &s) { return quantizationChoiceName(s.quantization); }},
    {{ScenarioField::GroupSize, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         applyGroupSize(s, text, o);
     },
     groupSizeText},
    {{ScenarioField::KvCacheDtype, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.kvCacheDtype = parseKvCacheDtype(text, o);
     },
     [](const Scenario &s) { return dtypeName(s.kvCacheDtype); }},
    {{ScenarioField::GpuMemoryUtilization, OptionKind::Ratio, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.gpuMemoryUtilizationPpm = parseOptionalRatio(text, o);
     },
     // vLLM's default for the release (0) is left out, as SGLang's --mem-fraction-static is.
     [](const Scenario &s) {
         return s.gpuMemoryUtilizationPpm > 0
                    ? forEngine(s, Engine::Vllm, formatUtilization(s.gpuMemoryUtilizationPpm))
                    : QString();
     }},
    {{ScenarioField::MemFractionStatic, OptionKind::Ratio, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.memFractionStaticPpm = parseOptionalRatio(text, o);
     },
     // SGLang's default (0) is left out: a scenario file holds ratios as numbers.
     [](const Scenario &s) {
         return s.memFractionStaticPpm > 0
                    ? forEngine(s, Engine::Sglang, formatUtilization(s.memFractionStaticPpm))
                    : QString();
     }},
    {{ScenarioField::SwaFullTokensRatio, OptionKind::Ratio, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.swaFullTokensRatioPpm = parseOptionalRatio(text, o);
     },
     [](const Scenario &s) {
         return s.swaFullTokensRatioPpm > 0
                    ? forEngine(s, Engine::Sglang, formatUtilization(s.swaFullTokensRatioPpm))
                    : QString();
     }},
    {{ScenarioField::TensorParallelSize, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.tensorParallelSize = parsePositive(text, o);
     },
     [](const Scenario &s) { return QString::number(s.tensorParallelSize); }},
    // SGLang's spellings of shared options read as them and are never written: the shared one is.
    {{ScenarioField::TensorParallelSize, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.tensorParallelSize = parsePositive(text, o);
     },
     [](const Scenario &) { return QString(); }},
    {{ScenarioField::PipelineParallelSize, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.pipelineParallelSize = parsePositive(text, o);
     },
     [](const Scenario &s) { return QString::number(s.pipelineParallelSize); },
     nullptr,
     "1"},
    {{ScenarioField::PipelineParallelSize, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.pipelineParallelSize = parsePositive(text, o);
     },
     [](const Scenario &) { return QString(); }},
    {{ScenarioField::DataParallelSize, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.dataParallelSize = parsePositive(text, o);
     },
     [](const Scenario &s) { return QString::number(s.dataParallelSize); },
     nullptr,
     "1"},
    {{ScenarioField::DataParallelSize, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.dataParallelSize = parsePositive(text, o);
     },
     [](const Scenario &) { return QString(); }},
    {{ScenarioField::EnableExpertParallel, OptionKind::Switch, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.enableExpertParallel = parseSwitch(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, switchText(s.enableExpertParallel)); },
     nullptr,
     "false"},
    {{ScenarioField::EnableDpAttention, OptionKind::Switch, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.enableDpAttention = parseSwitch(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Sglang, switchText(s.enableDpAttention)); },
     nullptr,
     "false"},
    {{ScenarioField::EnableDpLmHead, OptionKind::Switch, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.enableDpLmHead = parseSwitch(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Sglang, switchText(s.enableDpLmHead)); },
     nullptr,
     "false"},
    {{ScenarioField::MoeDenseTpSize, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.moeDenseTpSize = parseOptionalCount(text, o); // "auto": SGLang's default, split over --tp-size
     },
     [](const Scenario &s) {
         return s.moeDenseTpSize > 0 ? forEngine(s, Engine::Sglang, QString::number(s.moeDenseTpSize))
                                     : QString();
     }},
    {{ScenarioField::ExpertParallelSize, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.expertParallelSize = parsePositive(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Sglang, QString::number(s.expertParallelSize)); },
     nullptr,
     "1"},
    {{ScenarioField::EnableEplb, OptionKind::Switch, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.enableEplb = parseSwitch(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, switchText(s.enableEplb)); },
     nullptr,
     "false"},
    {{ScenarioField::All2AllBackend, OptionKind::Text, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.all2allBackend = parseAll2AllBackend(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, all2allBackendName(s.all2allBackend)); },
     nullptr,
     "allgather_reducescatter"},
    // vLLM's defaults ("{}") are left out.
    {{ScenarioField::EplbConfig, OptionKind::Text, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.eplb = parseEplbConfig(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, eplbConfigText(s.eplb)); },
     [](const Scenario &a, const Scenario &b) { return a.eplb == b.eplb; }},
    {{ScenarioField::MaxModelLen, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxModelLen = parseHumanReadableCount(text, o);
     },
     [](const Scenario &s) { return optionalCountText(s.maxModelLen); }},
    {{ScenarioField::MaxModelLen, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxModelLen = parseOptionalCount(text, o);
     },
     [](const Scenario &) { return QString(); }},
    {{ScenarioField::BlockSize, OptionKind::Count, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.blockSize = parsePositive(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, QString::number(s.blockSize)); }},
    {{ScenarioField::MambaSsmCacheDtype, OptionKind::Text, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.mambaSsmCacheDtype = parseWeightDtype(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, dtypeName(s.mambaSsmCacheDtype)); }},
    {{ScenarioField::MaxNumSeqs, OptionKind::Count, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxNumSeqs = parseOptionalCount(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, optionalCountText(s.maxNumSeqs)); }},
    // SGLang's name for the same field, and the one an SGLang scenario is written with.
    {{ScenarioField::MaxNumSeqs, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxNumSeqs = parseOptionalCount(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Sglang, optionalCountText(s.maxNumSeqs)); }},
    {{ScenarioField::MaxNumBatchedTokens, OptionKind::Count, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxNumBatchedTokens = parseHumanReadableCount(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, optionalCountText(s.maxNumBatchedTokens)); }},
    {{ScenarioField::KvCacheMemoryBytes, OptionKind::Count, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.kvCacheMemoryBytes = parseHumanReadableCount(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, optionalCountText(s.kvCacheMemoryBytes)); }},
    {{ScenarioField::EnforceEager, OptionKind::Switch, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.enforceEager = parseSwitch(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, switchText(s.enforceEager)); },
     nullptr,
     "false"},
    {{ScenarioField::CompileCache, OptionKind::Text, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.compileCache = parseCompileCache(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, compileCacheName(s.compileCache)); },
     nullptr,
     "cold"},
    {{ScenarioField::MoeMxfp8Activations, OptionKind::Switch, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.moeMxfp8Activations = parseSwitch(text, o);
     },
     [](const Scenario &s) { return forEngine(s, Engine::Vllm, switchText(s.moeMxfp8Activations)); },
     nullptr,
     "false"},
    {{ScenarioField::MaxCudagraphCaptureSize, OptionKind::Count, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxCudagraphCaptureSize = parseOptionalCount(text, o);
     },
     [](const Scenario &s) {
         return forEngine(s, Engine::Vllm, optionalCountText(s.maxCudagraphCaptureSize));
     }},
    // "auto" (0): LoRA off. The rank is written only where LoRA is on.
    {{ScenarioField::MaxLoras, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxLoras = parseOptionalCount(text, o);
     },
     [](const Scenario &s) { return optionalCountText(s.maxLoras); }},
    // SGLang's --max-loras-per-batch reads as --max-loras and is never written: the shared one is.
    {{ScenarioField::MaxLoras, OptionKind::Count, OptionEngine::Sglang},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxLoras = parseOptionalCount(text, o);
     },
     [](const Scenario &) { return QString(); }},
    {{ScenarioField::MaxLoraRank, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxLoraRank = parsePositive(text, o);
     },
     [](const Scenario &s) { return s.maxLoras > 0 ? QString::number(s.maxLoraRank) : QString(); },
     [](const Scenario &a, const Scenario &b) { return a.maxLoraRank == b.maxLoraRank; }},
    // vLLM's LoRA dtype and host-memory adapters, written only where LoRA is on and they are set.
    {{ScenarioField::LoraDtype, OptionKind::Text, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.loraDtype = parseWeightDtype(text, o);
     },
     [](const Scenario &s) {
         return s.maxLoras > 0 && s.loraDtype != WeightDtype::Auto
                    ? forEngine(s, Engine::Vllm, dtypeName(s.loraDtype))
                    : QString();
     }},
    {{ScenarioField::MaxCpuLoras, OptionKind::Count, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.maxCpuLoras = parseOptionalCount(text, o);
     },
     [](const Scenario &s) {
         return s.maxLoras > 0 && s.maxCpuLoras > 0
                    ? forEngine(s, Engine::Vllm, QString::number(s.maxCpuLoras))
                    : QString();
     }},
    {{ScenarioField::FullyShardedLoras, OptionKind::Switch, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.fullyShardedLoras = parseSwitch(text, o);
     },
     [](const Scenario &s) {
         return s.maxLoras > 0 && s.fullyShardedLoras ? forEngine(s, Engine::Vllm, switchText(true))
                                                      : QString();
     }},
    // Comma- or space-separated on kvscope's command line and in files; written where LoRA is on.
    {{ScenarioField::LoraTargetModules, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &, const ScenarioResolvers &) {
         s.loraTargetModules = text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
     },
     [](const Scenario &s) {
         return s.maxLoras > 0 ? s.loraTargetModules.join(QLatin1Char(',')) : QString();
     }},
    // 0 (no offloading) is left out; the backend only where offloading is on.
    {{ScenarioField::KvOffloadingSize, OptionKind::Number, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.kvOffloadingMilliGiB = parseOffloadingSize(text, o);
     },
     [](const Scenario &s) {
         return s.kvOffloadingMilliGiB > 0
                    ? forEngine(s, Engine::Vllm, formatThousandths(s.kvOffloadingMilliGiB))
                    : QString();
     }},
    {{ScenarioField::KvOffloadingBackend, OptionKind::Text, OptionEngine::Vllm},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.kvOffloadingBackend = parseKvOffloadingBackend(text, o);
     },
     [](const Scenario &s) {
         return s.kvOffloadingMilliGiB > 0
                    ? forEngine(s, Engine::Vllm, kvOffloadingBackendName(s.kvOffloadingBackend))
                    : QString();
     },
     [](const Scenario &a, const Scenario &b) { return a.kvOffloadingBackend == b.kvOffloadingBackend; }},
    // Off ("none") is left out; the rate only where speculative decoding is on. vLLM's JSON names
    // SGLang's drafter too (its launch line spells it in SGLang's --speculative-* flags).
    {{ScenarioField::SpeculativeConfig, OptionKind::Text, OptionEngine::Any},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &r) {
         s.speculative = parseSpeculativeConfig(text, o, r.draft ? r.draft : resolveDraftModel);
     },
     [](const Scenario &s) {
         return s.speculative.enabled() ? speculativeConfigText(s.speculative) : QStringLiteral("none");
     },
     nullptr,
     "none"},
    {{ScenarioField::DraftAcceptanceRate, OptionKind::Ratio, OptionEngine::Any},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.draftAcceptancePpm = parseOptionalRatio(text, o);
     },
     [](const Scenario &s) {
         return s.speculative.enabled() ? optionalRatioText(s.draftAcceptancePpm) : QString();
     },
     [](const Scenario &a, const Scenario &b) { return a.draftAcceptancePpm == b.draftAcceptancePpm; }},
    {{ScenarioField::BatchSize, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.batchSize = parsePositive(text, o);
     },
     [](const Scenario &s) { return QString::number(s.batchSize); }},
    {{ScenarioField::SeqLen, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.seqLen = parsePositive(text, o);
     },
     [](const Scenario &s) { return QString::number(s.seqLen); }},
    {{ScenarioField::PromptLen, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.promptLen = parseOptionalCount(text, o);
     },
     [](const Scenario &s) { return optionalCountText(s.promptLen); }},
    {{ScenarioField::SharedPrefixLen, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.sharedPrefixLen = parseOptionalCount(text, o);
     },
     [](const Scenario &s) { return optionalCountText(s.sharedPrefixLen); }},
    // 0 (text only) reads "auto" like the other optional counts; both left out at their defaults.
    {{ScenarioField::ImagesPerRequest, OptionKind::Count},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.imagesPerRequest = parseOptionalCount(text, o);
     },
     [](const Scenario &s) { return optionalCountText(s.imagesPerRequest); },
     nullptr,
     Auto},
    {{ScenarioField::ImageSize, OptionKind::Text},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         parseImageSize(text, o, s.imageWidth, s.imageHeight);
     },
     [](const Scenario &s) { return formatImageSize(s.imageWidth, s.imageHeight); },
     [](const Scenario &a, const Scenario &b) {
         return a.imageWidth == b.imageWidth && a.imageHeight == b.imageHeight;
     },
     DefaultImageSize},
    // 0 (a closed loop) is left out, as the defaults of the other optional numbers are.
    {{ScenarioField::RequestRate, OptionKind::Number},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.requestRateMilli = parseRequestRate(text, o);
     },
     [](const Scenario &s) {
         return s.requestRateMilli > 0 ? formatRequestRate(s.requestRateMilli) : QString();
     }},
    {{ScenarioField::BandwidthEfficiency, OptionKind::Ratio},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.bandwidthEfficiencyPpm = parseOptionalRatio(text, o);
     },
     [](const Scenario &s) { return optionalRatioText(s.bandwidthEfficiencyPpm); }},
    {{ScenarioField::ComputeEfficiency, OptionKind::Ratio},
     [](Scenario &s, const QString &text, const QString &o, const ScenarioResolvers &) {
         s.computeEfficiencyPpm = parseOptionalRatio(text, o);
     },
     [](const Scenario &s) { return optionalRatioText(s.computeEfficiencyPpm); }},
};

/// A vLLM-only option under SGLang or the reverse is an error naming both; so is an
/// SGLang spelling that contradicts the shared option given beside it.
void checkEngine(const ScenarioOption &option, Engine engine, const QString &value,
                 const ScenarioValues &values)
{
    if (option.engine != OptionEngine::Any &&
        (option.engine == OptionEngine::Sglang) != (engine == Engine::Sglang))
        throw Error(QStringLiteral("%1: is a %2 option; it does not apply with %3 %4 (got '%5')")
                        .arg(option.flag(),
                             option.engine == OptionEngine::Sglang ? QStringLiteral("SGLang")
                                                                   : QStringLiteral("vLLM"),
                             optionFlag(ScenarioField::Engine), engineName(engine), value));
    if (!option.isSglangSpelling())
        return;
    const auto shared = values.constFind(fileKey(option.field));
    if (shared != values.cend() && shared.value() != value)
        throw Error(QStringLiteral("%1: '%2' contradicts %3 '%4' (the same setting); give one")
                        .arg(option.flag(), value, optionFlag(option.field), shared.value()));
}

} // namespace

QString switchText(bool on)
{
    return QLatin1String(on ? SwitchOn : SwitchOff);
}

const QList<ScenarioOption> &scenarioOptions()
{
    static const QList<ScenarioOption> options = [] {
        QList<ScenarioOption> list;
        for (const Field &field : fields)
            list << field.option;
        return list;
    }();
    return options;
}

QString ScenarioOption::name() const
{
    return engine == OptionEngine::Sglang ? sglangKey(field) : fileKey(field);
}

QString ScenarioOption::flag() const
{
    return engine == OptionEngine::Sglang ? sglangFlag(field) : optionFlag(field);
}

const ScenarioOption *findScenarioOption(const QString &name)
{
    for (const ScenarioOption &option : scenarioOptions())
        if (name == option.name())
            return &option;
    return nullptr;
}

ScenarioResolvers builtinResolvers()
{
    return {resolveModel, resolveGpu, resolveDraftModel};
}

Scenario applyValues(const Scenario &base, const ScenarioValues &values, const ScenarioResolvers &resolve,
                     const OptionLabel &label)
{
    const auto name = [&](const ScenarioOption &option) { return label ? label(option) : option.flag(); };
    const auto engineIt = values.constFind(fileKey(ScenarioField::Engine));
    const Engine engine = engineIt != values.cend() ? parseEngine(engineIt.value()) : base.engine;
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        const ScenarioOption *option = findScenarioOption(it.key());
        if (!option)
            throw Error(QStringLiteral("%1: unknown option").arg(flagForKey(it.key())));
        checkEngine(*option, engine, it.value(), values);
    }
    Scenario s = base;
    for (const Field &field : fields) {
        const auto it = values.constFind(field.option.name());
        if (it != values.cend())
            field.apply(s, it.value(), name(field.option), resolve);
    }
    return s;
}

Scenario scenarioFromValues(const ScenarioValues &values, const ScenarioResolvers &resolve,
                            const OptionLabel &label)
{
    for (const ScenarioField required : {ScenarioField::Model, ScenarioField::Gpu})
        if (!values.contains(fileKey(required)))
            throw Error(QStringLiteral("%1: not given").arg(optionFlag(required)));
    return applyValues(Scenario{}, values, resolve, label);
}

ScenarioValues scenarioToValues(const Scenario &s)
{
    ScenarioValues values;
    for (const Field &field : fields) {
        const QString text = field.text(s);
        // Left out: an option that does not apply, and an optional count at its default.
        if (text.isEmpty() || (field.option.kind == OptionKind::Count && text == QLatin1String(Auto)) ||
            (field.omitted && text == QLatin1String(field.omitted)))
            continue;
        values.insert(field.option.name(), text);
    }
    return values;
}

ScenarioValues differingValues(const Scenario &base, const Scenario &changed)
{
    ScenarioValues values;
    for (const Field &field : fields) {
        if (field.same ? field.same(base, changed) : field.text(base) == field.text(changed))
            continue;
        // No spelling: the option does not apply (a group size without a grouped
        // quantization); the option before it already changed the field.
        const QString text = field.text(changed);
        if (!text.isEmpty())
            values.insert(field.option.name(), text);
    }
    return values;
}

QStringList calcArguments(const ScenarioValues &values)
{
    QStringList arguments;
    for (const ScenarioOption &option : scenarioOptions())
        if (values.contains(option.name())) {
            if (option.kind != OptionKind::Switch)
                arguments << option.flag() << values.value(option.name());
            else if (parseSwitch(values.value(option.name()), option.flag()))
                arguments << option.flag(); // a flag without a value, off when absent
        }
    return arguments;
}

} // namespace kvscope
