// SPDX-License-Identifier: MIT
#pragma once

#include "core/gpu/gpuspec.h"
#include "core/model/modelarch.h"

#include <cstdint>

#include <QList>
#include <QString>
#include <QStringList>

namespace kvscope {

/// One line of the model picker: what a user compares presets by.
struct PresetSummary
{
    QString id;
    QString name;
    QString family;
    QStringList hfRepoIds;
    std::int64_t paramsTotal = 0;
    std::int64_t paramsActive = 0;
    std::int64_t kvBytesPerTokenBf16 = 0; ///< every layer, TP 1, no window, no blocks
    std::int64_t maxPositionEmbeddings = 0;
    bool moe = false;
    bool mla = false;
    int slidingLayers = 0;
};

/// Presets of one family, smallest first.
struct PresetFamily
{
    QString family;
    QList<PresetSummary> presets;
};

PresetSummary summarizePreset(const ModelArch &model);

/// True when every word of `filter` occurs (ignoring case) in the model's id,
/// name, family, one of its HuggingFace repo ids or one of the kind words
/// "moe", "mla", "swa" (sliding-window), "multimodal"; an empty filter matches all.
bool presetMatches(const ModelArch &model, const QString &filter);

/// True when every word of `filter` occurs (ignoring case) in the GPU's id,
/// name, vendor or one of its aliases; an empty filter matches all.
bool presetMatches(const GpuSpec &gpu, const QString &filter);

/// The models that match `filter`, grouped by family in the order families
/// first appear in `models`, each family sorted by total parameters.
QList<PresetFamily> presetsByFamily(const QList<ModelArch> &models, const QString &filter = {});

} // namespace kvscope
