// SPDX-License-Identifier: MIT
#include "core/engine/runtime.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/common/units.h"
#include "core/model/imagetokens.h"
#include "core/model/visiontower.h"

#include <algorithm>

#include <QCoreApplication>

namespace kvscope {

namespace {

bool hasLargeSchedulerDefaults(const GpuSpec &gpu)
{
    // vLLM reads the device name and total memory; A100s keep the small defaults (PR #17885).
    return gpu.memoryBytes >= 70 * GiB && !gpu.name.contains(QLatin1String("A100"), Qt::CaseInsensitive);
}

} // namespace

std::int64_t defaultMaxNumSeqs(const GpuSpec &gpu)
{
    return hasLargeSchedulerDefaults(gpu) ? 1024 : 256;
}

std::int64_t defaultMaxNumBatchedTokens(const GpuSpec &gpu)
{
    return hasLargeSchedulerDefaults(gpu) ? 8192 : 2048;
}

std::int64_t EncoderProfile::peakBytes(std::int64_t languageModelPeak) const
{
    return (Checked(pixelBytes) + std::max(towerPeakBytes, (Checked(languageModelPeak) + heldBytes).value()))
        .value();
}

EncoderProfile encoderProfile(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                              std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens,
                              std::int64_t maxModelLen, bool paddedToBudget)
{
    EncoderProfile e;
    const ImageTokens largest = largestImage(model);
    e.itemEmbeddings = largest.embeddings;
    if (e.itemEmbeddings <= 0)
        return e;
    e.budget = std::max(maxNumBatchedTokens, e.itemEmbeddings);
    const std::int64_t perPrompt =
        std::max<std::int64_t>(1, std::min(VllmDefaultImagesPerPrompt, maxModelLen / e.itemEmbeddings));
    e.items = std::max<std::int64_t>(
        1, std::min(e.budget / e.itemEmbeddings, (Checked(maxNumSeqs) * perPrompt).value()));
    const auto tooLarge = [&] {
        return QCoreApplication::translate("kvscope::Planner",
                                           "%2: %1 tokens need encoder outputs beyond 2^63 bytes")
            .arg(QString::number(maxNumBatchedTokens), optionFlag(ScenarioField::MaxNumBatchedTokens));
    };
    e.heldBytes = withOverflowMessage(
                      [&] {
                          // Qwen3-VL's outputs carry its DeepStack features beside the embedding
                          // (Qwen3VLForConditionalGeneration.visual_dim + multiscale_dim, qwen3_vl.py).
                          return Checked(e.items) * (paddedToBudget ? e.budget : e.itemEmbeddings) *
                                 model.hiddenSize * (1 + model.vision.deepstackMergers) * dtypeBytes;
                      },
                      tooLarge)
                      .value();
    e.pixelBytes =
        withOverflowMessage(
            [&] { return Checked(visionPixelBytes(model.vision, largest, e.items, dtypeBytes)); }, tooLarge)
            .value();
    e.towerPeakBytes = withOverflowMessage(
                           [&] {
                               return Checked(visionTowerPeakBytes(
                                   model.vision, (Checked(largest.patches) * e.items).value(), dtypeBytes,
                                   tensorParallelSize));
                           },
                           tooLarge)
                           .value();
    return e;
}

namespace {

/// --max-num-seqs whose sampler buffers outgrow 2^63 bytes, named as the option.
QString samplerOverflowMessage(std::int64_t maxNumSeqs)
{
    return QCoreApplication::translate("kvscope::Planner",
                                       "%2: %1 sequences need sampler buffers beyond 2^63 bytes")
        .arg(QString::number(maxNumSeqs), optionFlag(ScenarioField::MaxNumSeqs));
}

} // namespace

std::int64_t activationBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                             std::int64_t maxNumSeqs, std::int64_t maxNumBatchedTokens,
                             std::int64_t samplerBytesPerLogit)
{
    const std::int64_t tp = std::max(1, tensorParallelSize);
    // Logits are gathered to the full vocabulary on every rank before sampling.
    const Checked sampler =
        withOverflowMessage([&] { return Checked(maxNumSeqs) * model.vocabSize * samplerBytesPerLogit; },
                            [&] { return samplerOverflowMessage(maxNumSeqs); });
    const Checked tokens = withOverflowMessage(
        [&] {
            const Checked hidden = Checked(maxNumBatchedTokens) * model.hiddenSize * dtypeBytes;
            if (!model.moe.enabled())
                return hidden;
            // fused_moe shares one buffer between its first and third intermediates.
            const std::int64_t width = ceilDiv(model.moe.expertIntermediateSize, tp);
            const std::int64_t shared = std::max<std::int64_t>(2 * width, model.hiddenSize);
            return hidden +
                   Checked(maxNumBatchedTokens) * model.moe.expertsPerToken * (shared + width) * dtypeBytes;
        },
        [&] {
            return QCoreApplication::translate("kvscope::Planner",
                                               "%2: %1 tokens need activation buffers beyond 2^63 bytes")
                .arg(QString::number(maxNumBatchedTokens), optionFlag(ScenarioField::MaxNumBatchedTokens));
        });
    return withOverflowMessage([&] { return sampler + tokens; },
                               [&] {
                                   return QCoreApplication::translate("kvscope::Planner",
                                                                      "%3 %1 and %4 %2 need activation "
                                                                      "buffers beyond 2^63 bytes")
                                       .arg(QString::number(maxNumSeqs), QString::number(maxNumBatchedTokens),
                                            optionFlag(ScenarioField::MaxNumSeqs),
                                            optionFlag(ScenarioField::MaxNumBatchedTokens));
                               })
        .value();
}

