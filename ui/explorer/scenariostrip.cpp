// SPDX-License-Identifier: MIT
#include "ui/explorer/scenariostrip.h"

#include "core/common/error.h"
#include "core/output/scenariolabel.h"
#include "core/plan/planner.h"
#include "core/scenario/launchline.h"
#include "ui/widgets/flowlayout.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>

namespace kvscope {

ScenarioStrip::ScenarioStrip(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_hint(new QLabel(this)), m_add(new QPushButton(this)),
      m_chipArea(new QWidget(this))
{
    setObjectName(QStringLiteral("scenarioStrip"));
    m_add->setObjectName(QStringLiteral("addScenarioButton"));
    m_hint->setObjectName(QStringLiteral("scenarioStripHint"));
    new FlowLayout(m_chipArea, 6, 4);
    m_chipArea->layout()->setContentsMargins(0, 0, 0, 0);
    m_chipArea->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setFocusPolicy(Qt::StrongFocus);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title, 0, Qt::AlignTop);
    layout->addWidget(m_hint, 0, Qt::AlignTop);
    layout->addWidget(m_chipArea, 1);
    layout->addWidget(m_add, 0, Qt::AlignTop);
    connect(m_add, &QPushButton::clicked, this, &ScenarioStrip::addRequested);
    retranslate();
    rebuild();
}

void ScenarioStrip::setScenarios(const QList<Scenario> &scenarios)
{
    m_scenarios = scenarios;
    m_current = -1;
    rebuild();
}

void ScenarioStrip::addScenario(const Scenario &scenario)
{
    const qsizetype existing = m_scenarios.indexOf(scenario);
    if (existing >= 0) {
        m_current = int(existing);
        rebuild();
        return;
    }
    m_scenarios << scenario;
    m_current = int(m_scenarios.size()) - 1;
    rebuild();
    Q_EMIT scenariosChanged();
}

void ScenarioStrip::removeScenario(int index)
{
    if (index < 0 || index >= m_scenarios.size())
        return;
    m_scenarios.removeAt(index);
    m_current = m_current == index ? -1 : m_current > index ? m_current - 1 : m_current;
    rebuild();
    Q_EMIT scenariosChanged();
}

void ScenarioStrip::showCurrent(const Scenario &scenario)
{
    const int index = int(m_scenarios.indexOf(scenario));
    if (index == m_current)
        return;
    m_current = index;
    for (qsizetype i = 0; i < m_chips.size(); ++i)
        m_chips.at(i)->setChecked(i == m_current);
}

bool ScenarioStrip::step(int delta)
{
    if (m_scenarios.isEmpty())
        return false;
    const int last = int(m_scenarios.size()) - 1;
    const int next = m_current < 0 ? (delta > 0 ? 0 : last) : m_current + delta;
    if (next < 0 || next > last)
        return false;
    choose(next);
    return true;
}

void ScenarioStrip::choose(int index)
{
    m_current = index;
    for (qsizetype i = 0; i < m_chips.size(); ++i)
        m_chips.at(i)->setChecked(i == index);
    Q_EMIT scenarioChosen(m_scenarios.at(index));
}

void ScenarioStrip::rebuild()
{
    qDeleteAll(m_chips);
    m_chips.clear();
    for (qsizetype i = 0; i < m_scenarios.size(); ++i) {
        const Scenario &scenario = m_scenarios.at(i);
        auto *chip = new QToolButton(m_chipArea);
        chip->setObjectName(QStringLiteral("scenarioChip%1").arg(i));
        chip->setCheckable(true);
        chip->setChecked(i == m_current);
        chip->setAutoRaise(false);
        try {
            chip->setText(scenarioLabel(scenario, planMemory(scenario)));
        } catch (const Error &) {
            chip->setText(scenario.model.name); // a scenario the core no longer plans still shows
        }
        chip->setToolTip(tr("%1\nbatch %2 × %3 tokens\nPage Up / Page Down step through the strip.")
                             .arg(launchLine(scenario).command())
                             .arg(scenario.batchSize)
                             .arg(scenario.seqLen));
        // A context menu of its own: an action added to a tool button draws a menu arrow on it.
        chip->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(chip, &QToolButton::customContextMenuRequested, this, [this, chip](const QPoint &at) {
            QMenu menu;
            const QAction *remove = menu.addAction(tr("Remove from the strip"));
            if (menu.exec(chip->mapToGlobal(at)) != remove)
                return;
            // Later: removing rebuilds the chips, this one among them, inside its own event.
            const int index = int(m_chips.indexOf(chip));
            QTimer::singleShot(0, this, [this, index] { removeScenario(index); });
        });
        connect(chip, &QToolButton::clicked, this, [this, chip] { choose(int(m_chips.indexOf(chip))); });
        m_chipArea->layout()->addWidget(chip);
        m_chips << chip;
    }
    m_hint->setVisible(m_scenarios.isEmpty());
    updateGeometry();
}

void ScenarioStrip::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_PageUp:
        step(-1);
        return;
    case Qt::Key_PageDown:
        step(1);
        return;
    case Qt::Key_Delete:
        for (qsizetype i = 0; i < m_chips.size(); ++i)
            if (m_chips.at(i)->hasFocus()) {
                removeScenario(int(i));
                return;
            }
        break;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

void ScenarioStrip::retranslate()
{
    m_title->setText(tr("Scenarios:"));
    m_hint->setText(tr("none saved yet"));
    m_add->setText(tr("+ Add this scenario"));
    m_add->setToolTip(tr("Keep the scenario on screen as a chip, to come back to it (Ctrl+D). In "
                         "presentation mode (F5) Page Up / Page Down step through the chips."));
}

void ScenarioStrip::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        rebuild();
    }
    QWidget::changeEvent(event);
}

} // namespace kvscope
