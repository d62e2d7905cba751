// SPDX-License-Identifier: MIT
#include "ui/window/startuprestore.h"

#include "core/scenario/scenariovalues.h"
#include "ui/state/scenariocontroller.h"
#include "ui/state/userlibrary.h"

#include <utility>

namespace kvscope {

StartupRestore::StartupRestore(ScenarioController *controller, UserLibrary *library, QObject *parent)
    : QObject(parent), m_controller(controller), m_library(library)
{
    connect(m_library, &UserLibrary::storedModelImported, this, &StartupRestore::storedModelImported);
    connect(m_library, &UserLibrary::storedModelDropped, this, &StartupRestore::storedModelDropped);
    // Slow is not broken: the saved scenario waits for the model (storedModelImported()).
    connect(m_library, &UserLibrary::storedModelSlow, this,
            [this](const QString &, const QString &problem) { Q_EMIT problemsFound({problem}); });
}

void StartupRestore::restoreScenario(settings::SettingsReader &saved)
{
    RestoredState state = appsettings::loadScenario(saved, *m_library);
    if (!state.pendingModel.isEmpty()) {
        // Until the saved model arrives: the saved values with the default
        // model if they fit it, else the default scenario (said once it arrives).
        const RestoredState whole = state;
        appsettings::checkWhole(state);
        m_pending = Pending{whole, state.scenario};
    }
    m_controller->setScenario(state.scenario);
    m_controller->setGrowthAxis(state.growthAxis);
    m_controller->setGrowthScale(state.growthScale);
    m_controller->setCounterfactuals(state.counterfactuals);
}

Scenario StartupRestore::scenarioToSave(Scenario current) const
{
    // Closed before the saved model came back: it stays the saved one.
    if (m_pending && current.model.id == m_pending->shown.model.id)
        current.model.id = m_pending->saved.pendingModel;
    return current;
}

void StartupRestore::storedModelImported(const QString &key)
{
    if (!m_pending || m_pending->saved.pendingModel != key)
        return;
    const Pending pending = *std::exchange(m_pending, std::nullopt);
    RestoredState restored = pending.saved;
    const ModelArch *model = m_library->findModel(key);
    // What the user (or a scenario file) changed meanwhile stays.
    if (!model || !differingValues(pending.shown, m_controller->scenario()).isEmpty())
        return;
    restored.scenario.model = *model;
    restored.pendingModel.clear();
    if (const std::optional<QString> problem = appsettings::checkWhole(restored))
        Q_EMIT problemsFound({*problem});
    m_controller->setScenario(restored.scenario);
}

void StartupRestore::storedModelDropped(const QString &key, const QString &problem)
{
    if (m_pending && m_pending->saved.pendingModel == key)
        m_pending.reset(); // the default model stays
    Q_EMIT problemsFound({problem});
}

} // namespace kvscope
