// SPDX-License-Identifier: MIT
#pragma once

#include "plan/optionoverrides.h"
#include "plan/scenario.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

namespace kvscope::cli {

/// The vLLM-named options that describe a Scenario, for the commands that
/// plan memory (calc).
class ScenarioOptions
{
public:
    ScenarioOptions();

    void addTo(QCommandLineParser &parser) const;

    /// Builds the scenario from parsed options (through the core's
    /// applyOverrides()); throws kvscope::Error naming the option and value on bad input.
    Scenario scenario(const QCommandLineParser &parser) const;

    /// The options the user set (no defaults), spelled as applyOverrides() reads them.
    OptionValues setValues(const QCommandLineParser &parser) const;

private:
    QList<QCommandLineOption> m_options;
};

} // namespace kvscope::cli
