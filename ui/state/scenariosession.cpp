// SPDX-License-Identifier: MIT
#include "ui/state/scenariosession.h"

#include "core/common/atomicfile.h"
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/plan/planner.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/userlibrary.h"

#include <algorithm>

#include <QMap>

namespace kvscope {

namespace {

/// Every "model" or "gpu" value the scenario and the comparison's columns name.
QStringList namedValues(const ScenarioDocument &document, const QString &option)
{
    QStringList names{document.scenario.value(option)};
    for (const ScenarioValues &column : document.comparison)
        if (column.contains(option))
            names << column.value(option);
    return names;
}

} // namespace

ScenarioSession::ScenarioSession(ScenarioController *controller, UserLibrary *library,
                                 QuantizationAccess quantization, QObject *parent)
    : QObject(parent), m_controller(controller), m_library(library), m_quantization(std::move(quantization))
{}

ScenarioDocument ScenarioSession::currentDocument() const
{
    const Scenario &s = m_controller->scenario();
    ScenarioDocument d;
    d.scenario = scenarioToValues(s);
    d.growthAxis = m_controller->growthAxis();
    d.growthScale = m_controller->growthScale();
    d.counterfactuals = m_controller->counterfactuals();
    d.quantization = quantsettings::toChoices(m_quantization.read());
    d.comparison = m_comparison;
    if (s.speedCalibration.applies(s.gpu.id))
        d.speedCalibration = s.speedCalibration;

    // Carry what is no preset: the library's imports and custom GPUs, and
    // what the open file carried for its comparison's columns.
    const QStringList models = namedValues(d, fileKey(ScenarioField::Model));
    for (const UserLibrary::ImportedEntry &entry : m_library->importedModels()) {
        if (!models.contains(entry.key))
            continue;
        CarriedModel carried{entry.key, QString(), entry.imported.path, entry.configText};
        if (!entry.configText.isEmpty())
            carried.name = entry.imported.model.name;
        d.models << carried;
    }
    for (const CarriedModel &carried : m_carriedModels) {
        const bool have = std::any_of(d.models.begin(), d.models.end(),
                                      [&](const CarriedModel &m) { return m.id == carried.id; });
        if (models.contains(carried.id) && !have)
            d.models << carried;
    }
    const QStringList gpus = namedValues(d, fileKey(ScenarioField::Gpu));
    QList<GpuSpec> custom = m_library->customGpus();
    custom << m_carriedGpus;
    for (const GpuSpec &gpu : custom) {
        const bool have =
            std::any_of(d.gpus.begin(), d.gpus.end(), [&](const GpuSpec &g) { return g.id == gpu.id; });
        if (gpus.contains(gpu.id) && !have)
            d.gpus << gpu;
    }
    return d;
}

QByteArray ScenarioSession::currentBytes() const
{
    return scenarioFileBytes(currentDocument());
}

void ScenarioSession::open(const QString &path)
{
    const ScenarioDocument d = readScenarioFile(path);

    // Read and check everything before anything changes.
    QMap<QString, ImportedModel> imports; // carried models the scenario uses, by their id in the file
    const ScenarioResolvers library = m_library->resolvers();
    ScenarioResolvers resolvers = documentResolvers(d, library);
    resolvers.model = [&d, &imports, library](const QString &text) {
        for (const CarriedModel &carried : d.models)
            if (carried.id == text) {
                imports.insert(text, importCarriedModel(carried));
                return imports.value(text).model;
            }
        return library.model(text);
    };
    Scenario scenario;
    try {
        scenario = scenarioFromValues(d.scenario, resolvers, fileFieldLabel(QStringLiteral("scenario")));
        scenario.speedCalibration = d.speedCalibration.value_or(MeasuredSpeedScale{});
        planMemory(scenario);
    } catch (const Error &error) {
        throw Error(QStringLiteral("%1: %2").arg(path, error.message()));
    }
    for (qsizetype i = 0; i < d.comparison.size(); ++i) {
        try {
            applyValues(scenario, d.comparison.at(i), resolvers,
                        fileFieldLabel(QStringLiteral("comparison[%1]").arg(i)));
        } catch (const Error &error) {
            throw Error(QStringLiteral("%1: %2").arg(path, error.message()));
        }
    }
    std::optional<QuantSettings> quantization;
    if (d.quantization)
        quantization = quantsettings::fromChoices(*d.quantization, path);

    // Then apply: carried models and GPUs join the library under its keys.
    for (auto it = imports.begin(); it != imports.end(); ++it) {
        QByteArray config;
        for (const CarriedModel &carried : d.models)
            if (carried.id == it.key())
                config = carried.config;
        const QString key = m_library->addImported(it.value(), config);
        if (const ModelArch *model = m_library->findModel(key))
            scenario.model = *model;
    }
    if (scenario.gpu.custom) // the file's definition, under its id
        m_library->addCustomGpu(scenario.gpu);
    m_comparison = d.comparison;
    m_carriedModels = d.models;
    m_carriedGpus = d.gpus;
    m_controller->setScenario(scenario);
    m_controller->setGrowthAxis(d.growthAxis);
    m_controller->setGrowthScale(d.growthScale);
    m_controller->setCounterfactuals(d.counterfactuals);
    if (quantization)
        m_quantization.apply(*quantization);
    Q_EMIT comparisonOpened(m_comparison);
    m_path = path;
    m_savedBytes = currentBytes();
    m_library->rememberRecent(path);
    m_modified = false;
    Q_EMIT stateChanged();
}

void ScenarioSession::setComparison(const QList<ScenarioValues> &columns)
{
    if (columns == m_comparison)
        return;
    m_comparison = columns;
    refresh();
}

void ScenarioSession::save(const QString &path)
{
    const QByteArray bytes = currentBytes();
    writeFileAtomically(path, bytes);
    m_path = path;
    m_savedBytes = bytes;
    m_modified = false;
    m_library->rememberRecent(path);
    Q_EMIT stateChanged();
}

void ScenarioSession::refresh()
{
    const bool modified = !m_path.isEmpty() && currentBytes() != m_savedBytes;
    if (modified != m_modified) {
        m_modified = modified;
        Q_EMIT stateChanged();
    }
}

} // namespace kvscope
