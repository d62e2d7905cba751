// SPDX-License-Identifier: MIT
#include "core/plan/speed.h"

#include "core/common/checked.h"
#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/engine.h"
#include "core/engine/runtime.h"
#include "core/gpu/gpuspec.h"
#include "core/gpu/vendor.h"
#include "core/library/library.h"
#include "core/model/inventory.h"
#include "core/model/visiontower.h"
#include "core/plan/all2all.h"
#include "core/plan/expertparallel.h"
#include "core/plan/imageworkload.h"
#include "core/plan/kvcache.h"
#include "core/plan/speculativedecoding.h"
#include "core/plan/speedconstants.h"
#include "core/plan/vllmrules.h"
#include "core/plan/weights.h"
#include "core/scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <QCoreApplication>

namespace kvscope {

namespace {

/// The peak that multiplies the quantized linear layers, and how it was chosen.
struct ComputePath
{
    ComputeFormat format = ComputeFormat::BFloat16;
    bool weightOnly = false;
    std::optional<double> tflops;
    QString note;
};

ComputeFormat sixteenBitFormat(WeightDtype dtype)
{
    switch (dtype) {
    case WeightDtype::Float16:
        return ComputeFormat::Float16;
    case WeightDtype::Float32:
        return ComputeFormat::Float32;
    case WeightDtype::Auto:
    case WeightDtype::BFloat16:
        break;
    }
    return ComputeFormat::BFloat16;
}

std::optional<double> peakOf(const GpuSpec &gpu, ComputeFormat format)
{
    switch (format) {
    case ComputeFormat::Float32:
        return std::nullopt; // presets list tensor-core peaks only
    case ComputeFormat::Float16:
        return gpu.tflopsFp16;
    case ComputeFormat::BFloat16:
        return gpu.tflopsBf16;
    case ComputeFormat::Fp8:
        return gpu.tflopsFp8;
    case ComputeFormat::Int8:
        return gpu.tflopsInt8;
    case ComputeFormat::Fp4:
        return gpu.tflopsFp4;
    }
    return std::nullopt;
}

bool positive(std::optional<double> value)
{
    return value && *value > 0;
}

/// The GPU whose vector rate stands in for a GPU that lists none: of the GPUs the weight-only costs
/// are calibrated on (A100, H100), the one with the fewest vector operations per byte it reads,
/// so dequantization is priced at its most.
const QLatin1String VectorRateStandIn("a100-80gb");

/// How long the vector units take for one operation per byte read, per second of reading: bandwidth
/// over the FP32 vector rate (0.10 on an A100, 0.05 on an H100 SXM, 0.012 on an RTX 4090).
double vectorOperationShare(const GpuSpec &gpu)
{
    return gpu.bandwidthGBs * 1e9 / (*gpu.tflopsFp32Vector * 1e12);
}

/// Which tensor cores multiply the quantized weights. W8A8 schemes quantize
/// the activations too and use the 8-bit peak where the GPU has it; every
/// other scheme (and W8A8 on a GPU without those tensor cores) dequantizes
/// weights to --dtype inside the kernel: weight-only, at the 16-bit peak.
ComputePath computePath(const GpuSpec &gpu, const QuantizationSpec &q, WeightDtype dtype, bool moeMxfp8)
{
    const ComputeFormat sixteen = sixteenBitFormat(dtype);
    ComputePath weightOnly{sixteen, q.method != QuantMethod::None, peakOf(gpu, sixteen), {}};
    const auto native = [&](ComputeFormat format, bool supported, const QString &what) {
        if (supported && positive(peakOf(gpu, format)))
            return ComputePath{format, false, peakOf(gpu, format), {}};
        ComputePath path = weightOnly;
        path.note =
            QCoreApplication::translate(
                "kvscope::Planner", "speed: %1 has no %2 tensor-core peak; %3 weights are dequantized and "
                                    "multiply at the %4 peak (weight-only)")
                .arg(gpu.name, computeFormatName(format), what, computeFormatName(sixteen));
        return path;
    };
    switch (q.method) {
    case QuantMethod::None:
        return {sixteen, false, peakOf(gpu, sixteen), {}};
    case QuantMethod::Fp8:
        return native(ComputeFormat::Fp8, gpu.fp8Native, QStringLiteral("FP8"));
    case QuantMethod::Int8:
        return native(ComputeFormat::Int8, true, QStringLiteral("INT8"));
    case QuantMethod::CompressedTensors:
        if (q.scheme == QLatin1String("W8A8"))
            return native(ComputeFormat::Int8, true, QStringLiteral("INT8"));
        if (q.floatWeights && q.bits == 8)
            return native(ComputeFormat::Fp8, gpu.fp8Native, QStringLiteral("FP8"));
        if (q.scheme == QLatin1String("NVFP4"))
            return native(ComputeFormat::Fp4, true, QStringLiteral("NVFP4"));
        return weightOnly;
    case QuantMethod::Mxfp4:
        // Blackwell's block-scaled MMA (tcgen05, kind::mxf8f6f4) multiplies MXFP4 weights by MXFP8
        // activations at the FP8 rate; 16-bit activations need the weights dequantized.
        return moeMxfp8 ? native(ComputeFormat::Fp8, gpu.fp8Native, QStringLiteral("MXFP4 x MXFP8"))
                        : weightOnly;
    case QuantMethod::Awq:
    case QuantMethod::Gptq:
    case QuantMethod::BitsAndBytesNf4:
        return weightOnly;
    }
    return weightOnly;
}

/// The kernel family vLLM runs the quantized layers with: W8A8 formats multiply
/// on their own tensor cores, weight-only ones go through Marlin-style kernels
/// (vllm/model_executor/layers/quantization/: fp8.py, awq_marlin.py,
/// gptq_marlin.py, mxfp4.py, bitsandbytes.py, compressed_tensors/).
WeightKernel weightKernelFor(const QuantizationSpec &q, const ComputePath &path, const GpuSpec &gpu)
{
    if (q.method == QuantMethod::None)
        return WeightKernel::SixteenBit;
    if (!path.weightOnly) {
        switch (path.format) {
        case ComputeFormat::Fp8:
            return q.method == QuantMethod::Mxfp4 ? WeightKernel::Mxfp4Mxfp8 : WeightKernel::Fp8;
        case ComputeFormat::Int8:
            return WeightKernel::Int8;
        case ComputeFormat::Fp4:
            return WeightKernel::Fp4;
        case ComputeFormat::Float32:
        case ComputeFormat::Float16:
        case ComputeFormat::BFloat16:
            break;
        }
    }
    switch (q.method) {
    case QuantMethod::BitsAndBytesNf4:
        return WeightKernel::BitsAndBytes;
    case QuantMethod::Mxfp4:
        // With 16-bit activations only compute capability 10.x has an FP4 kernel for MXFP4 experts
        // (FlashInfer's TRT-LLM MXFP4 x BF16). Elsewhere vLLM runs Marlin's MXFP4 kernel or Triton's
        // matmul_ogs (get_mxfp4_backend, vllm/model_executor/layers/quantization/mxfp4.py, v0.13), and SGLang
        // its triton_kernel backend for gpt-oss (ServerArgs._handle_model_specific_adjustments): each unpacks
        // the FP4 weights to 16 bits in registers, as the 4-bit Marlin kernels unpack theirs.
        return computeCapability10(gpu) ? WeightKernel::Fp4 : WeightKernel::FourBitWeightOnly;
    case QuantMethod::Fp8:
    case QuantMethod::Int8:
        return WeightKernel::EightBitWeightOnly;
    case QuantMethod::Awq:
    case QuantMethod::Gptq:
    case QuantMethod::CompressedTensors:
        return q.bits >= 8 ? WeightKernel::EightBitWeightOnly : WeightKernel::FourBitWeightOnly;
    case QuantMethod::None:
        break;
    }
    return WeightKernel::SixteenBit;
}

/// Engines that step at once, each its share of the batch: vLLM's data-parallel ranks or SGLang's
/// attention groups (1 without them).
int steppingRanks(const MemoryPlan &plan)
{
    return std::max(1, plan.dataParallelSize);
}

/// Of those, the ones with a running limit of their own: vLLM's --max-num-seqs is each rank's,
/// SGLang's --max-running-requests the server's.
int ranksWithOwnRunningLimit(const MemoryPlan &plan)
{
    return plan.attentionDataParallel ? 1 : steppingRanks(plan);
}

/// Sum over the prompt's positions of the tokens each attends to (causal):
/// P(P+1)/2, or with a window W the first W positions then W each.
double causalAttendedTokens(std::int64_t promptLen, std::int64_t window)
{
    const double p = double(promptLen);
    if (window <= 0 || promptLen <= window)
        return p * (p + 1) / 2;
    const double w = double(window);
    return w * (w + 1) / 2 + (p - w) * w;
}

} // namespace

double expectedExpertsTouched(int experts, int topK, std::int64_t tokens)
{
    if (experts <= 0 || topK <= 0 || tokens <= 0)
        return 0;
    const double e = double(experts);
    if (topK >= experts)
        return e;
    // 1 - (1 - k/E)^n as -expm1(n log1p(-k/E)): no cancellation when k/E is small.
    return e * -std::expm1(double(tokens) * std::log1p(-double(topK) / e));
}

double allReduceTransferSeconds(int gpus, double messageBytes, double linkGBs)
{
    if (gpus <= 1 || !(linkGBs > 0))
        return 0;
    const double n = double(gpus);
    return 2.0 * (n - 1) / n * messageBytes / (linkGBs * 1e9 / 2);
}

bool offersMoeMxfp8Kernel(const Scenario &s, QuantMethod weights)
{
    // Later releases choose it in the MXFP4 MoE oracle (vllm/model_executor/layers/fused_moe/oracle/mxfp4.py)
    // on the same terms.
    return s.engine == Engine::Vllm && weights == QuantMethod::Mxfp4 && computeCapability10(s.gpu);
}

bool runsMoeMxfp8Kernel(const Scenario &s, QuantMethod weights)
{
    if (s.engine == Engine::Sglang)
        // SGLang takes --moe-runner-backend flashinfer_mxfp4 for GptOssForCausalLM's MXFP4 checkpoint on
        // SM100 (ServerArgs._handle_model_specific_adjustments, python/sglang/srt/server_args.py); its
        // default --flashinfer-mxfp4-moe-precision quantizes the experts' input to MXFP8 (mxfp8_quantize
        // in Mxfp4MoEMethod.apply, python/sglang/srt/layers/quantization/mxfp4.py).
        return computeCapability10(s.gpu) && weights == QuantMethod::Mxfp4 &&
               s.model.architecture == QLatin1String("GptOssForCausalLM");
    return s.moeMxfp8Activations && offersMoeMxfp8Kernel(s, weights);
}

MoeKernel moeKernelFor(const Scenario &s, QuantMethod weights)
{
    if (weights != QuantMethod::Mxfp4 || !computeCapability10(s.gpu))
        return MoeKernel::FusedMoe;
    // vLLM runs MXFP4 experts on compute capability 10.x through FlashInfer's TensorRT-LLM MoE, with BF16
    // activations or, under VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8, MXFP8 ones (get_mxfp4_backend,
    // vllm/model_executor/layers/quantization/mxfp4.py, v0.13; the MXFP4 MoE oracle in later releases);
    // SGLang only for gpt-oss, whose flashinfer_mxfp4 backend calls the same kernel (runsMoeMxfp8Kernel).
    if (s.engine == Engine::Sglang && !runsMoeMxfp8Kernel(s, weights))
        return MoeKernel::FusedMoe;
    return MoeKernel::TrtllmFp4;
}

QString speedBoundName(SpeedBound bound)
{
    return bound == SpeedBound::Memory ? QStringLiteral("memory") : QStringLiteral("compute");
}

namespace {

const EnumSpelling<ComputeFormat> computeFormatNames[] = {
    {ComputeFormat::Float32, "fp32"}, {ComputeFormat::Float16, "fp16"}, {ComputeFormat::BFloat16, "bf16"},
    {ComputeFormat::Fp8, "fp8"},      {ComputeFormat::Int8, "int8"},    {ComputeFormat::Fp4, "fp4"},
};

} // namespace

QString computeFormatName(ComputeFormat format)
{
    return enumName(computeFormatNames, format);
}

SpeedModel::SpeedModel(const Scenario &s, const MemoryPlan &plan, const SpeedConstants &constants)
{
    m_tensorParallelSize = plan.tensorParallelSize;
    m_pipelineStages = plan.pipelineParallelSize;
    m_dataParallelSize = steppingRanks(plan);
    m_attentionGroups = plan.attentionDataParallel;
    m_denseMlpsScattered = plan.denseLayerMlpsWhole;
    m_expertGpus = m_tensorParallelSize * m_dataParallelSize;
    m_deepEpExchange = usesAll2AllKernels(s) && s.all2allBackend == All2AllBackend::DeepepHighThroughput;
    m_moeMxfp8 = runsMoeMxfp8Kernel(s, plan.quantization.method);
    readHardware(s.gpu, plan);
    readConstants(s, plan, constants);
    readWeights(s.model, plan);
    readPipeline(s.model, plan);
    m_sharedPrefix = s.sharedPrefixLen;
    countFlops(s.model, plan);
    readDraft(s, plan);
    readImages(s, plan);
}

void SpeedModel::readImages(const Scenario &s, const MemoryPlan &plan)
{
    if (plan.imagesPerRequest <= 0)
        return;
    const ImageWorkload images = imageWorkload(s);
    m_imagesPerRequest = images.images;
    m_encoderFlopsPerImage = visionEncoderFlops(s.model.vision, images.perImage, plan.tensorParallelSize);
}

void SpeedModel::readConstants(const Scenario &s, const MemoryPlan &plan, const SpeedConstants &constants)
{
    m_generation = gpuGeneration(s.gpu);
    m_kernel = weightKernelFor(plan.quantization,
                               computePath(s.gpu, plan.quantization, plan.dtype, m_moeMxfp8), s.gpu);
    if (s.moeMxfp8Activations && !m_moeMxfp8 && s.engine == Engine::Vllm && m_available)
        m_notes << QCoreApplication::translate("kvscope::Planner",
                                               "speed: %1 is set, but vLLM runs FlashInfer's MXFP4 x MXFP8 "
                                               "MoE kernel only for MXFP4 experts on compute capability 10.x "
                                               "GPUs; ignored here")
                       .arg(optionFlag(ScenarioField::MoeMxfp8Activations));
    if (m_moeMxfp8 && s.engine == Engine::Sglang && m_available)
        m_notes << QCoreApplication::translate(
                       "kvscope::Planner", "speed: SGLang runs gpt-oss's MXFP4 experts through FlashInfer's "
                                           "kernel with MXFP8 activations on compute capability 10.x GPUs "
                                           "(%1 flashinfer_mxfp4, its default precision)")
                       .arg(serverFlag(ServerOption::SglangMoeRunnerBackend));
    if (m_kernel == WeightKernel::FourBitWeightOnly && runsMachete(s, plan.quantization.method))
        m_kernel = WeightKernel::Machete;
    // An FP4 cache is dequantized in the attention kernel as an FP8 one is; no measurement
    // prices its own cost yet, so it reads at the FP8 cache's (a note says so).
    m_fp8Kv = isFp8(plan.kvCacheDtype) || isFp4(plan.kvCacheDtype);
    if (isFp4(plan.kvCacheDtype) && m_available)
        m_notes << QCoreApplication::translate(
                       "kvscope::Planner",
                       "speed: no measurement calibrates reading an %1 KV cache; its "
                       "dequantization is priced at the FP8 cache's fitted cost per second of reads")
                       .arg(kvPrecisionName(plan.kvCacheDtype));

    m_bandwidthEfficiency = weightBandwidthEfficiency(constants, m_generation);
    if (!constants.weightBandwidthEfficiency[std::size_t(m_generation)] && m_available)
        m_notes << QCoreApplication::translate(
                       "kvscope::Planner",
                       "speed: no calibration measurement on %1 GPUs; their bandwidth efficiency is the "
                       "median of the measured generations (%2) and the engine's costs those fitted on them, "
                       "checked only on the held-out measurements docs/speed-validation.md lists")
                       .arg(s.gpu.arch.isEmpty() ? s.gpu.name : s.gpu.arch)
                       .arg(m_bandwidthEfficiency, 0, 'f', 2);
    m_kvBandwidthEfficiency = constants.kvBandwidthEfficiency;
    applyMeasuredScale(s);
    if (s.bandwidthEfficiencyPpm > 0)
        m_bandwidthEfficiency = m_kvBandwidthEfficiency = double(s.bandwidthEfficiencyPpm) / 1e6;
    m_computeEfficiency =
        s.computeEfficiencyPpm > 0 ? double(s.computeEfficiencyPpm) / 1e6 : constants.computeEfficiency;

    const WeightKernel priced = pricedKernel(constants, m_kernel);
    m_dequantizationScale = dequantizesOnVectorUnits(priced) ? vectorSecondsPerReadSecond(s.gpu) : 1.0;
    m_dequantizationCost =
        constants.dequantizationCost[std::size_t(priced)].value_or(0) * m_dequantizationScale;
    if (priced != m_kernel && m_available)
        m_notes << QCoreApplication::translate("kvscope::Planner",
                                               "speed: no public measurement of %1 kernels; priced as %2")
                       .arg(weightKernelName(m_kernel), weightKernelName(priced));
    m_fp8KvCost = m_fp8Kv ? constants.fp8KvCost : 0;
    m_allReduceLatency = constants.allReduceLatencySeconds;
    // The latency is vLLM's custom all-reduce timed over NVLink
    // (tests/data/allreduce-latency-measurements.json, docs/speed-validation.md); between PCIe-only GPUs, or
    // another vendor's, no timing stands behind it.
    if (m_available && m_tensorParallelSize > 1) {
        if (pcieOnly(s.gpu))
            m_notes << QCoreApplication::translate("kvscope::Planner",
                                                   "speed: each all-reduce waits %1 µs, vLLM's custom "
                                                   "all-reduce timed between NVLink-joined "
                                                   "GPUs; no timing calibrates it over %2's PCIe links")
                           .arg(m_allReduceLatency * 1e6, 0, 'f', 1)
                           .arg(s.gpu.name);
        else if (!takenAsNvidia(s.gpu))
            m_notes << QCoreApplication::translate(
                           "kvscope::Planner",
                           "speed: each all-reduce waits %1 µs, vLLM's custom all-reduce timed "
                           "between NVIDIA GPUs; no timing calibrates it between %2 GPUs")
                           .arg(m_allReduceLatency * 1e6, 0, 'f', 1)
                           .arg(s.gpu.name);
    }
    m_moeLayerSeconds = constants.moeLayerSeconds;
    // The fitted cost per routed copy is the fused MoE's. FlashInfer's TensorRT-LLM FP4 MoE routes, permutes
    // and sums inside its GEMMs: its own timings at 8,192 to 16,384 tokens add per copy what the copy's
    // FLOPs take at one rate, 0.1 ns more, where the Triton kernel adds 45 ns a copy from 2,048 to 4,096
    // tokens (tests/data/moe-kernel-timings.json): its copies cost their FLOPs, priced in compute.
    m_moeKernel = moeKernelFor(s, plan.quantization.method);
    m_routedTokenSeconds = pricesRoutedCopies(m_moeKernel) ? constants.routedTokenSeconds : 0.0;
    if (m_moeKernel == MoeKernel::TrtllmFp4 && m_available)
        m_notes << QCoreApplication::translate(
                       "kvscope::Planner", "speed: the MXFP4 experts run FlashInfer's TensorRT-LLM FP4 MoE, "
                                           "which routes and sums inside its GEMMs: a routed copy costs its "
                                           "FLOPs, not the fused MoE's %1 ns")
                       .arg(constants.routedTokenSeconds * 1e9, 0, 'f', 1);
    m_stepSeconds = constants.stepSeconds[std::size_t(s.engine)];
    m_sequenceSeconds = constants.sequenceSeconds[std::size_t(s.engine)];
    m_requestSeconds = constants.requestSeconds[std::size_t(s.engine)];
    m_speculativeStepSeconds = constants.speculativeStepSeconds;
    m_draftPassSeconds = constants.draftPassSeconds;
    m_prefillMixesWithDecode = s.engine == Engine::Vllm;
}

double SpeedModel::vectorSecondsPerReadSecond(const GpuSpec &gpu)
{
    if (positive(gpu.tflopsFp32Vector) && gpu.bandwidthGBs > 0)
        return vectorOperationShare(gpu);
    static const GpuSpec standIn = resolveGpu(VectorRateStandIn);
    if (m_available)
        m_notes << QCoreApplication::translate(
                       "kvscope::Planner",
                       "speed: %1 lists no FP32 vector rate; its weight-only dequantization is priced at the "
                       "%2's ratio of that rate to bandwidth, the calibrated GPU where it costs the most")
                       .arg(gpu.name, standIn.name);
    return vectorOperationShare(standIn);
}

void SpeedModel::applyMeasuredScale(const Scenario &s)
{
    const MeasuredSpeedScale &measured = s.speedCalibration;
    if (measured.scalePpm <= 0 || !m_available)
        return;
    if (!measured.applies(s.gpu.id)) {
        m_notes << QCoreApplication::translate(
                       "kvscope::Planner",
                       "speed: the calibration from %1 is for the GPU '%2', not %3; not applied")
                       .arg(measured.source, measured.gpuId, s.gpu.name);
        return;
    }
    if (s.bandwidthEfficiencyPpm > 0) {
        m_notes << QCoreApplication::translate("kvscope::Planner",
                                               "speed: %1 is given; the calibration from %2 is not applied")
                       .arg(optionFlag(ScenarioField::BandwidthEfficiency), measured.source);
        return;
    }
    const double scale = double(measured.scalePpm) / 1e6;
    m_bandwidthEfficiency *= scale;
    m_kvBandwidthEfficiency *= scale;
    // A calibration saved for this GPU with other constants can no longer hold: refuse, never clamp.
    const double highest = std::max(m_bandwidthEfficiency, m_kvBandwidthEfficiency);
    if (highest > 1)
        throw Error(QStringLiteral("the calibration from %1 (scale %2) puts %3's reads at %4 % of its "
                                   "datasheet bandwidth; calibrate again")
                        .arg(measured.source)
                        .arg(scale, 0, 'f', 4)
                        .arg(s.gpu.name)
                        .arg(100 * highest, 0, 'f', 0));
    m_calibrationSource = measured.source;
    m_notes << QCoreApplication::translate("kvscope::Planner",
                                           "speed: bandwidth efficiency %1 (KV reads %2), calibrated from %3")
                   .arg(m_bandwidthEfficiency, 0, 'f', 2)
                   .arg(m_kvBandwidthEfficiency, 0, 'f', 2)
                   .arg(measured.source);
}

void SpeedModel::readHardware(const GpuSpec &gpu, const MemoryPlan &plan)
{
    // Every figure the roofline needs, or a note saying which is missing.
    const int tp = plan.tensorParallelSize;
    const ComputePath path = computePath(gpu, plan.quantization, plan.dtype, m_moeMxfp8);
    m_format = path.format;
    m_weightOnly = path.weightOnly;
    const std::optional<double> peak16 = peakOf(gpu, sixteenBitFormat(plan.dtype));
    QStringList missing;
    if (!(gpu.bandwidthGBs > 0))
        missing << QStringLiteral("memory bandwidth");
    if (!positive(peak16))
        missing << QStringLiteral("dense %1 TFLOPS").arg(computeFormatName(sixteenBitFormat(plan.dtype)));
    else if (!positive(path.tflops))
        missing << QStringLiteral("dense %1 TFLOPS").arg(computeFormatName(path.format));
    // Data-parallel ranks of a MoE exchange its layers' tokens over the links too.
    const bool exchanges =
        m_dataParallelSize > 1 && (plan.localExperts > 0 || m_attentionGroups) && m_expertGpus > 1;
    const int pp = plan.pipelineParallelSize;
    if (tp > 1 && !positive(gpu.interconnectGBs))
        missing << QStringLiteral("interconnect bandwidth for %2 %1")
                       .arg(tp)
                       .arg(optionFlag(ScenarioField::TensorParallelSize));
    else if (pp > 1 && !positive(gpu.interconnectGBs))
        missing << QStringLiteral("interconnect bandwidth for %2 %1")
                       .arg(pp)
                       .arg(optionFlag(ScenarioField::PipelineParallelSize));
    else if (exchanges && !positive(gpu.interconnectGBs))
        missing << QStringLiteral("interconnect bandwidth for %2 %1")
                       .arg(m_dataParallelSize)
                       .arg(optionFlag(ScenarioField::DataParallelSize));
    m_available = missing.isEmpty();
    if (!m_available)
        m_notes << QCoreApplication::translate("kvscope::Planner",
                                               "speed: %1 lists no %2; speed figures are not computed")
                       .arg(gpu.name.isEmpty() ? QStringLiteral("the GPU") : gpu.name,
                            missing.join(QStringLiteral(" and no ")));
    if (m_available && !path.note.isEmpty())
        m_notes << path.note;
    m_bandwidthGBs = gpu.bandwidthGBs;
    m_peakTflops = path.tflops.value_or(0);
    m_peak16Tflops = peak16.value_or(0);
    m_interconnectGBs = tp > 1 || pp > 1 || exchanges ? gpu.interconnectGBs.value_or(0) : 0;
    m_bandwidth = m_bandwidthGBs * 1e9;
    m_peak = m_peakTflops * 1e12;
    m_peak16 = m_peak16Tflops * 1e12;
    // Presets list link bandwidth over both directions; a ring all-reduce sends one way per step.
    m_linkPerDirection = m_interconnectGBs * 1e9 / 2;
}

void SpeedModel::readWeights(const ModelArch &m, const MemoryPlan &plan)
{
    m_layers = m.numLayers;
    m_hidden = m.hiddenSize;
    m_activationBytes = bytesPerElement(plan.dtype);
    m_contextLen = plan.seqLen;
    m_tokenBudget = plan.maxNumBatchedTokens;
    m_cacheBlock = plan.blockSize;
    // Attention reads what its window or chunk covers, whether or not the pool frees the rest
    // (SGLang's one pool and vLLM before its hybrid manager keep every token); the drafter reads
    // its own layers in draftPass().
    const KvGroupLayout attention = kvGroupLayout(m);
    m_fullLayers = attention.fullLayers;
    m_slidingLayers = attention.slidingLayers;
    m_window = m.slidingWindow;
    m_chunkedLayers = attention.chunkedLayers;
    m_chunk = m.attentionChunkSize;
    m_stateBytesPerSequence = plan.kv.stateBytesPerSequence;
    m_kvBytesPerTokenPerLayer = plan.kv.bytesPerTokenPerLayer;
    m_experts = m.moe.numExperts;
    m_topK = m.moe.expertsPerToken;

    // Weights a pass reads: everything on the GPU but the input embedding table
    // (a lookup reads one row per token), the vision tower (text decoding) and
    // the rotary buffers (one row per position); routed experts as touched.
    // A pipeline's pass reads every stage's weights, each on its own GPU at the same bandwidth.
    const WeightMemory &w = plan.pipelineParallelSize > 1 ? plan.pipelineWholeWeights : plan.weights;
    const auto component = [&](Component c) { return w.byComponent[int(c)]; };
    Checked dense = Checked(component(Component::Attention)) + component(Component::Mlp) +
                    component(Component::Router) + component(Component::Norms) + component(Component::LmHead);
    if (m.tiedEmbeddings)
        dense += component(Component::Embedding); // the table is the output projection as well
    else
        m_embeddingRowBytes = (Checked(m.hiddenSize) * m_activationBytes).value();
    // Machete reads the zero points it unpacked with its weights (VllmRules::loadedQuantization).
    dense += w.unpackedZeroPointBytes;
    m_denseWeightBytes = dense.value();
    m_expertWeightBytes = component(Component::Experts);
    if (plan.quantization.method != QuantMethod::None)
        m_quantizedDenseBytes =
            (Checked(component(Component::Attention)) + component(Component::Mlp) + w.unpackedZeroPointBytes)
                .value();
    if (m.moe.enabled()) {
        m_moeLayers = m.moeLayerCount();
        // Under expert parallelism a GPU takes the copies routed to its own experts.
        const double localShare =
            plan.localExperts > 0 && m_experts > 0 ? double(plan.localExperts) / double(m_experts) : 1.0;
        m_routedCopiesPerToken = double(m_topK) * localShare;
    }
    if (w.budgetUsesMeasured) {
        // GGUF blocks: the measured bytes replace the estimate in the same proportions.
        Checked estimated;
        for (const std::int64_t bytes : w.byComponent)
            estimated += bytes;
        if (estimated.value() > 0)
            m_measuredScale = double(w.parameterBytesPerGpu()) / double(estimated.value());
    }

    // Activations: each layer reads and writes every token's hidden state around
    // attention and around the MLP (4 x h), and the sampler reads float32 logits.
    m_logitBytes = (Checked(ceilDiv(paddedVocab(m.vocabSize), m_tensorParallelSize)) * 4).value();
    m_hiddenBytesPerToken = (Checked(4) * m.numLayers * m.hiddenSize * m_activationBytes).value();
}

void SpeedModel::readPipeline(const ModelArch &m, const MemoryPlan &plan)
{
    if (plan.pipelineStages.size() < 2)
        return;
    // What each stage reads in a pass: its weights but an input embedding it only looks rows up in.
    const std::int64_t embedding = plan.pipelineWholeWeights.byComponent[int(Component::Embedding)];
    double total = 0, busiest = 0;
    for (const PipelineStagePlan &stage : plan.pipelineStages) {
        const bool lookedUp = stage.holdsEmbedding && !(stage.holdsHead && m.tiedEmbeddings);
        const double read = double(stage.weightBytes - (lookedUp ? embedding : 0));
        total += read;
        busiest = std::max(busiest, read);
    }
    if (total > 0)
        m_busiestStageShare = busiest / total;
}

void SpeedModel::countFlops(const ModelArch &m, const MemoryPlan &plan)
{
    const int tp = plan.tensorParallelSize;
    // FLOPs per token: 2 per weight of every linear layer a token passes through
    // (routed experts: its top-k), on this GPU's shard of the tensor.
    for (const TensorGroup &g : tensorInventory(m)) {
        if (g.role != TensorRole::LinearWeight || g.component == Component::Vision)
            continue;
        const LocalShape local = localShape(g, tp);
        const double flops = 2.0 * double(local.rows) * double(local.cols) * double(g.activeCopies);
        (quantizes(plan.quantization, g) ? m_quantizedFlopsPerToken : m_denseFlopsPerToken) += flops;
        if (g.component == Component::LmHead)
            m_lmHeadFlopsPerToken += flops;
    }
    if (m.tiedEmbeddings) {
        const double lmHead = 2.0 * double(ceilDiv(paddedVocab(m.vocabSize), tp)) * double(m.hiddenSize);
        m_denseFlopsPerToken += lmHead;
        m_lmHeadFlopsPerToken += lmHead;
    }

    // Attention per query token, layer and attended token: QK^T (2 x d_qk) and PV
    // (2 x d_v) per head on this GPU. MLA decodes on the latent (absorbed weights:
    // d_qk = kv_lora_rank + rope, d_v = kv_lora_rank) and prefills on decompressed heads.
    const double heads = double(m.numHeads) / double(tp);
    if (m.usesMla()) {
        const MlaSpec &a = m.mla;
        m_decodeAttentionFlops = 2 * heads * double(2 * a.kvLoraRank + a.qkRopeHeadDim);
        m_prefillAttentionFlops = 2 * heads * double(a.qkNopeHeadDim + a.qkRopeHeadDim + a.vHeadDim);
    } else {
        m_decodeAttentionFlops = 2 * heads * double(m.headDim + m.vHeadDim);
        m_prefillAttentionFlops = m_decodeAttentionFlops;
    }
}

void SpeedModel::readDraft(const Scenario &s, const MemoryPlan &plan)
{
    if (!s.speculative.runsDraftOnGpu())
        return;
    const WeightMemory w =
        draftWeights(s, plan.quantization, plan.dtype, plan.tensorParallelSize, plan.expertPlacement);
    m_draftExpertBytes = w.byComponent[int(Component::Experts)];
    m_draftDenseBytes = w.bytesPerGpu - w.buffersBytes - m_draftExpertBytes;
    m_draftLayers = plan.kv.draftLayers + plan.kv.draftPoolLayers; // in the pool, or SGLang's own
    m_draftHidden = m_hidden;
    m_draftAttentionFlops = m_decodeAttentionFlops;
    m_draftMoeLayers =
        s.speculative.method == SpeculativeMethod::Mtp && s.model.moe.enabled() ? s.model.mtpLayers : 0;
    for (const TensorGroup &g : draftInventory(s)) {
        if (g.cols <= 1 || g.role == TensorRole::Norm || g.role == TensorRole::Bias)
            continue; // a matrix multiply: every linear weight, eh_proj among them
        // A token looks up one row of an embedding; a tied one is the draft model's head as well.
        if (g.component == Component::Embedding && !s.speculative.draft.tiedEmbeddings)
            continue;
        const LocalShape local = localShape(g, plan.tensorParallelSize);
        m_draftFlopsPerToken += 2.0 * double(local.rows) * double(local.cols) * double(g.activeCopies);
    }
    if (s.speculative.method == SpeculativeMethod::DraftModel) {
        // A draft model of its own width and heads: a token looks up one row of its embedding (read
        // whole only where it is also the head), and its attention has the draft's query heads.
        const ModelArch &d = s.speculative.draft;
        m_draftHidden = d.hiddenSize;
        m_draftAttentionFlops =
            2 * double(d.numHeads) / double(plan.tensorParallelSize) * double(d.headDim + d.vHeadDim);
        if (!d.tiedEmbeddings)
            m_draftDenseBytes -= w.byComponent[int(Component::Embedding)];
    }
    if (s.speculative.method == SpeculativeMethod::Eagle) {
        // An EAGLE-1 draft computes its logits with the target's lm_head: each pass reads it too.
        const Component head = s.model.tiedEmbeddings ? Component::Embedding : Component::LmHead;
        m_draftDenseBytes += plan.weights.byComponent[int(head)];
        m_draftFlopsPerToken += m_lmHeadFlopsPerToken;
    }
}

void SpeedModel::describe(SpeedPlan &speed) const
{
    speed.notes = m_notes;
    speed.bandwidthEfficiency = m_bandwidthEfficiency;
    speed.kvBandwidthEfficiency = m_kvBandwidthEfficiency;
    speed.computeEfficiency = m_computeEfficiency;
    speed.prices = {m_dequantizationCost,     m_fp8KvCost,       m_allReduceLatency, m_moeLayerSeconds,
                    m_routedTokenSeconds,     m_stepSeconds,     m_sequenceSeconds,  m_requestSeconds,
                    m_speculativeStepSeconds, m_draftPassSeconds};
    speed.calibrationSource = m_calibrationSource;
    speed.generation = m_generation;
    speed.weightKernel = m_kernel;
    speed.moeKernel = m_moeKernel;
    speed.computeFormat = m_format;
    speed.weightOnly = m_weightOnly;
    speed.dequantizationScale = m_dequantizationScale;
    speed.peakTflops = m_peakTflops;
    speed.peak16Tflops = m_peak16Tflops;
    speed.bandwidthGBs = m_bandwidthGBs;
    speed.interconnectGBs = m_interconnectGBs;
    speed.encoderFlopsPerImage = m_encoderFlopsPerImage;
}

std::int64_t SpeedModel::rankShare(std::int64_t sequences) const
{
    return dataParallelShare(sequences, m_dataParallelSize);
}

std::int64_t SpeedModel::expertBytesTouched(std::int64_t tokens) const
{
    // Every rank's tokens reach this GPU's experts (an even load: each rank runs as many).
    const std::int64_t routed = (Checked(tokens) * m_dataParallelSize).value();
    const double share =
        m_experts > 0 ? expectedExpertsTouched(m_experts, m_topK, routed) / double(m_experts) : 0.0;
    return std::llround(double(m_expertWeightBytes) * share);
}

std::int64_t SpeedModel::weightBytesRead(std::int64_t tokens) const
{
    const std::int64_t experts = expertBytesTouched(tokens);
    const Checked stored = Checked(m_denseWeightBytes) + experts;
    const std::int64_t asStored =
        m_measuredScale == 1 ? stored.value() : std::llround(double(stored.value()) * m_measuredScale);
    return (Checked(asStored) + Checked(tokens) * m_embeddingRowBytes).value();
}

std::int64_t SpeedModel::quantizedWeightBytes(std::int64_t tokens) const
{
    // The attention and MLP weights and the routed experts a pass touches: what
    // a quantization stores (routers, norms, embeddings and lm_head stay 16-bit).
    if (m_quantizedDenseBytes == 0)
        return 0;
    const double bytes = double(m_quantizedDenseBytes) + double(expertBytesTouched(tokens));
    return std::llround(bytes * m_measuredScale);
}

std::int64_t SpeedModel::kvTokenLayers(std::int64_t contextLen) const
{
    const std::int64_t windowed = m_window > 0 ? std::min(contextLen, m_window) : contextLen;
    // A chunked layer attends the tokens of the chunk the current token lies in.
    const std::int64_t chunked = m_chunk > 0 && contextLen > 0 ? (contextLen - 1) % m_chunk + 1 : 0;
    return (Checked(m_fullLayers) * contextLen + Checked(m_slidingLayers) * windowed +
            Checked(m_chunkedLayers) * chunked)
        .value();
}

ForwardCost SpeedModel::finish(ForwardCost c, std::int64_t tokens, std::int64_t sequences,
                               std::int64_t requests) const
{
    c.memorySeconds = double(c.bytes()) / m_bandwidth;
    c.computeSeconds = c.quantizedFlops / m_peak + (c.denseFlops + c.attentionFlops) / m_peak16;
    StepQuantities &q = c.quantities;
    q.weightReadSeconds = double(c.weightBytes + c.activationBytes) / m_bandwidth;
    q.quantizedReadSeconds = double(quantizedWeightBytes(tokens)) / m_bandwidth;
    q.kvReadSeconds = double(c.kvBytes) / m_bandwidth;
    q.fp8KvReadSeconds = m_fp8Kv ? q.kvReadSeconds : 0;
    q.computeSeconds = c.computeSeconds;
    q.moeLayers = m_moeLayers;
    // Every rank's tokens reach this GPU's experts, as in expertBytesTouched.
    q.routedTokenLayers =
        double(tokens) * double(m_dataParallelSize) * m_routedCopiesPerToken * double(m_moeLayers);
    q.sequences = sequences;
    q.requests = requests;
    if (m_tensorParallelSize > 1) {
        // Two all-reduces per layer (after attention and after the MLP) of every
        // token's hidden state. In SGLang's attention groups only the attention's: the MLP's is
        // the exchange's scatter.
        const double message = double(tokens) * double(m_hidden) * double(m_activationBytes);
        q.allReduces = std::int64_t(m_attentionGroups ? 1 : 2) * m_layers;
        q.allReduceTransferSeconds =
            double(q.allReduces) * allReduceTransferSeconds(m_tensorParallelSize, message, m_interconnectGBs);
    }
    addExpertExchanges(q, tokens);
    if (m_pipelineStages > 1) {
        // Each stage but the last sends the pass's hidden states and residuals to the next
        // (IntermediateTensors, send_tensor_dict in vllm/distributed/parallel_state.py), every
        // tensor-parallel rank its 1/TP share, gathered on arrival.
        const double bytes = double(tokens) * double(m_hidden) * double(m_activationBytes) * 2.0 /
                             double(m_tensorParallelSize);
        q.pipelineTransfers = m_pipelineStages - 1;
        q.pipelineTransferSeconds = double(q.pipelineTransfers) * bytes / m_linkPerDirection;
    }
    price(c);
    c.idealSeconds = std::max(c.memorySeconds, c.computeSeconds) + q.allReduceTransferSeconds +
                     q.expertExchangeTransferSeconds + q.pipelineTransferSeconds + q.encoderComputeSeconds;
    return c;
}

std::int64_t SpeedModel::pipelineBatches(std::int64_t sequences) const
{
    return std::clamp<std::int64_t>(sequences, 1, m_pipelineStages);
}

ForwardCost SpeedModel::inFlight(ForwardCost c, std::int64_t batches) const
{
    if (m_pipelineStages < 2 || batches < 2)
        return c;
    StepBreakdown &t = c.breakdown;
    // The GPUs' work splits over the stages as their weights do; the engine's host work runs
    // once per batch on the one engine process.
    const double host =
        t[StepTerm::StepOverhead] + t[StepTerm::SequenceOverhead] + t[StepTerm::RequestOverhead];
    const double gpu = c.seconds - host - t[StepTerm::PipelineTransfer];
    const double n = double(batches);
    const double busiest = std::max(m_busiestStageShare * gpu, host);
    const double cycle = std::max(c.seconds, n * busiest);
    c.quantities.pipelineBatches = batches;
    c.quantities.busiestStageShare = m_busiestStageShare;
    c.quantities.busiestStageSeconds = busiest;
    c.quantities.pipelinePassSeconds = c.seconds;
    t[StepTerm::PipelineWait] = cycle - c.seconds;
    c.seconds = t.total();
    const double idealGpu = c.idealSeconds - c.quantities.pipelineTransferSeconds;
    c.idealSeconds = std::max(c.idealSeconds, n * m_busiestStageShare * idealGpu);
    return c;
}

void SpeedModel::addExpertExchanges(StepQuantities &q, std::int64_t tokens) const
{
    // SGLang's attention groups gather every group's tokens to each layer's MLP, which all the GPUs
    // split, and scatter the outputs back (dp_gather / dp_scatter, python/sglang/srt/layers/
    // dp_attention.py); vLLM's ranks exchange them at each MoE layer only.
    // With --moe-dense-tp-size 1 a dense layer's MLP runs on the group's own tokens (its MLP mode SCATTERED,
    // LayerScatterModes._compute_mlp_mode, python/sglang/srt/layers/communicator.py): only the MoE layers
    // gather.
    const int layers = m_attentionGroups && !m_denseMlpsScattered ? m_layers : m_moeLayers;
    if (m_dataParallelSize <= 1 || layers == 0 || m_expertGpus <= 1 || tokens <= 0)
        return;
    // A dispatch before each MoE layer's experts and a combine after it (vLLM's FusedMoE over its
    // all-to-all manager, vllm/distributed/device_communicators/all2all.py).
    q.expertExchanges = std::int64_t(2) * layers;
    const double hiddenState = double(m_hidden) * double(m_activationBytes);
    double bytesPerExchange = 0;
    if (m_deepEpExchange) {
        // DeepEP sends a token's hidden state to each other GPU that holds one of its top-k experts:
        // of G GPUs with E / G experts each, G (1 - (1 - 1/G)^k) are touched, (G - 1) / G of them
        // remote.
        const double g = double(m_expertGpus);
        const double touched = g * -std::expm1(double(m_topK) * std::log1p(-1.0 / g));
        bytesPerExchange = double(tokens) * touched * (g - 1) / g * hiddenState;
    } else {
        // allgather_reducescatter and naive gather every rank's tokens to every GPU, and reduce the
        // experts' outputs back: a GPU receives the other ranks' hidden states, (DP - 1) x tokens.
        bytesPerExchange = double(tokens) * double(m_dataParallelSize - 1) * hiddenState;
    }
    q.expertExchangeTransferSeconds = double(q.expertExchanges) * bytesPerExchange / m_linkPerDirection;
}

void SpeedModel::price(ForwardCost &c) const
{
    const StepQuantities &q = c.quantities;
    StepBreakdown &t = c.breakdown;
    t[StepTerm::Weights] = q.weightReadSeconds / m_bandwidthEfficiency;
    t[StepTerm::Dequantization] = q.quantizedReadSeconds * m_dequantizationCost;
    t[StepTerm::KvCache] = q.kvReadSeconds / m_kvBandwidthEfficiency;
    t[StepTerm::KvDequantization] = q.fp8KvReadSeconds * m_fp8KvCost;
    const double memory = t[StepTerm::Weights] + t[StepTerm::Dequantization] + t[StepTerm::KvCache] +
                          t[StepTerm::KvDequantization];
    const double compute = q.computeSeconds / m_computeEfficiency;
    // The tensor cores work while the weights stream in: only what they need
    // beyond the reads adds to the step.
    t[StepTerm::Compute] = std::max(0.0, compute - memory);
    c.bound = memory >= compute ? SpeedBound::Memory : SpeedBound::Compute;
    t[StepTerm::VisionEncoder] = q.encoderComputeSeconds / m_computeEfficiency;
    t[StepTerm::AllReduce] = q.allReduces * m_allReduceLatency + q.allReduceTransferSeconds;
    // Each exchange waits the same fixed latency as an all-reduce over the same links.
    t[StepTerm::AllToAll] = double(q.expertExchanges) * m_allReduceLatency + q.expertExchangeTransferSeconds;
    // A stage's handover waits the same fixed latency as a collective over the same links.
    t[StepTerm::PipelineTransfer] =
        double(q.pipelineTransfers) * m_allReduceLatency + q.pipelineTransferSeconds;
    // vLLM's fused MoE (fused_experts_impl, vllm/model_executor/layers/fused_moe/fused_moe.py) sorts the
    // routed copies into blocks per expert (moe_align_block_size), runs the two grouped GEMMs, the
    // activation and moe_sum over all of them: a cost per layer and one per routed copy.
    t[StepTerm::MoeOverhead] = q.moeLayers * m_moeLayerSeconds + q.routedTokenLayers * m_routedTokenSeconds;
    t[StepTerm::StepOverhead] = m_stepSeconds;
    t[StepTerm::SequenceOverhead] = double(q.sequences) * m_sequenceSeconds;
    t[StepTerm::RequestOverhead] = double(q.requests) * m_requestSeconds;
    c.allReduceSeconds = t[StepTerm::AllReduce];
    c.seconds = t.total();
}

void SpeedModel::addImages(ForwardCost &c, double prompts) const
{
    // The tower runs in 16 bits whatever the weights' format (vLLM quantizes the language model).
    StepQuantities &q = c.quantities;
    const double images = prompts * double(m_imagesPerRequest);
    q.images += images;
    if (m_peak16 > 0)
        q.encoderComputeSeconds += images * m_encoderFlopsPerImage / m_peak16;
}

void SpeedModel::addDecode(ForwardCost &c, std::int64_t sequences, std::int64_t contextLen) const
{
    const std::int64_t attended = kvTokenLayers(contextLen);
    // Recurrent layers read their state and write it back every step.
    c.kvBytes = (Checked(c.kvBytes) + Checked(sequences) * attended * m_kvBytesPerTokenPerLayer +
                 Checked(sequences) * m_stateBytesPerSequence * 2)
                    .value();
    c.activationBytes =
        (Checked(c.activationBytes) + Checked(sequences) * (Checked(m_hiddenBytesPerToken) + m_logitBytes))
            .value();
    c.quantizedFlops += double(sequences) * m_quantizedFlopsPerToken;
    c.denseFlops += double(sequences) * m_denseFlopsPerToken;
    c.attentionFlops += double(sequences) * double(attended) * m_decodeAttentionFlops;
}

std::int64_t SpeedModel::cachedPromptTokens(std::int64_t promptLen) const
{
    return prefixCacheHitTokens(m_sharedPrefix, promptLen, m_cacheBlock);
}

void SpeedModel::addPrefill(ForwardCost &c, std::int64_t tokens, std::int64_t promptLen,
                            std::int64_t finishing) const
{
    // vLLM computes logits for the last prompt position only: one row per
    // prompt that finishes in this pass.
    // Each prompt computes its tokens after the cached ones, writes their KV and reads the
    // cached tokens' (what attention to them needs).
    const std::int64_t cached = cachedPromptTokens(promptLen);
    const std::int64_t computed = promptLen - cached;
    c.kvBytes =
        (Checked(c.kvBytes) +
         Checked(tokens) * (m_fullLayers + m_slidingLayers + m_chunkedLayers) * m_kvBytesPerTokenPerLayer +
         (Checked(tokens) * kvTokenLayers(cached) * m_kvBytesPerTokenPerLayer).value() / computed)
            .value();
    c.activationBytes = (Checked(c.activationBytes) + Checked(tokens) * m_hiddenBytesPerToken +
                         Checked(finishing) * m_logitBytes)
                            .value();
    c.quantizedFlops += double(tokens) * m_quantizedFlopsPerToken;
    c.denseFlops += double(tokens) * (m_denseFlopsPerToken - m_lmHeadFlopsPerToken) +
                    double(finishing) * m_lmHeadFlopsPerToken;
    // Causal attention of whole prompts' computed tokens; a chunk of `tokens` carries its share.
    const double prompts = double(tokens) / double(computed);
    const auto attended = [&](std::int64_t window) {
        return causalAttendedTokens(promptLen, window) - causalAttendedTokens(cached, window);
    };
    c.attentionFlops += prompts * m_prefillAttentionFlops *
                        (double(m_fullLayers) * attended(0) + double(m_slidingLayers) * attended(m_window) +
                         double(m_chunkedLayers) * attended(m_chunk));
    addImages(c, prompts);
}

ForwardCost SpeedModel::decode(std::int64_t batch) const
{
    // A pipeline runs the sequences as batches in flight, each through every stage in turn.
    const std::int64_t rank = rankShare(batch);
    const std::int64_t batches = pipelineBatches(rank);
    const std::int64_t sequences = ceilDiv(rank, batches);
    ForwardCost c;
    c.weightBytes = weightBytesRead(sequences);
    addDecode(c, sequences, m_contextLen);
    return inFlight(finish(c, sequences, sequences, 0), batches);
}

ForwardCost SpeedModel::verify(std::int64_t batch, std::int64_t draftTokens) const
{
    // One pass over k + 1 tokens a sequence: the weights once, each sequence's KV cache once (its
    // queries attend together), every token's FLOPs, hidden states and logits.
    const std::int64_t tokens = (Checked(batch) * (draftTokens + 1)).value();
    const std::int64_t drafted = (Checked(batch) * draftTokens).value();
    ForwardCost c;
    c.weightBytes = weightBytesRead(tokens);
    addDecode(c, batch, m_contextLen);
    const std::int64_t attended = kvTokenLayers(m_contextLen);
    c.activationBytes =
        (Checked(c.activationBytes) + Checked(drafted) * (Checked(m_hiddenBytesPerToken) + m_logitBytes))
            .value();
    c.quantizedFlops += double(drafted) * m_quantizedFlopsPerToken;
    c.denseFlops += double(drafted) * m_denseFlopsPerToken;
    c.attentionFlops += double(drafted) * double(attended) * m_decodeAttentionFlops;
    c = finish(c, tokens, batch, 0);
    if (draftTokens > 0) {
        // A step with a drafter also samples against the drafts and keeps the proposer's books.
        c.breakdown[StepTerm::StepOverhead] += m_speculativeStepSeconds;
        c.seconds = c.breakdown.total();
    }
    return c;
}

ForwardCost SpeedModel::draftPass(std::int64_t batch) const
{
    ForwardCost c;
    if (m_draftDenseBytes == 0 && m_draftExpertBytes == 0)
        return c;
    const double share =
        m_experts > 0 ? expectedExpertsTouched(m_experts, m_topK, batch) / double(m_experts) : 0.0;
    c.weightBytes = (Checked(m_draftDenseBytes) + std::llround(double(m_draftExpertBytes) * share)).value();
    c.kvBytes = (Checked(batch) * m_draftLayers * m_contextLen * m_kvBytesPerTokenPerLayer).value();
    c.activationBytes =
        (Checked(batch) * (Checked(4) * m_draftLayers * m_draftHidden * m_activationBytes + m_logitBytes))
            .value();
    c.denseFlops = double(batch) * m_draftFlopsPerToken;
    c.attentionFlops = double(batch) * double(m_draftLayers) * double(m_contextLen) * m_draftAttentionFlops;
    c.memorySeconds = double(c.bytes()) / m_bandwidth;
    c.computeSeconds = (c.denseFlops + c.attentionFlops) / m_peak16;
    StepQuantities &q = c.quantities;
    q.weightReadSeconds = double(c.weightBytes + c.activationBytes) / m_bandwidth;
    q.kvReadSeconds = double(c.kvBytes) / m_bandwidth;
    q.fp8KvReadSeconds = m_fp8Kv ? q.kvReadSeconds : 0;
    q.computeSeconds = c.computeSeconds;
    q.moeLayers = m_draftMoeLayers;
    q.routedTokenLayers = double(batch) * m_routedCopiesPerToken * double(m_draftMoeLayers);
    if (m_tensorParallelSize > 1) {
        const double message = double(batch) * double(m_draftHidden) * double(m_activationBytes);
        q.allReduces = std::int64_t(2) * m_draftLayers;
        q.allReduceTransferSeconds =
            double(q.allReduces) * allReduceTransferSeconds(m_tensorParallelSize, message, m_interconnectGBs);
    }
    price(c);
    // The drafter's passes run inside the engine's step (its scheduling and sampling are the
    // verify pass's); each pass has launches and host preparation of its own.
    c.breakdown[StepTerm::StepOverhead] = m_draftPassSeconds;
    c.seconds = c.breakdown.total();
    c.idealSeconds = std::max(c.memorySeconds, c.computeSeconds) + q.allReduceTransferSeconds;
    return c;
}

ForwardCost SpeedModel::promptChunk(std::int64_t start, std::int64_t end, std::int64_t promptLen) const
{
    ForwardCost c;
    const std::int64_t tokens = end - start;
    const bool last = end == promptLen;
    c.weightBytes = weightBytesRead(tokens);
    // Writes the chunk's KV cache and reads the earlier chunks' (what attention to them needs).
    c.kvBytes =
        (Checked(tokens) * (m_fullLayers + m_slidingLayers + m_chunkedLayers) * m_kvBytesPerTokenPerLayer +
         Checked(kvTokenLayers(start)) * m_kvBytesPerTokenPerLayer)
            .value();
    c.activationBytes = (Checked(tokens) * m_hiddenBytesPerToken + (last ? m_logitBytes : 0)).value();
    c.quantizedFlops = double(tokens) * m_quantizedFlopsPerToken;
    c.denseFlops = double(tokens) * (m_denseFlopsPerToken - m_lmHeadFlopsPerToken) +
                   (last ? m_lmHeadFlopsPerToken : 0.0);
    const auto attended = [&](std::int64_t window) {
        return causalAttendedTokens(end, window) - causalAttendedTokens(start, window);
    };
    c.attentionFlops = m_prefillAttentionFlops *
                       (double(m_fullLayers) * attended(0) + double(m_slidingLayers) * attended(m_window) +
                        double(m_chunkedLayers) * attended(m_chunk));
    // A chunk carries its share of the prompt's images, as of its attention.
    addImages(c, double(tokens) / double(promptLen - cachedPromptTokens(promptLen)));
    return finish(c, tokens, 0, last ? 1 : 0);
}

QList<SpeedModel::RepeatedPass> SpeedModel::prefillPasses(std::int64_t promptLen,
                                                          std::int64_t deploymentSequences) const
{
    const std::int64_t sequences = rankShare(deploymentSequences);
    // The prefix cache supplies a shared prefix's blocks: each prompt computes the rest.
    const std::int64_t cached = cachedPromptTokens(promptLen);
    const std::int64_t computed = promptLen - cached;
    const std::int64_t budget = m_tokenBudget > 0 ? m_tokenBudget : (Checked(computed) * sequences).value();
    QList<RepeatedPass> passes;
    if (computed <= budget) {
        // Whole prompts, as many as the budget holds in a pass (vLLM's scheduler packs them).
        const std::int64_t perPass = std::min(sequences, std::max<std::int64_t>(1, budget / computed));
        const auto pass = [&](std::int64_t prompts) {
            ForwardCost c;
            const std::int64_t tokens = (Checked(computed) * prompts).value();
            c.weightBytes = weightBytesRead(tokens);
            addPrefill(c, tokens, promptLen, prompts);
            return finish(c, tokens, 0, prompts);
        };
        passes.append({pass(perPass), sequences / perPass});
        if (sequences % perPass != 0)
            passes.append({pass(sequences % perPass), 1});
        return passes;
    }
    // Chunked prefill (vllm/v1/core/sched/scheduler.py): a budget of the prompt per pass,
    // the last chunk what is left. A long prompt's whole chunks go in at most
    // MaxChunkBands bands of neighbours, each priced as its middle chunk: what a
    // chunk reads and computes grows linearly along the prompt, so the band's sum
    // stays that of its chunks (but for a window's bend), and a million-token
    // prompt costs 17 passes to price, not 500.
    constexpr std::int64_t MaxChunkBands = 16;
    const std::int64_t wholeChunks = (computed - 1) / budget;
    const std::int64_t bands = std::min(wholeChunks, MaxChunkBands);
    for (std::int64_t band = 0; band < bands; ++band) {
        const std::int64_t first = wholeChunks * band / bands, end = wholeChunks * (band + 1) / bands;
        const std::int64_t middle = first + (end - first) / 2;
        passes.append({promptChunk(cached + middle * budget, cached + (middle + 1) * budget, promptLen),
                       (Checked(end - first) * sequences).value()});
    }
    passes.append({promptChunk(cached + wholeChunks * budget, promptLen, promptLen), sequences});
    return passes;
}

ForwardCost SpeedModel::prefill(std::int64_t promptLen, std::int64_t sequences) const
{
    const QList<RepeatedPass> passes = prefillPasses(promptLen, sequences);
    if (passes.size() == 1 && passes.first().times == 1)
        return passes.first().cost;
    ForwardCost total;
    double longest = -1;
    for (const RepeatedPass &repeated : passes) {
        const ForwardCost &pass = repeated.cost;
        const std::int64_t repeats = repeated.times;
        const auto times = double(repeats);
        const auto bytes = [&](std::int64_t ForwardCost::*field) {
            total.*field = (Checked(total.*field) + Checked(pass.*field) * repeats).value();
        };
        bytes(&ForwardCost::weightBytes);
        bytes(&ForwardCost::kvBytes);
        bytes(&ForwardCost::activationBytes);
        for (double ForwardCost::*field :
             {&ForwardCost::quantizedFlops, &ForwardCost::denseFlops, &ForwardCost::attentionFlops,
              &ForwardCost::memorySeconds, &ForwardCost::computeSeconds, &ForwardCost::allReduceSeconds,
              &ForwardCost::seconds, &ForwardCost::idealSeconds})
            total.*field += times * pass.*field;
        StepQuantities &q = total.quantities;
        const StepQuantities &p = pass.quantities;
        for (double StepQuantities::*field :
             {&StepQuantities::weightReadSeconds, &StepQuantities::quantizedReadSeconds,
              &StepQuantities::kvReadSeconds, &StepQuantities::fp8KvReadSeconds,
              &StepQuantities::computeSeconds, &StepQuantities::allReduceTransferSeconds,
              &StepQuantities::encoderComputeSeconds, &StepQuantities::images})
            q.*field += times * p.*field;
        q.allReduces = (Checked(q.allReduces) + Checked(repeats) * p.allReduces).value();
        q.moeLayers = (Checked(q.moeLayers) + Checked(repeats) * p.moeLayers).value();
        q.requests = (Checked(q.requests) + Checked(repeats) * p.requests).value();
        for (std::size_t term = 0; term < StepTermCount; ++term)
            total.breakdown.seconds[term] += times * pass.breakdown.seconds[term];
        if (pass.seconds > longest) {
            longest = pass.seconds;
            total.bound = pass.bound;
        }
    }
    return total;
}

double SpeedModel::firstTokenSecondsUnderLoad(std::int64_t promptLen, std::int64_t decoding) const
{
    // Poisson arrivals land uniformly within a step: the mean wait is half of it.
    return prefill(promptLen).seconds + (decoding > 0 ? decode(decoding).seconds / 2 : 0.0);
}

ServingCost SpeedModel::serving(std::int64_t concurrency, std::int64_t promptLen,
                                std::int64_t outputLen) const
{
    // A pipeline serves its users as batches in flight, each its share of them.
    const std::int64_t rank = rankShare(concurrency);
    const std::int64_t batches = pipelineBatches(rank);
    ServingCost s = servingOnRank(ceilDiv(rank, batches), promptLen, outputLen, batches);
    if (m_dataParallelSize > 1 || batches > 1) {
        // Every rank (and batch) serves its share at once: the deployment's users and their tokens.
        s.concurrency = concurrency;
        s.outputTokensPerSecond = double(concurrency) * double(outputLen) / s.requestSeconds;
    }
    return s;
}

ServingCost SpeedModel::servingOnRank(std::int64_t concurrency, std::int64_t promptLen,
                                      std::int64_t outputLen, std::int64_t batches) const
{
    ServingCost s;
    s.concurrency = concurrency;
    s.promptLen = promptLen;
    s.outputLen = outputLen;
    s.tokenBudget = m_tokenBudget;
    // vLLM's scheduler gives each step's token budget to the running requests'
    // decodes first and fills the rest with prompt chunks (chunked prefill,
    // vllm/v1/core/sched/scheduler.py). SGLang runs prompt chunks as steps of
    // their own, without decodes (--enable-mixed-chunk is off by default,
    // python/sglang/srt/server_args.py), and its decoding requests wait for them.
    const bool mixes = m_prefillMixesWithDecode;
    const std::int64_t budget =
        std::max<std::int64_t>(1, mixes ? m_tokenBudget - concurrency : m_tokenBudget);
    // A prompt computes its tokens after the shared prefix's cached blocks.
    s.cachedPromptTokens = cachedPromptTokens(promptLen);
    const std::int64_t computed = promptLen - s.cachedPromptTokens;
    const std::int64_t k = ceilDiv(computed, budget);
    s.prefillStepsPerRequest = k;
    // A prompt's last step samples the first token; the other outputLen - 1 are decodes.
    const std::int64_t decodeSteps = std::max<std::int64_t>(1, outputLen - 1);
    // The engine's steps while one request passes through. Every other user
    // finishes a request in that time too, so N prompts share those steps; when
    // they need more steps than that, prefill sets the pace and new requests wait.
    const std::int64_t promptTokens = (Checked(concurrency) * computed).value();
    s.stepsPerRequest = mixes ? std::max(decodeSteps + k, ceilDiv(promptTokens, budget)) : decodeSteps + k;
    const double steps = double(s.stepsPerRequest);
    const double users = double(concurrency);
    const double othersChunks = (users - 1) * double(k); // steps carrying another user's prompt
    // The share of one request's token steps that carry another's prompt chunk.
    s.prefillStepShare = mixes ? std::min(1.0, othersChunks / (steps - double(k)))
                               : othersChunks / (double(decodeSteps) + othersChunks);
    s.decodingSequences = std::llround(users * double(decodeSteps) / steps);
    s.prefillChunkTokens = std::min<std::int64_t>(
        budget, std::llround(double(promptTokens) / std::min(steps, users * double(k))));

    const std::int64_t contextLen = promptLen + outputLen / 2; // a decoding sequence, on average
    ForwardCost decode;
    decode.weightBytes = weightBytesRead(s.decodingSequences);
    addDecode(decode, s.decodingSequences, contextLen);
    s.decodeStep = inFlight(finish(decode, s.decodingSequences, s.decodingSequences, 0), batches);

    const std::int64_t decodesWithPrefill = mixes ? s.decodingSequences : 0;
    const std::int64_t tokens = decodesWithPrefill + s.prefillChunkTokens;
    ForwardCost mixed;
    mixed.weightBytes = weightBytesRead(tokens);
    addDecode(mixed, decodesWithPrefill, contextLen);
    addPrefill(mixed, s.prefillChunkTokens, promptLen, s.prefillChunkTokens / computed);
    s.mixedStep = inFlight(finish(mixed, tokens, decodesWithPrefill, 0), batches);

    const double share = s.prefillStepShare;
    for (std::size_t term = 0; term < StepTermCount; ++term)
        s.meanStep.seconds[term] =
            share * s.mixedStep.breakdown.seconds[term] + (1 - share) * s.decodeStep.breakdown.seconds[term];
    // Under SGLang a decoding request gets no token from a prefill step.
    const double stepsPerToken = mixes ? 1.0 : 1.0 / (1 - share);
    s.interTokenSeconds = s.meanStep.total() * stepsPerToken;
    const double waitingSteps = std::max(0.0, steps - double(decodeSteps + k));
    s.timeToFirstTokenSeconds =
        double(k) * s.mixedStep.seconds + waitingSteps * s.meanStep.total() + m_requestSeconds;
    s.requestSeconds = s.timeToFirstTokenSeconds + double(outputLen - 1) * s.interTokenSeconds;
    s.outputTokensPerSecond = users * double(outputLen) / s.requestSeconds;
    return s;
}

std::int64_t SpeedModel::ridgeBatch(bool ideal) const
{
    // compute - memory is convex in the batch (linear minus the concave MoE
    // term), negative at batch 1 when memory-bound: one crossing, found by bisection.
    const auto computeBound = [&](std::int64_t batch) {
        const ForwardCost c = decode(batch);
        return ideal ? c.computeSeconds > c.memorySeconds : c.bound == SpeedBound::Compute;
    };
    constexpr std::int64_t searchLimit = std::int64_t(1) << 24;
    if (computeBound(1))
        return 1;
    try {
        if (!computeBound(searchLimit))
            return -1;
    } catch (const Error &) {
        return -1; // bytes past 2^63 at this batch: memory-bound as far as it can be counted
    }
    std::int64_t lo = 1, hi = searchLimit; // !computeBound(lo), computeBound(hi)
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (computeBound(mid) ? hi : lo) = mid;
    }
    return hi;
}

