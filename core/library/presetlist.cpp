// SPDX-License-Identifier: MIT
#include "library/presetlist.h"

#include "model/inventory.h"
#include "plan/kvcache.h"

#include <algorithm>

namespace kvscope {

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
    for (const QString &word : filter.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        bool found = false;
        for (const QString &text : haystack)
            found = found || text.contains(word, Qt::CaseInsensitive);
        if (!found)
            return false;
    }
    return true;
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
