// SPDX-License-Identifier: MIT
#include "settings/appsettings.h"

#include "common/error.h"
#include "library/userlibrary.h"
#include "plan/planner.h"
#include "scenariocontroller.h"
#include "settings/settingkeys.h"

namespace kvscope::appsettings {

using settings::scenarioKeys;

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
        if (library.isImportPending(id)) {
            state.pendingModel = id;
            return ScenarioController::defaultScenario().model; // until it arrives
        }
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

    if (state.pendingModel.isEmpty()) {
        if (const std::optional<QString> problem = checkWhole(state))
            reader.reportAll(*problem);
    }
    return state;
}

std::optional<QString> checkWhole(RestoredState &state)
{
    // Each value may be fine alone and the combination still invalid.
    try {
        planMemory(state.scenario);
    } catch (const Error &error) {
        state.scenario = ScenarioController::defaultScenario();
        return QStringLiteral("saved scenario ignored: %1").arg(error.message());
    }
    return std::nullopt;
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