namespace {

/// Open loop: requests arrive at `rate` a second, and the server holds the smallest whole
/// number of them in flight that the rate keeps busy (Little's law: rate x the time a
/// request takes at that count is no more than the count). A request takes longer with
/// more in flight, but far from proportionally, so the counts the rate keeps busy are the
/// ones above a threshold; bisection finds it. Past `most` the rate outgrows the server.
ServingCost servingAtRate(const SpeedModel &model, double rate, std::int64_t most, std::int64_t promptLen,
                          std::int64_t outputLen)
{
    const auto keepsUp = [&](std::int64_t inFlight) {
        return rate * model.serving(inFlight, promptLen, outputLen).requestSeconds <= double(inFlight);
    };
    ServingCost s;
    if (!keepsUp(most)) {
        s = model.serving(most, promptLen, outputLen);
        s.saturated = true;
        s.maxRequestRate = double(most) / s.requestSeconds;
    } else {
        std::int64_t below = 0, enough = most; // keepsUp(enough); below is 0 or does not keep up
        while (enough - below > 1) {
            const std::int64_t middle = below + (enough - below) / 2;
            (keepsUp(middle) ? enough : below) = middle;
        }
        s = model.serving(enough, promptLen, outputLen);
    }
    s.requestRate = rate;
    s.requestsInFlight = rate * s.requestSeconds;
    return s;
}

} // namespace

