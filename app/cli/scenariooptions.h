// SPDX-License-Identifier: MIT
#pragma once

#include "core/scenario/scenariovalues.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

namespace kvscope {
struct Scenario;
}

namespace kvscope::cli {

/// The vLLM-named options that describe a Scenario, for the commands that
/// plan memory (calc, compare, export).
class ScenarioOptions
{
public:
    ScenarioOptions();

    void addTo(QCommandLineParser &parser) const;

    /// Builds the scenario from parsed options, the model and GPU found by
    /// `resolvers` (the presets by default); throws kvscope::Error naming the
    /// option and value on bad input.
    Scenario scenario(const QCommandLineParser &parser,
                      const ScenarioResolvers &resolvers = builtinResolvers()) const;
    /// The options as values: those given and those with a default.
    ScenarioValues values(const QCommandLineParser &parser) const;
    /// Only the options given on the command line (overrides of a scenario file).
    ScenarioValues givenValues(const QCommandLineParser &parser) const;

private:
    QList<QCommandLineOption> m_options;
};

} // namespace kvscope::cli
