// SPDX-License-Identifier: MIT
#include "settings/appsettings.h"

#include "common/error.h"
#include "compare/comparison.h"
#include "library/userlibrary.h"
#include "plan/planner.h"
#include "scenariocontroller.h"
#include "settings/settingkeys.h"

namespace kvscope::appsettings {

using settings::scenarioKeys;
using settings::Setting;

void reset()
{
    settings::clearAll();
}

void saveScenario(const Scenario &s, GrowthAxis growthAxis, AxisScale growthScale)
{
    const settings::ScenarioKeys &k = scenarioKeys();
    settings::SettingsWriter writer;
    writer.write(k.model, s.model.id);
    writer.write(k.gpu, s.gpu.id);
    writer.write(k.tensorParallelSize, s.tensorParallelSize);
    writer.write(k.dtype, s.dtype);
    writer.write(k.quantization, quantizationChoiceName(s.quantization));
    writer.write(k.groupSize, s.quantization ? s.quantization->groupSize : 128);
    writer.write(k.kvCacheDtype, s.kvCacheDtype);
    writer.write(k.gpuMemoryUtilizationPpm, s.gpuMemoryUtilizationPpm);
    writer.write(k.blockSize, s.blockSize);
    writer.write(k.maxModelLen, s.maxModelLen);
    writer.write(k.batchSize, s.batchSize);
    writer.write(k.seqLen, s.seqLen);
    writer.write(k.growthAxis, growthAxis);
    writer.write(k.growthScale, growthScale);
}

RestoredState loadScenario(settings::SettingsReader &reader, const UserLibrary &library)
{
    const settings::ScenarioKeys &k = scenarioKeys();
    RestoredState state;
    Scenario &s = state.scenario;
    s.model = reader.read(k.model, [&](const QString &id) {
        const ModelArch *model = library.findModel(id);
        if (!model)
            throw Error(QStringLiteral("no such model preset or imported model"));
        return *model;
    });
    s.gpu = reader.read(k.gpu, [&](const QString &id) {
        const GpuSpec *gpu = library.findGpu(id);
        if (!gpu)
            throw Error(QStringLiteral("no such GPU preset or custom GPU"));
        return *gpu;
    });
    s.tensorParallelSize = reader.read(k.tensorParallelSize);
    s.dtype = reader.read(k.dtype);
    reader.read(k.quantization, [&](const QString &t) { s.quantization = parseQuantizationChoice(t); });
    const int groupSize = reader.read(k.groupSize);
    if (s.quantization)
        s.quantization->groupSize = groupSize;
    s.kvCacheDtype = reader.read(k.kvCacheDtype);
    s.gpuMemoryUtilizationPpm = reader.read(k.gpuMemoryUtilizationPpm);
    s.blockSize = reader.read(k.blockSize);
    s.maxModelLen = reader.read(k.maxModelLen);
    s.batchSize = reader.read(k.batchSize);
    s.seqLen = reader.read(k.seqLen);
    state.growthAxis = reader.read(k.growthAxis);
    state.growthScale = reader.read(k.growthScale);

    // Each value may be fine alone and the combination still invalid.
    try {
        planMemory(s);
    } catch (const Error &error) {
        reader.reportAll(QStringLiteral("saved scenario ignored: %1").arg(error.message()));
        state.scenario = ScenarioController::defaultScenario();
    }
    return state;
}

void saveComparison(const QList<ScenarioValues> &columns)
{
    QVariantList list;
    for (const ScenarioValues &column : columns) {
        QVariantMap map;
        for (auto it = column.begin(); it != column.end(); ++it)
            map.insert(it.key(), it.value());
        list << map;
    }
    settings::SettingsWriter().write(settings::comparisonKeys().columns, list);
}

QList<ScenarioValues> loadComparison(settings::SettingsReader &reader, const Scenario &base,
                                     const UserLibrary &library)
{
    const Setting<QVariantList> &key = settings::comparisonKeys().columns;
    QList<ScenarioValues> columns;
    for (const QVariant &value : reader.read(key)) {
        try {
            if (value.typeId() != QMetaType::QVariantMap)
                throw Error(QStringLiteral("not a map of options to values"));
            const QVariantMap map = value.toMap();
            ScenarioValues column;
            for (auto it = map.begin(); it != map.end(); ++it)
                column.insert(it.key(), it.value().toString());
            applyValues(base, column, library.resolvers()); // names an unknown option or a bad value
            if (columns.size() == MaxComparisonColumns)
                throw Error(QStringLiteral("more than %1 columns").arg(MaxComparisonColumns));
            columns << column;
        } catch (const Error &error) {
            reader.report(key.key, value, error.message());
        }
    }
    return columns;
}

QString language(settings::SettingsReader &reader)
{
    return reader.read(settings::windowKeys().language);
}

void setLanguage(const QString &code)
{
    settings::SettingsWriter().write(settings::windowKeys().language, code);
}

} // namespace kvscope::appsettings
