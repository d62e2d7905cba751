// SPDX-License-Identifier: MIT
#pragma once

#include "core/scenario/scenario.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QToolButton;

namespace kvscope {

/// Saved scenarios as chips ("Llama-3.1-70B · 4×H100 SXM 80GB · FP8 KV · 64 × 32K"),
/// to step through in front of a room: click a chip, or Page Up / Page Down while
/// the strip has focus (the window adds the keys in presentation mode). A chip's
/// context menu or Delete removes it.
class ScenarioStrip : public QWidget
{
    Q_OBJECT

public:
    explicit ScenarioStrip(QWidget *parent = nullptr);

    const QList<Scenario> &scenarios() const { return m_scenarios; }
    /// Replaces the chips (a restored strip); emits nothing.
    void setScenarios(const QList<Scenario> &scenarios);
    /// Adds `scenario` as the last chip, unless an equal one is there; marks it current.
    void addScenario(const Scenario &scenario);
    void removeScenario(int index);

    /// The chip of the scenario on screen, or -1 when it is none of them.
    int currentIndex() const { return m_current; }
    /// Marks the chip equal to `scenario` as current (none when there is no such chip).
    void showCurrent(const Scenario &scenario);
    /// Chooses the chip `delta` places from the current one (the first or last when
    /// none is current); false at either end.
    bool step(int delta);

    QList<QToolButton *> chips() const { return m_chips; }
    QPushButton *addButton() const { return m_add; }

Q_SIGNALS:
    /// A chip was chosen: the window shows its scenario.
    void scenarioChosen(const kvscope::Scenario &scenario);
    /// Chips were added or removed (the window saves the strip).
    void scenariosChanged();
    /// The add button: the window adds the scenario on screen.
    void addRequested();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    void choose(int index);
    void retranslate();

    QList<Scenario> m_scenarios;
    QList<QToolButton *> m_chips;
    int m_current = -1;
    QLabel *m_title;
    QLabel *m_hint;
    QPushButton *m_add;
    QWidget *m_chipArea;
};

} // namespace kvscope
