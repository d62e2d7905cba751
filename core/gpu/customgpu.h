// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/scenariofield.h"
#include "core/gpu/gpuspec.h"

#include <cstdint>
#include <optional>

#include <QJsonObject>
#include <QString>
#include <QVariantMap>

namespace kvscope {

/// What a user enters for an accelerator kvscope has no preset for (or an
/// Apple M-series machine with its own amount of unified memory).
struct CustomGpuInput
{
    QString name;                     ///< shown in tables; "Custom GPU" when empty
    std::int64_t memoryBytes = 0;     ///< memory the runtime can use; the budget starts here
    double bandwidthGBs = 0;          ///< GB/s = 10^9 B/s; 0 = unknown
    std::optional<double> tflopsBf16; ///< dense
    std::optional<double> tflopsFp8;
    std::optional<double> tflopsInt8;
    std::optional<double>
        tflopsFp32Vector; ///< the vector units' FP32 rate (prices weight-only dequantization)
    std::optional<double> interconnectGBs; ///< GPU-to-GPU link; 128 GB/s or less is PCIe only (pcieOnly())
    bool fp8Native = false;
    QString vendor;
};

/// A validated custom GPU (custom = true, memory basis "custom", id
/// "custom-<name>"). Throws kvscope::Error naming the field and value: memory
/// must be positive and at most 1 PiB, rates finite and non-negative.
GpuSpec customGpu(const CustomGpuInput &input);

/// Convenience form of customGpu().
GpuSpec customGpu(const QString &name, std::int64_t memoryBytes, double bandwidthGBs = 0,
                  std::optional<double> tflopsBf16 = std::nullopt);

/// A GPU as JSON (format "kvscope-gpu-1": id, name, vendor, memory_bytes,
/// bandwidth_gbps, tflops_*_dense, interconnect_gbps, fp8_native, custom), and back. The GUI
/// remembers custom GPUs through these (QSettings takes the QVariantMap form).
QJsonObject gpuToJson(const GpuSpec &gpu);
GpuSpec customGpuFromJson(const QJsonObject &object, const QString &origin);
QVariantMap gpuToVariantMap(const GpuSpec &gpu);
GpuSpec customGpuFromVariantMap(const QVariantMap &map, const QString &origin);

/// How --gpu names a custom GPU and a preset with its host's memory, for help texts.
inline constexpr char CustomGpuSyntax[] =
    "custom:MEMORY_GIB[:BANDWIDTH_GBS[:TFLOPS_BF16[:INTERCONNECT_GBS]]]";
inline constexpr char PresetMemorySyntax[] = "PRESET:MEMORY_GIB";

/// Parses --gpu custom:MEMORY_GIB[:BANDWIDTH_GBS[:TFLOPS_BF16[:INTERCONNECT_GBS]]] ("custom:24",
/// "custom:192:800", "custom:23.5:1008:165", "custom:95.01:1597:0:128"); MEMORY_GIB is exact to 10^-6 GiB.
GpuSpec parseCustomGpuOption(const QString &text, const QString &option = optionFlag(ScenarioField::Gpu));

/// A preset with its host's memory, --gpu PRESET:MEMORY_GIB ("l40s:44.42"): drivers, ECC and MIG move the
/// total CUDA reports. Everything else is the preset's; id "l40s:44.42", presetId the preset's id, the name
/// says the memory. MEMORY_GIB is exact to 10^-6 GiB; throws kvscope::Error naming `option` and the value
/// unless it is between 1 byte and 1 PiB.
GpuSpec presetWithMemory(const GpuSpec &preset, const QString &memoryGiB,
                         const QString &option = optionFlag(ScenarioField::Gpu));

} // namespace kvscope
