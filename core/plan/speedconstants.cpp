// SPDX-License-Identifier: MIT
#include "core/plan/speedconstants.h"

#include "core/common/enumtable.h"
#include "core/gpu/gpuspec.h"

#include <algorithm>
#include <vector>

namespace kvscope {

namespace {

const EnumSpelling<GpuGeneration> generationNames[] = {
    {GpuGeneration::Ampere, "ampere"}, {GpuGeneration::Ada, "ada"},
    {GpuGeneration::Hopper, "hopper"}, {GpuGeneration::Blackwell, "blackwell"},
    {GpuGeneration::Other, "other"},
};

const EnumSpelling<WeightKernel> kernelNames[] = {
    {WeightKernel::SixteenBit, "16-bit"},
    {WeightKernel::Fp8, "fp8 w8a8"},
    {WeightKernel::Int8, "int8 w8a8"},
    {WeightKernel::FourBitWeightOnly, "4-bit weight-only"},
    {WeightKernel::EightBitWeightOnly, "8-bit weight-only"},
    {WeightKernel::Fp4, "fp4"},
    {WeightKernel::BitsAndBytes, "bitsandbytes"},
    {WeightKernel::Machete, "machete 4-bit"},
    {WeightKernel::Mxfp4Mxfp8, "mxfp4 x mxfp8"},
};

const EnumSpelling<MoeKernel> moeKernelNames[] = {
    {MoeKernel::FusedMoe, "fused moe"},
    {MoeKernel::TrtllmFp4, "trtllm fp4"},
};

// Fitted by tests/core/tst_speedvalidation.cpp on the calibration rows of
// tests/data/serving-speed-measurements.json (docs/speed-validation.md), the all-reduce latency and
// the cost per MoE layer held at the engines' kernel timings (tests/data/allreduce-latency-measurements.json,
// tests/data/moe-kernel-timings.json).
SpeedConstants fitted()
{
    SpeedConstants c;
    auto &efficiency = c.weightBandwidthEfficiency;
    efficiency[std::size_t(GpuGeneration::Ampere)] = 0.6715;
    efficiency[std::size_t(GpuGeneration::Hopper)] = 0.835;
    efficiency[std::size_t(GpuGeneration::Blackwell)] = 0.8623;
    auto &cost = c.dequantizationCost;
    cost[std::size_t(WeightKernel::SixteenBit)] = 0;
    cost[std::size_t(WeightKernel::Fp8)] = 0.02233;
    cost[std::size_t(WeightKernel::FourBitWeightOnly)] = 7.552;
    cost[std::size_t(WeightKernel::EightBitWeightOnly)] = 2.025;
    cost[std::size_t(WeightKernel::Fp4)] = 0.899;
    cost[std::size_t(WeightKernel::Machete)] = 1.296;
    c.kvBandwidthEfficiency = 0.9256;
    c.fp8KvCost = 0.4422;
    c.computeEfficiency = 0.7833;
    c.allReduceLatencySeconds = 8.999e-06;
    c.moeLayerSeconds = 2.643e-05;
    c.routedTokenSeconds = 5.955e-08;
    c.stepSeconds = {0.001661, 0.00329};
    c.sequenceSeconds = {0, 0};
    c.requestSeconds = {0.007063, 0.05752};
    // Fitted by tests/core/tst_speed.cpp on the calibration rows of
    // tests/data/speculative-speed-measurements.json (vLLM, EAGLE-3 on Llama-3.1-8B).
    c.speculativeStepSeconds = 0.001014;
    c.draftPassSeconds = 0.000779;
    return c;
}

} // namespace

const SpeedConstants &calibratedSpeedConstants()
{
    static const SpeedConstants constants = fitted();
    return constants;
}

double standInEfficiency(const SpeedConstants &constants)
{
    std::vector<double> measured;
    for (const std::optional<double> &e : constants.weightBandwidthEfficiency)
        if (e)
            measured.push_back(*e);
    if (measured.empty())
        return 1;
    std::sort(measured.begin(), measured.end());
    const std::size_t n = measured.size();
    return n % 2 ? measured[n / 2] : (measured[n / 2 - 1] + measured[n / 2]) / 2;
}

double weightBandwidthEfficiency(const SpeedConstants &constants, GpuGeneration generation)
{
    return constants.weightBandwidthEfficiency[std::size_t(generation)].value_or(
        standInEfficiency(constants));
}

WeightKernel pricedKernel(const SpeedConstants &constants, WeightKernel kernel)
{
    while (!constants.dequantizationCost[std::size_t(kernel)] && kernel != WeightKernel::SixteenBit)
        kernel = standInKernel(kernel);
    return kernel;
}

WeightKernel standInKernel(WeightKernel kernel)
{
    switch (kernel) {
    // Both quantize the activations per token (or block) and multiply natively on the tensor cores.
    case WeightKernel::Int8:
    case WeightKernel::Mxfp4Mxfp8:
        return WeightKernel::Fp8;
    case WeightKernel::BitsAndBytes:
    case WeightKernel::Fp4:
    case WeightKernel::EightBitWeightOnly:
    case WeightKernel::Machete:
        return WeightKernel::FourBitWeightOnly;
    case WeightKernel::Fp8:
        return WeightKernel::EightBitWeightOnly;
    case WeightKernel::FourBitWeightOnly:
    case WeightKernel::SixteenBit:
        break;
    }
    return WeightKernel::SixteenBit;
}

GpuGeneration gpuGeneration(const GpuSpec &gpu)
{
    // The presets' arch field ("Ampere (GA102)", "Ada Lovelace", "Blackwell (GB202)").
    const auto startsWith = [&](const char *name) { return gpu.arch.startsWith(QLatin1String(name)); };
    if (startsWith("Ampere"))
        return GpuGeneration::Ampere;
    if (startsWith("Ada"))
        return GpuGeneration::Ada;
    if (startsWith("Hopper"))
        return GpuGeneration::Hopper;
    if (startsWith("Blackwell"))
        return GpuGeneration::Blackwell;
    return GpuGeneration::Other;
}

QString gpuGenerationName(GpuGeneration generation)
{
    return enumName(generationNames, generation);
}

QString weightKernelName(WeightKernel kernel)
{
    return enumName(kernelNames, kernel);
}

QString moeKernelName(MoeKernel kernel)
{
    return enumName(moeKernelNames, kernel);
}

std::optional<MoeKernel> moeKernelFromName(const QString &name)
{
    return enumValue(moeKernelNames, name);
}

} // namespace kvscope
