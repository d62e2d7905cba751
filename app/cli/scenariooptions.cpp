// SPDX-License-Identifier: MIT
#include "scenariooptions.h"

#include "common/error.h"
#include "library/library.h"

#include <QRegularExpression>

namespace kvscope::cli {

namespace {

QCommandLineOption option(const char *name, const QString &description, const char *valueName,
                          const QString &defaultValue = {})
{
    QCommandLineOption o(QLatin1String(name), description, QLatin1String(valueName));
    if (!defaultValue.isEmpty())
        o.setDefaultValue(defaultValue);
    return o;
}

QString opt(const char *name)
{
    return QLatin1String(name);
}

} // namespace

std::int64_t parsePositive(const QString &text, const QString &option)
{
    static const QRegularExpression digits(QStringLiteral("^\\s*\\d{1,18}\\s*$"));
    if (!digits.match(text).hasMatch() || text.trimmed().toLongLong() <= 0)
        throw Error(QStringLiteral("%1: must be a positive integer, got '%2'").arg(option, text));
    return text.trimmed().toLongLong();
}

ScenarioOptions::ScenarioOptions()
{
    m_options = {
        option("model",
               QStringLiteral("Preset id, HuggingFace repo id, or a path to a config.json, a model folder "
                              "(config.json + .safetensors, headers measured) or a .gguf file."),
               "model", QStringLiteral("llama-3.1-8b")),
        option("gpu",
               QStringLiteral("GPU preset id (see 'kvscope gpus'), or "
                              "custom:MEMORY_GIB[:BANDWIDTH_GBS[:TFLOPS_BF16]]."),
               "gpu", QStringLiteral("h100-sxm")),
        option("dtype", QStringLiteral("Weights/activations dtype: auto, float32, float16, bfloat16."),
               "dtype", QStringLiteral("auto")),
        option("quantization",
               QStringLiteral("Weight quantization: auto (checkpoint's), none, fp8, int8, awq, "
                              "gptq, bitsandbytes-nf4, mxfp4, compressed-tensors."),
               "method", QStringLiteral("auto")),
        option("group-size",
               QStringLiteral("Group size for awq/gptq/compressed-tensors (default 128; -1 = per "
                              "row)."),
               "n"),
        option("kv-cache-dtype",
               QStringLiteral("KV cache dtype: auto, float16, bfloat16, fp8, fp8_e4m3, fp8_e5m2; "
                              "for GGUF models also llama.cpp's q8_0 and q4_0."),
               "dtype", QStringLiteral("auto")),
        option("gpu-memory-utilization", QStringLiteral("Share of GPU memory vLLM may use, in (0, 1]."),
               "ratio", QStringLiteral("0.9")),
        option("tensor-parallel-size", QStringLiteral("GPUs the model is split over."), "n",
               QStringLiteral("1")),
        option("max-model-len", QStringLiteral("Longest request in tokens (default: the model's context)."),
               "n"),
        option("block-size",
               QStringLiteral("Tokens per KV cache block (vLLM raises it for hybrid recurrent models)."), "n",
               QStringLiteral("16")),
        option("mamba-ssm-cache-dtype",
               QStringLiteral("Dtype of the recurrent (SSM) state of Mamba/DeltaNet layers: auto (the model "
                              "dtype), float32, float16, bfloat16."),
               "dtype", QStringLiteral("auto")),
        option("max-num-seqs",
               QStringLiteral("Scheduler's sequences per step (default: vLLM's for the GPU)."), "n"),
        option("max-num-batched-tokens",
               QStringLiteral("Scheduler's tokens per step (default: vLLM's for the GPU)."), "n"),
        option("batch-size", QStringLiteral("Concurrent sequences held in the KV cache."), "n",
               QStringLiteral("16")),
        option("seq-len", QStringLiteral("Tokens per sequence (prompt + output)."), "n",
               QStringLiteral("8192")),
        option("prompt-len",
               QStringLiteral("Prompt tokens of the prefill (time to first token); default --seq-len."), "n"),
        option("bandwidth-efficiency",
               QStringLiteral("Share of the memory bandwidth a forward pass achieves, in (0, 1]."), "ratio",
               formatUtilization(DefaultBandwidthEfficiencyPpm)),
        option("compute-efficiency",
               QStringLiteral("Share of the dense tensor-core peak a forward pass achieves, in (0, 1]."),
               "ratio", formatUtilization(DefaultComputeEfficiencyPpm)),
    };
}

void ScenarioOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions(m_options);
}

