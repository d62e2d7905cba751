// SPDX-License-Identifier: MIT
#include "core/engine/sglang.h"

#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/engine/runtime.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

namespace kvscope {

SglangDefaults sglangDefaults(const GpuSpec &gpu, int tensorParallelSize, std::int64_t drafterReserveMib,
                              int attentionGroups)
{
    // SGLang reads nvidia-smi's memory.total here (get_nvgpu_memory_capacity), not CUDA's smaller total.
    const std::int64_t gpuMem = gpu.nvidiaSmiMib > 0 ? gpu.nvidiaSmiMib : gpu.memoryBytes / MiB;
    constexpr std::int64_t MibPerGib = GiB / MiB;
    const bool smallTp = tensorParallelSize < 4;
    SglangDefaults d;
    // The if/else chain of _handle_gpu_memory_settings, by GPU memory in MiB.
    if (gpuMem < 20 * MibPerGib)
        d = {2048, 8};
    else if (gpuMem < 35 * MibPerGib)
        d = {2048, smallTp ? 24 : 80};
    else if (gpuMem < 60 * MibPerGib)
        d = {4096, smallTp ? 32 : 160};
    else if (gpuMem < 160 * MibPerGib)
        d = {8192, smallTp ? 256 : 512};
    else
        d = {16384, 512};
    // Activation of a large prefill, CUDA graphs and large parallel sizes (MiB).
    double reserved = 512 + double(std::max<std::int64_t>(d.chunkedPrefillSize, 2048)) * 1.5 +
                      double(d.cudaGraphMaxBs) * 2 + tensorParallelSize / 8.0 * 1024;
    // Data-parallel attention's graphs for every group (sgl-project/sglang v0.5.6 server_args.py).
    if (attentionGroups > 1) {
        reserved += double(d.cudaGraphMaxBs) * attentionGroups * 3;
        if (d.cudaGraphMaxBs > 300)
            reserved += double(d.cudaGraphMaxBs) * attentionGroups * 1.5;
    }
    d.reservedMib = std::llround(gpuMem > 60 * MibPerGib ? std::max(reserved, 10.0 * 1024) : reserved) +
                    drafterReserveMib;
    // round(x, 3) in millionths.
    d.memFractionStaticPpm = std::llround(double(gpuMem - d.reservedMib) / double(gpuMem) * 1000) * 1000;
    return d;
}

std::int64_t sglangPreloadBytes(const GpuSpec &gpu, int tensorParallelSize)
{
    return tensorParallelSize > 1 && !pcieOnly(gpu) ? GiB * 153 / 100 : GiB * 51 / 100;
}

bool sglangSplitsSlidingWindowPool(const ModelArch &model)
{
    // is_hybrid_swa_model's list (python/sglang/srt/configs/model_config.py): gpt-oss since
    // sgl-project/sglang#17261, Llama 4 without --hybrid-kvcache-ratio since #16399. DeepSeek-V4,
    // on the same list, has pools of its own (sglangUnsupportedReason).
    static const QStringList hybridSwaArchitectures{QStringLiteral("Llama4ForConditionalGeneration"),
                                                    QStringLiteral("GptOssForCausalLM"),
                                                    QStringLiteral("MiMoV2ForCausalLM"),
                                                    QStringLiteral("MiMoV2FlashForCausalLM"),
                                                    QStringLiteral("Step3p5ForCausalLM"),
                                                    QStringLiteral("Step3p7ForConditionalGeneration"),
                                                    QStringLiteral("Gemma4ForCausalLM"),
                                                    QStringLiteral("Gemma4ForConditionalGeneration"),
                                                    QStringLiteral("LagunaForCausalLM"),
                                                    QStringLiteral("MellumForCausalLM"),
                                                    QStringLiteral("InklingForConditionalGeneration")};
    return hybridSwaArchitectures.contains(model.architecture);
}

QString sglangUnsupportedReason(const ModelArch &model)
{
    bool attention = false;
    for (int i = 0; i < model.numLayers; ++i)
        attention = attention || (!model.isRecurrentLayer(i) && !model.isKvSharedLayer(i));
    const QString flag = optionFlag(ScenarioField::Engine);
    if (!attention)
        return QCoreApplication::translate("kvscope::Planner",
                                           "%2 sglang: %1 has no attention layer, only recurrent ones; "
                                           "kvscope plans SGLang's state pool beside a KV pool")
            .arg(model.name, flag);
    if (model.architecture == QLatin1String("DeepseekV4ForCausalLM"))
        return QCoreApplication::translate(
                   "kvscope::Planner", "%2 sglang: SGLang keeps %1's compressed attention in pools of its "
                                       "own (DSV4PoolConfigurator); kvscope does not model them")
            .arg(model.name, flag);
    return {};
}

std::int64_t sglangDefaultMaxRunningRequests(std::int64_t maxTotalTokens, std::int64_t contextLength)
{
    const auto share =
        std::int64_t(double(maxTotalTokens) / double(std::max<std::int64_t>(1, contextLength)) * 512);
    return std::min<std::int64_t>(std::max<std::int64_t>(share, 2048), 4096);
}

int sglangPageSize(const ModelArch &model)
{
    return model.indexer.enabled() ? 64 : 1;
}

} // namespace kvscope