std::int64_t forwardPeakBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                              int expertTensorParallelSize, std::int64_t maxNumBatchedTokens)
{
    const std::int64_t layersTerm =
        activationBytes(model, dtypeBytes, expertTensorParallelSize, 0, maxNumBatchedTokens, 0);
    bool hasDense = false;
    for (int i = 0; i < model.numLayers && !hasDense; ++i)
        hasDense = !model.isMoeLayer(i);
    if (!hasDense)
        return layersTerm;
    const std::int64_t width = ceilDiv(model.intermediateSize, std::max(1, tensorParallelSize));
    return withOverflowMessage(
               [&] { return Checked(layersTerm) + Checked(maxNumBatchedTokens) * 3 * width * dtypeBytes; },
               [&] {
                   return QCoreApplication::translate(
                              "kvscope::Planner", "%2: %1 tokens need activation buffers beyond 2^63 bytes")
                       .arg(QString::number(maxNumBatchedTokens),
                            optionFlag(ScenarioField::MaxNumBatchedTokens));
               })
        .value();
}

std::int64_t modelRunnerV2WarmPeakBytes(const ModelArch &model, int dtypeBytes, int tensorParallelSize,
                                        int expertTensorParallelSize, std::int64_t maxNumSeqs,
                                        std::int64_t maxNumBatchedTokens)
{
    const std::int64_t forward = forwardPeakBytes(model, dtypeBytes, tensorParallelSize,
                                                  expertTensorParallelSize, maxNumBatchedTokens);
    const std::int64_t rows = std::min(maxNumSeqs, maxNumBatchedTokens);
    const std::int64_t float32Bytes = 4;
    const Checked sampler = withOverflowMessage(
        [&] {
            return Checked(maxNumBatchedTokens) * model.hiddenSize * dtypeBytes +
                   Checked(rows) * model.vocabSize * (dtypeBytes + float32Bytes);
        },
        [&] { return samplerOverflowMessage(maxNumSeqs); });
    return std::max(forward, sampler.value());
}

bool pcieOnly(const GpuSpec &gpu)
{
    constexpr double pcie5x16GBs = 128;
    return gpu.interconnectGBs && *gpu.interconnectGBs <= pcie5x16GBs;
}

std::int64_t runtimeOverheadBytes(const GpuSpec &gpu, int tensorParallelSize)
{
    return tensorParallelSize > 1 && !pcieOnly(gpu) ? 2120 * MiB : 256 * MiB;
}

} // namespace kvscope