bool ScenarioOptions::anyGiven(const QCommandLineParser &parser) const
{
    for (const QCommandLineOption &o : m_options)
        if (parser.isSet(o))
            return true;
    return false;
}

Scenario ScenarioOptions::scenario(const QCommandLineParser &p) const
{
    Scenario s;
    s.model = resolveModel(p.value(opt("model")));
    s.gpu = resolveGpu(p.value(opt("gpu")));
    s.dtype = parseWeightDtype(p.value(opt("dtype")));
    s.kvCacheDtype = parseKvCacheDtype(p.value(opt("kv-cache-dtype")));

    // Read lower-cased, so an error names the method in lower case.
    s.quantization = parseQuantizationChoice(p.value(opt("quantization")).trimmed().toLower(),
                                             s.model.checkpointQuantization);
    if (p.isSet(opt("group-size"))) {
        bool ok = false;
        const int group = p.value(opt("group-size")).toInt(&ok);
        if (!ok || (group <= 0 && group != -1))
            throw Error(QStringLiteral("--group-size: must be a positive integer or -1, got '%1'")
                            .arg(p.value(opt("group-size"))));
        QuantizationSpec spec = s.quantization.value_or(s.model.checkpointQuantization);
        if (!spec.takesGroupSize())
            throw Error(QStringLiteral("--group-size: applies to awq, gptq and compressed-tensors, not to "
                                       "quantization '%1'")
                            .arg(quantMethodName(spec.method)));
        spec.groupSize = group;
        s.quantization = spec;
    }

    s.gpuMemoryUtilizationPpm = parseUtilization(p.value(opt("gpu-memory-utilization")));
    s.tensorParallelSize = int(std::min<std::int64_t>(
        parsePositive(p.value(opt("tensor-parallel-size")), QStringLiteral("--tensor-parallel-size")),
        1 << 20));
    if (p.isSet(opt("max-model-len")))
        s.maxModelLen = parsePositive(p.value(opt("max-model-len")), QStringLiteral("--max-model-len"));
    s.blockSize = int(std::min<std::int64_t>(
        parsePositive(p.value(opt("block-size")), QStringLiteral("--block-size")), 1 << 20));
    s.mambaSsmCacheDtype =
        parseWeightDtype(p.value(opt("mamba-ssm-cache-dtype")), QStringLiteral("--mamba-ssm-cache-dtype"));
    if (p.isSet(opt("max-num-seqs")))
        s.maxNumSeqs = parsePositive(p.value(opt("max-num-seqs")), QStringLiteral("--max-num-seqs"));
    if (p.isSet(opt("max-num-batched-tokens")))
        s.maxNumBatchedTokens =
            parsePositive(p.value(opt("max-num-batched-tokens")), QStringLiteral("--max-num-batched-tokens"));
    s.batchSize = parsePositive(p.value(opt("batch-size")), QStringLiteral("--batch-size"));
    s.seqLen = parsePositive(p.value(opt("seq-len")), QStringLiteral("--seq-len"));
    if (p.isSet(opt("prompt-len")))
        s.promptLen = parsePositive(p.value(opt("prompt-len")), QStringLiteral("--prompt-len"));
    s.bandwidthEfficiencyPpm =
        parseUtilization(p.value(opt("bandwidth-efficiency")), QStringLiteral("--bandwidth-efficiency"));
    s.computeEfficiencyPpm =
        parseUtilization(p.value(opt("compute-efficiency")), QStringLiteral("--compute-efficiency"));
    return s;
}

} // namespace kvscope::cli
