// SPDX-License-Identifier: MIT
#include "core/scenario/launchline.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/engine/runtime.h"
#include "core/scenario/scenario.h"

#include <optional>

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

namespace kvscope {

/// The translation context of the launch line's caveats (lupdate reads LaunchCaveats::tr).
class LaunchCaveats
{
    Q_DECLARE_TR_FUNCTIONS(kvscope::LaunchCaveats)
};

namespace {

/// The model as the engines name it: a repo id, a folder or a .gguf file.
QString modelArgument(const ModelArch &model, Engine engine, QStringList &caveats)
{
    if (!model.hfRepoIds.isEmpty())
        return model.hfRepoIds.first();
    const QFileInfo source(model.source);
    if (!model.source.isEmpty() && source.exists()) {
        if (model.format == ModelFormat::Gguf && engine == Engine::Vllm)
            caveats << LaunchCaveats::tr(
                           "vLLM reads GGUF files experimentally; add %1 with the original model's repo id")
                           .arg(serverFlag(ServerOption::VllmTokenizer));
        // A config.json stands for the folder that holds it and the weights.
        return source.isFile() && model.format != ModelFormat::Gguf ? source.absolutePath()
                                                                    : source.absoluteFilePath();
    }
    caveats
        << LaunchCaveats::tr("%1 has no HuggingFace repo id or folder; replace it with one").arg(model.name);
    return model.name;
}

/// The weight format the served checkpoint must already be stored in: the engines load AWQ,
/// GPTQ, INT8 and MXFP4 weights as stored and quantize only a 16-bit checkpoint to FP8 and
/// bitsandbytes while loading (a checkpoint stored otherwise is refused with another --quantization:
/// ModelConfig._verify_quantization, vllm/config/model.py). nullopt when the model's own checkpoint serves.
std::optional<QuantMethod> storedFormatNeeded(const Scenario &s)
{
    if (!s.quantization)
        return std::nullopt;
    const QuantMethod chosen = s.quantization->method;
    const QuantMethod stored = s.model.checkpointQuantization.method;
    if (chosen == stored || (quantizesWhileLoading(chosen) && stored == QuantMethod::None))
        return std::nullopt;
    return chosen;
}

/// The model argument: the model itself, or, where the format needs a checkpoint stored that
/// way, a placeholder for one (never a 16-bit repository with a flag it cannot load).
QString servedModel(const Scenario &s, Engine engine, QStringList &caveats)
{
    QString model = modelArgument(s.model, engine, caveats);
    const std::optional<QuantMethod> stored = storedFormatNeeded(s);
    if (!stored)
        return model;
    const QString method = quantMethodName(*stored);
    const QuantMethod checkpoint = s.model.checkpointQuantization.method;
    if (checkpoint != QuantMethod::None)
        caveats << LaunchCaveats::tr(
                       "%1 is stored as %3, which the engine does not convert to %2: replace the "
                       "placeholder with a checkpoint of the model stored as %2")
                       .arg(model, method, quantMethodName(checkpoint));
    else
        caveats << LaunchCaveats::tr(
                       "%1 is not stored as %2 and the engine does not quantize to %2 while "
                       "loading: replace the placeholder with a checkpoint of the model stored as %2")
                       .arg(model, method);
    return LaunchCaveats::tr("<%1 checkpoint of %2>").arg(method, model);
}

/// --quantization as vLLM (and SGLang) spell it; a method missing here has no such value.
const EnumSpelling<QuantMethod> quantizationFlags[] = {
    {QuantMethod::Fp8, "fp8"},     {QuantMethod::Awq, "awq"},
    {QuantMethod::Gptq, "gptq"},   {QuantMethod::BitsAndBytesNf4, "bitsandbytes"},
    {QuantMethod::Mxfp4, "mxfp4"}, {QuantMethod::CompressedTensors, "compressed-tensors"},
};

/// The method's --quantization value, or empty when there is no such value.
QString quantizationFlag(QuantMethod method)
{
    return enumName(quantizationFlags, method);
}

void addQuantization(const Scenario &s, QStringList &arguments, QStringList &caveats)
{
    if (!s.quantization)
        return; // auto: vLLM reads the checkpoint's quantization_config, as kvscope does
    const QuantizationSpec &chosen = *s.quantization;
    const QuantizationSpec &checkpoint = s.model.checkpointQuantization;
    if (chosen.method == QuantMethod::None) {
        if (checkpoint.method != QuantMethod::None)
            caveats << LaunchCaveats::tr("vLLM has no %1 none: serve an unquantized checkpoint of the model")
                           .arg(optionFlag(ScenarioField::Quantization));
        return;
    }
    const QString name = quantizationFlag(chosen.method);
    if (name.isEmpty()) {
        caveats << LaunchCaveats::tr(
                       "vLLM has no %2 %1: it loads such weights from a checkpoint stored that way "
                       "(compressed-tensors)")
                       .arg(quantMethodName(chosen.method), optionFlag(ScenarioField::Quantization));
        return;
    }
    arguments << optionFlag(ScenarioField::Quantization) << name;
    // What the flag reads back as: the checkpoint's own spec, or the method's defaults.
    if (parseQuantizationChoice(quantMethodName(chosen.method), checkpoint) != chosen)
        caveats << LaunchCaveats::tr(
            "the group size and scale layout come from the checkpoint's quantization_config, "
            "not from a flag");
}

void addKvCacheDtype(const Scenario &s, QStringList &arguments, QStringList &caveats)
{
    switch (s.kvCacheDtype) {
    case KvCacheDtype::Auto:
        return;
    case KvCacheDtype::Float32:
        caveats << LaunchCaveats::tr(
                       "vLLM's %1 has no float32: the cache is float32 only with %2 float32 and %1 auto")
                       .arg(optionFlag(ScenarioField::KvCacheDtype), optionFlag(ScenarioField::Dtype));
        return;
    case KvCacheDtype::Q8_0:
    case KvCacheDtype::Q4_0:
        caveats << LaunchCaveats::tr("%1 is a llama.cpp cache type (llama-server %2/-v), not a vLLM one")
                       .arg(dtypeName(s.kvCacheDtype), serverFlag(ServerOption::LlamaCppCacheTypeK));
        return;
    default:
        arguments << optionFlag(ScenarioField::KvCacheDtype) << dtypeName(s.kvCacheDtype);
    }
}

} // namespace

QString shellQuote(const QString &argument)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    if (safe.match(argument).hasMatch())
        return argument;
    if (argument.isEmpty())
        return QStringLiteral("''");
    // Printable runs in single quotes ('\'' for a quote); a run of characters a terminal would
    // act on as $'\x1b' (printableText's escapes), which the shell reads back as those characters.
    QString quoted;
    qsizetype start = 0;
    while (start < argument.size()) {
        const bool printable = isPrintable(argument.at(start));
        qsizetype end = start + 1;
        while (end < argument.size() && isPrintable(argument.at(end)) == printable)
            ++end;
        const QString run = argument.mid(start, end - start);
        if (printable)
            quoted += QLatin1Char('\'') + QString(run).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                      QLatin1Char('\'');
        else
            quoted += QStringLiteral("$'") + printableText(run) + QLatin1Char('\'');
        start = end;
    }
    return quoted;
}

