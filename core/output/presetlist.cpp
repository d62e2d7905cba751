// SPDX-License-Identifier: MIT
#include "core/output/presetlist.h"

#include "core/model/inventory.h"
#include "core/plan/kvcache.h"

#include <algorithm>

namespace kvscope {

namespace {

/// The search rule of the preset lists: every word of `filter` occurs,
/// ignoring case, in at least one of `texts`.
bool everyWordIn(const QStringList &texts, const QString &filter)
{
    const QStringList words = filter.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return std::all_of(words.begin(), words.end(), [&](const QString &word) {
        return std::any_of(texts.begin(), texts.end(),
                           [&](const QString &text) { return text.contains(word, Qt::CaseInsensitive); });
    });
}

} // namespace

PresetSummary summarizePreset(const ModelArch &m)
{
    const ParameterCounts counts = countParameters(m);
    PresetSummary s;
    s.id = m.id;
    s.name = m.name;
    s.family = m.family;
    s.hfRepoIds = m.hfRepoIds;
    s.paramsTotal = counts.total;
    s.paramsActive = counts.active;
    s.kvBytesPerTokenBf16 = kvBytesPerToken(m, KvCacheDtype::BFloat16, 1);
    s.maxPositionEmbeddings = m.maxPositionEmbeddings;
    s.moe = m.moe.enabled();
    s.mla = m.usesMla();
    s.slidingLayers = m.slidingLayerCount();
    return s;
}

bool presetMatches(const ModelArch &m, const QString &filter)
{
    QStringList haystack = QStringList{m.id, m.name, m.family} + m.hfRepoIds;
    // Kinds a user may search for by name.
    if (m.moe.enabled())
        haystack << QStringLiteral("moe");
    if (m.usesMla())
        haystack << QStringLiteral("mla");
    if (m.slidingLayerCount() > 0)
        haystack << QStringLiteral("sliding-window swa");
    if (m.vision.enabled())
        haystack << QStringLiteral("multimodal vision");
    if (m.recurrent.enabled())
        haystack << QStringLiteral("hybrid recurrent mamba deltanet");
    if (m.attentionChunkSize > 0)
        haystack << QStringLiteral("chunked");
    if (m.indexer.enabled())
        haystack << QStringLiteral("sparse-attention dsa");
    return everyWordIn(haystack, filter);
}

bool presetMatches(const GpuSpec &g, const QString &filter)
{
    return everyWordIn(QStringList{g.id, g.name, g.vendor} + g.aliases, filter);
}

QList<PresetFamily> presetsByFamily(const QList<ModelArch> &models, const QString &filter)
{
    QList<PresetFamily> families;
    for (const ModelArch &m : models) {
        if (!presetMatches(m, filter))
            continue;
        auto family = std::find_if(families.begin(), families.end(),
                                   [&](const PresetFamily &f) { return f.family == m.family; });
        if (family == families.end()) {
            families.append(PresetFamily{m.family, {}});
            family = families.end() - 1;
        }
        family->presets << summarizePreset(m);
    }
    for (PresetFamily &f : families)
        std::stable_sort(
            f.presets.begin(), f.presets.end(),
            [](const PresetSummary &a, const PresetSummary &b) { return a.paramsTotal < b.paramsTotal; });
    return families;
}

} // namespace kvscope