SpeculativeSpeed speculativeDecode(const SpeedModel &model, std::int64_t batch, std::int64_t draftTokens,
                                   const DraftAcceptance &acceptance)
{
    SpeculativeSpeed x;
    x.draftTokens = draftTokens;
    x.acceptanceRate = acceptance.rate;
    x.acceptanceSource = acceptance.source;
    x.tokensPerStep = tokensPerStep(acceptance.rate, draftTokens);
    x.verifyPass = model.verify(batch, draftTokens);
    x.draftPass = model.draftPass(batch);
    x.stepSeconds = x.verifyPass.seconds + double(draftTokens) * x.draftPass.seconds;
    x.tokensPerSecondPerSequence = x.tokensPerStep / x.stepSeconds;
    x.tokensPerSecond = double(batch) * x.tokensPerSecondPerSequence;
    x.speedup = x.tokensPerSecondPerSequence * model.decode(batch).seconds;
    return x;
}

namespace {

/// Decoding with the drafter at `batch` sequences, and the batch from which it stops paying.
std::optional<SpeculativeSpeed> planSpeculative(const SpeedModel &model, const Scenario &scenario,
                                                std::int64_t batch, SpeedPlan &speed)
{
    const std::optional<DraftAcceptance> acceptance = draftAcceptance(scenario);
    if (!acceptance) {
        // n-gram's acceptance is the share of the output that repeats the prompt; a draft model's
        // depends on the pair and the data. Neither has one published figure to assume.
        speed.notes << (scenario.speculative.method == SpeculativeMethod::DraftModel
                            ? QCoreApplication::translate(
                                  "kvscope::Planner",
                                  "speed: a draft model's acceptance depends on the pair and the "
                                  "data, and kvscope has no published figure for %1: give %2 for "
                                  "its speed")
                                  .arg(scenario.speculative.model,
                                       optionFlag(ScenarioField::DraftAcceptanceRate))
                            : QCoreApplication::translate(
                                  "kvscope::Planner",
                                  "speed: %1's acceptance is the share of the output that repeats "
                                  "the prompt, and no figure is published for it: give %2 for its "
                                  "speed")
                                  .arg(speculativeMethodName(scenario.speculative.method),
                                       optionFlag(ScenarioField::DraftAcceptanceRate)));
        return std::nullopt;
    }
    const std::int64_t k = scenario.speculative.numSpeculativeTokens;
    const auto at = [&](std::int64_t sequences) {
        return speculativeDecode(model, sequences, k, *acceptance);
    };
    SpeculativeSpeed result = at(batch);
    // Verifying k + 1 tokens a sequence costs little while the step reads weights, and k + 1 times
    // the FLOPs once it computes: past some batch the drafts cost more than they yield.
    constexpr std::int64_t searchLimit = std::int64_t(1) << 14;
    const auto pays = [&](std::int64_t sequences) { return at(sequences).speedup >= 1; };
    if (!pays(1)) {
        result.breakEvenBatch = 1;
    } else if (!pays(searchLimit)) {
        std::int64_t lo = 1, hi = searchLimit; // pays(lo), !pays(hi)
        while (hi - lo > 1) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            (pays(mid) ? lo : hi) = mid;
        }
        result.breakEvenBatch = hi;
    }
    speed.notes << QCoreApplication::translate(
                       "kvscope::Planner",
                       "speed: speculative decoding assumes each drafted token is accepted with "
                       "probability %1 (%2), independently; a step's and each draft pass's own "
                       "costs are fitted on vLLM's EAGLE-3 measurements (docs/methodology.md)")
                       .arg(acceptance->rate, 0, 'f', 3)
                       .arg(acceptance->source);
    return result;
}