QString LaunchLine::command() const
{
    QStringList quoted = environment;
    for (const QString &argument : arguments)
        quoted << shellQuote(argument);
    return quoted.join(QLatin1Char(' '));
}

QString LaunchLine::text() const
{
    QString text = command() + QLatin1Char('\n');
    for (const QString &caveat : caveats)
        text += QStringLiteral("# %1\n").arg(printableText(caveat));
    return text;
}

namespace {

LaunchLine vllmLaunchLine(const Scenario &s)
{
    const Scenario vllmDefaults; // a Scenario's defaults are vLLM's
    LaunchLine line;
    QStringList &args = line.arguments;
    args << QStringLiteral("vllm") << QStringLiteral("serve") << servedModel(s, Engine::Vllm, line.caveats);
    if (s.tensorParallelSize != vllmDefaults.tensorParallelSize)
        args << optionFlag(ScenarioField::TensorParallelSize) << QString::number(s.tensorParallelSize);
    if (s.pipelineParallelSize != vllmDefaults.pipelineParallelSize)
        args << optionFlag(ScenarioField::PipelineParallelSize) << QString::number(s.pipelineParallelSize);
    if (s.dataParallelSize != vllmDefaults.dataParallelSize)
        args << optionFlag(ScenarioField::DataParallelSize) << QString::number(s.dataParallelSize);
    if (s.enableExpertParallel)
        args << optionFlag(ScenarioField::EnableExpertParallel);
    if (s.enableEplb)
        args << optionFlag(ScenarioField::EnableEplb);
    if (const QString eplb = eplbConfigText(s.eplb); !eplb.isEmpty())
        args << optionFlag(ScenarioField::EplbConfig) << eplb;
    if (s.all2allBackend != vllmDefaults.all2allBackend) {
        args << optionFlag(ScenarioField::All2AllBackend) << all2allBackendName(s.all2allBackend);
        // vllm-project/vllm#26732 (in 0.11.1) turned the environment variable into the flag.
        const std::optional<EngineVersion> release = parseEngineVersion(s.vllmVersion);
        if (release && *release < EngineVersion{0, 11, 1})
            line.caveats << LaunchCaveats::tr("vLLM %1 takes the all-to-all backend from the environment "
                                              "(VLLM_ALL2ALL_BACKEND=%2), not from %3, which came in 0.11.1")
                                .arg(release->text(), all2allBackendName(s.all2allBackend),
                                     optionFlag(ScenarioField::All2AllBackend));
    }
    if (s.dtype != WeightDtype::Auto)
        args << optionFlag(ScenarioField::Dtype) << dtypeName(s.dtype);
    if (s.maxLoras > 0)
        args << serverFlag(ServerOption::VllmEnableLora) << optionFlag(ScenarioField::MaxLoras)
             << QString::number(s.maxLoras) << optionFlag(ScenarioField::MaxLoraRank)
             << QString::number(s.maxLoraRank);
    if (s.maxLoras > 0 && s.loraDtype != WeightDtype::Auto)
        args << optionFlag(ScenarioField::LoraDtype) << dtypeName(s.loraDtype);
    if (s.maxLoras > 0 && s.maxCpuLoras > 0)
        args << optionFlag(ScenarioField::MaxCpuLoras) << QString::number(s.maxCpuLoras);
    if (s.maxLoras > 0 && s.fullyShardedLoras)
        args << optionFlag(ScenarioField::FullyShardedLoras);
    if (s.maxLoras > 0 && !s.loraTargetModules.isEmpty())
        args << optionFlag(ScenarioField::LoraTargetModules) << s.loraTargetModules;
    if (s.kvOffloadingMilliGiB > 0)
        args << optionFlag(ScenarioField::KvOffloadingSize) << formatThousandths(s.kvOffloadingMilliGiB)
             << optionFlag(ScenarioField::KvOffloadingBackend)
             << kvOffloadingBackendName(s.kvOffloadingBackend);
    if (s.kvCacheMemoryBytes > 0)
        args << optionFlag(ScenarioField::KvCacheMemoryBytes) << QString::number(s.kvCacheMemoryBytes);
    if (s.speculative.enabled())
        args << optionFlag(ScenarioField::SpeculativeConfig) << speculativeConfigText(s.speculative);
    addQuantization(s, args, line.caveats);
    addKvCacheDtype(s, args, line.caveats);
    if (s.gpuMemoryUtilizationPpm > 0) // given: the release's default differs (0.9, 0.92 from 0.21)
        args << optionFlag(ScenarioField::GpuMemoryUtilization)
             << formatUtilization(s.gpuMemoryUtilizationPpm);
    if (s.maxModelLen > 0)
        args << optionFlag(ScenarioField::MaxModelLen) << QString::number(s.maxModelLen);
    if (s.blockSize != vllmDefaults.blockSize)
        args << optionFlag(ScenarioField::BlockSize) << QString::number(s.blockSize);
    if (s.maxNumSeqs > 0)
        args << optionFlag(ScenarioField::MaxNumSeqs) << QString::number(s.maxNumSeqs);
    if (s.maxNumBatchedTokens > 0)
        args << optionFlag(ScenarioField::MaxNumBatchedTokens) << QString::number(s.maxNumBatchedTokens);
    // vLLM reads it from the environment (vllm/envs.py); --moe-backend (vllm-project/vllm#33807) came
    // later and names the kernels otherwise, where the variable still chooses it.
    if (s.moeMxfp8Activations)
        line.environment << QStringLiteral("VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1");
    if (s.enforceEager)
        args << optionFlag(ScenarioField::EnforceEager);
    else if (s.maxCudagraphCaptureSize > 0)
        args << optionFlag(ScenarioField::MaxCudagraphCaptureSize)
             << QString::number(s.maxCudagraphCaptureSize);
    if (s.mambaSsmCacheDtype != WeightDtype::Auto)
        args << optionFlag(ScenarioField::MambaSsmCacheDtype) << dtypeName(s.mambaSsmCacheDtype);
    if (s.imagesPerRequest > VllmDefaultImagesPerPrompt) // vLLM rejects more images than the limit
        args << serverFlag(ServerOption::VllmLimitMmPerPrompt)
             << QStringLiteral("{\"image\": %1}").arg(s.imagesPerRequest);
    return line;
}

/// SGLang's server_args spellings (python/sglang/srt/server_args.py): --tp-size,
/// --context-length, --max-running-requests, --mem-fraction-static, and its FP8 cache names.
LaunchLine sglangLaunchLine(const Scenario &s)
{
    LaunchLine line;
    QStringList &args = line.arguments;
    args << QStringLiteral("python") << QStringLiteral("-m") << QStringLiteral("sglang.launch_server")
         << optionFlag(ScenarioField::Model, Engine::Sglang) << servedModel(s, Engine::Sglang, line.caveats);
    if (s.tensorParallelSize > 1)
        args << optionFlag(ScenarioField::TensorParallelSize, Engine::Sglang)
             << QString::number(s.tensorParallelSize);
    if (s.enableDpAttention && s.dataParallelSize > 1)
        args << optionFlag(ScenarioField::DataParallelSize, Engine::Sglang)
             << QString::number(s.dataParallelSize) << optionFlag(ScenarioField::EnableDpAttention);
    if (s.enableDpLmHead && s.enableDpAttention && s.dataParallelSize > 1)
        args << optionFlag(ScenarioField::EnableDpLmHead);
    if (s.moeDenseTpSize > 0)
        args << optionFlag(ScenarioField::MoeDenseTpSize) << QString::number(s.moeDenseTpSize);
    if (s.expertParallelSize > 1)
        args << optionFlag(ScenarioField::ExpertParallelSize, Engine::Sglang)
             << QString::number(s.expertParallelSize);
    if (s.dtype != WeightDtype::Auto)
        args << optionFlag(ScenarioField::Dtype, Engine::Sglang) << dtypeName(s.dtype);
    if (s.quantization && s.quantization->method != QuantMethod::None) {
        const QString name = quantizationFlag(s.quantization->method);
        if (name.isEmpty())
            line.caveats << LaunchCaveats::tr("SGLang has no %2 %1: serve a checkpoint stored that way")
                                .arg(quantMethodName(s.quantization->method),
                                     optionFlag(ScenarioField::Quantization, Engine::Sglang));
        else
            args << optionFlag(ScenarioField::Quantization, Engine::Sglang) << name;
    }
    switch (s.kvCacheDtype) {
    case KvCacheDtype::Auto:
        break;
    case KvCacheDtype::Fp8:
    case KvCacheDtype::Fp8E4M3:
        args << optionFlag(ScenarioField::KvCacheDtype, Engine::Sglang) << QStringLiteral("fp8_e4m3");
        break;
    case KvCacheDtype::Fp8E5M2:
        args << optionFlag(ScenarioField::KvCacheDtype, Engine::Sglang) << QStringLiteral("fp8_e5m2");
        break;
    case KvCacheDtype::Nvfp4:
    case KvCacheDtype::Fp4MxBlock16:
        args << optionFlag(ScenarioField::KvCacheDtype, Engine::Sglang) << dtypeName(s.kvCacheDtype);
        break;
    default:
        line.caveats << LaunchCaveats::tr("SGLang's %2 has no %1: its cache takes the model's dtype (auto), "
                                          "an FP8 or an FP4 format")
                            .arg(dtypeName(s.kvCacheDtype),
                                 optionFlag(ScenarioField::KvCacheDtype, Engine::Sglang));
    }
    if (s.maxModelLen > 0)
        args << optionFlag(ScenarioField::MaxModelLen, Engine::Sglang) << QString::number(s.maxModelLen);
    if (s.maxNumSeqs > 0)
        args << optionFlag(ScenarioField::MaxNumSeqs, Engine::Sglang) << QString::number(s.maxNumSeqs);
    if (s.memFractionStaticPpm > 0)
        args << optionFlag(ScenarioField::MemFractionStatic, Engine::Sglang)
             << formatUtilization(s.memFractionStaticPpm);
    if (s.swaFullTokensRatioPpm > 0)
        args << optionFlag(ScenarioField::SwaFullTokensRatio, Engine::Sglang)
             << formatUtilization(s.swaFullTokensRatioPpm);
    // Without --lora-paths SGLang sizes its pool from the rank and the target modules it is given: the
    // projections kvscope sizes (the default "all" would add the embedding and lm_head).
    if (s.maxLoras > 0)
        args << serverFlag(ServerOption::SglangEnableLora)
             << optionFlag(ScenarioField::MaxLoras, Engine::Sglang) << QString::number(s.maxLoras)
             << optionFlag(ScenarioField::MaxLoraRank, Engine::Sglang) << QString::number(s.maxLoraRank)
             << serverFlag(ServerOption::SglangLoraTargetModules)
             << (s.loraTargetModules.isEmpty()
                     ? QStringList{QStringLiteral("q_proj"), QStringLiteral("k_proj"),
                                   QStringLiteral("v_proj"), QStringLiteral("o_proj"),
                                   QStringLiteral("gate_proj"), QStringLiteral("up_proj"),
                                   QStringLiteral("down_proj")}
                     : s.loraTargetModules);
    if (s.speculative.enabled()) {
        // A chain of k drafts: k draft passes of one branch, k + 1 tokens verified.
        const std::int64_t k = s.speculative.numSpeculativeTokens;
        args << serverFlag(ServerOption::SglangSpeculativeAlgorithm)
             << sglangSpeculativeAlgorithm(s.speculative.method);
        if (!s.speculative.model.isEmpty())
            args << serverFlag(ServerOption::SglangSpeculativeDraftModel) << s.speculative.model;
        // NGRAM drafts a tree of up to --speculative-num-draft-tokens nodes from its corpus; its steps
        // and top-k are its own (_handle_ngram).
        if (s.speculative.method != SpeculativeMethod::Ngram)
            args << serverFlag(ServerOption::SglangSpeculativeNumSteps) << QString::number(k)
                 << serverFlag(ServerOption::SglangSpeculativeEagleTopk) << QStringLiteral("1");
        args << serverFlag(ServerOption::SglangSpeculativeDraftTokens) << QString::number(k + 1);
    }
    return line;
}

} // namespace

LaunchLine launchLine(const Scenario &s)
{
    return s.engine == Engine::Sglang ? sglangLaunchLine(s) : vllmLaunchLine(s);
}

} // namespace kvscope
