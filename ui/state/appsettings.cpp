// SPDX-License-Identifier: MIT
#include "ui/state/appsettings.h"

#include "core/common/error.h"
#include "core/compare/comparison.h"
#include "core/plan/planner.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/settingkeys.h"
#include "ui/state/userlibrary.h"

#include <optional>

namespace kvscope::appsettings {

using settings::scenarioKeys;
using settings::Setting;

void reset()
{
    settings::clearAll();
}

namespace {

void writeScenario(settings::SettingsWriter &writer, const Scenario &s)
{
    const settings::ScenarioKeys &k = scenarioKeys();
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
    writer.write(k.promptLen, s.promptLen);
    writer.write(k.maxNumSeqs, s.maxNumSeqs);
    writer.write(k.maxNumBatchedTokens, s.maxNumBatchedTokens);
    writer.write(k.mambaSsmCacheDtype, s.mambaSsmCacheDtype);
}

/// Each value may be fine alone and the combination still invalid: the line
/// that says why the planner refuses the scenario, if it does.
std::optional<QString> refusal(const Scenario &s)
{
    try {
        planMemory(s);
    } catch (const Error &error) {
        return QStringLiteral("saved scenario ignored: %1").arg(error.message());
    }
    return std::nullopt;
}

/// The scenario keys read one by one; nullopt (reported) when the planner refuses them together.
/// A model still being imported in the background is named in `pendingModel` (the default model
/// stands in); without `pendingModel` such a model is reported and falls back.
std::optional<Scenario> readScenario(settings::SettingsReader &reader, const UserLibrary &library,
                                     QString *pendingModel)
{
    const settings::ScenarioKeys &k = scenarioKeys();
    Scenario s;
    s.model = reader.read(k.model, [&](const QString &id) {
        if (library.isImportPending(id)) {
            if (!pendingModel)
                throw Error(QStringLiteral("its imported model is still being read"));
            *pendingModel = id;
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
    s.promptLen = reader.read(k.promptLen);
    s.maxNumSeqs = reader.read(k.maxNumSeqs);
    s.maxNumBatchedTokens = reader.read(k.maxNumBatchedTokens);
    s.mambaSsmCacheDtype = reader.read(k.mambaSsmCacheDtype);

    if (pendingModel && !pendingModel->isEmpty())
        return s; // checked as a whole once its model arrives (checkWhole)
    if (const std::optional<QString> problem = refusal(s)) {
        reader.reportAll(*problem);
        return std::nullopt;
    }
    return s;
}

} // namespace

void saveScenario(const Scenario &s)
{
    settings::SettingsWriter writer;
    writeScenario(writer, s);
}

void saveChartChoices(GrowthAxis growthAxis, AxisScale growthScale, bool counterfactuals)
{
    const settings::ScenarioKeys &k = scenarioKeys();
    settings::SettingsWriter writer;
    writer.write(k.growthAxis, growthAxis);
    writer.write(k.growthScale, growthScale);
    writer.write(k.counterfactuals, counterfactuals);
}

RestoredState loadScenario(settings::SettingsReader &reader, const UserLibrary &library)
{
    const settings::ScenarioKeys &k = scenarioKeys();
    RestoredState state;
    state.scenario =
        readScenario(reader, library, &state.pendingModel).value_or(ScenarioController::defaultScenario());
    state.growthAxis = reader.read(k.growthAxis);
    state.growthScale = reader.read(k.growthScale);
    state.counterfactuals = reader.read(k.counterfactuals);
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

std::optional<QString> checkWhole(RestoredState &state)
{
    std::optional<QString> problem = refusal(state.scenario);
    if (problem)
        state.scenario = ScenarioController::defaultScenario();
    return problem;
}

void saveScenarioStrip(const QList<Scenario> &scenarios)
{
    settings::SettingsWriter writer;
    writer.beginWriteArray(settings::windowKeys().scenarioStrip);
    for (qsizetype i = 0; i < scenarios.size(); ++i) {
        writer.setArrayIndex(int(i));
        writeScenario(writer, scenarios.at(i));
    }
    writer.endArray();
}

QList<Scenario> loadScenarioStrip(settings::SettingsReader &reader, const UserLibrary &library)
{
    QList<Scenario> scenarios;
    const int size = reader.beginReadArray(settings::windowKeys().scenarioStrip);
    for (int i = 0; i < size; ++i) {
        reader.setArrayIndex(i);
        if (const std::optional<Scenario> s = readScenario(reader, library, nullptr))
            scenarios << *s;
    }
    reader.endArray();
    return scenarios;
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
