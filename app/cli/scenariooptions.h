// SPDX-License-Identifier: MIT
#pragma once

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

    /// Whether any of these options is on the command line (the window opens on
    /// the saved scenario otherwise).
    bool anyGiven(const QCommandLineParser &parser) const;

    /// Builds the scenario from parsed options; throws kvscope::Error naming
    /// the option and value on bad input.
    Scenario scenario(const QCommandLineParser &parser) const;

private:
    QList<QCommandLineOption> m_options;
};

/// Parses a strictly positive integer option ("--batch-size 16").
std::int64_t parsePositive(const QString &text, const QString &option);

} // namespace kvscope::cli
