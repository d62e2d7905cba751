// SPDX-License-Identifier: MIT
#include "core/engine/gpusupport.h"

#include "core/common/scenariofield.h"
#include "core/gpu/gpuspec.h"
#include "core/gpu/vendor.h"

#include <QCoreApplication>

namespace kvscope {

namespace {

/// One weight format's minimum compute capability per engine: what the loader
/// compares the GPU with before it loads anything (vLLM: "The quantization
/// method … is not supported for the current GPU. Minimum capability: …", in
/// ModelConfig's quantization check, vllm/config). 0: no check kvscope knows of.
struct MethodCapability
{
    QuantMethod method;
    int vllm;
    int sglang;
};

// vLLM: each config's get_min_capability in vllm/model_executor/layers/quantization/:
//   fp8.py Fp8Config 80 (weight-only through Marlin below 8.9, W8A8 from 8.9);
//   awq.py AWQConfig 75 ("The AWQ kernel only supports Turing or newer GPUs";
//     awq_marlin takes over from 8.0); gptq.py GPTQConfig 60;
//   compressed_tensors/schemes/compressed_tensors_w8a8_int8.py 75 ("turing and up");
//   bitsandbytes.py BitsAndBytesConfig 70; mxfp4.py Mxfp4Config 80.
// SGLang: python/sglang/srt/layers/quantization/fp8.py Fp8Config 80, awq.py
// AWQConfig 75; its other formats' checks are not modelled (0).
// compressed-tensors checks depend on the scheme: not modelled.
constexpr MethodCapability methodCapabilities[] = {
    {QuantMethod::None, 0, 0},   {QuantMethod::Fp8, 80, 80},
    {QuantMethod::Int8, 75, 0},  {QuantMethod::Awq, 75, 75},
    {QuantMethod::Gptq, 60, 0},  {QuantMethod::BitsAndBytesNf4, 70, 0},
    {QuantMethod::Mxfp4, 80, 0}, {QuantMethod::CompressedTensors, 0, 0},
};

QString capabilityText(int capability)
{
    return QStringLiteral("%1.%2").arg(capability / 10).arg(capability % 10);
}

/// The least capability at which one of vLLM's attention backends takes an FP8
/// KV cache: FlashInfer from 7.5 (8.0 from vLLM 0.24), Triton only with native
/// FP8 (8.9); below that vLLM stops with "FP8 KV cache is not supported by the
/// Triton attention backend … requires SM89+" (vllm-project/vllm#47549, #47949).
int vllmFp8KvMinimum(const std::optional<EngineVersion> &version)
{
    constexpr EngineVersion flashInferRaisedItsFloor{0, 24, 0};
    return version && *version >= flashInferRaisedItsFloor ? 80 : 75;
}

} // namespace

std::optional<int> capabilityNumber(const QString &computeCapability)
{
    const QStringList parts = computeCapability.trimmed().split(QLatin1Char('.'));
    if (parts.size() != 2)
        return std::nullopt;
    bool majorOk = false;
    bool minorOk = false;
    const int major = parts[0].toInt(&majorOk);
    const int minor = parts[1].toInt(&minorOk);
    if (!majorOk || !minorOk || major < 1 || major > 99 || minor < 0 || minor > 9)
        return std::nullopt;
    return major * 10 + minor;
}

int minimumCapability(Engine engine, QuantMethod method)
{
    for (const MethodCapability &row : methodCapabilities)
        if (row.method == method)
            return engine == Engine::Sglang ? row.sglang : row.vllm;
    return 0;
}

bool hasBfloat16(const GpuSpec &gpu)
{
    const std::optional<int> capability = capabilityNumber(gpu.computeCapability);
    return !capability || *capability >= 80;
}

namespace {

/// vLLM's NVFP4 cache: its kernels are built for SM100 and SM120 only, and they
/// pack whole 16-value groups of a head (csrc/cache_kernels.cu, reshape_and_cache
/// under ENABLE_NVFP4_SM100 / ENABLE_NVFP4_SM120: "NVFP4 KV cache requires
/// head_size to be a multiple of 16.").
QString nvfp4KvRefusal(const GpuSpec &gpu, const std::optional<int> &capability, const GpuCheck &check)
{
    const QString option = optionFlag(ScenarioField::KvCacheDtype);
    if (!capability || (*capability / 10 != 10 && *capability / 10 != 12))
        return QCoreApplication::translate(
                   "kvscope::GpuSupport",
                   "vLLM refuses %1 nvfp4 on the %2: its NVFP4 cache kernels are built "
                   "for Blackwell GPUs (compute capability 10.x and 12.x) only")
            .arg(option, gpu.name);
    if (check.headDim % 16 != 0 || check.vHeadDim % 16 != 0)
        return QCoreApplication::translate("kvscope::GpuSupport",
                                           "vLLM refuses %1 nvfp4 for heads of %2 values: NVFP4 packs whole "
                                           "groups of 16")
            .arg(option, QString::number(check.headDim % 16 != 0 ? check.headDim : check.vHeadDim));
    return {};
}

/// SGLang's FP4 caches (ServerArgs._handle_kv4_compatibility, python/sglang/srt/server_args.py):
/// "--kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120", and either FP4 cache on CUDA only
/// ("KV4 is not tested on non-CUDA platforms").
QString sglangFp4KvRefusal(const GpuSpec &gpu, const std::optional<int> &capability, const GpuCheck &check)
{
    const QString option = optionFlag(ScenarioField::KvCacheDtype, Engine::Sglang);
    if (!takenAsNvidia(gpu))
        return QCoreApplication::translate("kvscope::GpuSupport",
                                           "SGLang refuses %1 %2 on the %3: its FP4 caches run on NVIDIA "
                                           "GPUs only (\"KV4 is not tested on non-CUDA platforms\")")
            .arg(option, dtypeName(check.kvCacheDtype), gpu.name);
    if (check.kvCacheDtype == KvCacheDtype::Nvfp4 &&
        (!capability || (*capability / 10 != 10 && *capability / 10 != 12)))
        return QCoreApplication::translate("kvscope::GpuSupport",
                                           "SGLang refuses %1 nvfp4 on the %2: it requires Blackwell SM100 "
                                           "or SM120 (compute capability 10.x or 12.x); fp4_mx_block16 is "
                                           "its FP4 cache for other NVIDIA GPUs")
            .arg(option, gpu.name);
    return {};
}

} // namespace

QString gpuRefusal(const GpuSpec &gpu, const GpuCheck &check)
{
    const std::optional<int> capability = capabilityNumber(gpu.computeCapability);
    if (check.engine == Engine::Vllm && check.kvCacheDtype == KvCacheDtype::Nvfp4)
        if (QString refusal = nvfp4KvRefusal(gpu, capability, check); !refusal.isEmpty())
            return refusal;
    if (check.engine == Engine::Sglang && isFp4(check.kvCacheDtype))
        if (QString refusal = sglangFp4KvRefusal(gpu, capability, check); !refusal.isEmpty())
            return refusal;
    if (!capability)
        return {};
    const QString engine = engineDisplayName(check.engine);
    const QString has = capabilityText(*capability);
    const int methodMinimum = minimumCapability(check.engine, check.method);
    if (*capability < methodMinimum)
        return QCoreApplication::translate("kvscope::GpuSupport",
                                           "%1 refuses %2 %3 on the %4: its loader needs compute capability "
                                           "%5 or later, the %4 has %6")
            .arg(engine, optionFlag(ScenarioField::Quantization, check.engine), quantMethodName(check.method),
                 gpu.name, capabilityText(methodMinimum), has);
    // vLLM: CudaPlatformBase.check_if_supports_dtype (vllm/platforms/cuda.py):
    // "Bfloat16 is only supported on GPUs with compute capability of at least 8.0".
    if (check.engine == Engine::Vllm && check.requestedDtype == WeightDtype::BFloat16 && *capability < 80)
        return QCoreApplication::translate("kvscope::GpuSupport",
                                           "vLLM refuses %1 bfloat16 on the %2: bfloat16 needs compute "
                                           "capability 8.0 or later, the %2 has %3 (%1 float16 runs)")
            .arg(optionFlag(ScenarioField::Dtype), gpu.name, has);
    const int kvMinimum = vllmFp8KvMinimum(check.vllmVersion);
    if (check.engine == Engine::Vllm && !check.mla && isFp8(check.kvCacheDtype) && *capability < kvMinimum)
        return QCoreApplication::translate(
                   "kvscope::GpuSupport",
                   "vLLM refuses %1 %2 on the %3: no attention backend takes an FP8 KV "
                   "cache below compute capability %4, the %3 has %5")
            .arg(optionFlag(ScenarioField::KvCacheDtype), dtypeName(check.kvCacheDtype), gpu.name,
                 capabilityText(kvMinimum), has);
    return {};
}

} // namespace kvscope
