// SPDX-License-Identifier: MIT
#pragma once

#include "plan/memoryplan.h"

#include <QLabel>

namespace kvscope {

/// One line that says whether the scenario fits, by how much, and — when it
/// does not — the largest batch and sequence length that would (from the core).
class FitBanner : public QLabel
{
    Q_OBJECT

public:
    explicit FitBanner(QWidget *parent = nullptr);

    void showPlan(const MemoryPlan &plan);
    bool showsWarning() const { return m_warning; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void restyle();

    MemoryPlan m_plan;
    bool m_warning = false;
};

} // namespace kvscope
