// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"

#include "app/cli/cliio.h"

namespace kvscope::cli {

namespace {

struct Command
{
    const char *name;
    const char *summary;
    int (*run)(const QStringList &);
    bool widgets = false; ///< draws charts: needs a QApplication (offscreen without a display)
};

constexpr Command commands[] = {
    {"calc", "memory plan for a model on a GPU (weights, KV cache, capacity)", runCalc},
    {"compare", "2 to 4 precisions side by side: memory, capacity, speed, accuracy", runCompare},
    {"fit", "the GPUs, tensor-parallel sizes and precisions that serve N requests of L tokens", runFit},
    {"models", "list the built-in model presets", runModels},
    {"gpus", "list the built-in GPU presets", runGpus},
    {"quant", "quantize a tensor (file or synthetic) and measure the error of each format", runQuant},
    {"explain-log", "read a vLLM or SGLang start-up log: where each GiB went, why the KV cache has its size",
     runExplainLog},
    {"export", "draw a chart or the report to PNG, SVG or PDF, or its data to CSV or JSON", runExport, true},
};

} // namespace

bool isCommand(const QString &name)
{
    for (const Command &c : commands)
        if (name == QLatin1String(c.name))
            return true;
    return false;
}

bool commandDrawsCharts(const QString &name)
{
    for (const Command &c : commands)
        if (name == QLatin1String(c.name))
            return c.widgets;
    return false;
}

QString commandSummary()
{
    QString text = QStringLiteral("Commands (run 'kvscope <command> --help' for options):\n");
    for (const Command &c : commands)
        text += QStringLiteral("  %1  %2\n").arg(QLatin1String(c.name), -11).arg(QLatin1String(c.summary));
    return text;
}

int runCommand(const QStringList &arguments)
{
    const QString name = arguments.value(1);
    for (const Command &c : commands)
        if (name == QLatin1String(c.name))
            return c.run(arguments);
    return fail(QStringLiteral("unknown command '%1'").arg(name), UsageError);
}

} // namespace kvscope::cli
