// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace kvscope::cli {

/// True when `name` is a headless subcommand (calc, models, gpus...).
bool isCommand(const QString &name);

/// True when the subcommand draws charts (export): it runs in a
/// QApplication, on the offscreen platform when there is no display.
bool commandDrawsCharts(const QString &name);

/// Runs a headless subcommand; `arguments` starts with the program name,
/// followed by the subcommand and its options. Returns the exit code.
int runCommand(const QStringList &arguments);

/// The usage text listing subcommands (for --help of the GUI entry point).
QString commandSummary();

int runCalc(const QStringList &arguments);
int runCompare(const QStringList &arguments);
int runModels(const QStringList &arguments);
int runGpus(const QStringList &arguments);
int runQuant(const QStringList &arguments);
int runExport(const QStringList &arguments);
int runFit(const QStringList &arguments);
int runExplainLog(const QStringList &arguments);

} // namespace kvscope::cli
