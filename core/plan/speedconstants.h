// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/engine.h"

#include <array>
#include <cstddef>
#include <optional>

#include <QString>

namespace kvscope {

struct GpuSpec;
struct QuantizationSpec;

/// The GPU generation a bandwidth efficiency is calibrated per: kernels reach
/// a different share of the datasheet bandwidth on each.
enum class GpuGeneration
{
    Ampere,
    Ada,
    Hopper,
    Blackwell,
    Other, ///< no calibration measurement: the median of the measured generations
};
inline constexpr std::size_t GpuGenerationCount = std::size_t(GpuGeneration::Other) + 1;

/// The kernel family that multiplies a layout of weights (vLLM picks it from the
/// checkpoint's format and the GPU): each reads its bytes at its own cost.
enum class WeightKernel
{
    SixteenBit,         ///< BF16/FP16 GEMM (cuBLAS)
    Fp8,                ///< W8A8 FP8 (CUTLASS scaled_mm, block-wise FP8)
    Int8,               ///< W8A8 INT8 (CUTLASS scaled_mm)
    FourBitWeightOnly,  ///< AWQ/GPTQ/W4A16 through Marlin, MXFP4 off compute capability 10.x: dequantized in
                        ///< registers
    EightBitWeightOnly, ///< GPTQ 8-bit, W8A16, FP8 on a GPU without FP8 tensor cores (Marlin)
    Fp4,                ///< NVFP4, and MXFP4 on compute capability 10.x (FlashInfer's TRT-LLM kernel)
    BitsAndBytes,       ///< bitsandbytes NF4
    /// GPTQ/W4A16 dense layers under vLLM on compute capability 9.0: choose_mp_linear_kernel takes
    /// Machete (CUTLASS mixed-input GEMM) before Marlin there (vllm-project/vllm#7701)
    Machete,
    /// MXFP4 experts with their activations quantized to MXFP8 (FlashInfer's TRT-LLM MoE kernel on
    /// compute capability 10.x, VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1): block-scaled FP4 x FP8 on the
    /// tensor cores, no 16-bit copy of the weights
    Mxfp4Mxfp8,
};
inline constexpr std::size_t WeightKernelCount = std::size_t(WeightKernel::Mxfp4Mxfp8) + 1;

/// Kernels that unpack and scale every weight on the vector units, interleaved with the tensor-core
/// work (IST-DASLab/marlin README, "Techniques"): their dequantization cost is counted in vector
/// operations per weight byte, so a GPU with more vector throughput per byte of bandwidth hides more
/// of it (Marlin's near-ideal 3.87x over FP16 on an A10, ibid.). The other kernels' cost is a share
/// of the read itself.
constexpr bool dequantizesOnVectorUnits(WeightKernel kernel)
{
    return kernel == WeightKernel::FourBitWeightOnly || kernel == WeightKernel::EightBitWeightOnly ||
           kernel == WeightKernel::BitsAndBytes;
}
inline constexpr std::size_t EngineCount = 2;

/// The MoE kernel family a layer's experts run on, for what a routed copy (one per expert of a token's
/// top-k) costs beyond its FLOPs.
enum class MoeKernel
{
    /// vLLM's and SGLang's fused_moe (Triton) and the kernels priced as it: the copies are sorted into
    /// blocks per expert (moe_align_block_size), gathered into the grouped GEMMs' padded tiles and summed
    /// back in kernels of their own, a cost per copy (SpeedConstants::routedTokenSeconds). FlashInfer's
    /// FP8 block-scale MoE (SGLang's flashinfer_trtllm for DeepSeek's FP8 experts) is priced so too: the
    /// calibration's DeepSeek-R1 prompt passes that fit the cost run it, and no large-token timing of it is
    /// in tests/data/moe-kernel-timings.json.
    FusedMoe,
    /// FlashInfer's TensorRT-LLM FP4 MoE (trtllm_fp4_block_scale_moe), which vLLM and SGLang run MXFP4
    /// experts on at compute capability 10.x: routing, permutation and the weighted sum happen inside its
    /// GEMMs, and its own timings add per copy only what the copy's FLOPs take, which the compute term
    /// prices.
    TrtllmFp4,
};

/// Whether `kernel`'s routed copies pay SpeedConstants::routedTokenSeconds beyond their FLOPs: the step
/// model's price and the fit's feature alike.
constexpr bool pricesRoutedCopies(MoeKernel kernel)
{
    return kernel == MoeKernel::FusedMoe;
}

/// The calibrated constants of the step model (docs/speed-validation.md lists
/// the public measurements they were fitted on and the ones held out;
/// tests/core/tst_speedvalidation.cpp refits them and fails when they differ).
/// An empty entry is one no calibration row informs: the plan uses a stand-in
/// (standInEfficiency, standInDequantizationCost) and says so.
struct SpeedConstants
{
    /// Share of the datasheet bandwidth the weight reads reach, per GpuGeneration.
    std::array<std::optional<double>, GpuGenerationCount> weightBandwidthEfficiency{};
    /// Extra seconds per second of reading the kernel's weights at full bandwidth.
    std::array<std::optional<double>, WeightKernelCount> dequantizationCost{};
    double kvBandwidthEfficiency = 1; ///< share of the bandwidth the attention kernels' KV reads reach
    double fp8KvCost = 0;             ///< extra seconds per second of reading an FP8 cache at full bandwidth
    double computeEfficiency = 1;     ///< share of the dense tensor-core peak a pass reaches
    double allReduceLatencySeconds = 0; ///< per all-reduce of a decode-sized message over NVLink
    double moeLayerSeconds = 0;         ///< per MoE layer and pass
    /// Per token routed to an expert, per MoE layer: the work the fused MoE does for each of a
    /// token's top-k copies (sorting it into its expert's block, gathering its hidden state, the
    /// grouped GEMMs' padded tiles, the weighted sum back), which grows with the tokens, not the bytes.
    double routedTokenSeconds = 0;
    std::array<double, EngineCount> stepSeconds{};     ///< per pass, per Engine
    std::array<double, EngineCount> sequenceSeconds{}; ///< per sequence of a decode step, per Engine
    std::array<double, EngineCount> requestSeconds{};  ///< per new request a prefill admits, per Engine
    /// vLLM's speculative decoding (tests/data/speculative-speed-measurements.json): per step with a
    /// drafter (rejection sampling, the proposer's bookkeeping) and per draft pass beyond its reads
    /// (its launches and host preparation).
    double speculativeStepSeconds = 0;
    double draftPassSeconds = 0;
};

/// The constants kvscope plans with.
const SpeedConstants &calibratedSpeedConstants();

/// A generation without measurements: the median of the calibrated ones.
double standInEfficiency(const SpeedConstants &constants);
/// The weight-read efficiency a plan on `generation` reads at: its calibrated one, else the stand-in.
double weightBandwidthEfficiency(const SpeedConstants &constants, GpuGeneration generation);
/// A kernel without measurements: the next one to ask (W8A8 INT8 and MXFP4 x MXFP8 ask FP8,
/// FP8 asks 8-bit weight-only, the other weight-only kernels, Machete and FP4 ask
/// 4-bit weight-only, which asks 16-bit: no extra cost).
WeightKernel standInKernel(WeightKernel kernel);
/// The kernel whose fitted cost prices `kernel`: itself when calibrated, else its stand-ins in turn.
WeightKernel pricedKernel(const SpeedConstants &constants, WeightKernel kernel);

GpuGeneration gpuGeneration(const GpuSpec &gpu);
QString gpuGenerationName(GpuGeneration generation);             ///< "ampere", "hopper", ...
QString weightKernelName(WeightKernel kernel);                   ///< "16-bit", "fp8", "int4 weight-only", ...
QString moeKernelName(MoeKernel kernel);                         ///< "fused moe", "trtllm fp4"
std::optional<MoeKernel> moeKernelFromName(const QString &name); ///< moeKernelName's inverse

} // namespace kvscope
