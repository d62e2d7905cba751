// SPDX-License-Identifier: MIT
#include "plan/servecommand.h"

#include <QRegularExpression>
#include <QStringList>

namespace kvscope {

namespace {

QString quoted(const QString &argument)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    if (safe.match(argument).hasMatch())
        return argument;
    QString text = argument;
    text.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + text + QLatin1Char('\'');
}

/// The model as an engine names it: its HuggingFace repo id, else its path, else its name.
QString modelArgument(const ModelArch &model)
{
    if (!model.hfRepoIds.isEmpty())
        return model.hfRepoIds.first();
    return model.source.isEmpty() ? model.name : model.source;
}

/// --quantization as both engines spell it for a method chosen explicitly; empty for the
/// checkpoint's own (both read quantization_config) and for methods without a flag value.
QString quantizationFlag(const Scenario &s)
{
    if (!s.quantization)
        return {};
    switch (s.quantization->method) {
    case QuantMethod::Fp8:
    case QuantMethod::Awq:
    case QuantMethod::Gptq:
    case QuantMethod::Mxfp4:
    case QuantMethod::CompressedTensors:
        return quantMethodName(s.quantization->method);
    case QuantMethod::BitsAndBytesNf4:
        return QStringLiteral("bitsandbytes");
    case QuantMethod::Int8:
    case QuantMethod::None:
        break;
    }
    return {};
}

QString joined(const QStringList &arguments)
{
    QStringList out;
    for (const QString &argument : arguments)
        out << quoted(argument);
    return out.join(QLatin1Char(' '));
}

} // namespace

QString vllmServeCommand(const Scenario &s)
{
    const Scenario defaults;
    QStringList args = {QStringLiteral("vllm"), QStringLiteral("serve"), modelArgument(s.model)};
    if (s.tensorParallelSize != defaults.tensorParallelSize)
        args << QStringLiteral("--tensor-parallel-size") << QString::number(s.tensorParallelSize);
    if (s.dtype != WeightDtype::Auto)
        args << QStringLiteral("--dtype") << dtypeName(s.dtype);
    if (const QString quantization = quantizationFlag(s); !quantization.isEmpty())
        args << QStringLiteral("--quantization") << quantization;
    if (s.kvCacheDtype != KvCacheDtype::Auto && !isBlockKvType(s.kvCacheDtype))
        args << QStringLiteral("--kv-cache-dtype") << dtypeName(s.kvCacheDtype);
    if (s.gpuMemoryUtilizationPpm != defaults.gpuMemoryUtilizationPpm)
        args << QStringLiteral("--gpu-memory-utilization") << formatUtilization(s.gpuMemoryUtilizationPpm);
    if (s.maxModelLen > 0)
        args << QStringLiteral("--max-model-len") << QString::number(s.maxModelLen);
    if (s.blockSize != defaults.blockSize)
        args << QStringLiteral("--block-size") << QString::number(s.blockSize);
    if (s.maxNumSeqs > 0)
        args << QStringLiteral("--max-num-seqs") << QString::number(s.maxNumSeqs);
    if (s.maxNumBatchedTokens > 0)
        args << QStringLiteral("--max-num-batched-tokens") << QString::number(s.maxNumBatchedTokens);
    if (s.mambaSsmCacheDtype != WeightDtype::Auto)
        args << QStringLiteral("--mamba-ssm-cache-dtype") << dtypeName(s.mambaSsmCacheDtype);
    return joined(args);
}

QString sglangLaunchCommand(const Scenario &s)
{
    QStringList args = {QStringLiteral("python"), QStringLiteral("-m"),
                        QStringLiteral("sglang.launch_server"), QStringLiteral("--model-path"),
                        modelArgument(s.model)};
    if (s.tensorParallelSize > 1)
        args << QStringLiteral("--tp-size") << QString::number(s.tensorParallelSize);
    if (s.dtype != WeightDtype::Auto)
        args << QStringLiteral("--dtype") << dtypeName(s.dtype);
    if (const QString quantization = quantizationFlag(s); !quantization.isEmpty())
        args << QStringLiteral("--quantization") << quantization;
    // SGLang spells its FP8 caches with the format (fp8_e4m3, fp8_e5m2).
    if (s.kvCacheDtype == KvCacheDtype::Fp8 || s.kvCacheDtype == KvCacheDtype::Fp8E4M3)
        args << QStringLiteral("--kv-cache-dtype") << QStringLiteral("fp8_e4m3");
    else if (s.kvCacheDtype == KvCacheDtype::Fp8E5M2)
        args << QStringLiteral("--kv-cache-dtype") << QStringLiteral("fp8_e5m2");
    if (s.maxModelLen > 0)
        args << QStringLiteral("--context-length") << QString::number(s.maxModelLen);
    if (s.maxNumSeqs > 0)
        args << QStringLiteral("--max-running-requests") << QString::number(s.maxNumSeqs);
    if (s.memFractionStaticPpm > 0)
        args << QStringLiteral("--mem-fraction-static") << formatUtilization(s.memFractionStaticPpm);
    return joined(args);
}

QString serveCommand(const Scenario &s)
{
    return s.engine == Engine::Sglang ? sglangLaunchCommand(s) : vllmServeCommand(s);
}

} // namespace kvscope