/// Steady-state serving of --batch-size users, or of what --request-rate keeps in flight; as
/// many as the KV cache holds at --seq-len run at once (the engine queues the rest).
std::optional<ServingCost> planServing(const SpeedModel &model, const Scenario &scenario,
                                       const MemoryPlan &plan, SpeedPlan &speed)
{
    // Per data-parallel rank (the plan's, the one with the least KV cache), times the ranks.
    const int ranks = steppingRanks(plan);
    const std::int64_t held = (Checked(plan.kv.capacityTokens / plan.seqLen) * ranks).value();
    if (held < 1)
        return std::nullopt;
    const std::int64_t engineLimit =
        plan.maxNumSeqs > 0 ? (Checked(plan.maxNumSeqs) * ranksWithOwnRunningLimit(plan)).value() : 0;
    const std::int64_t outputLen = plan.seqLen - speed.promptLen;
    if (scenario.requestRateMilli > 0) {
        // The engine runs at most --max-num-seqs (SGLang: --max-running-requests) at once.
        const std::int64_t most = engineLimit > 0 ? std::min(held, engineLimit) : held;
        ServingCost s =
            servingAtRate(model, double(scenario.requestRateMilli) / 1000, most, speed.promptLen, outputLen);
        if (s.saturated)
            speed.notes << QCoreApplication::translate(
                               "kvscope::Planner",
                               "speed: at %1 requests a second requests queue without end: with %2 in "
                               "flight (what the KV cache and the engine run at once) the server "
                               "completes %3 a second")
                               .arg(formatRequestRate(scenario.requestRateMilli), formatCount(most))
                               .arg(s.maxRequestRate, 0, 'f', 2);
        return s;
    }
    const std::int64_t running = engineLimit > 0 ? std::min(held, engineLimit) : held;
    const std::int64_t users = std::min(plan.batchSize, running);
    if (users < plan.batchSize && held <= running)
        speed.notes << QCoreApplication::translate(
                           "kvscope::Planner",
                           "speed: the KV cache holds %1 requests of %2 tokens at once; serving "
                           "figures are for %1 users, the other %3 wait")
                           .arg(users)
                           .arg(plan.seqLen)
                           .arg(plan.batchSize - users);
    return model.serving(users, speed.promptLen, outputLen);
}

} // namespace

