// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>

#include <QString>
#include <QStringList>

namespace kvscope {

/// One accelerator as kvscope sizes it. memoryBytes is the total the runtime
/// reports (torch.cuda total_memory, which vLLM multiplies by
/// --gpu-memory-utilization), not the marketed size.
struct GpuSpec
{
    QString id;   ///< "h100-sxm"
    QString name; ///< "NVIDIA H100 SXM 80GB"
    QStringList aliases;
    QString vendor;
    QString arch;
    std::int64_t memoryBytes = 0;
    QString memoryBasis;           ///< "cuda", "nvidia-smi" or "marketed": what memoryBytes was read from
    std::int64_t nvidiaSmiMib = 0; ///< nvidia-smi's memory.total (MiB) when known; 0 = not known
    double marketedGb = 0;         ///< as sold (GB = 10^9 B for NVIDIA/AMD datasheets)
    double bandwidthGBs = 0;       ///< GB/s = 10^9 B/s
    std::optional<double> tflopsBf16, tflopsFp16, tflopsFp8, tflopsInt8, tflopsFp4; ///< dense
    /// Peak FP32 on the vector (non-tensor) units, where weight-only kernels unpack and scale weights.
    std::optional<double> tflopsFp32Vector;
    bool fp8Native = false;
    std::optional<double> interconnectGBs;
    QString computeCapability;
    /// torch.cuda.get_device_name() of the card, as vLLM writes it into its fused-MoE config file names
    /// (spaces as underscores); what a start-up log names the device by. Empty where no source gives it.
    QStringList deviceNames;
    QString notes;
    QString source;
    bool custom = false;
    /// A preset with the memory its host's CUDA reports (--gpu l40s:44.42): the preset's id; else empty.
    QString presetId;

    friend bool operator==(const GpuSpec &, const GpuSpec &) = default;
};

} // namespace kvscope