std::int64_t sequencesAtOnce(const MemoryPlan &plan)
{
    if (!plan.engineStarts)
        return plan.batchSize;
    // vLLM's scheduler admits no more than max_num_running_reqs (Scheduler.schedule,
    // vllm/v1/core/sched/scheduler.py), each data-parallel rank's its own; SGLang's no more than
    // max_running_requests.
    const std::int64_t ranks = ranksWithOwnRunningLimit(plan);
    // Never past the batch, so the ranks' limits multiply without overflow.
    const bool limited = plan.maxNumSeqs > 0 && plan.maxNumSeqs < ceilDiv(plan.batchSize, ranks);
    const std::int64_t running = limited ? plan.maxNumSeqs * ranks : plan.batchSize;
    return std::min(running, std::max<std::int64_t>(1, plan.largestBatchThatFits));
}

double emittedTokensPerSecond(const SpeedPlan &speed)
{
    return speed.speculative ? speed.speculative->tokensPerSecond : speed.decodeTokensPerSecond;
}

SpeedPlan planSpeed(const Scenario &s, const MemoryPlan &plan)
{
    const auto inputs = [&] {
        SpeedPlan speed;
        speed.startFailure = plan.startFailure;
        speed.requestedBatchSize = plan.batchSize;
        speed.batchSize = sequencesAtOnce(plan);
        speed.ranks = steppingRanks(plan);
        speed.rankBatchSize = dataParallelShare(speed.batchSize, speed.ranks);
        speed.contextLen = plan.seqLen;
        // A prompt's images are prefilled with its text (their placeholders hold KV like any token).
        speed.promptLen = s.promptLen > 0 ? s.promptLen + plan.imageTokensPerSequence : plan.seqLen;
        return speed;
    };
    SpeedPlan speed = inputs();
    // Without CUDA graphs the host launches every kernel of every step; each calibration measurement
    // captures graphs (docs/speed-validation.md lists eager runs outside the model).
    if (s.engine == Engine::Vllm && s.enforceEager) {
        speed.notes << QCoreApplication::translate("kvscope::Planner",
                                                   "speed: not modelled under %1 (without CUDA graphs; "
                                                   "every measurement kvscope is calibrated on ran with "
                                                   "them)")
                           .arg(optionFlag(ScenarioField::EnforceEager));
        return speed;
    }
    // vLLM's data-parallel ranks and SGLang's attention groups each step the step model's pass,
    // joined by the exchange the model prices (StepTerm::AllToAll); a pipeline's batches pass its
    // stages in turn (SpeedModel::inFlight).
    const std::pair<ScenarioField, int> unmeasured[] = {
        {ScenarioField::DataParallelSize,
         s.speculative.enabled() && plan.dataParallelSize > 1 ? plan.dataParallelSize : 1}};
    for (const auto &[field, size] : unmeasured) {
        if (size > 1) {
            speed.notes << QCoreApplication::translate("kvscope::Planner",
                                                       "speed: not modelled under %1 %2 (no measurement of "
                                                       "that layout to calibrate on)")
                               .arg(optionFlag(field, s.engine))
                               .arg(size);
            return speed;
        }
    }
    try {
        const SpeedModel model(s, plan);
        model.describe(speed);
        if (!model.available())
            return speed;
        if (plan.dataParallelSize > 1)
            speed.notes
                << QCoreApplication::translate(
                       "kvscope::Planner",
                       "speed: %1 %2 ranks each step their share of the batch at once%3; priced with the "
                       "constants fitted on tensor-parallel deployments, not validated on a measurement "
                       "of data-parallel ranks (docs/speed-validation.md)")
                       .arg(optionFlag(ScenarioField::DataParallelSize, s.engine))
                       .arg(plan.dataParallelSize)
                       .arg(plan.attentionDataParallel && plan.denseLayerMlpsWhole
                                ? QCoreApplication::translate("kvscope::Planner",
                                                              ", every MoE layer's experts over all %1 GPUs, "
                                                              "each group's tokens gathered to them and back "
                                                              "(the dense layers' MLPs whole on each GPU)")
                                      .arg(plan.gpuCount())
                            : plan.attentionDataParallel
                                ? QCoreApplication::translate(
                                      "kvscope::Planner", ", every layer's MLP and experts over all %1 "
                                                          "GPUs, each group's tokens gathered to them and "
                                                          "back")
                                      .arg(plan.gpuCount())
                            : s.model.moe.enabled()
                                ? QCoreApplication::translate("kvscope::Planner",
                                                              ", their MoE layers exchanging every rank's "
                                                              "tokens with the experts' GPUs (%1)")
                                      .arg(all2allBackendName(usesAll2AllKernels(s)
                                                                  ? s.all2allBackend
                                                                  : All2AllBackend::AllgatherReducescatter))
                                : QString());
        const std::int64_t batch = speed.batchSize;
        if (plan.pipelineParallelSize > 1)
            speed.notes << QCoreApplication::translate(
                               "kvscope::Planner",
                               "speed: %1 %2: a step passes the stages in turn, handing each token's hidden "
                               "state to the next; with sequences enough, %2 batches are in flight, one a "
                               "stage (vLLM's batch queue), and a batch's next step waits for the busiest "
                               "stage to run all of them")
                               .arg(optionFlag(ScenarioField::PipelineParallelSize))
                               .arg(plan.pipelineParallelSize);
        speed.decode = model.decode(batch);
        speed.prefill = model.prefill(speed.promptLen);
        speed.cachedPromptTokens = model.cachedPromptTokens(speed.promptLen);
        if (speed.cachedPromptTokens > 0)
            speed.notes << QCoreApplication::translate(
                               "kvscope::Planner",
                               "speed: the prompt's first %1 tokens are the shared prefix's, kept in the "
                               "prefix cache: its prefill computes the other %2, attending to all")
                               .arg(formatCount(speed.cachedPromptTokens),
                                    formatCount(speed.promptLen - speed.cachedPromptTokens));
        speed.expectedExperts =
            expectedExpertsTouched(s.model.moe.numExperts, s.model.moe.expertsPerToken, batch);
        speed.decodeTokensPerSecond = double(batch) / speed.decode.seconds;
        speed.decodeTokensPerSecondPerSequence = 1.0 / speed.decode.seconds;
        speed.decodeTokensPerSecondIdeal = double(batch) / speed.decode.idealSeconds;
        if (s.speculative.enabled())
            speed.speculative = planSpeculative(model, s, batch, speed);
        if (plan.imagesPerRequest > 0)
            speed.notes << QCoreApplication::translate(
                               "kvscope::Planner",
                               "speed: the prefill counts the images' %1 prompt tokens and the vision "
                               "tower's encoding of the %2 images (%3 TFLOP a GPU, at the compute "
                               "efficiency fitted on text prompts; no measurement of an encoder checks "
                               "it)")
                               .arg(formatCount(plan.imageTokensPerSequence))
                               .arg(plan.imagesPerRequest)
                               .arg(model.encoderFlopsPerImage() * double(plan.imagesPerRequest) / 1e12, 0,
                                    'f', 2);
        if (plan.weights.loraBytes > 0)
            speed.notes << QCoreApplication::translate(
                "kvscope::Planner", "speed: the LoRA kernels (a shrink and an expand for each wrapped "
                                    "layer and step) are not priced; no measurement to calibrate them on");
        if (batch < plan.batchSize && batch == plan.maxNumSeqs)
            speed.notes << QCoreApplication::translate(
                               "kvscope::Planner",
                               "speed: the engine runs at most %1 %2 requests at once; the decode "
                               "and serving figures are for %2 of the %3 sequences (the rest wait)")
                               .arg(optionFlag(ScenarioField::MaxNumSeqs, plan.engine), formatCount(batch),
                                    formatCount(plan.batchSize));
        else if (batch < plan.batchSize)
            speed.notes << QCoreApplication::translate(
                               "kvscope::Planner",
                               "speed: the KV cache holds %1 of the %2 sequences at %3 tokens; the "
                               "decode figures are for those %1 (the engine queues the rest)")
                               .arg(formatCount(batch), formatCount(plan.batchSize),
                                    formatCount(plan.seqLen));
        if (speed.promptLen + 1 < plan.seqLen) // a prompt and at least two tokens out
            speed.serving = planServing(model, s, plan, speed);
        speed.ridgeBatch = model.ridgeBatch(false);
        speed.ridgeBatchIdeal = model.ridgeBatch(true);
        speed.available = true;
    } catch (const Error &error) {
        speed = inputs(); // no partial figures
        speed.notes << QCoreApplication::translate("kvscope::Planner", "speed: %1").arg(error.message());
    }
    return speed;
}

} // namespace kvscope
